"""pipvm/engine/reads.py: what its other tests left unchecked, each test
named for the mutants (tools/mutation-results/reads.tsv) it kills: line
scans on edges no generated line has, and reused's facts on crafted
bodies."""
from pipvm.engine import reads
from tests.test_reads import answers_as_patterns

# lines that tell each scan from a near miss (a bound off by one, a
# character set changed); tests/test_reads.py's patterns say the answers
EDGES = [
    'x!=y', 'a!= b',            # ('!' is no word's character: 19:8)
    '.a = 1', '.a.b = 1',       # (a property stored at the line's start: 87:10)
    '= a = b', '=a', '==a = b',  # (an `=` at the line's start: 115:10)
    'frame!', 'a!frame', 'x = globals_!',    # ('!' starts no name: 20:32)
    '!if (x := frame[1]) is None:', ' !if (x := frame[1]) is None:',   # (53:23)
    'if (x := frame[1]) is Nonx:', 'xf (x := frame[1]) is None:',      # (54:12)
    '!a, b = c', ' !a, b = c',      # (133:23)
    'a. = 1', 'a.=1', 'a.b.= 1',    # (a `.` before no name: 90:11)
    'a, bc', 'x, y',                # (no `=`: 135:11)
    '0x = 1', 'a.0x = 1',           # ('0' starts no name: 20:26)
    'a..b = 1', '..b += 1',         # (a '.' right after a '.': 92:31)
    'a, b! = c', 'a, !b = c',       # (137:28, 138:35)
    'x:=1', '(v:=pop())',           # (a `:=` right after its name: 117:20)
    'a-=1', 'b|=c',                 # (an operator right after its name: 121:21)
    'frame[1x] = a', 'if (v := globals_[2y]) is None:',    # (a slot's whole index: 37:62)
    'x = frame1x', 'x = globals_2_',    # (a digit, then more of the name: 103:64)
]


def test_the_scans_answer_as_their_patterns_on_edges():
    for text in EDGES:
        answers_as_patterns(text)


READ = ['if (value0 := globals_[8]) is None:', "    raise Fault('Undefined value', 0)"]
AGAIN = ['if (value5 := globals_[8]) is None:', "    raise Fault('Undefined value', 5)"]


def _reused(lines):
    return [text for text, _ in reads.reused([(line, k) for k, line in enumerate(lines)])]


def test_a_name_bound_by_as_holds_no_read():
    # (410:6: `with ... as NAME` gives the name another value; the slot keeps its own)
    assert _reused(READ + ['with lock as value0:', '    y = 1'] + AGAIN)[-1] == (
        'value5 = globals_[8]')


def _copied(between, steady=None):
    """The second read of globals_[8] after READ and between's lines."""
    out = [t for t, _ in reads.reused([(x, k) for k, x in enumerate(READ + between + AGAIN)],
                                      steady)]
    return out[len(READ) + len(between):]


SAFE = ('len', 'type', 'int', 'bool', 'iter', 'next', 'map', 'push', 'pop', 'Fault', 'list_prop',
        'cards_of', 'card_choice', 'move', 'deal', 'runtime.multiply', 'runtime.divide', 'if',
        'elif', 'not', 'and', 'or', 'in', 'is', 'return', 'raise', 'else')


def test_a_call_that_stores_nothing_keeps_what_is_known():
    # (_SAFE's strings and _SAFE_METHODS', named here: each stores no global,
    # local or property)
    for name in SAFE:
        assert _copied(['x = %s(value0)' % name]) == ['value5 = value0'], name
        assert _copied(['x = a %s (value0)' % name]) == ['value5 = value0'], name
    for method in ('.append', '.pop', '.insert', '.index', '.isdisjoint', '.bit_length'):
        assert _copied(['x = y%s(1)' % method]) == ['value5 = value0'], method
    # (a filter's call marked: that call alone stores nothing: 304:88)
    assert _copied(['found = A[5](self, value0)  # (no steps)']) == ['value5 = value0']
    assert _copied(['found = A[5](self, A[6](self, value0))  # (no steps)']) == AGAIN
    assert _copied(['found = A[5](self, value0)']) == AGAIN
    # (the others may store: read again)
    for line in ['x = f(value0)', 'x = y.clear(1)', 'x = (f)(1)', 'x = a[1](2)', 'x = intx(1)',
                 'x = y.append_all(1)', 'x = lens(1)', 'x = runtime.multiply2(1)']:
        assert _copied([line]) == AGAIN, line


