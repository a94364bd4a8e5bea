#!/usr/bin/env python3
"""How many of a random playout's answers come before the game's next
shuffle: what a bot would save by ending playouts there (issue 20).

    python benchmarks/playout_shuffles.py [--every 7] [--seed 1] [FILE.pip ...]

One game per file with random answers; at every EVERY-th decision with a
choice, a quiet fork is played out at random with a dealer that notes how
many answers had been given at each shuffle.  The last column is what a
game with no later shuffle saves instead: the share of the answers a
playout cut by depth plays (standing.DEPTH a seat).
"""
import argparse
import os
import random

from common import ROOT

from pipvm.engine.vm import Dealer
from pipvm.game.game import Game
from pipvm.game import standing
from pipvm.play import bots, loader

FILES = ['euchre', 'oh_hell', 'spades', 'president', 'three_hearts']


class Noting(Dealer):
    """Deals as the game's own dealer does, noting the answers given so far."""

    def __init__(self, game):
        self.game, self.at = game, []

    def shuffle(self, machine, items):
        self.at.append(len(self.game.history))
        super().shuffle(machine, items)


def measure(path, every, seed):
    """(answers before the next shuffle, before a depth cut, in all) summed over
    the playouts."""
    program = loader.load_program(path)
    players = min(program.counts) * (program.team_size or 1)
    game = Game(program, seed=seed, players=players, names=['P%d' % i for i in range(players)])
    rng = random.Random(seed)
    before = deep = total = k = 0
    while game.decision is not None:
        if len(game.decision.options) > 1 and k % every == 0:
            fork = game.fork(quiet=True)
            fork.machine.dealer = dealer = Noting(fork)
            start = len(fork.history)
            bots.playout(fork, rng)
            later = [n for n in dealer.at if n >= start]
            before += (later[0] if later else len(fork.history)) - start
            deep += min(standing.DEPTH * players, len(fork.history) - start)
            total += len(fork.history) - start
        game.answer(rng.randrange(len(game.decision.options)))
        k += 1
    return before, deep, total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('files', nargs='*')
    ap.add_argument('--every', type=int, default=7)
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()
    files = args.files or [os.path.join(ROOT, 'examples', f + '.pip') for f in FILES]
    print('| game | answers before the next shuffle | share of the playout | a depth cut\'s share |')
    print('| --- | ---: | ---: | ---: |')
    for path in files:
        before, deep, total = measure(path, args.every, args.seed)
        print('| %s | %d of %d | %.0f%% | %.0f%% |' % (
            os.path.relpath(path, ROOT)[:-4], before, total, 100 * before / max(total, 1),
            100 * deep / max(total, 1)))


if __name__ == '__main__':
    main()
