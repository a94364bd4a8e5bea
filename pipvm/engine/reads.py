"""reused: a checked read that an earlier read on every path to it
got, with nothing between that could change it, made a copy (an action's
function in play-out mode, pipvm/engine/actions.py; a region's no longer,
pipvm/engine/regions.py says why), and what it asks of a line of
generated source (a checked read, a copy, a store, a call, a name
assigned), found by string operations: made during a game (regions were),
compiling patterns for these cost about 0.8 ms of loops.pip's 6 (its few
patterns, of lines a region does not hold, compiled at their first use by
re's cache; tests/test_reads.py holds the patterns the string operations
answer as).  The source is ASCII (the table's text, names and integers): a
word's characters are ASCII ones.
"""
import re

from pipvm.engine.lines import block_end
from pipvm.engine.steps import NO_STEPS
from pipvm.engine.steady import key as steady_key

_WORD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_'
_FIRST = frozenset(_WORD[:52] + '_')
_ONE = frozenset('-+*/%&|^@')           # (an augmented `=`'s operators)
_TWO = frozenset(('//', '**', '<<', '>>'))
_SLOT_NAMES = ('globals_', 'frame')


def _word(s):
    return s.isascii() and ('_' + s).isidentifier() and s != ''


def _ident(s):
    return s.isascii() and s.isidentifier()


def _slot(s):
    """Is s `globals_[N]` or `frame[N]`?"""
    head, _, rest = s.partition('[')
    return head in _SLOT_NAMES and rest[-1:] == ']' and rest[:-1].isdecimal()


def _stores(rest):
    """Does rest start `=` (not `==`), or an augmented assignment's operator and `=`?"""
    if rest[:2] in _TWO:
        rest = rest[2:]
    elif rest[:1] in _ONE:
        rest = rest[1:]
    return rest[:1] == '=' and rest[1:2] != '='


def checked(text):
    """(indent, name, what it reads, the value's name, the property) of
    `if (NAME := globals_[N]|frame[N]|VALUE.PROPERTY) is None:` (the last two
    None for a slot), else None."""
    word = text.lstrip(' ')
    if not (word.startswith('if (') and word.endswith(') is None:')):
        return None
    name, _, expr = word[4:-10].partition(' := ')
    if not _word(name):
        return None
    indent = text[:len(text) - len(word)]
    if _slot(expr):
        return indent, name, expr, None, None
    obj, _, attr = expr.partition('.')
    if _word(obj) and _word(attr):
        return indent, name, expr, obj, attr
    return None


def copy(word):
    """(target, source) of `TARGET = NAME`, TARGET a name or a slot, else None."""
    left, sep, right = word.partition(' = ')
    if sep and _ident(right) and (_ident(left) or _slot(left)):
        return left, right
    return None


def slot_store(word):
    """The slot a line starting `globals_[N] =` (or an augmented `=`) stores, else None."""
    if not word.startswith(('globals_[', 'frame[')):
        return None
    slot = word[:word.find(']') + 1]
    return slot if _slot(slot) and _stores(word[len(slot):].lstrip()) else None


def sets_property(word):
    """Does the line store `.NAME =` (or an augmented `=`)?"""
    i = word.find('.')
    while i >= 0:
        tail = word[i + 1:]
        rest = tail.lstrip(_WORD)
        if len(rest) < len(tail) and _stores(rest.lstrip()):
            return True
        i = word.find('.', i + 1)
    return False


def other_slots(word):
    """Does the line name `globals_` or `frame` but as `globals_[N]`, `frame[N]`?"""
    for name in _SLOT_NAMES:
        i = word.find(name)
        while i >= 0:
            end = i + len(name)
            if not (i and word[i - 1] in _FIRST or word[i - 1:i].isdecimal()) \
                    and word[end:end + 1] not in _FIRST and not word[end:end + 1].isdecimal():
                k = word.find(']', end)
                if not (word[end:end + 1] == '[' and k > end and word[end + 1:k].isdecimal()):
                    return True
            i = word.find(name, i + 1)
    return False