def _checked(name, expr, part, pad=''):
    return [pad + 'if (%s := %s) is None:' % (name, expr),
            pad + "    raise Fault('Undefined value', %d)" % part]


def test_a_read_is_a_fact_only_where_its_test_raises_and_has_no_else():
    # (its undefined case must fail: a test that goes on, or has an else, proves nothing)
    for after in (['    return 1'], ['    x = 1'], ["    raise Fault('Undefined value', 0)",
                                                     'else:', '    y = 1'],
                  ["    raise Fault('Undefined value', 0)", 'elif z:', '    y = 1']):
        lines = READ[:1] + after + AGAIN
        assert _reused(lines) == lines, after
    # (an elif as the last line: 266:29; what the read would say, the kind of the value read from)
    lines = READ + _checked('value1', 'value0.cards', 1) + ['elif(%s):' % _listed('value0')]
    assert _reused(lines) == lines
    # (a raise indented under another block is not its test's)
    lines = READ[:1] + ["        raise Fault('Undefined value', 0)"] + AGAIN
    assert _reused(lines) == lines
    # (the last line: no raise after it)
    assert _reused(AGAIN[:1]) == AGAIN[:1]
    # nested: its own indent
    inner = ['if n:'] + ['    ' + x for x in READ] + ['    ' + x for x in AGAIN]
    assert _reused(inner) == inner[:3] + ['    value5 = value0']


def test_a_name_read_again_drops_what_it_held():
    # value0 given another slot's value: the first slot is still known defined
    again = _checked('value0', 'globals_[9]', 1)
    assert _copied(again) == ['value5 = globals_[8]']
    # and the name holds the new one (its property: of globals_[9])
    rank = _checked('value6', 'value0.rank', 6)
    out = _reused(READ + _checked('value1', 'value0.rank', 1) + again + rank)
    assert out[-2:] == rank
    # the same name read again from the same slot: nothing to do
    assert _reused(READ + READ) == READ + ['pass']


def test_a_read_of_a_property_is_known_through_every_name_of_its_value():
    first = READ + _checked('value1', 'value0.rank', 1)
    # (a second name for the slot's value: its property is the first read's)
    both = first + ['value7 = globals_[8]'] + _checked('value2', 'value7.rank', 2)
    assert _reused(both)[-1] == 'value2 = value1'
    # another property, or another value's: read
    other = first + _checked('value2', 'value0.suit', 2)
    assert _reused(other) == other
    other = first + _checked('value2', 'value9.rank', 2)
    assert _reused(other) == other
    # the slot's second read is named too: its property is the first's
    again = first + AGAIN + _checked('value6', 'value5.rank', 6) + _checked(
        'value8', 'value0.rank', 8)
    assert _reused(again)[-2:] == ['value6 = value1', 'value8 = value1']


def test_a_read_never_undefined_is_copied_and_its_list_known():
    steady = {'globals_[8]': ' Area', '.rank': ' int'}
    out = [t for t, _ in reads.reused([(x, k) for k, x in enumerate(
        READ + _checked('value1', 'value0.rank', 1) + ['d = %s' % _listed('value0')])], steady)]
    # (steady's kinds: no test, the read itself; an Area's cards its property)
    assert out == ['value0 = globals_[8]', 'value1 = value0.rank', 'd = value0.cards']
    steady = {'globals_[8]': ' Player'}
    out = [t for t, _ in reads.reused([(x, 0) for x in READ + ['d = %s' % _listed('value0')]
                                       + AGAIN], steady)]
    assert out == ['value0 = globals_[8]', 'd = value0.hand', 'value5 = value0']
    out = [t for t, _ in reads.reused([(x, 0) for x in READ + ['d = %s' % _listed('value0')]],
                                      {'globals_[8]': ' list'})]
    assert out == ['value0 = globals_[8]', 'd = value0']
    # (a list's cards are the value itself: the line a copy then, 302:16)
    lines = READ + _checked('value1', 'value0.rank', 1) + ['d = %s' % _listed('value0')] + _checked(
        'value2', 'd.rank', 2)
    out = [t for t, _ in reads.reused([(x, 0) for x in lines], {'globals_[8]': ' list'})]
    assert out[-2:] == ['d = value0', 'value2 = value1']
    # (a kind with no list: tested by type still)
    out = [t for t, _ in reads.reused([(x, 0) for x in READ + ['d = %s' % _listed('value0')]],
                                      {'globals_[8]': ' int'})]
    assert out == ['value0 = globals_[8]', 'd = %s' % _listed('value0')]


