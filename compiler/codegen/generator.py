"""Code generation: the checked AST to a pipc.Program of stack-machine code.

One code object initialises the globals; then one per action, rule and
ordering, in that order.  Forward jumps are emitted with a placeholder and
patched when their target is emitted.  A `for` loop keeps its iteration
state on the stack, so `skip to L` first drops the state of every loop it
leaves (the codegen knows how many: it records each label's loop depth when
the label's block begins).
"""
import attrs

from pipvm.isa import opcodes
from pipvm.core import runtime
from pipvm.core.dialogue import PASS
from pipvm.core.errors import Fault
from pipvm.isa.pipc import CardRef, Code, Program

from compiler.ir import checked as c
from compiler.ir import types as T
from .assembler import Assembler

_BINARY = {'+': 'ADD', '-': 'SUB', '*': 'MUL', '/': 'DIV', '==': 'EQ', '!=': 'NE',
           '<': 'LT', '<=': 'LE', '>': 'GT', '>=': 'GE', 'in': 'IN'}
_STATEMENT_OPS = {c.Rotate: 'ROTATE', c.Shuffle: 'SHUFFLE'}
_BUILTIN = {name: i for i, name in enumerate(runtime.BUILTINS)}
NOT_CONSTANT = object()
_MAX_FOLD_BITS = 1 << 16


def generate(program):
    """The pipc.Program for a checked Program."""
    return CodeGen(program).program()


class CodeGen:
    def __init__(self, program):
        self.src = program
        self.consts, self.const_index = [], {}
        n_actions, n_rules = len(program.actions), len(program.rules)
        self.first = {c.Action: 1, c.Rule: 1 + n_actions, c.Ordering: 1 + n_actions + n_rules}

    def program(self):
        p = self.src
        name = ''.join(p.name)          # the checker allows only text in the name
        codes = [self.initialiser()]
        codes += [Function(self, a.name, a.frame_size, [v.name for v in a.params]).action(a)
                  for a in p.actions]
        codes += [Function(self, r.name, r.frame_size, r.params).expression('rule', r.body)
                  for r in p.rules]
        codes += [Function(self, o.name, o.frame_size, [o.param]).expression('ordering', o.body)
                  for o in p.orderings]
        return Program(name, list(p.counts), p.team_size, [g.var.name for g in p.globals],
                       self.consts, codes, self.first[c.Action] + p.main,
                       [str(g.var.type) for g in p.globals], self.owns())

    def initialiser(self):
        f = Function(self, 'globals', self.src.init_frame)
        owns = [own for own in self.src.owns if own.init is not None]
        for i, g in enumerate(self.src.globals + [None]):
            while owns and owns[0].after == i:
                f.init_own(owns.pop(0))
            if g is None:
                break
            f.pos = g.pos
            if isinstance(g, c.AreaInit):
                mode = (opcodes.AREA_FACEDOWN * g.facedown) | (opcodes.AREA_SQUAREDUP * g.squaredup)
                for label in g.labels():
                    f.string(label)
                    f.emit('NEW_AREA', mode)
                if g.count:         # extension: a list of areas
                    f.emit('BUILD_LIST', g.count)
                elif g.grows:       # extension: a list of groups, empty at first
                    f.emit('LIST_CONST', f.gen.const(()))
            elif g.init is not None:
                f.expr(g.init)
            else:
                continue
            f.emit('STORE_GLOBAL', g.var.slot)
        f.emit('RETURN', pos=self.src.pos)
        return f.finish('init')

    def owns(self):
        """The .pipc's table of values for each player or team: (owner, name, type)."""
        return [(own.owner, own.name, str(own.type)) for own in self.src.owns]

    def code_index(self, kind, index):
        return self.first[kind] + index

    def const(self, value):
        """Index of a constant in the pool; equal constants share one entry."""
        key = _const_key(value)
        if key not in self.const_index:
            self.const_index[key] = len(self.consts)
            self.consts.append(value)
        return self.const_index[key]


def _const_key(value):
    # Distinguish values Python thinks equal: True and 1, Rank 2 and Number 2.
    if type(value) is tuple:
        return ('list',) + tuple(_const_key(v) for v in value)
    return (type(value).__name__, value if type(value) is not runtime.Suit else value.index)


