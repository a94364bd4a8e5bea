"""Where control enters a whole action's function (pipvm/engine/actions.py)
and which of those starts it can reach from its entries.

The function runs one copy of an action's code, its quiet one or its loud
one, and is entered only at 0 (a call), after a decision or a call (a frame
paused before the playout goes on there) and, the loud copy, at a quiet
instruction (the quiet code hands over there).  In the quiet copy a quiet
instruction goes on where the statement or loop it stands for ends, or in
the loud copy: the loud code it skips (Crazy Eights' `turn`: the loop over
the hand and each message's formatting) is never run there, yet each jump
target in it was a start of the function's test tree, whose run went on to
the action's end: about a sixth of `turn`'s source, written, compiled and
never run.  And where a quiet instruction's statement ends is a start of
the loop's (a jump goes there), not of the function's, whose run goes on
there from the quiet instruction.  So a function's starts are its entries
and the targets of the jumps it can reach; where an instruction's
successors are not known, they are as they were."""
from pipvm.engine import compiled, fors
from pipvm.engine.fors import QUIET
from pipvm.isa.opcodes import ASKS, BY_CODE, OP

# (control never goes on to the next instruction after these)
_ENDS = {OP.JUMP, OP.RETURN, OP.GIVE}


def starts(loaded, instrs, outside):
    """The starts of the function over instrs (loaded's quiet or loud code)
    entered at outside (0 among them): those, and where the loop is entered
    other than by falling through that a jump the function can reach goes
    to (all of them where an instruction's successors are not known)."""
    entered = _entered(loaded, instrs)
    targets = jumped_to(instrs, {0} | outside)
    if targets is not None:
        entered &= targets
    return entered | outside


def jumped_to(instrs, entries):
    """The indexes of instrs that the jumps control can reach from entries
    go to (an ASK's JUMPs among them), or None where an instruction's
    successors are not known."""
    n = len(instrs)
    seen, work, targets = set(), list(entries), set()
    while work:
        i = work.pop()
        if i in seen or not (type(i) is int and 0 <= i < n):
            continue
        seen.add(i)
        op, arg, _ = instrs[i]
        if op in QUIET:
            # (where its statement ends, or the loud copy: another function)
            if not (type(arg) is tuple and arg and type(arg[-1]) is int):
                return None
            work.append(arg[-1])
            continue
        if op not in BY_CODE:
            return None
        jumps = fors.targets(op, arg)
        work += jumps
        targets.update(jumps)
        parts = BY_CODE[op].parts or (BY_CODE[op],)
        if any(p.name in ASKS for p in parts):
            # (its answer goes on at one of the JUMPs from `first`)
            if not (len(parts) == 1 and type(arg) is tuple and len(arg) == 2
                    and all(type(a) is int for a in arg)):
                return None
            work += range(arg[1], arg[1] + arg[0])
            targets.update(range(arg[1], arg[1] + arg[0]))
        if op not in _ENDS:
            work.append(i + 1)
    return targets


def _entered(loaded, instrs):
    """Indexes control enters in instrs (loaded's quiet or loud code) other
    than by falling through, as the loop enters them (a jump's target that
    only threaded jumps name left out)."""
    from pipvm.engine import fusion
    index = {offset: i for i, offset in enumerate(loaded.offsets)}
    decoded = [ins for parts in loaded.parts for ins in parts]
    entered = {index[o] for o in fusion.jump_targets(decoded) if o in index}
    entered -= _threaded_only(instrs)
    for op, arg, _ in instrs:
        if op == OP.QUIET_LOCALS:
            entered.add(arg[1])
        elif op in (OP.QUIET_MESSAGE, OP.QUIET_LOOP, OP.QUIET_FOR):
            entered.add(arg[-1])
    return entered


def _threaded_only(instrs):
    """The JUMP_IF_FALSEs of instrs that only threaded jumps name
    (compiled.threaded): no jump enters them any more.  Any other operand
    equal to such an index, of any kind, keeps it entered."""
    threaded, named = set(), set()
    for op, arg, _ in instrs:
        parts = BY_CODE[op].parts or (BY_CODE[op],) if op in BY_CODE else ()
        if (len(parts) and parts[-1].code == OP.JUMP_IF_FALSE_OR_POP
                and len(parts[-1].names) == 1):
            target = arg[-1] if type(arg) is tuple else arg
            if compiled.threads_to(target, instrs):
                threaded.add(target)
                arg = arg[:-1] if type(arg) is tuple else ()
        named |= compiled.ints_in(arg)
    return threaded - named
