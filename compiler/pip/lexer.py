"""The Pip lexer (SLY), matching the original ocamllex scanner token for token.

Source text is decoded as Latin-1 by the caller, so one character is one byte
and columns count bytes, as the original's do.  Every token's value is a
`Lexeme` carrying its payload and its (line, column) position.
"""
import bisect
import re

import attrs
from sly import Lexer

from . import ast
from ..errors import PipError

KEYWORDS = {
    # types
    'Action': 'ACTION', 'Area': 'AREA', 'Boolean': 'BOOLEAN', 'Card': 'CARD',
    'CardList': 'CARDLIST', 'Deck': 'DECK', 'Game': 'GAME', 'Number': 'NUMBER',
    'Ordering': 'ORDERING', 'Player': 'PLAYER', 'PlayerList': 'PLAYERLIST',
    'Rank': 'RANK', 'RankList': 'RANKLIST', 'Rule': 'RULE', 'String': 'STRING',
    'Suit': 'SUIT', 'SuitList': 'SUITLIST', 'Team': 'TEAM', 'TeamList': 'TEAMLIST',
    # keywords
    'all': 'ALL', 'and': 'AND', 'ask': 'ASK', 'at': 'AT', 'be': 'BE', 'by': 'BY',
    'canplay': 'CANPLAY', 'deal': 'DEAL', 'defined': 'DEFINED', 'else': 'ELSE',
    'elseif': 'ELSEIF', 'facedown': 'FACEDOWN', 'faceup': 'FACEUP', 'for': 'FOR',
    'forever': 'FOREVER', 'from': 'FROM', 'if': 'IF', 'in': 'IN', 'is': 'IS',
    'label': 'LABEL', 'labeled': 'LABELED', 'leaving': 'LEAVING', 'let': 'LET',
    'message': 'MESSAGE', 'not': 'NOT', 'of': 'OF', 'or': 'OR', 'order': 'ORDER',
    'play': 'PLAY', 'players': 'PLAYERS', 'requires': 'REQUIRES', 'rotate': 'ROTATE',
    'shuffle': 'SHUFFLE', 'skip': 'SKIP', 'spreadout': 'SPREADOUT',
    'squaredup': 'SQUAREDUP', 'standard': 'STANDARD', 'starting': 'STARTING',
    'teams': 'TEAMS', 'to': 'TO', 'winner': 'WINNER',
    # literals
    'A': 'ACE', 'K': 'KING', 'Q': 'QUEEN', 'J': 'JACK',
    'C': 'CLUBS', 'H': 'HEARTS', 'S': 'SPADES', 'D': 'DIAMONDS',
    'True': 'TRUE', 'False': 'FALSE',
}

IDENT = r'[A-Za-z][A-Za-z0-9_]*'
_IDENT_RE = re.compile(IDENT)
# SLY's class namespace turns unknown upper-case names into tokens: use aliases.
_keywords, _ident = KEYWORDS, IDENT


_PROPERTY_IN_STRING = re.compile(r'\{(%s(?:->%s)+)\}' % (IDENT, IDENT))


def _property_hint(text, i):
    """The second line for `"{p->name}"` (the first stays the original's, as
    the corpus has it): how to show a property.  None for anything else."""
    start = text.rfind('{', 0, i)
    m = _PROPERTY_IN_STRING.match(text, start)
    if m is None or not text.startswith('->', i):
        return None
    return ('"{NAME}" shows a variable, not a property: write "let shown be %s." before it, '
            'then "{shown}"' % m.group(1))


@attrs.define(slots=True)
class Lexeme:
    value: object          # identifier text, int, string parts, or the token text
    pos: ast.Pos           # where the reference says the token is
    end: int               # index just past the token (for syntax-error lines)


def char_escaped(c):
    """OCaml's Char.escaped, which the reference uses in lexical errors."""
    special = {"'": "\\'", '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b'}
    if c in special:
        return special[c]
    if ' ' <= c <= '~':
        return c
    return '\\%03d' % ord(c)


class Positions:
    """Maps a text index to the reference's 1-based (line, column)."""

    def __init__(self, text):
        self.starts = [0] + [m.end() for m in re.finditer('\n', text)]

    def __call__(self, index):
        line = bisect.bisect_right(self.starts, index)
        return ast.Pos(line, index - self.starts[line - 1] + 1)

    def line_at_end(self, end):
        """The reference's current line once the lexer has read up to `end`."""
        return bisect.bisect_left(self.starts, end + 1)


