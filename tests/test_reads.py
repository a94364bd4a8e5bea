"""pipvm/engine/reads.py: each of its line tests answers as the pattern it
replaced (below, the patterns reads.reused used), over the lines of
every example's generated actions and regions and over edge cases."""
import glob
import os
import re

import pytest

from pipvm.engine import actions, reads
from pipvm.engine.vm import Image
from pipvm.play import loader
from tests.test_compiled_playouts import ROOT

_STORE = r'\s*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?'
CHECKED = re.compile(r'( *)if \((\w+) := (globals_\[\d+\]|frame\[\d+\]|(\w+)\.(\w+))\) is None:')
ASSIGNED = re.compile(r'(?<![\w.])([A-Za-z_]\w*)' + _STORE + r':?=(?!=)')
TUPLE = re.compile(r' *([A-Za-z_]\w*(?:, *[A-Za-z_]\w*)+) *=(?!=)')
CALL = re.compile(r'([\w.]+|[\])])\s*\(')
SLOTS = re.compile(r'\b(globals_|frame)\b(?!\[\d+\])')
SET_PROPERTY = re.compile(r'\.\w+' + _STORE + r'=(?!=)')
SLOT_STORE = re.compile(r'((?:globals_|frame)\[\d+\])' + _STORE + r'=(?!=)')
COPY = re.compile(r'((?:globals_|frame)\[\d+\]|[A-Za-z_]\w*) = ([A-Za-z_]\w*)')

EDGES = [
    'if (value0 := frame[12]) is None:', '    if (v_1 := value0.rank) is None:',
    'if (value0 := frame[]) is None:', 'if (value0 := a.b.c) is None:',
    'if ( := frame[1]) is None:',
    'if (value0 := frame[1])  is None:', 'if (x := globals_[3]) is None: ', 'if (x := y) is None:',
    'a = b', 'frame[3] = value2', 'globals_[0] = res15', 'globals_[0]= x', 'frame[1] == x',
    'frame[1] += 1', 'frame[1] //= 2', 'frame[1] **= 2', 'frame[1] <<= 1', 'frame[1]=x',
    'frame[12', 'frames[2] = 1', 'rec[3][1] = x', 'frame[x] = 1', 'globals_ = g', 'self.frame',
    'x.frame = 1', 'frame_ = 2', 'my_frame[1] = 2', 'globals_[1]', 'f(frame)', 'frame[1][2] = 3',
    'a, b = c', 'a,b=c', 'a , b = c', 'a, b == c', '  x, y, z = t', 'a, 2b = c', 'f(a, b)',
    'a = b = c', 'x := 3', '(v := pop()) is None', 'a <= b', 'a >= b', 'a != b', 'a == b',
    'a -= 1', 'a @= b', 'a >>= 1', 'a **= 2', 'a//=2', 'a.b = 1', 'a.b += 1', 'a.b == 1',
    'x.y.z = 2', '2x = 1', 'x2 = 1', '_ = 0', 'lambda x=1: x', 'f(x=1)', 'f(a=b, c=d)',
    'self.steps_left -= 1', 'value5 = value0', 'value5 = 3', 'x = None', 'x = y.z',
    'res14 = runtime.multiply(int(value12), value13)', 'f (x)', 'f(x)(y)', 'a[1](b)',
    'f((x))', '(x)(y)', 'x.append(1)', 'raise Fault("Undefined value", 2)', '.5(x)',
    'if not res3:', 'pass  # GOTO 28', 'x = [a for a in b if f(a)]', 'é = 1', 'x =\t1',
    'a\t= b', 'frame [1] = 2', 'x = "a = b"', "y = 'f(x)'",
]


def _lines():
    """Every line of the examples' generated actions (and a few regions)."""
    lines = set(EDGES)
    for path in sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip'))):
        image = Image(loader.load_program(path), compiled=True)
        actions.prepare(image)
        for loaded in image.codes:
            if loaded.action:
                lines.update(loaded.action.source.split('\n'))
    return sorted(lines)


@pytest.fixture(scope='module')
def lines():
    return _lines()


def test_each_scan_answers_as_its_pattern(lines):
    assert len(lines) > 1000
    for text in lines:
        answers_as_patterns(text)


def answers_as_patterns(text):
    """Each scan of reads answers on text as its pattern above."""
    word = text.strip()
    m = CHECKED.fullmatch(text)
    assert reads.checked(text) == (m and m.groups()), text
    m = COPY.fullmatch(word)
    assert reads.copy(word) == (m and m.groups()), text
    m = SLOT_STORE.match(word)
    assert reads.slot_store(word) == (m and m.group(1)), text
    assert reads.sets_property(word) == bool(SET_PROPERTY.search(word)), text
    assert reads.other_slots(word) == bool(SLOTS.search(word)), text
    assert reads.assigned(word) == set(ASSIGNED.findall(word)), text
    m = TUPLE.match(text)
    assert list(reads.tuple_assigned(text)) == (
        [x.strip() for x in m.group(1).split(',')] if m else []), text
    assert reads.callees(word) == CALL.findall(word), text


def _reused(text):
    """text's lines through reads.reused."""
    return '\n'.join(line for line, _ in reads.reused([(line, None) for line in text.split('\n')]))


def test_a_call_between_two_reads_of_a_slot_reads_it_again_unless_it_stores_nothing():
    text = '\n'.join(['if (value0 := frame[1]) is None:', "    raise Fault('Undefined value', 0)",
                      'res = runtime.anything(value0, 2)',
                      'if (value3 := frame[1]) is None:', "    raise Fault('Undefined value', 3)",
                      'globals_[0] = value3',
                      'if (value4 := frame[1]) is None:', "    raise Fault('Undefined value', 4)"])
    out = _reused(text).split('\n')
    # (a call the rewrite does not know may store the frame: read again)
    assert out[3] == 'if (value3 := frame[1]) is None:'
    assert out[-1] == 'value4 = value3'
    # (Numbers' arithmetic stores nothing: MUL's and DIV's calls between)
    for call in ('runtime.multiply', 'runtime.divide'):
        out = _reused(text.replace('runtime.anything', call)).split('\n')
        assert out[3] == 'value3 = value0'


def test_a_slot_stored_from_a_name_that_holds_a_value_then_read_is_a_copy():
    def checked(name, expr, part):
        return ['if (%s := %s) is None:' % (name, expr),
                "    raise Fault('Undefined value', %d)" % part]
    stored = (checked('value0', 'frame[1]', 0) + ['frame[3] = value0']
              + checked('value4', 'frame[3]', 4))
    assert _reused('\n'.join(stored)).split('\n')[-1] == 'value4 = value0'
    copied = (checked('value0', 'frame[1]', 0) + checked('value1', 'value0.rank', 1)
              + ['value5 = value0'] + checked('value6', 'value5.rank', 6))
    assert _reused('\n'.join(copied)).split('\n')[-1] == 'value6 = value1'
    alone = checked('value0', 'frame[1]', 0) + checked('value1', 'value0.rank', 1) + [
        'globals_[0] = value1']
    assert _reused('\n'.join(alone)) == '\n'.join(alone)
