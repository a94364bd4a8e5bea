"""Belief.proposal by its contract: one replayed move from p, not kept:
two never-seen cards of a shuffle's order trade places (mostly a card of
the players the difference concerns with one of nobody's there; else any
two), and the world is replayed from that shuffle and checked; None when
there is no shuffle, or fewer than two never-seen cards to trade.

The pinned record (test_beliefs_pinned.py) sees only where the hill-climb
leads; the move's edges are checked here."""
import random

from pipvm.game.belief import Belief
from pipvm.game.belief.particles import Deal, Particle

END = 30


def script(seed, seen):
    b = Belief(0, 1, random.Random(seed))
    b.pins = [frozenset(seen)]
    b.shuffled_at = {0: 0}
    b.restarts = []
    b.restart = lambda p, j, deal: b.restarts.append(j) or Particle('replayed', deal, 0)
    b.check = lambda q, end: setattr(q, 'checked', end)
    return b


def test_two_never_seen_cards_are_enough_to_trade():
    b = script(1, seen={0, 1})
    p = Particle('p', Deal([[0, 1, 2, 3]]), 5)
    q = b.proposal(p, END, near=set())
    assert q.deal.orders == [[0, 1, 3, 2]] and q.checked == END
    assert p.deal.orders == [[0, 1, 2, 3]] and b.restarts == [0]


def test_fewer_than_two_or_no_shuffle_is_no_move():
    b = script(1, seen={0, 1, 2})
    assert b.proposal(Particle('p', Deal([[0, 1, 2, 3]]), 5), END, near=set()) is None
    assert b.proposal(Particle('p', Deal([]), 5), END, near=set()) is None
    assert b.restarts == []


def test_a_card_of_the_players_concerned_mostly_trades_with_one_of_nobodys():
    concerned = 0
    for seed in range(200):
        b = script(seed, seen={0})
        p = Particle('p', Deal([[0, 1, 2, 3, 4]]), 5)
        q = b.proposal(p, END, near={1, 2})
        moved = {i for i, (x, y) in enumerate(zip(p.deal.orders[0], q.deal.orders[0])) if x != y}
        assert len(moved) == 2 and 0 not in moved
        concerned += moved in ({1, 3}, {1, 4}, {2, 3}, {2, 4})
    assert 160 <= concerned < 200        # 85%, and some of the rest by chance


def test_where_every_never_seen_card_is_concerned_any_two_trade():
    b = script(1, seen={0})
    q = b.proposal(Particle('p', Deal([[0, 1, 2]]), 5), END, near={1, 2})
    assert q.deal.orders == [[0, 2, 1]]


def test_the_last_shuffle_before_the_difference_mostly_an_earlier_one_at_times():
    earlier = 0
    for seed in range(400):
        b = script(seed, seen=())
        b.shuffled_at = {0: 0, 1: 10, 2: 25}
        b.pins = []
        p = Particle('p', Deal([[0, 1], [2, 3], [4, 5]]), 20)
        q = b.proposal(p, END, near=set())
        j, = b.restarts
        assert j in (0, 1) and q.deal.orders[j] != p.deal.orders[j]
        earlier += j == 0
    assert 25 <= earlier <= 80           # a quarter of the time, half of those shuffle 0
