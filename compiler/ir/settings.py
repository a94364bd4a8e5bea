"""What `--set` does with any language's checked program: its declarations
as `--set` names them, and its globals' initial values replaced.  Both
front ends (compiler/pip, compiler/recycle) check into this one checked
program, so their Language records share these."""
import attrs

from pipvm.core.language import Declarations
from pipvm.core.runtime import Rank, Suit

from . import checked as c
from . import types as T


def declarations(checked):
    return Declarations([(g.var.name, str(g.var.type)) for g in checked.globals],
                        [(a.name, 'action') for a in checked.actions] +
                        [(r.name, 'rule') for r in checked.rules] +
                        [(o.name, 'ordering') for o in checked.orderings])


def with_values(checked, values):
    """The checked program with each global's initialiser in values ({slot:
    int, bool, str, Rank or Suit}) a literal: as if its declaration said so."""
    inits = list(checked.globals)
    for slot, value in values.items():
        old = inits[slot]
        if type(value) is str:
            init = c.StrLiteral([value], T.STRING, old.pos)
        else:
            kind = {bool: T.BOOLEAN, int: T.NUMBER, Rank: T.RANK, Suit: T.SUIT}[type(value)]
            raw = value.letter if kind == T.SUIT else int(value) if kind == T.RANK else value
            init = c.Literal(raw, kind, old.pos)
        inits[slot] = attrs.evolve(old, init=init)
    return attrs.evolve(checked, globals=inits)
