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


# --- what the translation makes of every example ---------------------------
# A translation that gives up on a shape (a rule left on the loop, a
# condition not settled, an `or` of equalities not made one closure)
# computes the same values, only slower, so no value test sees it.  The
# file below records, for each rule and ordering of each example, the tree
# the bytecode translates to, the closure at its root, and for a rule with
# conditions on globals each settled rule; a change shows as a diff.
# After a change meant to alter it: python tests/test_shapes.py

SHAPES = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'pure_shapes.txt')


def tree_shape(t):
    """The tree's node kinds and operations (not the constants' values)."""
    kind = type(t)
    if kind is pure.Leaf:
        return t.kind
    if kind is pure.Unary:
        return f'{t.op}({tree_shape(t.operand)})'
    if kind is pure.Binary:
        return f'{t.op}({tree_shape(t.left)}, {tree_shape(t.right)})'
    if kind is pure.CanPlay:
        return f'{t.op}({tree_shape(t.player)}, {tree_shape(t.dest)})'
    if kind is pure.Aggregate:
        return f'aggregate{t.agg}({tree_shape(t.items)}; {tree_shape(t.body)})'
    if kind is pure.Counted:
        return f'{t.op}({", ".join(map(tree_shape, t.parts))})'
    if kind is pure.If:
        return f'if({tree_shape(t.cond)}; {tree_shape(t.then)}; {tree_shape(t.else_)})'
    if kind is pure.Keep:
        word = 'or' if t.on_true else 'and'
        return f'{word}({tree_shape(t.cond)}; {tree_shape(t.kept)}; {tree_shape(t.rest)})'
    dropped = ''.join(f' after {tree_shape(d)}' for d in t.dropped)
    return tree_shape(t.value) + dropped        # a Return


def pure_shape(p):
    """One Pure: its root closure and what it is known to be."""
    words = [p.fn.__qualname__]
    words += ['constant'] * p.constant + ['by_card'] * (p.by_card is not None)
    if p.always is not None:
        words.append(f'always {p.always}')
    return ' '.join(words)


def example_shapes():
    from pipvm.engine.vm import Image
    from pipvm.play import loader
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    lines = []
    for name in sorted(os.listdir(os.path.join(root, 'examples'))):
        if not name.endswith('.pip'):
            continue
        image = Image(loader.load_program(os.path.join(root, 'examples', name)))
        for code, p in zip(image.program.codes, image.pure):
            if code.kind not in ('rule', 'ordering'):
                continue
            lines.append(f'{name} {code.kind} {code.name}: ' + (
                'left on the loop' if p is None else pure_shape(p)))
            if p is None:
                continue
            decoded = pipc.decode(code.code)
            t = pure._Translator(decoded, image.program, image.card_consts,
                                 len(code.local_names))
            lines.append('    ' + tree_shape(t.block(0, ())))
            if p.shapes is None:
                continue
            shapes = p.shapes
            lines.append('    conditions: ' + '; '.join(map(tree_shape, shapes.conditions)))
            for values in itertools.product((False, True), repeat=len(shapes.conditions)):
                # settle as PLAY does, the conditions' closures giving these values
                shapes.tests, shapes.by_tests = [lambda env, v=v: v for v in values], {}
                settled = shapes.settle(None)
                lines.append(f'    {"".join("FT"[v] for v in values)}: {pure_shape(settled)}')
    return '\n'.join(lines) + '\n'


def test_every_example_keeps_its_closure_shapes():
    with open(SHAPES) as f:
        expected = f.read()
    got = example_shapes()
    assert 'left on the loop' not in got        # every example's rules and orderings translate
    assert got == expected, 'the translation changed: python tests/test_shapes.py rewrites ' + SHAPES


if __name__ == '__main__':
    with open(SHAPES, 'w') as f:
        f.write(example_shapes())