def _listed(name):
    """rewrites.inlined's list of cards the value a name holds stands for."""
    return ('(%s.cards if (ct_ := type(%s)) is Area else %s.hand if ct_ is Player else %s '
            'if ct_ is list else cards_of(%s))' % ((name,) * 5))


def test_what_may_change_a_slot_another_way_forgets_every_fact():
    for line in ['while n:', 'f = lambda: 1', 'for x in y:', 'x = frames[0]', 'y = rec',
                 'x = frame', 'g = globals_', 'x = frame[y]', 'frame.append(1)']:
        assert _copied([line]) == AGAIN, line
    # (names that only hold those words, and slots named by their number: no matter)
    for line in ['x = frame[3]', 'y = globals_[2] + frame[1]', 'my_frame = 1', 'frame_ = 2',
                 'x = frame2', 'x = 2frame', 'x = 1']:
        assert _copied([line]) == ['value5 = value0'], line


def test_a_store_to_a_slot_forgets_that_slot_alone():
    for line in ['globals_[8] = x', 'globals_[8] += 1', 'globals_[8] //= 2', 'globals_[8]=x']:
        assert _copied([line]) == AGAIN, line
    for line in ['globals_[9] = x', 'frame[8] = x', 'globals_[80] = x', 'globals_[8] == x',
                 'x = globals_[8]']:
        assert _copied([line]) == ['value5 = value0'], line
    # (a property of a value read from it: forgotten with it)
    first = READ + _checked('value1', 'value0.rank', 1)
    rank = _checked('value6', 'value0.rank', 6)
    assert _reused(first + ['globals_[8] = x'] + rank)[-2:] == rank
    assert _reused(first + ['globals_[9] = x'] + rank)[-1] == 'value6 = value1'


def test_a_name_assigned_forgets_what_it_held():
    for line in ['value0 = 3', 'value0 += 1', 'value0, z = 1, 2', 'z, value0 = 1, 2',
                 'if (value0 := f) is not None:', 'with lock as value0:']:
        assert _copied([line])[-1] == 'value5 = globals_[8]', line
    # (a name given another name's value holds only what that name held: 323:52)
    rank = _checked('value6', 'value0.rank', 6)
    lines = READ + _checked('value1', 'value0.rank', 1) + ['value0 = other'] + rank
    assert _reused(lines)[-2:] == rank
    for line in ['z = value0', 'value0 == 3', 'x.value0 = 3', 'z, y = value0, 1', 'value00 = 1']:
        assert _copied([line]) == ['value5 = value0'], line


def test_comments_and_blank_lines_change_nothing():
    lines = ['if n:'] + ['    ' + x for x in READ] + ['', '# note', '  # deeper',
                                                       '    ' + AGAIN[0], '    ' + AGAIN[1]]
    assert _reused(lines) == lines[:-2] + ['    value5 = value0']


def _indented(lines, pad='    '):
    return [pad + x for x in lines]