@attrs.define
class LoopExits:
    """Where `break` and `continue` in a loop go, and what they leave on the stack."""
    own: int                   # iteration states the loop itself keeps on the stack (0 or 1)
    outside: int               # iteration states of the loops around it
    top: int = None            # where `continue` jumps (a `for` knows it once emitted)
    breaks: list = attrs.Factory(list)   # the offsets of `break` jumps, patched at its end


class Function:
    """Generates one code object."""

    def __init__(self, gen, name, frame_size, params=()):
        self.gen, self.name = gen, name
        self.asm = Assembler()
        self.local_names = list(params) + ['?'] * (frame_size - len(params))
        self.pos = None
        self.loops = 0             # iteration states on the stack
        self.label_loops = {}      # label -> loop depth of its block
        self.skips = {}            # label -> offsets of jumps waiting for it
        self.exits = []            # a LoopExits per enclosing loop, innermost last

    def emit(self, name, *args, pos=None):
        return self.asm.emit(name, *args, pos=pos or self.pos)

    def finish(self, kind):
        self.asm.thread_jumps()
        return Code(kind, self.name, self.local_names, bytes(self.asm.code), self.asm.lines)

    def action(self, a):
        self.pos = a.pos
        self.block(a.body)
        self.emit('RETURN', pos=a.pos)
        return self.finish('action')

    def expression(self, kind, body):
        self.pos = body.pos
        self.expr(body)
        self.emit('RETURN_VALUE')
        return self.finish(kind)

    def init_own(self, own):
        """Extension: a value for each player (or team) starts as its declaration says."""
        self.pos = own.pos
        self.expr(own.init)
        self.emit('INIT_OWN', own.index)

    # --- statements ---------------------------------------------------------

    def block(self, stmts):
        for s in stmts:
            if isinstance(s, c.Label):
                self.label_loops[s.name] = self.loops
        for s in stmts:
            self.pos = s.pos
            getattr(self, 'stmt_' + type(s).__name__)(s)

    def stmt_Ask(self, s):
        if any(isinstance(q, c.ListQuestion) for q in s.questions):
            self.ask_from(s)
        else:
            self.load(s.player)
            for q in s.questions:
                self.question(q)
            self.emit('ASK', len(s.questions), pos=s.pos)
        self.branches(s)

    def question(self, q):
        """Push a question's text and whether it is asked."""
        self.string(q.text)
        if q.cond is None:
            self.emit('CONST', self.gen.const(True))
        else:
            self.expr(q.cond)

    def ask_from(self, s):
        # Extension (options from a list): the options are gathered in a new
        # list under the stack's top, by OPTION for a written question and
        # OPTION_ITEM for each item of a list question; ASK_FROM asks them.
        self.load(s.player)
        self.emit('LIST_CONST', self.gen.const(()), pos=s.pos)
        for k, q in enumerate(s.questions):
            if not isinstance(q, c.ListQuestion):
                self.question(q)
                self.emit('OPTION', k, pos=q.pos)
                continue
            self.local_names[q.var.slot] = q.var.name
            self.expr(q.items)
            self.emit('FOR_ITER', pos=q.pos)
            top = self.emit('FOR_NEXT', q.var.slot, 0, pos=q.pos)
            self.question(q)
            self.emit('OPTION_ITEM', k, q.var.slot, pos=q.pos)
            self.emit('JUMP', top, pos=q.pos)
            self.asm.patch(top)
        self.emit('ASK_FROM', len(s.questions), pos=s.pos)

    def branches(self, s):
        # ASK (or ASK_FROM) continues at the chosen one of these jumps, one per question.
        table = [self.emit('JUMP', 0) for _ in s.questions]
        ends = []
        for i, (entry, q) in enumerate(zip(table, s.questions)):
            self.asm.patch(entry)
            self.block(q.body)
            if i < len(s.questions) - 1:
                ends.append(self.emit('JUMP', 0))
        for end in ends:
            self.asm.patch(end)

    def stmt_Assign(self, s):
        self.expr(s.value)
        self.store(s.target)

    def stmt_Compound(self, s):
        t = s.target
        if isinstance(t, c.PropRef):
            self.expr(t.obj)
            self.emit('DUP')
            self.emit(_prop_op('LOAD', t.prop), t.prop.index, pos=t.pos)
        else:
            self.load(t)
        self.expr(s.value)
        self.emit(_BINARY[s.op], pos=s.pos)
        if isinstance(t, c.PropRef):
            self.emit('SWAP')
            self.emit(_prop_op('STORE', t.prop), t.prop.index)
        else:
            self.store(t)

    def stmt_DealCard(self, s):
        self.expr(s.card)
        self.load(s.source)
        self.load(s.dest)
        self.emit('DEAL_CARD', pos=s.pos)

    def stmt_DealCards(self, s):
        self.load(s.source)
        self.load(s.dest)
        mode = opcodes.DEAL_TO_PLAYERS if s.dest.type == T.PLAYERS else 0
        if s.count is None:
            mode |= opcodes.DEAL_ALL
        else:
            self.expr(s.count)
        self.emit('DEAL', mode, pos=s.pos)

    def stmt_Forever(self, s):
        top = self.asm.here()
        self.exits.append(LoopExits(0, self.loops, top))
        self.block(s.body)
        self.emit('JUMP', top, pos=s.pos)
        self.end_loop()

    def end_loop(self):
        for jump in self.exits.pop().breaks:
            self.asm.patch(jump)

    def stmt_LoopExit(self, s):
        # `break` drops the iteration states of every loop it leaves, its own
        # included; `continue` keeps its own loop's and jumps to the loop's top.
        loop = self.exits[-1]
        leave = self.loops - loop.outside
        if s.word == 'break':
            if leave:
                self.emit('DROP', leave)
            loop.breaks.append(self.emit('JUMP', 0))
            return
        if leave - loop.own:
            self.emit('DROP', leave - loop.own)
        self.emit('JUMP', loop.top)

    def stmt_For(self, s):
        self.local_names[s.var.slot] = s.var.name
        self.expr(s.items)
        if s.start is None:
            self.emit('FOR_ITER', pos=s.pos)
        else:
            self.expr(s.start)
            self.emit('FOR_ITER_FROM', pos=s.pos)
        loop = LoopExits(1, self.loops)
        self.exits.append(loop)
        self.loops += 1
        top = loop.top = self.emit('FOR_NEXT', s.var.slot, 0, pos=s.pos)
        self.block(s.body)
        self.emit('JUMP', top, pos=s.pos)
        self.asm.patch(top)
        self.loops -= 1
        self.end_loop()

    def stmt_If(self, s):
        # Each test sits right before its block; a failed test jumps to the next test.
        ends = []
        for i, (cond, body) in enumerate(s.branches):
            skip = None
            if cond is not None:
                self.pos = s.pos
                self.expr(cond)
                skip = self.emit('JUMP_IF_FALSE', 0)
            self.block(body)
            if i < len(s.branches) - 1:
                ends.append(self.emit('JUMP', 0, pos=s.pos))
            if skip is not None:
                self.asm.patch(skip)
        for end in ends:
            self.asm.patch(end)

    def stmt_Invoke(self, s):
        if s.args is None:
            self.emit('CALL', self.gen.code_index(c.Action, s.action))
            return
        self.call(s.action, s.args, s.pos, s.gives is not None)
        if s.gives is not None:
            self.emit('POP', pos=s.pos)        # a result called for its effect only

    # Extension: an action with arguments (in its first frame slots), and its result.
    def call(self, action, args, pos, gives):
        for arg in args:
            self.expr(arg)
        self.emit('CALL_FOR' if gives else 'CALL_WITH', len(args),
                  self.gen.code_index(c.Action, action), pos=pos)

    def expr_Call(self, e):
        self.call(e.action, e.args, e.pos, True)

    def stmt_Give(self, s):
        self.expr(s.value)
        self.emit('GIVE', pos=s.pos)

    def stmt_Label(self, s):
        for jump in self.skips.pop(s.name, ()):
            self.asm.patch(jump)

    def stmt_Let(self, s):
        self.local_names[s.var.slot] = s.var.name
        self.expr(s.value)
        self.emit('STORE_LOCAL', s.var.slot)

    def stmt_Message(self, s):
        self.expr(s.text)
        if s.to is None:
            self.emit('MESSAGE_ALL', pos=s.pos)
        else:
            self.load(s.to)
            self.emit('MESSAGE', pos=s.pos)

    def stmt_Order(self, s):
        self.load(s.target)
        self.emit('ORDER', self.gen.code_index(c.Ordering, s.ordering), pos=s.pos)

    def stmt_Play(self, s):
        self.play('PLAY', s)

    def stmt_PlaySet(self, s):
        # Extension: PLAY_SET leaves whether the player passed; `or pass`'s
        # block runs if so.
        self.rule_args(s.binds)
        self.load(s.player)
        self.load(s.dest)
        mode = 0 if s.passing is None else opcodes.PLAY_PASS
        if s.one:                       # (extension: a card rule's single cards, or the pass)
            self.string(s.label or [PASS])
            self.emit('PLAY_CARD_OR', self.gen.code_index(c.Rule, s.rule), pos=s.pos)
        elif s.label is not None:       # (extension: the pass in the author's words)
            self.string(s.label)
            self.emit('PLAY_SET_OR', self.gen.code_index(c.Rule, s.rule), pos=s.pos)
        else:
            self.emit('PLAY_SET', self.gen.code_index(c.Rule, s.rule), mode, pos=s.pos)
        if s.passing is None:
            self.emit('POP')
            return
        skip = self.emit('JUMP_IF_FALSE', 0)
        self.block(s.passing)
        self.asm.patch(skip)

    def rule_args(self, binds):
        """Extension: a rule's arguments into its hidden globals (rule_params.py)."""
        for var, value in binds or ():
            self.expr(value)
            self.emit('STORE_GLOBAL', var.slot)

    def play(self, opname, s):
        self.rule_args(s.binds)
        self.load(s.player)
        self.load(s.dest)
        self.emit(opname, self.gen.code_index(c.Rule, s.rule), pos=s.pos)

    def stmt_Rotate(self, s):
        self.load(s.target)
        self.emit(_STATEMENT_OPS[type(s)], pos=s.pos)

    stmt_Shuffle = stmt_Rotate

    def stmt_Winner(self, s):
        self.load(s.who)
        self.emit('WINNER', pos=s.pos)

    def stmt_Finish(self, s):           # extension: several winners, a loser, a ranking
        self.load(s.who)
        self.emit('FINISH', s.how, pos=s.pos)

    def stmt_Turn(self, s):             # extension: out of the turn order, and back
        self.load(s.who)
        self.emit('TURN_BACK' if s.back else 'TURN_OUT', pos=s.pos)

    def expr_AceHigh(self, e):          # extension: `Aces high.`
        self.expr(e.expr)
        self.emit('ACE_HIGH')

    def stmt_Skip(self, s):
        leave = self.loops - self.label_loops[s.name]
        if leave:
            self.emit('DROP', leave)
        self.skips.setdefault(s.name, []).append(self.emit('JUMP', 0))

    # --- references ---------------------------------------------------------

    def load(self, ref, pos=None):
        """Push a reference's value; undefined is an error at pos (default: the
        reference's own position, as for the references of statements)."""
        pos = pos or ref.pos
        if isinstance(ref, c.NewGroup):         # extension: `new melds`, a deal's destination
            self.string(ref.label)
            mode = (opcodes.AREA_FACEDOWN * ref.facedown) | (opcodes.AREA_SQUAREDUP * ref.squaredup)
            self.emit('NEW_GROUP', ref.var.slot, mode, pos=pos)
            return
        if isinstance(ref, c.PropRef):
            self.expr(ref.obj)
            if isinstance(ref.prop, c.ListProp):
                self.list_prop(ref)
            else:
                self.emit(_prop_op('LOAD', ref.prop), ref.prop.index, pos=pos)
            return
        var = ref.var
        if isinstance(var, c.Global):
            self.emit('LOAD_GLOBAL', var.slot, pos=pos)
        elif isinstance(var, c.Local):
            self.emit('LOAD_LOCAL', var.slot, pos=pos)
        else:
            self.emit('LOAD_BUILTIN', _BUILTIN[var.name], pos=pos)

    def list_prop(self, ref):
        """size/first/last of the list on the stack; an empty list fails at ref."""
        self.emit('LIST_PROP', runtime.LIST_PROPERTY_ALIASES[ref.prop.name], pos=ref.pos)

    def store(self, ref):
        """Pop a value into a writable reference (the checker rejects the others)."""
        if isinstance(ref, c.PropRef):
            self.expr(ref.obj)
            self.emit(_prop_op('STORE', ref.prop), ref.prop.index)
        elif isinstance(ref.var, c.Global):
            self.emit('STORE_GLOBAL', ref.var.slot)
        else:
            self.emit('STORE_LOCAL', ref.var.slot)

    def string(self, parts):
        """Push a String built from text and references."""
        if all(isinstance(p, str) for p in parts):
            self.emit('CONST', self.gen.const(''.join(parts)))
            return
        parts = [p for p in parts if p != '']
        for part in parts:
            if isinstance(part, str):
                self.emit('CONST', self.gen.const(part))
            else:
                self.load(part)
        self.emit('FORMAT', len(parts))

    # --- expressions --------------------------------------------------------

    def expr(self, e):
        value = fold(e)
        if value is NOT_CONSTANT:
            getattr(self, 'expr_' + type(e).__name__)(e)
        elif type(value) is tuple:
            self.emit('LIST_CONST', self.gen.const(value), pos=e.pos)
        else:
            self.emit('CONST', self.gen.const(value), pos=e.pos)

    def expr_StrLiteral(self, e):
        self.string(e.parts)

    def expr_Ref(self, e):
        self.load(e.ref, e.pos)

    def expr_Not(self, e):
        self.expr(e.expr)
        self.emit('NOT', pos=e.pos)

    def expr_Binary(self, e):
        self.expr(e.left)
        if e.op in ('and', 'or'):
            jump = self.emit('JUMP_IF_FALSE_OR_POP' if e.op == 'and' else 'JUMP_IF_TRUE_OR_POP',
                             0, pos=e.pos)
            self.expr(e.right)
            self.asm.patch(jump)
        else:
            self.expr(e.right)
            self.emit(_BINARY[e.op], pos=e.pos)

    def expr_Defined(self, e):
        ref = e.ref
        if isinstance(ref, c.PropRef):
            self.expr(ref.obj)
            if isinstance(ref.prop, c.ListProp):
                # an item of a list is always defined, but reading it can fail
                self.list_prop(ref)
                self.emit('POP')
                self.emit('CONST', self.gen.const(True))
            else:
                self.emit(_prop_op('DEFINED', ref.prop), ref.prop.index, pos=e.pos)
        elif isinstance(ref.var, c.Global):
            self.emit('DEFINED_GLOBAL', ref.var.slot, pos=e.pos)
        elif isinstance(ref.var, c.Local):
            self.emit('DEFINED_LOCAL', ref.var.slot, pos=e.pos)
        else:
            self.emit('DEFINED_BUILTIN', _BUILTIN[ref.var.name], pos=e.pos)

    def expr_CanPlay(self, e):
        self.play('CANPLAY', e)

    def expr_CanPlaySet(self, e):
        self.play('CANPLAY_SET', e)

    def binary_op(self, opname, left, right, e):
        self.expr(left)
        self.expr(right)
        self.emit(opname, pos=e.pos)

    def expr_CardExpr(self, e):
        self.binary_op('MAKE_CARD' if e.type == T.CARD else 'MAKE_CARDS', e.rank, e.suit, e)

    def expr_Range(self, e):
        self.binary_op('RANGE', e.low, e.high, e)

    def expr_Seq(self, e):
        self.binary_op('SEQ', e.left, e.right, e)

    def expr_WildRank(self, e):
        self.expr(e.suit)
        self.emit('WILD_RANK', pos=e.pos)

    def expr_WildSuit(self, e):
        self.expr(e.rank)
        self.emit('WILD_SUIT', pos=e.pos)

    def expr_WildCard(self, e):
        self.emit('LOAD_BUILTIN', _BUILTIN['standard'], pos=e.pos)

    def expr_Aggregate(self, e):
        """Extension: `(count x in L where C)` and the others: FOR_ITER's loop
        with the total under its state; `by` sorts as `order` does."""
        agg = opcodes.AGGREGATES.index(e.word)
        if e.var is None:
            self.expr(e.items)
            self.emit('PICK_BY', self.gen.code_index(c.Ordering, e.body), agg, pos=e.pos)
            return
        self.local_names[e.var.slot] = e.var.name
        self.emit('AGG_START', agg)
        self.expr(e.items)
        self.emit('FOR_ITER', pos=e.pos)
        top = self.emit('FOR_NEXT', e.var.slot, 0)
        self.expr(e.body)
        self.emit('AGG_STEP', agg, top)
        self.asm.patch(top)
        if agg >= opcodes.AGG_MAX:
            self.emit('AGG_END', pos=e.pos)

    def expr_Item(self, e):             # extension: `(item K of L)`
        self.expr(e.items)
        self.expr(e.index)
        self.emit('LIST_ITEM', pos=e.pos)

    def expr_ListLit(self, e):
        for item in e.items:
            self.expr(item)
        self.emit('BUILD_LIST', len(e.items), pos=e.pos)


