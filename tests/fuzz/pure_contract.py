"""pure.py's contract on the shapes it gives a rule or ordering (its
docstrings), checked against the code's instructions alone.  Nothing here
calls pure.py's functions: its trees are only read.  A mutant that settles
a rule less often or wrongly, loses the by-card or one-closure shape of an
`or` of equalities, or filters a hand without its shortcut gives the same
values as the whole rule (that is the point of a shape), so the
differential properties cannot see it; these postconditions can.  Property
1c (test_pure.test_closures_match_the_loop) runs them on every generated
program and at every rule filtering.

The instructions are read as every path through them (code has only
forward jumps), each path its tests (the value a conditional jump tests,
and which way it went) and the value it returns.  pure.py builds one tree
with the branches joined; the two are written independently.
"""
import operator

from pipvm.core import runtime
from pipvm.core.runtime import PROPERTY_NAMES
from pipvm.isa import pipc

# pure.py's documented numbers and kinds, written again
MAX_CONDITIONS = 6          # a rule with more conditions is not settled
MAX_KEYS = 256              # combinations of the globals' values kept
PLAIN = {bool, int, runtime.Rank, str, runtime.Suit, type(None)}
CARD = 1                    # a rule's arguments: (player, card, destination)
FIRST = runtime.LIST_PROPERTIES.index('first')
ITEMS = {FIRST, runtime.LIST_PROPERTIES.index('last')}
COMPARE = {'EQ': operator.eq, 'NE': operator.ne, 'LT': operator.lt, 'LE': operator.le,
           'GT': operator.gt, 'GE': operator.ge}
MAX_PATHS = 5000            # more: the contract is not checked for that code


class Unchecked(Exception):
    """Code the contract does not read: too many paths, or instructions the
    compiler never writes in an expression."""


# A tree is a tuple (name, args, *operands): ('CONST', (value,)) for a
# constant that is not a card's (('CARD_CONST', (k,)) for one), ('KEPT',
# (), t) for the value t a jump kept.
def paths(decoded, consts, card_consts):
    """Every path through an expression's code, as (tests, value), tests a
    tuple of (tree, went, on_true): `went` the truth it took, on_true the
    kind of jump (JUMP_IF_TRUE_OR_POP).  None if the code is not what the
    compiler makes of an expression."""
    at = {ins.offset: i for i, ins in enumerate(decoded)}
    out = []

    def walk(i, stack, tests):
        while True:
            ins = decoded[i]
            name, args = ins.op.name, tuple(ins.args)
            if name == 'RETURN_VALUE':
                out.append((tuple(tests), stack[-1]))
                if len(out) > MAX_PATHS:
                    raise Unchecked()
                return
            if name in ('JUMP_IF_TRUE_OR_POP', 'JUMP_IF_FALSE_OR_POP'):
                on_true, cond = name == 'JUMP_IF_TRUE_OR_POP', stack[-1]
                walk(at[args[0]], stack[:-1] + [('KEPT', (), cond)], tests + [(cond, on_true, on_true)])
                walk(i + 1, stack[:-1], tests + [(cond, not on_true, on_true)])
                return
            if name == 'AGG_START':
                # its loop is one value here: on to the instruction after AGG_STEP
                j, depth = i + 1, 0
                while decoded[j].op.name != 'FOR_ITER' or depth:
                    depth += (decoded[j].op.name == 'AGG_START') - (decoded[j].op.name == 'AGG_STEP')
                    j += 1
                stack = stack + [('AGG', (ins.offset,))]
                i = at[decoded[j + 1].args[1]]
                continue
            if name in ('JUMP', 'JUMP_IF_FALSE', 'DUP', 'SWAP', 'POP', 'DROP'):
                raise Unchecked()       # (not compiled in an expression)
            if name == 'CONST':
                # a card's constant is the machine's card, not a plain value:
                # pure.py settles no condition on it (pure._on_globals)
                node = ('CARD_CONST', args) if args[0] in card_consts else ('CONST', (consts[args[0]],))
            elif name == 'LIST_CONST' and args[0] in card_consts:
                node = ('CARD_LIST', args)
            else:
                n = ins.op.stack_pops(ins.args)
                node = (name, args) + tuple(stack[len(stack) - n:])
                stack = stack[:len(stack) - n]
            stack = stack + [node]
            i += 1
    try:
        walk(0, [], [])
    except Unchecked:
        return None
    return out


def on_globals(t):
    """A comparison of globals and constants (or its `not`): a condition."""
    if t[0] == 'NOT' or t[0] in COMPARE:
        return all(on_globals(u) or u[0] in ('CONST', 'LOAD_GLOBAL') for u in t[2:])
    return False


