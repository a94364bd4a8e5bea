"""What tools/mutation.py's campaign on compiler/codegen/generator.py left
alive (tools/mutation-results/generator.tsv): code the fuzzer's programs and
the suite's never make, checked here on programs written for it, on every
engine (harness.both: the compiled tier, the loop, the reference)."""
import pytest

from compiler.pip import frontend
from pipvm.isa.pipc import decode

from .fuzz import harness

HEAD = 'Game "G" requires 2 players.\nDeck stock = standard.\nArea pile labeled "pile".\n'


def _ending(body, answers=(0, 0, 0), rules=''):
    """(transcript, ending) of `Action main { body }` on every engine: they agree."""
    vm_run, ref_run = harness.both(HEAD + rules + 'Action main {\n%s\n}\n' % body, 0, list(answers))
    assert (vm_run.transcript, vm_run.ending) == (ref_run.transcript, ref_run.ending)
    return vm_run.transcript, vm_run.ending


def test_defined_reads_a_list_s_item_so_an_empty_list_fails():
    # `defined L->top` is True, but reading the item first fails on an empty list
    transcript, ending = _ending('  message "before".\n  let b be defined pile->cards->top.\n'
                                 '  message "after {b}".')
    assert ending == "Error: Line 6, Col 33: Can't get item from empty list"
    assert 'after' not in transcript
    transcript, ending = _ending('  deal 1 from stock to pile.\n  let b be defined pile->cards->top.\n'
                                 '  message "after {b}".')
    assert 'after True' in transcript


def test_continue_drops_nothing_and_jumps_to_the_loop_s_top():
    # `continue` keeps its own loop's iteration state: no DROP, however deep;
    # `break` drops its own (the for's) and the loops' it leaves
    body = ('  let n be 0.\n'
            '  forever {\n    n = n + 1.\n    if n < 3 { continue. }\n    break.\n  }\n'
            '  for c in 2..5~H {\n    for d in 2..3~C {\n      if d == 2~C { continue. }\n'
            '      message "{c} {d}".\n    }\n    if c == 3~H { continue. }\n'
            '    message "{c} {n}".\n  }')
    transcript, ending = _ending(body)
    shown = ['%s of Hearts %s' % (c, d) for c, d in (
        ('Two', 'Three of Clubs'), ('Two', 3), ('Three', 'Three of Clubs'), ('Four', 'Three of Clubs'),
        ('Four', 3), ('Five', 'Three of Clubs'), ('Five', 3))]
    assert transcript.split('\n')[-len(shown) - 2:-2] == shown, transcript
    program = frontend.compile_text(HEAD + 'Action main {\n%s\n}\n' % body)
    ops = [i.op.name for code in program.codes for i in decode(code.code)]
    assert 'DROP' not in ops, ops
    with_break = body.replace('if d == 2~C { continue. }', 'if d == 2~C { break. }')
    program = frontend.compile_text(HEAD + 'Action main {\n%s\n}\n' % with_break)
    assert [i.op.name for code in program.codes for i in decode(code.code)].count('DROP') == 1


def _main_code(body):
    program = frontend.compile_text(HEAD + 'Action main {\n%s\n}\n' % body)
    return [(i.offset, i.op.name, i.args) for i in decode(program.codes[program.main].code)]


def test_break_is_one_jump_to_the_loop_s_end_and_nothing_after_it():
    # (the loop's own JUMP back follows; `break` writes no `continue` after its jump)
    assert _main_code('forever { break. }') == [(0, 'JUMP', (10,)), (5, 'JUMP', (0,)),
                                                (10, 'RETURN', ())]
    assert _main_code('for c in 2..3~H { break. }') == [
        (0, 'LIST_CONST', (1,)), (2, 'FOR_ITER', ()), (3, 'FOR_NEXT', (0, 21)), (9, 'DROP', (1,)),
        (11, 'JUMP', (21,)), (16, 'JUMP', (3,)), (21, 'RETURN', ())]


def test_an_ask_s_list_question_names_its_item_s_slot():
    # (the code object's local names: what `pipvm dis` and a load's errors show)
    from tests.test_ext_options import HAND
    program = frontend.compile_text(HAND)
    names = program.codes[program.main].local_names
    assert {'p', 'picked', 'c', 'o'} <= set(names) and '?' not in names, names


