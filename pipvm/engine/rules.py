"""The compiled tier's rules and orderings: each expression tree
(pipvm/engine/expressions.py) written as one generated Python function,
instead of pure.py's tree of closures, and a rule's filter of a hand
(PLAY, CANPLAY) as one loop over the cards with the rule inline, and its
any-variant for a CANPLAY whose cards nothing takes (whether one card is
allowed: at the first, where the rule's test cannot fail on a later one).

Each node is its instruction's body made one expression (`out = EXPR`
substituted in place; a read that is an error where it is None as `v if (v
:= EXPR) is not None else fault(...)`), so a rule such as Euchre's
`c->suit == led or ...` is `(v1 if (v1 := getattr(card, A[0])) is not None
else fault(...)) == (...) or ...`.  A node no body writes as one expression
(an aggregate, CANPLAY, a FORMAT) calls its closure from pure.py,
A[k](env), with the environment as the closures read it (the card stored in
it first).  `If` is Python's conditional expression, a kept value
(`a or b`) Python's `or`/`and` or a walrus into a local: the operations
and their order are the closures', so a failure is where theirs is, and the
caller handles it the same way (the loop runs the code again and raises the
error where it happens).

Trust (docs/pipc.md): the source holds only the table's bodies, these
fixed lines and integers (slots of locals and globals, operand indexes);
every other operand (a constant, a property's name) is A[k], an index into
the tuple bound to the function.  Functions are made once per source and
kept in memory, never written to disk.
"""
import re
import types

from pipvm.core import plain
from pipvm.core.runtime import PROPERTY_NAMES, RANKS, Rank, Suit
from pipvm.engine import cases, generated_cases, steady
from pipvm.engine.expressions import (Aggregate, Binary, CanPlay, Counted, If, Keep, Leaf, Return,
                                      Unary, _returns_kept)

_MADE = {}              # source -> the code object made from it
# A closure's words for what a body reads (cases.CONTEXTS), as locals here.
_NAMES = {'machine': 'm', 'consts': 'consts', 'globals_': 'globals_', 'frame': 'env'}
_DECODED = {'LOAD_PROP', 'DEFINED_PROP'}        # operand: a property by its number
_GETATTR = 'getattr(obj, prop)'                 # (in LOAD_PROP's body: obj.NAME here)
_GLOBAL, _LOAD_GLOBAL = 'globals_[g]', cases.BODIES['LOAD_GLOBAL'].body
_LOCAL, _LOAD_LOCAL = 'frame[slot]', cases.BODIES['LOAD_LOCAL'].body
_LIST_PROP = 'value = list_prop(lst, k, PART)'  # (LIST_PROP's body, written out below)
_HAND_ARGUMENTS = {0: 'player', 2: 'dest'}      # a rule's (player, card, destination)


class Refused(Exception):
    """A tree this module does not write (the closures run it)."""


