"""What tools/mutation.py's campaign on pipvm/engine/rules.py left alive
(tools/mutation-results/rules.tsv): a hand's filter's plan of its card-free
tests (_split, _planned), checked on expression trees built by hand against
the rule's own generated value, card by card; the born properties' cache;
a leaf no example's rule holds."""
import re
from types import SimpleNamespace

from pipvm.core.runtime import PROPERTY_NAMES, RANKS, SUITS, Card
from pipvm.engine import rules
from pipvm.engine.expressions import Binary, If, Keep, Leaf, Return, Unary

RANK, SUIT = PROPERTY_NAMES.index('rank'), PROPERTY_NAMES.index('suit')
CARD, MACHINE = 1, 3        # a rule's (player, card, destination), then the machine
HAND = [Card(RANKS[r], SUITS[s]) for r, s in ((1, 0), (5, 1), (9, 2), (13, 3), (5, 0))]


def _of_card(prop):
    return Unary('LOAD_PROP', prop, Leaf('load_local', CARD))


def _is(prop, value):
    return Binary('EQ', _of_card(prop), Leaf('const', value))


def _checked(tree, globals_):
    """tree's hand filter (its source), whose cards, and any-variant's
    answer, are the rule's value's (value_function, with no plan) card by
    card: the cards, or an error where that fails."""
    m = SimpleNamespace(consts=[], globals=list(globals_))
    player = SimpleNamespace(hand=list(HAND))
    value = rules.value_function(tree, MACHINE, None)
    want = []
    try:
        for card in player.hand:
            if value([player, card, [], m]):
                want.append(card)
    except Exception:
        want = Exception
    hand = rules.hand_function(tree, MACHINE, None, CARD)
    for fn, expected in ((hand, want), (hand.write_any(), want if want is Exception else bool(want))):
        try:
            got = fn(m, player, [])
        except Exception:
            got = Exception
        assert got == expected, (globals_, fn.source)
    return hand.source


def test_a_card_free_branch_is_taken_once_before_the_cards_loops():
    # a hand-made rule's JUMP_IF_FALSE on a global: the If is decided once
    # (`if g0:`), each side its own loop, neither testing g0 per card
    tree = If(Leaf('load_global', 0), Return(_is(RANK, RANKS[5]), ()),
              Return(_is(SUIT, SUITS[0]), ()))
    for flag in (True, False, None):
        source = _checked(tree, [flag])
    assert re.search(r'^ +if g0:$', source, re.M), source


def test_a_kept_value_s_local_is_its_own_in_a_nested_kept_value():
    # `(a or ...) ...` kept in s4, then `(b or ...)` in s5 inside it: the
    # comparison of the two reads each its own local (5 == 7: no card)
    tree = Keep(True, Leaf('load_global', 0), 4,
                Keep(True, Leaf('load_global', 1), 5,
                     Return(Binary('EQ', Leaf('scratch', 4), Leaf('scratch', 5)), ()),
                     Return(_is(RANK, RANKS[5]), ())),
                Return(_is(SUIT, SUITS[0]), ()))
    for globals_ in ([5, 7], [5, 5], [5, 0], [0, 7]):
        source = _checked(tree, globals_)
    assert 's4 = g0' in source and 's5 = g1' in source, source


def test_a_plan_s_loops_are_those_of_both_sides_of_its_tests():
    plan = ('if', 'h1', None, ('loop', 'a'), ('if', 'h2', 's4', ('all',), ('loop', 'b')))
    assert rules._loops(plan) == ['a', 'b']
    assert rules._loops(('none',)) == [] and rules._loops(('loop', 'c')) == ['c']


def test_a_constant_list_of_cards_is_read_from_the_machine_s_constants_as_a_new_list():
    # LIST_CONST of a list holding cards (a Leaf 'list_const': its value is
    # the deck's) is its body, list(consts[k]), not a closure's call
    m = SimpleNamespace(consts=[HAND[:2]], globals=[])
    fn = rules.value_function(Return(Leaf('list_const', 0), ()), MACHINE, None)
    assert 'list(consts[0])' in fn.source, fn.source
    got = fn([None, None, None, m])
    assert got == HAND[:2] and got is not m.consts[0]


def test_a_program_whose_code_does_not_decode_has_no_born_properties():
    # (the verifier refuses it before a rule is written; here no property
    # may be read unchecked)
    bad = SimpleNamespace(codes=[SimpleNamespace(code=bytes([255]))])
    assert rules.born_properties(bad) == frozenset()



def test_a_checked_read_of_the_card_s_property_is_kept_for_its_next_read():
    # a rank some code may store (not born: checked): `c->rank == A or
    # c->rank == K` reads card.rank once, its check's local the second time
    tree = Keep(True, _is(RANK, RANKS[1]), 4, Return(Leaf('scratch', 4), ()),
                Return(_is(RANK, RANKS[13]), ()))
    source = _checked(tree, [])
    loops = [line for line in source.splitlines() if line.lstrip().startswith('if (')]
    assert loops and all(loop.count('card.rank') == 1 and 'is not None' in loop
                         for loop in loops), source
    # (the constants A and K read once for the hand, as locals, where they can be)
    assert ' == h1)' in loops[0] and ' == h2)' in loops[0], source
