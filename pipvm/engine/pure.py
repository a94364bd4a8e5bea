"""Rules and orderings as closures: the specialised path for pure code.

A rule or ordering is one expression: it cannot decide, call, loop, store
or show anything.  `PLAY` and `CANPLAY` run a rule once per card of a hand
(CANPLAY_SET once per set), where the dispatch loop's set-up costs more
than the rule's own work.  At load time each such code object is
translated, by symbolic execution of its decoded instructions into
expression trees (pipvm/engine/expressions.py), into a tree of closures
made by the operations' closure factories (generated_cases.CLOSURES, from
their bodies): nothing is exec'd at run time.  Common shapes are one
closure each: `c->rank == cl->top->rank`, an `or` of such equalities and,
over a hand, `card->P == X or ...` with each X computed once.  Code the
compiler would not make (a hand-made .pipc) gives None: the loop runs it.

Errors stay the loop's: a closure that fails raises, and the caller runs
the same code on the loop, which raises at the right position.  That is
sound because the code is pure (the same state gives the same result);
an operand is evaluated where it is used rather than pushed, which may
change which of two failures comes first, never whether one happens.
"""
import functools
import operator

from pipvm.core import plain, runtime
from pipvm.core.plain import NamedTuple
from pipvm.core.errors import Fault
from pipvm.engine.expressions import (MAX_NODES, _BINARY, _CANPLAY, _COUNTED,  # noqa: F401
                                     _EXPRESSION, _LOADS, _UNARY, Aggregate, Binary, CanPlay,
                                     Counted, If, Keep, Leaf, Return, Unary, _Refused,
                                     _returns_kept, _Translator)
from pipvm.engine.generated_cases import CLOSURES
from pipvm.isa import pipc
from pipvm.isa.opcodes import AGG_MAX, OPCODES  # noqa: F401 (the aggregates' bodies)
from pipvm.core.runtime import PROPERTY_NAMES


class Pure:
    """One rule or ordering as a closure over an environment list: its
    locals, then a scratch slot per conditional jump, then the machine."""
    __slots__ = ('fn', 'pad', 'by_card', 'constant', 'shapes', 'always', 'hand')

    def __init__(self, fn, pad, by_card=None, constant=False, shapes=None, always=None,
                 hand=None):
        self.fn, self.pad, self.by_card = fn, pad, by_card
        self.hand = hand        # the compiled tier's filter (machine, player, dest) -> cards (rules.py)
        # Its value is a constant of the game (an ordering's list of cards):
        # the same list whatever the arguments and the state.
        self.constant = constant
        self.shapes = shapes    # a rule's Shapes: simpler rules for a whole hand
        self.always = always    # a rule whose value is this constant (None: not one)

    def call(self, machine, args):
        return self.fn(args + self.pad + [machine])

    def filter(self, machine, player, dest):
        """The cards of player's hand a rule of (player, card, dest) allows:
        by the rule's generated filter where it has one (the compiled
        tier), whose hoisting computes a condition on globals once for the
        hand as the settled rules of Shapes would (one call fewer than
        looking one up: Euchre's `legal` 0.36 against 0.55 us a hand)."""
        if self.hand is not None:
            return self.hand(machine, player, dest)
        shapes = self.shapes
        env = None              # (made only where a settled rule's hand filter is not enough)
        rule = self
        if shapes is not None:
            # (Shapes.rule's commonest case inline: PLAY and CANPLAY are hot)
            try:
                rule = shapes.by_globals[shapes.values(machine.globals)] or self
            except (KeyError, TypeError):
                env = [player, None, dest, *self.pad, machine]
                rule = shapes.rule(env) or self
            if rule.always is not None:
                return list(player.hand) if rule.always else []
        if rule.hand is not None:
            return rule.hand(machine, player, dest)
        if env is None:
            env = [player, None, dest, *self.pad, machine]
        tests = None
        if rule.by_card is not None:
            # `card->P == X or ...`: the Xs once, then each card's properties.
            try:
                tests = rule.by_card(env)
            except Exception:
                pass            # an X fails: fn evaluates it only where the rule does
        if tests is not None:
            return filter_by_card(player.hand, tests)
        return _kept(rule.fn, env, player.hand)


