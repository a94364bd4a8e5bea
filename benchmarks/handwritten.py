#!/usr/bin/env python3
"""The VM against a hand-written Python Crazy Eights, side by side.

    python benchmarks/handwritten.py [--games 1000] [--rounds 5] [--engine compiled]

Each round plays the same games (seeds 1..N) of tests/data/full/crazy_eights.pip
on the VM, as `pipvm sim` does (sim.play_one, random bots, the default step
limit; --engine: by default the default engine, the compiled tier, or
`loop`), and of handwritten_crazy_eights.py, in alternating order, each timed
in CPU seconds (time.process_time: steadier than wall time on a shared
machine).  It prints the median games per second of each and the VM's as a
ratio of the hand-written one's, then both programs' statistics (mean
decisions per game, branching, wins per seat) with how many standard errors
apart they are: the hand-written game must play the same game, or the ratio
means nothing.
"""
import argparse
import math
import os
import statistics
import time

from common import ROOT

import handwritten_crazy_eights as handwritten

GAME = os.path.join(ROOT, 'tests', 'data', 'full', 'crazy_eights.pip')
MAX_STEPS = 100_000            # pipvm sim's default


# --- statistics -----------------------------------------------------------------

def stats(games, players=2):
    """The statistics `pipvm sim` reports, of [(winning seat, decisions, options)],
    and the spread of the per-game figures (for standard errors)."""
    n = len(games)
    decisions = [d for _, d, _ in games]
    mean = statistics.fmean(decisions)
    branching = sum(o for _, _, o in games) / sum(decisions)
    return {'games': n, 'length': mean, 'branching': branching,
            'wins': [sum(seat == s for seat, _, _ in games) for s in range(players)],
            'length_sd': statistics.stdev(decisions),
            # branching is a ratio of sums; its spread by the delta method
            'branching_sd': statistics.stdev(o - branching * d for _, d, o in games) / mean}


def from_report(report):
    """The same statistics from `pipvm sim --json`'s report (no spreads)."""
    return {'games': report['games'], 'length': report['length']['mean'],
            'branching': report['branching'], 'wins': [s['wins'] for s in report['seats']]}


def compare(vm, hw):
    """[(statistic, VM value, hand-written value, difference in standard
    errors)].  The spreads are the hand-written sample's: if both play the
    same game, both samples have them."""
    scale = math.sqrt(1 / vm['games'] + 1 / hw['games'])
    rows = [('mean decisions', vm['length'], hw['length'], hw['length_sd'] * scale),
            ('branching', vm['branching'], hw['branching'], hw['branching_sd'] * scale)]
    for seat, (a, b) in enumerate(zip(vm['wins'], hw['wins'])):
        p = (a + b) / (vm['games'] + hw['games'])
        rows.append(('seat %d wins' % (seat + 1), a / vm['games'], b / hw['games'],
                     math.sqrt(p * (1 - p)) * scale))
    return [(what, a, b, (a - b) / se if se else 0.0) for what, a, b, se in rows]


def format_comparison(rows):
    lines = ['%-16s %10s %12s %8s' % ('statistic', 'VM', 'hand-written', 'z')]
    lines += ['%-16s %10.4f %12.4f %+8.2f' % row for row in rows]
    return '\n'.join(lines)


# --- timing ---------------------------------------------------------------------

def vm_player(path, games, engine=None):
    """A function that plays games 1..N of path on the VM (engine: by
    default engines.DEFAULT) as `pipvm sim` does: [(winning seat,
    decisions, options)]."""
    from pipvm.engine import engines
    from pipvm.play import loader
    from pipvm.design import sim
    from pipvm.play.seats import seating
    program, engine = loader.load_engine(path, engine or engines.DEFAULT, MAX_STEPS)
    seats = sim.sim_seating(program, seating(bots='random'))

    def play():
        results = [sim.play_one(engine, seats, seed) for seed in range(1, games + 1)]
        assert all(r.ending == 'winner' for r in results), 'a VM game did not end with a winner'
        return [(r.seat, r.decisions, r.options) for r in results]
    return play


def side_by_side(plays, rounds):
    """({name: results}, {name: median CPU seconds}) of plays ({name:
    function}) run in turn, each round in the other order."""
    seconds = {k: [] for k in plays}
    results = {}
    for r in range(rounds):
        for k in (list(plays) if r % 2 == 0 else list(plays)[::-1]):
            t = time.process_time()
            results[k] = plays[k]()
            seconds[k].append(time.process_time() - t)
    return results, {k: statistics.median(ts) for k, ts in seconds.items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--games', type=int, default=1000)
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--engine', default=None, help='compiled (the default) or loop')
    a = ap.parse_args()
    plays = {'vm': vm_player(GAME, a.games, a.engine),
             'hand-written': lambda: handwritten.simulate(a.games)}
    results, seconds = side_by_side(plays, a.rounds)
    rate = {k: a.games / t for k, t in seconds.items()}
    print('%d games of full/crazy_eights on engine %s, %d rounds, CPU time, medians'
          % (a.games, a.engine or 'compiled (default)', a.rounds))
    print('%-14s %12s' % ('program', 'games/s'))
    for k in plays:
        print('%-14s %12.1f' % (k, rate[k]))
    print('VM / hand-written: %.4f' % (rate['vm'] / rate['hand-written']))
    print()
    print(format_comparison(compare(stats(results['vm']), stats(results['hand-written']))))


if __name__ == '__main__':
    main()
