"""Direct tests of joins.py's guards (tools/mutation.py's survivors): the
shapes of lines no example's function has, where a jump must be left to
the test tree."""
import re

from pipvm.engine import joins
from pipvm.isa.opcodes import OP
from tests.test_joins import _function

PAD = ' ' * 12
FIRSTS = {0: 2, 1: 3, 2: 5}
STRAIGHT = [True] * 6


def _lines(body, pad=PAD):
    return [(pad + text, unit) for text, unit in body]


def _left(body):
    lines = _lines(body)
    return joins.joined(lines, FIRSTS, STRAIGHT) == lines


def test_a_jump_whose_block_no_line_at_its_indentation_opens_is_left():
    # (the line above the block is shallower than the block's `if` would be)
    assert _left([('if a:', 0), ('        pc = 5', 0), ('        continue', 0),
                  ('    y = pop()', 2)])


JUMP = [('if not v:', 0), ('    push(v)', 0), ('    pc = 5', 0), ('    continue', 0),
        ('x = 1', 1), ('y = pop()', 2)]
JOINED = ['if not v:', '    push(v)', 'else:', '    x = 1', 'y = pop()']


def _joined(body):
    return [text[len(PAD):] for text, _ in joins.joined(_lines(body), FIRSTS, STRAIGHT)]


def test_a_loop_before_the_if_not_around_it_does_not_keep_its_jump():
    loop = [('for x in xs:', None), ('    f(x)', None)]
    assert _joined(JUMP) == JOINED
    assert _joined(loop + JUMP) == ['for x in xs:', '    f(x)'] + JOINED
    # (a `while` around it, as a `for`: there `continue` is the loop's)
    assert _left([('while x:', None)] + [('    ' + t, u) for t, u in JUMP])


def test_a_jump_whose_else_block_ends_the_lines_is_left():
    # (no join's code after it: nothing to fall out to)
    assert _left([('if not v:', 0), ('    pc = 5', 0), ('    continue', 0), ('else:', 0),
                  ('    pass', 0)])


def test_a_jump_ending_the_lines_and_a_last_pc_without_continue_are_left():
    # (nothing after them: no join's code to fall out to, no jump)
    assert _left([('if not v:', 0), ('    pc = 5', 0), ('    continue', 0)])
    assert _left([('if not v:', 0), ('    x = 1', 0), ('pc = 5', 0)])


def test_the_scan_for_a_loop_around_the_if_stops_at_the_first_line():
    # (a `for` after the join, shallower than the `if`, is not around it: the
    # scan up from the `if` ends at line 0, never wrapping round to the last line)
    lines = _lines(JUMP) + [(' ' * 10 + 'for x in xs:', 2)]
    assert [t for t, _ in joins.joined(lines, FIRSTS, STRAIGHT)][:5] == [PAD + t for t in JOINED]


def test_the_lines_made_are_the_if_s_own_unit():
    # (`pass` and `else:` take the `if`'s unit, not its block's first line's)
    alone = [('if not v:', 0), ('    pc = 5', 1), ('    continue', 1), ('y = pop()', 2)]
    out = joins.joined(_lines(alone), FIRSTS, STRAIGHT)
    assert [(t[len(PAD):], u) for t, u in out] == [('if not v:', 0), ('    pass', 0), ('y = pop()', 2)]
    jump = [('if not v:', 0), ('    push(v)', 1)] + JUMP[2:]
    assert [u for _, u in joins.joined(_lines(jump), FIRSTS, STRAIGHT)] == [0, 1, 0, 1, 2]


_FELL_OUT = re.compile(r'\n( +)if (not )?\w+:\n\1    push\(\w+\)\n\1else:\n')


def test_an_or_s_join_falls_out_of_an_else_as_an_and_s_does():
    # (Spades' main: its `or` (JUMP_IF_TRUE_OR_POP) joins; only an `and`'s
    # threaded past is no join)
    source = _function('examples/spades.pip', 'main').source
    assert any(not m.group(2) for m in _FELL_OUT.finditer(source))


def test_a_jump_to_a_join_in_a_loop_s_body_is_the_loop_s():
    # (Euchre's play_trick, written with joins: a jump in its `for`'s body is
    # `continue`, `break` or its run, not left to the tree, which would undo the `for`)
    source = _function('examples/euchre.pip', 'play_trick').source
    assert re.search(r'^ +for frame\[2\] in stack\[-1\]:$', source, re.M)


def test_a_jump_is_left_where_the_if_s_own_first_instruction_is_not_straight():
    # (the `if`'s unit's first instruction counts too, not only those after it)
    lines = _lines(JUMP)
    assert joins.joined(lines, FIRSTS, [True, True, False, True, True, True]) == lines


