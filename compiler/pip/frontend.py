"""Reading Pip source and running the front end's passes over it."""
from . import checker, parser, printer
from compiler.codegen import generator as codegen
from pipvm.core.deepstack import deep
from pipvm.core.files import read_file


def read_source(path):
    """The program's text, one character per byte (columns count bytes)."""
    return read_file(path).decode('latin-1')


def print_text(text):
    """`pipvm parse`: the program printed back from its AST."""
    return deep(lambda: printer.game(parser.parse(text)))


def check_text(text, strict=False):
    """The checked program, or PipError with the reference's first diagnostic
    (strict: or at the first extension to 2008 Pip)."""
    return deep(lambda: checker.check(parser.parse(text), strict))


def compile_text(text):
    """The compiled pipc.Program, or PipError."""
    return deep(lambda: codegen.generate(checker.check(parser.parse(text))))
