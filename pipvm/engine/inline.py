"""Small actions written in place of their calls in a whole action's
function (pipvm/engine/actions.py, play-out mode).

A CALL in a function runs the callee's function: a frame record made and
pushed, a Python call, the callee's prologue, its pop and return.  A
callee that calls nothing (a leaf: Euchre's and Oh Hell's `rate`, Oh
Hell's `find_seat`, Crazy Eights' `turn`, 0.45 us a call) can instead
stand where it is called: its function's body, its locals
renamed apart, its frame's locals a list of its own (fr<k>), its stack
too where it has one, its `frames.pop(); return` a `break` out of a
`while True` around it (its own test tree, `continue`s and `for`s are as
they were).  CALL counts its step before it as before; the callee counts
its own; nothing else reads the machine's frames while it runs, so its
frame record is made only on the error path: a Fault, a StepLimit or an
invalid file's error inside it pushes the record it would have had (pc 0,
its stack, its locals) before it leaves, and a Fault's position is its
own, by the caller's line-to-unit map, which takes in the callee's units.

Trust (docs/pipc.md): the callee's body is its own generated source (the
table's text, checked integers, A[k]); only its operands' indexes move,
to the caller's tuple, and its names get a suffix of the callee's code
index (a checked integer)."""
import re

from pipvm.engine.bodies import INVALID
from pipvm.engine.compiled import SMALL
from pipvm.engine.lines import block_end, indent_of

MAX_LINES = 400         # a callee's body at most (longer ones keep their call)
BUDGET = 2400           # lines a caller may take in from its callees, all sites together
# What a leaf's body may not name (it would need its frame record or a
# caller's code), and the machine's attributes it may not read (frames:
# its record is not there; a decision's).
_FORBIDDEN = {'rec', 'rec_', 'codes', 'P', 'AT', 'LOUD_RUN',
              'DEEP', 'ensure_depth', 'callee', 'yield', 'lambda', 'def', 'class', 'global',
              'nonlocal', 'return'}
# The decisions' policy, which the caller's prologue sets up as the callee's
# did (from self.auto): kept as they are, not renamed apart
_POLICY = {'choose_', 'bits_', 'log_', 'noted_'}
_FORBIDDEN_ATTRS = {'frames', 'auto', '_answer_auto', 'pending', 'resume'}
_HANDLER = re.compile(r'H\d+$')
# The lines a callee written in place leaves by (_site's): a leaf that
# holds them is taken in whole, its callees' handlers anchored to the
# outermost function's rec.
_RECORD = r'\[codes\[\d+\], 0, (?:st\d+|\[\]), (?:fr\d+|\[None\] \* \d+)\]'
_LEAVES_BY = re.compile(r' *(entered\(frames, rec, %s\)'
                        r'|raise positioned\(f\d+, P, AT\) from None'
                        r'|raise invalid\(entered\(frames, rec, %s\), e\d+\) from None)'
                        % (_RECORD, _RECORD))
# (text that rules a function out before its body is read: a call out, a
# decision answered by the machine, which writes the top frame record)
_NOT_LEAF = re.compile(r'rec_\[0\]\.action|_answer_auto|\bH\d+\(')
# A quiet instruction's hand-over to the loud code (actions._Writer.quiet):
# the only form of LOUD_RUN a leaf may hold
_HANDOVER = re.compile(r'^( *)return LOUD_RUN\(self, rec, (\d+)\)$', re.M)
_HANDLER_NAMES = {'entered', 'frames', 'rec', 'codes', 'P', 'AT'}
_OPERAND = re.compile(r'A\[@(\d+)@\]')
# (the callee's index where it is written in: no table text holds it)
_SUFFIX = '\x01'
# The call a composed run writes for CALL (the CALL macro, then answers.py's CALLED)
_CALL = ['callee = codes[{0}]',
         'frames.append([callee, 0, [], [None] * callee.frame_size])    # (a new frame)',
         'rec_ = frames[-1]', 'if len(frames) > DEEP:', '    ensure_depth(len(frames))',
         'rec_[0].action(self, rec_)']
_CALLEE = re.compile(r'( *)callee = codes\[(\d+)\]')
ERRORS = '(%s)' % ', '.join(e.__name__ for e in INVALID)     # (bodies.INVALID, as source)


class Leaf:
    """A callee's body ready to stand where it is called: its lines (text
    with `A[@k@]` for its operand k, its unit or None), its operands, its
    units' positions, its frame's size, whether it has a stack."""

    def __init__(self, lines, operands, units, size, stack, loud=False):
        self.lines, self.operands, self.units = lines, operands, units
        self.size, self.stack = size, stack
        self.loud = loud        # (may it hand over to its loud code?)


