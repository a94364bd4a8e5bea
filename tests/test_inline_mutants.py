"""The edits of pipvm/engine/inline.py that its playouts let live
(tools/mutation-results/inline.tsv), each caught here by a direct test."""

from pipvm.engine import inline, lines
from pipvm.engine.compiled import SMALL


def test_entered_pushes_the_record_right_above_the_function_s_own():
    # (an odd number of records above rec: a walk down by two steps over it)
    rec, above, record = ['rec'], ['callee'], ['record']
    frames = [rec, above]
    assert inline.entered(frames, rec, record) is record
    assert frames == [rec, record, above]
    frames = [['main'], ['caller'], rec, above, ['inner'], ['innermost']]
    inline.entered(frames, rec, record)
    assert frames.index(record) == 3


def _fn(body, head='', tail=''):
    """A stand-in for an action's function (what leaf reads of it): its
    source, the body's lines given, its line-to-unit map, operands and units."""
    source = '\n'.join(['def action(self, rec, pc=0, A=None, P=None):', '    frames = self.frames',
                        '    stack, frame = rec[2], rec[3]' + head, '    try:', '        while True:']
                       + ['            ' + x for x in body]
                       + ['    except Fault as f:', '        raise positioned(f, P, AT) from None' + tail])

    class Fn:
        plain = (source, {6: 0})
        __defaults__ = (0, ('operand',), ('unit',), None)
    return Fn


_BODY = ['frame[0] = A[0]', 'frames.pop()', 'return']


def test_a_leaf_s_frame_must_be_a_small_int():
    assert inline.leaf(_fn(_BODY), 0).size == 0
    assert inline.leaf(_fn(_BODY), SMALL - 1).size == SMALL - 1
    for size in (SMALL, -1, True, 2.0):
        assert inline.leaf(_fn(_BODY), size) is None, size


def test_a_leaf_s_body_is_at_most_max_lines():
    def body(n):
        return ['frame[0] = A[0]'] * (n - 1) + ['frames.pop()', 'return']
    # (400, as inline.py says: a literal, so a changed MAX_LINES fails here)
    leaf = inline.leaf(_fn(body(400)), 1)
    assert len(leaf.lines) == 400
    assert inline.leaf(_fn(body(401)), 1) is None


def test_what_rules_a_leaf_out_counts_outside_its_body_too():
    assert inline.leaf(_fn(_BODY), 1) is not None
    assert inline.leaf(_fn(_BODY, head='  # LOUD_RUN'), 1) is None
    assert inline.leaf(_fn(_BODY, tail='  # H12(self)'), 1) is None


def test_callees_first_orders_each_action_after_its_callees():
    calls = {0: {1, 2}, 1: {2}, 2: set(), 3: {0, 7}, 4: {5}, 5: {4, 5}}
    assert inline.callees_first([3, 0, 1, 2, 4, 6], calls) == [2, 1, 0, 3, 5, 4]
    assert inline.callees_first([], calls) == []
    # (callees apart from each other: in their codes' order)
    assert inline.callees_first([0], {0: {2, 1}, 1: set(), 2: set()}) == [1, 2, 0]


def test_entry_cuts_the_body_to_the_run_entered_at_zero():
    body = ['            if pc == 0:', '                x = 1', '', '                    y = 2',
            '            else:', '                z = 3']
    assert inline._entry(body, list(range(6))) == (
        ['            x = 1', '', '                y = 2'], [1, 2, 3])
    nested = ['            a = 0', '            if b:', '                if pc == 0:',
              '                    x = 1', '                w = 4']
    assert inline._entry(nested, list(range(5))) == (['            x = 1'], [3])
    assert inline._entry(body[:2], [0, 1]) == (['            x = 1'], [1])    # (to the end)
    # where something sets pc, a jump may go through the test tree: kept whole
    jumps = body[:2] + ['                pc = 4'] + body[2:]
    assert inline._entry(jumps, list(range(7))) == (jumps, list(range(7)))
    assert inline._entry(body[1:], list(range(5))) == (body[1:], list(range(5)))


def test_the_lines_a_leaf_leaves_by_are_kept_at_the_end_of_the_text_too():
    exit_ = '            entered(frames, rec, [codes[3], 0, [], fr3])'
    assert inline._renamed(exit_) == (exit_, False)
    assert inline._renamed(exit_ + '\n            x = 1')[0].startswith(exit_ + '\n')
    # (its own line only, wherever it stands: after a line, or a blank first line)
    assert inline._renamed('            x = 1\n' + exit_)[0].endswith('\n' + exit_)
    assert inline._renamed('\n' + exit_) == ('\n' + exit_, False)


