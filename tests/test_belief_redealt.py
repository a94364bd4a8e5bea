"""Belief.redealt and fresh_particle by their contracts: a dead particle that got
past a shuffle after the first, where that shuffle had the cards in the
real game's order, is dealt that shuffle anew (its deal cut before it,
and the plays made unseen from it on forgotten) and replayed from just
before it; the k-th of those, round; None if none did.  A fresh particle
is the real game replayed with a new deal, matching nothing yet.

The pinned record (test_beliefs_pinned.py) meets these only in Euchre's
hands; the edges (a shuffle at the very position the particle stopped
at, a play at the shuffle's own position)
are checked here.  (A shuffle with a checkpoint is always one the belief
noted: the checkpoint is kept just before it.)"""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, particles
from pipvm.game.belief.particles import Deal, Particle

REAL = [[0, 1], [2, 3], [4, 5]]


def script(shuffled_at):
    b = Belief(2, 1, random.Random(1))
    b.shadow = SimpleNamespace(machine=SimpleNamespace(dealer=SimpleNamespace(orders=REAL)))
    b.shuffled_at = shuffled_at
    b.restarts = []
    b.restart = lambda p, j, deal: b.restarts.append((p, j, deal)) or (p, j, deal)
    return b


def dead(matched, checkpoints=(0, 1, 2), drawn=REAL, plays=None):
    p = Particle(None, Deal([[9, 9], [8, 8], [7, 7]], drawn, plays or {}), matched)
    p.checkpoints = {j: None for j in checkpoints}
    return p


def test_the_last_shuffle_after_the_first_that_the_particle_got_past():
    b = script({1: 10, 2: 20})
    p = dead(21, plays={5: 'A', 10: 'B', 15: 'C', 20: 'D', 25: 'E'})
    q, j, deal = b.redealt([p], 0)
    assert q is p and j == 2
    # its deal cut before the shuffle, the plays from the shuffle's position on forgotten
    assert deal.orders == [[9, 9], [8, 8]] and deal.drawn == REAL[:2]
    assert deal.plays == {5: 'A', 10: 'B', 15: 'C'}
    assert p.deal.orders == [[9, 9], [8, 8], [7, 7]] and len(p.deal.plays) == 5
    # stopped at the shuffle's own position: not past it
    assert b.redealt([dead(20)], 0)[1] == 1
    # the first shuffle is never dealt anew here (a fresh deal does that)
    assert b.redealt([dead(9)], 0) is None
    assert b.redealt([dead(21, checkpoints=(0,))], 0) is None
    # only a shuffle it got past, though a later one was checkpointed
    assert b.redealt([dead(15, checkpoints=(0, 2))], 0) is None


def test_a_shuffle_is_past_from_the_position_it_was_noted_at():
    # (not from its number)
    b = script({2: 1})
    assert b.redealt([dead(2, checkpoints=(2,))], 0)[1] == 2


def test_only_a_shuffle_that_had_the_cards_in_the_real_order():
    b = script({1: 10, 2: 20})
    other = [[0, 1], [2, 3], [5, 4]]
    assert b.redealt([dead(25, drawn=other)], 0) is None
    assert b.redealt([dead(25, drawn=REAL[:2])], 0) is None
    # the k-th of those that did, round
    ps = [dead(25), dead(25, drawn=other), dead(15), dead(25)]
    assert [b.redealt(ps, k)[0] for k in range(4)] == [ps[0], ps[2], ps[3], ps[0]]


def test_a_fresh_particle_is_the_real_game_dealt_anew_matching_nothing(monkeypatch):
    b = script({})
    b.real = 'the real game'
    monkeypatch.setattr(particles, '_replay_game', lambda game, dealer: (game, dealer.deal))
    monkeypatch.setattr(particles, 'Dealt', lambda owner, deal: SimpleNamespace(deal=deal))
    p = b.fresh_particle()
    assert p.game == ('the real game', p.deal) and p.deal.orders == [] and p.deal.plays == {}
    assert p.matched == 0 and p.score == (0, 0) and p.obs.seat == 2