def test_an_own_value_s_initialiser_is_placed_at_its_declaration():
    # (INIT_OWN's line-table entry: after a global with no value, the
    # initialiser's last place was that global's)
    program = frontend.compile_text('Game "G" requires 2 players.\nNumber x.\n'
                                    'Number bid for each player = 4.\nAction main { }\n')
    init = program.codes[0]
    places = {i.op.name: init.position(i.offset) for i in decode(init.code)}
    assert places['INIT_OWN'] == (3, 1), places


def _init_ops(declarations):
    program = frontend.compile_text('Game "G" requires 2 players.\n%s\nAction main { }\n' % declarations)
    return [i.op.name for i in decode(program.codes[0].code)], program.consts


def test_not_of_a_constant_is_folded():
    assert _init_ops('Boolean b = not (1 == 2).') == (['CONST', 'STORE_GLOBAL', 'RETURN'], [True])


def test_a_sum_is_folded_only_up_to_two_to_the_sixteen_bits():
    # A literal's digits are bounded by Python's int/str limit (lexer.number);
    # with the limit lifted, a sum past _MAX_FOLD_BITS is left to the VM
    # ("a huge Number is cheaper to compute than to store"), one below is one CONST.
    import sys
    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        big = 2 ** 65535                    # 65,536 bits: big + big has 65,537
        ops, consts = _init_ops('Number x = %d + %d.' % (big, big))
        assert ops == ['CONST', 'CONST', 'ADD', 'STORE_GLOBAL', 'RETURN'] and consts == [big]
        ops, consts = _init_ops('Number x = %d + %d.' % (big - 1, big))
        assert ops == ['CONST', 'STORE_GLOBAL', 'RETURN'] and consts == [2 * big - 1]
    finally:
        sys.set_int_max_str_digits(limit)


def test_an_ask_s_last_question_falls_through_to_its_end():
    # one JUMP per question after ASK, then each body; all but the last jump to the end
    code = _main_code('ask players->first { "a" { message "a". } "b" { message "b". } }\n'
                      'message "end".')
    assert [(offset, name, args) for offset, name, args in code if name == 'JUMP'] == [
        (14, 'JUMP', (24,)), (19, 'JUMP', (32,)), (27, 'JUMP', (35,))], code
    assert [(offset, name) for offset, name, _ in code[-3:]] == [
        (35, 'CONST'), (37, 'MESSAGE_ALL'), (38, 'RETURN')], code


@pytest.mark.parametrize('expr, value', [
    ('7 + 3', 10), ('7 - 3', 4), ('7 * 3', 21), ('7 / 3', 2), ('7 == 3', False), ('7 != 3', True),
    ('7 < 3', False), ('3 < 3', False), ('7 <= 7', True), ('7 > 3', True), ('3 > 3', False),
    ('3 >= 7', False), ('3 >= 3', True),
    ('(1 == 1) and (1 == 2)', False), ('(1 == 2) or (1 == 1)', True)])
def test_each_binary_operator_of_constants_is_folded(expr, value):
    kind = 'Number' if type(value) is int else 'Boolean'
    assert _init_ops('%s x = %s.' % (kind, expr)) == (['CONST', 'STORE_GLOBAL', 'RETURN'], [value])


def test_an_if_s_last_branch_falls_through_to_its_end():
    code = _main_code('if players->size == 2 { message "a". }\n'
                      'elseif players->size == 3 { message "b". }\nelse { message "c". }\n'
                      'message "end".')
    assert [(offset, args) for offset, name, args in code if name == 'JUMP'] == [
        (15, (43,)), (35, (43,))], code
    assert [(offset, name) for offset, name, _ in code[-5:]] == [
        (40, 'CONST'), (42, 'MESSAGE_ALL'), (43, 'CONST'), (45, 'MESSAGE_ALL'), (46, 'RETURN')], code


def test_the_code_that_sets_the_globals_is_named_globals():
    # (its name in a .pipc file and in `pipvm dis`)
    assert frontend.compile_text(HEAD + 'Action main { }\n').codes[0].name == 'globals'


def test_equal_lists_of_booleans_and_numbers_keep_their_own_constants():
    # (True, False) == (1, 0) in Python: the pool's key tells them apart
    body = ('  for b in [True; False] { message "{b}". }\n'
            '  for n in [1; 0] { message "{n}". }')
    transcript, ending = _ending(body)
    assert transcript.split('\n')[-6:-2] == ['True', 'False', '1', '0'], transcript
    program = frontend.compile_text(HEAD + 'Action main {\n%s\n}\n' % body)
    assert [type(v[0]) for v in program.consts if type(v) is tuple] == [bool, int]


