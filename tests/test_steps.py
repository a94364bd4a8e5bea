"""A whole action's steps counted in a local (pipvm/engine/steps.py): the
same step limits, met at the same step, and the same count left on the
machine as the loop's, however the function leaves (a return, a call that
counts on the machine, an error inside it)."""
import os

import pytest

from pipvm.engine import actions, steps
from pipvm.engine.vm import Image
from pipvm.play import loader
from tests.test_compiled_playouts import ROOT, _play_outs


def _example(name):
    return loader.load_program(os.path.join(ROOT, 'examples', name + '.pip'))


def _texts(lines):
    return [text for text, _ in lines]


@pytest.fixture(autouse=True)
def _uncached():
    # (counts() is cached by text: a text an earlier test judged would not
    # run its lines here, and tools/mutation.py, which records the lines
    # each test runs, would not run this file's tests on their mutants)
    steps.counts.cache_clear()


def test_an_action_counts_its_steps_in_a_local():
    image = Image(_example('euchre'), compiled=True)
    actions.prepare(image)
    fn = next(l.action for l in image.codes if l.code.name == 'play_trick')
    assert 'steps_ -= 1' in fn.source and 'self.steps_left -= 1' not in fn.source
    assert steps.PROLOGUE + '\n' in fn.source and steps.TAIL[-1] in fn.source
    # (a caller takes in the body that counts on the machine: inline.leaf)
    assert 'self.steps_left -= 1' in fn.plain[0] and 'steps_ ' not in fn.plain[0]


def test_a_call_that_may_count_hands_the_count_to_the_machine_around_it():
    lines = [('        self.steps_left -= 1', 0), ('        t_ = H5(self, stack, frame, A[1])', 1),
             ('        rec_[0].action(self, rec_)', 2), ('        return LOUD_RUN(self, rec, 3)', 3)]
    assert _texts(steps.local(lines)) == [
        '        steps_ -= 1',
        '        ' + steps.SAVE, '        t_ = H5(self, stack, frame, A[1])', '        ' + steps.LOAD,
        '        ' + steps.SAVE, '        rec_[0].action(self, rec_)', '        ' + steps.LOAD,
        '        ' + steps.SAVE, '        return LOUD_RUN(self, rec, 3)']
    # (each line keeps its unit; the new ones have none)
    assert [u for _, u in steps.local(lines)] == [0, None, 1, None, None, 2, None, None, 3]


def test_the_helpers_and_a_generated_filter_keep_the_local():
    safe = ['x = len(cards_of(v))', 'log_.append((choice_, card_.name))',
            'del hand_[hand_.index(card_)]', 'res = runtime.divide(int(a), int(b))',
            'deal(source, dest.hand, count)',
            'cards = A[15](self, value1, to)' + steps.NO_STEPS]
    assert not any(steps.counts(t) for t in safe)
    counting = ['cards = A[15](self, value1, to)', 'cards = self.playable(10, v, to)',
                'A[3][0](env_)', 'value[:] = self.ordered(5, value)', 'finish(1, v)',
                'cards = A[15](self, v, to)' + steps.NO_STEPS + ' or self.playable(1, v, to)']
    assert all(steps.counts(t) for t in counting)


def test_a_method_of_a_subscripted_value_is_read_by_its_whole_name():
    # a message's guard at each round (a local a Number too long to show?)
    # keeps the local: bit_length is a method of frame[2]'s value
    assert not steps.counts('if (type(frame[2]) is int and frame[2].bit_length() > SHOWN_BITS):')
    assert not steps.counts('stack[-1].append(value)')
    # (an operand's method may be the program's; a callee's action counts)
    assert steps.counts('x = A[3].get(value)')
    assert steps.counts('rec_[0].action(self, rec_)')
    lines = [('    if (type(frame[2]) is int and frame[2].bit_length() > SHOWN_BITS):', 0),
             ('        A[3][0](env_)', 0), ('    self.steps_left -= 1', 1)]
    assert _texts(steps.local(lines)) == [
        lines[0][0], '        ' + steps.SAVE, lines[1][0], '        ' + steps.LOAD, '    steps_ -= 1']