def translate(code, program, card_consts, generate=False):
    """The code object as a Pure, or None if it is not a plain expression;
    generate: its functions written as Python source (the compiled tier,
    pipvm/engine/rules.py), where they can be (knowing program's stores:
    rules.born_properties)."""
    if code.kind not in ('rule', 'ordering'):
        return None
    try:
        decoded = pipc.decoded(code.code)
    except pipc.BadCode:
        return None
    t = _Translator(decoded, program, card_consts, len(code.local_names))
    try:
        tree = t.block(0, ())
        machine = t.first_scratch + t.scratch
        fn = _Builder(machine).build(tree)
    except (_Refused, RecursionError):      # (very deep code stays on the loop)
        return None
    constant = (type(tree) is Return and not tree.dropped and type(tree.value) is Leaf
                and tree.value.kind == 'list_const')
    # the env: the arguments, the other locals (an aggregate's item), the scratch slots
    pad = [None] * (machine - ARGUMENTS[code.kind])
    generating = program if generate else None
    return _made(tree, machine, fn, pad, code.kind == 'rule', generating, constant=constant,
                 shapes=Shapes.of(tree, machine, pad, generating) if code.kind == 'rule' else None)


def _made(tree, machine, fn, pad, rule, generating, **more):
    """The Pure of a tree whose closure is fn: with generated functions if
    generating, the program they are written for, is not None (rules.py
    writes them at the first call: _Unwritten)."""
    made = Pure(fn, pad, _by_card(tree, CARD_SLOT), **more)
    if generating is not None:
        unwritten = _Unwritten(made, tree, machine, rule, generating)
        made.fn = unwritten.value
        made.hand = unwritten.hand if rule else None
    return made


class _Unwritten:
    """A Pure's generated functions (rules.py), each until its first call,
    which writes it: writing one is about half a millisecond, and a game
    starts without writing the rules and orderings it does not use yet
    (nor the value of a rule it only filters hands by)."""
    __slots__ = ('pure', 'tree', 'machine', 'rule', 'closure', 'program')

    def __init__(self, pure, tree, machine, rule, program):
        self.pure, self.tree, self.machine, self.rule = pure, tree, machine, rule
        self.closure = pure.fn
        self.program = program

    def write(self):
        """Both functions (as at a first call of each: for tests and listings)."""
        self.write_value()
        self.write_hand()

    def _rules(self):
        from pipvm.engine import rules      # (cases.py's bodies: only the compiled tier)
        return rules, _Builder(self.machine).build, rules.born_properties(self.program)

    def write_value(self):
        if self.pure.fn == self.value:
            rules, build, born = self._rules()
            self.pure.fn = rules.value_function(self.tree, self.machine, build, born) \
                or self.closure

    def write_hand(self):
        if self.rule and self.pure.hand == self.hand:
            rules, build, born = self._rules()
            self.pure.hand = rules.hand_function(self.tree, self.machine, build, CARD_SLOT, born)

    def value(self, env):
        self.write_value()
        return self.pure.fn(env)

    def hand(self, machine, player, dest):
        self.write_hand()
        if self.pure.hand is not None:
            return self.pure.hand(machine, player, dest)
        return _kept(self.pure.fn, [player, None, dest, *self.pure.pad, machine], player.hand)


def _kept(fn, env, hand):
    """The cards of hand a rule's closure fn allows, each in env's card slot."""
    out = []
    for card in hand:
        env[CARD_SLOT] = card
        if fn(env):
            out.append(card)
    return out


def hand_written(fast):
    """fast (a rule's Pure) with its filter of a hand written, as it is at
    its first call (its value's function is not)."""
    hand = fast.hand
    if type(getattr(hand, '__self__', None)) is _Unwritten:
        hand.__self__.write_hand()
    return fast


def written(fast):
    """fast (a Pure, or None) with its generated functions written, as they
    are at its first call: for tests and listings that read them."""
    for fn in (getattr(fast, 'fn', None), getattr(fast, 'hand', None)):
        if type(getattr(fn, '__self__', None)) is _Unwritten:
            fn.__self__.write()
    return fast


CARD_SLOT = 1           # a rule's arguments: (player, card, destination)
ARGUMENTS = {'rule': 3, 'ordering': 1}