def test_an_and_or_chain_jumps_straight_to_its_end():
    # (a or b) or c: the first jump lands on the second, threaded to where it goes
    code = _main_code('let b be (players->size == 1) or (players->size == 2) or '
                      '(players->size == 3).\nmessage "{b}".')
    jumps = [(offset, args[0]) for offset, name, args in code if name == 'JUMP_IF_TRUE_OR_POP']
    store = [offset for offset, name, _ in code if name == 'STORE_LOCAL']
    assert len(jumps) == 2 and {target for _, target in jumps} == set(store), code


def test_a_string_s_empty_text_parts_are_left_out():
    # "{n}" is ['', n, '']: one part formatted, no empty CONSTs
    code = _main_code('let n be players->size.\nmessage "{n}".')
    assert [(name, args) for _, name, args in code][3:] == [
        ('LOAD_LOCAL', (0,)), ('FORMAT', (1,)), ('MESSAGE_ALL', ()), ('RETURN', ())], code


def test_a_frame_slot_no_name_is_given_is_shown_as_a_question_mark():
    # a rule's argument after its three (rule_params: passed in a hidden global) keeps a slot
    program = frontend.compile_text(HEAD + 'Rule r(p, c, pile, Card other) = c == other.\n'
                                    'Action main { }\n')
    assert [code.local_names for code in program.codes if code.name == 'r'] == [
        ['p', 'c', 'pile', '?']]


def test_a_rule_s_arguments_are_set_for_canplay_and_play():
    # (rule_params: each call stores its arguments in the rule's hidden globals first)
    transcript, ending = _ending(
        '  deal 1 from stock to players->first.\n'
        '  let a be canplay below(K~C) from players->first to pile.\n'
        '  let b be canplay below(A~H) from players->first to pile.\n'
        '  message "{a} {b}".\n'
        '  play below(5~D) from players->first to pile.\n',
        answers=(0,) * 5, rules='Rule below(p, c, pile, Card than) = c->rank < than->rank.\n')
    assert 'True False\n' in transcript and 'P0 played Ace of Clubs.' in transcript, transcript
    assert ending == 'no winner'


def test_a_for_names_its_variable_s_slot():
    program = frontend.compile_text(HEAD + 'Action main {\n  for c in 2..3~H { }\n}\n')
    assert program.codes[program.main].local_names == ['c']


def test_a_rule_s_first_instruction_is_placed_at_its_body():
    # AGG_START carries no position of its own: it takes the body's (its `>`)
    program = frontend.compile_text(
        'Game "G" requires 2 players.\n'
        'Rule many(p, c, pile) = (count d in p->hand where d->rank == c->rank) > 1.\n'
        'Action main { }\n')
    code = [code for code in program.codes if code.name == 'many'][0]
    assert decode(code.code)[0].op.name == 'AGG_START' and code.position(0) == (2, 71)


def _places(source):
    """[(op name, (line, col))] of the init code and of main."""
    program = frontend.compile_text(source)
    return [[(i.op.name, code.position(i.offset)) for i in decode(code.code)]
            for code in (program.codes[0], program.codes[program.main])]


def test_each_global_s_initialiser_is_placed_at_its_declaration():
    init, _ = _places('Game "G" requires 2 players.\nArea pile labeled "p".\nNumber x = 4.\n'
                      'Action main { }\n')
    assert init == [('CONST', (2, 1)), ('NEW_AREA', (2, 1)), ('STORE_GLOBAL', (2, 1)),
                    ('CONST', (3, 12)), ('STORE_GLOBAL', (3, 1)), ('RETURN', (1, 1))]


def test_a_text_literal_is_one_constant_placed_at_the_literal():
    # (folded: CONST at the string; the statement's own STORE_LOCAL at the statement)
    _, main = _places(HEAD + 'Action main {\n  let s be "abc".\n}\n')
    assert main[:2] == [('CONST', (5, 16)), ('STORE_LOCAL', (5, 3))]   # (a string: its closing quote)


def test_every_test_of_an_if_jumps_from_the_if_s_place():
    # (an elseif's JUMP_IF_FALSE, after the first branch's statements, is the if's too)
    _, main = _places(HEAD + 'Action main {\n  if players->size == 2 { message "a". }\n'
                      '  elseif players->size == 3 { message "b". }\n}\n')
    assert [place for name, place in main if name == 'JUMP_IF_FALSE'] == [(5, 3), (5, 3)]
