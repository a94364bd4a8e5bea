"""pipvm/engine/rewrites.py's edge cases that the examples' actions never
write (tools/mutation-results/rewrites.tsv: the mutants these kill): a pop()
on a line outside the pushes' straight run, and a jump after a `try:`'s
block rather than inside it."""
from pipvm.engine import rewrites


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
