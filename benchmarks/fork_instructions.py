#!/usr/bin/env python3
"""Machine instructions of one fork (Machine.fork) of a thinking bot's
states, in this tree against earlier commits (callgrind: no load disturbs it).

    python benchmarks/fork_instructions.py REV [REV ...] [--reps 10]
                                           [--files FILE.pip ...]

Each tree finds playouts.py's six states (compiled tier) and forks each
once (every function made), then REPS and 3 x REPS times in two runs under
valgrind with PYTHONHASHSEED=0; the difference between the runs over the
difference between their forks is a fork's instructions (the loading and
the states cancel out).  The freeing of each copy (at the next) is counted
with it.  About half a minute a run.
"""
import argparse
import os
import re
import subprocess
import sys

from common import worktrees
from playouts import FILES, STATES

FORKS = STATES + r'''
machines = [s.machine for s in states]
for m in machines:
    m.fork()
for _ in range(reps):
    for m in machines:
        m.fork()
'''


def instructions(tree, path, reps):
    def run(n):
        env = dict(os.environ, PYTHONPATH=tree, PYTHONHASHSEED='0')
        out = subprocess.run(['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null',
                              sys.executable, '-c', FORKS, path, str(n), 'compiled'],
                             check=True, capture_output=True, text=True, cwd=tree, env=env)
        return int(re.search(r'Collected : ([\d,]+)', out.stderr).group(1).replace(',', ''))
    return (run(3 * reps) - run(reps)) / (2 * reps * 6)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('revs', nargs='+', metavar='REV')
    ap.add_argument('--reps', type=int, default=10)
    ap.add_argument('--files', nargs='*', default=FILES, metavar='FILE.pip')
    a = ap.parse_args()
    files = [os.path.abspath(f) for f in a.files]
    with worktrees(a.revs) as trees:
        print('machine instructions a fork of the six playout states (callgrind; '
              'ratio: %s\'s over each)' % a.revs[0])
        for f in files:
            counts = [instructions(tree, f, a.reps) for tree in trees]
            for rev, n in zip(a.revs, counts):
                print('  %-12s %-20s %8.0f  %6.3fx' % (os.path.basename(f), rev, n, counts[0] / n))


if __name__ == '__main__':
    sys.exit(main())
