"""particles.py's cases the rest of the suite leaves open (its mutation
testing, tools/mutation.py): check's pinned plays case by case (a pinned
play its player can make is played on; one at no card decision stops the
world), on test_belief_check.py's scripted game."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, particles
from pipvm.game.belief.particles import Deal, Particle
from pipvm.game.kinds import CARD

from . import test_belief_check


def script(monkeypatch, decision):
    """test_belief_check's scripted game, its decisions all `decision` (no pending one)."""
    b, p = test_belief_check.script(monkeypatch)
    p.game.decision, p.game.machine.pending = decision, None
    return b, p


def test_a_pinned_play_its_player_can_make_is_played_on(monkeypatch):
    # pins: a pinned play whose card is an option at a card decision does not stop the world
    b, p = script(monkeypatch, SimpleNamespace(kind=CARD, options=['A', 'C']))
    assert b.check(p, 3, pinned={2}) == 4
    assert p.short is None and p.score == (4, 0) and p.matched == 4


def test_a_pinned_play_where_no_card_is_decided_stops_the_world(monkeypatch):
    # pins: a pinned play at no decision, or at one not of a card, is short there
    for decision in (None, SimpleNamespace(kind='choice', options=['C'])):
        b, p = script(monkeypatch, decision)
        assert b.check(p, 3, pinned={2}) == 2
        assert p.short == (2, 'C') and p.score == (2, -2) and p.matched == 2 and p.diff is None


def test_a_new_particle_scores_as_far_as_it_matched():
    # pins: a Particle's score before any check: (matched, 0), nothing short or different yet
    p = Particle('g', Deal(), 5)
    assert p.score == (5, 0) and p.matched == 5
    assert p.short is None and p.diff is None and p.base is None and p.obs is None
    assert p.observed is False and p.keeps is True and p.checkpoints == {}


def test_a_trial_and_a_restart_match_nothing_before_their_check(monkeypatch):
    # pins: particle() and restart() make worlds not yet checked: matched 0, score (0, 0), as a fresh one
    b = Belief(0, 4, random.Random(1))
    b.real = 'the real game'
    monkeypatch.setattr(particles, '_replay_game', lambda real, dealer: SimpleNamespace(
        machine=SimpleNamespace(dealer=dealer)))
    like = Particle(SimpleNamespace(machine=SimpleNamespace(dealer=None)), Deal(), 7)
    like.checkpoints = {1: (SimpleNamespace(fork=lambda: SimpleNamespace(
        machine=SimpleNamespace(dealer=None))), 2)}
    trial = b.particle(SimpleNamespace(machine=SimpleNamespace(dealer=None)), Deal(), like, 3)
    from_checkpoint, from_start = b.restart(like, 1, Deal()), b.restart(like, 2, Deal())
    for q in (trial, from_checkpoint, from_start):
        assert q.matched == 0 and q.score == (0, 0)
