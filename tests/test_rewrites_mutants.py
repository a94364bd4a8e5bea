"""pipvm/engine/rewrites.py's edge cases that the examples' actions never
write (tools/mutation-results/rewrites.tsv: the mutants these kill): a pop()
on a line outside the pushes' straight run, and a jump after a `try:`'s
block rather than inside it; and each template, comparison, control word
and stop of inlined, unstacked, folded and taken written out, where the
sweep's texts give a mutant the same text as the real code (a chain at an
indent, two pops on a line, an ASK's flat list last)."""
import pytest

from pipvm.engine import rewrites
from tests.util import stopped_after


class Endless(Exception):
    """A rewrite that has not answered in seconds: it loops (a mutant's
    scan that stops advancing), failed here rather than left to hang."""


@pytest.fixture(autouse=True)
def _no_endless_loop():
    with stopped_after(5, Endless):
        yield


def test_a_pop_on_a_deeper_or_shallower_line_than_the_pushes_is_left_to_the_stack():
    # the straight lines are those at the pushes' own indent (or inside the
    # `try:` that follows them): a deeper line is another block's, a
    # shallower one is past the block the pushes stand in
    for text in ['push(value1)\n    x = pop()',
                 'push(value1)\ntry:\n        x = pop()',
                 '    push(value1)\nx = pop()',
                 '    push(value1)\n    try:\n    x = pop()',
                 'if n:\n    push(value1)\ny = pop()']:
        assert rewrites.unstacked(text) == text, text
    # (at the pushes' indent the pop takes the name)
    assert rewrites.unstacked('push(value1)\nx = pop()') == 'x = value1'


def test_a_line_after_a_try_s_block_is_not_inside_it():
    lines = ['try:', '    a = 1', 'pc = 5', 'continue']
    assert not rewrites.in_try(lines, 2)
    assert rewrites.in_try(lines, 1)
    nested = ['try:', '    if n:', '        a = 1', '    pc = 5', 'b = 2', 'pc = 6']
    assert rewrites.in_try(nested, 2) and rewrites.in_try(nested, 3)
    assert not rewrites.in_try(nested, 5)
    # (a jump after an `if` at its own indent, inside no `try:`)
    assert not rewrites.in_try(['if n:', '    a = 1', 'pc = 5'], 2)


def test_each_comparison_of_two_integers_is_folded_to_the_branch_it_takes():
    import operator
    ops = {'==': operator.eq, '!=': operator.ne, '<': operator.lt, '<=': operator.le,
           '>': operator.gt, '>=': operator.ge}
    for op, f in ops.items():
        for a, b in ((1, 2), (2, 2), (3, 2), (-1, -2)):
            text = 'if %d %s %d:\n    x()\nelse:\n    y()\nz()' % (a, op, b)
            assert rewrites.folded(text) == ('x()' if f(a, b) else 'y()') + '\nz()', text


def test_a_control_line_ends_the_pushes_straight_run():
    # (a line that opens or leaves a block: its pop() may run elsewhere or never)
    for line in ['if pop():', 'elif pop():', 'else: x = pop()', 'for x in pop():',
                 'while pop():', 'try: x = pop()', 'except pop():', 'return pop()',
                 'raise pop()', 'continue  # pop()', 'break  # pop()', 'with pop():',
                 'def g: x = pop()', 'lambda: pop()', 'del pop()']:
        text = 'push(value1)\n' + line
        assert rewrites.unstacked(text) == text, line
    # (a plain line takes the name)
    assert rewrites.unstacked('push(value1)\nx = pop()') == 'x = value1'


def test_an_asks_flat_list_is_taken_only_with_its_del_and_a_pair_or_more():
    # (the `flat` line last of all has no `del` after it; a count of 0 pairs
    # takes no names: stack[-0:] would be the whole stack)
    for text in ['push(a)\npush(b)\nflat = stack[-2 * 1:]',
                 'push(a)\npush(b)\nflat = stack[-2 * 0:]\ndel stack[-2 * 0:]']:
        assert rewrites.unstacked(text) == text, text
    assert rewrites.unstacked('push(a)\npush(b)\nflat = stack[-2 * 1:]\ndel stack[-2 * 1:]'
                              '\nx = 1') == 'flat = [a, b]\nx = 1'


def test_a_chain_inside_a_block_is_folded_at_its_own_indent():
    # (the taken block dedented by its own depth below the chain's `if`)
    assert rewrites.folded('x()\n    if 1 == 1:\n        a()\n        if 2 > 1:\n'
                           '            c()\n    b()') == 'x()\n    a()\n    c()\n    b()'


def test_two_pops_on_a_line_take_two_names_and_no_more_than_were_pushed():
    # (left to right: the name pushed last first; a line popping more than
    # the run pushed stays, with its pushes)
    assert rewrites.unstacked('push(a)\npush(b)\nx = int(pop()) + int(pop())') == (
        'x = int(b) + int(a)')
    text = 'push(a)\nx = int(pop()) + int(pop())'
    assert rewrites.unstacked(text) == text
    # (an ASK's flat list with its `del` the text's last line)
    assert rewrites.unstacked('push(a)\npush(b)\nflat = stack[-2 * 1:]\n'
                              'del stack[-2 * 1:]') == 'flat = [a, b]'


