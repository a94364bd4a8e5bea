#!/usr/bin/env python3
"""Thinking bots: how fast they decide, how that scales with N, what quiet
playouts buy, and the fairness and skill tests at full size.

    python benchmarks/bots.py [--games 1000] [--quick]

Speed: seat 1 is the bot, the others random; games with seeds 1, 2, ... are
played until the bot has made a few decisions with a real choice (GAMES);
the figure is those decisions per second of the bot's thinking time (the
random seats' moves are not counted).  Fairness and skill: the tests of
tests/test_bots.py with --games games instead of 200.
"""
import argparse
import os
import random
import sys
import time

from common import ROOT

from pipvm.engine import engines
from pipvm.play import loader
from pipvm.play.bots import ISMCTS, MonteCarlo, playout
from pipvm.game.game import Game
from pipvm.engine.vm import Image
from tests import test_bots

# (players, N of mc, N of ismcts, decisions timed): a random playout of the
# bundled Crazy Eights runs to thousands of decisions (~0.6 s), of Euchre ~110 (~7 ms).
GAMES = {'crazy_eights': (2, (1, 2, 4), (5, 10, 20), 3),
         'euchre': (4, (5, 10, 20, 50), (50, 100, 200, 500), 10)}
THINKERS = {'mc': MonteCarlo, 'ismcts': ISMCTS}


def default_image(program):
    """The program on the default engine, as `pipvm sim` plays it (the compiled
    tier: a fork's playouts run whole actions)."""
    return Image(program, compiled=engines.compiled(engines.DEFAULT))


def image_of(game):
    return default_image(loader.load_program(os.path.join(ROOT, 'examples', game + '.pip')))


def decisions_per_second(image, players, kind, n, decisions):
    thinking, done, seed = 0.0, 0, 0
    while done < decisions:
        seed += 1
        bot = THINKERS[kind](n, random.Random(seed))
        game = Game(image, seed=seed, players=players, names=['P%d' % i for i in range(players)],
                    quiet=True)
        while game.decision is not None and done < decisions:
            d = game.decision
            if d.seat == 0 and len(d.options) > 1:
                t = time.perf_counter()
                game.answer(bot.choose(game, d))
                thinking += time.perf_counter() - t
                done += 1
            else:
                game.answer(game.rng.int(len(d.options)))
    return done / thinking


def playouts_per_second(image, players, quiet, runs=10):
    """Random playouts from the start, in forks that keep events or not."""
    game = Game(image, seed=1, players=players, names=['P%d' % i for i in range(players)])
    rng = random.Random(1)
    t = time.perf_counter()
    for _ in range(runs):
        playout(game.fork(quiet=quiet), rng)
    return runs / (time.perf_counter() - t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--games', type=int, default=1000)
    ap.add_argument('--quick', action='store_true', help='the two smallest N, 200 games')
    a = ap.parse_args()
    games = 200 if a.quick else a.games

    print('random playouts from the start, per second (fork with events / quiet fork):',
          flush=True)
    for game, (players, *_) in GAMES.items():
        image = image_of(game)
        loud, quiet = (playouts_per_second(image, players, q) for q in (False, True))
        print('  %-14s %8.2f %8.2f   %.2fx' % (game, loud, quiet, quiet / loud), flush=True)

    print('\ndecisions per second of the thinking seat, at each N (rate@N):')
    for game, (players, mc, ismcts, decisions) in GAMES.items():
        image = image_of(game)
        for kind, ns in (('mc', mc), ('ismcts', ismcts)):
            ns = ns[:2] if a.quick else ns
            rates = [decisions_per_second(image, players, kind, n, decisions) for n in ns]
            print('  %-14s %-8s %s' % (game, kind, '  '.join(
                '%10s' % ('%.3g@%d' % (r, n)) for r, n in zip(rates, ns))), flush=True)

    print('\nfairness: seat 1 wins of %d games of Guess (chance: inside %s)' % (
        games, 'the 95%% interval around %d' % (games // 2)))
    for label, make in (('mc:10', lambda s: MonteCarlo(10, random.Random(s))),
                        ('ismcts:20', lambda s: ISMCTS(20, random.Random(s))),
                        ('peeking ismcts:20', lambda s: test_bots.PeekingISMCTS(
                            20, random.Random(s)))):
        wins = test_bots.wins_of_seat_1(test_bots.GUESS, make, games)
        print('  %-18s %5d  %s' % (label, wins, 'at chance' if test_bots.at_chance(wins, games)
                                   else 'NOT at chance'), flush=True)

    print('\nskill: seat 1 wins of %d games of Three of Six against random play '
          '(best play: about 83%%)' % games)
    for label, make in (('ismcts:40', lambda s: ISMCTS(40, random.Random(s))),
                        ('ismcts:200', lambda s: ISMCTS(200, random.Random(s))),
                        ('mc:20', lambda s: MonteCarlo(20, random.Random(s)))):
        wins = test_bots.wins_of_seat_1(test_bots.THREE_OF_SIX, make, games)
        print('  %-18s %5d  %.1f%%' % (label, wins, 100 * wins / games), flush=True)


if __name__ == '__main__':
    sys.exit(main())
