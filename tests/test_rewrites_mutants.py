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
