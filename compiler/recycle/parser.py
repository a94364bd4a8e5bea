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
    # One reduction per atom and one per list (a parse costs about 6 us a
    # reduction): the lexer gives every atom the one type ATOM, the list
    # being read grows in place, and no positions are tracked (each Atom
    # has its own).
    tokens = {'LPAREN', 'RPAREN', 'COMMA', 'ATOM'}
    log = _Quiet()
    track_positions = False

    @_('forms')
    def program(self, p):
        return p[0]

    @_('')
    def forms(self, p):
        return []

    @_('forms ATOM', 'forms COMMA')
    def forms(self, p):
        forms = p[0]
        forms.append(p[1])
        return forms

    @_('forms LPAREN forms RPAREN')
    def forms(self, p):
        forms, inner = p[0], p[2]
        items = [x for x in inner if not (type(x) is not SList and x.kind == 'punct')]
        forms.append(SList(items, p[1].pos, len(items) < len(inner)))
        return forms

    def error(self, tok):
        if tok is None:
            raise PipError(self.end_pos, "Unexpected end of file: a '(' is not closed")
        raise PipError(tok.value.pos, "Unexpected '%s'" % tok.value.value)


def parse(text):
    """The program's top-level forms (SLists and Atoms)."""
    lexer, parser = RecycleLexer(), RecycleParser()
    lines = text.split('\n')
    parser.end_pos = (len(lines), len(lines[-1]) + 1)
    forms = parser.parse(lexer.tokenize(text))
    return forms if forms is not None else []
