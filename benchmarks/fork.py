#!/usr/bin/env python3
"""What copying a game costs: fork() and determinize() of a mid-game position.

    python benchmarks/fork.py [--runs R] [--at K]

Each game is played with random answers (seed 1) up to its K-th decision
(default 20, or its last if it ends sooner); then fork() is timed over many
copies, and determinize() for the deciding seat.  Thinking bots fork
thousands of times per decision, so fork must stay cheap; a determinization
replays the game from its start, so its cost grows with the game's length.
"""
import argparse
import os
import random

from common import ROOT, median_ms

from pipvm.play import loader
from pipvm.game.game import NAME, Game

GAMES = [('examples/euchre.pip', 4), ('examples/three_hearts.pip', 3),
         ('examples/crazy_eights.pip', 2), ('tests/data/full/crazy_eights.pip', 2)]


def position(path, players, at):
    program = loader.load_program(os.path.join(ROOT, path))
    game = Game(program, seed=1, players=players, names=['P%d' % i for i in range(players)])
    rng = random.Random(1)
    for _ in range(at):
        d = game.decision
        if d is None:
            break
        game.answer('X' if d.kind is NAME else rng.randrange(len(d.options)))
    return game


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=7)
    ap.add_argument('--at', type=int, default=20)
    a = ap.parse_args()
    print('%-34s %9s %9s %14s' % ('game (decision)', 'events', 'fork us', 'determinize ms'))
    for path, players in GAMES:
        game = position(path, players, a.at)
        forks = 200
        fork_us = median_ms(lambda: [game.fork() for _ in range(forks)], a.runs) * 1000 / forks
        seat = game.decision.seat if game.decision else 0
        rng = random.Random(2)
        det_ms = median_ms(lambda: game.determinize(seat, rng), a.runs)
        print('%-34s %9d %9.1f %14.2f' % ('%s (%d)' % (path, len(game.history)),
                                           len(game.events), fork_us, det_ms))


if __name__ == '__main__':
    main()
