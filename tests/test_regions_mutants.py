"""Direct tests of regions.py's text helpers (tools/mutation.py's
survivors): the shapes of text no composed region has, where a guard
must still hold."""
import pytest

from pipvm.core.errors import StepLimit
from pipvm.engine import compiled, local_names, regions, vm
from tests.test_regions import CROSSING_AT_THE_END, _hand_made, _regions, _run_main
from tests.util import stopped_after


def test_a_constant_at_the_texts_first_character_is_named_too():
    assert local_names.consts_named('consts[3] + consts[12]') == ('k_3 + k_12', ['3', '12'])


def test_a_name_that_ends_in_consts_is_not_the_constants():
    for text in ('self.consts[3]', 'my_consts[3]', 'xconsts[3]'):
        assert local_names.consts_named(text) == (text, [])
    assert local_names.consts_named('a.consts[1], consts[2]') == ('a.consts[1], k_2', ['2'])


def _goto(k, pad):
    return [pad + 'pc = %d' % k, pad + 'continue']


def test_only_a_name_pushed_right_before_a_tests_jump_is_tested_in_place():
    tested = ['push(x)', 'pc = 5', 'continue', 'y = 1']
    assert regions._tested(tested, {5}, lambda k: 9, _goto) == [
        'if not x:', '    pc = 9', '    continue', 'pc = 6', 'continue', 'y = 1']
    # (an expression pushed, or a push inside a statement, is left as it is)
    for lines in (['push(a if b else c)', 'pc = 5', 'continue'],
                  ['y = push(x)', 'pc = 5', 'continue'],
                  ['push(x)', 'pc = 5', 'y = 1'],
                  ['    push(x)', 'pc = 5', 'continue'],
                  ['push(x)', 'pc = 5']):
        assert regions._tested(lines, {5}, lambda k: 9, _goto) == lines


def test_a_loop_in_a_run_of_a_pass_is_kept_as_written():
    # (a `for` written in place: its own break and continue are its loop's,
    # not jumps of the region's runs)
    body = ['for x in xs:', '    if x:', '        break', '    continue', 'return 7']
    assert regions._fallen([(1, body)], 1) == body


def test_a_goto_mark_anywhere_but_a_pass_of_its_own_is_refused():
    assert regions._goes('x = 1\npass  # GOTO 12', '', _goto) == ['x = 1', 'pc = 12', 'continue']
    for line in ('x = 1 # GOTO 12', 'pass  # GOTO 1x'):
        with pytest.raises(ValueError):
            regions._goes(line, '', _goto)


def test_a_test_of_two_integers_is_decided_and_any_other_left():
    assert regions._folded('if 3 < 9:\n    x()\ny()') == 'x()\ny()'
    assert regions._folded('if 9 < 3:\n    x()\ny()') == 'y()'
    assert regions._folded('y()\nif 3 < 9:\n    x()') == 'y()\nx()'      # (at the text's end)
    for text in ('if a < 9:\n    x()', 'if 3 < 9 < 12:\n    x()', 'if 3 < 9:\n    x()\nelse:\n    y()',
                 'if 3 < 9:\n    x()\nelif y:\n    z()'):
        assert regions._folded(text) == text


def test_a_pc_set_at_a_runs_last_line_is_no_jump():
    # (pc = k with no continue after it, the last line: a statement as any)
    assert regions._fallen([(1, ['x()', 'pc = 5'])], 1) == ['x()', 'pc = 5']


def test_a_break_in_a_branch_does_not_fall_through():
    # (the for's next item: the rest after the if stays where it is)
    body = ['if x:', '    break', 'y()', 'return 7']
    assert regions._fallen([(1, body)], 1) == ['if x:', '    continue', 'y()', 'return 7']


