"""What tools/mutation.py's campaign on pipvm/engine/rules.py left alive
(tools/mutation-results/rules.tsv): a hand's filter's plan of its card-free
tests (_split, _planned), checked on expression trees built by hand against
the rule's own generated value, card by card; the born properties' cache;
a leaf no example's rule holds; the operations hoisted out of the cards'
loop, the filter's arguments and environment, the caller's decided test,
each part that may fail (so CANPLAY's any-variant runs the whole loop) or
cannot, and the forms of a body written as one expression."""
import re
from types import SimpleNamespace

from pipvm.core.errors import Fault
from pipvm.core.runtime import PROPERTY_NAMES, RANKS, SUITS, Card, list_prop
from pipvm.engine import rules
from pipvm.engine.expressions import Binary, If, Keep, Leaf, Return, Unary

RANK, SUIT = PROPERTY_NAMES.index('rank'), PROPERTY_NAMES.index('suit')
CARD, MACHINE = 1, 3        # a rule's (player, card, destination), then the machine
HAND = [Card(RANKS[r], SUITS[s]) for r, s in ((1, 0), (5, 1), (9, 2), (13, 3), (5, 0))]


def _of_card(prop):
    return Unary('LOAD_PROP', prop, Leaf('load_local', CARD))


def _is(prop, value):
    return Binary('EQ', _of_card(prop), Leaf('const', value))


def _checked(tree, globals_, closure=None, born=frozenset()):
    """tree's hand filter (its source), whose cards, and any-variant's
    answer, are the rule's value's (value_function, with no plan) card by
    card: the cards, or an error where that fails."""
    m = SimpleNamespace(consts=[], globals=list(globals_))
    player = SimpleNamespace(hand=list(HAND))
    value = rules.value_function(tree, MACHINE, closure, born)
    want = []
    try:
        for card in player.hand:
            if value([player, card, [], m]):
                want.append(card)
    except Exception:
        want = Exception
    hand = rules.hand_function(tree, MACHINE, closure, CARD, born)
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


def _or(first, rest, slot=4):
    """`first or rest` as the translator keeps it (a Keep returning it)."""
    return Keep(True, first, slot, Return(Leaf('scratch', slot), ()), Return(rest, ()))


def test_a_filter_reads_the_player_and_destination_as_its_arguments():
    # slots 0 and 2 are hand_(m, player, dest)'s arguments: read there, with
    # no environment made for them
    tree = Return(Binary('EQ', Leaf('load_local', 0), Leaf('load_local', 2)), ())
    source = _checked(tree, [])
    assert 'player' in source and 'dest)' in source and 'env' not in source, source


def test_a_filter_reading_the_environment_makes_it():
    # a local that is no argument (slot 3: the machine) is read from env,
    # which the filter then makes (found in the text: no closure is called)
    tree = Return(Binary('EQ', Leaf('load_local', MACHINE), Leaf('const', 5)), ())
    source = _checked(tree, [])
    assert 'env = [player, None, dest, m]' in source, source
    # (read per card, not hoisted: a local past the arguments is the
    # machine or an aggregate's, which only its closure reads)
    tests = re.findall(r'for card in cards:\n +env\[1\] = card\n +if (.*):\n', source)
    assert tests and all('env[3]' in test for test in tests), source


def _failing_at_the_nine(tree):
    """A closure for any tree: it fails at the Nine (HAND[2]), else is false."""
    def run(env):
        if env[CARD] is HAND[2]:
            raise ValueError('a failing aggregate')
        return False
    return run


def test_a_part_calling_its_closure_may_fail_so_canplay_runs_the_whole_loop():
    # the Ace is allowed by the first test; the closure fails at the Nine:
    # the any-variant may not stop at the Ace
    tree = _or(_is(RANK, RANKS[1]), Binary('LIST_ITEM', Leaf('load_global', 0), _of_card(RANK)))
    source = _checked(tree, [[]], _failing_at_the_nine, frozenset({RANK}))
    assert 'env[1] = card' in source, source


