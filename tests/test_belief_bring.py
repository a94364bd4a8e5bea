"""Belief.bring (and traded) by their contract, on a scripted table: the
ways to bring the card X of a pinned play into the hand of the player
who must play it, likeliest first:

  1. X is in another player's hand: each earlier unseen play of that
     player, not pinned, whose card is now in this player's hand, made X
     (latest first): the card takes the way that one took;
  2. an earlier unseen play, not pinned, laid X: it lays the card the pin
     displaced instead (what the pinned play played before its pin);
  3. X trades places in the deal with each never-seen card Z of the
     player's hand, in the last shuffle before the pinned play that dealt
     both, replayed from where that shuffle was made.

The pinned record (test_beliefs_pinned.py) reached these only through
Cheat's and Go Fish's piles; which ways are offered, in which order, is
checked here."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, clues, replay
from pipvm.game.belief.clues import NAMES as NAME
from pipvm.game.belief.particles import Deal

H = 30                  # the pinned play that could not be made
X = 5                   # its card, which Ann does not hold


def table(monkeypatch, places, played_by, shuffled_at, seen=()):
    b = Belief(0, 1, random.Random(1))
    b.played_by, b.shuffled_at = played_by, shuffled_at
    b.pins = [frozenset(), frozenset(), frozenset(seen)]    # seen since each shuffle
    monkeypatch.setattr(clues, 'places', lambda m: places)
    monkeypatch.setattr(replay, 'traded_in', lambda deal, j, x, z, at, pinned=():
                        ('traded', j, x, z, dict(pinned)))
    return b


def world(pending=True):
    m = SimpleNamespace(pending=SimpleNamespace(player=SimpleNamespace(name='Ann'))
                        if pending else None)
    return SimpleNamespace(short=(H, NAME[X]), game=SimpleNamespace(machine=m))


ANN, BOB = ('hand', 'Ann'), ('hand', 'Bob')
PLAYS = {10: NAME[7], 18: NAME[7], 20: NAME[8], 22: NAME[7], 24: NAME[2], 35: NAME[8],
         12: NAME[X], 15: NAME[X], 16: NAME[X]}
BY = {10: 'Bob', 18: 'Bob', 20: 'Bob', 22: 'Cleo', 24: 'Bob', 35: 'Bob'}
PINNED = {H: NAME[X], 18: NAME[3], 16: NAME[X]}
WAS = {H: NAME[6]}
ORDERS = [list(range(52)), [X, 7, 40], [X, 8, 7]]


def options(b, deal, pinned=PINNED, was=WAS, w=None):
    return [(o[0].plays if isinstance(o[0], Deal) else o[0], o[1], o[2], o[3])
            for o in b.bring(w or world(), deal, pinned, was)]


def test_the_ways_to_bring_a_card_in_their_order(monkeypatch):
    places = {X: BOB, 7: ANN, 8: ANN, 9: ANN, 2: ('hand', 'Cleo')}
    b = table(monkeypatch, places, BY, {1: 26, 2: H}, seen={9})
    deal = Deal(ORDERS, plays=PLAYS)
    got = options(b, deal)
    made = lambda h0, card: {**PLAYS, h0: card}
    assert got == [
        # 1: Bob's unseen plays before 30, not pinned, of cards now in Ann's hand
        (made(20, NAME[X]), {**PINNED, 20: NAME[X]}, 20, {**WAS, 20: NAME[8]}),
        (made(10, NAME[X]), {**PINNED, 10: NAME[X]}, 10, {**WAS, 10: NAME[7]}),
        # 2: the plays that laid X, not pinned, lay the displaced Six instead
        (made(15, NAME[6]), PINNED, 15, WAS),
        (made(12, NAME[6]), PINNED, 12, WAS),
        # 3: X traded with Ann's never-seen 7 and 8 in the last shuffle before
        # 30 that dealt both (shuffle 2 at 30 is not before it; 0 was made
        # before any the belief noted: from the start)
        (('traded', 1, X, 7, PINNED), PINNED, 26, WAS),
        (('traded', 0, X, 8, PINNED), PINNED, 0, WAS),
    ]
    assert deal.plays == PLAYS          # the deal itself untouched


def test_no_decision_no_way(monkeypatch):
    b = table(monkeypatch, {X: BOB, 7: ANN}, BY, {})
    assert b.bring(world(pending=False), Deal(ORDERS, plays=PLAYS), PINNED, WAS) == []


def test_plays_are_made_the_card_only_where_another_player_holds_it(monkeypatch):
    for where in [None, ('stash', 'Bob'), ('area', 'Bob')]:
        places = {7: ANN, 8: ANN}
        if where is not None:
            places[X] = where
        b = table(monkeypatch, places, BY, {1: 26}, seen={7, 8})
        got = options(b, Deal(ORDERS, plays=PLAYS))
        assert [o[2] for o in got] == [15, 12], where


def test_the_displaced_card_only_when_the_pin_displaced_another(monkeypatch):
    for was in [{}, {H: NAME[X]}, {29: NAME[6]}]:
        b = table(monkeypatch, {X: ('stash', 'Bob'), 7: ANN}, BY, {1: 26}, seen={7})
        assert options(b, Deal(ORDERS, plays=PLAYS), was=was) == []


def test_a_card_no_shuffle_dealt_with_x_is_not_traded(monkeypatch):
    b = table(monkeypatch, {X: ('stash', 'Bob'), 41: ANN}, BY, {1: 26})
    deal = Deal([[X, 7], [X, 8]], plays={})
    assert options(b, deal) == []
    # nor one dealt with it by a shuffle at or after the pinned play
    b = table(monkeypatch, {X: ('stash', 'Bob'), 8: ANN}, BY, {0: 5, 1: H})
    assert options(b, deal) == []
    b = table(monkeypatch, {X: ('stash', 'Bob'), 8: ANN}, BY, {0: 5, 1: H - 1})
    assert options(b, deal) == [(('traded', 1, X, 8, PINNED), PINNED, H - 1, WAS)]


def test_a_shuffle_the_belief_did_not_note_was_made_before_everything(monkeypatch):
    # (position 0: before the first decision) traded replays it from the start
    b = table(monkeypatch, {}, {}, {1: 3})
    deal = Deal([[X, 8], [X, 8]], plays={})
    for h in (0, 1, 2):
        assert b.traded(deal, {}, X, 8, h) == (('traded', 0, X, 8, {}), {}, 0)
    assert b.traded(deal, {}, X, 8, 4)[2] == 3
