"""Reading Pip source and running the front end's passes over it."""
import sys
import threading

from . import checker, parser, printer
from .errors import PipError

# Nesting depth is limited only by memory: the passes recurse over the tree,
# so they run on a thread with a large stack and a high recursion limit.
_STACK_BYTES = 1 << 29
_RECURSION_LIMIT = 2_000_000


def read_source(path):
    """The program's text, one character per byte (columns count bytes)."""
    try:
        with open(path, 'rb') as f:
            return f.read().decode('latin-1')
    except OSError as e:
        raise PipError(None, 'cannot read %s: %s' % (path, e.strerror or e)) from None


def deep(fn, *args):
    """Run fn(*args) on a thread whose stack fits very deep recursion."""
    result, error = [], []

    def target():
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(_RECURSION_LIMIT)
        try:
            result.append(fn(*args))
        except BaseException as e:   # handed to the calling thread
            error.append(e)
        finally:
            sys.setrecursionlimit(old)

    old_size = threading.stack_size(_STACK_BYTES)
    try:
        t = threading.Thread(target=target, name='pip-frontend', daemon=True)
        t.start()
    finally:
        threading.stack_size(old_size)
    t.join()
    if error:
        raise error[0]
    return result[0]


def print_text(text):
    """`pipvm parse`: the program printed back from its AST."""
    return deep(lambda: printer.game(parser.parse(text)))


def check_text(text):
    """The checked program, or PipError with the reference's first diagnostic."""
    return deep(lambda: checker.check(parser.parse(text)))
