"""Tokens, their positions, strings and lexical errors."""
import pytest

from compiler.pip import ast
from compiler.pip.lexer import PipLexer, char_escaped

from .util import error_text


def lex(text):
    return [(t.type, t.value.value, tuple(t.value.pos)) for t in PipLexer().tokenize(text)]


def types(text):
    return [t for t, _, _ in lex(text)]


def lex_error(text):
    return error_text(lex, text)


def test_positions_are_line_and_one_based_column_on_every_line():
    toks = lex('Game  x\n\tab ->c\n# comment -> here\n\n  12..3')
    assert [(t, p) for t, _, p in toks] == [
        ('GAME', (1, 1)), ('ID', (1, 7)),
        ('ID', (2, 2)), ('ARROW', (2, 5)), ('ID', (2, 7)),   # a tab is one column
        ('NUMLIT', (5, 3)), ('DOTDOT', (5, 5)), ('NUMLIT', (5, 7)),
    ]


def test_positions_after_a_multi_line_string():
    toks = lex('"a\nbc" x')
    # The reference reports a string at its closing quote.
    assert toks[0][2] == (2, 3) and toks[1][2] == (2, 5)


def test_greedy_operators():
    assert types('-> - -= .. . == = != <= < >= > += + *= * /= /') == [
        'ARROW', 'MINUS', 'MINUSEQ', 'DOTDOT', 'DOT', 'EQ', 'ASSIGN', 'NOTEQ', 'LTEQ', 'LT',
        'GTEQ', 'GT', 'PLUSEQ', 'PLUS', 'TIMESEQ', 'TIMES', 'DIVIDEEQ', 'DIVIDE']
    assert types('a...b') == ['ID', 'DOTDOT', 'DOT', 'ID']
    assert types('{}()[];~%,') == ['LCURLY', 'RCURLY', 'LPAREN', 'RPAREN', 'LSQUARE', 'RSQUARE',
                                   'SEMI', 'TILDE', 'PERCENT', 'COMMA']


def test_keywords_types_and_literals_versus_identifiers():
    assert types('Deck Decks deal dealer A Ace K J Q C H S D True Truth players') == [
        'DECK', 'ID', 'DEAL', 'ID', 'ACE', 'ID', 'KING', 'JACK', 'QUEEN', 'CLUBS', 'HEARTS',
        'SPADES', 'DIAMONDS', 'TRUE', 'ID', 'PLAYERS']
    assert lex('2abc x_1')[:2] == [('NUMLIT', 2, (1, 1)), ('ID', 'abc', (1, 2))]
    assert lex('x_1')[0][1] == 'x_1'


def test_every_keyword_of_the_manual():
    words = ('all and ask at be by canplay deal defined else elseif facedown faceup for forever '
             'from if in is label labeled leaving let message not of or order play players '
             'requires rotate shuffle skip spreadout squaredup standard starting teams to winner')
    assert types(words) == [w.upper() for w in words.split()]


def test_string_escapes_and_interpolation():
    (_, parts, _), = lex(r'"a\n\t\"\\\q{x}b{}c{yz}"')
    assert parts == [ast.StrLit('a\n\t"\\q'), ast.StrRef(ast.Id('x', None)), ast.StrLit('b'),
                     ast.StrLit('c'), ast.StrRef(ast.Id('yz', None)), ast.StrLit('')]


def test_interpolated_name_position():
    (_, parts, _), = lex('\n  "ab{cd}"')
    assert parts[1].ref.pos == (2, 7)


@pytest.mark.parametrize('text,message', [
    ('\n  !', 'Error: Line 2, Col 3: Illegal character: !'),
    ('a _b', 'Error: Line 1, Col 3: Illegal character: _'),
    ("x '", "Error: Line 1, Col 3: Illegal character: \\'"),
    ('x\r\n', 'Error: Line 1, Col 2: Illegal character: \\r'),
    ('x \x00', 'Error: Line 1, Col 3: Illegal character: \\000'),
    ('x \xc3\xa9', 'Error: Line 1, Col 3: Illegal character: \\195'),
    ('Game "abc{de=}"', 'Error: Line 1, Col 13: Nested string identifier expected; found: ='),
    ('"{1}"', 'Error: Line 1, Col 3: Nested string identifier expected; found: 1'),
    ('"{a\n}"', 'Error: Line 1, Col 4: Nested string identifier expected; found: \\n'),
    ('x\n  "abc', 'Error: Line 2, Col 3: Unterminated string'),
    ('"abc\\', 'Error: Line 1, Col 1: Unterminated string'),
    ('"a{bc', 'Error: Line 1, Col 1: Unterminated string'),
])
def test_lexical_errors(text, message):
    assert lex_error(text) == message


def test_char_escaped_matches_ocaml():
    assert [char_escaped(c) for c in '"\\\t\b~\x7f'] == ['"', '\\\\', '\\t', '\\b', '~', '\\127']


def test_numbers_are_unbounded():
    assert lex('123456789012345678901234567890')[0][1] == 123456789012345678901234567890
