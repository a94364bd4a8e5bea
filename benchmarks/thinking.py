#!/usr/bin/env python3
"""Thinking decisions per second of this tree against earlier commits, side
by side in one run.

    python benchmarks/thinking.py REV [REV ...] [--kind ismcts:200 ...] [--decisions 12]
                                  [--rounds 2] [--files FILE.pip ...]

Each REV is checked out in a temporary git worktree (either package layout);
each round plays, in every tree in turn (the order alternating), games with
seeds 1, 2, ... where seat 1 thinks (KIND) and the others play at random,
until seat 1 has made DECISIONS decisions with a real choice, on the tree's
default engine (what `pipvm sim` and `pipvm run` play on: the compiled
tier where the tree has one, its forks playing whole actions); the figure is
those decisions per second of its thinking CPU time (the tree's own
benchmarks/bots.py times them, its clock made time.process_time: the
machine is shared).  Every tree plays the same FILEs (from this tree,
default Euchre and Oh Hell); medians over the rounds, and the ratio to the
first REV.  --kind may be given several times (`ismcts:100:cut`: a cut bot,
in trees that have one; `ismcts:200+reuse`, `ismcts:200:deep+reuse`: one
that keeps its tree between its decisions, bots.ISMCTS's reuse): every
tree plays every kind, each pair a column, the ratio to the first tree's
first kind.
"""
import argparse
import json
import os
import statistics

from common import ROOT, python_in, worktrees

FILES = [os.path.join(ROOT, 'examples', 'euchre.pip'), os.path.join(ROOT, 'examples', 'oh_hell.pip')]

# Run in each tree: its own benchmarks/bots.py (either package layout) times
# the thinking seat.
PROBE = r'''
import json, os, sys
sys.path[:0] = [os.path.join(os.getcwd(), 'benchmarks'), os.getcwd()]
import time, types
import bots
bots.time = types.SimpleNamespace(perf_counter=time.process_time)   # CPU: a shared machine
path, kind, n, decisions = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
flags = sys.argv[5].split('+')
if flags != ['-']:                  # a cut bot or one that keeps its tree, as seats build it
    try:
        from pipvm.play.bots import ISMCTS, make
    except ImportError:             # a tree without cut bots
        print('null')
        sys.exit()
    if 'reuse' in flags and not hasattr(ISMCTS, 'subtree'):
        print('null')               # a tree whose ISMCTS keeps no tree
        sys.exit()

    def build(n, rng):
        bot = make(kind, n, rng, cut='deep' if 'deep' in flags else 'cut' in flags)
        bot.reuse = 'reuse' in flags
        return bot
    bots.THINKERS[kind] = build
program = bots.loader.load_program(path)
players = program.counts[0] * (program.team_size or 1)
try:                                # the tree's default engine, as `pipvm sim` plays
    from pipvm.engine import engines
    image = bots.Image(program, compiled=engines.compiled(engines.DEFAULT))
except ImportError:                 # a tree with one engine, the loop
    image = bots.Image(program)
print(json.dumps(bots.decisions_per_second(image, players, kind, n, decisions)))
'''


def rate(tree, path, kind, decisions):
    kind, *reuse = kind.split('+')
    name, n, *cut = kind.split(':')
    flags = '+'.join(cut + reuse) or '-'
    return json.loads(python_in(tree, '-c', PROBE, path, name, n, decisions, flags))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('revs', nargs='+', metavar='REV')
    ap.add_argument('--kind', action='append', dest='kinds', metavar='KIND')
    ap.add_argument('--decisions', type=int, default=12)
    ap.add_argument('--rounds', type=int, default=2)
    ap.add_argument('--files', nargs='*', default=FILES, metavar='FILE.pip')
    args = ap.parse_args()
    kinds = args.kinds or ['ismcts:200']
    with worktrees(args.revs) as trees:
        runs = [(rev, t, k) for rev, t in zip(args.revs, trees) for k in kinds]
        rates = {(t, k, f): [] for _, t, k in runs for f in args.files}
        for r in range(args.rounds):
            order = runs if r % 2 == 0 else runs[::-1]
            for f in args.files:
                for _, t, k in order:
                    r = rate(t, f, k, args.decisions)
                    if r is not None:
                        rates[t, k, f].append(r)
        print('%d decisions of seat 1 per game file, %d rounds (decisions/s of thinking CPU '
              'time; ratio to %s %s)' % (args.decisions, args.rounds, args.revs[0], kinds[0]))
        for f in args.files:
            base = statistics.median(rates[trees[0], kinds[0], f])
            for rev, t, k in runs:
                if not rates[t, k, f]:
                    continue            # (no cut bots in that tree)
                m = statistics.median(rates[t, k, f])
                print('  %-16s %-12s %-15s %7.2f decisions/s  %5.2fx' % (
                    os.path.basename(f), rev, k, m, m / base))


if __name__ == '__main__':
    main()
