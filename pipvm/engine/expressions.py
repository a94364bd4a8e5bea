"""Rules' and orderings' code as expression trees: symbolic execution of
the decoded instructions, for pipvm/engine/pure.py's closures and the
quiet variant's checks.

The operand stack holds expression trees instead of values, and a
conditional jump becomes a conditional node whose branches are the rest of
the code from each side (code has only forward jumps; a stack value kept
across a jump is kept in a scratch slot of the locals).  How each
instruction moves the stack comes from its record in the one table
(pipvm/isa/instructions.py): its pops and pushes, for the stack's own
moves (POP, DUP, SWAP, DROP) which input each output is, and for a jump
its depth where it jumps (`branch`), whether its condition stays there
(`keeps`) and which value jumps (its body's test).  Only what the
compiler makes of an expression is translated; anything else (a hand-made
.pipc) is refused and runs on the loop.
"""
from pipvm.core import plain
from pipvm.isa.opcodes import OPCODES, OPERANDS

MAX_NODES = 2000       # a bigger translation (branches copied past joins) stays on the loop


class _Refused(Exception):
    pass


# The instructions an expression is made of (the table's pure opcodes), by
# how they use the stack.  CANPLAY and CANPLAY_SET (they read a hand) have a
# node of their own.
_EXPRESSION = [op for op in OPCODES if op.pure]
_LOADS = {op.name for op in _EXPRESSION if op.pops == 0}
_UNARY = {op.name for op in _EXPRESSION if op.pops == 1 and op.pushes == 1}
_BINARY = {op.name for op in _EXPRESSION
           if op.pops == 2 and op.pushes == 1 and 'hand' not in op.reads}
_COUNTED = {op.name for op in _EXPRESSION if callable(op.pops) and op.pushes == 1}
_POPS = {op.name: op.pops for op in _EXPRESSION if op.pops != 0}
_CANPLAY = {'CANPLAY', 'CANPLAY_SET'}


def _moves(op):
    """For an instruction whose body only moves the stack (`pass`, or
    `copy = a`): which input each output is, by index; None for others."""
    alias = {}
    for line in op.body.split('\n') if op.body not in (None, 'pass') else ():
        out, eq, src = line.partition(' = ')
        if not eq or src not in op.inputs:
            return None
        alias[out] = src
    if op.body is None or any(alias.get(o, o) not in op.inputs for o in op.outputs):
        return None
    return tuple(op.inputs.index(alias.get(o, o)) for o in op.outputs)


# The stack's own moves (POP, DUP, SWAP, DROP), from their records.
_MOVES = {op.name: moves for op in _EXPRESSION if (moves := _moves(op)) is not None}


@plain.frozen
class _Jump:
    """How a jump moves control and the stack, read from its record."""
    op: object                 # the record: its pops, pushes and branch move the stack
    always: bool               # control never falls through (JUMP)
    on: object                 # the condition's value that jumps (None: always)
    keeps: bool                # the condition stays on the stack where it jumps


def _jump(op):
    """The _Jump of a record with a jump target that an expression may hold
    (an unconditional jump, or a branch on its one input `cond`, as its
    body's first line tests it); None for the others (a loop's)."""
    if op.stack or op.body is None or not any(OPERANDS[k].is_target for k in op.operands):
        return None
    if op.ends and not op.inputs and not op.outputs:
        return _Jump(op, True, None, False)
    on = {'if cond:': True, 'if not cond:': False}.get(op.body.split('\n')[0])
    if op.inputs != ('cond',) or op.outputs or on is None:
        return None
    return _Jump(op, False, on, op.keeps)


# The jumps (JUMP, JUMP_IF_FALSE, ..._OR_POP) and the return of an
# expression's value (RETURN_VALUE), from their records.
_JUMPS = {op.name: jump for op in OPCODES if (jump := _jump(op)) is not None}
_RETURNS = {op.name for op in OPCODES if op.ends and op.body is not None and not op.outputs
            and len(op.inputs) == 1 and op.body == 'RETURN(%s)' % op.inputs[0]}


