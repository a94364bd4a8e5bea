"""RECYCLE as the tools see it: the Language record registered under the
`pipvm.languages` entry point group (pyproject.toml).  RECYCLE checks into
Pip's checked program (compiler/ir), so compiling it and `--set` are the
same as Pip's; its own reference interpreter is not written yet.
"""
from compiler.codegen import compile_checked
from compiler.ir.settings import declarations, with_values
from pipvm.core.errors import PipError
from pipvm.core.language import Language
from . import frontend


def interpreter(checked, table, rng, max_steps=None):
    raise PipError(None, 'RECYCLE has no reference interpreter yet: use --engine vm')


RECYCLE = Language(
    name='recycle',
    extensions=('.recycle', '.gdl'),
    read_source=frontend.read_source,
    print_text=frontend.print_text,
    check=frontend.check_text,
    compile=compile_checked,
    declarations=declarations,
    with_values=with_values,
    interpreter=interpreter,
)
