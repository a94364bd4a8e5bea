"""Helpers shared by the tests."""
import os

from compiler.errors import PipError

DATA = os.path.join(os.path.dirname(__file__), 'data')


def error_text(fn, *args):
    """The one-line error `fn(*args)` raises, or '' when it succeeds."""
    try:
        fn(*args)
    except PipError as e:
        return str(e)
    return ''
