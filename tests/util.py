"""Helpers shared by the tests."""
import contextlib
import os
import signal

from compiler.errors import PipError

DATA = os.path.join(os.path.dirname(__file__), 'data')
# The line pipvm adds after the reference's `Error: syntax error on line N`.
HINT = r'  at (column \d+, found [^\n]+|line \d+, column \d+, found [^\n]+|the end of the file; [^\n]+)\n'


@contextlib.contextmanager
def stopped_after(seconds, error):
    """Raise error where the code inside is after `seconds` (SIGALRM): a
    mutant whose loop stops advancing fails its test instead of hanging it."""
    def stop(*_):
        raise error
    was = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, was)


def error_text(fn, *args):
    """The one-line error `fn(*args)` raises, or '' when it succeeds."""
    try:
        fn(*args)
    except PipError as e:
        return str(e)
    return ''


def check_error(source):
    """The one-line error checking the Pip text source raises (it must)."""
    from compiler.pip import frontend
    text = error_text(frontend.check_text, source)
    assert text, 'expected an error'
    return text


# The lines a game's transcript ends with when its program ends it: a
# winner, a loser (an extension: durak.pip's fool), or none (golf.pip: a
# patience not solved)
ENDS = (b'The game was won by ', b'The game was lost by ', b'No winner has been declared.')


def played_to_its_end(out):
    """Did the transcript out reach the end its program gives it?"""
    return any(end in out for end in ENDS)


DEFAULT_ANSWERS = b'2\nP1\nP2\n'

# Example games in which no seat ever has a choice (the deal decides):
# the tests that look at decisions accept none in them.
CHOICELESS = {'old_maid.pip', 'beggar_my_neighbour.pip'}


def seat_one_decisions(path, seed, decisions=None):
    """Play the game at path with every seat answering at random (seed);
    yield it at each decision of seat 1 (seat 0) that has a choice, before
    that decision is answered, up to `decisions` of them."""
    import random
    from pipvm.engine.vm import Image
    from pipvm.game.game import Game
    from pipvm.play import loader
    program = loader.load_program(path)
    players = program.counts[0] * (program.team_size or 1)
    game = Game(Image(program), seed=seed, players=players,
                names=['P%d' % i for i in range(players)], max_steps=100_000)
    rng = random.Random(seed)
    seen = 0
    while game.decision is not None and (decisions is None or seen < decisions):
        d = game.decision
        if d.seat == 0 and len(d.options) > 1:
            seen += 1
            yield game
        game.answer(rng.randrange(len(d.options)))


def answers_for(folder, name):
    path = os.path.join(folder, name + '.in')
    if os.path.exists(path):
        with open(path, 'rb') as f:
            return f.read()
    return DEFAULT_ANSWERS


class _Std:
    """A stand-in for sys.stdin/stdout/stderr: byte I/O through .buffer."""

    def __init__(self, buffer):
        self.buffer = buffer

    def write(self, text):
        self.buffer.write(text.encode('latin-1'))

    def flush(self):
        pass

    def isatty(self):
        return False

    def close(self):
        pass


class _Echo:
    """Standard input at a terminal: each line read shows in the output."""

    def __init__(self, data, out):
        self.data, self.out = data, out

    def readline(self):
        line = self.data.readline()
        self.out.write(line)
        return line


def run_cli(argv, stdin=b'', echo=False):
    """Run `pipvm ARGV` in this process: (exit status, stdout+stderr bytes).
    echo: the input shows in the output, as typed at a terminal."""
    status, out, _ = _run(argv, stdin, echo, split=False)
    return status, out


def run_cli_split(argv, stdin=b''):
    """(exit status, stdout bytes, stderr bytes): for output read as JSON,
    which a progress line on stderr (a run over 30 s) must not break."""
    return _run(argv, stdin, False, split=True)


def without_progress(err):
    """stderr without the progress lines a run over 30 s writes there
    (off a terminal; as on a loaded machine)."""
    return b''.join(line for line in err.splitlines(True) if not line.startswith(b'pipvm sim: '))


def _run(argv, stdin, echo, split):
    import io
    import sys
    from pipvm import cli
    out = io.BytesIO()
    err = io.BytesIO() if split else out
    saved = sys.stdin, sys.stdout, sys.stderr
    data = io.BytesIO(stdin)
    sys.stdin, sys.stdout, sys.stderr = _Std(_Echo(data, out) if echo else data), _Std(out), _Std(err)
    try:
        status = cli.main(argv)
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved
    return status, out.getvalue(), err.getvalue()


def transcript(argv, stdin):
    """What the golden files hold: the merged output, then `[exit N]`."""
    status, out = run_cli(argv, stdin)
    return out + b'[exit %d]\n' % status


@contextlib.contextmanager
def serving(tables=(), app=None, port=0, **config):
    """A server of these Tables, or of app (a lobby's), as `pipvm serve`
    makes it (config: other uvicorn settings, e.g. http=a protocol class),
    on 127.0.0.1 at port (0: a free one), in a thread; yields its address,
    http://127.0.0.1:PORT."""
    import threading
    import time
    from pipvm.web.serve import listen, make_server
    sock = listen('127.0.0.1', port)
    server = make_server(tables, app, **config)
    thread = threading.Thread(target=server.run, kwargs={'sockets': [sock]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            assert thread.is_alive(), 'the server did not start'
            time.sleep(0.01)
        yield 'http://127.0.0.1:%d' % sock.getsockname()[1]
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()