def assigned(word):
    """The names the line assigns (`=`, an augmented `=`, `:=`; not a property's)."""
    names = set()
    p = word.find('=')
    while p >= 0:
        if word[p + 1:p + 2] != '=':
            s = p - 1 if p and word[p - 1] == ':' else p
            if s >= 2 and word[s - 2:s] in _TWO:
                s -= 2
            elif s and word[s - 1] in _ONE:
                s -= 1
            head = word[:s].rstrip()
            before = head.rstrip(_WORD)
            name = head[len(before):]
            if name[:1] in _FIRST and not before.endswith('.'):
                names.add(name)
        p = word.find('=', p + 1)
    return names


def tuple_assigned(text):
    """The names of `A, B, ... =` (not `==`) at the line's start, else ()."""
    word = text.lstrip(' ')
    p = word.find('=')
    if p < 0 or word[p + 1:p + 2] == '=':
        return ()
    parts = word[:p].rstrip(' ').split(',')
    names = [parts[0]] + [x.lstrip(' ') for x in parts[1:]]
    return names if len(names) > 1 and all(map(_ident, names)) else ()


def callees(word):
    """What each `(` of the line follows (spaces between): a dotted name,
    or `)` or `]` (a call of a value not named); a `(` after anything else
    is no call."""
    out = []
    p = word.find('(')
    while p >= 0:
        head = word[:p].rstrip()
        if head[-1:] in (')', ']'):
            out.append(head[-1])
        else:
            callee = head[len(head.rstrip(_WORD + '.')):]
            if callee:
                out.append(callee)
        p = word.find('(', p + 1)
    return out


# Calls that cannot write a global, a local of the frame or a property (the
# runtime's reads, a list's own methods, cards moved between lists), and
# the words a parenthesis follows that are no call.
_SAFE = {'len', 'type', 'int', 'bool', 'iter', 'next', 'map', 'push', 'pop', 'Fault',
         'list_prop', 'cards_of', 'card_choice', 'move', 'deal', 'runtime.multiply',
         'runtime.divide', 'if', 'elif', 'not', 'and', 'or', 'in', 'is', 'return', 'raise',
         'else'}
_SAFE_METHODS = ('.append', '.pop', '.insert', '.index', '.isdisjoint', '.bit_length')