# The expression trees: what symbolic execution leaves on its stack and
# makes of the control flow.  _Builder.b_NAME builds a closure from each
# (Leaf: b_KIND).
@plain.frozen
class Leaf:
    """A value no operand computes: kind 'const' (a value), 'card_const' and
    'list_const' (a constant pool index: its value depends on the deck),
    'list' (a constant list), 'scratch' (a kept value's slot), or a load
    opcode's name in lower case (its operand)."""
    kind: str
    arg: object


@plain.frozen
class Unary:
    op: str                    # an opcode name (_UNARY)
    arg: object                # its operand, or None
    operand: object


@plain.frozen
class Binary:
    op: str                    # an opcode name (_BINARY)
    left: object
    right: object              # (was on top)


@plain.frozen
class CanPlay:
    op: str                    # CANPLAY, or CANPLAY_SET (a rule for sets)
    rule: int
    player: object
    dest: object


@plain.frozen
class Aggregate:
    """An aggregate's loop (the extension): AGG_START, the items, FOR_ITER,
    FOR_NEXT into the local `slot`, the body, AGG_STEP (then AGG_END, a
    Unary of its own, for max and min)."""
    agg: int                   # opcodes.AGGREGATES's index
    items: object              # a Return: the list
    slot: int
    body: object               # a Return: the item's value


@plain.frozen
class Counted:
    op: str                    # 'format' or 'build_list'
    parts: tuple


@plain.frozen
class If:
    """JUMP_IF_FALSE: then if cond, else else_ (each the rest of the code)."""
    cond: object
    then: object
    else_: object


@plain.frozen
class Keep:
    """JUMP_IF_TRUE_OR_POP (on_true) or JUMP_IF_FALSE_OR_POP: when cond is
    on_true, it is kept in the scratch slot and `kept` runs, else `rest`."""
    on_true: bool
    cond: object
    slot: int
    kept: object
    rest: object


@plain.frozen
class Return:
    value: object
    dropped: tuple             # values popped unused, still to evaluate first


def _returns_kept(tree):
    """Is tree a Keep whose kept value is the result (`a or b`, `a and b`)?"""
    return type(tree) is Keep and tree.kept == Return(Leaf('scratch', tree.slot), ())