def test_a_block_s_facts_end_with_it_and_an_ended_if_leaves_the_facts_before_it():
    # (a read in a block: not known after it, at any depth out)
    for outer in ('', '    '):
        lines = [outer + 'if n:'] + _indented(READ, outer + '    ') + _indented(AGAIN, outer)
        assert _reused(lines) == lines, outer
    deep = ['if n:', '    if m:'] + _indented(READ, '        ') + _indented(AGAIN)
    assert _reused(deep) == deep
    # an if that ends its path, nested: the facts after its test hold after it
    for end in ('return x', 'raise Fault(1)', 'continue', 'break'):
        lines = READ + ['if n:', '    x = f(1)', '    ' + end] + AGAIN
        assert _reused(lines)[-1] == 'value5 = value0', end
        inner = ['if m:'] + _indented(READ + ['if n:', '    x = f(1)', '    ' + end] + AGAIN)
        assert _reused(inner)[-1] == '    value5 = value0', end
    # (inside an if whose test knew something: 216:15)
    inner = READ + ['if m:'] + _indented(['if n:', '    x = f(1)', '    return 1'] + AGAIN)
    assert _reused(inner)[-1] == '    value5 = value0'
    # (its path ended by its last statement only; an elif after it: not)
    for block in (['if n:', '    return x', '    x = f(1)'],
                  ['if n:', '    if m:', '        return x', '    x = f(1)'],
                  ['if n:', '    x = f(1)', '    return x', 'elif m:', '    y = 1']):
        assert _reused(READ + block + AGAIN)[-2:] == AGAIN, block
    # (what the test itself reads is known after the block)
    lines = READ + ['if (value0 := f) is None:', '    return 1'] + AGAIN
    assert _reused(lines)[-1] == 'value5 = globals_[8]'
    # (an ended if inside an ended if: both)
    two = READ + ['if n:', '    x = f(1)', '    if m:', '        y = g(1)', '        return 1',
                  '    return 2'] + AGAIN
    assert _reused(two)[-1] == 'value5 = value0'
    # (the facts before the block: what its body learnt is not kept)
    learnt = ['if n:'] + _indented(READ + ['return 1']) + AGAIN
    assert _reused(learnt) == learnt


def test_an_ended_except_block_gives_back_the_facts_from_before_it():
    for handler in (['except Fault as e:', '    raise'], ['except Fault:', '    return 1'],
                    ['except Exception:', '    x = 1', '    raise']):
        lines = READ + ['try:', '    x = len(value0)'] + handler + AGAIN
        assert _reused(lines)[-1] == 'value5 = value0', handler
    for handler in (['except Fault as e:', '    raise', '    x = 1'],
                    ['except Fault:', '    if n:', '        return 1'],
                    ['except Fault:', '    x = 1'],
                    ['except Fault:', 'return 1']):
        lines = READ + ['try:', '    x = len(value0)'] + handler + AGAIN
        assert _reused(lines)[-2:] == AGAIN, handler
    # (a try is no if: what was known before it is not after its handler: 335:15)
    lines = READ + ['try:', '    x = f(1)', '    return 1', 'except Fault:', '    raise'] + AGAIN
    assert _reused(lines) == lines
    # (a handler's own lines say whether it ends, not the try's last: 402:32)
    lines = READ + ['try:', '    if n:', '        return 1', 'except Fault:', '    x = 1'] + AGAIN
    assert _reused(lines) == lines
    # (inside the handler: nothing known)
    lines = READ + ['try:', '    x = 1', 'except Fault:'] + _indented(AGAIN + ['raise'])
    assert _reused(lines) == lines
    # (a nested try's handler that ends: the facts of the try's body there)
    nested = ['if n:'] + _indented(READ + ['try:', '    x = 1', 'except Fault:', '    raise']
                                   + AGAIN)
    assert _reused(nested)[-1] == '    value5 = value0'


DEFINED = ['if frame[0] is None:', '    return LOUD_RUN(self, rec, 8)']
LOCAL = _checked('value3', 'frame[0]', 3)


def test_a_quiet_test_of_a_local_is_one_only_in_its_exact_form():
    assert _reused(DEFINED + DEFINED) == DEFINED
    assert _reused(DEFINED + LOCAL) == DEFINED + ['value3 = frame[0]']
    # (not a quiet test: its next line another, or indented otherwise, or the last line)
    for second in (['    return LOUD_RUN(self, rec, x)'], ['    return LOUD_RUN(self, rec, 8) '],
                   ['        return LOUD_RUN(self, rec, 8)'], ['    return 1'],
                   ['    x = LOUD_RUN(self, rec, 8)'], []):
        lines = DEFINED[:1] + second + LOCAL
        assert _reused(lines) == lines, second
    assert _reused(LOCAL + DEFINED[:1]) == LOCAL + DEFINED[:1]     # (the last line: 242:18)
    for first in ('if frame[0] is None: ', 'if frame[x] is None:', 'if frame[0] is not None:'):
        lines = [first] + DEFINED[1:] + LOCAL
        assert _reused(lines) == lines, first
    # nested: at its own indent
    inner = ['if n:'] + _indented(DEFINED + DEFINED) + ['x = 1']
    assert _reused(inner) == inner[:3] + ['    pass', 'x = 1']
    # (known: the test left out; a pass where the block would be empty)
    assert _reused(DEFINED + ['if n:'] + _indented(DEFINED) + ['    x = 1']) == DEFINED + [
        'if n:', '    x = 1']
    assert _reused(DEFINED + ['if n:'] + _indented(DEFINED) + ['', '    x = 1']) == DEFINED + [
        'if n:', '', '    x = 1']
    assert _reused(DEFINED + ['if n:'] + _indented(DEFINED)) == DEFINED + ['if n:', '    pass']
    # (another local's test: not known)
    other = [DEFINED[0].replace('[0]', '[1]'), DEFINED[1]]
    assert _reused(DEFINED + other) == DEFINED + other


