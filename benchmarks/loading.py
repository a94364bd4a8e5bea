#!/usr/bin/env python3
"""Loading a program for the VM (vm.Image: decoding, superinstructions,
quiet code, closures) in this tree against earlier commits, side by side.

    python benchmarks/loading.py REV [REV ...] [--rounds 5]

Each REV is checked out in a temporary git worktree.  In each round every
tree, in turn (the order alternating), loads every example and every
program of the original corpus that compiles, in a process of its own, and
reports the CPU time (time.process_time) of the loads alone.  The medians
are given in milliseconds and against the first REV (above 1: faster).
Every game the VM starts loads its program once; the fuzz properties load
each generated program several times, and so does a test that makes games.
"""
import argparse
import os
import statistics

from common import ROOT, python_in, worktrees

# run inside each tree: compile everything first, then time the loads only
PROBE = r'''
import glob, os, time
from pipvm.engine import vm
from pipvm.core.errors import PipError
from pipvm.play.loader import load_program
programs = []
for f in sorted(glob.glob('examples/*.pip')) + sorted(glob.glob(os.path.join(%r, '**', '*.pip'),
                                                                 recursive=True)):
    try:
        programs.append(load_program(f))
    except PipError:
        pass
start = time.process_time()
for p in programs:
    vm.Image(p)
print(len(programs), time.process_time() - start)
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('revs', nargs='+')
    ap.add_argument('--rounds', type=int, default=5)
    args = ap.parse_args()
    corpus = os.path.join(os.path.dirname(ROOT), 'shared', 'corpus')
    times = {rev: [] for rev in args.revs}
    counts = set()
    with worktrees(args.revs) as trees:
        for r in range(args.rounds):
            order = list(zip(args.revs, trees))
            for rev, tree in (order if r % 2 == 0 else order[::-1]):
                out = python_in(tree, '-c', PROBE % corpus, timeout=None)
                n, seconds = out.split()
                counts.add(int(n))
                times[rev].append(float(seconds) * 1000)
    if len(counts) != 1:
        raise SystemExit('the trees compiled different numbers of programs: %s' % counts)
    base = statistics.median(times[args.revs[0]])
    print('%d programs, %d rounds, CPU ms to load them all (median)' % (counts.pop(), args.rounds))
    for rev in args.revs:
        m = statistics.median(times[rev])
        print('%-12s %8.1f  x%.2f' % (rev, m, base / m))


if __name__ == '__main__':
    main()