def _prop_op(verb, prop):
    """LOAD_PROP or, for a value for each player or team (the extension), LOAD_OWN..."""
    return verb + ('_OWN' if isinstance(prop, c.Own) else '_PROP')


# --- constant folding ---------------------------------------------------------

_FOLD_BINARY = {
    '+': lambda a, b: a + b, '-': lambda a, b: a - b, '*': runtime.multiply,
    '/': runtime.divide, '==': lambda a, b: a == b, '!=': lambda a, b: a != b,
    '<': lambda a, b: a < b, '<=': lambda a, b: a <= b, '>': lambda a, b: a > b,
    '>=': lambda a, b: a >= b, 'and': lambda a, b: a and b, 'or': lambda a, b: a or b,
}


def fold(e):
    """The value of an expression the checker's information makes constant,
    in its run-time form (lists as tuples, cards as CardRef), or NOT_CONSTANT.
    An expression that would fail at run time is left for the VM to report."""
    kind = type(e)
    try:
        if kind is c.Literal:
            return _literal(e)
        if kind is c.StrLiteral and all(isinstance(p, str) for p in e.parts):
            return ''.join(e.parts)
        if kind is c.Not:
            v = fold(e.expr)
            return NOT_CONSTANT if v is NOT_CONSTANT else not v
        if kind is c.ListLit:
            items = [fold(x) for x in e.items]
            if NOT_CONSTANT in items:
                return NOT_CONSTANT
            return tuple(y for x in items for y in (x if type(x) is tuple else (x,)))
        if kind in (c.Binary, c.Range, c.Seq, c.CardExpr):
            a, b = (fold(x) for x in _operands(e))
            if a is NOT_CONSTANT or b is NOT_CONSTANT:
                return NOT_CONSTANT
            if kind is c.Binary:
                if e.op not in _FOLD_BINARY:
                    return NOT_CONSTANT
                v = _FOLD_BINARY[e.op](a, b)
                # a huge Number is cheaper to compute than to store
                return NOT_CONSTANT if type(v) is int and v.bit_length() > _MAX_FOLD_BITS else v
            if kind is c.Range:
                return tuple(runtime.rank_range(a, b))
            if kind is c.Seq:
                return _items(a) + _items(b)
            cards = tuple(CardRef(runtime.card_index(runtime.as_rank(r), s))
                          for r in _items(a) for s in _items(b))
            return cards[0] if e.type == T.CARD else cards
    except Fault:
        pass
    return NOT_CONSTANT


def _operands(e):
    kind = type(e)
    if kind is c.Binary or kind is c.Seq:
        return e.left, e.right
    if kind is c.Range:
        return e.low, e.high
    return e.rank, e.suit


def _items(v):
    return v if type(v) is tuple else (v,)


def _literal(e):
    if e.type == T.RANK:
        return runtime.RANKS[e.value]
    if e.type == T.SUIT:
        return runtime.SUIT_BY_LETTER[e.value]
    return e.value
