"""The RECYCLE lexer (SLY).

RECYCLE is written in S-expressions.  Words in lower case are names of
forms (`game`, `move`, `player`); words in upper case are Strings
(`HAND`, `SUIT`); a quote before an upper-case word makes a Variable
(`'P`).  `;` starts a comment to the end of the line.  Every token's value
is an `Atom` with its (line, column), columns counting bytes from 1 as
Pip's do.
"""
import bisect
import re

import attrs
from sly import Lexer

from ..errors import PipError

SYMBOLS = ('+', '-', '*', '//', 'mod', '==', '!=', '<', '>', '<=', '>=', '..')


@attrs.define(slots=True)
class Atom:
    kind: str                  # 'int', 'string', 'var', 'name' or 'symbol'
    value: object              # int for 'int', else the text (a Variable without its quote)
    pos: tuple                 # (line, column)

    def __str__(self):
        return ("'" if self.kind == 'var' else '') + str(self.value)


class Positions:
    """Maps a text index to a 1-based (line, column)."""

    def __init__(self, text):
        self.starts = [0] + [m.end() for m in re.finditer('\n', text)]

    def __call__(self, index):
        line = bisect.bisect_right(self.starts, index)
        return (line, index - self.starts[line - 1] + 1)


class RecycleLexer(Lexer):
    tokens = {'LPAREN', 'RPAREN', 'COMMA', 'INT', 'WORD', 'VAR', 'SYMBOL'}
    ignore = ' \t\r'
    ignore_comment = r';[^\n]*'

    LPAREN = r'\('
    RPAREN = r'\)'
    COMMA = r','
    VAR = r"'[A-Za-z0-9_]+"
    INT = r'[0-9]+'
    WORD = r'[A-Za-z_][A-Za-z0-9_]*'
    SYMBOL = r'//|==|!=|<=|>=|\.\.|[+\-*<>]'

    @_(r'\n+')
    def ignore_newline(self, tok):
        # lines counted as they pass: a token's column is its distance from the last
        self.lineno += len(tok.value)
        self.line_start = tok.index + len(tok.value)

    def error(self, tok):
        raise PipError(self.pos(self.index), 'Illegal character: %r' % self.text[self.index])

    def tokenize(self, text, lineno=1, index=0):
        self.pos = Positions(text)          # (an error's position)
        self.line_start = 0
        for tok in super().tokenize(text, lineno, index):
            tok.value = _atom(tok.type, tok.value, (tok.lineno, tok.index - self.line_start + 1))
            if tok.type in _ATOMS:
                tok.type = 'ATOM'       # the parser reads every atom alike
            yield tok


_ATOMS = frozenset(('INT', 'WORD', 'VAR', 'SYMBOL'))


def _atom(kind, text, pos):
    if kind == 'INT':
        if len(text) > 18:
            raise PipError(pos, 'Integer literal is too long')
        return Atom('int', int(text), pos)
    if kind == 'VAR':
        name = text[1:]
        if not name.isupper():
            raise PipError(pos, "A Variable is a quote and an upper-case word, as 'P; found %s" % text)
        return Atom('var', name, pos)
    if kind == 'WORD':
        if text == 'mod':
            return Atom('symbol', text, pos)
        if text.islower():
            return Atom('name', text, pos)
        if text.isupper():
            return Atom('string', text, pos)
        raise PipError(pos, 'A word is all lower case (a name) or all upper case (a String); '
                       'found %s' % text)
    if kind in ('LPAREN', 'RPAREN', 'COMMA'):
        return Atom('punct', text, pos)
    return Atom('symbol', text, pos)
