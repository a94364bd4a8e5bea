#!/usr/bin/env python3
"""Where a thinking decision's time goes, by part: random playouts, the
belief's worlds, the forks of the iterations, and the tree (the rest).

    python benchmarks/profile_thinking.py [--kind ismcts:200[:cut|:deep][+reuse]] [--decisions 6]
                                          [--files FILE.pip ...]

Seat 1 thinks, the others play at random, games with seeds 1, 2, ... as
thinking.py plays them (bots.decisions_per_second), until seat 1 has made
DECISIONS decisions with a real choice.  Each part is timed in CPU time
around its calls (the machine is shared); forks made inside the belief are
counted in the worlds, not in the forks.
"""
import argparse
import collections
import os
import sys
import time

import bots
from common import ROOT

from pipvm.game.game import Game
from pipvm.play import bots as thinking

FILES = [os.path.join(ROOT, 'examples', 'euchre.pip'), os.path.join(ROOT, 'examples', 'oh_hell.pip')]


class Parts:
    """CPU seconds and calls per part, timed around the bot's own calls."""

    def __init__(self):
        self.seconds = collections.Counter()
        self.calls = collections.Counter()
        self.answers = 0            # answered in playouts
        self.inside = []            # the parts being timed, innermost last

    def timed(self, name, f):
        def run(*args, **kwargs):
            self.inside.append(name)
            start = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                self.inside.pop()
                if not (name == 'fork' and 'worlds' in self.inside):
                    self.seconds[name] += time.process_time() - start
                    self.calls[name] += 1
        return run


def profile(path, kind, decisions):
    parts = Parts()
    plain = thinking.playout, Game.fork, thinking.Thinker.worlds, thinking.Thinker.choose

    def playout(g, rng):
        before = len(g.history)
        try:
            plain[0](g, rng)
        finally:                    # (a cut playout ends in an exception)
            parts.answers += len(g.history) - before
        return g
    thinking.playout = parts.timed('playouts', playout)
    Game.fork = parts.timed('fork', plain[1])
    thinking.Thinker.worlds = parts.timed('worlds', plain[2])
    thinking.Thinker.choose = parts.timed('choose', plain[3])
    try:
        program = bots.loader.load_program(path)
        players = program.counts[0] * (program.team_size or 1)
        kind, *reuse = kind.split('+')
        name, n, *cut = kind.split(':')
        if cut or reuse:            # ismcts:N:cut, as the seats build it; +reuse: keeps its tree

            def build(n, rng):
                bot = thinking.make(name, n, rng, cut='deep' if cut == ['deep'] else bool(cut))
                bot.reuse = bool(reuse)
                return bot
            bots.THINKERS[name] = build
        bots.decisions_per_second(bots.default_image(program), players, name, int(n), decisions)
    finally:
        thinking.playout, Game.fork, thinking.Thinker.worlds, thinking.Thinker.choose = plain
        bots.THINKERS.update(mc=thinking.MonteCarlo, ismcts=thinking.ISMCTS)
    return parts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kind', default='ismcts:200')
    ap.add_argument('--decisions', type=int, default=6)
    ap.add_argument('--files', nargs='*', default=FILES, metavar='FILE.pip')
    a = ap.parse_args()
    print('%s, %d decisions of seat 1: share of its thinking CPU time' % (a.kind, a.decisions))
    for path in a.files:
        p = profile(path, a.kind, a.decisions)
        total = p.seconds['choose']
        rest = total - p.seconds['playouts'] - p.seconds['worlds'] - p.seconds['fork']
        print('  %s: %.2f s; playouts %.0f%% (%.1f answers each, %.1f us an answer), '
              'worlds %.0f%%, forks %.0f%%, tree %.0f%%' % (
                  os.path.basename(path), total, 100 * p.seconds['playouts'] / total,
                  p.answers / p.calls['playouts'], 1e6 * p.seconds['playouts'] / p.answers,
                  100 * p.seconds['worlds'] / total, 100 * p.seconds['fork'] / total,
                  100 * rest / total), flush=True)


if __name__ == '__main__':
    sys.exit(main())