def test_a_quiet_loop_s_rounds_forget_the_local_they_store_alone():
    rounds = 'if not QUIET_ROUNDS(self, frame, A[1], rest_):  # (it stores %s alone)'
    assert _reused(DEFINED + [rounds % 'frame[0]'] + DEFINED) == DEFINED + [
        rounds % 'frame[0]'] + DEFINED
    assert _reused(DEFINED + [rounds % 'frame[1]'] + DEFINED) == DEFINED + [rounds % 'frame[1]']
    # (a property of a value read from it: forgotten too)
    rank = _checked('value4', 'value3.rank', 4)
    lines = LOCAL + _checked('value1', 'value3.rank', 1) + [rounds % 'frame[0]'] + rank
    assert _reused(lines)[-2:] == rank
    # (not the rounds' line: a call that may store anything)
    lines = DEFINED + [(rounds % 'frame[1]').replace('  #', ' #')] + DEFINED
    assert _reused(lines) == lines


def test_a_quiet_check_s_lines_change_nothing():
    for line in ('env_ = frame + [self]', 'env_[3] = rest_[0]', 'A[3][0](env_)',
                 'A[3][0][1](env_)'):
        assert _reused(DEFINED + [line] + DEFINED) == DEFINED + [line], line
    for line in ('env_ = frame + [other]', 'A[3](env_)',
                 'A[3][0](env_, 1)', 'xenv_ = frame + [self]'):
        lines = DEFINED + [line] + DEFINED
        assert _reused(lines) == lines, line


FILTER = ['try:', '    found = A[5](self, value0, value1)  # (no steps)', 'except Exception:',
          '    found = self.playable(4, value0, value1)']


def test_a_filter_s_fallback_only_in_its_exact_form():
    assert _copied(FILTER) == ['value5 = value0']
    # (its fallback's name assigned: forgotten; in a nested block too)
    assert _copied(FILTER[:3] + ['    value0 = self.playable(4, x)'])[-1] == 'value5 = globals_[8]'
    nested = ['if n:'] + _indented(READ + FILTER + AGAIN)
    assert _reused(nested)[-1] == '    value5 = value0'
    # (the fallback knows what was known: its list of cards read as a property)
    area = READ + _checked('value1', 'value0.cards', 1) + FILTER[:3] + [
        '    found = self.playable(4, %s)' % _listed('value0')]
    assert _reused(area)[-1] == '    found = self.playable(4, value0.cards)'
    # not the fallback: no try before, another call there or after, a longer handler
    for lines in (['x = 1'] + FILTER[1:], [FILTER[0], '    found = f(1)  # (no steps)'] + FILTER[2:],
                  FILTER[:3] + ['    found = self.other(4)'], FILTER + ['    x = f(1)'],
                  FILTER + ['    y = 2'], ['if n:', '    try:', '        x = 1'] + FILTER[2:],
                  FILTER[1:]):
        assert _copied(lines) == AGAIN, lines
    # (each line keeps its unit: 228:75)
    pairs = [(x, k) for k, x in enumerate(READ + FILTER)]
    assert reads.reused(pairs) == pairs
    # (the fallback as the last line, or no line after the handler; a handler at the start)
    assert _reused(FILTER) == FILTER
    assert _reused(READ + FILTER[:3]) == READ + FILTER[:3]
    assert _reused(FILTER[2:] + AGAIN) == FILTER[2:] + AGAIN


