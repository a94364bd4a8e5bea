"""The compiled tier's blocks (`--engine compiled`, not the default): each
block of a code object's instructions runs as one Python function
generated from the same bodies as the loop's code.

A block is a run of at least two of the loaded instructions that a
handler can run (a body that neither reads the loop's own state nor
pauses, calls or hands back), ended by a JUMP (written from its body) or
by an instruction it cannot hold.  Its function is the block's file
instructions composed as one superinstruction (cases.compose, in a
handler's words): a value one instruction leaves for the next is a Python
local, never pushed.  It returns where the loop goes on: the instruction
after the block, or a jump's target (a conditional jump leaves from the
middle); a block whose JUMP goes back to its own first index is a Python
`while` (a `for` where that index is a FOR_NEXT).  It stands at the block's first index in a copy of the
instruction list.  Every index a jump enters (and, in the quiet variant,
every index a skipped message lands on) opens a block of its own, also
inside another block; the other indexes keep their own instructions, so a
frame resumed inside a block runs them as before, and an error's position
is its instruction's (the block's first index holds the positions of all
its instructions, by part).

Trust: the generated source holds only text from the instruction table
(the bodies and macros) and subscripts of the handler's operand tuple:
no constant, number or name of the program reaches it.  Every operand
(the instruction after the block, each instruction's decoded operands)
comes in that tuple at run time.  So a function depends only on the
block's opcodes: it is made once per opcode sequence, cached in memory
(never written to disk), when the block is hot (_Lazy: loading a
program only finds its blocks; until its HOT-th call a block runs its
first instruction alone and the loop the rest).  In play-out mode whole
actions run as functions too (pipvm/engine/actions.py).
"""
import types

from pipvm.engine import cases, fusion, generated_cases, kinds, steady
from pipvm.isa.opcodes import BY_CODE, OP
from pipvm.isa.operands import OPERANDS

MIN_BLOCK = 2           # a lone instruction gains nothing from a call of its own
# What the tier's other generators (regions.py, actions.py and fors.py),
# unlike the blocks, write into their source as integers: operands of these
# kinds below SMALL, indexes and counts the verifier checked
# (pipvm/isa/operands.py), never a constant's value, which always comes by
# its index (CONST's operand is one).
INDEXES = frozenset(name for name, kind in OPERANDS.items() if kind.load is None)
SMALL = 1000


def for_operands(instr):
    """(The local slot, the target) of a FOR_NEXT whose loaded operand is
    the pair a Python `for` in generated source needs: the slot an integer
    below SMALL (the verifier checked it), the target one the loader made;
    None for any other instruction."""
    op, arg, _ = instr
    if op != OP.FOR_NEXT or type(arg) is not tuple or len(arg) != 2:
        return None
    slot, target = arg
    return arg if type(slot) is int and 0 <= slot < SMALL and type(target) is int else None
_MADE = {}              # opcode sequence -> the block's function


def _runs_in_block(op):
    """Can a block hold this file instruction?"""
    return (op.body is not None and not op.loop_only and not op.parts
            and not (cases._words(op.body) & cases.BLOCK_SIGNALS))


def _ends(op):
    return op.ends


# The quiet variant's handlers written from quiet bodies (a message nobody
# reads): they stay out of blocks, which compose the loud bodies.
_QUIET_BODIED = frozenset(generated_cases.QUIET_HANDLERS.values())


def _parts(entry):
    """The instructions a loaded instruction runs (a superinstruction's
    parts), or None if a block may not hold it (one it cannot run: a
    load-time one that pauses or hands over to the loud code, or one the
    quiet variant runs from its quiet body)."""
    if entry[2] in _QUIET_BODIED:
        return None
    try:
        return _PARTS[entry[0]]
    except KeyError:
        pass
    op = BY_CODE[entry[0]]
    parts = op.parts or (op,)
    if not all(_runs_in_block(p) for p in parts):
        parts = None
    _PARTS[entry[0]] = parts
    return parts


_PARTS = {}             # opcode -> _parts (found once: loading looks at every instruction)


