"""trades.Swapped by its contract: a game at a particle's last matched
decision with never-seen cards traded, and the particle's deal with the
same cards traded.  The deal keeps the shuffles up to j (later ones are
dealt anew) and the particle's orders whole (for the windows of the
unseen plays); then(pairs, plays) trades each pair in a fork, in shuffle
j's order and in every card object, so that deck index a still means
card a: the constants naming cards follow the deck, the options of a
card decision name the cards now held, the unseen plays in the shuffle's
window follow their cards and the plays given are set; the game it was
made from is untouched.

The pinned record (test_beliefs_pinned.py) sees only where the local
moves lead; the trade itself is checked here on High Card's first play."""
import os

from compiler.codegen import generator as codegen
from compiler.pip import frontend
from pipvm.game.belief.clues import CARD_NAME, NAMES as NAME
from pipvm.game.belief.particles import Deal
from pipvm.game.belief.trades import Swapped
from pipvm.game.determinize import DECK_INDEX, deck_indexes
from pipvm.game.game import Game
from pipvm.game.kinds import CARD, NAME as NAME_KIND, SETS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(ROOT, 'examples', 'high_card.pip'), encoding='utf-8') as _f:
    HIGH_CARD = _f.read()


def test_a_swapped_deal_keeps_the_shuffles_up_to_j_and_the_orders_whole():
    orders, drawn = [[0, 1], [2, 3], [4, 5]], [[1, 0], [3, 2], [5, 4]]
    deal = Deal(orders, drawn, {9: 'AS'})
    s = Swapped(deal, 1, 'game', {})
    assert s.deal.orders == orders[:2] and s.deal.drawn == drawn[:2]
    assert s.deal.plays == {9: 'AS'}
    assert s.orders == orders and s.moved == frozenset() and s.j == 1
    assert Swapped(deal, 0, 'game', {}).deal.orders == orders[:1]


def first_play():
    game = Game(codegen.generate(frontend.check_text(HIGH_CARD)), seed=1, players=2,
                names=['Ann', 'Bob'])
    assert game.decision.kind == CARD
    return game


def test_a_trade_renames_the_cards_held_follows_the_constants_and_leaves_the_game_alone():
    game = first_play()
    m = game.machine
    index = deck_indexes(m)
    held = [index[id(c)] for c in m.pending.cards]
    a, b = held[0], next(i for i in range(52) if i not in held)
    order = list(range(52))
    before = (game.decision.options, [c.name for c in m.deck])
    s = Swapped(Deal([order], [order], {3: NAME[a], 7: NAME[b], 8: NAME[5]}), 0, game,
                 {0: 0}).then([(a, b)], plays={8: NAME[6]})
    g = s.game
    assert (game.decision.options, [c.name for c in m.deck]) == before
    # index a still means card a: the objects traded values, the deck followed
    assert [c.name for c in g.machine.deck] == list(NAME)
    assert g.decision.options == tuple(NAME[b] if i == a else NAME[i] for i in held)
    assert g.decision.options == tuple(c.name for c in g.machine.pending.cards)
    decks = [c for c in g.machine.consts if type(c) is tuple and len(c) == 52]
    assert decks and all(sorted(c.name for c in d) == sorted(NAME) for d in decks)
    assert all(list(d) == [g.machine.deck[m.deck.index(c)] for c in old]
               for d, old in zip(decks, [c for c in m.consts if type(c) is tuple and len(c) == 52]))
    assert s.deal.orders == [[b if i == a else a if i == b else i for i in order]]
    assert s.deal.plays == {3: NAME[b], 7: NAME[a], 8: NAME[6]}
    assert s.moved == {a, b} and s.j == 0 and s.orders == [order]


def test_a_trade_at_a_decision_of_sets_offers_the_sets_of_the_cards_now_held():
    with open(os.path.join(ROOT, 'examples', 'president_sets.pip'), encoding='utf-8') as f:
        game = Game(codegen.generate(frontend.check_text(f.read())), seed=1, players=3,
                    names=['Ann', 'Bob', 'Cy'])
    assert game.decision.kind == SETS
    m = game.machine
    index = deck_indexes(m)
    hand = {index[id(c)] for c in m.pending.player.hand}
    a = DECK_INDEX['Three of Clubs']
    b = next(i for i in range(52) if i not in hand and NAME[i].startswith('Three'))
    assert a in hand
    g = Swapped(Deal([list(range(52))]), 0, game, {0: 0}).then([(a, b)]).game
    named = {n for o in g.decision.options for n in CARD_NAME.findall(o)}
    held = {c.name for c in g.machine.pending.player.hand}
    assert named <= held and NAME[b] in named and NAME[a] not in named
    assert NAME[b] + ' and Three of Spades' in g.decision.options or \
        'Three of Spades and ' + NAME[b] in g.decision.options
    assert 'Three of Clubs' in game.decision.options


def test_a_trade_at_a_decision_of_no_cards_leaves_its_options():
    game = Game(codegen.generate(frontend.check_text(HIGH_CARD)), seed=1, players=2)
    assert game.decision.kind == NAME_KIND
    g = Swapped(Deal([list(range(52))]), 0, game, {0: 0}).then([(0, 1)]).game
    assert g.decision == game.decision
