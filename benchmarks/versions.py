#!/usr/bin/env python3
"""`pipvm sim` throughput of this tree against earlier commits, side by side.

    python benchmarks/versions.py REV [REV ...] [--games N] [--rounds R] [--files FILE.pip ...]

Each REV is checked out in a temporary git worktree (a directory is used
as it stands; `--engines vm compiled` runs each tree with each engine); each round runs every
tree's `pipvm sim --json` on each game, in turn (the order alternating from
round to round), and the medians are reported against the first REV (above
1: faster).  The reports must agree on everything but timing, or the
benchmark stops.

    python benchmarks/versions.py REV ... --cpu [--handwritten] ...

measures CPU time instead of wall time (each tree plays the games in one
process, timed with time.process_time): steadier on a shared machine.
--handwritten also plays the hand-written Crazy Eights
(handwritten_crazy_eights.py) in the same rounds, in a process of its own,
and gives each tree's speed as a ratio of its (on full/crazy_eights).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from common import ROOT, name, python_in

GAMES = [os.path.join(ROOT, 'tests', 'data', 'full', 'crazy_eights.pip'),
         os.path.join(ROOT, 'examples', 'euchre.pip')]


def sim(tree, path, games):
    report = json.loads(python_in(tree, '-m', 'pipvm', 'sim', path, '--games', games, '--json',
                                  timeout=None))
    return report.pop('timing')['games_per_second'], report


# Plays games 1..N of a game in this process, as `pipvm sim` does, and prints
# games per CPU second.  It runs in any tree: the modules moved into
# sub-packages, and `loader` was once `game`.
CPU_SNIPPET = """
import sys, time
try:                                    # the layout by concern (issue 21)
    from pipvm.design import sim
    from pipvm.play import loader
    from pipvm.play.seats import Seating, parse_kind
except ImportError:                     # the flat layout before it
    from pipvm import sim
    from pipvm.seats import Seating, parse_kind
    try:
        from pipvm import loader
    except ImportError:
        from pipvm import game as loader
program, engine = loader.load_engine(sys.argv[1], sys.argv[3], 100000)
seating = sim.sim_seating(program, Seating({}, parse_kind('random'), None))
t = time.process_time()
for seed in range(1, int(sys.argv[2]) + 1):
    sim.play_one(engine, seating, seed)
print(int(sys.argv[2]) / (time.process_time() - t))
"""


def sim_cpu(tree, path, games, engine='vm'):
    return float(python_in(tree, '-c', CPU_SNIPPET, path, games, engine, timeout=None)), None


HANDWRITTEN_SNIPPET = """
import sys, time
import handwritten_crazy_eights as hw
t = time.process_time()
hw.simulate(int(sys.argv[1]))
print(int(sys.argv[1]) / (time.process_time() - t))
"""


def handwritten_cpu(games):
    out = subprocess.run([sys.executable, '-c', HANDWRITTEN_SNIPPET, str(games)], check=True,
                         capture_output=True, cwd=os.path.dirname(os.path.abspath(__file__))).stdout
    return float(out)


HANDWRITTEN = 'hand-written'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('revs', nargs='+', metavar='REV')
    ap.add_argument('--games', type=int, default=300)
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--cpu', action='store_true', help='CPU time, in one process per tree')
    ap.add_argument('--handwritten', action='store_true',
                    help='also the hand-written Crazy Eights, and ratios to it (with --cpu)')
    ap.add_argument('--files', nargs='*', default=None, metavar='FILE.pip')
    ap.add_argument('--engines', nargs='+', default=['vm'], choices=('vm', 'compiled'),
                    help='each tree with each engine (with --cpu)')
    a = ap.parse_args()
    if a.files:                 # (each tree runs in its own folder)
        a.files = [os.path.abspath(f) for f in a.files]
    measure = sim_cpu if a.cpu else sim
    with tempfile.TemporaryDirectory() as tmp:
        trees, made = {}, []
        for i, rev in enumerate(a.revs):
            if os.path.isdir(rev):      # a checkout as it stands
                trees[rev] = os.path.abspath(rev)
                continue
            trees[rev] = os.path.join(tmp, 'tree%d' % i)
            made.append(trees[rev])
            subprocess.run(['git', 'worktree', 'add', '-q', '--detach', trees[rev], rev],
                           cwd=ROOT, check=True)
        trees['now'] = ROOT
        if len(a.engines) > 1:          # each tree with each engine: 'REV ENGINE'
            trees = {'%s %s' % (k, e): (t, e) for k, t in trees.items() for e in a.engines}
        else:
            trees = {k: (t, a.engines[0]) for k, t in trees.items()}
        first_key = list(trees)[0]
        try:
            for path in a.files or GAMES:
                rates = {k: [] for k in trees}
                hand = a.handwritten and name(path) == 'full/crazy_eights'
                if hand:
                    rates[HANDWRITTEN] = []
                for r in range(a.rounds):
                    reports = {}
                    for k in (list(rates) if r % 2 == 0 else list(rates)[::-1]):
                        if k == HANDWRITTEN:
                            rates[k].append(handwritten_cpu(a.games * 20))
                            continue
                        tree, engine = trees[k]
                        rate, reports[k] = (measure(tree, path, a.games) if engine == 'vm'
                                            else measure(tree, path, a.games, engine))
                        rates[k].append(rate)
                    if len({json.dumps(v, sort_keys=True) for v in reports.values()}) > 1:
                        sys.exit('%s: the trees report different results' % path)
                med = {k: statistics.median(v) for k, v in rates.items()}
                first = med[first_key]
                print('%s, %d games, %d rounds, medians' % (name(path), a.games, a.rounds))
                print('%-24s %10s %10s %10s%s' % ('tree', 'g/s', 'vs ' + first_key[-16:],
                                                  'vs prev', '  / hand-written' if hand else ''))
                prev = None
                for k in trees:
                    print('%-24s %10.1f %9.2fx %10s%s' % (
                        k[-24:], med[k], med[k] / first,
                        '' if prev is None else '%.2fx' % (med[k] / prev),
                        '  %.4f' % (med[k] / med[HANDWRITTEN]) if hand else ''))
                    prev = med[k]
                if hand:
                    print('%-12s %10.1f' % (HANDWRITTEN, med[HANDWRITTEN]))
                print()
        finally:
            for tree in made:
                subprocess.run(['git', 'worktree', 'remove', '--force', tree], cwd=ROOT,
                                   check=True)


if __name__ == '__main__':
    main()