class _Writer:
    """One expression tree's source, over env (the closures' environment:
    locals, scratch slots, the machine at slot `machine`)."""

    def __init__(self, machine, closure, card=None, born=frozenset()):
        self.machine, self.closure = machine, closure   # closure: tree -> its closure
        self.born = born            # properties read unchecked (born_properties)
        self.card = card            # the slot read as the local `card` (a hand's filter)
        self.globals = {}           # a global's slot -> the local read once (a hand's filter)
        self.global_name = 'g%d'    # (such a local's name)
        self.operands = []
        self.names = 0
        self.scratch = {}           # a kept value's slot -> its local
        self.reads_env = False      # a closure reads the environment
        self.defined = False        # the globals read once are all defined (a hand's filter)
        self.hoisting = False       # writing a hand's filter with its card-free parts hoisted
        self.hoisted = {}           # such a part (_key) -> (its local, its source)
        # Whether a part written since the last top() may fail where it
        # stands: set by each part that may (a check, a call, an operation
        # that raises on some values), so the any-variant knows whether it
        # may stop at the first card allowed (_filter)
        self.may_fail = False
        # A hand's filter: the card's properties read so far on every path
        # to here, name -> its local (checked once; a rule changes nothing)
        self.known = None

    def operand(self, value):
        """An operand as source: a small integer as itself (the verifier
        checked it: a slot, a count), anything else A[k]."""
        if type(value) is int and 0 <= value < 1000:
            return str(value)
        self.operands.append(value)
        return 'A[%d]' % (len(self.operands) - 1)

    def fresh(self):
        self.names += 1
        return 'v%d' % self.names

    def body(self, name, operands, inputs, text=None):
        """Instruction name's body (or text, a form of it) as one
        expression, its operands and inputs given as source; None where it
        is not one."""
        body = cases.BODIES.get(name)
        if body is None or body.counted:
            return None
        names = dict(_NAMES, PART='0', **dict(zip(body.names, operands)))
        text = text or body.body
        if '\n' not in text:
            out, eq, expr = text.partition(' = ')
            check = None
        else:
            test, _, check = text.partition('\n')
            if not (test.startswith('if (') and test.endswith(') is None:')
                    and check.strip().startswith('raise Fault(') and '\n' not in check):
                return None
            out, eq, expr = test[len('if ('):-len(') is None:')].partition(' := ')
        if not eq or (out,) != body.outputs:
            return None
        # each input once, in stack order: evaluated as the closures evaluate them
        used = [t.string for t in cases._name_tokens(expr) if t.string in body.inputs]
        if used != list(body.inputs):
            return None
        names.update(zip(body.inputs, inputs))
        read = cases.substitute(expr, names)
        if check is None:
            return '(%s)' % read
        v = self.fresh()
        fail = cases.substitute('f' + check.strip()[len('raise F'):], names)
        return '(%s if (%s := %s) is not None else %s)' % (v, v, read, fail)

    def fallback(self, tree):
        """tree's closure, called on the environment."""
        if any(type(t) is Leaf and t.kind == 'scratch' for t in _nodes(tree)):
            raise Refused()         # (a kept value lives in a local here, not in env)
        self.reads_env = self.may_fail = True
        return '%s(env)' % self.operand_of(self.closure(tree))

    def hoist(self, t):
        """The local holding t's value, computed once before the cards' loop."""
        key = _key(t)
        local = self.hoisted.get(key)
        if local is None:
            # (computed before the loop, where a failure has its own path:
            # in the loop it is a local, which cannot fail)
            self.hoisting, may_fail = False, self.may_fail
            try:
                text = self.expr(t)
            finally:
                self.hoisting, self.may_fail = True, may_fail
            local = self.hoisted[key] = ('h%d' % (len(self.hoisted) + 1), text)
        return local[0]

    def operand_of(self, value):
        self.operands.append(value)
        return 'A[%d]' % (len(self.operands) - 1)

    def expr(self, t):
        kind = type(t)
        if kind is Leaf:
            if self.hoisting and t.kind in ('const', 'rank'):
                return self.hoist(t)        # (a local: read once for the hand, not A[k] per card)
            return self.leaf(t)
        if self.hoisting and _card_free(t, self.card):
            return self.hoist(t)
        # (operands written for a text then given up for the closure's call
        # are not run: what their card reads made known is forgotten)
        known = self.known if self.known is None else dict(self.known)
        if kind is Unary:
            arg = t.arg
            if t.op in _DECODED:
                name = PROPERTY_NAMES[arg]
                body = cases.BODIES[t.op].body
                of_card = (type(t.operand) is Leaf and t.operand.kind == 'load_local'
                           and t.operand.arg == self.card)
                card_read = self.known is not None and t.op == 'LOAD_PROP' and of_card
                if card_read and name in self.known:
                    return self.known[name]
                if t.op == 'LOAD_PROP' and arg in self.born:
                    # never None: the check left out (an object that is None
                    # fails at the read itself, checked or not)
                    obj = self.expr(t.operand)
                    if not card_read:
                        self.may_fail = True        # (another object's: of any kind)
                        return '(%s.%s)' % (obj, name)
                    local = self.known[name] = self.fresh()
                    return '(%s := %s.%s)' % (local, obj, name)
                if name.isidentifier() and _GETATTR in body:
                    # obj.name: the runtime's own property names (not the
                    # program's text), read as an attribute, not by getattr()
                    text = self.body(t.op, [], [self.expr(t.operand)],
                                     body.replace(_GETATTR, 'obj.' + name))
                    if text is not None:
                        local = 'v%d' % self.names      # (the checked read's walrus)
                        if card_read and text.startswith('(%s if (%s := ' % (local, local)):
                            self.known[name] = local
                        # (a checked read fails where it is None; whether
                        # the card has a property cannot fail)
                        if t.op != 'DEFINED_PROP' or not of_card:
                            self.may_fail = True
                        return text
                    self.known = known
                ops = [self.operand_of(name)]
            elif t.op == 'LIST_PROP' and cases.BODIES[t.op].body == _LIST_PROP and arg in (1, 2):
                # a list's first or last item without the call where the
                # list is not empty (as rewrites.inlined writes it); the
                # call where it is, which fails as the body does
                self.may_fail = True
                v = self.fresh()
                return '(%s[%s] if (%s := %s) else list_prop(%s, %d, 0))' % (
                    v, '0' if arg == 1 else '-1', v, self.expr(t.operand), v, arg)
            else:
                ops = [] if arg is None else [self.operand(a) for a in
                                              (arg if type(arg) is tuple else (arg,))]
            text = self.body(t.op, ops, [self.expr(t.operand)])
            if text is None:
                self.known = known
                return self.fallback(t)
            self.may_fail |= t.op not in _NEVER_FAIL
            return text
        if kind is Binary:
            may_fail = self.may_fail
            ranks = t.op in _IDENTITY and self.ranks(t)
            if ranks:
                # two ranks (one object each: RANKS) are equal when they are
                # one: `is`, without an int subclass's generic compare
                # (Crazy Eights' `c->rank == cl->top->rank or ... c->rank == 8`,
                # 2.8% of a game's machine instructions)
                operands = [self.expr(side) if rank is None else self.expr(Leaf('rank', rank))
                            for side, rank in ranks]
            else:
                operands = [self.expr(t.left), self.expr(t.right)]
            if ranks or t.op in _IDENTITY and (self.suit(t.left) or self.suit(t.right)):
                # a Suit equals only itself (no __eq__), and no value's type
                # says it equals one: `is`, without the richcompare's two
                # tries and fallback (Euchre's `c->suit == led`, 15 against 22 ns)
                return '(%s %s %s)' % (operands[0], _IDENTITY[t.op], operands[1])
            text = self.body(t.op, [], operands)
            if text is None:
                self.known = known
                return self.fallback(t)
            if t.op in _NUMERIC and self.number(t.left) and self.number(t.right):
                self.may_fail = may_fail        # (known Numbers: int's, which cannot fail)
            else:
                self.may_fail |= t.op not in _NEVER_FAIL
            return text
        # (each part written in the order it is evaluated, a part that may
        # not be evaluated by branch: what it reads is known only inside)
        if kind is If:
            cond = self.expr(t.cond)
            return '(%s if %s else %s)' % (self.branch(t.then), cond, self.branch(t.else_))
        if kind is Keep:
            if _returns_kept(t):
                cond = self.expr(t.cond)
                return '(%s %s %s)' % (cond, 'or' if t.on_true else 'and', self.branch(t.rest))
            name = self.scratch[t.slot] = 's%d' % t.slot
            cond = '(%s := %s)' % (name, self.expr(t.cond))
            return '(%s if %s%s else %s)' % (self.branch(t.kept), '' if t.on_true else 'not ',
                                             cond, self.branch(t.rest))
        if kind is Return:
            dropped = [self.expr(d) for d in t.dropped]
            value = self.expr(t.value)
            if not t.dropped:
                return value
            self.may_fail = True                # (not written to be known: rare)
            return '(%s)[-1]' % ', '.join(dropped + [value])
        if kind in (Aggregate, CanPlay, Counted):
            return self.fallback(t)
        raise Refused()

    def number(self, t):
        """Is t's value always a Number (an int: a Rank is one) here: an
        integer constant, the card's rank where it is born (born_properties:
        new_deck's Rank, never stored), a sum or difference of two?  The
        verifier checks no kinds: a global, or any other card's rank, may
        hold anything in a hand-made program."""
        kind = type(t)
        if kind is Leaf:
            return t.kind == 'const' and isinstance(t.arg, int)
        if kind is Unary:
            return (t.op == 'LOAD_PROP' and PROPERTY_NAMES[t.arg] == 'rank' and t.arg in self.born
                    and type(t.operand) is Leaf and t.operand.kind == 'load_local'
                    and t.operand.arg == self.card)
        return kind is Binary and t.op in _ARITHMETIC and self.number(t.left) and self.number(t.right)

    def always(self, t, kind, name):
        """Is t's value always a `kind`: a constant of it, or the property
        `name` where it is born (never stored: born_properties)?"""
        if type(t) is Leaf:
            return t.kind == 'const' and type(t.arg) is kind
        return (type(t) is Unary and t.op == 'LOAD_PROP' and PROPERTY_NAMES[t.arg] == name
                and t.arg in self.born)

    def rank(self, t):
        """Is t's value always one of RANKS (no other Rank is ever made:
        runtime.Rank; only a Card has a rank, new_deck's)?"""
        return self.always(t, Rank, 'rank')

    def ranks(self, t):
        """Where Binary t compares two ranks (rank()), or a rank and a Number
        constant that is one (1..13: equal to that rank alone), [(side,
        None) or (side, the constant's number, to be read as its Rank)];
        else None."""
        sides = []
        for side, other in ((t.left, t.right), (t.right, t.left)):
            if self.rank(side):
                sides.append((side, None))
            elif (self.rank(other) and type(side) is Leaf and side.kind == 'const'
                  and type(side.arg) is int and 1 <= side.arg <= 13):
                sides.append((side, side.arg))
            else:
                return None
        return sides

    def suit(self, t):
        """Is t's value always a Suit (a card's: new_deck's, or swapped with
        another card's by the beliefs' trades)?"""
        return self.always(t, Suit, 'suit')

    def branch(self, t):
        """expr(t) for a part evaluated only on some paths."""
        known = self.known
        if known is not None:
            self.known = dict(known)
        try:
            return self.expr(t)
        finally:
            self.known = known

    def top(self, tree):
        """A hand's filter's test of the whole tree (a _Test)."""
        self.known, self.may_fail = {}, False
        try:
            return _Test(self.expr(tree), not self.may_fail)
        finally:
            self.known = None

    def leaf(self, t):
        kind, arg = t.kind, t.arg
        if kind == 'const':
            return self.operand_of(arg)
        if kind == 'rank':          # (a Number constant compared as the Rank it equals: expr)
            return self.operand_of(RANKS[arg])
        if kind == 'scratch':
            if arg not in self.scratch:
                raise Refused()
            return self.scratch[arg]
        if kind == 'load_local' and arg == self.card:
            return 'card'           # (a card of the hand: never None)
        if kind == 'load_global' and self.card is not None and self.defined:
            # (read once for the hand, and tested defined first: hand_function)
            return self.globals.setdefault(arg, self.global_name % arg)
        self.may_fail = True        # (a call, or a read checked or of the machine)
        if kind == 'list':
            return 'list(%s)' % self.operand_of(arg)
        if kind == 'load_local' and self.card is not None and arg in _HAND_ARGUMENTS:
            # a hand's filter takes the player and destination as arguments
            return self.body('LOAD_LOCAL', [], [], _LOAD_LOCAL.replace(_LOCAL,
                                                                      _HAND_ARGUMENTS[arg]))
        if kind == 'load_global' and self.card is not None and _GLOBAL in _LOAD_GLOBAL:
            # read once for the hand (a rule changes nothing), checked where it is used
            local = self.globals.setdefault(arg, self.global_name % arg)
            return self.body('LOAD_GLOBAL', [], [], _LOAD_GLOBAL.replace(_GLOBAL, local))
        name = {'card_const': 'CONST', 'list_const': 'LIST_CONST'}.get(kind, kind.upper())
        text = self.body(name, [self.operand(arg)], [])
        return text if text is not None else self.fallback(t)


