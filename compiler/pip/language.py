"""Pip as the tools see it: the Language record registered under the
`pipvm.languages` entry point group (pyproject.toml), through which the
runtime reaches Pip's front end, code generator and reference interpreter
without importing them (pipvm/core/language.py says what each field does).
"""
from compiler.codegen import compile_checked
from compiler.ir.settings import declarations, with_values
from pipvm.core.language import Language, lazy

_FRONTEND = 'compiler.pip.frontend'      # imported when first used (pipvm.core.language.lazy)


def interpreter(checked, table, rng, max_steps=None):
    from compiler.reference import pip as reference
    return reference.Interpreter(checked, table, rng, max_steps)


PIP = Language(
    name='pip',
    extensions=('.pip',),
    read_source=lazy(_FRONTEND, 'read_source'),
    print_text=lazy(_FRONTEND, 'print_text'),
    check=lazy(_FRONTEND, 'check_text'),
    compile=compile_checked,
    declarations=declarations,
    with_values=with_values,
    interpreter=interpreter,
)
