"""RECYCLE as the tools see it: the Language record registered under the
`pipvm.languages` entry point group (pyproject.toml).

RECYCLE checks into Pip's checked program (compiler/ir), so compiling it
and `--set` are Pip's.  Its reference interpreter (compiler/reference/
recycle.py) walks RECYCLE's own syntax tree instead, so the checked value
the tools hand from one function to the next is a `Recycled`: the checked
program beside the tree and the game's name.
"""
import attrs

from compiler.codegen import compile_checked
from compiler.ir.settings import declarations, with_values
from pipvm.core.deepstack import deep
from pipvm.core.language import Language, lazy
from . import frontend


@attrs.frozen
class Recycled:
    program: object            # compiler/ir/checked.py's Program
    game: object               # ast.Game, what the reference walks
    name: str


def check(text, strict=False):
    """The Recycled of a source, or PipError (strict changes nothing: RECYCLE has no extensions)."""
    from . import checker, reader
    name = frontend.game_name(text)
    game = deep(lambda: reader.read(text))
    return Recycled(deep(lambda: checker.check(game, name)), game, name)


RECYCLE = Language(
    name='recycle',
    extensions=('.recycle', '.gdl'),
    read_source=frontend.read_source,
    print_text=frontend.print_text,
    check=check,
    compile=lambda checked: compile_checked(checked.program),
    declarations=lambda checked: declarations(checked.program),
    with_values=lambda checked, values: attrs.evolve(checked, program=with_values(checked.program, values)),
    interpreter=lazy('compiler.reference.recycle', 'Interpreter'),
)
