"""The RECYCLE grammar (SLY): S-expressions.

The grammar reads the nesting of parentheses; which form a list is (a
`move`, a `stage`, a conditional action) is read from its words by
reader.py, which builds the syntax tree.  Keeping the two apart keeps the
LALR grammar free of conflicts, since RECYCLE marks a conditional action
`(CONDITION ACTION)` by nothing but its shape.
"""
import attrs
from sly import Parser

from ..errors import PipError
from .lexer import RecycleLexer


@attrs.define(slots=True)
class SList:
    items: list                # Atoms and SLists, commas left out
    pos: tuple                 # the opening parenthesis
    commas: bool = False       # written with commas: a list of Strings or of seats


class _Quiet:
    def __getattr__(self, name):
        return lambda *args, **kwargs: None


class RecycleParser(Parser):
    tokens = RecycleLexer.tokens
    log = _Quiet()

    @_('forms')
    def program(self, p):
        return p.forms

    @_('')
    def forms(self, p):
        return []

    @_('forms form')
    def forms(self, p):
        return p.forms + [p.form]

    @_('forms COMMA')
    def forms(self, p):
        self.commas.append(p.COMMA)
        return p.forms + [p.COMMA]

    @_('LPAREN forms RPAREN')
    def form(self, p):
        items = [x for x in p.forms if not (type(x) is not SList and x.kind == 'punct')]
        return SList(items, p.LPAREN.pos, len(items) < len(p.forms))

    @_('INT', 'WORD', 'VAR', 'SYMBOL')
    def form(self, p):
        return p[0]

    def error(self, tok):
        if tok is None:
            raise PipError(self.end_pos, "Unexpected end of file: a '(' is not closed")
        raise PipError(tok.value.pos, "Unexpected '%s'" % tok.value.value)


def parse(text):
    """The program's top-level forms (SLists and Atoms)."""
    lexer, parser = RecycleLexer(), RecycleParser()
    parser.commas = []
    lines = text.split('\n')
    parser.end_pos = (len(lines), len(lines[-1]) + 1)
    forms = parser.parse(lexer.tokenize(text))
    return forms if forms is not None else []
