"""The quiet variant of an action's code, run when nobody reads the output
(`pipvm sim`, a bot's playouts).

A message nobody reads matters only if computing its operands fails (an
undefined value, the top of an empty list).  In the quiet variant the first
instruction of each message statement whose operands are plain expression
code is QUIET_MESSAGE: it evaluates them by closures (pipvm/engine/checks.py), for
their failures only, and jumps past the statement.  A `for` loop whose body
is only such statements is QUIET_LOOP: it takes all its remaining items at
once, counting a step for each as the loop would.

The variant keeps the code's instruction indexes, so a frame can run
either.  When a closure fails, or the step limit would be reached inside a
loop, the instruction returns LOUD: the loop goes on in the ordinary code
from the same instruction, which fails or stops exactly where it should.
"""
from pipvm.core import plain
from pipvm.engine import checks as quiet_checks
from pipvm.engine.fusion import jump_targets, only_reads
from pipvm.engine.generated_cases import QUIET_HANDLERS
from pipvm.isa.opcodes import OP, OPCODES

MESSAGES = {op.name: op.pops for op in OPCODES if op.shows}     # operands each shows
LONGEST = 12                # message statements longer than this many runs stay loud



@plain.frozen
class Statement:
    """A message statement (or several in a row) that can be quiet."""
    slots: tuple               # locals that must be defined
    checks: tuple              # closures to run for their failures (checks.Checks)
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
            check = quiet_checks.operand_check(decoded, program, card_consts, nlocals, values)
            if check is not None and _shown_is_text(decoded, parts[-1], program.consts):
                statements[s] = Statement(check.slots, check.closures, j + 1)
                break
    # Elsewhere (a statement not one check), an instruction whose record has
    # a quiet body runs its handler written from it: a message shows
    # nothing, a FORMAT whose String only a message shows joins nothing.
    covered = {i for s, st in statements.items() for i in range(s, st.after)}
    bodied = [i for i, (op, parts) in enumerate(runs)
              if op.code in QUIET_HANDLERS and instrs[i][0] == op.code and i not in covered
              and (parts[-1].op.name != 'FORMAT' or _only_shown(runs, i, entered))]
    if not statements and not bodied:
        return None
    quiet = list(instrs)
    for i in bodied:
        quiet[i] = (instrs[i][0], instrs[i][1], QUIET_HANDLERS[instrs[i][0]])
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
                # (do the checks only show locals' values? checks._shows)
                locals_only = all(getattr(check, 'locals_only', False) for check in checks)
                loop = (slot, others, slot in slots, checks, locals_only, end)
                quiet[f] = (OP.QUIET_LOOP, loop, None)
                if f and runs[f - 1][0].name == 'FOR_ITER':
                    quiet[f - 1] = (OP.QUIET_FOR, loop, None)
    return quiet


def _only_shown(runs, f, entered):
    """Is the String run f leaves (a FORMAT's) only shown: MESSAGE_ALL's
    text right after it, or MESSAGE's with only reads pushing whom it goes
    to in between, and nothing jumping in?"""
    k = f + 1
    while k < len(runs) and only_reads(runs[k][0]):
        k += 1
    if k >= len(runs) or any(ins.offset in entered for _, ps in runs[f + 1:k + 1] for ins in ps):
        return False
    between = [ins for _, ps in runs[f + 1:k] for ins in ps]
    depth = 0                   # (values the reads left above the String)
    for ins in between:         # (only reads: each pushes one, from at most one it pushed)
        pops = ins.op.stack_pops(ins.args)
        if pops > depth:        # (it reads the String itself: more than shown)
            return False
        depth += ins.op.pushes - pops
    name = runs[k][0].name
    return (name == 'MESSAGE_ALL' and not between) or (name == 'MESSAGE' and depth == 1)


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
