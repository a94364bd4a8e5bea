"""ADD's, SUB's and MUL's bodies in generated source (`int(a) + b`,
`runtime.multiply(int(a), b)`) written out for a Number a: no call to
int(), nor to multiply while the product is in range.  A Number, a Rank
and a Boolean are ints (int's subclasses, their arithmetic int's, which
makes a Number): int() changes nothing there.  int() of anything else
fails, and an out-of-range product fails, as before: those take the call.

The compiled tier's actions (rewrites.inlined) and regions (regions.make)
both rewrite with it; regions are made while a game runs, so this is
finds and splits, no patterns to compile (their import cost more than a
region saves in a short game: local_names).  Only names are moved: a is a
whole name, b a name or a name with a subscript of digits (`consts[3]`),
the text of each from a body of the table or a verified integer.
"""
from pipvm.core.runtime import LARGEST
from pipvm.engine.local_names import _in_word     # (a name's characters: one definition)

_SUM = '({a} {op} {b} if isinstance({a}, int) else int({a}) {op} {b})'
_PRODUCT = ('(m_ if isinstance({a}, int) and %d <= (m_ := {a} * {b}) <= %d '
            'else runtime.multiply(int({a}), {b}))' % (-LARGEST - 1, LARGEST))
_MULTIPLY = 'runtime.multiply('


def written(text):
    """text with each sum, difference and product of a Number written out."""
    if 'int(' not in text:
        return text
    out, at = [], 0
    start = text.find('int(')
    while start >= 0:
        a_end = _name_end(text, start + 4)
        a = text[start + 4:a_end]
        done = None
        if a and text.startswith(')', a_end):      # (either form's text before: no name's end)
            if text.endswith(_MULTIPLY, 0, start) and text.startswith(', ', a_end + 1):
                b_end = _name_end(text, a_end + 3, subscript=True)
                if b_end > a_end + 3 and text.startswith(')', b_end):
                    begin, done = start - len(_MULTIPLY), b_end + 1
                    new = _PRODUCT.format(a=a, b=text[a_end + 3:b_end])
            elif (text[start - 1:start] == '(' or text.endswith('= ', 0, start)) and \
                    text[a_end + 1:a_end + 4] in (' + ', ' - '):
                b_end = _name_end(text, a_end + 4, subscript=True)
                if b_end > a_end + 4 and text[b_end:b_end + 1] in (')', ',', '\n', ''):
                    begin, done = start, b_end
                    new = _SUM.format(a=a, op=text[a_end + 2], b=text[a_end + 4:b_end])
        if done is not None:
            out += [text[at:begin], new]
            at = done
        start = text.find('int(', max(start + 1, at))
    return ''.join(out) + text[at:]


def _name_end(text, at, subscript=False):
    """Where the name that starts at at ends (with a subscript of digits
    after it, if subscript): at itself where no name starts there."""
    end = at
    if end < len(text) and (text[end].isalpha() or text[end] == '_'):
        while end < len(text) and _in_word(text[end]):
            end += 1
        close = text.find(']', end)
        if subscript and text.startswith('[', end) and close > end + 1 and \
                text[end + 1:close].isdigit():
            end = close + 1
    return end

