"""Progress of `pipvm sim` and `pipvm sweep` on stderr, each series of games
(as seated, the random baseline, ...) counted apart."""
import time

from pipvm.design.text import games_rate, significant


class Progress:
    """Progress on stderr.  At a terminal, a bar redrawn at most ten times a
    second; otherwise (a log, a pipe, a CI job) a line every LINE_EVERY
    seconds, so that a long run that is cut short has said how far it got.
    Each call gives every series' games so far and at most, as
    [(label, done, most)]: 'as seated 40/200, random 40/200 games' (one
    count of both would read as if half the run were done).  With thinking
    bots, it shows decisions per second too; `prefix` (the sweep's variant)
    goes first."""

    LINE_EVERY = 30.0

    def __init__(self, stream, thinking=False, tty=True):
        self.stream, self.thinking, self.tty = stream, thinking, tty
        self.prefix = ''
        self.start = self.last = time.perf_counter()

    def __call__(self, counts, decisions=0):
        now = time.perf_counter()
        done, most = sum(c[1] for c in counts), sum(c[2] for c in counts)
        if now - self.last < (0.1 if self.tty else self.LINE_EVERY) and (done < most
                                                                           or not self.tty):
            return
        self.last = now
        seconds = max(now - self.start, 1e-9)
        series = ', '.join('%s%d/%d' % (label + ' ' if label else '', d, m)
                           for label, d, m in counts)
        said = ', '.join([self.prefix + series + ' games',
                          games_rate(significant(done / seconds))]
                         + ['%.3g decisions/s' % (decisions / seconds)] * self.thinking)
        if self.tty:
            filled = 30 * done // max(1, most)
            self.stream.write('\r[%s%s] %s' % ('#' * filled, '.' * (30 - filled), said))
        else:
            self.stream.write('pipvm sim: %s (%.0f s)\n' % (said, seconds))
        self.stream.flush()

    def clear(self):
        if self.tty:
            self.stream.write('\r' + ' ' * 110 + '\r')
            self.stream.flush()
