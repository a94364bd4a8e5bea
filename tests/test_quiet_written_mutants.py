"""QuietWriting.quiet on instructions no example program sends it: a
damaged file's slot, a quiet loop over items with no checks, a handler
whose statement ends nowhere, an instruction an action cannot hold
(tools/mutation-results/quiet_written.tsv)."""
import pytest

from pipvm.engine import fors
from pipvm.engine.compiled import SMALL
from pipvm.engine.quiet_written import QuietWriting
from pipvm.isa.opcodes import BY_CODE, OP


class _Writer(QuietWriting):
    """What quiet reads and calls of actions._Writer, and the text it emits."""

    def __init__(self, instrs, open=False, shown=False, operands=()):
        self.instrs, self.open, self.shown = instrs, open, shown
        self.operands, self.handlers, self.out = list(operands), {}, []

    def new_unit(self, indices):
        return tuple(indices)

    def emit(self, text, indent, unit):
        self.out.append((text, indent, unit))


LOUD = '    return LOUD_RUN(self, rec, 0)'


def test_a_damaged_files_slot_reaches_the_text_by_index():
    w = _Writer([(OP.QUIET_LOCALS, ((SMALL, 3), 9), None)], operands=['x'])
    assert w.quiet(0, 4) == 9
    assert w.operands == ['x', SMALL]
    assert w.out == [('\n'.join(['if frame[A[1]] is None:', LOUD, 'if frame[3] is None:', LOUD]),
                      4, (0,))]
    assert w.tested == {'A[1]', 3}
    # (the small slots are those 0 <= slot < SMALL: each other one by index)
    w = _Writer([(OP.QUIET_LOCALS, ((0, -1, SMALL - 1, 'x'), 9), None)])
    assert w.quiet(0, 4) == 9 and w.operands == [-1, 'x']
    assert w.out[0][0].split('\n')[::2] == ['if frame[0] is None:', 'if frame[A[0]] is None:',
                                           'if frame[%d] is None:' % (SMALL - 1),
                                           'if frame[A[1]] is None:']


def _loop(of_item, checks, shown=False):
    # (slot 1, no other locals, locals_only; the loop ends at 7)
    w = _Writer([(OP.QUIET_FOR, (1, (), of_item, checks, True, 7), None)], shown=shown)
    assert w.quiet(0, 0) == 7
    return w.out[0][0].split('\n')[1]


def test_a_quiet_loops_test_of_its_items_by_what_they_show():
    assert _loop(True, ()) == 'if len(rest_) > self.steps_left or None in rest_:'
    assert _loop(False, ()) == 'if len(rest_) > self.steps_left:'
    assert _loop(True, (), shown=True) == 'if len(rest_) > self.steps_left:'
    assert _loop(False, ('c',)) == ('if len(rest_) > self.steps_left or '
                                    'int in map(type, rest_):')


def handler(*args):
    return None


def test_a_handler_whose_statement_ends_nowhere_goes_on_at_its_answer():
    op = OP.QUIET_LOCALS + 1000       # (any code: a handler decides)
    w = _Writer([(op, ('a', None), handler)])
    assert w.quiet(0, 8) is None
    assert w.handlers == {'H%d' % op: handler} and w.operands == [('a', None)]
    assert w.out == [('\n'.join(['t_ = H%d(self, stack, frame, A[0])' % op, 'if t_ is LOUD:', LOUD,
                                 'pc = t_', 'continue']), 8, (0,))]
    with pytest.raises(fors.NoFor):
        _Writer([(op, ('a', None), handler)], open=True).quiet(0, 8)
    # (one that ends where its arg's last says goes on there, open or not)
    for is_open, arg in ((False, ('a', 12)), (True, ('a', 12)), (False, ('a', None, 12))):
        w = _Writer([(op, arg, handler)], open=is_open)
        assert w.quiet(0, 8) == 12
        assert w.out[0][0] == '\n'.join(['t_ = H%d(self, stack, frame, A[0])' % op,
                                         'if t_ is LOUD:', LOUD])


def test_an_instruction_without_a_handler_is_no_actions():
    code = next(c for c, op in BY_CODE.items() if op.name == 'ADD')
    with pytest.raises(ValueError, match='^ADD in an action$'):
        _Writer([(code, (), None)]).quiet(0, 0)


def _rounds(slot, others=(), locals_only=True):
    # (a quiet loop over items, no checks: its lines)
    w = _Writer([(OP.QUIET_FOR, (slot, others, True, (), locals_only, 7), None)])
    assert w.quiet(0, 0) == 7
    return w.out[0][0].split('\n')