def test_a_prefixed_string_is_not_read():
    # (f'...' hides the names it reads; a name then a space then a string is two tokens)
    assert inline._renamed("            x = f'{y}'") is None
    assert inline._renamed("            x = y if z else 'w'")[0] == "            x_\x01 = y if z else 'w'"


def _call(code, pad='        '):
    return [(pad + x.format(code), 9) for x in inline._CALL]


def test_written_takes_in_leaves_within_the_budget_and_moves_their_indexes():
    body = [('            x_\x01 = A[@1@]', 0)] * (inline.BUDGET - 1) + [('            fr\x01[pc\x01] = 1', 0)]
    leaf = inline.Leaf(body, ('a', 'b'), ('u',), 2, False)
    operands, units = ['o'], ['v', 'w']
    lines = [('        y = 1', 5)] + _call(3) + _call(3) + _call(4)
    out = inline.written(lines, {3: leaf}, operands, units)
    assert out[0] == ('        y = 1', 5)
    assert out[1:4] == [('        fr3 = [None] * 2', 9), ('        pc3 = 0', 9), ('        try:', 9)]
    taken = out[5:4 + inline.BUDGET]
    assert set(taken) == {('                x_3 = A[2]', 2)}
    assert out[4 + inline.BUDGET] == ('                fr3[pc3] = 1', 2)
    assert 'entered(frames, rec, [codes[3], 0, [], fr3])' in out[5 + inline.BUDGET + 1][0]
    rest = out[5 + inline.BUDGET + 8:]
    assert rest == _call(3) + _call(4)      # (over the budget; not a leaf)
    assert operands == ['o', 'a', 'b'] and units == ['v', 'w', 'u']


def test_a_caller_takes_in_2400_lines_at_most():
    # (a literal, as inline.py says: a changed BUDGET fails here)
    def taken(n):
        leaf = inline.Leaf([('            x = 1', 0)] * n, (), (), 1, False)
        return inline.written(_call(3), {3: leaf}, [], []) != _call(3)
    assert taken(2400) and not taken(2401)


def test_a_leaf_s_locals_and_pc_are_set_up_only_where_its_body_names_them():
    # (Oh Hell's `rate` reads no local; a leaf entered at 0 alone tests no pc)
    leaf = inline.Leaf([('            x_\x01 = A[@1@]', 0)], ('a', 'b'), ('u',), 2, False)
    out = inline.written(_call(3), {3: leaf}, [], [])
    assert [t for t, _ in out[:3]] == ['        try:', '            while True:', '                x_3 = A[1]']
    # the record pushed on the way out of a fault holds its locals as the call's would
    assert out[4][0] == '            entered(frames, rec, [codes[3], 0, [], [None] * 2])'
    assert inline._LEAVES_BY.fullmatch(out[4][0]) and inline._LEAVES_BY.fullmatch(out[7][0])
    # (the lines made take the unit of the call's first line)
    call = [(_call(3)[0][0], 8)] + _call(3)[1:]
    assert {u for t, u in inline.written(call, {3: leaf}, [], []) if 'x_3' not in t} == {8}


def test_a_return_from_within_its_own_loop_is_not_a_leaf():
    # (`break` would leave that loop, not the leaf)
    assert inline.leaf(_fn(['for x in A[0]:', '    frames.pop()', '    return']), 1) is None
    assert inline.leaf(_fn(['while x:', '    frames.pop()', '    return']), 1) is None
    assert inline.leaf(_fn(['frames.pop()', '    return']), 1) is None
    assert inline.leaf(_fn(['if x:', '    frames.pop()', '    return', 'frames.pop()', 'return']),
                       1).lines[1][0] == '                break'


def test_a_body_python_cannot_read_is_not_a_leaf():
    assert inline._renamed('            x = (') is None


def test_a_function_not_in_the_usual_form_is_not_a_leaf():
    fn = _fn(_BODY)
    fn.plain = (fn.plain[0].replace('        while True:', '        while 1:'), {})
    assert inline.leaf(fn, 1) is None
    fn.plain = (fn.plain[0].replace('while 1:', 'while True:').replace('except Fault as f:',
                                                                      'except Fault:'), {})
    assert inline.leaf(fn, 1) is None


def test_a_leaf_reads_its_operands_only_by_a_number():
    assert inline._renamed('            x = A[3]')[0] == '            x_\x01 = A[@3@]'
    for text in ('            x = A', '            x = A[y]', '            x = A[3:4]',
                 '            x = A(3)'):
        assert inline._renamed(text) is None, text