def test_a_branch_at_the_runs_end_and_an_else_of_one_line():
    assert regions._fallen([(1, ['if x:', '    return 7'])], 1) == ['if x:', '    return 7']
    for body in (['if x:', '    y()', 'else:', '    z()', 'w()', 'return 7'],
                 ['if x:', '    y()', 'else:', '    return 7']):
        assert regions._fallen([(1, body)], 1) == body


def test_no_slot_is_named_where_the_frame_is_used_whole_before_the_first():
    # (an inner region's call passes the frame: its slots stay in the frame)
    for text in ('pc = f(self, stack, frame, arg[2])\nx = frame[3]',
                 'x = frame[3]\npc = f(self, stack, frame, arg[2])'):
        assert local_names.slots_named(text, lambda: False) == (text, ())
    assert local_names.slots_named('x = frame[3]', lambda: False) == ('x = l_3', ['3'])


def test_a_fall_through_inside_a_branch_takes_the_rest_of_that_branch_alone():
    # (a&b goes on at run 5; the rest of the `if a:` block goes under an
    # else, and nothing of the branch after it)
    body = ['if a:', '    if b:', '        pc = 5', '        continue', '    y()', '    return 9',
            'else:', '    z()', '    return 7']
    assert regions._fallen([(1, body), (5, ['w()', 'return 8'])], 1) == [
        'if a:', '    if b:', '        pass', '    else:', '        y()', '        return 9',
        'else:', '    z()', '    return 7', 'w()', 'return 8']


def test_a_jump_in_a_block_that_is_no_branch_keeps_the_while():
    for jump in (['    pc = 5', '    continue'], ['    pc = 5'], ['    break'], ['    continue']):
        body = ['try:'] + jump + ['except E:', '    pass', 'return 7']
        assert regions._fallen([(1, body), (5, ['return 8'])], 1) is None


def test_a_name_that_ends_in_frame_is_not_the_frame():
    for text in ('x = myframe[3]', 'x = my_frame[3]', 'x = a.frame[3]', 'x = yframe[3]'):
        assert local_names.slots_named(text, lambda: False) == (text, ())


def test_a_name_pushed_first_under_its_own_test_is_known():
    for test, to in (('if x:', 6), ('if not x:', 9)):
        lines = ['y()', test, '    push(x)', '    pc = 5', '    continue']
        assert regions._tested(lines, {5}, lambda k: 9, _goto) == [
            'y()', test, '    pc = %d' % to, '    continue']


def test_a_fall_through_after_a_statement_of_its_block_is_dropped():
    body = ['y()', 'if x:', '    z()', '    pc = 5', '    continue', 'return 7']
    assert regions._fallen([(1, body), (5, ['return 8'])], 1) == [
        'y()', 'if x:', '    z()', 'else:', '    return 7', 'return 8']


def test_a_fall_through_after_the_runs_one_statement_is_dropped():
    assert regions._fallen([(1, ['y()', 'pc = 5', 'continue']), (5, ['return 8'])], 1) == [
        'y()', 'return 8']


def test_loops_crossing_at_one_s_last_instruction_are_in_no_region(monkeypatch):
    # (B's head is A's JUMP back: the loop around both, `outer`, is no
    # region; A and B each are, and play as in the loop)
    monkeypatch.setattr(compiled, 'HOT', 3)
    program = _hand_made(CROSSING_AT_THE_END)
    image = vm.Image(program, compiled=True)
    assert _run_main(image) == _run_main(vm.Image(program))
    assert sorted(fn.loop for fn in _regions(image).values()) == [(8, 13), (13, 23)]


def test_the_indexes_gone_to_are_read_whole():
    runs = [(1, ['pc = 12', 'continue']), (12, ['if x:', '    pc = 5', '    continue', 'return 7'])]
    assert regions._gone_to(runs) == {5, 12}


def test_a_name_pushed_first_under_its_own_test_is_known_at_any_depth():
    lines = ['if a:', '    if x:', '        push(x)', '        pc = 5', '        continue']
    assert regions._tested(lines, {5}, lambda k: 9, _goto) == [
        'if a:', '    if x:', '        pc = 6', '        continue']


