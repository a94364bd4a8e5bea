"""Helpers over the lines of generated Python source (an action's
function, a callee written in, a run's text): where a block ends, how
deep a line stands."""


def indent_of(text):
    """How many spaces text (a line) stands in by."""
    return len(text) - len(text.lstrip())


def block_end(lines, k, pairs=False):
    """The index of the first line after the block that line k opens
    (lines: texts, or with pairs (text, unit) pairs, as reads.reused's)."""
    text = (lambda j: lines[j][0]) if pairs else lines.__getitem__
    indent, end = indent_of(text(k)), k + 1
    while end < len(lines) and (not text(end).strip() or indent_of(text(end)) > indent):
        end += 1
    return end