# Each has a closure factory, written from its body (pipvm/isa/instructions.py).
assert (_LOADS | _UNARY | _BINARY | _COUNTED | _CANPLAY) - {'CONST'} <= set(CLOSURES)
# Operands the VM decodes (pipvm/isa/opcodes.OPERANDS): a property by its name.
_DECODE = {'LOAD_PROP': PROPERTY_NAMES.__getitem__, 'DEFINED_PROP': PROPERTY_NAMES.__getitem__}


class _Builder:
    """Expression trees to closures env -> value.  env[machine] is the Machine."""

    def __init__(self, machine):
        self.m = machine

    def build(self, t):
        if type(t) is Leaf:
            return getattr(self, 'b_' + t.kind)(t.arg)
        return getattr(self, 'b_' + type(t).__name__)(t)

    # --- control ------------------------------------------------------------

    def b_Return(self, t):
        v, dropped = self.build(t.value), t.dropped
        if not dropped:
            return v
        fs = [self.build(d) for d in dropped]

        def after_dropped(env):
            for f in fs:
                f(env)
            return v(env)
        return after_dropped

    def b_If(self, t):
        c, then, e = self.build(t.cond), self.build(t.then), self.build(t.else_)
        return lambda env: then(env) if c(env) else e(env)

    def b_Keep(self, t):
        on_true, slot = t.on_true, t.slot
        if _returns_kept(t):
            # the kept value is the result: Python's `or` / `and` exactly,
            # a chain of them as one closure
            terms, rest = _chain(t)
            if on_true and type(rest) is Return and not rest.dropped:
                anyeq = _any_equal(terms + [rest.value])
                if anyeq is not None:
                    return anyeq
            fs = [self.build(t) for t in terms] + [self.build(rest)]
            if len(fs) == 2:
                c, r = fs
                if on_true:
                    return lambda env: c(env) or r(env)
                return lambda env: c(env) and r(env)
            if on_true:
                def any_of(env):
                    for f in fs:
                        v = f(env)
                        if v:
                            return v
                    return v
                return any_of

            def all_of(env):
                for f in fs:
                    v = f(env)
                    if not v:
                        return v
                return v
            return all_of
        c, r = self.build(t.cond), self.build(t.rest)
        k = self.build(t.kept)

        def keep(env):
            v = c(env)
            if bool(v) is on_true:
                env[slot] = v
                return k(env)
            return r(env)
        return keep

    # --- values -------------------------------------------------------------

    def b_const(self, value):
        return lambda env: value

    def b_card_const(self, k):
        return CLOSURES['CONST'](self.m, k)

    def b_list(self, value):
        return lambda env: list(value)

    def b_list_const(self, k):
        return CLOSURES['LIST_CONST'](self.m, k)

    def b_scratch(self, slot):
        return lambda env: env[slot]

    def __getattr__(self, name):
        # b_load_local, b_load_global, b_defined_prop, ...: a load's closure
        if not name.startswith('b_') or name[2:].upper() not in CLOSURES:
            raise AttributeError(name)
        return functools.partial(CLOSURES[name[2:].upper()], self.m)

    def b_Unary(self, t):
        if t.op == 'LOAD_PROP':
            return self.prop(t)
        return self.closure(t.op, t.arg, self.build(t.operand))

    def closure(self, name, arg, *inputs):
        """The closure of instruction name, its operand arg (None if it has
        none) and its inputs' closures."""
        operands = (() if arg is None else arg if type(arg) is tuple
                    else (_DECODE.get(name, _same)(arg),))
        return CLOSURES[name](self.m, *operands, *inputs)

    def prop(self, tree):
        """A stored property, undefined if None; a local's, or the first or
        last item of a local list's (_path), in one closure (the commonest
        in rules)."""
        path = _path(tree)
        if path is not None:
            if path.item is None:
                return CLOSURES['LOAD_LOCAL_PROP'](self.m, path.slot, path.prop)
            return CLOSURES['LOAD_LOCAL_ITEM_PROP'](self.m, path.slot, path.listprop, path.prop)
        return self.closure('LOAD_PROP', tree.arg, self.build(tree.operand))

    def b_Binary(self, t):
        name = t.op
        if name == 'EQ':
            compared = _any_equal([t])
            if compared is not None:
                return compared
        return self.closure(name, None, self.build(t.left), self.build(t.right))

    def b_CanPlay(self, t):
        return self.closure(t.op, t.rule, self.build(t.player), self.build(t.dest))

    def b_Aggregate(self, t):
        agg, slot, items, body = t.agg, t.slot, self.build(t.items), self.build(t.body)

        def aggregate_(env):
            # body: AGG_START agg=agg total=total
            total = 0 if agg < AGG_MAX else None
            # end of body
            # body: FOR_ITER lst=items(env) it=it
            it = iter(list(items(env)))
            # end of body
            for item in it:
                env[slot] = item
                value = body(env)
                # body: AGG_TOTAL agg=agg total=total value=value
                if agg < AGG_MAX:               # count (a Boolean adds 1 or 0), sum
                    total = int(total) + value
                elif total is None or (value > total if agg == AGG_MAX else value < total):
                    total = value
                # end of body
            return total
        return aggregate_

    def b_Counted(self, t):
        fs = [self.build(p) for p in t.parts]
        return self.closure(t.op.upper(), len(fs), fs)