def test_a_jump_inside_a_block_inside_a_branch_keeps_the_while():
    # `pc = 5` two blocks deep, with lines after the outer block: its path
    # would run them with pc set (not the run at 5): no pass of falls, the
    # `while` stays (found by mut23)
    runs = [(1, ['if a:', '    if b:', '        pc = 5', '        continue', '    y()', 'z()',
                 'return 9']), (5, ['w()', 'return 8'])]
    assert regions._fallen(runs, 1) is None
    # (nothing after the outer block: every path ends in it or goes on to 5)
    runs[0] = (1, runs[0][1][:5])
    assert regions._fallen(runs, 1) == ['if a:', '    if b:', '        pass', '    else:',
                                        '        y()', 'w()', 'return 8']


def _or_stop(seconds=5):
    """A region that spins without counting a step fails the test instead
    of hanging it."""
    return stopped_after(seconds, TimeoutError('no end in %d s' % seconds))


def _limited(image, steps):
    from pipvm.core.rng import OCamlRandom
    from tests import test_vm
    m = vm.Machine(image, OCamlRandom(1), max_steps=steps, events=[])
    with pytest.raises(StepLimit):
        m.start(test_vm.seated())
    return list(m.globals), m.steps_left


def test_a_jump_to_itself_inside_a_region_counts_a_step_a_round(monkeypatch):
    # (JUMP's pc after it is its index + 1: a target equal to its own index goes back)
    monkeypatch.setattr(compiled, 'HOT', 3)
    program = _hand_made([
        ('CONST', 'zero'), ('STORE_GLOBAL', 0),
        ('LABEL', 'outer'),
        ('LOAD_GLOBAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 0),
        ('LOAD_GLOBAL', 0), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'spin'),
        ('JUMP', 'skip'),
        ('LABEL', 'spin'), ('JUMP', 'spin'),
        ('LABEL', 'skip'), ('JUMP', 'outer')])
    image = vm.Image(program, compiled=True)
    with _or_stop():
        assert _limited(image, 1000) == _limited(vm.Image(program), 1000)
    assert (10, 10) in {fn.loop for fn in _regions(image).values()}


# An `or`'s value tested by a lone JUMP_IF_FALSE (t) right before the head
# of a loop inside (h): the loop's head is no run of the outer region
OR_BEFORE_A_LOOP = [
    ('CONST', 'zero'), ('STORE_GLOBAL', 0), ('CONST', 'zero'), ('STORE_GLOBAL', 1),
    ('LABEL', 'outer'),
    ('CONST', 'zero'), ('STORE_LOCAL', 0),
    ('LOAD_GLOBAL', 1), ('CONST', 'two'), ('LT',), ('JUMP_IF_TRUE_OR_POP', 't'),
    ('LOAD_GLOBAL', 1), ('CONST', 'five'), ('EQ',),
    ('LABEL', 't'), ('JUMP_IF_FALSE', 'skip'),
    ('LABEL', 'h'),
    ('LOAD_LOCAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_LOCAL', 0),
    ('LOAD_GLOBAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 0),
    ('LOAD_LOCAL', 0), ('CONST', 'three'), ('LT',), ('JUMP_IF_FALSE', 'skip'),
    ('JUMP', 'h'),
    ('LABEL', 'skip'),
    ('LOAD_GLOBAL', 1), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 1),
    ('LOAD_GLOBAL', 1), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'end'),
    ('JUMP', 'outer'),
    ('LABEL', 'end'),
]


