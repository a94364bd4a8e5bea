"""Belief.window_trades by its contract, on a scripted replay: from the
last shuffle before the decision whose answer differs, the game is
replayed step by step to there, noting each never-seen card that came
into the hand of a player the difference concerns (drawn: not held by
anyone before); each such card Z that the difference does not name, the
latest drawn first, trades places with each named never-seen card X not
in that player's hand (the cards in no hand first); then each named card
in the player's hand trades with each never-seen card in no hand.  The
never-seen cards it does not name come back with them.

The pinned record (test_beliefs_pinned.py) reaches this through Go Fish's
questions; the order of the trades and the replay's steps are checked
here, on a table the test writes."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, clues, repairs
from pipvm.game.belief.particles import Deal, Particle

ANN, BOB, STOCK = ('hand', 'Ann'), ('hand', 'Bob'), ('stock', 0)


class Script:
    """steps: the places after each step of the replay from history
    position 3 (the first, before any step); related: the cards the
    difference names."""

    def __init__(self, monkeypatch, steps, related, seen=(0,), shuffled_at=None, names=('Ann',),
                 start=3):
        self.b = b = Belief(0, 1, random.Random(1))
        b.pins = [frozenset(seen)]
        b.shuffled_at = {0: 2} if shuffled_at is None else shuffled_at
        b.concerned = lambda p: set(names)
        self.checked = []
        self.start = start
        b.restart = self.restart
        b.check = self.check
        self.steps = list(steps)
        self.game = SimpleNamespace(history=[None] * start, machine=None)
        monkeypatch.setattr(clues, 'related', lambda diff: set(related))
        monkeypatch.setattr(clues, 'places', lambda m: self.steps[len(self.checked)])
        monkeypatch.setattr(repairs, 'traded_in', lambda deal, j, x, z, at: ('traded', j, x, z))

    def restart(self, p, j, deal):
        assert j == 0 and deal is not p.deal
        return Particle(self.game, deal, 0)

    def check(self, q, k):
        self.checked.append(k)
        return k + 1 if k < len(self.steps) + self.start else k

    def run(self, matched):
        p = Particle(None, Deal([list(range(20))]), matched)
        return self.b.window_trades(p)


def places(**moved):
    out = {i: STOCK for i in range(20)}
    out.update({3: BOB, 5: ANN})
    out.update({int(k[1:]): v for k, v in moved.items()})
    return out


def test_cards_drawn_into_the_hand_trade_with_the_named_cards_the_latest_first(monkeypatch):
    steps = [places(), places(c10=ANN), places(c10=ANN), places(c10=ANN, c11=ANN),
             places(c10=ANN, c11=ANN)]
    s = Script(monkeypatch, steps, related={0, 3, 4})
    trades, rest = s.run(matched=8)
    # replayed from the shuffle to the decision at 7, one step at a time
    assert s.checked == [4, 5, 6, 7]
    assert [(x, z, h) for _, _, x, z, h in trades] == [
        (4, 11, 6), (3, 11, 6),         # the latest drawn first; a card in no hand (4) before Bob's (3)
        (4, 10, 4), (3, 10, 4)]
    assert all(t[0] == 0 and t[1] == ('traded', 0, t[2], t[3]) for t in trades)
    # the never-seen cards the difference does not name (0 was seen)
    assert rest == set(range(1, 20)) - {3, 4}


def test_a_card_drawn_by_another_or_taken_from_a_hand_is_not_drawn(monkeypatch):
    steps = [places(), places(c10=BOB), places(c10=BOB, c5=STOCK),
             places(c10=BOB, c5=STOCK, c12=('stash', 'Ann')),
             places(c10=ANN, c5=STOCK, c12=('stash', 'Ann'))]
    s = Script(monkeypatch, steps, related={4})
    trades, _ = s.run(matched=8)
    # 10 went to Bob, then from Bob to Ann (held before); 12 to Ann's stash
    assert trades == [t for t in trades if t[4] == -1]


def test_a_named_card_in_the_hand_trades_with_a_card_in_no_hand(monkeypatch):
    hand = places(c4=ANN)
    hand.update({i: ANN for i in range(6, 20)})       # all but 1, 2 and the named 4 held
    s = Script(monkeypatch, [hand, hand], related={4})
    trades, _ = s.run(matched=5)
    assert [(x, z, h) for _, _, x, z, h in trades] == [(4, 1, -1), (4, 2, -1)]
    assert [t[:2] for t in trades] == [(0, ('traded', 0, 4, 1)), (0, ('traded', 0, 4, 2))]


def test_the_replay_stops_where_it_no_longer_matches(monkeypatch):
    steps = [places(), places(c10=ANN)]       # the replay matches to 4, not beyond
    s = Script(monkeypatch, steps, related={4})
    trades, _ = s.run(matched=8)
    assert s.checked == [4, 5]
    assert [(x, z, h) for _, _, x, z, h in trades if h != -1] == [(4, 10, 4)]


def test_nothing_to_trade_without_a_shuffle_a_player_or_a_named_never_seen_card(monkeypatch):
    steps = [places(), places(c10=ANN)]
    for kw, related in [(dict(shuffled_at={0: 7}), {4}), (dict(names=()), {4}),
                        (dict(), {0}), (dict(), set())]:
        s = Script(monkeypatch, steps, related=related, **kw)
        assert s.run(matched=8) == ([], set()) and s.checked == [], kw
    # the first decision can differ too: the game replayed to it, nothing drawn
    s = Script(monkeypatch, [places(c4=ANN)], related={4}, shuffled_at={}, start=0)
    trades, _ = s.run(matched=1)
    assert s.checked == [] and {t[4] for t in trades} == {-1}


def test_only_a_never_seen_card_the_difference_does_not_name_is_traded_in_for_a_named_one(monkeypatch):
    # Ann draws 10 (never seen, not named), the named 4, and the seen 0;
    # the named 5 is in her hand already, so it is not brought in
    steps = [places(), places(c10=ANN), places(c10=ANN, c4=ANN), places(c10=ANN, c4=ANN, c0=ANN)]
    s = Script(monkeypatch, steps, related={3, 4, 5})
    trades, _ = s.run(matched=7)
    assert [(x, z, h) for _, _, x, z, h in trades if h != -1] == [(3, 10, 4)]