# Operations on two Numbers that cannot fail (int's, in C; ADD's and SUB's
# bodies are `int(a) + b`, `int(a) - b`): their results are Numbers too
_ARITHMETIC = {'ADD', 'SUB'}
_NUMERIC = _ARITHMETIC | {'LT', 'LE', 'GT', 'GE'}
# Operations that cannot fail on any values (`==`, `!=`: never raise on the
# runtime's values; `not`)
_NEVER_FAIL = {'EQ', 'NE', 'NOT'}
_IDENTITY = {'EQ': 'is', 'NE': 'is not'}    # (EQ's and NE's bodies on a Suit)


@plain.define(slots=True, eq=False)
class _Test:
    """A hand's filter's test of a card: its source, and whether it cannot
    fail (_Writer.may_fail: its parts are the card's born properties,
    locals, operands and ==, !=, not, and/or and conditionals over them,
    < and + and the like on known Numbers only)."""
    text: str
    safe: bool


# What a part of a rule may be made of to be computed once for a whole hand:
# reads of the state and operations on them that make no new list (so one
# value serves every card exactly as a value per card would).
_HOISTED_UNARY = {'LOAD_PROP', 'LIST_PROP', 'LOAD_OWN', 'NOT', 'ACE_HIGH', 'DEFINED_PROP',
                  'DEFINED_OWN', 'WILD_RANK', 'WILD_SUIT'}