def _same(arg):
    return arg


def _is_leaf(tree, *kinds):
    return type(tree) is Leaf and tree.kind in kinds


def _is_const(tree):
    return _is_leaf(tree, 'const')


@plain.frozen
class Path:
    """A stored property of a local (item None), or of the first (0) or
    last (-1) item of a local list."""
    slot: int
    item: object               # None, 0 or -1
    prop: str                  # the attribute's name
    listprop: object = None    # the LIST_PROP operand that reads the item


# LIST_PROP's operand for a list's first and last item (runtime.LIST_PROPERTIES),
# as the index of that item.
_ITEMS = {runtime.LIST_PROPERTIES.index('first'): 0, runtime.LIST_PROPERTIES.index('last'): -1}


def _path(tree):
    """The Path a tree reads, or None for other trees."""
    if type(tree) is not Unary or tree.op != 'LOAD_PROP':
        return None
    prop, of = PROPERTY_NAMES[tree.arg], tree.operand
    if _is_leaf(of, 'load_local'):
        return Path(of.arg, None, prop)
    if (type(of) is Unary and of.op == 'LIST_PROP' and of.arg in _ITEMS
            and _is_leaf(of.operand, 'load_local')):
        return Path(of.operand.arg, _ITEMS[of.arg], prop, of.arg)
    return None


def _chain(tree):
    """([t1, t2, ...], rest) for `t1 or t2 or ... rest` (or `and`): a keep
    node whose kept value is the result, then more of the same kind."""
    terms, on_true = [], tree.on_true
    while _returns_kept(tree) and tree.on_true == on_true:
        terms.append(tree.cond)
        tree = tree.rest
    return terms, tree


@plain.frozen
class Equality:
    """`path == path` or `path == constant` (then other is None)."""
    path: Path
    other: object              # a Path, or None
    value: object = None       # the constant

    def flat(self):
        """The Term any_equal and by_card read."""
        a, b = self.path, self.other
        if b is None:
            return Term(a.slot, a.item, a.prop, None, None, None, self.value)
        return Term(a.slot, a.item, a.prop, b.slot, b.item, b.prop, None)


class Term(NamedTuple):
    """An Equality flat, as the closures of any_equal and by_card read it
    (they unpack it as a plain tuple: CPython unpacks an exact tuple
    fastest, at every card)."""
    slot: int
    item: object               # None, 0 or -1 (Path)
    prop: str
    other_slot: object         # None: the other side is the constant
    other_item: object
    other_prop: object
    value: object              # the constant


def _by_card(tree, card):
    """For a rule that is `card->P == X or ...` (X not read from the card
    slot): a function env -> [(getter of P, X's value)], the values computed
    once for a whole hand (the rule is pure and only the card changes).
    None for other rules."""
    if type(tree) is not Keep or not tree.on_true:
        return None
    terms, rest = _chain(tree)
    if type(rest) is not Return or rest.dropped:
        return None
    equalities = [_equality(t) for t in terms + [rest.value]]
    if None in equalities or any(
            e.path.slot != card or e.path.item is not None
            or (e.other is not None and e.other.slot == card) for e in equalities):
        return None
    return by_card([e.flat() for e in equalities])


