"""Reading Pip source and running the front end's passes over it."""
from . import checker, parser, printer
from pipvm.deepstack import deep
from pipvm.errors import PipError


def read_source(path):
    """The program's text, one character per byte (columns count bytes)."""
    try:
        with open(path, 'rb') as f:
            return f.read().decode('latin-1')
    except OSError as e:
        raise PipError(None, 'cannot read %s: %s' % (path, e.strerror or e)) from None


def print_text(text):
    """`pipvm parse`: the program printed back from its AST."""
    return deep(lambda: printer.game(parser.parse(text)))


def check_text(text):
    """The checked program, or PipError with the reference's first diagnostic."""
    return deep(lambda: checker.check(parser.parse(text)))