def test_a_card_free_part_of_each_hoisted_operation_is_computed_once():
    # each operation that makes no new list, on globals alone, is computed
    # before the cards' loop (h1), not per card
    unary = {'LOAD_PROP': RANK, 'LIST_PROP': 3, 'LOAD_OWN': 7, 'DEFINED_PROP': RANK,
             'DEFINED_OWN': 7}
    parts = [Unary(op, unary.get(op), Leaf('load_global', 0))
             for op in ('LOAD_PROP', 'LIST_PROP', 'LOAD_OWN', 'NOT', 'ACE_HIGH', 'DEFINED_PROP',
                        'DEFINED_OWN', 'WILD_RANK', 'WILD_SUIT')]
    parts += [Binary(op, Leaf('load_global', 0), Leaf('load_global', 1))
              for op in ('ADD', 'SUB', 'MUL', 'DIV', 'EQ', 'NE', 'LT', 'LE', 'GT', 'GE', 'IN',
                         'LIST_ITEM', 'MAKE_CARD')]
    for part in parts:
        tree = Return(Binary('EQ', _of_card(SUIT), part), ())
        source = rules.hand_function(tree, MACHINE, lambda t: None, CARD).source
        loops = [line for line in source.splitlines() if line.lstrip().startswith('if (')]
        # (the first loop's: the hoisted plan's; the last, its fallback, per card)
        assert 'h1' in loops[0] and 'g0' not in loops[0] and '(env)' not in loops[0], source
        assert re.search(r'^ +h1 = ', source, re.M), source


def test_a_not_equal_test_cannot_fail_so_canplay_stops_at_the_first_card():
    # `c->rank != x` (a born rank, a defined global): != raises on no value
    tree = Return(Binary('NE', _of_card(RANK), Leaf('load_global', 0)), ())
    fn = rules.hand_function(tree, MACHINE, None, CARD, frozenset({RANK}))
    assert 'return True' in fn.write_any().source
    _checked(tree, [RANKS[5]], born=frozenset({RANK}))


def test_a_body_not_assigning_its_output_is_not_written_as_an_expression():
    w = rules._Writer(MACHINE, None)
    assert w.body('NOT', [], ['x']) == '(not x)'
    assert w.body('NOT', [], ['x'], 'other = not a') is None


def test_the_caller_decides_first_only_on_a_test_of_globals_that_cannot_fail():
    rest = _is(SUIT, SUITS[0])
    # the player's own value (no global): not the caller's
    fn = rules.hand_function(_or(Leaf('load_local', 0), rest), MACHINE, None, CARD)
    assert fn.decided is None, fn.source
    # `x < y` may fail (a global may hold a Suit): not the caller's
    fn = rules.hand_function(_or(Binary('LT', Leaf('load_global', 0), Leaf('load_global', 1)),
                                 rest), MACHINE, None, CARD)
    assert fn.decided is None, fn.source
    # a part the test writes as its closure's call: not the caller's
    fn = rules.hand_function(_or(Binary('LIST_ITEM', Leaf('load_global', 0),
                                        Leaf('load_global', 1)), rest),
                             MACHINE, lambda t: (lambda env: None), CARD)
    assert fn.decided is None, fn.source
    # a test both of whose sides are loops decides nothing for the caller
    fn = rules.hand_function(If(Binary('EQ', Leaf('load_global', 0), Leaf('load_global', 1)),
                                Return(_is(RANK, RANKS[5]), ()), Return(rest, ())),
                             MACHINE, None, CARD)
    assert fn.decided is None, fn.source
    # `x == y` cannot: the caller's
    fn = rules.hand_function(_or(Binary('EQ', Leaf('load_global', 0), Leaf('load_global', 1)),
                                 rest), MACHINE, None, CARD)
    assert fn.decided == ([0, 1], '(rg0_ == rg1_)', True, 'all'), fn.decided


def test_each_comparison_of_two_numbers_cannot_fail_so_canplay_stops_at_the_first_card():
    # the card's born rank against an integer (both Numbers): <, <=, >, >=
    # and + and - of them raise on neither
    for op in ('LT', 'LE', 'GT', 'GE'):
        for number in (Leaf('const', 9), Binary('ADD', Leaf('const', 4), Leaf('const', 5)),
                       Binary('SUB', Leaf('const', 14), Leaf('const', 5))):
            tree = Return(Binary(op, _of_card(RANK), number), ())
            fn = rules.hand_function(tree, MACHINE, None, CARD, frozenset({RANK}))
            assert 'return True' in fn.write_any().source, (op, fn.write_any().source)
            _checked(tree, [], born=frozenset({RANK}))