class PipLexer(Lexer):
    tokens = {
        'ID', 'NUMLIT', 'STRINGLIT',
        'LCURLY', 'RCURLY', 'LPAREN', 'RPAREN', 'LSQUARE', 'RSQUARE',
        'ARROW', 'COMMA', 'DOT', 'DOTDOT', 'SEMI', 'TILDE', 'PERCENT',
        'ASSIGN', 'EQ', 'NOTEQ', 'LT', 'LTEQ', 'GT', 'GTEQ',
        'PLUS', 'MINUS', 'TIMES', 'DIVIDE', 'PLUSEQ', 'MINUSEQ', 'TIMESEQ', 'DIVIDEEQ',
        *_keywords.values(),
    }
    ignore = ' \t'
    ignore_comment = r'\#[^\n]*'
    ignore_newline = r'\n'

    # Longer operators first: SLY tries patterns in the order written.
    LCURLY = r'\{'
    RCURLY = r'\}'
    LPAREN = r'\('
    RPAREN = r'\)'
    LSQUARE = r'\['
    RSQUARE = r'\]'
    ARROW = r'->'
    COMMA = r','
    DOTDOT = r'\.\.'
    DOT = r'\.'
    SEMI = r';'
    TILDE = r'~'
    PERCENT = r'%'
    EQ = r'=='
    NOTEQ = r'!='
    LTEQ = r'<='
    GTEQ = r'>='
    LT = r'<'
    GT = r'>'
    ASSIGN = r'='
    PLUSEQ = r'\+='
    MINUSEQ = r'-='
    TIMESEQ = r'\*='
    DIVIDEEQ = r'/='
    PLUS = r'\+'
    MINUS = r'-'
    TIMES = r'\*'
    DIVIDE = r'/'
    NUMLIT = r'[0-9]+'
    STRINGLIT = r'"'

    @_(_ident)
    def ID(self, tok):
        tok.type = _keywords.get(tok.value, 'ID')
        return tok

    def STRINGLIT(self, tok):
        tok.value, self.index = self.scan_string(self.text, tok.index)
        tok.end = self.index
        return tok

    def scan_string(self, text, start):
        """Scan the string literal opening at `start`; return its parts and end.

        `{name}` inside a string is a reference to a variable; `\\n` and `\\t`
        are escapes; a backslash before any other character keeps that
        character.
        """
        parts, chars, i, n = [], [], start + 1, len(text)
        while True:
            if i >= n:
                raise PipError(self.pos(start), 'Unterminated string')
            c = text[i]
            if c == '"':
                parts.append(ast.StrLit(''.join(chars)))
                return parts, i + 1
            if c == '\\':
                if i + 1 >= n:
                    raise PipError(self.pos(start), 'Unterminated string')
                c = text[i + 1]
                chars.append({'n': '\n', 't': '\t'}.get(c, c))
                i += 2
            elif c == '{':
                parts.append(ast.StrLit(''.join(chars)))
                chars = []
                i += 1
                while True:
                    if i >= n:
                        raise PipError(self.pos(start), 'Unterminated string')
                    if text[i] == '}':
                        i += 1
                        break
                    m = _IDENT_RE.match(text, i)
                    if not m:
                        error = PipError(self.pos(i), 'Nested string identifier expected; found: '
                                         + char_escaped(text[i]))
                        error.hint = _property_hint(text, i)
                        raise error
                    parts.append(ast.StrRef(ast.Id(m.group(), self.pos(i))))
                    i = m.end()
            else:
                chars.append(c)
                i += 1

    def error(self, tok):
        raise PipError(self.pos(self.index), 'Illegal character: ' + char_escaped(self.text[self.index]))

    def tokenize(self, text, lineno=1, index=0):
        """Tokens whose values are Lexemes with reference positions."""
        self.pos = Positions(text)
        for tok in super().tokenize(text, lineno, index):
            value = number(tok.value, self.pos(tok.index)) if tok.type == 'NUMLIT' else tok.value
            # ocamllex reports a string at its closing quote (nested rules).
            at = tok.end - 1 if tok.type == 'STRINGLIT' else tok.index
            tok.value = Lexeme(value, self.pos(at), tok.end)
            yield tok


def number(digits, pos):
    try:
        return int(digits)
    except ValueError:  # beyond Python's int/str conversion limit
        raise PipError(pos, 'Number literal is too long') from None
