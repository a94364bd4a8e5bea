"""Belief.void by its contract, on a scripted table: where the real answer
was a card the world's player holds but may not play (it must follow
suit), every other card it may play there trades places, all at once,
with never-seen cards not in its hand, drawn at random, in the deal of
the last shuffle before; `tries` such deals are replayed, the best that
gets further is kept, and again from it, `rounds` times at most; True as
soon as one matches everywhere.

The pinned record (test_beliefs_pinned.py) reaches this in a few trick
games; which trades are proposed, which world is kept, and when it gives
up, are checked here."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, repairs
from pipvm.game.belief.clues import NAMES as NAME
from pipvm.game.belief.particles import Deal, Particle
from pipvm.game.kinds import CARD, NAME as NAME_KIND

END = 40
HAND = [0, 1, 2, 3, 4]          # Ann's hand
FOLLOW = [0, 1, 2]              # the cards she may play (the suit led)
LABEL = 3                       # what she really played: one she may not, in the world
ORDER = list(range(20))
SEEN = {10, 11}


class Card:
    def __init__(self, i):
        self.name = NAME[i]

    def __str__(self):
        return self.name


class Script:
    """scores(deal, round): how far a replay of deal matches (then -1: its
    answer refused again), round counting from 1."""

    def __init__(self, monkeypatch, scores=lambda trades, n: 1, snapped=None,
                 hand=HAND, follow=FOLLOW, label=LABEL, order=ORDER, seen=SEEN,
                 shuffled_at=None, kind=CARD, decision=True, history=None):
        self.b = b = Belief(0, 1, random.Random(1))
        # the real answers: the card played from 20 on (a world matching 21
        # stopped at 20), others before
        b.history = history or [(None, NAME[9])] * 20 + [(None, NAME[label])] * 40
        b.shuffled_at = {0: 2} if shuffled_at is None else shuffled_at
        b.pins = [frozenset(seen)]
        deck = [Card(i) for i in range(52)]
        m = SimpleNamespace(deck=deck, pending=SimpleNamespace(
            player=SimpleNamespace(hand=[deck[i] for i in hand]), cards=[deck[i] for i in follow]))
        self.game = SimpleNamespace(machine=m, decision=SimpleNamespace(kind=kind)
                                    if decision else None)
        self.order, self.scores, self.snapped = order, scores, snapped
        self.restarts = []      # (the world replayed from, shuffle, its trades) each time
        self.rounds = 0
        b.snapped = self.snap
        b.restart = self.restart
        b.check = self.check
        monkeypatch.setattr(repairs, 'traded_in', lambda deal, j, x, z, at:
                            Deal(deal.orders, plays={**deal.plays, x: z}))

    def particle(self, matched=21, refused=True):
        p = Particle(self.game, Deal([self.order]), matched)
        p.score = (matched, -1 if refused else 0)
        return p

    def snap(self, p, end):
        assert type(p) is Particle and end == END
        return self.snapped

    def restart(self, q, j, deal):
        self.restarts.append((q, j, deal.plays))
        return Particle(self.game, deal, 0)

    def check(self, r, end):
        assert end == END
        r.matched = self.scores(r.deal.plays, len(self.restarts))
        r.score = (r.matched, -1)

    def run(self, p, rounds=4, tries=24):
        return self.b.void(p, END, rounds=rounds, tries=tries)


def test_each_try_trades_every_other_playable_card_with_a_never_seen_one(monkeypatch):
    s = Script(monkeypatch)
    p = s.particle()
    assert s.run(p, tries=50) is False
    assert len(s.restarts) == 50
    partners = set(ORDER) - SEEN - set(HAND)
    seen_partners = set()
    for q, j, trades in s.restarts:
        assert q is p and j == 0
        # all of them at once, from the world's deal (not the last try's)
        assert sorted(trades) == FOLLOW and len(set(trades.values())) == len(FOLLOW)
        assert set(trades.values()) <= partners
        seen_partners |= set(trades.values())
    assert seen_partners == partners            # drawn at random among them all
    assert p.matched == 21


def test_the_best_try_that_gets_further_is_kept_and_tried_from_again(monkeypatch):
    # round 1: tries 1-6 match 21 (as far), 23, 22, 23, 24, 24, 21; round 2: nothing further
    script = {2: 23, 3: 22, 4: 23, 5: 24, 6: 24}
    s = Script(monkeypatch, scores=lambda trades, n: script.get(n, 21 if n <= 7 else 1))
    p = s.particle()
    assert s.run(p, tries=7) is False
    assert len(s.restarts) == 14
    best = s.restarts[7][0]
    assert best.matched == 24 and best.deal.plays == s.restarts[4][2]   # the first 24
    assert p.matched == 21      # a world further but not everywhere is not handed back


def test_a_try_only_as_far_as_the_world_is_not_kept(monkeypatch):
    s = Script(monkeypatch, scores=lambda trades, n: 21)
    assert s.run(s.particle(), tries=5) is False
    assert len(s.restarts) == 5


def test_rounds_at_most(monkeypatch):
    s = Script(monkeypatch, scores=lambda trades, n: 21 + n)
    assert s.run(s.particle(), rounds=3, tries=2) is False
    assert len(s.restarts) == 6


def test_a_try_that_matches_everywhere_is_taken_at_once(monkeypatch):
    s = Script(monkeypatch, scores=lambda trades, n: END + 1 if n == 3 else 1)
    p = s.particle()
    p.base = 'kept'
    assert s.run(p) is True
    assert len(s.restarts) == 3 and p.matched == END + 1 and p.base is None
    assert p.deal.plays == s.restarts[2][2]


def test_a_snapped_world_is_the_start_and_may_match_already(monkeypatch):
    s = Script(monkeypatch)
    q = s.particle(matched=END + 1)
    s.snapped = q
    p = s.particle()
    p.base = 'kept'
    assert s.run(p) is True and s.restarts == [] and p.matched == END + 1 and p.base is None
    s = Script(monkeypatch)
    q = s.particle(matched=25)
    s.snapped = q
    s.run(s.particle(), tries=3)
    assert all(r[0] is q for r in s.restarts) and len(s.restarts) == 3


def test_it_gives_up_where_the_answer_is_not_a_card_refused_that_it_could_trade_for(monkeypatch):
    cases = [
        dict(),                                 # (the answer was not refused: below)
        dict(decision=False),                   # no decision there
        dict(kind=NAME_KIND),                   # not a card to play
        dict(shuffled_at={0: 20}),              # no shuffle before it
        dict(label=7),                          # the real card is not in the hand
        dict(hand=[0, 1, 2, 4, 9], follow=[0, 1, 2]),   # (nor is 3; 9, the answers around it, is)
        dict(follow=[3]),                       # nothing else it may play
        dict(order=[0, 1, 2, 5, 6]),            # fewer never-seen cards than to trade
        dict(order=[0, 1] + list(range(5, 20))),  # a card it may play not in that deal
        dict(seen={2, 10}),                     # or seen since
    ]
    for i, kw in enumerate(cases):
        s = Script(monkeypatch, **kw)
        p = s.particle(refused=i != 0)
        assert s.run(p) is False and s.restarts == [], kw
    # the real answer read where the world stopped, not after it
    other = [(None, NAME[9])] * 60
    s = Script(monkeypatch, history=other[:20] + [(None, NAME[LABEL])] + other[21:])
    s.run(s.particle(), tries=1)
    assert len(s.restarts) == 1
    s = Script(monkeypatch, history=other[:21] + [(None, NAME[LABEL])] + other[22:])
    s.run(s.particle(), tries=1)
    assert s.restarts == []
    # and enough never-seen cards, just: a try
    s = Script(monkeypatch, order=[0, 1, 2, 5, 6, 7])
    s.run(s.particle(), tries=1)
    assert len(s.restarts) == 1
