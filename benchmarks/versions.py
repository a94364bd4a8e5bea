#!/usr/bin/env python3
"""`pipvm sim` throughput of this tree against an earlier commit, side by side.

    python benchmarks/versions.py REV [--games N] [--rounds R] [FILE.pip ...]

REV is checked out in a temporary git worktree; each round runs both trees'
`pipvm sim --json` on each game, alternating, and the ratio of the medians
is reported (above 1: this tree is faster).  The reports must agree on
everything but timing, or the benchmark stops.

    python benchmarks/versions.py REV --cpu ...

measures CPU time instead of wall time (each tree plays the games in one
process, timed with time.process_time): steadier on a shared machine.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from common import ROOT, name

GAMES = [os.path.join(ROOT, 'tests', 'data', 'full', 'crazy_eights.pip'),
         os.path.join(ROOT, 'examples', 'euchre.pip')]


def sim(tree, path, games):
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, '-m', 'pipvm', 'sim', path, '--games', str(games),
                          '--json'], check=True, capture_output=True, cwd=tree, env=env).stdout
    report = json.loads(out)
    return report.pop('timing')['games_per_second'], report


# Plays games 1..N of a game in this process, as `pipvm sim` does, and prints
# games per CPU second.  It runs in either tree: `loader` was once `game`.
CPU_SNIPPET = """
import sys, time
from pipvm import sim
from pipvm.seats import Seating, parse_kind
try:
    from pipvm import loader
except ImportError:
    from pipvm import game as loader
program, engine = loader.load_engine(sys.argv[1], 'vm', 100000)
seating = sim.sim_seating(program, Seating({}, parse_kind('random'), None))
t = time.process_time()
for seed in range(1, int(sys.argv[2]) + 1):
    sim.play_one(engine, seating, seed)
print(int(sys.argv[2]) / (time.process_time() - t))
"""


def sim_cpu(tree, path, games):
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, '-c', CPU_SNIPPET, path, str(games)], check=True,
                         capture_output=True, cwd=tree, env=env).stdout
    return float(out), None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('rev')
    ap.add_argument('--games', type=int, default=300)
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--cpu', action='store_true', help='CPU time, in one process per tree')
    ap.add_argument('files', nargs='*')
    a = ap.parse_args()
    measure = sim_cpu if a.cpu else sim
    with tempfile.TemporaryDirectory() as tmp:
        old = os.path.join(tmp, 'old')
        subprocess.run(['git', 'worktree', 'add', '-q', '--detach', old, a.rev], cwd=ROOT, check=True)
        try:
            print('%-24s %8s %12s %12s %8s' % ('game', 'games', a.rev[:10] + ' g/s', 'now g/s', 'ratio'))
            for path in a.files or GAMES:
                before, after = [], []
                for _ in range(a.rounds):
                    rate, old_report = measure(old, path, a.games)
                    before.append(rate)
                    rate, new_report = measure(ROOT, path, a.games)
                    after.append(rate)
                    if old_report != new_report:
                        sys.exit('%s: the two trees report different results' % path)
                b, n = statistics.median(before), statistics.median(after)
                print('%-24s %8d %12.1f %12.1f %7.2fx' % (name(path), a.games, b, n, n / b))
        finally:
            subprocess.run(['git', 'worktree', 'remove', '--force', old], cwd=ROOT, check=True)


if __name__ == '__main__':
    main()
