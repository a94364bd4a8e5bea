"""The checker's shared pieces (checker.py, calls.py): failing with a
positioned error, what a type must fit, and what is threaded through one
action's statements."""
from compiler.ir import checked as c
from compiler.ir import types as T

from . import ast
from ..errors import PipError

_BUILTINS = {ast.Players: ('players', T.PLAYERS), ast.Teams: ('teams', T.TEAMS),
             ast.Standard: ('standard', T.CARDS)}


def fail(pos, message):
    raise PipError(pos, message)


def expect(expected, actual, pos):
    if not T.fits(expected, actual):
        fail(pos, 'Expected type %s but found type %s' % (expected, actual))


def expect_one_of(options, actual, pos):
    if not any(T.fits(t, actual) for t in options):
        fail(pos, 'Expected type to be one of %s but found type %s'
             % (' or '.join(str(t) for t in options), actual))


def expect_list(t, pos):
    if not isinstance(t, T.ListOf):
        fail(pos, 'Expected a list type but found type %s' % t)
    return t.elem


def expect_unique(names, name, pos, kind):
    if name in names:
        fail(pos, 'Duplicate %s: %s' % (kind, name))


RULE = object()     # a rule's or ordering's Body.gives: no calls there


class Body:
    """What the checker threads through one action's statements."""

    def __init__(self, gives=None):
        self.gives = gives     # the action's result type (extension), or None
        self.locals = 0        # frame slots used so far
        self.skips = {}        # pending skips of the current block: name -> pos
        self.labels = {}       # every label of the action: name -> pos
        self.loops = 0         # `for`/`forever` loops around the current statement

    def new_local(self, name, t):
        var = c.Local(self.locals, t, name)
        self.locals += 1
        return var


def written(e):
    """A reference as its author wrote it (for a hint), or None."""
    r = e.ref if isinstance(e, ast.RefExpr) else None
    if isinstance(r, ast.Id):
        return r.name
    if isinstance(r, ast.Prop):
        obj = written(r.obj)
        return None if obj is None else obj + '->' + r.name
    if r is not None and type(r) in _BUILTINS:
        return _BUILTINS[type(r)][0]
    return None


_CONTRADICTS = {'faceup': 'facedown', 'facedown': 'faceup',
                'squaredup': 'spreadout', 'spreadout': 'squaredup'}


def area_options(options):
    """(facedown, squaredup) from an area's options; both default to True.

    Like the reference, the contradiction reported is the one whose earlier
    option stands last.  Unlike it, `faceup` makes is_facedown False.
    """
    for i in range(len(options) - 1, -1, -1):
        word, pos = options[i]
        if any(later == _CONTRADICTS[word] for later, _ in options[i + 1:]):
            fail(pos, 'This option contradicts earlier options')
    words = [word for word, _ in options]
    face = next((w for w in words if w in ('faceup', 'facedown')), 'facedown')
    square = next((w for w in words if w in ('squaredup', 'spreadout')), 'squaredup')
    return face == 'facedown', square == 'squaredup'
