"""Belief.replay_named by its contract, on scripted replays: the unseen
plays from the start of the game up to the world's first difference, the
latest first and `most` of them, each made the card the seat saw named
there (alone, and exchanged with an earlier unseen play of that card),
replayed from the shuffle before the play; True as soon as one matches
everywhere.  With rounds > 1 the first that gets further is kept and the
next round starts from its own difference; False once the rounds are
spent, or a round finds nothing further.

The pinned record (test_beliefs_pinned.py) reaches this in Cheat's
challenges at fixed seeds; the rounds' edges and the play at the very
start of the game are checked here."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, clues
from pipvm.game.belief.particles import Deal, Particle

KH, TC, AS = 'King of Hearts', 'Two of Clubs', 'Ace of Spades'
D3, D4 = 'Three of Diamonds', 'Four of Diamonds'

END = 40


class Script:
    """score: the match of a world whose unseen plays are the dict given
    (default: 1, no further)."""

    def __init__(self, monkeypatch, unseen, score=lambda plays: 1):
        self.b = b = Belief(0, 1, random.Random(1))
        b.unseen_plays = set(unseen)
        b.played_by = {}
        b.shuffled_at = {0: -1}
        b.snapped_deal = lambda deal: (deal.copy(), None)
        b.restart = self.restart
        b.check = self.check
        self.score, self.tried = score, []
        monkeypatch.setattr(clues, 'places', lambda m: {})

    def restart(self, p, j, deal):
        q = Particle(SimpleNamespace(machine=None), deal, 0)
        return q

    def check(self, q, end, pinned=()):
        assert end == END
        self.tried.append(dict(q.deal.plays))
        q.matched = self.score(q.deal.plays)
        q.score = (q.matched, 0)
        # the next round's first difference: the seat saw the card named 2C
        q.diff = ({'log': []}, {'log': [TC]})
        return q.matched


def particle(plays, matched=30):
    p = Particle(SimpleNamespace(machine=None), Deal([list(range(52))], plays=dict(plays)),
                  matched)
    p.diff = ({'log': [AS]}, {'log': [KH]})     # the world showed AS, the seat saw KH
    p.base = 'its game at the last decision'
    return p


def test_the_play_at_the_very_start_of_the_game_is_made_the_card_named(monkeypatch):
    s = Script(monkeypatch, unseen={0}, score=lambda plays: END + 1 if plays[0] == KH else 1)
    p = particle({0: D3})
    assert s.b.replay_named(p, END) is True
    assert p.deal.plays == {0: KH} and p.matched == END + 1 and p.base is None


def test_one_round_finding_only_a_world_further_gives_false_and_keeps_p(monkeypatch):
    s = Script(monkeypatch, unseen={5}, score=lambda plays: 35)
    p = particle({5: D3})
    assert s.b.replay_named(p, END) is False
    assert p.deal.plays == {5: D3} and p.matched == 30 and p.base is not None


def test_a_second_round_goes_on_from_the_world_the_first_got_further_with(monkeypatch):
    def score(plays):
        return {(KH, D3): 35, (KH, TC): END + 1}.get((plays[5], plays[3]), 1)
    s = Script(monkeypatch, unseen={3, 5}, score=score)
    p = particle({3: D3, 5: D4})
    assert s.b.replay_named(p, END, rounds=2) is True
    assert p.deal.plays == {3: TC, 5: KH}
    assert s.tried[0] == {3: D3, 5: KH}         # the latest play first


def test_rounds_spent_give_false_not_none_the_last_world_kept(monkeypatch):
    s = Script(monkeypatch, unseen={3, 5}, score=lambda plays: 31 + len(
        [c for c in plays.values() if c in (KH, TC)]))
    p = particle({3: D3, 5: D4})
    assert s.b.replay_named(p, END, rounds=2) is False
    assert p.matched > 31 and p.base is None
