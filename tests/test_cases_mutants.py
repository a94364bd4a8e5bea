"""What pipvm/engine/cases.py does that the regenerated module
(tests/test_cases.py) and the tiers' sweeps do not show: the mutants of
tools/mutation-results/cases.tsv that lived through its SUITE."""
from types import SimpleNamespace

import pytest

from pipvm.engine import cases
from pipvm.isa import opcodes


def test_a_body_that_uses_the_stack_makes_no_closure():
    # a closure has no stack: DEAL's POP()s may not be written into one
    with pytest.raises(ValueError, match='^DEAL uses the stack: no closure$'):
        cases.compose(opcodes.BY_NAME['DEAL'], cases.CONTEXTS['closure'], ['o0'],
                      ['f0', 'f1', 'f2'])


def _after(text):
    """What text leaves (its locals and the stack) run on a stack [1, 2, 3],
    with a counter's next, a game's emit and playable that count their calls."""
    stack, calls = [1, 2, 3], []

    class Game:
        def emit(self, x):
            calls.append(x)
            return len(calls)

    def playable(x):
        calls.append(x)
        return len(calls)
    space = {'stack': stack, 'push': stack.append, 'pop': stack.pop, 'PUSH': stack.append,
             'POP': stack.pop, 'it': iter(range(10)), 'game': Game(), 'playable': playable}
    exec(text, space)
    return space['b'], stack, calls


@pytest.mark.parametrize('text', [
    'a = pop()\nb = (stack[-1], a)',            # a statement that reads the stack
    'a = pop()\nb = pop() - a',                 # ... pops it
    'a = pop()\nb = (push(9), a)',              # ... pushes
    'a = pop()\nb = (POP(), a)',                # (a body's own words)
    'a = pop()\nb = (PUSH(9), a)',
    'a = next(it)\nb = (next(it), a)',          # a call that changes what the next reads
    'a = playable(1)\nb = (playable(2), a)',
    'a = game.emit(1)\nb = (game.emit(2), a)',
])
def test_forward_moves_no_value_past_what_its_reading_changes(text):
    # forward keeps a pop (a next, a game's call) before a statement it would reorder
    assert cases.forward(text) == text
    assert _after(cases.forward(text)) == _after(text)


def test_forward_moves_a_pop_into_a_statement_that_does_not_touch_the_stack():
    # ... and still moves it where nothing else reads the stack
    text = 'a = pop()\nb = (a, 4)'
    assert cases.forward(text) == 'b = (pop(), 4)'
    assert _after(cases.forward(text)) == _after(text)


@pytest.mark.parametrize('text', [
    'x = f(a != b) + 1\ny = x * 2',             # a comparison inside a call's brackets
    'x = (a!=b) + 1\ny = x * 2',                # ... inside parentheses, unspaced
])
def test_forward_parenthesizes_a_value_that_is_no_atom(text):
    # _atom counts brackets only: a `!` is neither an opening nor a closing one
    forwarded = cases.forward(text)
    assert forwarded.count('\n') == 0 and '(x)' not in forwarded

    def y(code):
        space = {'a': 1, 'b': 2, 'f': lambda v: int(v)}
        exec(code, space)
        return space['y']
    assert y(forwarded) == y(text)


def test_forward_of_a_text_that_ends_in_comments():
    # the comments a candidate is followed by may run to the text's end
    text = 'x = a\na = 1\n# end of body'
    assert cases.forward(text) == text


def test_substitute_finds_each_name_on_its_own_line():
    # a name's row and column count from the text's start, a leading newline too
    text = '\nx = a\n  y = (a, b)  # a\nz = "a"'
    assert cases.substitute(text, {'a': 'stack[-1]', 'y': 'y0'}) == (
        '\nx = stack[-1]\n  y0 = (stack[-1], b)  # a\nz = "a"')


def test_forward_looks_past_comments_for_the_next_statement():
    # a `# body:` block's comments between a value and its one use
    assert cases.forward('a = pop()\n# body: X\nb = (a, 2)') == '# body: X\nb = (pop(), 2)'


def test_a_closure_returns_the_last_value_its_parts_leave():
    # two constants in a closure: the value it returns is the second's
    const = opcodes.BY_NAME['CONST']
    text = cases.compose(SimpleNamespace(parts=(const, const)), cases.CONTEXTS['closure'],
                         ['o0', 'o1'], [])
    space = {'m': 0, 'o0': 0, 'o1': 1}
    exec('def f(env):\n    ' + text.replace('\n', '\n    '), space)
    assert space['f']([SimpleNamespace(consts=['first', 'second'])]) == 'second'


def test_a_body_may_not_jump_where_nothing_can_whatever_its_name():
    # the closure's error names the macro and says no more
    with pytest.raises(ValueError, match='^JUMP in a context that has none$'):
        cases.compose(opcodes.BY_NAME['JUMP_IF_FALSE'], cases.CONTEXTS['closure'], ['t'], ['f0'])


# The stack instructions without operands whose values are plain ints and
# Booleans: any run of them composed as one block must leave the stack the
# loop's handlers leave, one instruction after another.
_PURE = ('POP', 'DUP', 'SWAP', 'ADD', 'SUB', 'MUL', 'EQ', 'NE', 'LT', 'LE', 'GT', 'GE',
         'NOT', 'ACE_HIGH')


def _composed_run(names, stack):
    """stack after the run of names composed as one block (the handler context)."""
    from pipvm.engine import generated_cases
    parts = tuple(opcodes.BY_NAME[n] for n in names)
    text = cases.compose(SimpleNamespace(parts=parts), cases.CONTEXTS['handler'], [],
                         forwarded=False)
    space = dict(vars(generated_cases))
    exec('def block(self, stack, frame, arg):\n    ' + text.replace('\n', '\n    '), space)
    space['block'](None, stack, [], None)
    return stack, text


def _handled_run(names, stack):
    from pipvm.engine import generated_cases
    for n in names:
        generated_cases.HANDLERS[opcodes.BY_NAME[n].code](None, stack, [], None)
    return stack


@pytest.mark.parametrize('names', [
    ('NOT', 'ADD'), ('NOT', 'SUB'), ('ACE_HIGH', 'LT'), ('NOT', 'NOT', 'ADD'),
    ('DUP', 'NOT', 'ADD'), ('NOT', 'POP'), ('NOT', 'ADD', 'NOT'), ('SWAP', 'NOT', 'SUB')])
def test_a_peeked_slot_is_popped_when_the_next_part_reads_below_it(names):
    # compose reads a part's last input in place (stack[-1]) and writes its
    # output there; a next part that also reads deeper must pop that slot first
    stack = [7, 5, 0, 1]
    composed, text = _composed_run(names, list(stack))
    assert composed == _handled_run(names, list(stack)), text


def test_any_run_of_stack_instructions_composes_as_the_loop_runs_it():
    from hypothesis import given, settings, strategies as st

    @settings(max_examples=300, deadline=None, derandomize=True)
    @given(st.lists(st.sampled_from(_PURE), min_size=2, max_size=6),
           st.lists(st.integers(-3, 14), min_size=8, max_size=8))
    def check(names, values):
        composed, text = _composed_run(names, list(values))
        assert composed == _handled_run(names, list(values)), text
    check()
