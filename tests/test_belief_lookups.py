"""The belief's small lookups by their contracts: the cards seen since a
shuffle, the last shuffle before a position, the plays a difference pins
(shown_pins), the cards of the players a difference concerns (involved)
and their names (concerned), the unseen plays a named card may have been
(named_plays), a deal with the seen cards where the real draws put them
(snapped_deal).
The pinned record (test_beliefs_pinned.py) meets their edges (a shuffle
at the very position, no shuffle noted, a list where an observation is a
dict) only by chance."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief
from pipvm.game.belief.clues import NAMES as NAME
from pipvm.game.belief.particles import Deal



def belief():
    b = Belief(1, 1, random.Random(1))
    b.pins = [frozenset({1}), frozenset({2})]
    b.pins_before = [frozenset({3}), frozenset({4})]
    b.shuffled_at = {}
    return b


def test_the_cards_seen_since_a_shuffle_none_outside_the_shuffles():
    b = belief()
    assert [b.seen(j) for j in (-1, 0, 1, 2)] == [frozenset(), {1}, {2}, frozenset()]
    assert [b.seen_before(j) for j in (-1, 0, 1, 2)] == [frozenset(), {3}, {4}, frozenset()]


def test_the_last_shuffle_made_before_a_position():
    b = belief()
    b.shuffled_at = {1: 5, 2: 9}
    orders = [[], [], []]
    # shuffle 0 not noted: made before everything, position 0 included
    assert [b.last_shuffle(orders, h) for h in (0, 1, 5, 6, 9, 10)] == [0, 0, 0, 1, 1, 2]
    b.shuffled_at = {0: 3}
    assert b.last_shuffle(orders[:1], 3) == 0          # none before: the default, 0
    assert b.last_shuffle(orders[:1], 3, None) is None
    assert b.last_shuffle(orders[:1], 4, None) == 0
    b.shuffled_at = {}
    assert [b.last_shuffle(orders[:1], h, None) for h in (0, 1, 2)] == [0, 0, 0]


def shown(world, seat):
    return ({'area': [NAME[i] for i in world]}, {'area': [NAME[i] for i in seat]})


def test_a_difference_pins_the_latest_unseen_play_of_each_card_shown_otherwise():
    b = belief()
    deal = Deal(plays={3: NAME[7], 8: NAME[7], 12: NAME[7], 9: NAME[8], 4: NAME[9]})
    q = SimpleNamespace(diff=shown([7, 8], [20, 21]), matched=12)
    # 7 shown as 20: its latest play before the world stopped (12 is where it stopped)
    assert b.shown_pins(q, deal, {}) == {8: NAME[20], 9: NAME[21]}
    # a play pinned already is not pinned again; the next latest is
    assert b.shown_pins(q, deal, {8: NAME[30]}) == {3: NAME[20], 9: NAME[21]}
    # a card with no such play gives no pin, and the others still do
    q = SimpleNamespace(diff=shown([6, 8], [20, 21]), matched=12)
    assert b.shown_pins(q, deal, {}) == {9: NAME[21]}
    # one card the seat saw is one pin, though two of the world's stood for it
    q = SimpleNamespace(diff=({'a': [NAME[7]], 'b': [NAME[8]]}, {'a': [NAME[20]], 'b': [NAME[20]]}),
                        matched=12)
    assert list(b.shown_pins(q, deal, {}).values()) == [NAME[20]]


def test_only_an_observation_pairs_cards():
    b = belief()
    deal = Deal(plays={3: NAME[7]})
    for diff in [None, ([NAME[7]], [NAME[20]]), ({'area': [NAME[7]]}, 'no such answer')]:
        assert b.shown_pins(SimpleNamespace(diff=diff, matched=12), deal, {}) == {}


def table(pending='Cleo', ann='Ann'):
    deck = [SimpleNamespace(name=NAME[i]) for i in range(52)]
    players = [SimpleNamespace(name=n, hand=[deck[k], deck[k + 1]], stash=[deck[k + 2]])
               for n, k in ((ann, 0), ('Bob', 10), ('Cleo', 20))]
    pend = None if pending is None else SimpleNamespace(
        player=next(p for p in players if p.name == pending))
    return SimpleNamespace(deck=deck, players=players, seated=players, pending=pend)


def world(diff, refused=False, pending='Cleo', ann='Ann'):
    return SimpleNamespace(game=SimpleNamespace(machine=table(pending, ann)), diff=diff,
                           score=(5, -1 if refused else 0))


ANN, BOB, CLEO = frozenset({0, 1, 2}), frozenset({10, 11, 12}), frozenset({20, 21, 22})


def view(players=(), log=()):
    return {'players': [dict(p) for p in players], 'log': [{'text': t} for t in log]}


def test_the_cards_of_the_players_a_difference_concerns():
    b = belief()                      # the seat is 1: Bob
    me = {'name': 'Bob', 'seat': 1}
    assert b.involved(world(None)) == frozenset()
    # an answer refused: the player who could not give it
    assert b.involved(world(('x', 'y'), refused=True)) == CLEO
    assert b.involved(world(('x', 'y'), refused=True, pending=None)) == frozenset()
    # a player's view that differs
    ann, ann2 = {'name': 'Ann', 'cards': 2}, {'name': 'Ann', 'cards': 3}
    cleo = {'name': 'Cleo', 'cards': 1}
    diff = (view([ann, me, cleo]), view([ann2, me, cleo]))
    assert b.involved(world(diff)) == ANN
    # the players the news names, in either's log
    assert b.involved(world((view(log=['Cleo asks']), view(log=['x'])))) == CLEO
    assert b.involved(world((view(log=['x']), view(log=['Cleo asks'])))) == CLEO
    assert b.involved(world((view([ann, me], log=['Cleo asks']), view([ann2, me])))) == ANN | CLEO
    # a line with no text names nobody, whatever the names
    assert b.involved(world(({'log': [{}], 'players': [me]}, view([me], log=['Ann asks'])))) == ANN
    assert b.involved(world(({'log': [{}], 'players': [me]}, view([me], log=['Bob asks'])),
                             ann='!')) == ANN | BOB | CLEO
    # nobody but the seat, or nobody: every hand
    every = ANN | BOB | CLEO
    assert b.involved(world((view([me], log=['Bob draws']), view([me])))) == every
    assert b.involved(world((view([me]), view([me])))) == every
    # another seat's name alone is somebody
    assert b.involved(world((view(log=['Ann draws']), view([me])))) == ANN


def test_the_names_of_the_players_a_difference_concerns():
    b = belief()
    assert b.concerned(world(None)) == set()
    assert b.concerned(world(('x', 'y'))) == {'Cleo'}                 # the answer refused
    assert b.concerned(world(('x', 'y'), pending=None)) == set()
    assert b.concerned(world((view(log=['a']), view(log=['a', 'Cleo hands Ann 1.'])))) == \
        {'Cleo', 'Ann'}
    assert b.concerned(world((view(log=['a', 'b']), view(log=['a'])))) == set()   # no line
    assert b.concerned(world((view(log=['a']), {'log': [{'text': 'a'}, {}]}))) == set()


def test_the_unseen_plays_from_a_position_up_to_the_difference_may_have_been_the_card_named():
    b = belief()
    b.unseen_plays = {2, 4, 6, 9}
    diff = ({'log': ['Ann shows %s.' % NAME[3]]}, {'log': ['Ann shows %s.' % NAME[8]]})
    p = SimpleNamespace(diff=diff, matched=9)
    assert b.named_plays(p, 4) == [(4, NAME[8]), (6, NAME[8])]
    assert b.named_plays(p, 0) == [(2, NAME[8]), (4, NAME[8]), (6, NAME[8])]
    assert b.named_plays(SimpleNamespace(diff=None, matched=9), 0) == []


def test_a_snapped_deal_puts_each_seen_card_where_the_real_draw_put_it():
    b = belief()
    b.pins = [frozenset({1}), frozenset({5})]
    # shuffle 1 has no draw noted: its order stands for it
    deal = Deal([[0, 1, 2], [3, 4, 5]], [[1, 0, 2]])
    snapped, moved = b.snapped_deal(deal)
    assert snapped.orders == [[1, 0, 2], [3, 4, 5]] and moved == 0
    assert deal.orders == [[0, 1, 2], [3, 4, 5]]
    b.pins = [frozenset(), frozenset({5})]
    deal = Deal([[0, 1, 2], [3, 5, 4]], [[0, 1, 2], [3, 4, 5]])
    snapped, moved = b.snapped_deal(deal)
    assert snapped.orders == [[0, 1, 2], [3, 4, 5]] and moved == 1
    assert b.snapped_deal(Deal([[0, 1, 2]], [[0, 1, 2]]))[1] is None