_HOISTED_BINARY = {'ADD', 'SUB', 'MUL', 'DIV', 'EQ', 'NE', 'LT', 'LE', 'GT', 'GE', 'IN',
                   'LIST_ITEM', 'MAKE_CARD'}


def _card_free(t, card):
    """Whether tree t reads neither the card nor a kept value, and is made
    only of the parts above: its value is the same for every card of a hand
    (a rule changes nothing)."""
    kind = type(t)
    if kind is Leaf:
        if t.kind == 'load_local':
            return t.arg != card and t.arg < ARGUMENTS
        return t.kind != 'scratch'
    if kind is Unary:
        return t.op in _HOISTED_UNARY and _card_free(t.operand, card)
    if kind is Binary:
        return (t.op in _HOISTED_BINARY and _card_free(t.left, card)
                and _card_free(t.right, card))
    return False


ARGUMENTS = 3           # a rule's (player, card, destination): its other locals are an aggregate's


def _key(t):
    """Tree t as a key of the parts hoisted: equal trees whose constants
    differ in kind (1, Ace and true are equal in Python, not in a rule
    that compares ranks by identity) are different parts."""
    return t, tuple(type(n.arg) for n in _nodes(t) if type(n) is Leaf and n.kind == 'const')


def _nodes(tree):
    yield tree
    for name in plain.fields(type(tree)):
        value = getattr(tree, name)
        for sub in (value if type(value) is tuple else (value,)):
            if plain.fields(type(sub)):
                yield from _nodes(sub)