def _operands(entry):
    """A loaded instruction's operands as a list (cases.operand_exprs' shapes)."""
    op, arg = BY_CODE[entry[0]], entry[1]
    n = sum(len(p.names) for p in op.parts) if op.parts else len(op.names)
    return [arg] if n == 1 else list(arg)


def threads_to(target, instrs):
    """Is target (a JUMP_IF_FALSE_OR_POP's) a JUMP_IF_FALSE of instrs, which
    the `and`'s jump is threaded through (threaded)?"""
    return type(target) is int and 0 <= target < len(instrs) and instrs[target][0] == OP.JUMP_IF_FALSE


def ints_in(value):
    """Every int in an operand, in its tuples and lists too (the indexes
    it may name: what keeps a threaded jump's target entered)."""
    if type(value) is int:
        return {value}
    if type(value) in (tuple, list):
        return {x for v in value for x in ints_in(v)}
    return set()


def threaded(parts, operands, instrs):
    """The parts and operands of a run with each `and`'s jump threaded: a
    JUMP_IF_FALSE_OR_POP whose target is a JUMP_IF_FALSE (`if a and b {`)
    jumps where that one jumps when the value is false, and pops it as the
    target would: a JUMP_IF_FALSE to the target's target (the same pops and
    the same place either way; neither can fail nor counts a step).  The
    operands are a list, each part's in turn; instrs: the loaded list the
    targets index."""
    out, k = list(parts), 0
    for j, p in enumerate(parts):
        n = len(p.names)
        if p.code == OP.JUMP_IF_FALSE_OR_POP:
            target = operands[k]
            if threads_to(target, instrs):
                out[j] = BY_CODE[OP.JUMP_IF_FALSE]
                operands = operands[:k] + [instrs[target][1]] + operands[k + 1:]
        k += n
    return out, operands


def _jump_text(k, ctx):
    """JUMP's body, its target arg[k] and the loop's pc after it arg[k + 1]."""
    body = cases.BODIES['JUMP'].body
    return cases.expand(cases.substitute(body, dict(ctx.names, target='arg[%d]' % k,
                                                    pc='arg[%d]' % (k + 1))), ctx)


def function(codes, jump=None, modes=()):
    """The block function for a sequence of file opcodes (cached); jump:
    None, or the block ends with a JUMP ('out'), or with a JUMP back to
    its own first instruction ('loop': the block is a Python `while`);
    modes: its DEALs' modes in turn (cases.deal_body), or () for DEAL's own body."""
    key = codes if jump is None and not modes else (codes, jump, modes)
    fn = _MADE.get(key)
    if fn is None:
        ctx = cases.CONTEXTS['handler']
        ops = tuple(BY_CODE[c] for c in codes)
        if modes:
            deals = iter(modes)
            # (each DEAL made for its mode, its operands in locals: deal.pip's
            # round, 12 DEALs, each two or three values pushed and popped)
            ops = tuple(cases.deal_body(next(deals)) if op.code == OP.DEAL else op
                        for op in ops)
        n = sum(len(op.names) for op in ops)
        # (without forward's rewriting, as a region: a block is composed
        # while a game runs, and CPython runs both forms alike)
        # (a loop headed by FOR_NEXT: a Python `for` over the iteration
        # state, its item stored by FOR_ITER's own code, no `next` call and
        # test a round; its operands arg[1] and arg[2], the slot and the end)
        each = jump == 'loop' and codes[0] == OP.FOR_NEXT
        text = cases.compose(types.SimpleNamespace(parts=ops[each:]), ctx,
                             ['arg[%d]' % (i + 1) for i in range(2 * each, n)], own_parts=True,
                             first_part=int(each), forwarded=False) if ops[each:] else 'pass'
        if jump == 'loop':          # the next round is this block again: no return
            tick = cases.expand('TICK()', ctx)
            text = ('for frame[arg[1]] in stack[-1]:\n' if each else 'while True:\n') + \
                cases._indent(text + '\n' + tick, 4) + ('\nstack.pop()\nreturn arg[2]' * each)
        elif jump == 'out':
            text += '\n' + _jump_text(n + 1, ctx)
        elif not ops[-1].ends:
            text += '\nreturn arg[0]'
        if jump is not None:
            ops += (BY_CODE[OP.JUMP],)
        source = 'def block(self, stack, frame, arg):\n%s\n' % '\n'.join(
            '    ' + line for line in text.split('\n'))
        space = dict(vars(generated_cases))
        exec(compile(source, '<pipvm block %s>' % ' '.join(op.name for op in ops), 'exec'),
             space)
        fn = _MADE[key] = space['block']
        fn.source, fn.ops = source, ops     # (for `pipvm dis` and the tests)
    return fn