def test_a_jump_under_no_if_or_under_an_else_is_left():
    # (nothing above it at its block's indentation: the scan up stops at
    # line 0, never wrapping round to an `if` as the last line)
    assert _left([('    pc = 5', 0), ('    continue', 0), ('y = pop()', 2), ('if y:', 1)])
    # (a block opened by `else:`, not an `if`)
    assert _left([('if a:', 0), ('    pass', 0), ('else:', 0), ('    pc = 5', 0),
                  ('    continue', 0), ('y = pop()', 2)])


def test_a_jump_whose_block_goes_on_to_the_last_line_is_left():
    # (the line after its `continue`, deeper, ends the lines: no line after it to read)
    assert _left([('if not v:', 0), ('    pc = 5', 0), ('    continue', 0), ('    x = 2', 0)])


def test_a_fused_and_threaded_past_is_no_join_an_or_is():
    # (GE_CONST_AND: its last part, JUMP_IF_FALSE_OR_POP, to a JUMP_IF_FALSE
    # it is threaded through; EQ_CONST_OR's JUMP_IF_TRUE_OR_POP is not threaded)
    instrs = [(OP.GE_CONST_AND, (7, 2), None), (OP.CONST, 0, None), (OP.JUMP_IF_FALSE, 4, None),
              (OP.CONST, 1, None), (OP.POP, None, None)]
    assert joins.points(instrs, [True] * 5) == {4}
    instrs[0] = (OP.EQ_CONST_OR, (7, 2), None)
    assert joins.points(instrs, [True] * 5) == {2, 4}


def test_a_join_whose_own_instruction_is_not_straight_is_made():
    # (Crazy Eights' turn: `if stock->size == 0 and ... { refill(). }` joins at
    # the quiet messages after it (QUIET_LOCALS); only the instructions from the
    # run's first to the join must be straight, not the join's own)
    source = _function('examples/crazy_eights.pip', 'turn').source
    assert re.search(r'\n( +)if [^\n]*:\n\1    pass\n\1else:\n', source)


def test_a_join_is_a_forward_target_past_straight_instructions_only():
    instrs = [(OP.CONST, 0, None), (OP.JUMP_IF_FALSE, 4, None), (OP.CONST, 1, None),
              (OP.JUMP_IF_FALSE, 0, None), (OP.POP, None, None)]
    assert joins.points(instrs, [True] * 5) == {4}      # (not 0: a jump back)
    assert joins.points(instrs, [True, True, False, True, True]) == set()
    assert joins.points(instrs, [True, True, True, True, False]) == {4}     # (the join's own: any)
    # (a jump to itself, or past the end: no join)
    assert joins.points([(OP.CONST, 0, None), (OP.JUMP_IF_FALSE, 1, None)], [True] * 2) == set()
    assert joins.points([(OP.CONST, 0, None), (OP.JUMP_IF_FALSE, 2, None)], [True] * 2) == set()
    # (wanted: those the tree's `pc = k` lines go to, whatever k's digits)
    tree = [(PAD + 'pc = 4', 1), (PAD + 'pc = 0', 0), (PAD + 'pc = k', 0)]
    assert joins.wanted(instrs, [True] * 5, tree) == {4}
    # (a plain JUMP_IF_FALSE_OR_POP threaded through the JUMP_IF_FALSE it goes to: none)
    instrs[1] = (OP.JUMP_IF_FALSE_OR_POP, 3, None)
    assert joins.points(instrs, [True] * 5) == set()


class _Tree:
    def jump(self, target, indent, unit, first, in_try):
        return 'its run'


class _Writer(joins.Joining, _Tree):
    open, joins = [], {5}


def test_a_jump_to_a_join_past_an_instruction_not_straight_is_written_as_any():
    # (only where every instruction from the run's first to the join is
    # straight is the jump left for `joined`; else fors.Writing's way)
    w = _Writer()
    w.straight = [True] * 6
    assert w.jump(5, 8, 0, 1, False) is False
    w.straight = [True, True, False, True, True, True]
    assert w.jump(5, 8, 0, 1, False) == 'its run'
    w.open = ['a for']
    w.straight = [True] * 6
    assert w.jump(5, 8, 0, 1, False) == 'its run'


def test_a_jump_whose_if_is_of_the_tree_is_left():
    # (the `if`'s own unit must be before the join, not its block's first line's)
    assert _left([('if not v:', None), ('    push(v)', 0)] + JUMP[2:])


def test_a_blank_line_after_the_jump_is_passed():
    # (whitespace deeper than the `if` does not go on its block: it joins)
    assert _joined(JUMP[:4] + [(' ' * 8, 0)] + JUMP[4:]) == JOINED[:3] + [' ' * 8] + JOINED[3:]


def test_a_blank_line_in_the_if_s_block_is_passed():
    # (the scan up for the `if` passes blank lines, as it does deeper ones)
    assert _joined(JUMP[:1] + [('', 0)] + JUMP[1:]) == JOINED[:1] + [''] + JOINED[1:]


def test_a_join_s_code_starts_at_its_unit_s_first_line():
    # (a line of the join's unit before it, even a blank one: not where its code starts)
    assert _left(JUMP[:-1] + [('', 2), ('y = pop()', 2)])
