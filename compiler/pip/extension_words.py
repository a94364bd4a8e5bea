"""The parser's checks of the words only extensions use (`for each player`,
`or pass`, `(count ... where ...)`): a word used otherwise gets the syntax
error a 2008 parser gives there.  A base of parser.PipParser."""
from ..errors import PipSyntaxError
from . import ast
from .lexer import Positions

SETS, PASS = 'sets', 'pass'      # words only in `for sets` and `or pass` (extensions)
OWNERS = ('player', 'team')
NEW, ITEM = 'new', 'item'           # `to new melds` and `(item K of L)` (extensions)         # `for each player` / `for each team`
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

    def new_group(self, word, groups):
        if word.value != NEW:            # what a 2008 parser says of `to x y`
            self.refuse(word, '"%s"' % word.value, 'expected "." (or "new" before a list of groups)')
        return ast.NewGroup(groups, word.pos)

    def item(self, p, index):
        if p.ID.value != ITEM:
            self.refuse(p.ID, '"%s"' % p.ID.value, 'expected "(item K of LIST)" or ' + AGGREGATE_FORMS[9:])
        return ast.Item(index, p.expr, p.LPAREN.pos)