def _modes(parts, operands):
    """The modes of the DEALs among a block's parts, in turn (cases.deal_body), or ()
    where one is no integer below SMALL."""
    out, k = [], 0
    for p in parts:
        if p.code == OP.DEAL:
            if type(operands[k]) is not int or not 0 <= operands[k] < SMALL:
                return ()
            out.append(operands[k])
        k += len(p.names)
    return tuple(out)


def blocks(instrs, entered):
    """[(first index, end index, jump)] of the blocks in a list of loaded
    instructions (jump as function's); entered: the indexes control may
    enter other than by falling through.  A conditional jump may stand
    inside a block (it leaves it); a JUMP ends it.  A block runs on past
    an index entered by a jump, which opens a block of its own too: the
    path that falls through stays in one function."""
    out, covered = [], 0
    for i in range(len(instrs)):
        if i < covered and i not in entered:
            continue
        j, jump = i, None
        while j < len(instrs):
            if instrs[j][0] == OP.JUMP and j > i:
                jump = 'loop' if instrs[j][1] == i else 'out'
                j += 1
                break
            parts = _parts(instrs[j])
            if parts is None:
                break
            j += 1
            if _ends(parts[-1]):
                break
        if j - i >= MIN_BLOCK:
            out.append((i, j, jump))
            covered = max(covered, j)
    return out


def variant(loaded, instrs, entered, positions, regions=None):
    """A copy of instrs with each block's function at its first index;
    positions: the instructions' own (a block's index gets its parts');
    regions: regions.enter, which a hot block calls for the loop around it
    (None: blocks only)."""
    out = list(instrs)
    site = _Site(instrs, out, entered, positions, regions)
    sooner = in_for_nests(instrs)
    for start, end, jump in blocks(instrs, entered):
        body = instrs[start:end - 1] if jump else instrs[start:end]
        parts = [p for entry in body for p in _parts(entry)]
        operands = [x for entry in body for x in _operands(entry)]
        parts, operands = threaded(parts, operands, instrs)
        code, operand, _ = instrs[start]    # (cold: run alone, as it was, unthreaded)
        handler = generated_cases.HANDLERS.get(code) or generated_cases.INLINE_HANDLERS[code]
        whole = jump == 'loop' and not any(k in entered for k in range(start + 1, end))
        small = whole and len(parts) <= SMALL_LOOP and for_operands(instrs[start]) is not None
        hot = FOR_HOT if small else sooner.get(start)
        if whole and hot == NESTED_HOT:
            hot = None      # (its own `while`, no region: one round returns to the loop once)
        modes = _modes(parts, operands)
        fn = _Lazy((tuple(p.code for p in parts), jump) + ((modes,) if modes else ()), out, start,
                   (handler, operand, start + 1), site, hot)
        fn.whole_loop = whole
        if jump == 'out':           # the JUMP's target, and the loop's pc after it
            operands += [instrs[end - 1][1], end]
        arg = tuple([end] + operands)
        out[start] = (BLOCK, arg, fn.cold)
        # (the loud and the quiet block at an index: one's parts begin the other's)
        mine = tuple(p for k in range(start, end) for p in positions[k])
        if len(mine) > len(loaded.positions[start]):
            loaded.positions[start] = mine
    return out


