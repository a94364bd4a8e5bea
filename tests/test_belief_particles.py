"""A particle's plumbing by its contract: copy_particle, particle and restart.

A copy is a fork of the world with its own deal, whose shuffles go through
that deal (not the original's: a shuffle past the deal's end notes its new
order in the copy alone), with the original's score, base and checkpoints
and an observer at the same place.  particle makes a world of a game and
deal whose shuffles go through that deal, with its observer at `shown` and
the checkpoints of the particle it is like.  restart replays from the
checkpoint just before shuffle j where there is one (keeping the
checkpoints up to j), and from the game's start otherwise."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, particles
from pipvm.game.belief.particles import Deal, Particle


class Game:
    def __init__(self, tag):
        self.tag, self.machine = tag, SimpleNamespace(dealer=None)

    def fork(self):
        return Game(self.tag + "'")


def particle():
    p = Particle(Game('p'), Deal([[1, 2]], [[2, 1]], {4: 'Ace of Clubs'}), 7)
    p.score, p.observed, p.base = (7, 2), True, 'its base'
    p.obs = SimpleNamespace(shown=3)
    p.checkpoints = {0: (Game('c0'), 1), 1: (Game('c1'), 2)}
    return p


def test_a_copy_deals_through_its_own_deal():
    b = Belief(1, 4, random.Random(1))
    p = particle()
    q = b.copy_particle(p)
    assert q.game.tag == "p'" and q.matched == 7 and q.score == (7, 2)
    assert q.deal is not p.deal and (q.deal.orders, q.deal.drawn, q.deal.plays) == (
        p.deal.orders, p.deal.drawn, p.deal.plays)
    dealer = q.game.machine.dealer
    assert dealer.deal is q.deal and dealer.belief is b
    assert q.observed is True and q.base == 'its base'
    assert q.obs is not p.obs and q.obs.shown == 3 and q.obs.seat == 1
    assert q.checkpoints == p.checkpoints and q.checkpoints is not p.checkpoints


def test_a_particle_of_a_game_deals_through_the_deal_given():
    b = Belief(2, 4, random.Random(1))
    like = particle()
    deal = Deal([[5, 6]])
    q = b.particle(Game('g'), deal, like, 9)
    assert q.game.tag == 'g' and q.deal is deal and q.observed is True
    assert q.game.machine.dealer.deal is deal
    assert q.obs.shown == 9 and q.obs.seat == 2
    assert q.checkpoints == like.checkpoints and q.checkpoints is not like.checkpoints


def test_a_restart_replays_from_the_checkpoint_before_the_shuffle(monkeypatch):
    b = Belief(0, 4, random.Random(1))
    p = particle()
    deal = Deal([[7, 8]])
    q = b.restart(p, 1, deal)
    assert q.game.tag == "c1'" and q.obs.shown == 2 and q.observed is True and q.deal is deal
    assert q.game.machine.dealer.deal is deal
    assert q.checkpoints == p.checkpoints
    q = b.restart(p, 0, deal)
    assert q.game.tag == "c0'" and set(q.checkpoints) == {0}


def test_a_restart_without_a_checkpoint_replays_the_real_game_from_its_start(monkeypatch):
    b = Belief(0, 4, random.Random(1))
    b.real = 'the real game'
    monkeypatch.setattr(particles, '_replay_game', lambda real, dealer: SimpleNamespace(
        replayed=real, dealer=dealer))
    p = particle()
    deal = Deal([[7, 8]])
    q = b.restart(p, 3, deal)
    assert q.game.replayed == 'the real game' and q.game.dealer.deal is deal and q.deal is deal
    assert q.checkpoints == {} and q.observed is False and q.obs.shown == 0
