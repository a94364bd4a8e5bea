"""A rule's conditions on globals alone are settled once for a whole hand
(pipvm/engine/pure.py, Shapes): the cards allowed are the loop's, whatever
the globals hold, and a condition that fails never decides anything."""
import itertools
import os

import pytest

from compiler import frontend
from pipvm.core.errors import PipError
from pipvm.core.runtime import SUITS
from pipvm.engine import pure
from pipvm.game.game import Game
from pipvm.isa import pipc

SOURCE = '''Game "g" requires 2 players.
Deck d = standard.
Area pile labeled "Pile".
Boolean must.
Suit led.
Suit trump.
Number n.
Rule follows(p, c, cl) = not must or c->suit == led.
Rule legal(p, c, cl) =
  not must or
  (led == trump and (c->suit == trump or c->rank == J)) or
  (led != trump and c->suit == led and not (c->rank == J and n > 2)).
Action main { shuffle d. deal 8 from d to players. play follows from players->first to pile. }
'''


@pytest.fixture
def game():
    program = pipc.load(pipc.dump(frontend.compile_text(SOURCE)), 'x')
    return Game(program, seed=3, players=2, names=['A', 'B'])


def by_loop(m, rule, player, dest):
    code = m.image.codes[rule]
    return [c for c in list(player.hand) if m._run(code, 0, [], [player, c, dest], None)]


def rule_index(game, name):
    return next(i for i, c in enumerate(game.program.codes) if c.name == name)


def slot(game, name):
    return game.program.global_names.index(name)


@pytest.mark.parametrize('name', ['follows', 'legal'])
def test_the_settled_rule_allows_the_loop_s_cards_whatever_the_globals(game, name):
    m = game.machine
    rule = rule_index(game, name)
    assert m.image.pure[rule].shapes is not None       # (else this tests nothing)
    player, dest = m.players[0], []
    values = [[None, False, True], [None] + list(SUITS[:2]), [None] + list(SUITS[:2]),
              [None, 1, 5]]
    compared = failed = 0
    for must, led, trump, n in itertools.product(*values):
        for g, v in zip(('must', 'led', 'trump', 'n'), (must, led, trump, n)):
            m.globals[slot(game, g)] = v
        try:
            want = by_loop(m, rule, player, dest)
        except PipError:
            # the settled rule must fail too, so that the loop says where
            with pytest.raises(Exception):
                m.image.pure[rule].filter(m, player, dest)
            failed += 1
            continue
        assert m.playable(rule, player, dest) == want, (must, led, trump, n)
        compared += 1
    assert compared > 30 and failed > 10


def test_a_failing_condition_no_card_reaches_does_not_fail(game):
    # `not must` is True: the loop never reads led, undefined here
    m = game.machine
    m.globals[slot(game, 'must')] = False
    m.globals[slot(game, 'led')] = None
    rule = rule_index(game, 'follows')
    assert m.playable(rule, m.players[0], []) == list(m.players[0].hand)


def test_settled_rules_are_made_once_per_combination(game):
    m = game.machine
    rule = rule_index(game, 'legal')
    shapes = m.image.pure[rule].shapes
    m.globals[slot(game, 'must')], m.globals[slot(game, 'n')] = True, 1
    m.globals[slot(game, 'trump')] = SUITS[0]
    for led in SUITS * 3:
        m.globals[slot(game, 'led')] = led
        assert m.playable(rule, m.players[0], []) == by_loop(m, rule, m.players[0], [])
    # three conditions; led == trump and led != trump: two combinations met
    assert len(shapes.by_tests) == 2
    assert len(shapes.by_globals) == 4


def test_the_globals_cache_stays_bounded(game, monkeypatch):
    monkeypatch.setattr(pure, 'MAX_KEYS', 3)
    m = game.machine
    rule = rule_index(game, 'legal')
    shapes = m.image.pure[rule].shapes
    m.globals[slot(game, 'must')], m.globals[slot(game, 'n')] = True, 1
    for suit in SUITS:
        for trump in SUITS:
            m.globals[slot(game, 'led')], m.globals[slot(game, 'trump')] = suit, trump
            assert m.playable(rule, m.players[0], []) == by_loop(m, rule, m.players[0], [])
    assert len(shapes.by_globals) == 3


def test_euchre_s_rules_are_settled_per_hand():
    from pipvm.engine.vm import Image
    from pipvm.play import loader
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    image = Image(loader.load_program(os.path.join(root, 'examples', 'euchre.pip')))
    shapes = {c.name: p.shapes for c, p in zip(image.program.codes, image.pure)
              if p is not None and p.shapes is not None}
    assert {name: len(s.conditions) for name, s in shapes.items()} == {'is_led': 2, 'legal': 3}
