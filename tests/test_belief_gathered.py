"""A particle carried into a new hand keeps the seat's own cards: Oh Hell
gathers the cards as each world's hands held them, so a world's deck goes
into the next shuffle in another order than the real one.  The real draws
on that order would hand the seat other cards and kill every particle at
each new hand (then dealt anew from the start and repaired: most of the
belief's time in Oh Hell); the deal starts instead from the real
shuffle's result, whose never-seen cards trade places as in any deal
(Particles.shuffle)."""
import os
import random

from pipvm.game.belief import Belief
from pipvm.play.bots import POOL

from .util import seat_one_decisions

OH_HELL = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                       'examples', 'oh_hell.pip')


def new_hands(seed, decisions):
    """For each decision of seat 1 with a new hand dealt since its last one:
    how many of the particles it carried live on (played on, or mended by
    Repairs.forward), before any fresh deal or repair."""
    belief = Belief(0, POOL, random.Random(seed))
    check, forward, carried, lived = belief.check, belief.forward, set(), [0]

    def checked(p, end, *a, **k):
        out = check(p, end, *a, **k)
        if id(p) in carried:
            carried.discard(id(p))
            lived[0] += out == end + 1
        return out

    def mended(p, end, *a, **k):
        out = forward(p, end, *a, **k)
        lived[0] += out
        return out
    belief.check, belief.forward = checked, mended
    out, shuffles = [], 0
    for game in seat_one_decisions(OH_HELL, seed, decisions):
        carried.clear()
        if not belief.lost:
            carried.update(id(p) for p in belief.particles if p.obs is not None)
        lived[0] = 0
        assert belief.worlds(game, POOL)
        if shuffles and len(game.machine.shuffles) > shuffles:
            out.append(lived[0])
        shuffles = len(game.machine.shuffles)
    return out


def test_particles_carried_into_a_new_hand_live_on():
    for seed in (1, 2):
        lived = new_hands(seed, 30)
        assert len(lived) >= 3          # the test crosses new hands
        assert all(lived), lived
