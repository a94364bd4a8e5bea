"""Rewrites of an action's generated source (pipvm/engine/actions.py)
that keep what it does: each takes and gives text, written from the
table's bodies with the verifier-checked integers in place."""
import re

from pipvm.isa.operands import DEAL_ALL, DEAL_TO_PLAYERS

_TEST = re.compile(r'( *)(if|elif) (-?\d+) (==|!=|<|<=|>|>=) (-?\d+):')
_COMPARE = {'==': int.__eq__, '!=': int.__ne__, '<': int.__lt__, '<=': int.__le__,
            '>': int.__gt__, '>=': int.__ge__}

# The runtime's commonest calls on a local, written out for the case that
# needs no call (the call for the others: it fails as it would, or answers):
# a list's size, first or last item (the operand an integer the verifier
# checked), an Area's cards or a Player's hand (of a local, or of the value
# popped: bound to cv_ first), an ASK's one question enabled or not.
_LIST_PROP = re.compile(r'\blist_prop\(([A-Za-z_]\w*), ([012]), (\d+)\)')
_CARDS_OF = re.compile(r'\bcards_of\(([A-Za-z_]\w*|pop\(\))\)')
_ONE_QUESTION = re.compile(r'\bquestions_enabled\(([A-Za-z_]\w*), 1\)')
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
                'else cards_of(%s))' % (value, first, value, value))
    text = _LIST_PROP.sub(list_prop, text)
    text = _MODE_BIT.sub(lambda m: str(int(m.group(1)) & _BITS[m.group(2)]), text)
    text = _KNOWN_IF.sub(lambda m: m.group(2) if m.group(1) == '0' else 'None', text)
    text = unstacked(text)
    text = _ONE_QUESTION.sub(lambda m: '(([0], [%s[0]]) if %s[1] else ([], []))' % (
        m.group(1), m.group(1)), text)
    return _CARDS_OF.sub(cards_of, text)


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
                    or any(c not in _UNSTACKED_CALLS for c in _CALL.findall(word))
                    or set(_ASSIGNED.findall(word)) & set(names)):
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


# A checked read of a global, a local or a property of one: the value
# named, then its undefined-value test (the next line raises its Fault).
_CHECKED = re.compile(r'( *)if \((\w+) := (globals_\[\d+\]|frame\[\d+\]|(\w+)\.(\w+))\) is None:')
# `=`, an augmented assignment's operator and `=`, not `==` (with `:?` a walrus too)
_STORE = r'\s*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?'
_ASSIGNED = re.compile(r'(?<![\w.])([A-Za-z_]\w*)' + _STORE + r':?=(?!=)')
_TUPLE = re.compile(r' *([A-Za-z_]\w*(?:, *[A-Za-z_]\w*)+) *=(?!=)')
_CALL = re.compile(r'([\w.]+|[\])])\s*\(')      # (a callee, or `]`/`)`: one not named)
_SLOTS = re.compile(r'\b(globals_|frame)\b(?!\[\d+\])')
# Calls that cannot write a global, a local of the frame or a property (the
# runtime's reads, a list's own methods, cards moved between lists), and
# the words a parenthesis follows that are no call.
_SAFE = {'len', 'type', 'int', 'bool', 'iter', 'next', 'map', 'push', 'pop', 'Fault',
         'list_prop', 'cards_of', 'card_choice', 'move', 'deal', 'if', 'elif', 'not', 'and',
         'or', 'in', 'is', 'return', 'raise', 'else'}
_SAFE_METHODS = ('.append', '.pop', '.insert', '.index', '.isdisjoint', '.bit_length')


