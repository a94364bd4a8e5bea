"""Rules and orderings as closures (pipvm/engine/pure.py).  A rule's
conditions on globals alone are settled once for a whole hand (Shapes): the
cards allowed are the loop's, whatever the globals hold, and a condition
that fails never decides anything.  What the translation makes of every
example is recorded, so that a translation that gives up on a shape (the
same values, only slower) shows."""
import functools
import itertools
import os
import random
import types

import pytest

from compiler.pip import frontend
from pipvm.core import plain
from pipvm.core.errors import PipError
from pipvm.core.rng import OCamlRandom
from pipvm.core.runtime import PROPERTY_NAMES, SUITS, new_deck
from pipvm.engine import checks as quiet_checks, pure, vm
from pipvm.game.game import Game
from pipvm.isa import pipc
from pipvm.isa.opcodes import AGGREGATES
from pipvm.play import loader
from tests import test_regressions
from tests.fuzz import harness, test_pure
from tests.test_vm import K, RULE, code, seated, validated

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(f for f in os.listdir(os.path.join(ROOT, 'examples')) if f.endswith('.pip'))

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
Rule mixed(p, c, cl) =
  not must or
  (led == trump and (count x in p->hand where x->suit == c->suit) >= n) or
  (led != trump and canplay follows from p to cl and c in [c; 2~C]).
Rule kept(p, c, cl) = must == (n > 2 or c->suit == led).
Rule extremes(p, c, cl) = not must or
  (c->rank == (max x in p->hand of x->rank) or c->rank == (min x in p->hand of x->rank))
  and (max x in p->hand of x->rank) > (min x in p->hand of x->rank)
  and (sum x in p->hand of 1) > n + 3 and (max x in p->hand of 0 - 1) < 0.
