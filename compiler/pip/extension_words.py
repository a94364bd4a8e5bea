"""The parser's checks of the words only extensions use (`for each player`,
`or pass`, `(count ... where ...)`): a word used otherwise gets the syntax
error a 2008 parser gives there.  A base of parser.PipParser."""
from collections import namedtuple

from ..errors import PipSyntaxError
from . import ast
from .lexer import Lexeme, Positions

SETS, PASS = 'sets', 'pass'      # words only in `for sets` and `or pass` (extensions)
OWNERS = ('player', 'team')
NEW, ITEM = 'new', 'item'           # `to new melds` and `(item K of L)` (extensions)
AreaListWord = namedtuple('AreaListWord', 'value pos')   # the type `Area[]`, as a token's value         # `for each player` / `for each team`
# The aggregates (extension) by the word before their last part.
AGGREGATES = {'where': ('count',), 'of': ('sum', 'max', 'min'), 'by': ('max', 'min')}
AGGREGATE_FORMS = ('expected "(count X in LIST where CONDITION)", "(sum X in LIST of NUMBER)" '
                   '(or max, min) or "(max X in LIST by ORDERING)" (or min)')


class ExtensionWords:
    def own_decl(self, p, init):
        for word, want in ((p.ID1, ('each',)), (p.ID2, OWNERS)):
            if word.value not in want:
                raise PipSyntaxError(Positions(self.text).line_at_end(word.end), word, word.pos,
                                     '"%s"' % word.value,
                                     'expected "for each player" or "for each team"')
        return ast.OwnDecl(p.dtype.value, p.ID0.value, p.ID2.value, init, p.dtype.pos)

    def passing(self, p):
        if p.ID.value != PASS:           # what a 2008 parser says of `to d or`
            self.refuse(p.OR, '"or"', 'expected "." (or "or pass")')

    def refuse(self, token, found, advice):
        """The syntax error a 2008 parser gives at token (a word of an extension
        used otherwise)."""
        raise PipSyntaxError(Positions(self.text).line_at_end(token.end), token, token.pos,
                             found, advice)

    def aggregate(self, p, how, body, words):
        for word, want in ((p.ID0, words), (how, ('where', 'of', 'by'))):
            if word.value not in want:
                raise PipSyntaxError(Positions(self.text).line_at_end(word.end), word, word.pos,
                                     '"%s"' % word.value, AGGREGATE_FORMS)
        return ast.Aggregate(p.ID0.value, p.ID1.value, p[4], how.value, body, p.LPAREN.pos)

    def new_group_deal(self, p):
        """`deal N (or all) from S to new melds.`"""
        word = p.ID
        if word.value != NEW:            # what a 2008 parser says of `to x y`
            self.refuse(word, '"%s"' % word.value, 'expected "." (or "new" before a list of groups)')
        count = None if isinstance(p[1], Lexeme) else p[1]        # (`all`)
        return ast.Deal(count, p.ref0, ast.NewGroup(p.ref1, word.pos), p.DEAL.pos)

    def item(self, p):
        """`(item K of L)`: K a number or a name."""
        if p.ID.value != ITEM:
            self.refuse(p.ID, '"%s"' % p.ID.value,
                        'expected "(item K of LIST)" or ' + AGGREGATE_FORMS[9:])
        at = p[2]
        index = (ast.NumLit(at.value, at.pos) if isinstance(at, Lexeme)
                 else ast.RefExpr(at, ast.ref_start(at)))
        return ast.Item(index, p.expr, p.LPAREN.pos)