def leaf(fn, size):
    """fn (an action's function, made with no call in it) as a Leaf, or
    None where its body cannot stand in a caller.  size: its frame's."""
    source, at = fn.plain       # (its steps counted on the machine: actions.steps)
    if _NOT_LEAF.search(source) or source.count('LOUD_RUN') != len(_HANDOVER.findall(source)):
        return None
    lines = source.split('\n')
    try:
        start, end = lines.index('        while True:') + 1, lines.index('    except Fault as f:')
    except ValueError:
        return None
    if not (type(size) is int and 0 <= size < SMALL):
        return None
    body, units = [], []
    blocks = []                 # (indent, a loop?) of the blocks open at the line
    loud = False
    k = start
    while k < end:
        text = lines[k]
        word = text.strip()
        indent = len(text) - len(word)
        while blocks and blocks[-1][0] >= indent and word:
            blocks.pop()
        if word.endswith(':'):
            blocks.append((indent, word.startswith(('for ', 'while '))))
        handover = _HANDOVER.fullmatch(text)
        if handover:
            # (noted, then out of the `while True`: not from a loop of its own)
            if any(loop for _, loop in blocks):
                return None
            pad = handover.group(1)
            body += [pad + 'handover_ = ' + handover.group(2), pad + 'break']
            units += [at.get(k + 1)] * 2
            loud = True
            k += 1
            continue
        if word == 'frames.pop()' and k + 1 < end and lines[k + 1].strip() == 'return':
            # (a return from within a loop of its own: `break` would leave that loop)
            if lines[k + 1] != text.replace('frames.pop()', 'return') or any(
                    loop for _, loop in blocks):
                return None
            body.append(text.replace('frames.pop()', 'break'))
            units.append(at.get(k + 1))
            k += 2
            continue
        body.append(text)
        units.append(at.get(k + 1))
        k += 1
    body, units = _entry(*_unentered(body, units))
    if len(body) > MAX_LINES:
        return None
    renamed = _renamed('\n'.join(body))
    if renamed is None:
        return None
    text, stack = renamed
    return Leaf(list(zip(text.split('\n'), units)), fn.__defaults__[1], fn.__defaults__[2],
                size, stack, loud)


def _unentered(body, units):
    """body and units without its test tree's branch past the loop heads
    and 0 (`if pc == 0:`'s `else`) where every jump of the body goes to
    one of them: the starts there are entered only from outside the
    function (a frame that stopped at a decision or a call goes on there),
    never where the body stands for a call (Crazy Eights' `turn`: 511 ->
    225 lines)."""
    targets = set()
    for text in body:
        m = _SETS_PC.match(text)
        if m:
            if not text[m.end():].isdigit():
                return body, units
            targets.add(int(text[m.end():]))
    tested, k = set(), 0
    while k < len(body):
        m = _TESTED.fullmatch(body[k])
        if not m:
            return body, units
        tested.add(int(m.group(2)))
        end = block_end(body, k)
        if not (end < len(body) and body[end] == m.group(1) + 'else:'):
            return body, units
        if m.group(2) == '0':
            if not targets <= tested:
                return body, units
            stop = block_end(body, end)
            return body[:end] + body[stop:], units[:end] + units[stop:]
        k = end + 1
    return body, units


_TESTED = re.compile(r'( *)if pc == (\d+):')


def _entry(body, units):
    """body and units cut to the run entered at 0 where nothing in them
    sets pc (no jump goes through the test tree: the rest is never run),
    else as they are."""
    if any(_SETS_PC.match(text) for text in body):
        return body, units
    for k, text in enumerate(body):
        if text.strip() == 'if pc == 0:':
            end, cut = block_end(body, k), indent_of(text) + 4 - 12
            return [x[cut:] for x in body[k + 1:end]], units[k + 1:end]
    return body, units


_SETS_PC = re.compile(r' *pc = ')


def _renamed(text):
    """(text with its names renamed apart and its operands as A[@k@],
    whether it uses a stack), or None where it names what a leaf may not."""
    try:        # (the names the body stores: its function's locals)
        code = compile('def f():\n while True:\n' + text, '<leaf>', 'exec').co_consts[0]
    except SyntaxError:
        return None
    stored = set(code.co_varnames)
    special = {'frame': 'fr' + _SUFFIX, 'stack': 'st' + _SUFFIX, 'push': 'st%s.append' % _SUFFIX,
               'pop': 'st%s.pop' % _SUFFIX, 'pc': 'pc' + _SUFFIX, 'handover_': 'ho' + _SUFFIX}
    toks = [(m.start(), m.end(), m.group(), m.lastindex) for m in _TOKEN.finditer(text)]
    out, at, stack, depth = [], 0, False, 0
    for j, (start, end, name, kind) in enumerate(toks):
        if kind != 2:
            if kind == 1 and j and toks[j - 1][3] == 2 and toks[j - 1][1] == start:
                return None         # (a prefixed string: f'...' hides names)
            depth += (name in '([{') - (name in ')]}') if kind == 5 else 0
            continue
        before = toks[j - 1][2] if j else ''
        after = toks[j + 1][2] if j + 1 < len(toks) else ''
        if before == '.':
            if name in _FORBIDDEN_ATTRS:
                return None
            continue
        if name in _HANDLER_NAMES and _LEAVES_BY.fullmatch(
                text[text.rfind('\n', 0, start) + 1:_line_end(text, start)]):
            continue
        if name in _FORBIDDEN or _HANDLER.match(name) or name == 'frames':
            return None             # (frames: only the `frames.pop()` made `break` above)
        if name in _POLICY:
            continue
        if name == 'A':
            if not (after == '[' and toks[j + 2][3] == 3 and toks[j + 3][2] == ']'):
                return None
            new, start, end = '@%s@' % toks[j + 2][2], toks[j + 2][0], toks[j + 2][1]
        elif after == '=' and depth:
            continue                # (a keyword argument; `a, b = ...` stores both)
        elif name in special:
            stack = stack or name in ('stack', 'push', 'pop')
            new = special[name]
        elif name in stored:
            new = name + '_' + _SUFFIX
        else:
            continue
        out += [text[at:start], new]
        at = end
    return ''.join(out) + text[at:], stack