def conditions(ps):
    """The conditions the paths test, each once."""
    return list(dict.fromkeys(t for tests, _ in ps for t, _, _ in tests if on_globals(t)))


def value(t, machine):
    """A condition's value on the machine's globals (raises if it fails)."""
    name = t[0]
    if name == 'CONST':
        return t[1][0]
    if name == 'LOAD_GLOBAL':
        v = machine.globals[t[1][0]]
        if v is None:
            raise LookupError('undefined')
        return v
    if name == 'NOT':
        return not value(t[2], machine)
    return COMPARE[name](value(t[2], machine), value(t[3], machine))


def known(t, values):
    """(t's value,) if settling makes t a constant, else None."""
    if t[0] == 'CONST':
        return t[1]
    if t in values:
        return (values[t],)
    if t[0] == 'KEPT':
        return known(t[2], values)
    return None


def settled(ps, values):
    """The paths a rule settled for the conditions' values can take, each
    with only its free tests, the known trees replaced by constants."""
    def sub(t):
        k = known(t, values)
        return ('CONST', k) if k is not None else t[:2] + tuple(sub(u) for u in t[2:])
    out = []
    for tests, v in ps:
        free = []
        for t, went, on_true in tests:
            k = known(t, values)
            if k is None:
                free.append((sub(t), went, on_true))
            elif bool(k[0]) is not went:
                break
        else:
            out.append((tuple(free), sub(v)))
    return out


def chain(ps):
    """The terms [t1, ..., tn] if the paths are exactly those of
    `t1 or ... or tn` (n >= 1), else None."""
    last = [p for p in ps if all(not went and on_true for _, went, on_true in p[0])]
    if len(last) != 1:
        return None
    terms = [t for t, _, _ in last[0][0]] + [last[0][1]]
    want = {(tuple((t, False, True) for t in terms[:k]) + ((terms[k], True, True),),
             ('KEPT', (), terms[k])) for k in range(len(terms) - 1)}
    want.add(last[0])
    return terms if len(ps) == len(terms) and set(ps) == want else None


def path(t):
    """(slot, item) for a stored property of a local or of a local list's
    first or last item; None for other trees."""
    if t[0] != 'LOAD_PROP':
        return None
    of = t[2]
    if of[0] == 'LOAD_LOCAL':
        return of[1][0], None
    if of[0] == 'LIST_PROP' and of[1][0] in ITEMS and of[2][0] == 'LOAD_LOCAL':
        return of[2][1][0], of[1][0]
    return None


def equality(t):
    """(left path, right path or None) for `path == path` or `path == constant`."""
    if t[0] != 'EQ' or path(t[2]) is None:
        return None
    if t[3][0] == 'CONST':
        return path(t[2]), None
    return (path(t[2]), path(t[3])) if path(t[3]) is not None else None


def one_closure(ps):
    """Is the expression `t1 or ...` (or a lone t1) of equalities: one closure?"""
    terms = chain(ps)
    return terms is not None and all(equality(t) for t in terms)


def by_card(ps):
    """The terms if the expression is `card->P == X or ...` (two or more, X
    not read from the card): its Xs computed once for a whole hand; else None."""
    terms = chain(ps)
    if terms is None or len(terms) < 2:
        return None
    for t in terms:
        e = equality(t)
        if e is None or e[0] != (CARD, None) or (e[1] is not None and e[1][0] == CARD):
            return None
    return terms


def card_tests(terms, env):
    """[(the card's property, X's value)] for by_card's terms in a rule's
    environment, or None if an X fails (an empty list's item, an undefined
    property): then the rule's closure runs card by card."""
    out = []
    for t in terms:
        x = t[3]
        if x[0] == 'CONST':
            value = x[1][0]
        else:
            slot, item = path(x)
            obj = env[slot]
            if item is not None:
                if not obj:
                    return None
                obj = obj[0] if item == FIRST else obj[-1]
            value = getattr(obj, PROPERTY_NAMES[x[1][0]])
            if value is None:
                return None
        out.append((PROPERTY_NAMES[t[2][1][0]], value))
    return out


def render(tree):
    """One of pure.py's condition trees in this module's form."""
    kind = type(tree).__name__
    if kind == 'Leaf':
        return ({'const': 'CONST', 'load_global': 'LOAD_GLOBAL'}.get(tree.kind, '?' + tree.kind),
                (tree.arg,))
    if kind == 'Unary':
        return (tree.op, () if tree.arg is None else (tree.arg,), render(tree.operand))
    if kind == 'Binary':
        return (tree.op, (), render(tree.left), render(tree.right))
    return ('?' + kind, ())