class _Translator:
    """Bytecode to an expression tree (Leaf, Unary, ...; see _Builder)."""

    def __init__(self, decoded, program, card_consts, nlocals):
        self.decoded = decoded
        self.index = {ins.offset: i for i, ins in enumerate(decoded)}
        self.consts, self.card_consts = program.consts, card_consts
        self.first_scratch, self.scratch = nlocals, 0
        self.nodes = 0

    def target(self, i, offset):
        j = self.index.get(offset)
        if j is None or j <= i:
            raise _Refused()            # only forward jumps: no loops in an expression
        return j

    def straight(self, name, args, stack, dropped):
        """(stack, dropped) after a straight-line instruction of an
        expression, or None if it is not one."""
        if name in _LOADS:
            return stack + (self.load(name, args[0]),), dropped
        pops = _POPS.get(name)
        if pops is None:
            return None
        n = pops(args[0]) if callable(pops) else pops
        if len(stack) < n:
            raise _Refused()
        rest, top = stack[:len(stack) - n], stack[len(stack) - n:]
        moves = _MOVES.get(name)
        if moves is not None:   # the inputs no output is are dropped (still evaluated)
            return (rest + tuple(top[i] for i in moves),
                    dropped + tuple(t for i, t in enumerate(top) if i not in moves))
        if name in _UNARY:      # (PICK_BY's two operands as one tuple)
            arg = None if not args else args[0] if len(args) == 1 else tuple(args)
            return rest + (Unary(name, arg, top[0]),), dropped
        if name in _BINARY:
            return rest + (Binary(name, top[0], top[1]),), dropped
        if name in _CANPLAY:
            return rest + (CanPlay(name, args[0], top[0], top[1]),), dropped
        if name in _COUNTED:
            return rest + (Counted(name.lower(), top),), dropped
        return None

    def block(self, i, stack, dropped=(), stop=None):
        """The tree for running from instruction i with this symbolic stack;
        `dropped` holds the values popped unused so far, still to evaluate.
        An aggregate's part ends at instruction `stop` as if it returned."""
        while True:
            self.nodes += 1
            if self.nodes > MAX_NODES or i >= len(self.decoded) or (stop is not None and i > stop):
                raise _Refused()
            if i == stop:
                if len(stack) != 1:
                    raise _Refused()
                return Return(stack[0], dropped)
            ins = self.decoded[i]
            name, args = ins.op.name, ins.args
            after = self.straight(name, args, stack, dropped)
            if after is not None:
                stack, dropped = after
            elif name in _JUMPS:
                jump = _JUMPS[name]
                j = self.target(i, args[0])
                if jump.always:
                    i = j
                    continue
                return self.branch(i, j, jump, stack, dropped, stop)
            elif name == 'AGG_START':      # (an aggregate's loop, as the compiler lays it out)
                i, tree = self.aggregate(i, args[0])
                stack += (tree,)
                continue
            elif name in _RETURNS:
                if len(stack) != 1:
                    raise _Refused()
                return Return(stack[0], dropped)
            else:
                raise _Refused()        # anything that is not part of an expression
            i += 1

    def branch(self, i, j, jump, stack, dropped, stop):
        """The tree for a conditional jump at instruction i to j: its record
        says how deep the stack is each way (pops and pushes falling
        through, branch where it jumps) and whether the condition stays
        there (a kept value, in a scratch slot: Keep) or not (If)."""
        op = jump.op
        if len(stack) < op.pops:
            raise _Refused()
        cond = stack[-1]
        fall = stack[:len(stack) - op.pops] + stack[len(stack):len(stack) + op.pushes]
        taken = stack[:len(stack) + op.branch]
        if not jump.keeps:
            on_fall = self.block(i + 1, fall, dropped, stop)
            on_jump = self.block(j, taken, dropped, stop)
            return If(cond, on_jump, on_fall) if jump.on else If(cond, on_fall, on_jump)
        slot = self.first_scratch + self.scratch
        self.scratch += 1
        kept = self.block(j, taken[:-1] + (Leaf('scratch', slot),), dropped, stop)
        return Keep(jump.on, cond, slot, kept, self.block(i + 1, fall, dropped, stop))

    def aggregate(self, i, agg):
        """(the index after it, an Aggregate) for the aggregate whose
        AGG_START is instruction i, as the compiler lays it out:
        AGG_START, items, FOR_ITER, FOR_NEXT slot END, body, AGG_STEP agg TOP, END:"""
        j, depth = i + 1, 0
        while j < len(self.decoded):        # this aggregate's FOR_ITER (an inner one's items come first)
            name = self.decoded[j].op.name
            if name == 'FOR_ITER' and depth == 0:
                break
            depth += (name == 'AGG_START') - (name == 'AGG_STEP')
            j += 1
        if j + 1 >= len(self.decoded) or self.decoded[j + 1].op.name != 'FOR_NEXT':
            raise _Refused()
        slot, end = self.decoded[j + 1].args
        end = self.target(j + 1, end)
        step = self.decoded[end - 1]
        if step.op.name != 'AGG_STEP' or tuple(step.args) != (agg, self.decoded[j + 1].offset):
            raise _Refused()
        return end, Aggregate(agg, self.block(i + 1, (), (), j), slot,
                              self.block(j + 2, (), (), end - 1))

    def load(self, name, arg):
        if name == 'CONST':
            if arg in self.card_consts:
                return Leaf('card_const', arg)
            return Leaf('const', self.consts[arg])
        if name == 'LIST_CONST':
            if arg in self.card_consts:
                return Leaf('list_const', arg)
            return Leaf('list', self.consts[arg])
        return Leaf(name.lower(), arg)