def test_a_lone_test_right_before_a_loop_inside_runs_into_its_region(monkeypatch):
    # (the JUMP_IF_FALSE before h is no `tests` of the outer region: h
    # belongs to the loop inside, called there)
    monkeypatch.setattr(compiled, 'HOT', 3)
    program = _hand_made(OR_BEFORE_A_LOOP)
    image = vm.Image(program, compiled=True)
    with _or_stop():
        played = _run_main(image)
    assert played == _run_main(vm.Image(program))
    # (g1: 0, 1 and 5 run h..: three rounds each)
    assert played[1][:2] == [9, 7]
    assert {fn.loop for fn in _regions(image).values()} == {(4, 29), (13, 21)}


def _played(image):
    """_run_main's result, or the error's (type, position, message)."""
    try:
        return _run_main(image)
    except Exception as e:
        return type(e).__name__, getattr(e, 'pos', None), str(e)


def test_an_error_after_a_while_loop_inside_is_at_its_own_position(monkeypatch):
    # (the inner `while` is no `for`: its lines tried and dropped, the
    # outer's positions up to there kept; the division's fault at its own)
    monkeypatch.setattr(compiled, 'HOT', 3)
    program = _hand_made([
        ('CONST', 'zero'), ('STORE_GLOBAL', 0), ('CONST', 'zero'), ('STORE_GLOBAL', 1),
        ('LABEL', 'outer'),
        ('CONST', 'zero'), ('STORE_LOCAL', 0),
        ('LABEL', 'h'),
        ('LOAD_LOCAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_LOCAL', 0),
        ('LOAD_LOCAL', 0), ('CONST', 'three'), ('LT',), ('JUMP_IF_FALSE', 'after'),
        ('JUMP', 'h'),
        ('LABEL', 'after'),
        ('LOAD_GLOBAL', 1), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 1),
        ('CONST', 'seven'), ('LOAD_GLOBAL', 1), ('CONST', 'five'), ('SUB',), ('DIV',),
        ('STORE_GLOBAL', 0),
        ('LOAD_GLOBAL', 1), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'end'),
        ('JUMP', 'outer'),
        ('LABEL', 'end')])
    image = vm.Image(program, compiled=True)
    played = _played(image)
    assert played == _played(vm.Image(program))
    assert played[0] == 'PipError' and 'Division by zero' in played[2]
    assert {fn.loop for fn in _regions(image).values()} == {(4, 25), (6, 11)}


def test_while_loops_inside_called_by_the_operands_they_were_given(monkeypatch):
    # (ten `while` loops one after another inside `outer`: each tried as
    # lines and dropped, then called; a drop keeps the operands of the
    # calls before it, more by now than the outer's positions)
    monkeypatch.setattr(compiled, 'HOT', 3)
    limits = ['two', 'three', 'five'] + ['seven'] * 7
    instrs = [('CONST', 'zero'), ('STORE_GLOBAL', 0), ('CONST', 'zero'), ('STORE_GLOBAL', 1),
              ('LABEL', 'outer'), ('CONST', 'zero'), ('STORE_LOCAL', 0)]
    for k, limit in enumerate(limits):
        instrs += [('LABEL', 'h%d' % k),
                   ('LOAD_LOCAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_LOCAL', 0),
                   ('LOAD_LOCAL', 0), ('CONST', limit), ('LT',), ('JUMP_IF_FALSE', 'h%d' % (k + 1)),
                   ('JUMP', 'h%d' % k)]
    instrs += [('LABEL', 'h%d' % len(limits)),
               ('LOAD_GLOBAL', 1), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 1),
               ('LOAD_GLOBAL', 0), ('LOAD_LOCAL', 0), ('ADD',), ('STORE_GLOBAL', 0),
               ('LOAD_GLOBAL', 1), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'end'),
               ('JUMP', 'outer'), ('LABEL', 'end')]
    program = _hand_made(instrs)
    image = vm.Image(program, compiled=True)
    played = _run_main(image)
    assert played == _run_main(vm.Image(program))
    # (x ends each round at 13: 2, 3, 5, 7, then one more in each of the other six)
    assert played[1][:2] == [7 * 13, 7]
    assert len(_regions(image)) == 1 + len(limits)