def test_the_cards_of_a_value_are_its_property_only_where_nothing_before_them_runs():
    area = READ + _checked('value1', 'value0.cards', 1)
    for before in ('', 'd = ', 'x = f(', 'x = f(a, b, ', 'x = g.f(', 'x = A[3](a, ', '  d = '):
        line = before + _listed('value0')
        assert _reused(area + [line])[-1] == before + 'value0.cards', before
    for before in ('x = y + ', 'x = f(a + b, ', 'x = f(g(a), ', 'd = e = ', '1', 'x = f(a)('):
        line = before + _listed('value0')
        assert _reused(area + [line])[-1] == line, before
    # (the value another name holds, or a name nothing is known of: by type)
    line = 'd = %s' % _listed('value9')
    assert _reused(area + [line])[-1] == line
    # (after the list: as it was)
    line = 'd = %s + %s' % (_listed('value0'), _listed('value0'))
    assert _reused(area + [line])[-1] == 'd = value0.cards + ' + _listed('value0')


def test_a_for_s_local_is_not_known_defined_unless_told():
    # (170:45: items_defined is False unless the caller knows no list holds an undefined value)
    lines = ['for frame[2] in stack[-1]:', '    if frame[2] is None:',
             '        return LOUD_RUN(self, rec, 8)']
    assert _reused(lines) == lines


def test_generated_lines_have_no_trailing_spaces():
    # (reused counts a line's indent as all its spaces, trailing ones too:
    # the answers of 407:11 and others hold for lines without them)
    from tests.test_reads import EDGES, _lines
    lines = set(_lines()) - set(EDGES)
    assert len(lines) > 1000
    assert [t for t in lines if t.strip() and t != t.rstrip()] == []


def test_a_nested_handler_that_ends_gives_back_its_own_facts_first():
    # (220:30: the innermost handler's end is reached first)
    lines = ['try:', '    x = 1', 'except Fault:'] + _indented(
        READ + ['try:', '    y = 2', 'except Fault:', '    raise'] + AGAIN + ['raise'])
    assert _reused(lines)[-2:] == ['    value5 = value0', '    raise']


def test_a_property_stored_forgets_the_properties_known():
    # (310:15, 310:31: the value read from may be the one stored to)
    first = READ + _checked('value1', 'value0.rank', 1)
    rank = _checked('value6', 'value0.rank', 6)
    for line in ('x.suit = 4', 'x.rank += 1', 'self.a.b = 1'):
        assert _reused(first + [line] + rank)[-2:] == rank, line
    for line in ('x.suit == 4', 'x = y.rank', 'x = 4'):
        assert _reused(first + [line] + rank)[-1] == 'value6 = value1', line


def test_a_name_given_a_slot_holds_it_only_where_the_slot_is_known_defined():
    # (329:19: a slot not read yet may hold nothing)
    lines = READ + ['v = globals_[9]'] + _checked('value2', 'globals_[9]', 2)
    assert _reused(lines) == lines
    assert _reused(READ + ['v = globals_[8]'] + _checked('value2', 'v.rank', 2) + _checked(
        'value3', 'value0.rank', 3))[-1] == 'value3 = value2'


def test_a_property_stored_keeps_what_is_known_of_the_slots_and_their_kinds():
    # (312:52: a fact of a slot's value, named or not, stays through a property's store)
    assert _copied(['x.suit = 4']) == ['value5 = value0']
    # (312:68: as does a fact of its kind: its list of cards still read as a property)
    area = READ + _checked('value1', 'value0.cards', 1) + ['x.suit = 4']
    assert _reused(area + ['d = ' + _listed('value0')])[-1] == 'd = value0.cards'


def test_a_slot_stored_or_its_rounds_forget_what_was_known_of_its_old_value_s_properties():
    # (415:4: a fact of a property is about the slot at the root of its key: a
    # read of the slot's new value does not hold the old value's property)
    rank = _checked('value6', 'value5.rank', 6)
    first = READ + _checked('value1', 'value0.rank', 1)
    assert _reused(first + ['globals_[8] = x'] + AGAIN + rank)[-2:] == rank
    rounds = 'if not QUIET_ROUNDS(self, frame, A[1], rest_):  # (it stores frame[0] alone)'
    local = LOCAL + _checked('value1', 'value3.rank', 1) + [rounds] + _checked(
        'value4', 'frame[0]', 4)
    rank = _checked('value6', 'value4.rank', 6)
    assert _reused(local + rank)[-2:] == rank