def test_an_if_whose_test_may_count_loads_in_its_block_and_after_it():
    lines = [('    if not QUIET_ROUNDS(self, frame, A[1], rest_):', 0),
             ('        return LOUD_RUN(self, rec, 12)', 0), ('    self.steps_left -= 2', 1)]
    assert _texts(steps.local(lines)) == [
        '    ' + steps.SAVE, '    if not QUIET_ROUNDS(self, frame, A[1], rest_):',
        '        ' + steps.LOAD, '        ' + steps.SAVE, '        return LOUD_RUN(self, rec, 12)',
        '    ' + steps.LOAD, '    steps_ -= 2']
    # the same with the writer's note after the test (actions.py's quiet loop)
    noted = [(lines[0][0] + '  # (it stores frame[1] alone)', 0)] + lines[1:]
    assert _texts(steps.local(noted))[2] == '        ' + steps.LOAD


def test_an_except_takes_the_machine_s_count_if_a_call_failed():
    lines = [('    try:', 0), ('        cards = A[2](self, v, to)', 0), ('    except Exception:', 0),
             ('        cards = self.playable(1, v, to)', 0), ('    self.steps_left -= 1', 1)]
    out = _texts(steps.local(lines))
    assert out[out.index('    except Exception:') + 1] == '        ' + steps.AGAIN
    # and the handler's value: the machine's while a call held it (None), else its own
    for held, machine, left in ((None, 7, 7), (5, 7, 5)):
        space = {'steps_': held, 'self': type('M', (), {'steps_left': machine})}
        exec(steps.AGAIN, space)
        assert space['steps_'] == left


def test_an_except_that_only_raises_again_leaves_the_count_where_it_is():
    # (the function's `finally` writes back the count it holds, if it holds it)
    lines = [('    try:', 0), ('        cards = self.playable(1, v, to)', 0),
             ('    except Fault as e:', 0), ('        e.part = e.part or 3', 0), ('        raise', 0),
             ('    self.steps_left -= 1', 1)]
    assert steps.AGAIN not in '\n'.join(_texts(steps.local(lines)))
    lines[3] = ('        self.playable(2, v, to)', 0)       # (a call that may count: again)
    assert steps.AGAIN in '\n'.join(_texts(steps.local(lines)))


@pytest.mark.parametrize('lines', [
    [('    if x:', 0), ('        pass', 0), ('    elif self.playable(1, v, to):', 0),
     ('        self.steps_left -= 1', 0)],
    [('    if self.playable(1, v, to):', 0), ('        pass', 0), ('    else:', 0),
     ('        self.steps_left -= 1', 0)],
    [('    for x in self.ordered(1, v):', 0), ('        self.steps_left -= 1', 0)],
    [('    if len(rest_) > self.steps_left and QUIET_ROUNDS(self, frame, A[1], rest_):', 0)],
    # (an elif of an inner if whose test counts, inside an outer one's block)
    [('    self.steps_left -= 1', 0), ('    if A[1](self, v):', 0), ('        if A[2](self, v):', 0),
     ('            x = 1', 0), ('        elif y:', 0), ('            x = 2', 0)],
    # (any other compound statement's header: no write-back after it)
    [('    self.steps_left -= 1', 0), ('    match self.value(v):', 0), ('        case 1:', 0),
     ('            pass', 0)],
], ids=['elif', 'else', 'for', 'both', 'inner elif', 'match'])
def test_a_call_where_its_write_back_cannot_follow_leaves_the_count_on_the_machine(lines):
    assert steps.local(lines) is None


def test_a_function_without_steps_has_no_local():
    assert steps.local([('    x = 1', 0), ('    rec_[0].action(self, rec_)', 0)]) is None