def test_the_thousandth_constant_is_read_by_its_operand_too(monkeypatch):
    # (an index is text of the source only below SMALL, 1000: at it, arg[k])
    from tests import test_vm
    monkeypatch.setattr(compiled, 'HOT', 3)
    extra = [5000 + k for k in range(compiled.SMALL + 1 - len(test_vm.CONSTS))]
    program = _hand_made([
        ('CONST', 'zero'), ('STORE_GLOBAL', 0), ('CONST', 'zero'), ('STORE_GLOBAL', 1),
        ('LABEL', 'loop'),
        ('LOAD_GLOBAL', 0), ('CONST', 'last'), ('ADD',), ('STORE_GLOBAL', 0),
        ('LOAD_GLOBAL', 1), ('CONST', 'three'), ('LT',), ('JUMP_IF_FALSE', 'skip'),
        ('LOAD_GLOBAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 0),
        ('LABEL', 'skip'),
        ('LOAD_GLOBAL', 1), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 1),
        ('LOAD_GLOBAL', 1), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'end'),
        ('JUMP', 'loop'),
        ('LABEL', 'end'),
    ], extra=extra)
    image = vm.Image(program, compiled=True)
    played = _run_main(image)
    assert played == _run_main(vm.Image(program))
    assert played[1][:2] == [7 * extra[-1] + 3, 7], played
    (fn,) = _regions(image).values()
    assert '1000' not in fn.source and 'arg[' in fn.source


def _limited_run(image, steps):
    """(What main's start returns or raises, the globals, the steps left)."""
    from pipvm.core.rng import OCamlRandom
    from tests import test_vm
    m = vm.Machine(image, OCamlRandom(1), max_steps=steps, events=[])
    try:
        out = m.start(test_vm.seated())
    except Exception as e:
        out = (type(e).__name__, str(e))
    return out, list(m.globals), m.steps_left


# Two loops that cross where one's last JUMP is the other's head (L4..L5
# and L5..L7, found by a random search of hand-made jumps): neither is
# inside the other
CROSSING_AT_THE_HEAD = [
    ('CONST', 'zero'), ('STORE_GLOBAL', 0), ('CONST', 'zero'), ('STORE_GLOBAL', 1),
    ('CONST', 'zero'), ('STORE_GLOBAL', 2),
    ('LABEL', 'L4'),
    ('LOAD_GLOBAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 0),
    ('LOAD_GLOBAL', 0), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'L7'),
    ('LABEL', 'L5'), ('JUMP', 'L4'),
    ('LABEL', 'L6'),
    ('LABEL', 'L7'), ('JUMP', 'L5'),
    ('JUMP', 'L6'),
]


@pytest.mark.parametrize('hot', [2, 3, 4])
def test_loops_crossing_at_a_head_play_as_in_the_loop(monkeypatch, hot):
    # (a loop that begins before a region's head or ends after its end is
    # none of the loops inside it)
    monkeypatch.setattr(compiled, 'HOT', hot)
    program = _hand_made(CROSSING_AT_THE_HEAD)
    image = vm.Image(program, compiled=True)
    with _or_stop():
        played = _limited_run(image, 300), _limited_run(image, 3000)
    assert played == (_limited_run(vm.Image(program), 300), _limited_run(vm.Image(program), 3000))
    assert played[0][0][0] == 'StepLimit'


# A `for` (oh..) with another inside it (ih..), the inner one's body left open:
# the two tests below end it in two ways
FOR_IN_A_FOR = [
    ('CONST', 'zero'), ('STORE_GLOBAL', 0), ('CONST', 'zero'), ('STORE_GLOBAL', 1),
    ('LOAD_BUILTIN', 2), ('FOR_ITER',),
    ('LABEL', 'oh'), ('FOR_NEXT', 0, 'odone'),
    ('LOAD_BUILTIN', 0), ('FOR_ITER',),
    ('LOAD_GLOBAL', 1), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 1),
    ('LOAD_GLOBAL', 1), ('CONST', 'seven'), ('GT',), ('JUMP_IF_FALSE', 'ie'),
    ('LABEL', 'ih'), ('FOR_NEXT', 1, 'idone'),
    ('LOAD_GLOBAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 0),
]