_HEAD = ['    m = env[%d]', '    consts, globals_ = m.consts, m.globals']


_WALRUS = re.compile(r'\((v\d+) := ')


def _unused_walruses(source):
    """source without the walruses into locals read nowhere else (an
    unchecked read of the card kept for a later read there is none of)."""
    names = re.findall(r'\bv\d+\b', source)
    once = {n for n in set(names) if names.count(n) == 1}
    return _WALRUS.sub(lambda m: '(' if m.group(1) in once else m.group(0), source)


def _made(source, name, operands):
    source = _unused_walruses(source)
    code = _MADE.get(source)
    if code is None:
        space = dict(vars(generated_cases))
        exec(compile(source, '<pipvm %s>' % name, 'exec'), space)
        code = _MADE[source] = space[name]
    fn = types.FunctionType(code.__code__, code.__globals__, name, code.__defaults__[:-1]
                            + (tuple(operands),))
    fn.source = source
    return fn


_BORN = ('rank', 'suit')      # a card's properties a rule reads (steady's)


def born_properties(program):
    """The numbers of a card's properties that no code of program stores
    (steady.steady's: no STORE_PROP of theirs), so never None in its games:
    a rule reads them without the check (Crazy Eights: 'c->rank ==
    cl->top->rank or ...').  None or True (no program known): none."""
    if program is None or program is True:
        return frozenset()
    known = steady.steady(program)
    return frozenset(PROPERTY_NAMES.index(name) for name in _BORN if '.' + name in known)


def value_function(tree, machine, closure, born=frozenset()):
    """env -> the tree's value, or None if it is not written here; born:
    the card properties it may read unchecked (born_properties)."""
    w = _Writer(machine, closure, born=born)
    try:
        expr = w.expr(tree)
    except (Refused, RecursionError):
        return None
    source = '\n'.join(['def rule_(env, A=None):'] + [h % machine if '%' in h else h for h in _HEAD]
                       + ['    return %s' % expr]) + '\n'
    return _made(source, 'rule_', w.operands)


