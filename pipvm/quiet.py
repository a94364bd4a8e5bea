"""The quiet variant of an action's code, run when nobody reads the output
(`pipvm sim`, a bot's playouts).

A message nobody reads matters only if computing its operands fails (an
undefined value, the top of an empty list).  In the quiet variant the first
instruction of each message statement whose operands are plain expression
code is QUIET_MESSAGE: it evaluates them by closures (pipvm/pure.py), for
their failures only, and jumps past the statement.  A `for` loop whose body
is only such statements is QUIET_LOOP: it takes all its remaining items at
once, counting a step for each as the loop would.

The variant keeps the code's instruction indexes, so a frame can run
either.  When a closure fails, or the step limit would be reached inside a
loop, the instruction returns LOUD: the loop goes on in the ordinary code
from the same instruction, which fails or stops exactly where it should.
"""
from . import pure
from .fusion import jump_targets
from .opcodes import OP

LOUD = -3                   # a handler's answer: run this instruction's ordinary code
QUIET_MESSAGE, QUIET_LOOP = 200, 201        # opcodes of the variant only (never in a file)
MESSAGES = {'MESSAGE': 2, 'MESSAGE_ALL': 1}     # operands each shows
LONGEST = 12                # message statements longer than this many runs stay loud


def quiet_message(machine, stack, frame, arg):
    check, after = arg
    try:
        check(frame + [machine])
    except Exception:
        return LOUD
    return after


def quiet_loop(machine, stack, frame, arg):
    slot, checks, end = arg
    rest = list(stack[-1])
    if len(rest) > machine.steps_left:      # the loop would stop at its step limit
        stack[-1] = iter(rest)
        return LOUD
    env = frame + [machine]
    try:
        for item in rest:
            env[slot] = item
            for check in checks:
                check(env)
    except Exception:
        stack[-1] = iter(rest)
        return LOUD
    if rest:
        frame[slot] = rest[-1]
        machine.steps_left -= len(rest)     # a step for each round, as JUMP counts
    stack.pop()
    return end


def variant(instrs, runs, code, program, card_consts):
    """The quiet instructions for a code object's (opcode, operand, handler)
    instrs, made of these fused runs; None if nothing in it can be quiet."""
    if code.kind != 'action':
        return None
    entered = jump_targets([ins for _, parts in runs for ins in parts])
    nlocals = len(code.local_names)
    statements = {}             # first run -> (check, run after the statement)
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
                statements[s] = (check, j + 1)
                break
    if not statements:
        return None
    quiet = list(instrs)
    for s, arg in statements.items():
        quiet[s] = (QUIET_MESSAGE, arg, quiet_message)
    for f, (_, parts) in enumerate(runs):
        if parts[0].op.name == 'FOR_NEXT' and len(parts) == 1:
            slot, end = instrs[f][1]
            checks, k = [], f + 1
            while k in statements:
                check, k = statements[k]
                checks.append(check)
            back = instrs[k] if k < len(instrs) else None
            if checks and back is not None and back[0] == OP.JUMP and back[1] == f \
                    and end == k + 1:
                quiet[f] = (QUIET_LOOP, (slot, checks, end), quiet_loop)
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
