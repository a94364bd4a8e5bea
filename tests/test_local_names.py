"""A region's constants and slots as locals (pipvm/engine/local_names.py):
a `for`'s local over a list left untested in its body, and the copies
composing leaves read in place.  Each must keep what the text does: a
test that could fail stays, a value read again keeps its copy."""
import pytest

from compiler.pip import frontend
from pipvm.engine import compiled, kinds, local_names, vm
from pipvm.isa import pipc
from tests.fuzz import harness
from tests.test_regions import _play, _regions


def _check(name, slot, part, pad=''):
    return [pad + 'if (%s := frame[%s]) is None:' % (name, slot),
            pad + "    raise Fault('Undefined value', %d)" % part]


def _untested(text, items_defined=True):
    return local_names.slots_named(text, lambda: items_defined)[0].split('\n')


def test_a_for_s_local_over_a_list_is_untested_in_its_body():
    inner = ['    for frame[2] in stack[-1]:'] + _check('value1', 1, 1, '        ') \
        + _check('value2', 2, 2, '        ')
    text = '\n'.join(['for frame[1] in stack[-1]:'] + _check('value0', 1, 0, '    ') + inner
                     + _check('value3', 1, 3) + _check('value4', 2, 4))
    # (in the inner for's body too: nothing stores the outer's local; after
    # the loops, where they may have run no round, the tests stay)
    assert _untested(text) == [
        'for l_1 in stack[-1]:', '    value0 = l_1', '    for l_2 in stack[-1]:',
        '        value1 = l_1', '        value2 = l_2',
        'if (value3 := l_1) is None:', "    raise Fault('Undefined value', 3)",
        'if (value4 := l_2) is None:', "    raise Fault('Undefined value', 4)"]
    # (a list that may hold an undefined value: every test stays)
    named = text.replace('frame[1]', 'l_1').replace('frame[2]', 'l_2').split('\n')
    assert _untested(text, False) == named and 'frame[' not in '\n'.join(named)


@pytest.mark.parametrize('store', ['frame[1] = x', 'for frame[1] in y:\n    pass'])
@pytest.mark.parametrize('first', [False, True])
def test_a_for_s_local_set_elsewhere_keeps_its_tests(store, first):
    # (a store, or a `for` over what may be no list, before the loop or
    # after it: a value the for did not set)
    lines = ['for frame[1] in stack[-1]:'] + _check('value0', 1, 0, '    ')
    text = '\n'.join(store.split('\n') + lines if first else lines + store.split('\n'))
    k = lines.index('for frame[1] in stack[-1]:') + 1 + first * len(store.split('\n'))
    assert _untested(text)[k] == '    if (value0 := l_1) is None:'


def test_a_check_of_a_slot_nothing_stores_holds_inside_a_loop_after_it():
    text = '\n'.join(_check('value0', 3, 0) + ['while True:'] + _check('value1', 3, 1, '    '))
    assert _untested(text)[3] == '    value1 = l_3'
    stored = text + '\n    frame[3] = 1'       # (a store later in the loop runs before)
    assert _untested(stored)[3] == '    if (value1 := l_3) is None:'


@pytest.mark.parametrize('text, out', [
    ('value5 = l_1\nx = value5.rank', 'x = l_1.rank'),
    ('value5 = k_3\nres = x > value5', 'res = x > k_3'),
    # (its next word a store at its indent: moved; the store reading it not)
    ('value1 = l_1\nx = value1\nvalue1 = l_2\ny = value1', 'x = l_1\ny = l_2'),
    ('value1 = l_1\nx = value1\nif a:\n    y = 2\nvalue1 = 3\nz = value1', 'x = l_1\nif a:\n'
     '    y = 2\nvalue1 = 3\nz = value1'),
    ('value1 = l_1\nx = value1\nif (value1 := g) is None:\n    pass', 'x = l_1\n'
     'if (value1 := g) is None:\n    pass'),
    ('value1 = l_10\nx = value1 + value10', 'x = l_10 + value10'),
    ('value1 = l_1\nvalue1.x = 2', 'l_1.x = 2'),         # (read first thing on its line)
    ('    value5 = l_1\n    x = value5', '    x = l_1'),     # (in a block)
])
def test_a_copy_read_once_in_the_next_line_is_read_in_place(text, out):
    assert local_names.copied(text) == out


