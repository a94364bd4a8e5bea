"""Belief.check by its contract, on a scripted game: it plays the
particle on, comparing the seat's observation at each position; what it
leaves on the particle (how far it matched, the score, the difference,
a pinned play it could not make) is what every repair reads.  The pinned
record (test_beliefs_pinned.py) sees these only through the worlds found."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, particles
from pipvm.game.belief.clues import closeness
from pipvm.game.belief.particles import Deal, Particle
from pipvm.game.kinds import CARD

TRACE = [{'log': ['a'], 'hand': [1, 2]}, {'log': ['a', 'b'], 'hand': [1, 2]},
         {'log': ['a', 'b', 'c'], 'hand': [1, 3]}, {'log': ['a', 'b', 'c', 'd'], 'hand': [3]}]


def script(monkeypatch, world=TRACE, given=lambda h: True, kind=CARD, options=('A', 'B')):
    b = Belief(0, 1, random.Random(1))
    b.trace, b.history = TRACE, [('card', 'A')] * 4
    b.shuffled_at, b.unseen_plays = {}, set()
    g = SimpleNamespace(history=[], events=[], fork=lambda: 'fork',
                        decision=SimpleNamespace(kind=kind, options=list(options)),
                        machine=SimpleNamespace(shuffles=[], pending=SimpleNamespace(
                            player=SimpleNamespace(hand=['Ace', 'Two']))))

    def give(game, entry, free=None):
        ok = given(len(game.history))
        if ok:
            game.history.append(entry)
        return ok

    monkeypatch.setattr(particles, 'give', give)
    p = Particle(g, Deal(plays={2: 'C'}), 0)
    p.obs = lambda game: world[len(game.history)]
    return b, p


def test_a_world_that_matches_to_the_end(monkeypatch):
    b, p = script(monkeypatch)
    p.short = (1, 'stale')
    assert b.check(p, 3) == 4
    assert p.score == (4, 0) and p.matched == 4 and p.observed and p.short is None


def test_a_world_that_differs_is_scored_by_how_close_it_came(monkeypatch):
    # (a part the world shows as nothing, which the seat's observation lacks:
    # closeness counts the seat's parts, so the two orders differ)
    other = {'log': ['a', 'b', 'x'], 'hand': [1, 2], 'turned': None}
    b, p = script(monkeypatch, world=TRACE[:2] + [other] + TRACE[3:])
    assert b.check(p, 3) == 2
    assert p.matched == 2 and p.diff == (other, TRACE[2])
    assert p.score == (2, closeness(other, TRACE[2])) != (2, closeness(TRACE[2], other))


def test_a_pinned_play_its_player_cannot_make(monkeypatch):
    b, p = script(monkeypatch, options=('A', 'B'))
    assert b.check(p, 3, pinned={2}) == 2
    assert p.short == (2, 'C') and p.score == (2, -2) and p.matched == 2 and p.diff is None


def test_a_real_answer_that_was_no_option(monkeypatch):
    b, p = script(monkeypatch, given=lambda h: h != 1)
    assert b.check(p, 3) == 2
    assert p.score == (2, -1) and p.matched == 2 and p.diff == (['Ace', 'Two'], 'A')