def reused(lines, steady=None, items_defined=False):
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
    one that ends its path leaves what was known before it.  steady
    (steady.steady's): the globals and properties never undefined, and
    the kinds of their values, known from the start.  items_defined: no
    list holds an undefined value (kinds.items_shown), so the local a
    Python `for` over one sets is defined in its body."""
    steady = steady or {}
    out = []
    # (name, what it holds: 'globals_[8]' or ('globals_[8]', 'rank'), its line's indent)
    facts = []
    # (the lines where an except block that ends its path ends, or a block
    # that ended its path, and the facts before it: innermost last)
    afters = []
    # the `if` blocks open, innermost last: [the if's indent, the facts
    # after its test, its body's indent, its body's last statement there]
    ifs = []
    k, last, n_lines = 0, 0, len(lines)     # (last: the line before's indent)
    while k < n_lines:
        text, unit = lines[k]
        word = text.strip()
        indent = len(text) - len(word)
        if not word or word.startswith('#'):
            out.append(lines[k])
            k += 1
            continue
        while ifs and indent <= ifs[-1][0]:
            # (an `if` block that ended its path, without an `else`: where
            # it was not entered, the facts after its test)
            head, known, _, tail = ifs.pop()
            if tail is not None and tail.startswith(_ENDS_PATH) and not (
                    indent == head and word.startswith(('else', 'elif'))):
                afters.append((k, known))
        if ifs:
            if ifs[-1][2] is None:
                ifs[-1][2] = indent
            if ifs[-1][2] == indent:
                ifs[-1][3] = word
        while afters and k >= afters[-1][0]:
            facts, last = afters.pop()[1], len(text)
        if facts and indent < last:
            facts = [f for f in facts if f[2] <= indent]        # (its block ended)
        last = indent
        if word == 'except Exception:' and _filter_fallback(lines, k, indent):
            # (a rule's generated filter failed: the machine's filter,
            # which stores nothing either, runs it again on what was known)
            out += [lines[k], (_kinds_known(lines[k + 1][0], facts), lines[k + 1][1])]
            names = assigned(lines[k + 1][0])
            facts = [f for f in facts if f[0] not in names]
            k += 2
            continue
        if word.startswith('except') and word.endswith(':'):
            end = block_end(lines, k, pairs=True)
            if _ends_path(lines, k, end, indent):
                afters.append((end, facts))
            facts = []
            out.append(lines[k])
            k += 1
            continue
        d = re.fullmatch(_DEFINED, text) if word.startswith('if frame[') else None
        if (d and k + 1 < n_lines and re.fullmatch(_LOUD, lines[k + 1][0][len(d.group(1)) + 4:])
                and lines[k + 1][0].startswith(d.group(1) + '    r')):
            if any(key == d.group(2) for _, key, _ in facts):
                # (defined already: its undefined case cannot happen)
                nxt = next((t for t, _ in lines[k + 2:] if t.strip()), '')
                if len(nxt) - len(nxt.lstrip()) != indent:
                    out.append((d.group(1) + 'pass', unit))
            else:
                out += lines[k:k + 2]
                facts.append((d.group(2), d.group(2), indent))
            k += 2
            continue
        if word.startswith(_ENDS_PATH) or ('env_' in word and re.fullmatch(_QUIET_CHECK, word)):
            out.append(lines[k])
            k += 1
            continue
        rounds = word.startswith('if not QUIET_') and re.fullmatch(_ROUNDS, word)
        if rounds:          # (a quiet loop's rounds: they store its local alone)
            facts = [f for f in facts if _root(f[1]) != rounds.group(1)]
            out.append(lines[k])
            k += 1
            continue
        m = checked(text) if word.startswith('if (') else None
        if (m and k + 1 < n_lines and lines[k + 1][0].startswith(m[0] + '    raise Fault(')
                and not (k + 2 < n_lines and lines[k + 2][0].startswith(
                    (m[0] + 'else', m[0] + 'elif')))):
            pad, name, read, obj, prop = m
            if obj:          # a property of a value a name holds
                keys = [(key, prop) for n, key, _ in facts if n == obj]
            else:
                keys = [read]
            known = [n for n, key, _ in facts if key in keys]
            if name not in known:
                facts = [f for f in facts if f[0] != name]
            kind = steady.get(steady_key(read))     # (its kind where never undefined)
            if name in known:
                out.append((pad + 'pass', unit))     # (it holds it already)
            elif known:
                out.append((pad + '%s = %s' % (name, known[0]), unit))
            elif kind:
                out.append((pad + '%s = %s' % (name, read), unit))
            else:
                out += lines[k:k + 2]
            if kind in _LIST_OF:
                facts += [(None, (key, kind), indent) for key in keys]
            facts += [(name, key, indent) for key in keys]
            if prop in _KIND_OF:     # (the value read from is of the one kind that has it)
                facts += [(None, (key[0], _KIND_OF[prop]), indent) for key in keys]
            if not obj and not any(n == read for n, _, _ in facts):
                facts.append((read, read, indent))   # (the slot holds it too)
            k += 2
            continue
        if word.startswith(('for ', 'while ')) or 'lambda' in word:
            facts = []
            item = items_defined and re.fullmatch(_FOR_ITEM, word)
            if item:
                facts.append((item.group(1), item.group(1), indent + 4))
        elif facts:         # (else nothing known, and nothing made known)
            if 'is Area else' in word:
                text = _kinds_known(text, facts)
                word = text.strip()
            if '(' in word and any(c in ')]' or (c not in _SAFE and not c.endswith(_SAFE_METHODS))
                                   for c in callees(_FILTER_CALLED.sub('(', word, count=1)
                                                    if word.endswith(NO_STEPS) else word)):
                facts = []
            if (('frame' in word or 'globals_' in word) and other_slots(word)
                    or 'frames[' in word or 'rec' in word):
                facts = []      # (a slot by another way: rec[3] is the frame)
            if '.' in word and '=' in word and sets_property(word):
                # (what a slot's value is, an Area or a Player, stays)
                facts = [f for f in facts if type(f[1]) is str or f[0] is None]
            slot = word[:1] in 'fg' and slot_store(word)
            if slot:
                facts = [f for f in facts if _root(f[1]) != slot]
            names = assigned(word) if '=' in word else set()
            if ' as ' in word:
                names |= set(re.findall(_AS, word))
            if ',' in word:
                names.update(tuple_assigned(text))
            given = ' = ' in word and copy(word)
            # (a name, or a slot, given a name that holds a defined value)
            copied = [key for n, key, _ in facts if n == given[1]] if given else ()
            if names:
                facts = [f for f in facts if f[0] not in names]
            if not given and ' = ' in word:
                # (a name given a slot that holds a defined value: it holds it)
                left, _, right = word.partition(' = ')
                if _ident(left) and _slot(right) and any(key == right for _, key, _ in facts):
                    facts.append((left, right, indent))
            if copied and given[0].isidentifier():
                facts += [(given[0], key, indent) for key in copied]
            elif copied:
                facts.append((given[1], given[0], indent))
            if word.startswith('if ') and word.endswith(':'):
                ifs.append([indent, list(facts), None, None])
        out.append((text, unit))
        k += 1
    return out


# a whole action's loop over a list (fors.Writing.loop): its local holds an item
_FOR_ITEM = r'for (frame\[\d+\]) in stack\[-1\]:'


# What a read of a property that did not fail says of the value's kind:
# among the runtime's values only an Area has `cards`, only a Player a
# `hand` (a fact (None, (its slot, kind)))
_KIND_OF = {'cards': ' Area', 'hand': ' Player'}
_LIST_OF = {' Area': '.cards', ' Player': '.hand', ' list': ''}
# rewrites.inlined's list of cards a value stands for (cards_of), and what
# may stand before it on its line: names, and the call it is an argument of
_DISPATCH = (r'\((\w+)\.cards if \((\w+) := type\(\1\)\) is Area else \1\.hand '
             r'if \2 is Player else \1 if \2 is list else cards_of\(\1\)\)')
_BEFORE = r' *(?:\w+ = )?(?:[\w.]+(?:\[\d+\])?\((?:\w+, )*)?'


def _kinds_known(text, facts):
    """text with the list of cards of a name that holds a slot whose
    value's kind is known (an Area, a Player) read as its property, not
    tested by type (nothing before it on the line evaluated but names)."""
    m = re.search(_DISPATCH, text)
    if m is None or not re.fullmatch(_BEFORE, text[:m.start()]):
        return text
    slots = {key for n, key, _ in facts if n == m.group(1)}
    kinds = [key[1] for n, key, _ in facts if n is None and key[0] in slots]
    if not kinds:
        return text
    return text[:m.start()] + m.group(1) + _LIST_OF[kinds[0]] + text[m.end():]


# A quiet instruction's test that a local its messages show is defined
# (DEFINED_LOCAL's body), the loud code going on where it is not.
_DEFINED = r'( *)if (frame\[\d+\]) is None:'
_LOUD = r'return LOUD_RUN\(self, rec, \d+\)'
_ENDS_PATH = ('return', 'raise', 'continue', 'break')
# A quiet check (actions._Writer.quiet): its closures read a copy of the frame
# (pure expressions: checks.operand_check), and fail or not.
_ROUNDS = (r'if not QUIET_ROUNDS\(self, frame, A\[\d+\], rest_\):'
            r'  # \(it stores (frame\[\d+\]) alone\)')
_QUIET_CHECK = (r'env_ = frame \+ \[self\]|env_\[\d+\] = rest_\[0\]'
                r'|A\[\d+\](?:\[\d+\])+\(env_\)')


# A generated filter's call (filters.direct_filters, marked NO_STEPS): a
# rule's filter stores nothing; and where it fails, the machine's own
_FILTER_CALLED = re.compile(r'A\[\d+\]\(self, ')


def _filter_fallback(lines, k, indent):
    """Is the `except Exception:` at line k filters._tried's: after `try:`
    and a generated filter's call, one line that calls Machine.playable?"""
    return (2 <= k < len(lines) - 1 and lines[k - 2][0] == lines[k][0][:indent] + 'try:'
            and lines[k - 1][0].endswith(NO_STEPS) and 'self.playable(' in lines[k + 1][0]
            and block_end(lines, k, pairs=True) == k + 2)


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


_AS = r'\bas (\w+)'       # (`except Fault as e`)


def _root(key):
    """The slot a fact is about ('globals_[8]' of ('globals_[8]', 'rank'))."""
    while type(key) is tuple:
        key = key[0]
    return key
