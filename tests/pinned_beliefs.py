"""The thinking seat's belief pinned at fixed seeds: at each of its
decisions, which worlds it holds and what finding them cost.

test_beliefs.py and property 11 check that every world a belief hands out
is sound (the seat sees there what it saw); they cannot check which sound
world a repair finds, nor how many replays it took, since any of them will
do.  Those are the search's design: which trade a repair tries first, how
many replays each step may spend.  A change to them changes the bots' play
at every seed, so this record of them at a few seeds is what tells an
optimisation that keeps the bots bit for bit (benchmarks/README.md, issue
20) from one that does not.  A change meant to alter the search writes the
record again (`python tools/pin_beliefs.py --write`) and says why.

A decision's entry: (worlds handed out, whether only the nearest miss is
kept, particles, answers given to the belief's games, forks, replays from
the start, a digest of every particle's deal)."""
import hashlib
import json
import os
import random

from pipvm.game.belief import Belief, particles, sight
from pipvm.game.game import Game
from pipvm.play.bots import POOL

from .util import seat_one_decisions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RECORD = os.path.join(ROOT, 'tests', 'data', 'beliefs', 'pinned.json')

# (example, seed, decisions of the thinking seat[, particles, repairs,
# fresh deals]): together they run each kind of repair (Go Fish's windows
# and gathering, Cheat's cards shown, Euchre's and Three-Handed Hearts'
# voids, President's sets) in seconds.  The starved beliefs (a tenth of the
# repairs' replays, two fresh deals) lose their worlds sooner, so they reach
# the last resorts (the walks, the chains, the solve) within a few decisions.
CASES = [('go_fish', 1, 12), ('go_fish', 2, 12), ('euchre', 2, 20), ('cheat', 2, 25),
         ('sevens', 1, 12), ('thirty_one', 2, 8), ('president', 1, 10),
         ('three_hearts', 1, 15), ('go_fish', 1, 20, POOL, 40, 2),
         ('go_fish', 2, 20, POOL, 20, 1), ('three_hearts', 1, 15, POOL, 40, 2)]


class _Costs:
    """Counts Game.answer, Game.fork and replays from the start while on."""

    def __init__(self):
        self.answers = self.forks = self.replays = 0

    def __enter__(self):
        # (the belief replays from the start in two parts: the shadow of
        # the real game, and the particles)
        answer, fork, replay = Game.answer, Game.fork, particles._replay_game
        assert sight._replay_game is replay
        self.saved = answer, fork, replay

        def counted_answer(g, choice):
            self.answers += 1
            return answer(g, choice)

        def counted_fork(g, quiet=False):
            self.forks += 1
            return fork(g, quiet)

        def counted_replay(game, dealer):
            self.replays += 1
            return replay(game, dealer)
        Game.answer, Game.fork = counted_answer, counted_fork
        particles._replay_game = sight._replay_game = counted_replay
        return self

    def __exit__(self, *exc):
        Game.answer, Game.fork, replay = self.saved
        particles._replay_game = sight._replay_game = replay


def _digest(particles):
    deals = [(p.deal.orders, sorted(p.deal.plays.items())) for p in particles
             if not isinstance(p.deal, list)]
    return hashlib.sha256(repr(deals).encode()).hexdigest()[:16]


def record(name, seed, decisions, size=POOL, repairs=None, fresh=None):
    """The entries of one case, one by one: seat 1 thinks (its belief asked
    for POOL worlds), every seat answers at random with the case's seed."""
    budget = {k: v for k, v in (('repairs', repairs), ('fresh', fresh)) if v is not None}
    belief = Belief(0, size, random.Random(seed), **budget)
    for game in seat_one_decisions(os.path.join(ROOT, 'examples', name + '.pip'), seed, decisions):
        with _Costs() as costs:
            worlds = belief.worlds(game, size)
        yield [len(worlds), belief.lost, len(belief.particles), costs.answers,
               costs.forks, costs.replays, _digest(belief.particles)]


def key(name, seed, decisions, *budget):
    return '%s seed %d, %d decisions%s' % (name, seed, decisions,
                                           ', budget %s' % (budget,) if budget else '')


def load():
    with open(RECORD, encoding='utf-8') as f:
        return json.load(f)