@pytest.mark.parametrize('text', [
    'value5 = l_1\nx = value5 + value5',            # (read twice)
    'value5 = l_1\n    x = value5',                 # (the next line in another block)
    'if a:\n    value5 = l_1\nx = value5',
    'value5 = l_1\nx = value5\ny = value5',         # (read again)
    # (set again only in a block that may not run, or out of this one,
    # or reading itself as it is set)
    'value5 = l_1\nx = value5\nif a:\n    value5 = 2\ny = value5',
    'if b:\n    value5 = l_1\n    x = value5\nelse:\n    value5 = 2\ny = value5',
    'value5 = l_1\nx = value5\nvalue5 = value5 + 1',
    'value5 = l_1\nx = value5\nvalue5 = value5',  # (read as it is set, at the text's end)
    'value5 = frame[1]\nx = value5',                # (no local nor constant)
    'value5 = l_x\nx = value5',
])
def test_a_copy_read_otherwise_stays(text):
    assert local_names.copied(text) == text


NUMBERS = '''Game "N" requires 2 players.
Number total = 0.
Action main {
  let n be 3.
  let i be 0.
  forever {
    if i >= 30 { skip to done. }
    for c in standard {
      for x in [1; 2; n] { if c->rank == x { total += x. } }
    }
    i += 1.
  }
  label done.
  message "total {total}".
}
'''


def test_a_region_over_a_list_that_may_hold_other_values_keeps_its_tests():
    # (a list built of values: kinds.items_shown says no, and the region
    # tests its `for`'s local as the loop does)
    program = harness.compile_checked(frontend.check_text(NUMBERS))
    assert not kinds.items_shown(program)
    image = vm.Image(program, compiled=True)
    assert _play(image) == _play(vm.Image(program))
    sources = [fn.source for fn in _regions(image).values()]
    assert sources and all(':= l_' in source for source in sources)
    assert any(':= l_2) is None:' in source for source in sources)


def test_a_code_object_is_decoded_once_for_every_reader():
    program = harness.compile_checked(frontend.check_text(NUMBERS))
    code = program.codes[-1].code
    first = pipc.decoded(code)
    assert type(first) is tuple and list(first) == pipc.decode(code)
    assert pipc.decoded(bytes(code)) is first
    with pytest.raises(pipc.BadCode):
        pipc.decoded(b'\xff')
    assert b'\xff' not in pipc._DECODED


@pytest.mark.parametrize('text, at', [
    ('value1', 0), ('x = value1', 4), ('(value1)', 1), ('value1 = 2', 0),
    # (inside another name: before it a letter, a digit or `_`, after it the same)
    ('xvalue1 y', -1), ('_value1 y', -1), ('2value1 y', -1), ('y value1x', -1),
    ('y value1_ ', -1), ('y value10 ', -1), ('avalue1b', -1),
    ('value10 + value1', 10), ('x_value1 = value1', 11),
])
def test_a_name_is_found_only_as_a_whole_word(text, at):
    assert local_names._word_at(text, 'value1') == at
    assert local_names._word_at(text, 'value1', at + 1) == -1     # (none after it)


COUNTING = '''Game "C" requires 2 players.
Number total = 0.
Action main {
  let i be 0.
  forever {
    if i >= 2000 { skip to done. }
    total += i.
    i += 1.
  }
  label done.
  message "total {total}".
}
'''


def test_whether_lists_hold_only_defined_values_is_asked_by_a_region_with_a_for_alone():
    # (kinds.items_shown, a pass over the program, found once a site's
    # first region has a `for` over a list: a region with none never pays)
    sites = {}
    for name, text in (('counting', COUNTING), ('numbers', NUMBERS)):
        image = vm.Image(harness.compile_checked(frontend.check_text(text)), compiled=True)
        assert _play(image) == _play(vm.Image(image.program))
        assert _regions(image)
        sites[name] = {id(lazy.site): lazy.site for loaded in image.codes
                       for _, _, fn in loaded.instrs + loaded.quiet
                       if (lazy := compiled.lazy_of(fn)) is not None}.values()
        assert sites[name]
    assert all(site.shown is None for site in sites['counting'])
    assert any(site.shown is False for site in sites['numbers'])
