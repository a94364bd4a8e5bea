"""Pip as the tools see it: the Language record registered under the
`pipvm.languages` entry point group (pyproject.toml), through which the
runtime reaches Pip's front end, code generator and reference interpreter
without importing them (pipvm/core/language.py says what each field does).
"""
import attrs

from compiler.ir import checked as c
from compiler.ir import types as T
from pipvm.core.deepstack import deep
from pipvm.core.language import Declarations, Language
from pipvm.core.runtime import Rank, Suit
from . import frontend


def compile_checked(checked):
    from compiler.codegen import generator
    return deep(generator.generate, checked)


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


def interpreter(checked, table, rng, max_steps=None):
    from compiler.reference import pip as reference
    return reference.Interpreter(checked, table, rng, max_steps)


PIP = Language(
    name='pip',
    extensions=('.pip',),
    read_source=frontend.read_source,
    print_text=frontend.print_text,
    check=frontend.check_text,
    compile=compile_checked,
    declarations=declarations,
    with_values=with_values,
    interpreter=interpreter,
)
