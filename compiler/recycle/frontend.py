"""Reading RECYCLE source and running its front end: the same functions as
compiler/pip/frontend.py, so a registry of languages can plug it in."""
import re

from compiler.codegen import generator as codegen
from pipvm.core.deepstack import deep
from pipvm.isa.pipc import read_file

from . import checker, printer, reader

DEFAULT_NAME = 'RECYCLE game'


def read_source(path):
    """The program's text, one character per byte (columns count bytes)."""
    return read_file(path).decode('latin-1')


def game_name(text):
    """RECYCLE games have no name: the first comment's text names it (`;; Agram`)."""
    m = re.match(r'\s*;+[ \t]*([^\n]*\S)', text)
    return m.group(1) if m else DEFAULT_NAME


def print_text(text):
    """The program printed back in one layout (printer.py), comments dropped."""
    return deep(lambda: (reader.read(text), printer.program(text))[1])


def check_text(text, strict=False):
    """The checked program (compiler/ir/checked.py), or PipError.  strict is
    Pip's (refuse extensions): RECYCLE has none, so it changes nothing."""
    return deep(lambda: checker.check(reader.read(text), game_name(text)))


def compile_text(text):
    """The compiled pipc.Program, or PipError."""
    return deep(lambda: codegen.generate(checker.check(reader.read(text), game_name(text))))
