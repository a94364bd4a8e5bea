#!/usr/bin/env python3
"""The compute-heavy programs on pipvm against the original interpreter's
OCaml builds: CPU seconds of each child process, side by side in rounds.

    python benchmarks/oracle.py [--rounds 5] [--seed 1] [--base TREE] [FILE.pip ...]

Each program (benchmarks/programs by default) is played once through the
original's native build by its autoplay.py (first option at every prompt),
which gives the answers; then every round runs, one after the other, the
original's bytecode (bin/pip) and native build (bin/pip-native), and
`pipvm run` on the compiled tier and on the loop, each reading the same
answers with the same seed.  Their transcripts must be identical, or the
benchmark stops.  The figure is the median over the rounds of the child's
user + system CPU time (os.wait4), and for pipvm the game's alone (its
terminal.play, in the child's process_time: Python's start-up, the imports
and compiling the program left out).  The ratio is the game's time (for
the original, all of it: a millisecond of start-up and parsing) over the
native build's.  pipvm's modules are read from .pyc files (in a cache of
this run's, written by a first round that is not counted), as an installed
pipvm reads them: a module the game imports late (the compiled tier's
regions, at a hot block) is no compiling from source, whatever
PYTHONDONTWRITEBYTECODE says.  --base TREE runs another checkout's pipvm
beside this one's (`base compiled`, `base loop`): before and after in one run.

The original is found in $PIP_ORACLE_HOME (default ~/.cache/pip-oracle),
built by build.sh in $PIP_ORACLE_SRC (default /work/shared/oracle, the
reference material, which also holds autoplay.py); without them this says
so and exits 0 (tests do not build it).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

from common import PROGRAMS, ROOT, name

HOME = os.environ.get('PIP_ORACLE_HOME', os.path.expanduser('~/.cache/pip-oracle'))
ORACLE = os.environ.get('PIP_ORACLE_SRC', '/work/shared/oracle')     # (build.sh, autoplay.py)
AUTOPLAY = os.path.join(ORACLE, 'autoplay.py')
# pipvm run, with the CPU time of terminal.play (the game, its loading left
# out) written to the file $PIPVM_GAME_CPU.
DRIVER = r'''
import os, sys, time
from pipvm import cli
from pipvm.play import terminal
play = terminal.play
def timed(*args, **kwargs):
    t = time.process_time()
    try:
        return play(*args, **kwargs)
    finally:
        with open(os.environ['PIPVM_GAME_CPU'], 'w') as f:
            f.write(repr(time.process_time() - t))
terminal.play = timed
sys.exit(cli.main(sys.argv[1:]))
'''


def child_cpu(argv, stdin, env):
    """(The child's CPU seconds, the game's alone or None, its stdout) for
    argv reading the bytes stdin."""
    with tempfile.TemporaryFile() as inp, tempfile.TemporaryFile() as out, \
            tempfile.NamedTemporaryFile('r') as game:
        inp.write(stdin)
        inp.seek(0)
        p = subprocess.Popen(argv, stdin=inp, stdout=out, stderr=subprocess.STDOUT,
                             env=dict(os.environ, PIPVM_GAME_CPU=game.name, **env))
        _, status, usage = os.wait4(p.pid, 0)
        if os.waitstatus_to_exitcode(status) != 0:
            out.seek(0)
            raise SystemExit('%s failed: %s' % (' '.join(argv), out.read()[-300:]))
        out.seek(0)
        text = game.read()
        return usage.ru_utime + usage.ru_stime, float(text) if text else None, out.read()


def engines(seed, cache, base=None):
    """name -> (argv before the program's path, extra environment); cache:
    the folder of pipvm's .pyc files; base: another tree to run beside."""
    # (-P: no current directory on the path, where a checkout's pipvm would
    # shadow the tree's on PYTHONPATH)
    pipvm = [sys.executable, '-P', '-c', DRIVER, 'run', '--seed', str(seed), '--engine']
    out = {
        'original bytecode': ([os.path.join(HOME, 'bin', 'pip')], {'PIP_SEED': str(seed)}),
        'original native': ([os.path.join(HOME, 'bin', 'pip-native')], {'PIP_SEED': str(seed)}),
    }
    for label, tree in [('pipvm', ROOT)] + ([('base', os.path.abspath(base))] if base else []):
        # (an empty PYTHONDONTWRITEBYTECODE is unset; each tree's cache its own)
        env = {'PYTHONPATH': tree, 'PYTHONDONTWRITEBYTECODE': '',
               'PYTHONPYCACHEPREFIX': os.path.join(cache, label)}
        out['%s compiled' % label] = (pipvm + ['compiled'], env)
        out['%s loop' % label] = (pipvm + ['loop'], env)
    return out


def answers(path, seed):
    """The answers autoplay.py gives playing path through the native build."""
    with tempfile.NamedTemporaryFile(suffix='.txt') as f:
        subprocess.run([sys.executable, AUTOPLAY, '--pip', os.path.join(HOME, 'bin', 'pip-native'),
                        '--seed', str(seed), '--answers', f.name, path],
                       check=True, capture_output=True)
        return open(f.name, 'rb').read()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('files', nargs='*', default=PROGRAMS)
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--base', help='another checkout of pipvm, run beside this one')
    a = ap.parse_args()
    missing = [b for b in ('pip', 'pip-native') if not os.access(os.path.join(HOME, 'bin', b), os.X_OK)]
    if missing or not os.path.exists(AUTOPLAY):
        print('the original interpreter is not built in %s (no %s): build it with '
              'PIP_ORACLE_HOME=%s bash %s/build.sh; nothing measured'
              % (HOME, ', '.join(missing) or AUTOPLAY, HOME, ORACLE))
        return 0
    with tempfile.TemporaryDirectory() as cache:
        return measure(a, engines(a.seed, cache, a.base))


def measure(a, runs):
    print('%-16s %-18s %9s %9s %9s' % ('program', 'engine', 'CPU ms', 'game ms', 'x native'))
    for k, path in enumerate(a.files):
        given = answers(path, a.seed)
        times = {e: [] for e in runs}
        for r in range(a.rounds + (k == 0)):    # (the engines alternate within a round)
            outputs = set()
            for e, (argv, env) in runs.items():
                took, game, out = child_cpu(argv + [path], given, env)
                if r or k:          # (the first round writes the .pyc files: not counted)
                    times[e].append((took, took if game is None else game))
                outputs.add(out)
            if len(outputs) != 1:
                raise SystemExit('%s: the engines printed different transcripts' % name(path))
        native = statistics.median(t for t, _ in times['original native'])
        for e, ts in times.items():
            took, game = statistics.median(t for t, _ in ts), statistics.median(g for _, g in ts)
            print('%-16s %-18s %9.1f %9.1f %9.2f' % (name(path), e, 1000 * took, 1000 * game,
                                                    game / native))
    return 0


if __name__ == '__main__':
    sys.exit(main())