def test_a_returned_rule_is_planned_as_its_value_one_with_dropped_values_as_a_loop():
    rest = _is(SUIT, SUITS[0])
    test = Binary('EQ', Leaf('load_global', 0), Leaf('load_global', 1))
    fn = rules.hand_function(Return(_or(test, rest), ()), MACHINE, None, CARD)
    assert fn.decided == ([0, 1], '(rg0_ == rg1_)', True, 'all'), fn.source
    # values evaluated first and dropped (here an undefined global's read)
    # are each card's: no plan decides before them
    tree = Return(_or(test, rest), (Leaf('load_global', 2),))
    fn = rules.hand_function(tree, MACHINE, None, CARD)
    assert fn.decided is None, fn.source
    for globals_ in ([5, 5, None], [5, 5, 1], [5, 7, 1]):
        _checked(tree, globals_)


def test_a_rule_with_dropped_values_may_fail_where_they_do():
    # a value evaluated and dropped (its closure fails at the Nine) before
    # the rule's own (the Ace allowed): the any-variant may not stop at the Ace
    tree = Return(_is(RANK, RANKS[1]),
                  (Binary('LIST_ITEM', Leaf('load_global', 0), Leaf('load_local', CARD)),))
    _checked(tree, [[]], _failing_at_the_nine, frozenset({RANK}))


def test_the_caller_s_decided_test_decides_on_its_false_side_too():
    # `x == y and ...`: false decides the hand (none), true leaves the loop
    tree = Keep(False, Binary('EQ', Leaf('load_global', 0), Leaf('load_global', 1)), 4,
                Return(Leaf('scratch', 4), ()), Return(_is(SUIT, SUITS[0]), ()))
    fn = rules.hand_function(tree, MACHINE, None, CARD)
    assert fn.decided == ([0, 1], '(rg0_ == rg1_)', False, 'none'), fn.decided
    for globals_ in ([5, 5], [5, 7]):
        _checked(tree, globals_)


def test_a_list_s_size_first_and_last_item_are_read_as_the_runtime_reads_them():
    # LIST_PROP 1 and 2 (first, last) written without the call where the
    # list is not empty; 0 (its size) is the body's call
    for k in (0, 1, 2):
        fn = rules.value_function(Return(Unary('LIST_PROP', k, Leaf('load_global', 0)), ()),
                                  MACHINE, None)
        if k:
            assert '[%s] if (v1 := ' % ('0' if k == 1 else '-1') in fn.source, fn.source
        for lst in ([3, 5, 7], []):
            m = SimpleNamespace(consts=[], globals=[lst])
            try:
                want = list_prop(lst, k)
            except Fault as e:
                want = str(e)
            try:
                got = fn([None, None, None, m])
            except Fault as e:
                got = str(e)
            assert got == want, (k, lst, fn.source)


def test_a_body_not_of_one_checked_read_is_not_written_as_an_expression():
    w = rules._Writer(MACHINE, None)
    check = "if (res := not a) is None:\n    raise Fault('Undefined value', PART)"
    assert w.body('NOT', [], ['x'], check).startswith('(v1 if (v1 := not x) is not None')
    for text in (check + '\nres = 1',                  # (more after the check)
                 "res = not a\nraise Fault('x', PART)",  # (no test)
                 "if (res := not a) is None:\n    res = 1"):    # (no raise)
        assert w.body('NOT', [], ['x'], text) is None, text


def test_a_list_s_first_item_may_fail_so_canplay_runs_the_whole_loop():
    # `c->rank == A or first of (g0 if c->rank == 9 else g1) == 3`: the
    # Nine's list is empty (no first item), after the Ace allowed
    pick = If(_is(RANK, RANKS[9]), Return(Leaf('load_global', 0), ()),
              Return(Leaf('load_global', 1), ()))
    tree = _or(_is(RANK, RANKS[1]),
               Binary('EQ', Unary('LIST_PROP', 1, pick), Leaf('const', 3)))
    _checked(tree, [[], [3]], born=frozenset({RANK}))
    _checked(tree, [[3], [3]], born=frozenset({RANK}))


