"""The checker's values: what a RECYCLE expression checks to.

A scalar (Integer, Boolean, Card, Player, Team) is a checked expression; a
String is a constant or a card's attribute (`cardatt`), compared by
expanding it over the values its key has (cards.py); a collection is a
description the checker walks when it is used (`Coll`), since the checked
program has lists but no filter or union of its own.
"""
import attrs

from compiler.ir import checked as c
from compiler.ir import types as T

from ..errors import PipError

INT, BOOL, STR, CARD, PLAYER, TEAM = 'Integer', 'Boolean', 'String', 'Card', 'Player', 'Team'
CARDS, PLAYERS, TEAMS = 'CardCollection', 'PlayerCollection', 'TeamCollection'
STRS, INTS, GAME = 'StringCollection', 'IntegerCollection', 'Game'
IR_TYPE = {INT: T.NUMBER, BOOL: T.BOOLEAN, CARD: T.CARD, PLAYER: T.PLAYER, TEAM: T.TEAM}
ELEMENT = {CARDS: CARD, PLAYERS: PLAYER, TEAMS: TEAM, STRS: STR, INTS: INT}


@attrs.define(slots=True)
class Val:
    type: str
    ir: object = None          # the checked expression (a scalar), or a Coll
    const: object = None       # the value of a constant Integer, String or StringCollection
    home: object = None        # a Card: the reference of the location it is in, if known
    ref: object = None         # a storage: its reference, to assign
    att: tuple = None          # a String from (cardatt KEY CARD): (KEY, card expression)
    guard: object = None       # a Card that may not exist ((top EMPTY)): the test that it does


# --- collections ----------------------------------------------------------------


@attrs.define(slots=True)
class LocColl:                 # a location: its reference (an area, or a card list)
    ref: object
    vis: str
    name: str


@attrs.define(slots=True)
class FilterColl:              # (filter COLL 'V COND)
    base: object
    var: str
    cond: object               # the syntax tree, checked with 'V bound at each use
    env: dict


@attrs.define(slots=True)
class UnionColl:
    parts: list


@attrs.define(slots=True)
class EachColl:                # (all PLAYERS 'P COLL): a collection of collections
    source: object             # a GroupColl
    var: str
    body: object               # the syntax tree
    env: dict


@attrs.define(slots=True)
class GroupColl:               # every player (team), or those a filter keeps
    kind: str                  # PLAYER or TEAM
    items: object              # the list's checked expression
    var: str = None
    cond: object = None        # filter: checked with var bound, or a function of the element
    env: dict = None


@attrs.define(slots=True)
class ListColl:                # a card list made by the checker (a materialized collection)
    items: object


def fail(pos, message):
    """A checking error: one positioned line."""
    raise PipError(pos, message)


def ref_expr(ref):
    return c.Ref(ref, ref.type, ref.pos)


def local_ref(local, pos):
    return c.VarRef(local, local.type, pos)


def local_expr(local, pos):
    return ref_expr(local_ref(local, pos))


def lit(value, type_, pos):
    return c.Literal(value, type_, pos)


def binary(left, op, right, type_, pos):
    return c.Binary(left, op, right, type_, pos)


def at_least(x):
    """An Integer's `x > N` as `x >= N + 1` (the same for Integers)."""
    if type(x) is c.Binary and x.op == '>' and type(x.right) is c.Literal and type(x.right.value) is int:
        return binary(x.left, '>=', lit(x.right.value + 1, T.NUMBER, x.right.pos), x.type, x.pos)
    return x


NEGATED = {'==': '!=', '!=': '==', '<': '>=', '>=': '<', '>': '<=', '<=': '>'}


def negation(x, pos):
    """not x, as the opposite comparison where x is one (one instruction fewer)."""
    if type(x) is c.Binary and x.op in NEGATED:
        return binary(x.left, NEGATED[x.op], x.right, x.type, x.pos)
    return c.Not(x, T.BOOLEAN, pos)


def conj(items, op, pos):
    """The `and` (`or`) of checked Booleans; folds constants away."""
    neutral = op == 'and'
    out = []
    for x in items:
        if type(x) is c.Literal:
            if x.value != neutral:
                return lit(not neutral, T.BOOLEAN, pos)
            continue
        out.append(x)
    if not out:
        return lit(neutral, T.BOOLEAN, pos)
    if op == 'and':     # `x >= N + 1` and then: one fused instruction (GE_CONST_AND), not three
        out = [at_least(x) for x in out[:-1]] + out[-1:]
    res = out[0]
    for x in out[1:]:
        res = binary(res, op, _given(x, res) if op == 'and' else x, T.BOOLEAN, pos)
    return res


def _given(x, facts):
    """x, read where facts hold (the tests `and`ed before it): a test inside
    it that facts make true is left out (Agram's 'lead size is 1 and not
    (there is a lead card and its suit is in the hand)')."""
    if type(x) is c.Not:
        inner = _given(x.expr, facts)
        return x if inner is x.expr else c.Not(inner, x.type, x.pos)
    if type(x) is c.Binary and x.op == 'and':
        parts, todo = [], [x]
        while todo:
            y = todo.pop()
            if type(y) is c.Binary and y.op == 'and':
                todo += [y.right, y.left]
            else:
                parts.append(y)
        kept = [y for y in parts if not implies(facts, y)]
        if len(kept) < len(parts):
            return conj(kept, 'and', x.pos)
    return x


def same_expr(a, b):
    """Are two checked expressions the same but for where they are written?"""
    if type(a) is not type(b):
        return False
    if type(a) in (list, tuple):
        return len(a) == len(b) and all(same_expr(x, y) for x, y in zip(a, b))
    if not attrs.has(type(a)):
        return a == b
    return all(same_expr(getattr(a, f.name), getattr(b, f.name)) for f in attrs.fields(type(a))
               if f.name != 'pos')


def implies(held, guard):
    """Does the checked condition held make `guard`, `X > N` (or `X >= N`),
    true: one of its `and`ed comparisons is `X == M` with M past N?"""
    if type(guard) is not c.Binary or guard.op not in ('>', '>=') or type(guard.right) is not c.Literal:
        return False
    todo = [held]
    while todo:
        x = todo.pop()
        if type(x) is not c.Binary:
            continue
        if x.op == 'and':
            todo += [x.left, x.right]
        elif x.op == '==' and type(x.right) is c.Literal and type(x.right.value) is int:
            m, n = x.right.value, guard.right.value
            if (m > n if guard.op == '>' else m >= n) and same_expr(x.left, guard.left):
                return True
    return False


_HOLDS = {'==': lambda m, n: m == n, '!=': lambda m, n: m != n, '<': lambda m, n: m < n,
          '<=': lambda m, n: m <= n, '>': lambda m, n: m > n, '>=': lambda m, n: m >= n}


def excludes(held, other):
    """Does the checked condition held make `other` false: one of held's
    `and`ed comparisons is `X == M` and one of other's `X op N` is false for
    M (Agram's lead, `size == 0`, against following's `size == 1`)?"""
    def terms(x):
        todo, out = [x], []
        while todo:
            y = todo.pop()
            if type(y) is c.Binary and y.op == 'and':
                todo += [y.left, y.right]
            elif type(y) is c.Binary and y.op in _HOLDS and type(y.right) is c.Literal \
                    and type(y.right.value) is int:
                out.append(y)
        return out
    known = [(x.left, x.right.value) for x in terms(held) if x.op == '==']
    return any(same_expr(x, y.left) and not _HOLDS[y.op](m, y.right.value)
               for y in terms(other) for x, m in known)