def test_a_quiet_loops_rounds_say_the_slot_they_store_where_it_is_a_small_one():
    # (reads.reused reads the note: a test of another slot before the loop
    # holds after it)
    note = 'if not QUIET_ROUNDS(self, frame, A[0], rest_):  # (it stores frame[%d] alone)'
    back = ['    stack.append(rest_)', LOUD]
    for slot in (0, 1, SMALL - 1):
        assert _rounds(slot, locals_only=False) == ['rest_ = pop()', note % slot] + back
        lines = _rounds(slot)
        assert lines[:2] == ['rest_ = pop()', 'if len(rest_) > self.steps_left or None in rest_:']
        assert lines[2:5] == ['    ' + note % slot] + ['    ' + x for x in back]
    # (a damaged file's slot: no note, and the rounds run as the loop's,
    # not written out, even where its checks show only locals)
    for slot in (-1, SMALL, 'x'):
        for locals_only in (False, True):
            assert _rounds(slot, locals_only=locals_only) == [
                'rest_ = pop()', 'if not QUIET_ROUNDS(self, frame, A[0], rest_):'] + back
    # (and one of the other locals it shows: the note, the rounds not written out)
    for other in (-1, SMALL, 'x'):
        assert _rounds(1, (2, other)) == ['rest_ = pop()', note % 1] + back


class _Check:
    def __init__(self, *slots):
        self.slots = slots


def test_a_quiet_loops_written_check_tests_the_other_locals_it_shows_where_they_are_small():
    def written(*slots):
        w = _Writer([(OP.QUIET_FOR, (1, (), False, (_Check(*slots),), True, 7), None)])
        assert w.quiet(0, 0) == 7
        return w.out[0][0].split('\n')
    head = ['rest_ = pop()', 'if len(rest_) > self.steps_left or int in map(type, rest_):',
            '    if not QUIET_ROUNDS(self, frame, A[0], rest_):  # (it stores frame[1] alone)',
            '        stack.append(rest_)', '    ' + LOUD, 'elif rest_:']
    check = ['env_ = frame + [self]', 'env_[1] = rest_[0]', 'try:', '    A[0][3][0](env_)',
             'except Exception:', '    stack.append(rest_)', LOUD]
    tail = ['    frame[1] = rest_[-1]',
            '    self.steps_left -= len(rest_)      # (a step a round, as JUMP counts)']
    assert written(0, 1, 4) == head + [
        '    if %s or %s:' % (LONG_OF(0), LONG_OF(4))] + ['        ' + x for x in check] + tail
    assert written(SMALL - 1) == head + [
        '    if %s:' % LONG_OF(SMALL - 1)] + ['        ' + x for x in check] + tail
    # (a slot that is no small one: the check runs every time, unguarded)
    for odd in (-1, SMALL, None):
        assert written(0, odd) == head + ['    ' + x for x in check] + tail
    # (it shows the item alone: no check to run)
    assert written(1) == head + tail


def LONG_OF(slot):
    return '(type(frame[%d]) is int and frame[%d].bit_length() > SHOWN_BITS)' % (slot, slot)


class _Shows:
    # (a check of checks.py: only those that show locals alone say so)
    def __init__(self, slots, globals=None, locals_only=False):
        self.slots = slots
        if locals_only:
            self.locals_only = True
        if globals is not None:
            self.globals = globals


def _message(*checks, slots=(1,)):
    w = _Writer([(OP.QUIET_MESSAGE, (slots, checks, 5), None)], operands=['x'])
    assert w.quiet(0, 0) == 5
    assert w.operands == ['x', checks] and w.tested == set(slots)
    return w.out[0][0].split('\n')


def test_a_quiet_messages_checks_run_only_where_what_they_show_may_fail_them():
    defined = ['if frame[1] is None:', LOUD]

    def checks(n, pad=''):
        return [pad + x for x in ['env_ = frame + [self]', 'try:'] +
                ['    A[1][%d](env_)' % j for j in range(n)] + ['except Exception:', LOUD]]
    glob = ('globals_[%d] is None or (type(globals_[%d]) is int '
            'and globals_[%d].bit_length() > SHOWN_BITS)')
    # locals only, and globals too: each slot tested once, in order
    assert _message(_Shows((3, 0), locals_only=True), _Shows((0,), (SMALL - 1, 2))) == defined + [
        'if %s or %s or %s or %s:' % (LONG_OF(0), LONG_OF(3), glob % ((2,) * 3),
                                      glob % ((SMALL - 1,) * 3))] + checks(2, '    ')
    # (a check that shows nothing cannot fail: none run)
    assert _message(_Shows((), locals_only=True), _Shows((), ())) == defined
    assert _message(slots=()) == ['']
    # a check whose failures are not known, or a slot that is no small one:
    # the checks run every time
    assert _message(_Shows((2,), locals_only=True), _Shows((2,))) == defined + checks(2)
    for odd in (-1, SMALL, 'x'):
        assert _message(_Shows((2, odd), locals_only=True)) == defined + checks(1)
        assert _message(_Shows((2,), (odd,))) == defined + checks(1)