class Expected:
    """What pure.py must make of one code object."""

    def __init__(self, code, program, card_consts):
        self.paths = paths(pipc.decode(code.code), program.consts, set(card_consts))
        ps = self.paths or []
        self.terms = by_card(ps)    # the whole rule's by-card terms (None: not by card)
        self.conditions = conditions(ps)
        self.slots = sorted({leaf for c in self.conditions for leaf in _globals(c)})
        self.kept = set()           # the globals' values whose settled rule is kept
        self.by_values = {}         # the conditions' values -> the settled rule

    def violations(self, code, fast):
        """Where the translation breaks the contract (messages)."""
        if self.paths is None:
            return []
        out = []
        where = '%s %s' % (code.kind, code.name)
        if code.kind == 'ordering':
            constant = (len(self.paths) == 1 and not self.paths[0][0]
                        and self.paths[0][1][0] == 'CARD_LIST')
            if fast.constant != constant or fast.shapes is not None:
                out.append('%s: constant %s, shapes %r' % (where, fast.constant, fast.shapes))
            return out
        n = len(self.conditions)
        if not 1 <= n <= MAX_CONDITIONS:
            if fast.shapes is not None:
                out.append('%s: settled on %d conditions' % (where, n))
        elif fast.shapes is None:
            out.append('%s: %d conditions, not settled' % (where, n))
        else:
            got = [render(c) for c in fast.shapes.conditions]
            if len(got) != n or set(got) != set(self.conditions):
                out.append('%s: conditions %s, expected %s' % (where, got, self.conditions))
        out += shape(where, fast, self.paths, self.terms)
        return out

    def settle(self, code, fast, machine, env, settles):
        """Check the rule pure.py settles for env's hand (shapes.rule), with
        settles() counting Shapes.settle's calls; returns the rule that must
        filter the hand (fast itself if it is not settled), messages, and
        its by-card terms (None if it is not filtered by card)."""
        where = '%s %s' % (code.kind, code.name)
        if self.paths is None:
            return fast, [], None
        if fast.shapes is None:
            return fast, [], self.terms
        out = []
        key = tuple(machine.globals[s] for s in self.slots)
        try:
            cached = key in self.kept
        except TypeError:
            cached = False
        before = settles()
        rule = fast.shapes.rule(env)
        if settles() - before != (0 if cached else 1):
            out.append('%s: settled %d times for globals %r (kept: %s)'
                       % (where, settles() - before, key, cached))
        if (not cached and len(self.kept) < MAX_KEYS
                and all(type(v) in PLAIN for v in key)):
            self.kept.add(key)
            cached = True
        before = settles()      # again, for the same globals: kept, or settled again
        if fast.shapes.rule(env) is not rule or settles() - before != (0 if cached else 1):
            out.append('%s: settled again for globals %r otherwise (kept: %s)' % (where, key, cached))
        try:
            values = {c: value(c, machine) for c in self.conditions}
        except Exception:
            if rule is not None:
                out.append('%s: settled though a condition fails' % where)
            return fast, out, self.terms
        if rule is None:
            return fast, out + ['%s: not settled for %r' % (where, values)], None
        same = self.by_values.setdefault(tuple(values.values()), rule)
        if same is not rule:
            out.append('%s: settled again for the same values %r' % (where, values))
        ps = settled(self.paths, values)
        constant = len(ps) == 1 and not ps[0][0] and ps[0][1][0] == 'CONST'
        always = bool(ps[0][1][1][0]) if constant else None
        if rule.always != always:
            out.append('%s: settled for %r: always %r, expected %r' % (where, values, rule.always, always))
        terms = by_card(ps)
        return rule, out + shape(where + ' settled for %r' % values, rule, ps, terms), terms


def _globals(t):
    if t[0] == 'LOAD_GLOBAL':
        yield t[1][0]
    for u in t[2:]:
        yield from _globals(u)


def shape(where, fast, ps, terms):
    """A rule's closures: one for an `or` of equalities, the Xs of
    `card->P == X or ...` (terms: by_card(ps)) once for a whole hand."""
    out = []
    if (fast.by_card is not None) != (terms is not None):
        out.append('%s: by card %s' % (where, fast.by_card is not None))
    if (getattr(fast.fn, '__name__', '') == 'any_equal_') != one_closure(ps):
        out.append('%s: one closure %s' % (where, not one_closure(ps)))
    return out


class Counted:
    """A rule's closure, counting its calls (a rule filtered by card, or
    whose value is settled, must not call it)."""

    def __init__(self, rule):
        self.rule, self.fn, self.calls = rule, rule.fn, 0
        rule.fn = self

    def __call__(self, env):
        self.calls += 1
        return self.fn(env)

    def restore(self):
        self.rule.fn = self.fn
