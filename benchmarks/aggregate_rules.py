#!/usr/bin/env python3
"""A rule with an aggregate as closures (pipvm/engine/pure.py) against the
dispatch loop, side by side in one run: the cards of each hand a rule
allows, as `play` and `canplay` ask for them.

    python benchmarks/aggregate_rules.py [--runs R]

The rules are the extension's counting as games use it (President's "as
many cards of this rank as were led", the highest card of the pile); the
hands are a standard deck dealt to four.  Each run times both paths over
the same hands, interleaved, in CPU time; the ratio is loop / closures.
"""
import argparse
import statistics
import time

from compiler.pip import frontend
from pipvm.game.game import Game

SOURCE = '''Game "Counting" requires 4 players.
Deck stock = standard.
Area pile labeled "Pile" is faceup.
Number needed = 2.
Rule enough(p, c, cl) = (count x in p->hand where x->rank == c->rank) >= needed.
Rule above(p, c, cl) = cl->size == 0 or (max x in cl of x->rank) < c->rank.
Action main {
  shuffle stock.
  deal 13 from stock to players.
  deal 5 from players->first to pile.
  play enough from players->last to pile.
}
'''


def timed(machine, rule, pile, rounds):
    start = time.process_time()
    for _ in range(rounds):
        for p in machine.players:
            machine.playable(rule, p, pile)
    return time.process_time() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=7)
    ap.add_argument('--rounds', type=int, default=300)
    args = ap.parse_args()
    program = frontend.compile_text(SOURCE)
    game = Game(program, seed=1, players=4, names=['A', 'B', 'C', 'D'])
    m = game.machine                            # waiting at the play: 5 cards on the pile
    pile = m.globals[program.global_names.index('pile')].cards
    for name in ('enough', 'above'):
        rule = [c.name for c in program.codes].index(name)
        closures = m.image.pure[rule]
        assert closures is not None
        ratios = []
        for _ in range(args.runs):
            fast = timed(m, rule, pile, args.rounds)
            m.image.pure[rule] = None           # the same hands on the loop
            slow = timed(m, rule, pile, args.rounds)
            m.image.pure[rule] = closures
            ratios.append(slow / fast)
        print('%-7s loop / closures: %.2fx (median of %d runs; min %.2fx, max %.2fx)'
              % (name, statistics.median(ratios), args.runs, min(ratios), max(ratios)))


if __name__ == '__main__':
    main()
