"""What a language's front end gives the tools: the record a front end
declares (compiler/pip/language.py for Pip) and registers under the
`pipvm.languages` entry point group, where pipvm/play/languages.py finds it.

It lives in the bottom layer so that a front end can build one without
importing the runtime, and the runtime can use one without importing a
front end.  `checked` below is the front end's own checked program: the
tools only hand it from one function to the next.
"""
from pipvm.core.plain import NamedTuple


class Declarations(NamedTuple):
    """What `--set` needs to know of a program's declarations."""
    globals: list              # (name, type) per global slot; type: a pipc.GLOBAL_TYPES name
    codes: list                # (name, kind) per action, rule and ordering; kind: 'action' ...


class Language(NamedTuple):
    name: str                  # `--lang NAME`
    extensions: tuple          # ('.pip',): the source files it reads without --lang
    read_source: object        # path -> text (PipError when unreadable)
    print_text: object         # text -> the program printed back from its syntax tree
    check: object              # (text, strict=False) -> checked program, or PipError
    compile: object            # checked -> pipc.Program
    declarations: object       # checked -> Declarations
    with_values: object        # (checked, {slot: value}) -> checked, those globals' initialisers replaced
    interpreter: object        # (checked, table, rng, max_steps) -> the reference engine


def lazy(module, name):
    """The function `name` of `module`, imported at its first call: a
    language's record is loaded to learn its extensions, and a run of
    another language's file should not pay for this one's front end
    (its parser, checker and code generator)."""
    def call(*args, **kwargs):
        import importlib
        return getattr(importlib.import_module(module), name)(*args, **kwargs)
    call.__name__ = name
    return call