def _line_end(text, k):
    end = text.find('\n', k)
    return len(text) if end < 0 else end


# The body's tokens: a string (1), a name (2), a number (3), a comment (4), an operator
_TOKEN = re.compile(r"""('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")|([A-Za-z_]\w*)|(\d+)"""
                    r"""|(#[^\n]*)|(:=|==|!=|<=|>=|//=|\*\*=|<<=|>>=|[-+*/%&|^@]=|\S)""")


def written(lines, leaves, operands, units):
    """lines ((text, unit) pairs of a caller's function body) with each
    CALL of a leaf written in its place; operands and units (the caller's
    lists) take in the callees' own, the callees' units moved past the
    caller's."""
    out, k, budget = [], 0, BUDGET
    while k < len(lines):
        m = _CALLEE.fullmatch(lines[k][0])
        inl = leaves.get(int(m.group(2))) if m else None
        if (inl is None or len(inl.lines) > budget
                or [t[len(m.group(1)):] for t, _ in lines[k:k + len(_CALL)]]
                != [x.format(m.group(2)) for x in _CALL]):
            out.append(lines[k])
            k += 1
            continue
        budget -= len(inl.lines)
        pad, code, unit = m.group(1), int(m.group(2)), lines[k][1]
        out += _site(pad, code, inl, len(operands), len(units), unit)
        operands += inl.operands
        units += inl.units
        k += len(_CALL)
    return out


def _site(pad, code, inl, first_operand, first_unit, unit):
    """A leaf's lines where code index `code` is called, at pad."""
    s = str(code)
    stack = 'st%s' % s if inl.stack else '[]'
    # (its locals and its pc set up where its body names them: a leaf
    # entered at 0 alone tests no pc, Oh Hell's `rate` reads no local)
    names = lambda name: any(name + _SUFFIX in text for text, _ in inl.lines)
    locals_ = 'fr%s' % s if names('fr') else '[None] * %d' % inl.size
    record = '[codes[%d], 0, %s, %s]' % (code, stack, locals_)
    head = ['fr%s = [None] * %d' % (s, inl.size)] if names('fr') else []
    if inl.stack:
        head.append('st%s = []' % s)
    if inl.loud:
        head.append('ho%s = None' % s)
    head += ['pc%s = 0' % s] if names('pc') else []
    head += ['try:', '    while True:']
    out = [(pad + x, unit) for x in head]
    for text, u in inl.lines:
        text = _OPERAND.sub(lambda m: 'A[%d]' % (first_operand + int(m.group(1))), text)
        out.append((pad + '    ' + text[8:].replace(_SUFFIX, s), None if u is None else first_unit + u))
    tail = ['except Fault as f%s:' % s, '    entered(frames, rec, %s)' % record,
            '    raise positioned(f%s, P, AT) from None' % s,
            'except %s as e%s:' % (ERRORS, s),
            '    raise invalid(entered(frames, rec, %s), e%s) from None' % (record, s),
            'except BaseException:', '    entered(frames, rec, %s)' % record, '    raise']
    if inl.loud:        # (its record pushed, its loud code to its end: LOUD_RUN pops it)
        tail += ['if ho%s is not None:' % s,
                 '    LOUD_RUN(self, entered(frames, rec, %s), ho%s)' % (record, s)]
    return out + [(pad + x, unit) for x in tail]


def entered(frames, rec, record):
    """Push record, a callee's written in place, as its call would have left
    it when something escapes it: above rec (the function's own frame) and
    below the records of callees written in its place (their handlers ran
    first).  Returns it."""
    i = len(frames)
    while i and frames[i - 1] is not rec:
        i -= 1
    frames.insert(i, record)
    return record


def callees_first(actions, calls):
    """actions ordered so that each comes after the actions it calls (but
    within a cycle of calls)."""
    order, seen = [], set()
    for root in actions:
        work = [(root, False)]
        while work:
            k, done = work.pop()
            if done:
                order.append(k)
            elif k not in seen and k in calls:
                seen.add(k)
                work.append((k, True))
                work += [(c, False) for c in sorted(calls[k], reverse=True)]
    return order