# Step limits met inside calls: a callee's function (Oh Hell's bidding and
# play_trick from round), a quiet loop's rounds and handlers (Cheat), a
# rule's filter (Crazy Eights), each limit met at the same step as the loop.
@pytest.mark.parametrize('name', ['oh_hell', 'cheat', 'crazy_eights'])
@pytest.mark.parametrize('limit', [23, 150, 1100])
def test_a_step_limit_met_anywhere_is_met_at_the_same_step(name, limit):
    loop, compiled = _play_outs(_example(name), n=2, reps=2, steps=limit)
    assert compiled == loop


# An `except` whose block does not only raise again takes the machine's
# count: a block that ends (a line back at the `except`'s indent, or the
# function's end) before any `raise`.
@pytest.mark.parametrize('after', [[('    raise GameOver()', 1)], []], ids=['dedent', 'end'])
def test_an_except_whose_block_ends_without_raising_takes_the_count_again(after):
    lines = [('    self.steps_left -= 1', 0), ('    try:', 0),
             ('        cards = self.playable(1, v, to)', 0), ('    except Fault:', 0),
             ('        cards = None', 0)] + after
    out = _texts(steps.local(lines))
    assert out[out.index('    except Fault:') + 1] == '        ' + steps.AGAIN


def test_a_method_of_the_machine_or_its_parts_is_never_safe_by_its_name():
    # (a list method keeps the local on the function's own values only: the
    # machine's attributes may be anything, and the machine's own methods
    # may run the program's code)
    assert steps.counts('self.frames.append(frame)')
    assert steps.counts('x = self.get(1)')
    assert not steps.counts('frame_.append(x)')


def test_ifs_open_at_the_end_load_after_their_blocks_innermost_first():
    lines = [('    self.steps_left -= 1', 0), ('    if A[1](self, v):', 1),
             ('        if A[2](self, v):', 2), ('            return A[3](self, v)', 3)]
    assert _texts(steps.local(lines)) == [
        '    steps_ -= 1',
        '    ' + steps.SAVE, '    if A[1](self, v):', '        ' + steps.LOAD,
        '        ' + steps.SAVE, '        if A[2](self, v):', '            ' + steps.LOAD,
        '            ' + steps.SAVE, '            return A[3](self, v)',
        '        ' + steps.LOAD, '    ' + steps.LOAD]


def test_a_line_after_an_inner_if_s_block_loads_for_that_if_alone():
    lines = [('    self.steps_left -= 1', 0), ('    if A[1](self, v):', 1),
             ('        if A[2](self, v):', 2), ('            return A[3](self, v)', 3),
             ('        x = 1', 4), ('    y = 2', 5)]
    assert _texts(steps.local(lines)) == [
        '    steps_ -= 1',
        '    ' + steps.SAVE, '    if A[1](self, v):', '        ' + steps.LOAD,
        '        ' + steps.SAVE, '        if A[2](self, v):', '            ' + steps.LOAD,
        '            ' + steps.SAVE, '            return A[3](self, v)',
        '        ' + steps.LOAD, '        x = 1', '    ' + steps.LOAD, '    y = 2']


def test_an_except_whose_block_holds_a_compound_statement_takes_the_count_again():
    # (only a block of plain lines that raises again leaves the count as it is)
    lines = [('    self.steps_left -= 1', 0), ('    try:', 0),
             ('        cards = self.playable(1, v, to)', 0), ('    except Fault as e:', 0),
             ('        if e.part is None:', 0), ('            raise', 0), ('        cards = None', 0)]
    out = _texts(steps.local(lines))
    assert out[out.index('    except Fault as e:') + 1] == '        ' + steps.AGAIN


def test_the_mark_vouches_for_the_filter_s_own_call_alone():
    # (another generated function called in its arguments may count)
    assert steps.counts('cards = A[15](self, A[3](self, v), to)' + steps.NO_STEPS)
