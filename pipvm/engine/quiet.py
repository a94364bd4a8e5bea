"""The quiet variant of an action's code, run when nobody reads the output
(`pipvm sim`, a bot's playouts).

A message nobody reads matters only if computing its operands fails (an
undefined value, the top of an empty list).  In the quiet variant the first
instruction of each message statement whose operands are plain expression
code is QUIET_MESSAGE: it evaluates them by closures (pipvm/engine/pure.py), for
their failures only, and jumps past the statement.  A `for` loop whose body
is only such statements is QUIET_LOOP: it takes all its remaining items at
once, counting a step for each as the loop would.

The variant keeps the code's instruction indexes, so a frame can run
either.  When a closure fails, or the step limit would be reached inside a
loop, the instruction returns LOUD: the loop goes on in the ordinary code
from the same instruction, which fails or stops exactly where it should.
"""
from pipvm.core import plain
from pipvm.core.errors import StepLimit
from pipvm.engine import pure
from pipvm.engine.bodies import LOUD
from pipvm.engine.fusion import jump_targets
from pipvm.isa.opcodes import OP, OPCODES

MESSAGES = {op.name: op.pops for op in OPCODES if op.shows}     # operands each shows
LONGEST = 12                # message statements longer than this many runs stay loud


def quiet_message(machine, stack, frame, arg):
    slots, checks, after = arg
    for slot in slots:
        # body: DEFINED_LOCAL frame=frame slot=slot res=defined
        defined = frame[slot] is not None
        # end of body
        if not defined:
            return LOUD
    env = frame + [machine]
    try:
        for check in checks:
            check(env)
    except Exception:
        return LOUD
    return after


def quiet_for(machine, stack, frame, arg):
    """FOR_ITER and the quiet loop after it: the loop, from its list."""
    rest = list(stack[-1])
    if _loop(machine, frame, arg, rest):
        stack.pop()
        return arg[-1]
    return LOUD                 # the list is still on the stack, for FOR_ITER


def quiet_loop(machine, stack, frame, arg):
    """A loop that only shows messages, from its iteration state."""
    rest = list(stack[-1])
    if _loop(machine, frame, arg, rest):
        stack.pop()
        return arg[-1]
    stack[-1] = iter(rest)      # as it was: the loop goes on as ordinary code
    return LOUD


_LOCALS_ONLY = {}       # a loop's checks -> do they only show locals' values (pure._shows)?


def _loop(machine, frame, arg, rest):
    """Run the rounds of a loop that only shows messages over the items
    rest, if none can fail: arg is (its variable's slot, the other locals
    its messages need, whether they need the variable, checks for the rest,
    where the loop ends)."""
    slot, slots, of_item, checks, end = arg
    if len(rest) > machine.steps_left:      # the loop would stop at its step limit
        return False
    for s in slots:
        # body: DEFINED_LOCAL frame=frame slot=s res=defined
        defined = frame[s] is not None
        # end of body
        if not defined:
            return False
    if of_item and None in rest:
        return False
    if checks:
        env = frame + [machine]
        items = rest
        locals_only = _LOCALS_ONLY.get(checks)
        if locals_only is None:
            if len(_LOCALS_ONLY) > 4096:        # (checks of images gone: closures kept alive)
                _LOCALS_ONLY.clear()
            locals_only = _LOCALS_ONLY[checks] = all(
                getattr(check, 'locals_only', False) for check in checks)
        if locals_only:
            # only locals' values shown: an item fails only if it is a Number too
            # long to show; else every round checks the same as the first
            # (`int in map(type, ...)` first: a loop over cards has none, in C)
            if int in map(type, rest) and any(
                    type(v) is int and v.bit_length() > pure._SHOWN_BITS for v in rest):
                return False
            items = rest[:1]
        try:
            for item in items:
                env[slot] = item
                for check in checks:
                    check(env)
        except Exception:
            return False
    if rest:
        frame[slot] = rest[-1]
        # a step for each round, as JUMP counts (inline: it runs at every quiet loop)
        # body: TICK machine=machine n=len(rest)
        machine.steps_left -= len(rest)
        if machine.steps_left < 0:
            raise StepLimit(machine.max_steps)
        # end of body
    return True


@plain.frozen
class Statement:
    """A message statement (or several in a row) that can be quiet."""
    slots: tuple               # locals that must be defined
    checks: tuple              # closures to run for their failures (pure.Checks)
    after: int                 # the run after the statement


def variant(instrs, runs, code, program, card_consts):
    """The quiet instructions for a code object's (opcode, operand, handler)
    instrs, made of these fused runs (the new ones with handler None: the
    VM gives each its own); None if nothing in it can be quiet."""
    if code.kind != 'action':
        return None
    entered = jump_targets([ins for _, parts in runs for ins in parts])
    nlocals = len(code.local_names)
    statements = {}     # first run -> Statement
    for j, (_, parts) in enumerate(runs):
        values = MESSAGES.get(parts[-1].op.name)
        if values is None:
            continue
        for s in range(j, max(-1, j - LONGEST), -1):
            decoded = [ins for _, ps in runs[s:j + 1] for ins in ps][:-1]
            if any(ins.offset in entered for ins in decoded[1:] + [parts[-1]]):
                break
            check = pure.operand_check(decoded, program, card_consts, nlocals, values)
            if check is not None and _shown_is_text(decoded, parts[-1], program.consts):
                statements[s] = Statement(check.slots, check.closures, j + 1)
                break
    if not statements:
        return None
    quiet = list(instrs)
    for s, st in statements.items():
        slots, checks, after = st.slots, st.checks, st.after
        # the statements that follow this one (with nothing jumping in) are checked with it
        while after in statements and runs[after][1][0].offset not in entered:
            more = statements[after]
            slots, checks, after = slots + more.slots, checks + more.checks, more.after
        slots = tuple(dict.fromkeys(slots))
        quiet[s] = ((OP.QUIET_MESSAGE, (slots, checks, after), None) if checks else
                    (OP.QUIET_LOCALS, (slots, after), None))
    for f, (_, parts) in enumerate(runs):
        if parts[0].op.name == 'FOR_NEXT' and len(parts) == 1:
            _, (slot, end), _ = instrs[f]           # (op, arg, handler): vm.Loaded
            slots, checks, k = (), (), f + 1
            while k in statements:
                more = statements[k]
                slots, checks, k = slots + more.slots, checks + more.checks, more.after
            back_op, back_arg, _ = instrs[k] if k < len(instrs) else (None, None, None)
            if k > f + 1 and back_op == OP.JUMP and back_arg == f and end == k + 1:
                others = tuple(dict.fromkeys(x for x in slots if x != slot))
                loop = (slot, others, slot in slots, checks, end)
                quiet[f] = (OP.QUIET_LOOP, loop, None)
                if f and runs[f - 1][0].name == 'FOR_ITER':
                    quiet[f - 1] = (OP.QUIET_FOR, loop, None)
    return quiet


def _shown_is_text(decoded, message, consts):
    """MESSAGE_ALL checks that it shows a String (only a damaged file gives
    it anything else): quiet only when the text is joined or a constant one."""
    if message.op.name != 'MESSAGE_ALL':
        return True
    last = decoded[-1] if decoded else None
    if last is None:
        return False
    name = last.op.name
    return name == 'FORMAT' or (name == 'CONST' and type(consts[last.args[0]]) is str)