class _Site:
    """What a hot block needs to make the loop around it one function
    (pipvm/engine/regions.py): a copy of a code object's instructions as
    loaded, that copy with its blocks (out), the indexes control enters
    other than by falling through, each instruction's positions."""
    __slots__ = ('instrs', 'out', 'entered', 'positions', 'enter', 'loops', 'made', 'failed',
                 'pures', 'named', 'steady', 'program', 'shown')

    def __init__(self, instrs, out, entered, positions, enter):
        self.instrs, self.out, self.entered, self.positions = instrs, out, entered, positions
        self.enter = enter      # (regions.enter, or None: blocks only)
        self.loops = None       # (the loops a region can hold: found at the first hot block)
        self.made = {}          # loop -> (its function, its entries' operand tuples)
        self.failed = set()     # (loops that cannot be one: their blocks run)
        self.pures = ()         # (the image's rules, whose filters a region calls: at its making)
        self.named = None       # (regions._named: at the first region made)
        self.steady = {}        # (steady.steady's of the program: at its making)
        self.program = None     # (the image's program: at its making)
        self.shown = None       # (kinds.items_shown's of it: at the first region that asks)

    def items_shown(self):
        """kinds.items_shown of the program, found once, when a region
        first has a `for` over a list (a region with none never pays);
        False for a site no game warmed (`pipvm dis --compiled`'s)."""
        if self.shown is None:
            self.shown = self.program is not None and kinds.items_shown(self.program)
        return self.shown


BLOCK = -1              # a block's opcode: never a table's (the loop calls its handler)


def lazy_of(fn):
    """The _Lazy of a block's function in an instruction list while it is
    cold, else None."""
    return getattr(fn, 'lazy', None)


# Calls of a block before its function is made: composing and compiling
# cost about a millisecond a block, and a block saves some 0.3 us a run
# over the loop, so one that runs fewer times than this never pays for its
# function (a short game's blocks: benchmarks/oracle.py).
HOT = 500


# A block in a nest of `for` loops over lists (a loop headed by a FOR_NEXT
# inside another or around another, every instruction of both one a block
# can hold) is hot sooner: the inner loop runs once per item of the inner
# list for each item of the outer (4 x 52 rounds in
# benchmarks/programs/loops.pip), so its region pays for itself long before
# HOT calls, where a lone loop's (a `for p in players` with a message, 80
# rounds a game) never would.
FOR_HOT = 40
# So is a `for` whose whole body is one block of a few instructions (a
# whole loop, _Lazy.whole_loop): made for little (0.3 ms: a `for p in
# players { deal 2 from p to deck. }`), it saves a cold call of its
# block at every round, where a longer one (loops.pip's 17 parts with a
# message, 80 rounds a game) costs more to make than its rounds save.
SMALL_LOOP = 6
# A `for` a region can hold inside another loop (rules.pip's `for c in
# p->hand` in `for p in players`, 12 rounds a run with two CANPLAYs, 456
# of its 2,880 rounds cold at HOT) is hot sooner too, where it is more
# than one block (each round goes back to the loop two or three times
# until it is a region): it runs again at every round of the loop around
# it.  (At 100, loops.pip's `for p in players`, 80 rounds a game, was made
# and cost more than it saved.)
NESTED_HOT = 150


def in_for_nests(instrs):
    """{index: its hotness} of the instructions of instrs in a `for` loop
    (headed by a FOR_NEXT that a Python `for` can take: for_operands),
    from its head to the last JUMP back to it, whose every instruction a
    block can hold, inside another loop: FOR_HOT in a nest of two such
    loops, NESTED_HOT in any other loop."""
    every, loops = {}, {}
    for j, (op, arg, _) in enumerate(instrs):
        if op == OP.JUMP and type(arg) is int and 0 <= arg < j:
            every[arg] = j
            if for_operands(instrs[arg]) is not None:
                loops[arg] = j
    loops = [(h, e) for h, e in loops.items()
             if all(x[0] == OP.JUMP or _parts(x) is not None for x in instrs[h:e + 1])]
    out = {}
    for h, e in loops:
        if any(h < h2 and e2 <= e or h2 < h and e <= e2 for h2, e2 in loops):
            out.update(dict.fromkeys(range(h, e + 1), FOR_HOT))
        elif any(h2 < h and e <= e2 for h2, e2 in every.items()):
            for k in range(h, e + 1):
                out.setdefault(k, NESTED_HOT)
    return out


