#!/usr/bin/env python3
"""Common random numbers in `pipvm sim`: how many games a report plays
before its intervals are narrow enough, when the random bots draw from the
game's generator (before: the series are dealt different cards once a
random bot has chosen) and from generators of their own (after: every
series of a seed is dealt the same cards, so the skill gap is paired on
the same deals).

    python benchmarks/common_random.py [--runs 6] [--precision 0.2] [--games 400]
        GAME.pip --seat 1=ismcts:30 ...     (the rest: pipvm sim's options)

Each run i plays the report from seed 1 + 1000 i, before and after in turn
(alternating which goes first); printed per run and as medians: the games
each series played, the skill gap's interval width, and why it stopped.
"""
import argparse
import statistics
import sys
import time

import common  # noqa: F401  (puts this tree first on sys.path)
from pipvm import cli
from pipvm.core import plain
from pipvm.core.deepstack import deep
from pipvm.design import playing, sim

ORIGINAL = playing.played_as


def played(apart):
    def played_as(seating, seed, rotate=False):
        turn, seats = ORIGINAL(seating, seed, rotate)
        return turn, plain.evolve(seats, apart=apart)
    return played_as


def report(argv, apart):
    args = cli.build_parser().parse_args(['sim'] + argv)
    variant = sim.prepare(args, cli.seating(args), args.set)
    playing.played_as = played(apart)
    try:
        start = time.process_time()
        summary, _ = deep(lambda: sim.play(args, variant))
        return summary, time.process_time() - start
    finally:
        playing.played_as = ORIGINAL


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=6)
    known, rest = ap.parse_known_args()
    out = {False: [], True: []}
    for i in range(known.runs):
        argv = rest + ['--seed', str(1 + 1000 * i), '--jobs', '1']
        for apart in ((False, True) if i % 2 == 0 else (True, False)):
            s, cpu = report(argv, apart)
            (k,) = s['skill'][:1] or [None]
            width = k['gap_ci95'][1] - k['gap_ci95'][0] if k else float('nan')
            out[apart].append((s['games'], width, cpu))
            print('run %d %-6s games %4d  gap %+.3f width %.3f  stopped: %s (%s)  %.0f CPU s'
                  % (i, 'after' if apart else 'before', s['games'], k['gap'] if k else 0,
                     width, s['stopping']['reason'], s['stopping']['widest'], cpu), flush=True)
    for apart in (False, True):
        games = [g for g, _, _ in out[apart]]
        print('%-6s median games %.0f (mean %.1f), median gap width %.3f, CPU %.0f s'
              % ('after' if apart else 'before', statistics.median(games),
                 statistics.fmean(games), statistics.median(w for _, w, _ in out[apart]),
                 sum(c for _, _, c in out[apart])))


if __name__ == '__main__':
    sys.exit(main())