def hand_function(tree, machine, closure, card, born=frozenset()):
    """(machine, player, dest) -> the cards of player's hand for which the
    rule's value is true (a rule's filter of a hand: PLAY, CANPLAY), or
    None.  The player and destination are its arguments, the card the
    loop's local; the closures' environment (the card in its slot `card`,
    the machine in slot `machine`) is made only for a part written as a
    closure's call; born as value_function's."""
    w = _Writer(machine, closure, card, born)
    try:
        expr = w.top(tree)
    except (Refused, RecursionError):
        return None
    head = ['def hand_(m, player, dest, A=None):']
    head += ['    %s = globals_[%d]' % (local, g) for g, local in sorted(w.globals.items())]
    unchecked = expr
    if w.globals:
        # the globals it reads are read once; when none is undefined, no
        # check of theirs can fail: the same expression without them
        w.defined = True
        unchecked = w.top(tree)
    # The parts that do not read the card (`cl->top->rank`) computed once:
    # when one fails (an undefined value, an empty list), the cards are
    # filtered as above, where the failure happens only if a card reaches
    # it, and then where it happens (the caller runs the loop).
    w.hoisting = True
    plan = _split(w, tree, card, {})
    w.hoisting = False
    reads_env = w.reads_env or any(_ENV.search(text) for text in
                                   [test.text for test in [expr, unchecked] + _loops(plan)]
                                   + [h for _, h in w.hoisted.values()])

    def written(any_):
        """The function's source: the filter, or (any_) whether it holds any card."""
        lines = list(head)
        if reads_env:
            lines += ['    env = [player, None, dest%s, m]' % (', None' * (machine - ARGUMENTS))]
        lines += ['    cards = player.hand']
        fast = _filter(unchecked, card, reads_env, any_)
        if w.hoisted:
            fast = (['    try:'] + ['        %s = %s' % h for h in w.hoisted.values()]
                    + ['    except Exception:', '        pass', '    else:']
                    + _indent(_planned(plan, card, reads_env, any_)) + fast)
        elif plan[0] != 'loop':     # (a global's value: read, and tested defined, already)
            fast = _planned(plan, card, reads_env, any_)
        if w.globals:
            lines += ['    if %s:' % ' and '.join('%s is not None' % local
                                                  for _, local in sorted(w.globals.items()))]
            lines += _indent(fast)
            fast = _filter(expr, card, reads_env, any_)
        lines += fast
        # (the machine's constants and globals read where the rule reads them)
        used = [n for n in ('consts', 'globals_') if re.search(r'\b%s\b' % n, '\n'.join(lines))]
        if used:
            lines.insert(1, '    %s = %s' % (', '.join(used), ', '.join('m.' + n.rstrip('_')
                                                                         for n in used)))
        return '\n'.join(lines) + '\n'
    fn = _made(written(False), 'hand_', w.operands)
    fn.decided = _decided_first(w, plan, machine, closure, card, born)

    def write_any():
        # (CANPLAY's, written when an action first calls it: any_variant)
        made = _made(written(True), 'hand_', w.operands)
        made.decided = fn.decided
        return made
    fn.write_any = write_any
    return fn


def _decided_first(w, plan, machine, closure, card, born):
    """Where plan (_split's) starts with a test that reads globals alone,
    cannot fail and decides the whole hand on one side (Euchre's `not
    must_follow or ...`: a trick's lead): (the globals' slots, the test
    over the locals rgK_ they are read into, the side that decides,
    'all' or 'none'), for the caller to test before it calls the filter
    (filters.direct_filters: a call fewer); else None."""
    if plan[0] != 'if' or plan[2] is not None:
        return None
    _, test, _, then, else_ = plan
    for when, side in ((True, then), (False, else_)):
        if side[0] in ('all', 'none'):
            break
    else:
        return None
    trees = [t for (t, _), (local, _) in w.hoisted.items() if local == test] + [
        Leaf('load_global', g) for g, local in w.globals.items() if local == test]
    if len(trees) != 1 or any(type(t) is Leaf and t.kind != 'load_global'
                              for t in _nodes(trees[0])):
        return None
    inline = _Writer(machine, closure, card, born)
    inline.defined, inline.global_name = True, 'rg%d_'
    try:
        written = inline.top(trees[0])
    except (Refused, RecursionError):
        return None
    if not written.safe or inline.operands or inline.reads_env:
        return None
    return sorted(inline.globals), written.text, when, side[0]


