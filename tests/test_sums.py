"""pipvm/engine/sums.py: ADD's, SUB's and MUL's bodies written out for a
Number, in the compiled tier's actions and regions."""
import pytest
from hypothesis import given, strategies as st

from compiler.pip import frontend
from pipvm.core import runtime
from pipvm.core.errors import Fault
from pipvm.core.runtime import LARGEST, RANKS
from pipvm.engine import compiled, sums, vm
from tests.fuzz import harness
from tests.test_regions import _play, _regions

PRODUCT = ('(m_ if isinstance({a}, int) and %d <= (m_ := {a} * {b}) <= %d '
           'else runtime.multiply(int({a}), {b}))' % (-LARGEST - 1, LARGEST))


def test_a_sum_a_difference_and_a_product_of_a_name_are_written_out():
    assert sums.written('x = int(a) + b\npush(int(v) - consts[3])') == (
        'x = (a + b if isinstance(a, int) else int(a) + b)\n'
        'push((v - consts[3] if isinstance(v, int) else int(v) - consts[3]))')
    assert sums.written('res = runtime.multiply(int(a), consts[12])') == (
        'res = ' + PRODUCT.format(a='a', b='consts[12]'))
    # (from the text's first character on, a name begun by `_` too)
    assert sums.written('int(x)\ny = int(_a) + b') == (
        'int(x)\ny = (_a + b if isinstance(_a, int) else int(_a) + b)')
    assert sums.written('runtime.multiply(int(a), b)') == PRODUCT.format(a='a', b='b')
    assert sums.written('= int(a) + k[3]') == '= (a + k[3] if isinstance(a, int) else int(a) + k[3])'
    assert sums.written('(runtime.multiply(int(a), k[3]))') == (
        '(%s)' % PRODUCT.format(a='a', b='k[3]'))
    # (each of several, the text between kept)
    assert sums.written('f(int(a) + b, runtime.multiply(int(c), d))') == (
        'f((a + b if isinstance(a, int) else int(a) + b), %s)' % PRODUCT.format(a='c', b='d'))


@pytest.mark.parametrize('text', [
    'x = int(a) + b * c', 'x = d - int(a) + b', 'x = int(a) + b[1].c', 'x = int(a.b) + c',
    'x = int(a)', 'x = int(a) * b', 'x = int(a) + b[c]', 'x = int(a) + (b)', 'x = dint(a) + b',
    'runtime.multiply(int(a), b + c)', 'runtime.multiply(int(a.b), c)',
    'runtime.multiply(int(a), b[x])', 'multiply(int(a), b)', 'x = int() + b', 'x = int(a) +b',
    'runtime.multiply(int(a),b)', 'x = int(a) + b[12', 'x = int(a[1]) + b', 'x = int(1) + b',
    'x = int(2a) + b', 'x = int(', 'x = int(a) + ', 'runtime.multiply(int(a), ',
    'runtime.multiply(int(a), )', 'x = int(a) + b[]', 'x = int(a) + b[1'])
def test_no_other_text_is_written(text):
    # (an operand that is not a whole name, an operator binding tighter)
    assert sums.written(text) == text


# (b no text: a large Number times a text is a text too large to make)
VALUES = st.one_of(
    st.integers(-LARGEST - 1, LARGEST), st.sampled_from([LARGEST, -LARGEST - 1, 2 ** 31, 0]),
    st.sampled_from(RANKS[1:]), st.booleans(), st.none(), st.builds(object),
    st.integers(-2 ** 70, 2 ** 70))


def _outcome(text, a, b):
    space = {'a': a, 'b': b, 'runtime': runtime}
    try:
        exec(text, space)
    except Fault as e:
        return Fault, e.message
    except (TypeError, ValueError) as e:
        # (an operand of the wrong kind: invalid bytecode, whose message
        # names Python's types, a Rank's `Rank` where int() made it `int`)
        return type(e)
    return type(space['res']), space['res']


@given(st.one_of(VALUES, st.sampled_from(['12', 'x', ''])), VALUES)
def test_a_written_body_does_what_the_table_s_does(a, b):
    # the same value of the same type (a Number, never a Rank), or the same failure
    for body in ('res = int(a) + b', 'res = int(a) - b', 'res = runtime.multiply(int(a), b)'):
        assert _outcome(sums.written(body), a, b) == _outcome(body, a, b), body


PRODUCTS = '''Game "P" requires 2 players.
Number total = 1.
Number n = 0.
Action main {
  forever {
    for c in standard {
      if c->suit == H { total *= c->rank. } else { n += c->rank - 1. }
    }
    message "{n}".
  }
}
'''


def test_a_region_s_products_and_sums_run_out_of_range_where_the_loop_s_do(monkeypatch):
    # ranks multiplied until the product passes the original's largest
    # Number: the same error, at the same line, on the tier's regions
    monkeypatch.setattr(compiled, 'HOT', 3)
    program = harness.compile_checked(frontend.check_text(PRODUCTS))
    image = vm.Image(program, compiled=True)
    played = _play(image)
    assert played == _play(vm.Image(program))
    assert 'Number too large' in played[1][2] and 'Line 7' in played[1][2], played[1]
    source = '\n'.join(fn.source for fn in _regions(image).values())
    assert 'm_ := ' in source and 'isinstance(' in source, source