class Shapes:
    """A rule's conditions that depend only on globals and constants
    (Euchre's `not must_follow`, `led == trump`), evaluated once for a whole
    hand, and the rule settled for their values (the branches each card
    would take), made once for each combination: PLAY and CANPLAY then run
    for each card only what depends on it.  Sound because the rule is pure:
    nothing changes from card to card, and a condition has no effect but its
    value.  A condition that fails leaves the hand to the whole rule (which
    fails, or not, where the loop would: no card may reach that condition).

    The settled rule is found by the globals' values (one C call), as long
    as they are plain values (a Boolean, Number, Rank, Suit, String or
    undefined) of which the rules met so far are few; else by the
    conditions' values."""

    def __init__(self, tree, conditions, slots, machine, pad, generating=None):
        self.tree, self.conditions, self.generating = tree, conditions, generating
        self.tests = [_Builder(machine).build(c) for c in conditions]
        self.machine, self.pad = machine, pad
        self.values = operator.itemgetter(*slots) if slots else lambda globals_: ()
        self.by_globals = {}    # the globals' values -> the settled rule, or None
        self.by_tests = {}      # the conditions' values -> the settled rule

    @classmethod
    def of(cls, tree, machine, pad, generating=None):
        """The Shapes of a rule's tree, or None if it has no such condition."""
        try:
            conditions = list(dict.fromkeys(_conditions(tree)))
            if not conditions or len(conditions) > MAX_CONDITIONS:
                return None
            slots = sorted({leaf.arg for c in conditions for leaf in _leaves(c)
                            if leaf.kind == 'load_global'})
            # (slots + slots[:1]: itemgetter gives a tuple, even of one)
            return cls(tree, conditions, slots + slots[:1], machine, pad, generating)
        except RecursionError:
            return None

    def rule(self, env):
        """The rule settled for the hand of env's player, or None: the whole rule."""
        key = self.values(env[self.machine].globals)
        try:
            return self.by_globals[key]
        except KeyError:
            pass
        except TypeError:       # (a list: never a condition's operand, but a global's value)
            return self.settle(env)
        rule = self.settle(env)
        if len(self.by_globals) < MAX_KEYS and all(type(v) in _PLAIN for v in key):
            self.by_globals[key] = rule
        return rule

    def settle(self, env):
        try:
            values = tuple([test(env) for test in self.tests])
        except Exception:
            return None
        rule = self.by_tests.get(values)
        if rule is None:
            if any(type(v) is not bool for v in values):    # (only comparisons: never)
                return None
            tree = _settled(self.tree, dict(zip(self.conditions, values)), {})
            always = None
            if type(tree) is Return and not tree.dropped and _is_const(tree.value):
                always = bool(tree.value.arg)
            rule = self.by_tests[values] = _made(tree, self.machine,
                                                 _Builder(self.machine).build(tree), self.pad,
                                                 True, self.generating, always=always)
        return rule


MAX_CONDITIONS = 6      # at most 2**6 settled rules
MAX_KEYS = 256          # combinations of the globals' values kept
# The values a key may hold: compared by value, or one object per game (Suit)
_PLAIN = {bool, int, runtime.Rank, str, runtime.Suit, type(None)}
# The binary operations a condition is made of (and NOT): their value is a Boolean.
_COMPARISONS = {'EQ', 'NE', 'LT', 'LE', 'GT', 'GE'}


def _on_globals(tree):
    """Is tree a comparison of globals and constants (its value a function
    of the globals' values alone)?"""
    kind = type(tree)
    if kind is Unary:
        operands = (tree.operand,) if tree.op == 'NOT' else None
    else:
        operands = (tree.left, tree.right) if kind is Binary and tree.op in _COMPARISONS else None
    return operands is not None and all(
        _on_globals(t) or (type(t) is Leaf and t.kind in ('const', 'load_global'))
        for t in operands)


def _leaves(tree):
    if type(tree) is Leaf:
        yield tree
    elif type(tree) is Unary:
        yield from _leaves(tree.operand)
    elif type(tree) is Binary:
        yield from _leaves(tree.left)
        yield from _leaves(tree.right)


def _conditions(tree):
    """The conditions of tree's branches that are comparisons of globals, in order."""
    kind = type(tree)
    if kind is If or kind is Keep:
        if _on_globals(tree.cond):
            yield tree.cond
        for sub in ((tree.then, tree.else_) if kind is If else (tree.kept, tree.rest)):
            yield from _conditions(sub)


