"""Rewrites of an action's generated source (pipvm/engine/actions.py)
that keep what it does: each takes and gives text, written from the
table's bodies with the verifier-checked integers in place."""
import re

from pipvm.engine import reads, sums
from pipvm.engine.bodies import SUIT_IN
from pipvm.isa.operands import DEAL_ALL, DEAL_TO_PLAYERS


_TEST = re.compile(r'( *)(if|elif) (-?\d+) (==|!=|<|<=|>|>=) (-?\d+):')
_COMPARE = {'==': int.__eq__, '!=': int.__ne__, '<': int.__lt__, '<=': int.__le__,
            '>': int.__gt__, '>=': int.__ge__}

# The runtime's commonest calls on a local, written out for the case that
# needs no call (the call for the others: it fails as it would, or answers):
# a list's size, first or last item (the operand an integer the verifier
# checked), an Area's cards, a Player's hand or a card list itself (of a
# local, or of the value popped: bound to cv_ first), an ASK's one question
# enabled or not.
_LIST_PROP = re.compile(r'\blist_prop\(([A-Za-z_]\w*), ([012]), (\d+)\)')
_CARDS_OF = re.compile(r'\bcards_of\(([A-Za-z_]\w*|pop\(\))\)')
_ONE_QUESTION = re.compile(r'\bquestions_enabled\(([A-Za-z_]\w*), 1\)')
# IN's `contains(lst, x)` on a line of its own, for a Suit x (Oh Hell's
# `led in p->hand`), bodies.SUIT_IN (contains' own text) written out: no call.
_CONTAINS = re.compile(r'^( *)(\w+) = contains\(([A-Za-z_]\w*), ([A-Za-z_]\w*)\)$', re.M)
_SUIT_IN = (['if type({x}) is Suit:'] + ['    ' + line for line in SUIT_IN.split('\n')]
            + ['else:', '    {res} = contains({lst}, {x})'])
# A mode operand's bit (an integer the verifier checked) tested: its value.
_MODE_BIT = re.compile(r'\b(\d+) & (DEAL_ALL|DEAL_TO_PLAYERS)\b')
_BITS = {'DEAL_ALL': DEAL_ALL, 'DEAL_TO_PLAYERS': DEAL_TO_PLAYERS}


def inlined(text):
    """text with the runtime's commonest calls on a local written out."""
    def list_prop(m):
        lst, k = m.group(1), m.group(2)
        if k == '0':
            return 'len(%s)' % lst
        return '(%s[%s] if %s else %s)' % (lst, '0' if k == '1' else '-1', lst, m.group(0))

    def cards_of(m):
        value = m.group(1)
        first = value
        if value == 'pop()':
            first, value = '(cv_ := pop())', 'cv_'
        return ('(%s.cards if (ct_ := type(%s)) is Area else %s.hand if ct_ is Player '
                'else %s if ct_ is list else cards_of(%s))' % (value, first, value, value, value))
    # (each pattern tried only on a text that names its call: a scan of
    # the text for a word costs a tenth of the pattern's, at the first game)
    if 'list_prop(' in text:
        text = _LIST_PROP.sub(list_prop, text)
    if ' & DEAL_' in text:
        text = _MODE_BIT.sub(lambda m: str(int(m.group(1)) & _BITS[m.group(2)]), text)
    if 'None if ' in text:
        text = _KNOWN_IF.sub(lambda m: m.group(2) if m.group(1) == '0' else 'None', text)
    if 'push(' in text:
        text = unstacked(text)
    if 'questions_enabled(' in text:
        text = _ONE_QUESTION.sub(lambda m: '(([0], [%s[0]]) if %s[1] else ([], []))' % (
            m.group(1), m.group(1)), text)
    if 'contains(' in text:
        text = _CONTAINS.sub(lambda m: '\n'.join(
            m.group(1) + x.format(res=m.group(2), lst=m.group(3), x=m.group(4))
            for x in _SUIT_IN), text)
    text = sums.written(text)
    return _CARDS_OF.sub(cards_of, text) if 'cards_of(' in text else text


# (DEAL's count, its mode bit folded: `None if 0 else int(pop())`)
_KNOWN_IF = re.compile(r'\bNone if ([01]) else (int\(pop\(\)\))')
_PUSH = re.compile(r'( *)push\(([A-Za-z_]\w*)\)')
_FLAT = re.compile(r'flat = stack\[-2 \* (\d+):\]')
# What may stand between a value's push and its pop: a straight line that
# calls these alone (no call that could read the stack: an answer or a
# callee writes the frame's) and reads no stack but by pop().
_UNSTACKED_CALLS = {'int', 'cards_of', 'pop'}
_CONTROL = ('if ', 'elif ', 'else', 'for ', 'while ', 'try', 'except', 'return', 'raise',
            'continue', 'break', 'with ', 'def ', 'lambda', 'del ')


def unstacked(text):
    """text with a run's values pushed then popped at once by the next
    instruction's body (a stack instruction's operands: DEAL's, ASK's)
    passed in the names that held them: each pop() is the name pushed last
    not yet taken, left to right, on the straight lines up to where none is
    left (an ASK's `flat = stack[-2 * n:]` and its `del` the list of them);
    a push no line takes stays.  Only the run's own lines run between, so
    the stack is the same wherever anything else reads it."""
    lines = text.split('\n')
    out, k = [], 0
    while k < len(lines):
        m = _PUSH.fullmatch(lines[k])
        if not m:
            out.append(lines[k])
            k += 1
            continue
        pad, names, j = m.group(1), [], k
        while j < len(lines) and (p := _PUSH.fullmatch(lines[j])) and p.group(1) == pad:
            names.append(p.group(2))
            j += 1
        body = pad + '    ' if j < len(lines) and lines[j] == pad + 'try:' else pad
        head = lines[k:j] + ([lines[j]] if body != pad else [])
        j += body != pad
        left, taken = list(names), []
        while j < len(lines) and left:
            line = lines[j]
            word = line[len(body):]
            if not line.startswith(body) or word[:1] == ' ':
                break
            flat = _FLAT.fullmatch(word)
            if (flat and j + 1 < len(lines) and lines[j + 1] == body + 'del ' + word[7:]
                    and 0 < 2 * int(flat.group(1)) <= len(left)):
                n = 2 * int(flat.group(1))
                taken.append(body + 'flat = [%s]' % ', '.join(left[-n:]))
                del left[-n:]
                j += 2
                continue
            if (word.startswith(_CONTROL) or 'stack' in word or ' if ' in word
                    or word.count('pop()') > len(left)
                    or any(c not in _UNSTACKED_CALLS for c in reads.callees(word))
                    or reads.assigned(word) & set(names)):
                break
            while 'pop()' in word:
                word = word.replace('pop()', left.pop(), 1)
            taken.append(body + word)
            j += 1
        if not taken:
            out += head
            k += len(head)
            continue
        out += [pad + 'push(%s)' % n for n in left] + head[len(names):] + taken
        k = j
    return '\n'.join(out)


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


def taken(lines):
    """lines ((text, unit) pairs) with a value pushed and at once taken
    back by a quiet loop (`rest_ = pop()`, the next line: actions._Writer.quiet)
    kept in its name."""
    out = []
    for text, unit in lines:
        if out and text.strip() == 'rest_ = pop()':
            m = _PUSHED.fullmatch(out[-1][0])
            if m and m.group(1) == text[:len(text) - len(text.lstrip())]:
                out[-1] = ('%srest_ = %s' % (m.group(1), m.group(2)), unit)
                continue
        out.append((text, unit))
    return out


_PUSHED = re.compile(r'( *)push\((\w+)\)')


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