def reused(lines):
    """lines ((text, unit) pairs of a function's body) with a checked read
    of a global, a frame's local or a property of one made a copy of a
    name that holds it where an earlier checked read on every path to it
    (a line above it in its own block or an enclosing one) got it and
    nothing since can have changed it: no store to it, no call that could
    store (any but _SAFE's), no loop between.  The value is defined there,
    so its test could not fail: Faults and steps are as before.  A slot
    read so, or tested defined by a quiet instruction's DEFINED_LOCAL
    (whose undefined case returns to the loud code), holds a defined value
    itself: a quiet test of it again is left out.  A line that ends its
    path (`return`, `raise`, `continue`, `break`) changes nothing for the
    lines after it, which other paths reach; a quiet check's closures only
    read a copy of the frame; an `except` block starts knowing nothing, and
    one that ends its path leaves what was known before it."""
    out = []
    # (name, what it holds: 'globals_[8]' or ('globals_[8]', 'rank'), its line's indent)
    facts = []
    after = None            # (the line where an except block that ends its path ends, the facts before it)
    k = 0
    while k < len(lines):
        text, unit = lines[k]
        word = text.strip()
        indent = len(text) - len(word)
        if not word or word.startswith('#'):
            out.append(lines[k])
            k += 1
            continue
        if after is not None and k >= after[0]:
            facts, after = after[1], None
        if facts:
            facts = [f for f in facts if f[2] <= indent]        # (its block ended)
        if word.startswith('except') and word.endswith(':'):
            end = _block_end(lines, k, indent)
            if after is None and _ends_path(lines, k, end, indent):
                after = (end, facts)
            facts = []
            out.append(lines[k])
            k += 1
            continue
        d = _DEFINED.fullmatch(text)
        if (d and k + 2 < len(lines) and lines[k + 1][0] == d.group(1) + 'if not defined:'
                and _LOUD.fullmatch(lines[k + 2][0][len(d.group(1)) + 4:])
                and lines[k + 2][0].startswith(d.group(1) + '    r')):
            if any(key == d.group(2) for _, key, _ in facts):
                # (defined already: its undefined case cannot happen)
                nxt = next((t for t, _ in lines[k + 3:] if t.strip()), '')
                if len(nxt) - len(nxt.lstrip()) != indent:
                    out.append((d.group(1) + 'pass', unit))
            else:
                out += lines[k:k + 3]
                facts.append((d.group(2), d.group(2), indent))
            k += 3
            continue
        if word.startswith(_ENDS_PATH) or _QUIET_CHECK.fullmatch(word):
            out.append(lines[k])
            k += 1
            continue
        rounds = _ROUNDS.fullmatch(word)
        if rounds:          # (a quiet loop's rounds: they store its local alone)
            facts = [f for f in facts if _root(f[1]) != rounds.group(1)]
            out.append(lines[k])
            k += 1
            continue
        m = _CHECKED.fullmatch(text) if word.startswith('if (') else None
        if (m and k + 1 < len(lines) and lines[k + 1][0].startswith(m.group(1) + '    raise Fault(')
                and not (k + 2 < len(lines) and lines[k + 2][0].startswith(
                    (m.group(1) + 'else', m.group(1) + 'elif')))):
            name = m.group(2)
            if m.group(4):          # a property of a value a name holds
                keys = [(key, m.group(5)) for n, key, _ in facts if n == m.group(4)]
            else:
                keys = [m.group(3)]
            known = [n for n, key, _ in facts if key in keys]
            if name not in known:
                facts = [f for f in facts if f[0] != name]
            if name in known:
                out.append((m.group(1) + 'pass', unit))     # (it holds it already)
            elif known:
                out.append((m.group(1) + '%s = %s' % (name, known[0]), unit))
            else:
                out += lines[k:k + 2]
            facts += [(name, key, indent) for key in keys]
            if not m.group(4) and not any(n == m.group(3) for n, _, _ in facts):
                facts.append((m.group(3), m.group(3), indent))   # (the slot holds it too)
            k += 2
            continue
        if word.startswith(('for ', 'while ')) or 'lambda' in word:
            facts = []
        elif facts or '=' in word:      # (else nothing known, and nothing made known)
            if '(' in word and any(c in ')]' or (c not in _SAFE and not c.endswith(_SAFE_METHODS))
                                   for c in _CALL.findall(word)):
                facts = []
            if _SLOTS.search(word) or 'frames[' in word or 'rec' in word:
                facts = []      # (a slot by another way: rec[3] is the frame)
            if _SET_PROPERTY.search(word):
                facts = [f for f in facts if type(f[1]) is str]
            slot = _SLOT_STORE.match(word)
            if slot:
                facts = [f for f in facts if _root(f[1]) != slot.group(1)]
            names = set(_ASSIGNED.findall(word)) if '=' in word else set()
            if ' as ' in word:
                names |= set(_AS.findall(word))
            t = _TUPLE.match(text)
            if t:
                names |= {x.strip() for x in t.group(1).split(',')}
            copy = _COPY.fullmatch(word)
            # (a name, or a slot, given a name that holds a defined value)
            copied = [key for n, key, _ in facts if copy and n == copy.group(2)]
            facts = [f for f in facts if f[0] not in names]
            if copied and copy.group(1).isidentifier():
                facts += [(copy.group(1), key, indent) for key in copied]
            elif copied:
                facts.append((copy.group(2), copy.group(1), indent))
        out.append(lines[k])
        k += 1
    return out


# A quiet instruction's test that a local its messages show is defined
# (DEFINED_LOCAL's body), the loud code going on where it is not.
_DEFINED = re.compile(r'( *)defined = (frame\[\d+\]) is not None')
_LOUD = re.compile(r'return LOUD_RUN\(self, rec, \d+\)')
_ENDS_PATH = ('return', 'raise', 'continue', 'break')
# A quiet check (actions._Writer.quiet): its closures read a copy of the frame
# (pure expressions: checks.operand_check), and fail or not.
_ROUNDS = re.compile(r'if not QUIET_ROUNDS\(self, frame, A\[\d+\], rest_\):'
                     r'  # \(it stores (frame\[\d+\]) alone\)')
_QUIET_CHECK = re.compile(r'env_ = frame \+ \[self\]|env_\[\d+\] = rest_\[0\]'
                          r'|A\[\d+\](?:\[\d+\])+\(env_\)')


def _block_end(lines, k, indent):
    """The index of the first line after the block that line k opens."""
    end = k + 1
    while end < len(lines) and (not lines[end][0].strip()
                                or len(lines[end][0]) - len(lines[end][0].lstrip()) > indent):
        end += 1
    return end


def _ends_path(lines, k, end, indent):
    """Does the block of lines k+1..end-1 end every path through it (its
    last statement at its own indentation a return, raise, continue or
    break)?"""
    body = [t for t, _ in lines[k + 1:end] if t.strip()]
    if not body:
        return False
    inner = len(body[0]) - len(body[0].lstrip())
    last = [t for t in body if len(t) - len(t.lstrip()) == inner][-1].strip()
    return inner > indent and last.startswith(_ENDS_PATH)


_AS = re.compile(r'\bas (\w+)')       # (`except Fault as e`)
_SET_PROPERTY = re.compile(r'\.\w+' + _STORE + r'=(?!=)')
_SLOT_STORE = re.compile(r'((?:globals_|frame)\[\d+\])' + _STORE + r'=(?!=)')
_COPY = re.compile(r'((?:globals_|frame)\[\d+\]|[A-Za-z_]\w*) = ([A-Za-z_]\w*)')


def _root(key):
    """The slot a fact is about ('globals_[8]' of ('globals_[8]', 'rank'))."""
    while type(key) is tuple:
        key = key[0]
    return key
