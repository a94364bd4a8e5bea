"""sizes.sized at the edges its mutants moved (tools/mutation-results/sizes.tsv):
which line a division stands on, and text it cannot parse."""
from pipvm.engine import sizes

SIZE = 'value2 = len(value1)\n'
DIVIDE = 'runtime.divide(int(value2), int(value2))'
WRITTEN = '(value2 // value2 if value2 else runtime.divide(value2, value2))'


def test_a_division_at_the_start_of_its_line_is_on_that_line():
    # (the line found for it is the one starting where it starts)
    assert sizes.sized(SIZE + DIVIDE) == SIZE + WRITTEN


def test_a_division_on_the_line_after_its_size_with_lines_below():
    # (the line is found counting down from the last: every line, not every other)
    text = SIZE + 'res = ' + DIVIDE + '\nx = 1'
    assert sizes.sized(text) == SIZE + 'res = ' + WRITTEN + '\nx = 1'
    for below in range(2, 5):
        text = SIZE + 'res = ' + DIVIDE + '\nx = 1' * below
        assert sizes.sized(text) == SIZE + 'res = ' + WRITTEN + '\nx = 1' * below


def test_a_size_set_on_the_line_of_the_division_keeps_it():
    text = SIZE + 'value4 = len(value3); res = runtime.divide(int(value2), int(value4))\nz = 1'
    assert sizes.sized(text) == text


def test_text_that_does_not_parse_is_kept_even_with_a_division():
    text = SIZE + 'x = (' + DIVIDE
    assert sizes.sized(text) == text


def test_a_division_at_the_very_start_of_the_text_is_on_line_1():
    # (line 1 starts at 0: nothing before it set a size, so it stays)
    assert sizes.sized(DIVIDE) == DIVIDE
    assert sizes.sized(DIVIDE + '\n' + SIZE) == DIVIDE + '\n' + SIZE
