"""DIV of two lists' sizes written out in an action's function
(pipvm/engine/sizes.py): floor division where the divisor is not 0, the
loop's fault where it is."""
from pipvm.engine import actions, sizes
from pipvm.engine.vm import Image
from tests.test_actions import GAME, _play_outs, _program

RUN = '''value2 = len(value1)
value4 = len(value3)
try:
    res5 = runtime.divide(int(value2), int(value4))
except Fault as e:
    raise'''


def test_a_size_over_a_size_is_floor_division_unless_by_zero():
    out = sizes.sized(RUN)
    assert 'res5 = (value2 // value4 if value4 else runtime.divide(value2, value4))' in out
    assert out.replace('(value2 // value4 if value4 else runtime.divide(value2, value4))',
                       'runtime.divide(int(value2), int(value4))') == RUN


def test_what_may_not_be_a_size_keeps_its_division():
    # a name set again, a name set by something else, a size set after the division
    assert sizes.sized(RUN + '\nvalue4 = 3') == RUN + '\nvalue4 = 3'
    other = RUN.replace('value4 = len(value3)', 'value4 = value3')
    assert sizes.sized(other) == other
    later = 'value2 = len(value1)\nres5 = runtime.divide(int(value2), int(value4))\nvalue4 = len(x)'
    assert sizes.sized(later) == later
    for text in ('x = (', 'res = runtime.divide(int(a), int(b))'):    # (no parse; no sizes)
        assert sizes.sized(text) == text


SIZES = '''Number q.
Area empty labeled "Empty" is faceup.
Action sizes {
  q = table->cards->size / players->size.
  if table->cards->size > 4 { q = table->cards->size / empty->cards->size. }
}'''


def test_a_size_over_a_size_plays_as_in_the_loop_to_its_division_by_zero():
    program = _program((GAME % SIZES).replace('  helper().', '  helper().\n  sizes().'))
    (loop, _), (tier, functions) = _play_outs(program, seeds=(1, 2))
    assert functions and loop == tier
    assert all(ending and 'Division by zero' in ending[2] for _, ending, _, _ in loop)
    image = Image(program, compiled=True)
    actions.prepare(image)
    text = [c.action.source for c in image.codes if c.code.name == 'sizes'][0]
    assert text.count(' // ') == 2, text