Rule suited(p, c, cl) = not must or c->suit == H or c->rank == K.
Rule top(p, c, cl) = cl->top->suit == H or c->rank == K.
Rule same(p, c, cl) = c->rank == cl->top->rank.
Rule can(p, c, cl) = not must or must == (canplay same from p to cl) and c->suit == led.
Rule nested(p, c, cl) = trump == led or (c->suit == led) == (must and (c->rank == J or n < 3)).
Action main { shuffle d. deal 8 from d to players. play follows from players->first to pile. }
'''


def game_of(text):
    # on the loop's image: these are the closures' shapes (pure.py); the
    # compiled tier's generated rules have tests/test_rules.py
    program = pipc.load(pipc.dump(frontend.compile_text(text)), 'x')
    return Game(vm.Image(program), seed=3, players=2, names=['A', 'B'])


@pytest.fixture
def game():
    return game_of(SOURCE)


def by_loop(m, rule, player, dest):
    code = m.image.codes[rule]
    pad = [None] * (code.frame_size - 3)        # (an aggregate's item)
    return [c for c in list(player.hand) if m._run(code, 0, [], [player, c, dest] + pad, None)]


def rule_index(game, name):
    return next(i for i, c in enumerate(game.program.codes) if c.name == name)


def slot(game, name):
    return game.program.global_names.index(name)


@pytest.mark.parametrize('name', ['follows', 'legal', 'mixed', 'kept', 'nested', 'extremes', 'can'])
def test_the_settled_rule_allows_the_loop_s_cards_whatever_the_globals(game, name):
    m = game.machine
    rule = rule_index(game, name)
    assert m.image.pure[rule].shapes is not None       # (else this tests nothing)
    player, dest = m.players[0], [m.players[1].hand[0]]
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
        # the closures themselves, not the loop playable falls back on
        assert m.image.pure[rule].filter(m, player, dest) == want, (must, led, trump, n)
        compared += 1
    assert compared > 20 and failed > 10


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
    image = vm.Image(loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip')))
    shapes = {c.name: p.shapes for c, p in zip(image.program.codes, image.pure)
              if p is not None and p.shapes is not None}
    assert {name: len(s.conditions) for name, s in shapes.items()} == {'is_led': 2, 'legal': 3}


SIX = 'n < 1 or n <= 2 or n > 3 or n >= 4 or n == 5 or n != 6'


@pytest.fixture
def compared():
    """A game whose rule `six` has six conditions on n, each operator once
    (MAX_CONDITIONS), and `seven` a seventh."""
    text = SOURCE + f'Rule six(p, c, cl) = ({SIX}) and c->suit == led.\n' \
        + f'Rule seven(p, c, cl) = ({SIX} or n == 7) and c->suit == led.\n'
    return game_of(text)


def test_an_or_of_equalities_is_one_closure_and_a_list_s_top_is_not_the_card(game):
    # `c->suit == H or c->rank == K`, settled, is one closure over the card
    # (by_card); `cl->top->suit == H or ...` reads the pile, not the card
    m = game.machine
    player, dest = m.players[0], [m.players[1].hand[0]]
    m.globals[slot(game, 'must')] = True
    fast = m.image.pure[rule_index(game, 'suited')]
    suited = fast.shapes.rule([player, None, dest] + fast.pad + [m])
    assert suited.by_card is not None and closure_shape(suited.fn) == 'any_equal.any_equal_'
    for name in ('suited', 'top'):
        rule = rule_index(game, name)
        assert m.image.pure[rule].filter(m, player, dest) == by_loop(m, rule, player, dest)
    # settled to a constant, the hand is taken whole, no closure called
    m.globals[slot(game, 'must')] = False
    always = fast.shapes.rule([player, None, dest] + fast.pad + [m])
    assert always.always is True
    always.fn = always.by_card = None
    assert fast.filter(m, player, dest) == list(player.hand)
    dest[0] = next(c for c in m.deck if c.suit == SUITS[1])         # (a heart on top)
    rule = rule_index(game, 'top')
    assert m.image.pure[rule].filter(m, player, dest) == list(player.hand)

def test_every_comparison_of_globals_is_a_condition_up_to_the_bound(compared):
    shapes = compared.machine.image.pure[rule_index(compared, 'six')].shapes
    assert [c.op for c in shapes.conditions] == ['LT', 'LE', 'GT', 'GE', 'EQ', 'NE']
    assert pure.MAX_CONDITIONS == 6
    assert compared.machine.image.pure[rule_index(compared, 'seven')].shapes is None


def test_the_globals_cache_keeps_max_keys_combinations(compared):
    m = compared.machine
    rule = rule_index(compared, 'six')
    m.globals[slot(compared, 'led')] = SUITS[0]
    for n in range(pure.MAX_KEYS + 5):
        m.globals[slot(compared, 'n')] = n
        assert m.playable(rule, m.players[0], []) == by_loop(m, rule, m.players[0], [])
    assert len(m.image.pure[rule].shapes.by_globals) == pure.MAX_KEYS == 256

def test_an_ordering_with_an_aggregate_has_a_slot_for_its_item():
    # the ordering's frame: its argument, the aggregate's item, the machine
    text = SOURCE + 'Ordering base(cards) = A..K~C,H,S,D.\n' \
        + 'Ordering o(cl) = [(max c in cl by base); A~S].\n'
    g = game_of(text)
    m, o = g.machine, rule_index(g, 'o')
    hand = list(m.players[0].hand)
    code = m.image.codes[o]
    want = m._run(code, 0, [], [hand] + [None] * (code.frame_size - 1), None)
    assert m.image.pure[o].call(m, [hand]) == want and len(want) == 2


@pytest.mark.parametrize('terms, translated', [(7, True), (8, False)])
def test_a_translation_past_max_nodes_stays_on_the_loop(terms, translated):
    # each `or` inside an `and` copies the rest of the rule into both
    # branches: 1,650 nodes for seven, past MAX_NODES for eight
    body = ' and '.join('(n == %d or c->rank == cl->top->rank)' % i for i in range(terms))
    g = game_of(SOURCE + 'Rule r(p, c, cl) = %s.\n' % body)
    assert (g.machine.image.pure[rule_index(g, 'r')] is not None) is translated
    assert pure.MAX_NODES == 2000

# --- what the translation makes of every example ---------------------------
# A translation that gives up on a shape (a rule left on the loop, a
# condition not settled, an `or` of equalities not made one closure)
# computes the same values, only slower, so no value test sees it.  The
# file below records, for each rule and ordering of each example, the tree
# the bytecode translates to, the closure at its root, and for a rule with
# conditions on globals each settled rule; a change shows as a diff.
# After a change meant to alter it: python -m tests.test_shapes

SHAPES = os.path.join(ROOT, 'tests', 'data', 'pure_shapes.txt')


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


def closure_shape(fn, depth=0):
    """The closures fn is built of: its name, then those it calls (the
    functions its cells hold), as a tree."""
    name = fn.__qualname__.replace('<locals>.', '')
    inner = []
    for cell in fn.__closure__ or ():
        value = cell.cell_contents
        for f in value if type(value) in (list, tuple) else (value,):
            if type(f) is types.FunctionType and depth < 30:
                inner.append(closure_shape(f, depth + 1))
            elif type(f) is functools.partial:
                inner.append(closure_shape(f.func, depth + 1))
    return name + (f'({", ".join(inner)})' if inner else '')


def pure_shape(p):
    """One Pure: its closures and what it is known to be."""
    words = [closure_shape(p.fn)]
    words += ['constant'] * p.constant + ['by_card'] * (p.by_card is not None)
    if p.always is not None:
        words.append(f'always {p.always}')
    return ' '.join(words)


def example_shapes():
    lines = []
    for name in EXAMPLES:
        image = vm.Image(loader.load_program(os.path.join(ROOT, 'examples', name)))
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
    assert got == expected, 'the translation changed: python -m tests.test_shapes rewrites ' + SHAPES



@pytest.mark.parametrize('name', EXAMPLES)
def test_every_example_s_closures_give_the_loop_s_values(name):
    # at every evaluation of a rule or ordering in a game played at random,
    # the closures themselves (not the loop they fall back on when they
    # fail) give what the loop gives (tests/fuzz/test_pure.py's check)
    program = loader.load_program(os.path.join(ROOT, 'examples', name))
    calls = []

    def counted(check):
        return lambda *a: calls.append(check) or check(*a)
    with test_pure.closures_checked(counted):
        game = Game(vm.Image(program), seed=1, max_steps=100_000)
        rng = random.Random(1)
        for _ in range(400):
            if game.decision is None:
                break
            game.answer(rng.randrange(len(game.decision.options)) if game.decision.options
                        else 'Ann')
    uses = [c for c in program.codes if c.kind in ('rule', 'ordering')]
    assert len(calls) > 0 or not uses


@pytest.mark.parametrize('name', test_regressions.cases())
def test_every_regression_s_closures_give_the_loop_s_values(name):
    # the regression programs hold the rules no example has (teams without
    # teams, an aggregate over an empty pile, a value nobody set): a closure
    # that fails there is hidden by the loop it falls back on, so the
    # closures are checked themselves (a failed check ends the game as
    # invalid bytecode)
    source, seed, answers = test_regressions.read_case(name)
    image = vm.Image(harness.compile_checked(frontend.check_text(source)))
    with test_pure.closures_checked():
        outcome = harness.run(harness.image_engine(image), seed, answers)
    assert 'invalid bytecode' not in outcome.ending, outcome.ending


RANK = PROPERTY_NAMES.index('rank')


def hand_made(one):
    """A validated program of the code object one (index 1) and an empty main."""
    return validated([code('init', 'globals', [], [('RETURN',)]), one,
                      code('action', 'main', [], [('RETURN',)])], 2)


def at_table(program, cards):
    """The hand-made rule's closures (code 1), a machine of program and its
    first player holding cards."""
    image = vm.Image(program)
    player = seated()[0]
    player.hand.extend(cards)
    return image.pure[1], vm.Machine(image, OCamlRandom(1), events=[]), player


def filters_as_the_loop(program):
    """The hand-made rule (code 1) translates, and its closures allow some
    but not all of thirteen cards, the loop's."""
    fast, m, player = at_table(program, new_deck()[:13])
    assert fast is not None
    want = [c for c in player.hand if m._run(m.image.codes[1], 0, [], [player, c, []], None)]
    assert fast.filter(m, player, []) == want and 0 < len(want) < 13


def test_a_hand_made_rule_with_dup_and_swap_gives_the_loop_s_value():
    # the compiler writes DUP and SWAP only in statements; a hand-made rule
    # may hold them, and its closures follow them: `Three > c->rank`, the
    # value duplicated and one copy dropped
    filters_as_the_loop(hand_made(code('rule', 'low', ['p', 'c', 'pile'], [
        ('CONST', K['Three']), ('LOAD_LOCAL', 1), ('LOAD_PROP', RANK), ('SWAP',), ('LT',),
        ('DUP',), ('POP',), ('RETURN_VALUE',)])))


def test_a_rule_of_equalities_on_the_card_filters_a_hand_by_card():
    # `card->P == X or ...`: the Xs once, then each card's properties, not
    # the rule's closure card by card
    g = game_of(SOURCE + 'Rule match(p, c, cl) = c->suit == H or c->rank == cl->top->rank.\n')
    m, rule = g.machine, rule_index(g, 'match')
    fast, player = m.image.pure[rule], m.players[0]
    dest = [m.players[1].hand[0]]
    want = by_loop(m, rule, player, dest)

    def card_by_card(env):
        raise AssertionError('the rule run card by card')
    fast.fn = card_by_card
    assert fast.by_card is not None and fast.filter(m, player, dest) == want and want


@pytest.mark.parametrize('instrs', [
    [('AGG_START', 0), ('RETURN_VALUE',)],                                    # no FOR_ITER
    [('AGG_START', 0), ('LIST_CONST', 'suits C,H'), ('FOR_ITER',), ('POP',), ('RETURN_VALUE',)],
], ids=['no loop', 'no FOR_NEXT'])
def test_a_hand_made_aggregate_not_laid_out_as_the_compiler_does_stays_on_the_loop(instrs):
    # the loader checks each instruction, not an aggregate's layout
    instrs = [(op, *[K[a] if type(a) is str else a for a in args]) for op, *args in instrs]
    program = hand_made(code('rule', 'odd', ['p', 'c', 'pile'], instrs))
    assert pure.translate(program.codes[1], program, ()) is None


def test_a_message_nobody_reads_evaluates_only_what_may_fail():
    # (quiet code) its operands: a local is checked to be set, a card
    # constant, a list and a constant (which cannot fail) are not evaluated
    # at all, a property read is
    program = hand_made(code('action', 'm', ['x'], [
        ('LOAD_LOCAL', 0), ('CONST', K['A~C']), ('LIST_CONST', K['suits C,H']), ('CONST', K['7']),
        ('LOAD_LOCAL', 0), ('LOAD_PROP', RANK)] + [('POP',)] * 5 + [('RETURN',)]))
    decoded = pipc.decode(program.codes[1].code)[:6]    # the pushes
    checks = quiet_checks.operand_check(decoded, program, [K['A~C']], 1, 5)
    assert checks.slots == (0,) and len(checks.closures) == 1


if __name__ == '__main__':
    with open(SHAPES, 'w') as f:
        f.write(example_shapes())


def test_a_hand_made_rule_with_if_jump_and_drop_gives_the_loop_s_value():
    # the compiler writes JUMP_IF_FALSE, JUMP and DROP only in statements; a
    # hand-made rule may branch with them, a value kept beneath the branch:
    # 7, then `c->rank < Three`, then False or True, 7 dropped at the join
    filters_as_the_loop(hand_made(code('rule', 'high', ['p', 'c', 'pile'], [
        ('CONST', K['7']), ('LOAD_LOCAL', 1), ('LOAD_PROP', RANK), ('CONST', K['Three']), ('LT',),
        ('JUMP_IF_FALSE', 'else'), ('CONST', K['False']), ('JUMP', 'end'),
        ('LABEL', 'else'), ('CONST', K['True']),
        ('LABEL', 'end'), ('SWAP',), ('DROP', 1), ('RETURN_VALUE',)])))


def test_a_hand_made_rule_that_calls_an_action_stays_on_the_loop():
    # CALL changes the game and pushes nothing: a translation that skipped
    # it would give the rule's value without the action having run
    program = hand_made(code('rule', 'calls', ['p', 'c', 'pile'], [('CALL', 2)] + RULE))
    assert pure.translate(program.codes[1], program, ()) is None
    assert pure.translate(hand_made(code('rule', 'plain', ['p', 'c', 'pile'], RULE)).codes[1],
                          program, ()) is not None


def _counted_suits(agg):
    """`(count x in p->hand where x->suit == c->suit) > 2` as the compiler
    lays it out, its AGG_STEP then made to name aggregate agg, loaded as
    any file is."""
    text = SOURCE + 'Rule counted(p, c, cl) = (count x in p->hand where x->suit == c->suit) > 2.\n'
    program = frontend.compile_text(text)
    k = next(i for i, c in enumerate(program.codes) if c.name == 'counted')
    code_ = bytearray(program.codes[k].code)
    step = next(d for d in pipc.decode(bytes(code_)) if d.op.name == 'AGG_STEP')
    assert code_[step.offset + 1] == 0      # (its first operand, count's number)
    code_[step.offset + 1] = agg
    codes = list(program.codes)
    codes[k] = plain.evolve(codes[k], code=bytes(code_))
    return pipc.load(pipc.dump(plain.evolve(program, codes=codes)), 'x'), k


def test_a_hand_made_aggregate_whose_step_names_another_aggregate_stays_on_the_loop():
    # the loader checks each instruction, not that AGG_STEP ends its own
    # AGG_START: a count stepped as a sum is left to the loop
    program, k = _counted_suits(0)
    assert pure.translate(program.codes[k], program, ()) is not None
    program, k = _counted_suits(AGGREGATES.index('sum'))
    assert pure.translate(program.codes[k], program, ()) is None


SUIT, BY = PROPERTY_NAMES.index('suit'), PROPERTY_NAMES.index('last_played_by')
# `c->last_played_by == pile->top->last_played_by or c->suit == Hearts`: a
# card never played has no last_played_by (only a hand-made file reads it)
PLAYED_BY = [('LOAD_LOCAL', 1), ('LOAD_PROP', BY), ('LOAD_LOCAL', 2), ('LIST_PROP', 1),
             ('LOAD_PROP', BY), ('EQ',), ('JUMP_IF_TRUE_OR_POP', 'end'),
             ('LOAD_LOCAL', 1), ('LOAD_PROP', SUIT), ('CONST', K['Hearts']), ('EQ',),
             ('LABEL', 'end'), ('RETURN_VALUE',)]


@pytest.mark.parametrize('hand_played, top_played', [(False, True), (True, False), (True, True)],
                         ids=['the card undefined', 'the top undefined', 'both defined'])
def test_an_or_of_equalities_fails_where_the_loop_fails_on_an_undefined_property(
        hand_played, top_played):
    # one closure for the card (any_equal) and one for the hand (by_card,
    # then filter_by_card): each raises where the loop raises, an undefined
    # value on either side, and else gives the loop's cards
    deck = new_deck()
    fast, m, player = at_table(hand_made(code('rule', 'by', ['p', 'c', 'pile'], PLAYED_BY)),
                               deck[:13] + deck[14:20])
    other = seated()[1]
    dest = [deck[13]]
    for k, card in enumerate(player.hand if hand_played else ()):
        card.last_played_by = (player, other)[k % 2]
    dest[0].last_played_by = other if top_played else None
    assert fast.by_card is not None and closure_shape(fast.fn) == 'any_equal.any_equal_'
    card = player.hand[0]
    if not (hand_played and top_played):
        with pytest.raises(PipError):
            by_loop(m, 1, player, dest)
        with pytest.raises(Exception):
            fast.filter(m, player, dest)
        with pytest.raises(Exception):
            fast.call(m, [player, card, dest])
        return
    want = by_loop(m, 1, player, dest)
    assert fast.filter(m, player, dest) == want and 0 < len(want) < len(player.hand)
    assert [fast.call(m, [player, c, dest]) for c in player.hand] == [c in want for c in player.hand]


def test_a_hand_made_rule_evaluates_the_values_it_drops_for_their_failures():
    # `pile->top->suit` computed and dropped (POP), then the rule: the loop
    # fails on an empty pile, so the closure must fail there too, not skip it
    fast, m, player = at_table(hand_made(code('rule', 'drops', ['p', 'c', 'pile'], [
        ('LOAD_LOCAL', 2), ('LIST_PROP', 1), ('LOAD_PROP', SUIT), ('POP',)] + RULE)),
        new_deck()[6:19])       # (7 to K of Clubs, A to 6 of Hearts)
    pile = [new_deck()[20]]
    want = by_loop(m, 1, player, pile)
    assert fast.filter(m, player, pile) == want and 0 < len(want) < 13
    with pytest.raises(PipError):
        by_loop(m, 1, player, [])
    with pytest.raises(Exception):
        fast.filter(m, player, [])


def test_a_hand_made_branch_on_a_global_is_settled_to_the_side_it_takes():
    # `if g0 == 7 then c->suit == Hearts else False`, the compiler's `and`
    # written as a branch: settled with g0 known, the branch is gone, so
    # one side is the card's equality alone and the other refuses the hand
    # whole
    fast, m, player = at_table(hand_made(code('rule', 'branch', ['p', 'c', 'pile'], [
        ('LOAD_GLOBAL', 0), ('CONST', K['7']), ('EQ',), ('JUMP_IF_FALSE', 'else')] + RULE[:-1]
        + [('JUMP', 'end'), ('LABEL', 'else'), ('CONST', K['False']),
           ('LABEL', 'end'), ('RETURN_VALUE',)])), new_deck()[6:19])
    env = [player, None, []] + fast.pad + [m]
    for g0, shape in ((7, 'any_equal.any_equal_'), (0, False)):
        m.globals[0] = g0
        settled = fast.shapes.settle(env)
        assert (closure_shape(settled.fn) if settled.always is None else settled.always) == shape
        assert fast.filter(m, player, []) == by_loop(m, 1, player, [])