def test_a_jump_to_the_end_of_a_for_written_in_place_counts_its_step(monkeypatch):
    # (the `for` inside is written under `elif pc == its head:`; a jump to
    # its last JUMP leaves the region there, and that JUMP back counts a step)
    monkeypatch.setattr(compiled, 'HOT', 3)
    program = _hand_made(FOR_IN_A_FOR + [
        ('LABEL', 'ie'), ('JUMP', 'ih'),
        ('LABEL', 'idone'), ('JUMP', 'oh'),
        ('LABEL', 'odone')])
    image = vm.Image(program, compiled=True)
    played = _run_main(image)
    assert played == _run_main(vm.Image(program))
    # (52 cards, two players each)
    assert played[1][:2] == [104, 52]
    (fn,) = _regions(image).values()
    assert fn.loop == (6, 20)       # (the inner `for` made in it, no region of its own)


# A loop (L6..) that begins inside another (L0..) and ends after it, on
# code no path reaches (found by a random search of hand-made jumps)
CROSSING_PAST_THE_END = [
    ('CONST', 'zero'), ('STORE_GLOBAL', 0), ('CONST', 'zero'), ('STORE_GLOBAL', 1),
    ('CONST', 'zero'), ('STORE_GLOBAL', 2),
    ('LABEL', 'L0'),
    ('LOAD_GLOBAL', 2), ('CONST', 'five'), ('NE',), ('JUMP_IF_FALSE', 'L8'),
    ('JUMP', 'L6'),
    ('LABEL', 'L6'),
    ('LOAD_GLOBAL', 2), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 2),
    ('JUMP', 'L0'),
    ('JUMP', 'L6'),
    ('LABEL', 'L8'),
]


def test_a_loop_crossing_past_the_end_is_none_of_the_loops_inside(monkeypatch):
    # (a region of the loop L6.. holds no loop that begins before L6: a
    # hot block at the first call makes each region at once)
    monkeypatch.setattr(compiled, 'HOT', 1)
    program = _hand_made(CROSSING_PAST_THE_END)
    image = vm.Image(program, compiled=True)
    with _or_stop():
        played = _limited_run(image, 3000), _limited_run(image, 3000)
    assert played == (_limited_run(vm.Image(program), 3000),) * 2
    assert played[0][1][:3] == [0, 0, 5]


def test_a_jump_to_the_end_of_a_for_called_from_a_region_counts_its_step(monkeypatch):
    # (the `for` inside leaves early, to x: it is called, at its head only
    # (`elif pc == head:`); a jump to its last JUMP leaves the outer region)
    monkeypatch.setattr(compiled, 'HOT', 3)
    program = _hand_made(FOR_IN_A_FOR + [
        ('LOAD_GLOBAL', 0), ('CONST', 'zero'), ('LT',), ('JUMP_IF_FALSE', 'ie'),
        ('JUMP', 'x'),
        ('LABEL', 'ie'), ('JUMP', 'ih'),
        ('LABEL', 'idone'), ('JUMP', 'oh'),
        ('LABEL', 'x'), ('POP',), ('JUMP', 'oh'),
        ('LABEL', 'odone')])
    image = vm.Image(program, compiled=True)
    played = _run_main(image)
    assert played == _run_main(vm.Image(program))
    assert played[1][:2] == [104, 52]
    made = {fn.loop: fn for fn in _regions(image).values()}
    assert set(made) == {(6, 27), (15, 24)} and made[(15, 24)].head_only
