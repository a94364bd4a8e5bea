"""Microseconds per Game.fork(quiet=True) of a Euchre game six decisions in
(the best of 5 runs of 3000): what a thinking bot pays per playout before it
plays.  Run it with PYTHONPATH set to each tree in turn, alternating."""
import os
import time

from pipvm.game.game import Game
from pipvm.play.loader import load_program

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

game = Game(load_program(os.path.join(ROOT, 'examples', 'euchre.pip')), seed=1, players=4,
            names=['a', 'b', 'c', 'd'])
for _ in range(6):
    game.answer(0)
best = float('inf')
for _ in range(5):
    start = time.perf_counter()
    for _ in range(3000):
        game.fork(quiet=True)
    best = min(best, time.perf_counter() - start)
print('%.1f' % (best / 3000 * 1e6))
