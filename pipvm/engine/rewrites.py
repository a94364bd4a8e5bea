"""Rewrites of an action's generated source (pipvm/engine/actions.py)
that keep what it does: each takes and gives text, written from the
table's bodies with the verifier-checked integers in place."""
import re

_TEST = re.compile(r'( *)(if|elif) (-?\d+) (==|!=|<|<=|>|>=) (-?\d+):')
_COMPARE = {'==': int.__eq__, '!=': int.__ne__, '<': int.__lt__, '<=': int.__le__,
            '>': int.__gt__, '>=': int.__ge__}

# The runtime's commonest calls on a local, written out for the case that
# needs no call (the call for the others: it fails as it would, or answers):
# a list's size, first or last item (the operand an integer the verifier
# checked), an Area's cards.
_LIST_PROP = re.compile(r'\blist_prop\(([A-Za-z_]\w*), ([012]), (\d+)\)')
_CARDS_OF = re.compile(r'\bcards_of\(([A-Za-z_]\w*)\)')


def inlined(text):
    """text with the runtime's commonest calls on a local written out."""
    def list_prop(m):
        lst, k = m.group(1), m.group(2)
        if k == '0':
            return 'len(%s)' % lst
        return '(%s[%s] if %s else %s)' % (lst, '0' if k == '1' else '-1', lst, m.group(0))
    text = _LIST_PROP.sub(list_prop, text)
    return _CARDS_OF.sub(lambda m: '(%s.cards if type(%s) is Area else %s)' % (
        m.group(1), m.group(1), m.group(0)), text)


def folded(text):
    """text with each `if`/`elif`/`else` chain whose tests all compare two
    integers (a body's test of an operand the verifier checked: JUMP's
    `if target < pc`, LOAD_BUILTIN's `if b == 0`) replaced by the branch it
    takes, dedented."""
    lines = text.split('\n')
    out, k = [], 0
    while k < len(lines):
        m = _TEST.fullmatch(lines[k])
        if not m or m.group(2) != 'if':
            out.append(lines[k])
            k += 1
            continue
        pad = m.group(1)
        branches, j, plain = [], k, True        # [(taken?, the block's lines)]
        while j < len(lines):
            t = _TEST.fullmatch(lines[j])
            if j == k or (t and t.group(2) == 'elif' and t.group(1) == pad):
                if not t:
                    plain = False
                    break
                taken = _COMPARE[t.group(4)](int(t.group(3)), int(t.group(5)))
            elif lines[j] == pad + 'else:':
                taken = True
            else:
                break
            end = j + 1
            while end < len(lines) and (lines[end].startswith(pad + ' ') or not lines[end].strip()):
                end += 1
            branches.append((taken, lines[j + 1:end]))
            j = end
            if lines[j - len(branches[-1][1]) - 1] == pad + 'else:':
                break
        if not plain or (j < len(lines) and lines[j].startswith(pad + 'elif ')):
            out.append(lines[k])         # (a test of a value: the chain stays)
            k += 1
            continue
        for taken, block in branches:
            if taken:
                cut = min(len(x) - len(x.lstrip()) for x in block if x.strip()) - len(pad)
                out += folded('\n'.join(pad + x[len(pad) + cut:] for x in block)).split('\n')
                break
        k = j
    return '\n'.join(out)


def in_try(lines, k):
    """Does line k stand inside a `try:` of these lines?"""
    indent = len(lines[k]) - len(lines[k].lstrip())
    for line in reversed(lines[:k]):
        n = len(line) - len(line.lstrip())
        if line.strip() and n < indent:
            if line.strip() == 'try:':
                return True
            indent = n
    return False