def _settled(tree, known, scratch):
    """tree with the conditions in known (tree -> value) and the scratch
    slots in scratch (slot -> value) replaced by their values, and the
    branches on a constant taken."""
    kind = type(tree)
    if kind is Leaf:
        if tree.kind == 'scratch' and tree.arg in scratch:
            return Leaf('const', scratch[tree.arg])
        return tree
    if tree in known:
        return Leaf('const', known[tree])

    def s(t):
        return _settled(t, known, scratch)
    if kind is Unary:
        return Unary(tree.op, tree.arg, s(tree.operand))
    if kind is Binary:
        return Binary(tree.op, s(tree.left), s(tree.right))
    if kind is CanPlay:
        return CanPlay(tree.op, tree.rule, s(tree.player), s(tree.dest))
    if kind is Aggregate:
        return Aggregate(tree.agg, s(tree.items), tree.slot, s(tree.body))
    if kind is Counted:
        return Counted(tree.op, tuple(map(s, tree.parts)))
    if kind is Return:
        return Return(s(tree.value), tuple(map(s, tree.dropped)))
    cond = s(tree.cond)
    if kind is If:
        if _is_const(cond):
            return s(tree.then if cond.arg else tree.else_)
        return If(cond, s(tree.then), s(tree.else_))
    if _is_const(cond):         # a Keep
        if bool(cond.arg) is tree.on_true:
            return _settled(tree.kept, known, {**scratch, tree.slot: cond.arg})
        return s(tree.rest)
    return Keep(tree.on_true, cond, tree.slot, s(tree.kept), s(tree.rest))


def _equality(tree):
    """The Equality a tree is, or None."""
    if type(tree) is not Binary or tree.op != 'EQ':
        return None
    a, right = _path(tree.left), tree.right
    if a is None:
        return None
    if _is_const(right):
        return Equality(a, None, right.arg)
    b = _path(right)
    return None if b is None else Equality(a, b)


def _any_equal(terms):
    """`t1 or t2 or ...` (or a lone t1) where every term is an _equality, as one closure:
    the commonest shape of a rule (`c->rank == cl->top->rank or ...`)."""
    equalities = [_equality(t) for t in terms]
    if None in equalities:
        return None
    return any_equal([e.flat() for e in equalities])


# The shapes of rule run as one closure each (above), with the bodies of a
# property read and of equality written into them (pipvm/engine/cases.py).
def any_equal(specs):
    """`t1 or t2 or ...`, each term `path == path` or `path == constant`:
    specs Terms (Equality.flat)."""
    specs = [tuple(term) for term in specs]

    def any_equal_(env):
        for sa, ia, pa, sb, ib, pb, k in specs:
            x = env[sa] if ia is None else env[sa][ia]
            # body: LOAD_PROP obj=x prop=pa value=x
            if (x := getattr(x, pa)) is None:
                raise Fault('Undefined value', 0)
            # end of body
            if sb is None:
                y = k
            else:
                y = env[sb] if ib is None else env[sb][ib]
                # body: LOAD_PROP obj=y prop=pb value=y
                if (y := getattr(y, pb)) is None:
                    raise Fault('Undefined value', 0)
                # end of body
            # body: EQ a=x b=y res=res
            res = x == y
            # end of body
            if res:
                return True
        return False
    return any_equal_


def by_card(specs):
    """For `card->P == X or ...`: env -> [(P, X's value)], computed once for
    a whole hand (filter_by_card).  (Inline, not a function per path: it
    runs at every PLAY and CANPLAY.)"""
    specs = [tuple(term) for term in specs]

    def by_card_(env):
        out = []
        for _, _, pa, sb, ib, pb, k in specs:
            if sb is not None:
                k = env[sb] if ib is None else env[sb][ib]
                # body: LOAD_PROP obj=k prop=pb value=k
                if (k := getattr(k, pb)) is None:
                    raise Fault('Undefined value', 0)
                # end of body
            out.append((pa, k))
        return out
    return by_card_


def filter_by_card(hand, tests):
    """The cards of hand for which some card->P == X, tests [(P, X)]."""
    out = []
    for card in hand:
        for prop, k in tests:
            # body: LOAD_PROP obj=card prop=prop value=v
            if (v := getattr(card, prop)) is None:
                raise Fault('Undefined value', 0)
            # end of body
            # body: EQ a=v b=k res=res
            res = v == k
            # end of body
            if res:
                out.append(card)
                break
    return out
