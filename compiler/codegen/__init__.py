"""Code generation: the checked program to pipc bytecode."""
from pipvm.core.deepstack import deep


def compile_checked(checked):
    """The pipc.Program of a checked program (the generator is imported only
    when a tool compiles: `check` does not need it)."""
    from .generator import generate
    return deep(generate, checked)
