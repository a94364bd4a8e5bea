"""A compiled region's constants and frame slots as Python locals
(pipvm/engine/regions.py): `consts[N]` and `frame[N]` read once when
the region is entered, a slot written back on the way out, and the
copies of them that composing leaves (`value5 = l_1`) read in place.
Each pass is text in, text out, over the region's whole source, made
while a game runs: finds and splits, no patterns to compile (their
import cost more than a region saves in a short game).
"""


def consts_named(text):
    """(text with each `consts[N]`, N an index the verifier checked, as a
    local k_N, the Ns): read once when the region is entered, not at each
    round (a program's constants never change in a game)."""
    named, out, at = set(), [], 0
    start = text.find('consts[')
    while start >= 0:
        end = text.find(']', start)
        k = text[start + 7:end]
        before = text[start - 1:start]
        if k.isdigit() and not (before.isalnum() or before in ('_', '.')):
            named.add(k)
            out += [text[at:start], 'k_', k]
            at = end + 1
        start = text.find('consts[', start + 1)
    return ''.join(out) + text[at:], sorted(named, key=int)


def slots_named(text, items_defined):
    """(text with each `frame[N]`, N a verified slot, as a local l_N, the Ns) where nothing
    else reads the frame: read on entry, written back on the way out, a check that one
    before it in its block (or around it, in the same loop) made, no store between, a
    plain read (loops.pip's `for s` 8% fewer instructions a round).  items_defined():
    no list holds an undefined value (kinds.items_shown: asked only where a Python `for`
    over one is in text), so in its body its local, stored nowhere else, is defined
    (loops.pip's card and suit)."""
    parts = text.split('frame[')
    slots = {p[:p.find(']')] for p in parts[1:]}
    if not all(k.isdigit() and 'l_' + k not in text for k in slots) or any(
            p[-1:].isalnum() or p[-1:] in ('_', '.') for p in parts[:-1]) or \
            'frame' in ''.join(p[p.find(']'):] for p in parts[1:]) + parts[0]:
        return text, ()
    # (the slots nothing can make undefined: never stored, or only by a `for`
    # over a list, whose items are defined)
    stored = {p[:p.find(']')] for p in parts[1:] if p.startswith(' = ', p.find(']') + 1)}
    stored |= {p[:p.find(']')] for p in parts[1:] if p.startswith('] in ', p.find(']'))
               and not (p.startswith('] in stack[-1]:\n', p.find(']')) and items_defined())}
    for k in slots:
        text = text.replace('frame[%s]' % k, 'l_' + k)
    lines, held, deepest = text.split('\n'), {}, -1      # (held: a slot -> its check's indent)
    for i, line in enumerate(lines):
        word = (line or '').lstrip(' ')
        pad = len(line) - len(word) if line else deepest     # (None: a check's raise, gone)
        if pad < deepest:
            held = {k: d for k, d in held.items() if d <= pad}
            deepest = max(held.values(), default=-1)
        if word.startswith(('for ', 'while ')):     # (a store later in it runs before)
            held = {k: d for k, d in held.items() if k not in stored}
            slot = word.split()[1][2:] if word.startswith('for l_') else None
            if slot and slot not in stored:
                held[slot] = pad + 4            # (its body: a `for` over a list)
            deepest = max(held.values(), default=-1)
        elif word.startswith('l_'):                 # (a store)
            held.pop(word.split()[0][2:], None)
        elif (word.startswith('if (') and word.endswith(') is None:') and ' := l_' in word
              and lines[i + 1].lstrip(' ').startswith("raise Fault('Undefined value'")):
            name, k = word[4:-10].split(' := l_')
            if k in held:
                lines[i:i + 2] = ['%s%s = l_%s' % (line[:pad], name, k), None]
            elif k.isdigit():
                held[k], deepest = pad, max(deepest, pad)
    return '\n'.join(x for x in lines if x is not None), sorted(slots, key=int)


def _word_at(text, name, at=0):
    """Where name first stands in text from at as a whole word, or -1."""
    at = text.find(name, at)
    while at >= 0:
        end = at + len(name)
        if not (_in_word(text[at - 1:at]) or _in_word(text[end:end + 1])):
            return at
        at = text.find(name, end)
    return -1


def _in_word(char):
    """Is char (or '', at an end of the text) part of a name?"""
    return char.isalnum() or char == '_'


def copied(text):
    """text with each copy of a local into a value (`value5 = l_1`, a
    composed LOAD_LOCAL's or CONST's) read where the next line, at its
    indent, reads that value, once, when the value is not read again
    before it is set: one store and load fewer (a tenth of loops.pip's
    region's rounds with slots_named's, and a smaller text to compile;
    moving attributes and tests too saved less than it cost)."""
    lines, gone, at = text.split('\n'), set(), 0   # (at: line k + 1's offset in text)
    sizes = [len(line) + 1 for line in lines]
    for k in range(len(lines) - 1):
        line = lines[k]
        at += sizes[k]
        word = line.lstrip(' ')
        name, eq, src = word.partition(' = ')
        if not (eq and src[:2] in ('l_', 'k_') and src[2:].isdigit() and name.isidentifier()):
            continue
        pad, after = line[:len(line) - len(word)], lines[k + 1]
        use = _word_at(after, name)
        if not (use >= 0 and after.startswith(pad) and after[len(pad)] != ' '
                and _word_at(after, name, use + 1) < 0):
            continue
        # (the lines after the next are as they were in text; the value's
        # next word there must set it, at this indent, reading it not, no
        # line between out of this block: each path sets it before a read)
        nxt = at + sizes[k + 1]
        later = _word_at(text, name, nxt)
        if later >= 0:
            between = lines[k + 2:k + 3 + text.count('\n', nxt, later)]
            end = text.find('\n', later)
            again = _word_at(text[:end] if end >= 0 else text, name, later + 1)
            if not (text.startswith((name + ' = ', name + ' := '), later) and again < 0
                    and all(x.startswith(pad) for x in between)
                    and not between[-1].startswith(pad + ' ')):
                continue
        lines[k + 1] = after[:use] + src + after[use + len(name):]
        gone.add(k)
    return '\n'.join(x for k, x in enumerate(lines) if k not in gone)