def test_inlined_writes_each_call_out_as_its_template_says():
    # (each on a text of its own, then all in one text: a pattern is tried
    # only on a text that names its call)
    cases = [
        ('x = list_prop(v, 0, 2)', 'x = len(v)'),
        ('x = list_prop(v, 1, 2)', 'x = (v[0] if v else list_prop(v, 1, 2))'),
        ('x = list_prop(v, 2, 9)', 'x = (v[-1] if v else list_prop(v, 2, 9))'),
        ('x = list_prop(v, 3, 2)', 'x = list_prop(v, 3, 2)'),
        ('n = 3 & DEAL_ALL', 'n = 1'), ('m = 3 & DEAL_TO_PLAYERS', 'm = 2'),
        ('k = 1 & DEAL_TO_PLAYERS', 'k = 0'),
        ('count = None if 0 else int(pop())', 'count = int(pop())'),
        ('count = None if 1 else int(pop())', 'count = None'),
        ('q = questions_enabled(opts, 1)', 'q = (([0], [opts[0]]) if opts[1] else ([], []))'),
        ('q = questions_enabled(opts, 2)', 'q = questions_enabled(opts, 2)'),
        ('    found = contains(hand, led)',
         '    if type(led) is Suit:\n        found = False\n        for item_ in hand:\n'
         '            if (item_.suit is led) if type(item_) is Card else item_ == led:\n'
         '                found = True\n                break\n    else:\n'
         '        found = contains(hand, led)'),
        ('found = contains(hand, led) or 1', 'found = contains(hand, led) or 1'),
        ('x = int(a) + b', 'x = (a + b if isinstance(a, int) else int(a) + b)'),
        ('f(int(a) - b[2], 1)', 'f((a - b[2] if isinstance(a, int) else int(a) - b[2]), 1)'),
        ('x = int(a) + b + c', 'x = int(a) + b + c'), ('x = int(a) * b', 'x = int(a) * b'),
        ('to = cards_of(dest)', 'to = (dest.cards if (ct_ := type(dest)) is Area else dest.hand'
         ' if ct_ is Player else dest if ct_ is list else cards_of(dest))'),
        ('src = cards_of(pop())', 'src = (cv_.cards if (ct_ := type((cv_ := pop()))) is Area'
         ' else cv_.hand if ct_ is Player else cv_ if ct_ is list else cards_of(cv_))'),
        ('push(v)\nx = int(pop())', 'x = int(v)')]
    for text, want in cases:
        assert rewrites.inlined(text) == want, text
    assert rewrites.inlined('\n'.join(t for t, _ in cases)) == '\n'.join(w for _, w in cases)


def test_the_pushes_pass_through_a_try_and_those_left_stay_pushed():
    assert rewrites.unstacked('push(a)\ntry:\n    x = pop()\nexcept E:\n    pass') == (
        'try:\n    x = a\nexcept E:\n    pass')
    assert rewrites.unstacked('  push(a)\n  push(b)\n  x = int(pop())') == (
        '  push(a)\n  x = int(b)')
    assert rewrites.unstacked('push(v)\nx = cards_of(pop())') == 'x = cards_of(v)'


def test_a_quiet_loops_pop_takes_the_value_pushed_just_before_at_its_indent():
    assert rewrites.taken([('  push(v)', 1), ('  rest_ = pop()', 2)]) == [('  rest_ = v', 2)]
    kept = [('push(v)', 1), ('  rest_ = pop()', 2)]
    assert rewrites.taken(kept) == kept
    assert rewrites.taken([('x = 1', 1), ('rest_ = pop()', 2)]) == [('x = 1', 1),
                                                                   ('rest_ = pop()', 2)]


def test_a_try_before_an_enclosing_block_holds_no_line_of_it():
    lines = ['    try:', '        a = 1', '    except E:', '        pass', '    if n:',
             '        pc = 5']
    assert not rewrites.in_try(lines, 5)
    assert rewrites.in_try(lines, 1)


def test_a_line_reading_the_stack_or_testing_a_pop_ends_the_run():
    # (a read of `stack` sees what the pushes left; a pop() in a conditional
    # may not run; one name cannot be an ASK's pair)
    for text in ['push(a)\nx = stack[-1]\ny = int(pop())', 'push(v)\nx = 1 if pop() else 2',
                 'push(a)\nflat = stack[-2 * 1:]\ndel stack[-2 * 1:]']:
        assert rewrites.unstacked(text) == text, text


def test_a_chain_takes_only_its_own_elifs_and_stays_before_one_it_cannot_fold():
    for text, want in [('if 1 == 1:\n    a()\nif 2 == 2:\n    b()', 'a()\nb()'),
                       ('if 1 == 2:\n    a()\nelif 1 == 1:\n    b()\nelse:\n    c()', 'b()'),
                       ('if 1 == 2:\n    a()\nelif 1 == 2:\n    b()\nelse:\n    c()', 'c()'),
                       ('if 1 == 1:\n    if 2 == 3:\n        a()\n    elif 3 == 3:\n'
                        '        d()\nelif 2 == 2:\n    c()', 'd()'),
                       ('if 1 == 2:\n    a()\nelif x:\n    b()', None)]:
        assert rewrites.folded(text) == (text if want is None else want), text
    # (in_try's answer is a bool)
    assert rewrites.in_try(['a = 1', 'pc = 5'], 1) is False


def test_pushes_last_in_the_text_stay():
    for text in ['x = 1\npush(a)', 'push(a)\npush(b)']:
        assert rewrites.unstacked(text) == text, text
