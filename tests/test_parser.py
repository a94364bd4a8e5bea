"""The grammar: precedence, associativity, positions and syntax errors."""
import pytest

from compiler.pip import ast
from compiler.errors import PipError, PipSyntaxError
from compiler.pip.parser import parse
from compiler.pip.printer import game as print_game

HEAD = 'Game "g" requires 2 players.\n'


def printed_expr(src):
    """An expression printed back in the reference's fully parenthesised form."""
    out = print_game(parse(HEAD + 'Boolean b = %s.\n' % src))
    return out.splitlines()[1][len('Boolean b = '):-1]


@pytest.mark.parametrize('src,printed', [
    # `->` binds tightest, then `..`, `,`, `* /`, `+ -`, comparisons, not, and, or.
    ('a->b->c', '((a)->b)->c'),
    ('(a)->b', '(a)->b'),
    ('2,3..5~C,D', '2,3..5~C,D'),
    ('a * b + c', '((a) * (b)) + (c)'),
    ('a + b * c', '(a) + ((b) * (c))'),
    ('a - b - c', '((a) - (b)) - (c)'),
    ('a / b * c', '((a) / (b)) * (c)'),
    ('a + b < c - d', '((a) + (b)) < ((c) - (d))'),
    ('not a == b', 'not ((a) == (b))'),
    ('not a and b', '(not (a)) and (b)'),
    ('a or b and c', '(a) or ((b) and (c))'),
    ('a and b or c', '((a) and (b)) or (c)'),
    ('a or b or c', '((a) or (b)) or (c)'),
    ('x in l and y', '((x) in (l)) and (y)'),
    ('a + b in l', '((a) + (b)) in (l)'),
    ('(a or b) and c', '((a) or (b)) and (c)'),
    ('defined a->b', 'defined (a)->b'),
    ('canplay r from p to q->hand', 'canplay r from p to (q)->hand'),
    ('[a; [b]; []]', '[a; [b]; []]'),
    ('%~%', '%~%'),
    ('%~H,S', '%~H,S'),
    ('A..K~%', 'A..K~%'),
    ('"a{b}\\"\\{"', '"a{b}\\"\\{"'),
])
def test_precedence_and_printing(src, printed):
    assert printed_expr(src) == printed


@pytest.mark.parametrize('src', ['a == b == c', 'a < b > c', 'a in b in c', 'a != b <= c'])
def test_comparisons_do_not_chain(src):
    with pytest.raises(PipSyntaxError):
        printed_expr(src)


@pytest.mark.parametrize('src,printed', [
    # ocamlyacc's default reduction overrides `%nonassoc DOTDOT`: the reference
    # accepts a chained range (the checker then rejects it).
    ('1..2..3~C', '1..2..3~C'),
    ('not not a', 'not (not (a))'),
    ('not a in b', 'not ((a) in (b))'),
    ('a == not b', '(a) == (not (b))'),
    ('1,2,3~C', '1,2,3~C'),
    ('A~C,D,H', 'A~C,D,H'),
    ('(a->b)->c->d', '(((a)->b)->c)->d'),
])
def test_forms_checked_against_the_reference(src, printed):
    assert printed_expr(src) == printed


def test_positions_of_nodes():
    g = parse(HEAD + 'Number n = 1 +\n  x->y.\nAction main {\n  p->score += 2.\n}\n')
    var, action = g.decls
    assert var.pos == (2, 1)
    assert var.init.pos == (2, 14)                  # a binary operator's position
    assert var.init.right.pos == (3, 3)             # a reference starts at its object
    assert var.init.right.ref.pos == (3, 6)         # a property at its name
    assert action.body[0].pos == (5, 3)


def test_player_counts():
    assert parse('Game "g" requires 4 to 2 players.').count.counts == [4, 3, 2]
    assert parse('Game "g" requires 2 or 4 players.').count.counts == [2, 4]
    t = parse('Game "g" requires 2 teams of 2.').count
    assert isinstance(t, ast.TeamCount) and (t.counts, t.size) == ([2], 2)


@pytest.mark.parametrize('text,line', [
    ('Game "g" requires 2 players.\n\n\nDeck d foo.\n', 4),
    ('Game "g" requires 2 players.\nAction main {\n', 3),     # at end of file
    ('Game "g" requires 2 players.\nAction main {', 2),
    ('Game "g" requires 2 players.\nNumber n = "a\nb" "c".', 3),   # string ends on line 3
    ('', 1),
    ('Game "g"', 1),
])
def test_syntax_error_lines(text, line):
    with pytest.raises(PipSyntaxError) as e:
        parse(text)
    assert str(e.value) == 'Error: syntax error on line %d' % line


def test_chained_range_parses_then_fails_the_checker():
    from compiler.pip.frontend import check_text
    with pytest.raises(PipError) as e:
        check_text(HEAD + 'Deck b = 1..2..3~C.\nAction main {}\n')
    assert str(e.value) == 'Error: Line 2, Col 10: Expected type Rank but found type RankList'


def test_lexical_error_comes_when_the_parser_reaches_it():
    with pytest.raises(PipError) as e:
        parse('Game "g" requires 2 players.\nDeck d = !.')
    assert str(e.value) == 'Error: Line 2, Col 10: Illegal character: !'
    with pytest.raises(PipSyntaxError):
        parse('Game "g" requires 2 players.\nDeck d d !.')


def test_equality_ignores_positions():
    assert parse(HEAD + 'Number n = 1+2.') == parse(HEAD + '\n\nNumber   n=1 + 2 .')
    assert parse(HEAD + 'Number n = 1+2.') != parse(HEAD + 'Number n = 2+1.')