# --- a deciding callee written in (c9a): its hand-over, its unentered starts ---

def test_a_hand_over_keeps_each_line_s_unit():
    # (the hand-over's two lines take its unit; the lines after it their own)
    fn = _fn(['frame[0] = A[0]', 'if frame[0]:', '    return LOUD_RUN(self, rec, 7)',
              'frame[1] = A[0]', 'frames.pop()', 'return'])
    fn.plain = (fn.plain[0], {6 + i: i for i in range(6)})
    leaf = inline.leaf(fn, 2)
    assert leaf.loud
    assert [(text.strip().replace(inline._SUFFIX, '@'), u) for text, u in leaf.lines] == [
        ('fr@[0] = A[@0@]', 0), ('if fr@[0]:', 1), ('ho@ = 7', 2), ('break', 2),
        ('fr@[1] = A[@0@]', 3), ('break', 4)]


def test_unentered_keeps_a_body_it_cannot_read_to_its_end():
    assert inline._unentered([], []) == ([], [])
    pad = '            '
    # (a test of pc with no `else` after it: the tree is not in the usual form)
    body = [pad + x for x in ('if pc == 8:', '    x = 1', 'w = 2', 'if pc == 0:', '    pc = 8',
                              'else:', '    z = 3')]
    assert inline._unentered(body, list(range(7))) == (body, list(range(7)))
    body = [pad + x for x in ('if pc == 8:', '    x = 1')]      # (its block to the end)
    assert inline._unentered(body, [0, 1]) == (body, [0, 1])


def test_unentered_cuts_only_the_else_and_keeps_what_follows_it():
    pad = '            '
    body = [pad + x for x in ('if pc == 0:', '    x = 1', 'else:', '    y = 2', 'z = 3')]
    assert inline._unentered(body, list(range(5))) == (
        [body[0], body[1], body[4]], [0, 1, 4])
    # (every jump to a start tested: the jumps may be to all of them)
    body = [pad + x for x in ('if pc == 8:', '    pc = 0', '    continue', 'else:',
                              '    if pc == 0:', '        pc = 8', '    else:', '        y = 2')]
    assert inline._unentered(body, list(range(8))) == (body[:6], list(range(6)))


def test_a_leaf_that_never_hands_over_is_not_loud():
    leaf = inline.leaf(_fn(_BODY), 1)
    assert leaf.loud is False
    assert inline.Leaf([], (), (), 1, False).loud is False


def test_what_a_leaf_may_not_name_and_the_policy_it_keeps():
    for name in ('rec', 'rec_', 'codes', 'P', 'AT', 'LOUD_RUN', 'DEEP', 'ensure_depth', 'callee',
                 'H12'):
        assert inline._renamed('            x = %s' % name) is None, name
    # (what would leave it or make a scope of its own; the machine's state it may not read)
    for text in ('x = yield', 'x = lambda: 1', 'def g(): pass', 'class C: pass', 'global x',
                 'return', 'x = self.frames', 'x = self.auto', 'self._answer_auto()',
                 'x = self.pending', 'x = self.resume'):
        assert inline._renamed('            ' + text) is None, text
    assert inline._renamed('            x = self.steps_left')[0] == '            x_\x01 = self.steps_left'
    # (the decisions' policy: the caller's names, never renamed apart)
    text = '            choose_, bits_, log_, noted_ = 1, 2, 3, 4'
    assert inline._renamed(text) == (text, False)


def test_block_end_is_the_first_line_out_of_the_block():
    body = ['    if a:', '        b', '', '        c', '    d']
    assert lines.block_end(body, 0) == 4
    assert lines.block_end(body[:4], 0) == 4      # (to the end)
    assert lines.block_end(['    if a:', '    d'], 0) == 1     # (an empty block ends at once)
    assert lines.block_end(['x', '    if a:', '        b', 'd'], 1) == 3
    # (reads.reused's lines, (text, unit) pairs: the same helper)
    assert lines.block_end([(t, None) for t in body], 0, pairs=True) == 4
    assert lines.block_end([(t, None) for t in body], 1, pairs=True) == 3


def test_indent_of_counts_the_leading_spaces():
    assert lines.indent_of('    x = 1') == 4
    assert lines.indent_of('x') == 0
    assert lines.indent_of('') == 0



def test_a_leaf_uses_a_stack_where_it_names_stack_push_or_pop():
    for text in ('x = stack[-1]', 'push(1)', 'x = pop()'):
        assert inline._renamed('            ' + text)[1] is True, text
    assert inline._renamed('            x = 1')[1] is False