class _Lazy:
    """A block until it is hot: each call runs the block's first
    instruction alone, by its handler (generated_cases: the loop's own, or
    an inline instruction's), and goes on in the loop at the next; the
    hot-th (HOT, or FOR_HOT in a nest of `for` loops) makes the block's function and
    puts it in the instruction list (a program pays only for the blocks it
    runs often).  The instruction list holds its `cold` function (lazy_of
    finds it from there): the loop calls a plain function in about half
    the machine instructions of an object's __call__ (1.0 against 2.2
    thousand; deal.pip's 300 rounds run cold, four such calls a round)."""
    __slots__ = ('key', 'instrs', 'index', 'first', 'calls', 'site', 'whole_loop', 'hot', 'cold')

    def __init__(self, key, instrs, index, first, site, hot=None):
        self.key, self.instrs, self.index = key, instrs, index
        self.first, self.calls, self.site = first, 0, site
        self.whole_loop = False     # (a block that is its loop: no region for it)
        self.hot = HOT if hot is None else min(hot, HOT)
        self.cold = self._cold()

    def _cold(self):
        lazy, (handler, operand, after) = self, self.first

        def cold(machine, stack, frame, arg):
            lazy.calls = calls = lazy.calls + 1
            if calls < lazy.hot:
                target = handler(machine, stack, frame, operand)
                return after if target is None else target
            return lazy.warm(machine, stack, frame, arg)
        cold.lazy = self
        return cold

    def made(self):
        return function(*self.key)

    def __call__(self, machine, stack, frame, arg):
        return self.cold(machine, stack, frame, arg)

    def warm(self, machine, stack, frame, arg):
        """The hot-th call: the loop around the block as a region, or its function."""
        # (a block that is a whole loop by itself, a Python `while` no jump
        # enters but at its head: its own function, made once for every
        # loop of its opcodes, not a region written for this one)
        site = self.site
        region = None
        if site.enter is not None and not self.whole_loop:
            site.pures = machine.image.pure
            site.steady = steady.steady(machine.image.program)
            site.program = machine.image.program
            region = site.enter(site, self.index)
        if region is not None:          # (the loop around it, as one function)
            fn, arg = region
            if arg is None:     # (a region entered at its head only: cold until there)
                self.calls = 0
                handler, operand, after = self.first
                target = handler(machine, stack, frame, operand)
                return after if target is None else target
            return fn(machine, stack, frame, arg)
        fn = function(*self.key)
        self.instrs[self.index] = (BLOCK, arg, fn)
        return fn(machine, stack, frame, arg)

    source = property(lambda self: self.made().source)
    ops = property(lambda self: self.made().ops)


# The quiet variant's instructions (pipvm/engine/quiet.py) jump past the
# messages they stand for, to the index their operand tuple ends with.
_QUIET = {OP.QUIET_MESSAGE, OP.QUIET_LOCALS, OP.QUIET_FOR, OP.QUIET_LOOP}


def compile_loaded(loaded, regions=None):
    """Give a vm.Loaded its compiled instructions (loud and quiet); regions:
    as variant's."""
    index = {offset: i for i, offset in enumerate(loaded.offsets)}
    decoded = [ins for parts in loaded.parts for ins in parts]
    entered = {index[o] for o in fusion.jump_targets(decoded) if o in index}
    loud, quiet = loaded.instrs, loaded.quiet
    positions = list(loaded.positions)
    loaded.plain = (loud, quiet, positions)     # (for actions.py: the action as one function)
    loaded.instrs = variant(loaded, loud, entered, positions, regions)
    loaded.quiet = loaded.instrs if quiet is loud else variant(
        loaded, quiet, entered | {arg[-1] for op, arg, _ in quiet if op in _QUIET}, positions,
        regions)