def test_the_numbers_of_an_ace_and_a_king_are_compared_with_a_born_rank_by_identity():
    # 1..13 each equal one rank: `c->rank == 1` is `card.rank is <the Ace>`;
    # 0 and 14 equal none, compared as numbers
    for number, identity in ((0, False), (1, True), (13, True), (14, False)):
        for tree in (Return(Binary('EQ', _of_card(RANK), Leaf('const', number)), ()),
                     Return(Binary('EQ', Leaf('const', number), _of_card(RANK)), ())):
            source = _checked(tree, [], born=frozenset({RANK}))
            assert (' is h1' in source or 'h1 is ' in source) is identity, source


def test_a_body_reading_its_inputs_out_of_stack_order_is_not_written_as_an_expression():
    # (the closures evaluate each input once, in stack order: a body that
    # reads them otherwise would evaluate the parts otherwise)
    w = rules._Writer(MACHINE, None)
    assert w.body('EQ', [], ['x', 'y']) == '(x == y)'
    for text in ('res = b == a', 'res = a == a', 'res = a == b == b'):
        assert w.body('EQ', [], ['x', 'y'], text) is None, text
    # an instruction with no body, or a counted one, is none either
    assert w.body('NO_SUCH_OP', [], []) is None
    counted = [name for name, body in rules.cases.BODIES.items() if body.counted]
    assert counted and all(w.body(name, [], []) is None for name in counted)


def test_an_operation_on_one_value_may_fail_so_canplay_runs_the_whole_loop():
    # `c->rank == A or (g0 if c->rank == 9 else g1).own[7] == 5`: the
    # Nine's value has no own values (a read that fails), after the Ace allowed
    pick = If(_is(RANK, RANKS[9]), Return(Leaf('load_global', 0), ()),
              Return(Leaf('load_global', 1), ()))
    tree = _or(_is(RANK, RANKS[1]),
               Binary('EQ', Unary('LOAD_OWN', 7, pick), Leaf('const', 5)))
    owner = SimpleNamespace(own={7: 5})
    _checked(tree, [5, owner], born=frozenset({RANK}))
    _checked(tree, [owner, owner], born=frozenset({RANK}))


def test_a_born_property_of_another_object_may_fail_so_canplay_runs_the_whole_loop():
    # `c->rank == A or (g0 if c->rank == 9 else g1)->rank == 5`, the rank
    # born (read unchecked): the Nine's value is no card (no rank to read)
    pick = If(_is(RANK, RANKS[9]), Return(Leaf('load_global', 0), ()),
              Return(Leaf('load_global', 1), ()))
    tree = _or(_is(RANK, RANKS[1]),
               Binary('EQ', Unary('LOAD_PROP', RANK, pick), Leaf('const', 5)))
    _checked(tree, [5, HAND[1]], born=frozenset({RANK}))
    _checked(tree, [HAND[1], HAND[1]], born=frozenset({RANK}))


def test_a_card_read_given_up_for_a_closure_s_call_is_read_again_later():
    # LIST_ITEM has no body the filter writes: its operands' text is given
    # up for the closure's call, and the rank it read is not a local a later
    # read may use (once a NameError: every hand fell back to the machine)
    item = Binary('LIST_ITEM', Leaf('load_global', 0), _of_card(RANK))
    tree = Return(_is(RANK, RANKS[1]), (item,))
    m = SimpleNamespace(consts=[], globals=[[7, 8]])
    player = SimpleNamespace(hand=list(HAND))

    def closure(tree):              # (the item's closure: a value, dropped)
        return lambda env: 0
    hand = rules.hand_function(tree, MACHINE, closure, CARD, frozenset({RANK}))
    assert hand(m, player, []) == [HAND[0]], hand.source
    # (a Unary given up so: FORMAT of one item, whose count the filter
    # does not write, then the rank again)
    shown = Binary('EQ', Unary('FORMAT', 1, _of_card(RANK)), Leaf('const', 'x'))
    hand = rules.hand_function(Return(_or(shown, _is(RANK, RANKS[1])), ()), MACHINE, closure,
                               CARD, frozenset({RANK}))
    assert hand(m, player, []) == [HAND[0]], hand.source
