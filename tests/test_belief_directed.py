"""Belief.directed by its contract, on a scripted search: the unseen plays
made the cards named (NAMED rounds), then other cards; then the world with
the seen cards where the real draws put them, taken at once if it matches
as far, else first a walk of half the replays from p as it is (done if it
matches everywhere) and then the snapped world walked with the other
half; with nothing to snap, one walk with every replay."""
import random

from pipvm.game.belief import Belief
from pipvm.game.belief.budgets import NAMED
from pipvm.game.belief.particles import Deal, Particle

END = 30


class Script:
    def __init__(self, named=False, plays=False, snapped=None, walks=()):
        self.b = b = Belief(0, 1, random.Random(1))
        self.calls, self.walks = [], list(walks)
        b.replay_named = lambda p, end, rounds=1: self.calls.append(('named', rounds)) or named
        b.replay_plays = lambda p, end: self.calls.append(('plays',)) or plays
        b.snapped = lambda p, end: snapped
        b.walk = self.walk

    def walk(self, p, end, replays):
        self.calls.append(('walk', p.game, replays))
        return self.walks.pop(0)


def world(tag, matched):
    return Particle(tag, Deal(), matched)


def test_the_named_plays_first_then_the_other_cards():
    s = Script(named=True)
    assert s.b.directed(world('p', 5), END, 100) is True
    assert s.calls == [('named', NAMED)]
    s = Script(plays=True)
    assert s.b.directed(world('p', 5), END, 100) is True
    assert s.calls == [('named', NAMED), ('plays',)]


def test_a_snapped_world_as_far_is_taken_and_walked_with_every_replay():
    s = Script(snapped=world('snapped', 5), walks=[False])
    p = world('p', 5)
    assert s.b.directed(p, END, 100) is False
    assert s.calls[2:] == [('walk', 'snapped', 100)]


def test_a_snapped_world_short_of_p_waits_for_half_a_walk_from_p():
    s = Script(snapped=world('snapped', 3), walks=[True])
    p = world('p', 5)
    assert s.b.directed(p, END, 100) is True
    assert s.calls[2:] == [('walk', 'p', 50)] and p.game == 'p'
    s = Script(snapped=world('snapped', 3), walks=[False, True])
    p = world('p', 5)
    assert s.b.directed(p, END, 101) is True
    assert s.calls[2:] == [('walk', 'p', 50), ('walk', 'snapped', 50)]


def test_nothing_to_snap_is_one_walk_with_every_replay():
    s = Script(walks=[False])
    assert s.b.directed(world('p', 5), END, 100) is False
    assert s.calls[2:] == [('walk', 'p', 100)]
