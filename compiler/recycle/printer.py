"""RECYCLE printed back from its S-expressions, in one layout: a list on one
line if it fits in WIDTH columns, else its head and the words after it on
the first line and each further item on a line of its own, indented by the list's depth.  Comments
are dropped; reading the output gives the same syntax tree."""
from .lexer import Atom
from .parser import parse

WIDTH = 80


def program(text):
    return ''.join(form(x, 0) + '\n' for x in parse(text))


def form(x, indent):
    flat = _flat(x)
    if type(x) is Atom or indent + len(flat) <= WIDTH:
        return flat
    items = x.items
    sep = ',' if x.commas else ''
    head, rest = (items[0], items[1:]) if type(items[0]) is Atom and items[0].kind != 'string' \
        else (None, items)
    lines = ['(' + (_flat(head) if head is not None else '')]
    while head is not None and rest and type(rest[0]) is Atom:     # (all player 'P ...
        lines[0] += ' ' + _flat(rest[0])
        rest = rest[1:]
    inner = indent + 2
    for i, item in enumerate(rest):
        text = form(item, inner) + (sep if i < len(rest) - 1 else '')
        if head is None and i == 0:
            lines[0] += text
        else:
            lines.append(' ' * inner + text)
    return '\n'.join(lines) + ')'


def _flat(x):
    if type(x) is Atom:
        return str(x)
    sep = ', ' if x.commas else ' '
    return '(' + sep.join(_flat(i) for i in x.items) + ')'
