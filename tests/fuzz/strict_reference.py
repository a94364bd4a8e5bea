"""Which extensions to 2008 Pip a program uses, and where it first does, read
from its text alone (issue 58): the strict reference `pipvm check --strict`
is judged against.  Written from docs/language.md's table of extensions,
apart from the checker (compiler/pip/checker.py) that refuses them.

The text is read with its strings blanked out (a string may say anything),
on the forms the language's grammar gives each extension:

| extension | where it is | what --strict calls it |
| --- | --- | --- |
| `TYPE NAME for each player` (`team`) | its declaration | `'for each player'` |
| `Rule R(p, cards, pile) for sets = ...` | its declaration | `a rule for sets of cards ('for sets')` |
| `(count X in L where C)`, `(sum/max/min X in L of N)`, `(max/min X in L by O)` | its `(` | `'(count ... where ...)'` |
| `break.`, `continue.` | the word | `'break.'` |
| an ask's `for X in L "text"` | `for` | `an ask's options from a list ('for X in')` |
| `Ace`, `Two`, ..., `King` as a Rank | the word | `'Four' (a Rank word)` |
| `play R from P to D or pass` (`or "TEXT"`) | `play` | `'or pass'` (`'or "..."'`) |
| `Rule R(p, c, pile, TYPE x) = ...` | its declaration | `a rule with parameters ('Rule R(..., TYPE x)')` |
| `loser X.`, `winners L.`, `ranking L.`, `out P.`, `back P.` | the word | `'loser'` |
| `Aces high.` (`Aces low.`) | its declaration | `'Aces high.'` |
| `Area NAME[N] labeled ...` | its declaration | `a list of areas ('Area NAME[N]')` |
| `Area NAME[] labeled ...` | its declaration | `a list of groups ('Area NAME[]')` |
| `deal ... to new NAME.` | `new` | `a new group ('new NAME')` |
| `(item K of L)` | its `(` | `'(item ... of ...)'` |
| `Action NAME(...)` | its declaration | `an action with parameters ('Action NAME(...)')` |
| `NAME(...)` in an expression, `NAME(ARGS).` | the name | `a call in an expression ('NAME(...)')`, `a call with arguments ('NAME(...).')` |
"""
import re

WORDS = ('Ace', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten',
         'Jack', 'Queen', 'King')
REFUSED = 'Error: Line %d, Col %d: %s is an extension to 2008 Pip (refused by --strict)'

_OWN = re.compile(r'^\w+ \w+ for each (player|team)\b')
_SETS = re.compile(r'^Rule \w+\([^)]*\) for sets\b')
_AGGREGATE = re.compile(r'\((count|sum|max|min) \w+ in ')
_EXIT = re.compile(r'\b(break|continue)\s*\.')
_OPTIONS = re.compile(r'\bfor (\w+) in [^{"]*"')
_WORD = re.compile(r'\b(%s)\b' % '|'.join(WORDS))
_OR_PASS = re.compile(r'\bplay\b[^.{]*\bor\s+(pass\b|")')
_PARAM_RULE = re.compile(r'^Rule (\w+)\(\s*\w+\s*,\s*\w+\s*,\s*\w+\s*,')
# (a word at a statement's start, before a name or, after a space, a bracket not empty)
_ENDING = re.compile(r'(?:^|[{}.])\s*\b(loser|winners|ranking|out|back)'
                     r'(?=\s+[A-Za-z]|\s+\((?!\s*\)))')
_ACES = re.compile(r'^Aces (high|low)\s*\.')
_FAMILY = re.compile(r'^Area (\w+)\[(\d+)\]')
_GROUPS = re.compile(r'^Area (\w+)\[\s*\]')
_NEW = re.compile(r'\bto\s+(new)\s+(\w+)\s*\.')
_ITEM = re.compile(r'\(\s*item\s+[\w>-]+\s+of\b')
_ACTION = re.compile(r'^Action (\w+)\(')
_CALL = re.compile(r'\b([A-Za-z_]\w*)\(')      # a name right before `(`: a call
_NOT_CALLS = {'Action', 'Rule', 'Ordering', 'message'}


