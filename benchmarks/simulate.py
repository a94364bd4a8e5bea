#!/usr/bin/env python3
"""Simulation throughput: `pipvm sim` games per second, with 1 and 2 jobs.

    python benchmarks/simulate.py [--games 200] [FILE.pip ...]

Each figure is sim's own timing (loading excluded) with random bots and the
default step limit; games that reach it count like the others.
"""
import argparse
import json
import os
import subprocess
import sys

from common import GAMES, name

JOBS = (1, 2)


def games_per_second(path, games, jobs):
    out = subprocess.run([sys.executable, '-m', 'pipvm', 'sim', path, '--games', str(games),
                          '--jobs', str(jobs), '--precision', '0', '--json'],
                         check=True, capture_output=True).stdout
    report = json.loads(out)
    return report['timing']['games_per_second'], report


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--games', type=int, default=200)
    ap.add_argument('files', nargs='*')
    a = ap.parse_args()
    print('%d CPUs' % os.cpu_count())
    print('%-24s %8s %10s %10s %8s' % ('game', 'games', '1 job g/s', '2 jobs g/s', 'speedup'))
    for path in a.files or GAMES:
        # Random play of the bundled Crazy Eights is long (thousands of decisions).
        games = max(10, a.games // 10) if name(path) == 'examples/crazy_eights' else a.games
        rates = [games_per_second(path, games, j)[0] for j in JOBS]
        print('%-24s %8d %10.1f %10.1f %7.2fx' % (name(path), games, *rates, rates[1] / rates[0]))


if __name__ == '__main__':
    main()