def _split(w, t, card, truths):
    """A hand's filter by tree t as a plan, its card-free tests (hoisted:
    w.hoisting) decided once before the cards' loop, not at every card:
    ('all',) or ('none',) (the test decides for every card: `not
    must_follow or ...`), ('loop', expr), or ('if', test, assigned, then,
    else) (a test of a card-free value, assigned first to a kept value's
    local if that is not None).  truths: the kept values' slots whose
    truth is known here (a part `s4 or ...` where s4 is false is its
    rest).  Every value is the one each card's test would compute (a rule
    changes nothing), so each card's test in its loop is the part of the
    whole test that card would evaluate, and fails where that would."""
    kind = type(t)
    if kind is Return and not t.dropped:
        return _split(w, t.value, card, truths)
    if kind is Keep and _returns_kept(t):
        # `a or b` (`a and b`): a true (false) decides for every card, all (none)
        decided = ('all',) if t.on_true else ('none',)
        cond = t.cond
        if type(cond) is Leaf and cond.kind == 'scratch' and cond.arg in truths:
            return decided if truths[cond.arg] == t.on_true else _split(w, t.rest, card, truths)
        if _card_free(cond, card):
            test = w.expr(cond)
            rest = _split(w, t.rest, card, truths)
            return ('if', test, None) + ((decided, rest) if t.on_true else (rest, decided))
    elif kind is Keep and _card_free(t.cond, card):
        # (kept if [not] (s := cond) else rest): s is known in each branch
        local = w.scratch[t.slot] = 's%d' % t.slot
        test = w.expr(t.cond)
        kept = _split(w, t.kept, card, {**truths, t.slot: t.on_true})
        rest = _split(w, t.rest, card, {**truths, t.slot: not t.on_true})
        return ('if', test, local) + ((kept, rest) if t.on_true else (rest, kept))
    elif kind is If and _card_free(t.cond, card):
        test = w.expr(t.cond)
        return ('if', test, None, _split(w, t.then, card, truths),
                _split(w, t.else_, card, truths))
    return ('loop', w.top(t))


def _loops(plan):
    """The expressions of plan's loops."""
    if plan[0] == 'loop':
        return [plan[1]]
    return _loops(plan[3]) + _loops(plan[4]) if plan[0] == 'if' else []


# What a filter returns when its test decides for every card (%s: the
# cards): the cards or none; its any-variant whether there is one
_DECIDED = {('all', False): 'list(%s)', ('none', False): '[]',
            ('all', True): 'bool(%s)', ('none', True): 'False'}


def decided(kind, any_, cards):
    """_DECIDED's text of kind, with the expression of the cards: `cards`
    in a filter, the player's hand where its caller decides (filters.py)."""
    text = _DECIDED[kind, any_]
    return text % cards if '%s' in text else text


def _planned(plan, card, reads_env, any_):
    """The lines of plan (_split's), each path ending in a return."""
    if plan[0] == 'loop':
        return _filter(plan[1], card, reads_env, any_)
    if plan[0] != 'if':
        return ['    return ' + decided(plan[0], any_, 'cards')]
    _, test, local, then, else_ = plan
    lines = []
    if local is not None:
        lines, test = ['    %s = %s' % (local, test)], local
    return (lines + ['    if %s:' % test] + _indent(_planned(then, card, reads_env, any_))
            + _planned(else_, card, reads_env, any_))


_ENV = re.compile(r'\benv\b')


def _indent(lines):
    return ['    ' + line for line in lines]


def _filter(test, card, reads_env, any_=False):
    """The lines of a hand's filter by test (a _Test), returning the cards
    it holds for: a loop, not a comprehension (which is a function call of
    its own in the Pythons before 3.12: a third of a short hand's filter).
    any_: whether it holds for any: where the test cannot fail, at the
    first card it holds for (else the whole loop would fail at a later
    card), else after the loop."""
    loop = (['    for card in cards:'] + (['        env[%d] = card' % card] if reads_env else [])
            + ['        if %s:' % test.text])
    if any_ and test.safe:
        return loop + ['            return True', '    return False']
    return (['    out = []'] + loop + ['            out.append(card)',
                                       '    return bool(out)' if any_ else '    return out'])

