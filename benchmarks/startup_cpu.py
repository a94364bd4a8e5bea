#!/usr/bin/env python3
"""Start-up as CPU time, which a loaded machine stretches less than the wall
clock: `pipvm run GAME.pipc --seed 1` with empty input (it stops at its
first prompt), in several trees side by side, alternating, against a bare
`python -c pass`.  Medians in milliseconds.

    python benchmarks/startup_cpu.py [--runs 9] [--no-pyc] GAME.pipc TREE[:ENGINE] ...

TREE is a checkout (put first on PYTHONPATH), ENGINE an --engine name
(none: the tree's default).  Modules are read from .pyc files, as an
installed pipvm reads them (common.cached_env); with --no-pyc each run
compiles them from source.  benchmarks/startup.py measures the wall clock.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile

from common import cached_env


def cpu_ms(argv, env, cwd=None):
    """The CPU (user + system) a child process used, in milliseconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=9)
    ap.add_argument('--no-pyc', action='store_true',
                    help='compile every module from source at each run, writing no .pyc')
    ap.add_argument('game')
    ap.add_argument('trees', nargs='+')
    a = ap.parse_args()
    times = {t: [] for t in ['python -c pass'] + a.trees}
    with tempfile.TemporaryDirectory() as pyc:     # (the trees' .pyc, written by a first run)
        for _ in range(a.runs + 1):
            times['python -c pass'].append(cpu_ms([sys.executable, '-c', 'pass'],
                                                  dict(os.environ)))
            for t in a.trees:
                tree, _, engine = t.partition(':')
                argv = [sys.executable, '-m', 'pipvm', 'run', os.path.abspath(a.game),
                        '--seed', '1'] + (['--engine', engine] if engine else [])
                # (in the tree's folder: `python -m` puts the current folder first on the path)
                env = cached_env(pyc, tree)
                if a.no_pyc:
                    env = dict(env, PYTHONDONTWRITEBYTECODE='1')
                    del env['PYTHONPYCACHEPREFIX']
                times[t].append(cpu_ms(argv, env, os.path.abspath(tree)))
    for t, v in times.items():
        v = v[1:]                       # (the first run wrote the .pyc files)
        print('%-40s %8.1f ms (min %.1f)' % (t, statistics.median(v), min(v)))


if __name__ == '__main__':
    main()