def blanked(line):
    """The line with each string's text blanked (its quotes kept) and
    without its comment (`#` to the end of the line)."""
    line = re.sub(r'"[^"]*"', lambda m: '"' + ' ' * (len(m.group()) - 2) + '"', line)
    return line.split('#', 1)[0]


def _aggregate_word(line, at):
    """where, of or by: the first of them after the aggregate's `in` at its own depth."""
    depth = 0
    for m in re.finditer(r'[()\[\]]|\b(where|of|by)\b', line[at + 1:]):
        token = m.group()
        if token in '([':
            depth += 1
        elif token in ')]':
            depth -= 1
        elif depth == 0:
            return token
    return None


def _arguments(line, at):
    """(the text between the `(` before at and its `)`, the index after it)."""
    depth = 1
    for i in range(at, len(line)):
        depth += {'(': 1, ')': -1}.get(line[i], 0)
        if depth == 0:
            return line[at:i], i + 1
    return line[at:], len(line)


def extensions(source):
    """[(line, col, what)] of every extension the source uses, in text order;
    `what` as --strict's line names it."""
    out = []
    for n, raw in enumerate(source.split('\n'), 1):
        line = blanked(raw)
        m = _OWN.match(line)
        if m:
            out.append((n, 1, "'for each %s'" % m.group(1)))
        m = _FAMILY.match(line)
        if m:
            out.append((n, 1, "a list of areas ('Area %s[%s]')" % m.groups()))
        m = _GROUPS.match(line)
        if m:
            out.append((n, 1, "a list of groups ('Area %s[]')" % m.group(1)))
        for m in _NEW.finditer(line):
            out.append((n, m.start(1) + 1, "a new group ('new %s')" % m.group(2)))
        for m in _ITEM.finditer(line):
            out.append((n, m.start() + 1, "'(item ... of ...)'"))
        if _SETS.match(line):
            out.append((n, 1, "a rule for sets of cards ('for sets')"))
        for m in _AGGREGATE.finditer(line):
            word = _aggregate_word(line, m.end() - 1)
            out.append((n, m.start() + 1, "'(%s ... %s ...)'" % (m.group(1), word)))
        for m in _EXIT.finditer(line):
            out.append((n, m.start() + 1, "'%s.'" % m.group(1)))
        for m in _OPTIONS.finditer(line):
            out.append((n, m.start() + 1, "an ask's options from a list ('for %s in')"
                        % m.group(1)))
        for m in _WORD.finditer(line):
            out.append((n, m.start() + 1, "'%s' (a Rank word)" % m.group(1)))
        for m in _OR_PASS.finditer(line):
            out.append((n, m.start() + 1, "'or pass'" if m.group(1) == 'pass' else "'or \"...\"'"))
        m = _PARAM_RULE.match(line)
        if m:
            out.append((n, 1, "a rule with parameters ('Rule %s(..., TYPE x)')" % m.group(1)))
        for m in _ENDING.finditer(line):
            out.append((n, m.start(1) + 1, "'%s'" % m.group(1)))
        m = _ACES.match(line)
        if m:
            out.append((n, 1, "'Aces %s.'" % m.group(1)))
        m = _ACTION.match(line)
        if m:
            out.append((n, 1, "an action with parameters ('Action %s(...)')" % m.group(1)))
        for m in _CALL.finditer(line):
            name = m.group(1)
            if name in _NOT_CALLS or m.start() == len('Action ') and _ACTION.match(line) or \
                    line[:m.start()].rstrip().endswith(('Rule', 'Ordering')):
                continue
            args, end = _arguments(line, m.end())
            before = line[:m.start()].rstrip()
            if (not before or before[-1] in '{}.') and line[end:].lstrip().startswith('.'):
                if args.strip():            # (2008: `name().`, with no argument)
                    out.append((n, m.start() + 1, "a call with arguments ('%s(...).')" % name))
            else:
                out.append((n, m.start() + 1, "a call in an expression ('%s(...)')" % name))
    return sorted(out)


def strict_lines(source):
    """What `pipvm check --strict` may say of source: [None] (accepted: a 2008
    program), or the line for each extension used, the first in the text
    first: the one it must say (docs/language.md: "at its first use")."""
    found = extensions(source)
    return [REFUSED % f for f in found] if found else [None]
