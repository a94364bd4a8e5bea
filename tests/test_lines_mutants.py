"""lines.indent_of and lines.block_end, the helpers over generated source's
lines (tools/mutation-results/lines.tsv)."""
from pipvm.engine.lines import block_end, indent_of


def test_indent_of_counts_leading_spaces():
    assert indent_of('x = 1') == 0
    assert indent_of('    x = 1') == 4
    assert indent_of('  if a:  ') == 2
    assert indent_of('') == 0


LINES = ['if a:',             # 0
         '    x = 1',         # 1
         '',                  # 2 (a blank line inside the block)
         '    if b:',         # 3
         '        y = 2',     # 4
         '    z = 3',         # 5
         'w = 4',             # 6
         '    v = 5']         # 7


def test_block_end_is_the_first_line_at_or_above_the_opening_indent():
    assert block_end(LINES, 0) == 6
    assert block_end(LINES, 3) == 5
    assert block_end(LINES, 4) == 5      # (a line that opens nothing: its block is itself)
    assert block_end(LINES, 6) == 8      # (to the end of the lines)
    assert block_end(LINES, 7) == 8
    assert block_end(['if a:', '    x', '', ''], 0) == 4     # (blank lines at the end)
    assert block_end(['if a:', '', 'y'], 0) == 2


def test_block_end_of_pairs_reads_their_texts():
    pairs = [(text, k * 10) for k, text in enumerate(LINES)]
    assert block_end(pairs, 0, pairs=True) == 6
    assert block_end(pairs, 3, pairs=True) == 5
    assert block_end(pairs, 6, True) == 8
    # (the text is the pair's first: a unit standing in for it would be wrong)
    odd = [('if a:', '        deep'), ('    x', ''), ('y', '    deeper')]
    assert block_end(odd, 0, pairs=True) == 2
