"""quiet.py's contract (its docstring), checked on what the VM loaded: an
Image's quiet instructions against its loud ones, the file's instructions
and the instruction table alone.  Nothing here calls quiet.py or pure.py.  A
mutant that leaves a message statement or a loop loud changes no game the
differential properties play (the loud code shows what nobody reads, and
fails where the quiet code would), so only a postcondition on the loaded
code sees it.  Property 2 (test_fuzz.test_vm_matches_reference) runs it on
every generated program.

The contract: in an action, a message statement is the shortest window of
whole runs, ending in a run that shows text, at most LONGEST runs long,
whose instructions before the message are expression parts (the table's
`pure`) that push exactly the message's operands (never taking one they did
not push), with no jump into the window but at its first instruction; a
MESSAGE_ALL's text must be joined (FORMAT) or a constant text.  Its first
run is QUIET_MESSAGE (or QUIET_LOCALS when nothing but locals needs
checking), which jumps past it and past the statements that follow it with
nothing jumping in.  A loop (a lone FOR_NEXT) whose body is only such
statements, with the JUMP back right after them, is QUIET_LOOP, and the
FOR_ITER before it QUIET_FOR, with the loop's variable, its end, the locals
the statements need and their checks.  Nothing else changes.
"""
from pipvm.engine.vm import OP
from pipvm.isa import pipc

from .fusion_contract import entered, pushes

LONGEST = 12                    # quiet.LONGEST: the docstring's bound, restated
STATEMENT = (OP.QUIET_MESSAGE, OP.QUIET_LOCALS)


def _text(instrs, consts):
    last = instrs[-1] if instrs else None
    return last is not None and (last.op.name == 'FORMAT' or (
        last.op.name == 'CONST' and type(consts[last.args[0]]) is str))


def statements(parts, inside, consts):
    """{first run: the run after it} of each message statement, by the rule above."""
    out = {}
    for j, run in enumerate(parts):
        message = run[-1]
        if not message.op.shows:
            continue
        for s in range(j, max(-1, j - LONGEST), -1):
            window = [ins for p in parts[s:j + 1] for ins in p][:-1]
            if any(ins.offset in inside for ins in window[1:] + [message]):
                break
            if all(ins.op.pure for ins in window) and pushes(window, message.op.pops) and (
                    message.op.name != 'MESSAGE_ALL' or _text(window, consts)):
                out[s] = j + 1
                break
    return out


def _locals(parts, s, after):
    return {ins.args[0] for p in parts[s:after] for ins in p if ins.op.name == 'LOAD_LOCAL'}


def _quiet_arg(instr):
    """(slots, checks, after) of a QUIET_MESSAGE or QUIET_LOCALS."""
    op, arg, _ = instr
    return (arg[0], (), arg[1]) if op == OP.QUIET_LOCALS else arg


def violations(image):
    """Where the Image's quiet code breaks quiet.py's contract: a list of
    messages (empty if it keeps it)."""
    consts = image.program.consts
    out = []
    for code, loaded in zip(image.program.codes, image.codes):
        where = '%s %s' % (code.kind, code.name)
        parts = loaded.parts
        inside = entered(pipc.decode(code.code))
        found = statements(parts, inside, consts) if code.kind == 'action' else {}
        loud, quiet = loaded.instrs, loaded.quiet
        if len(quiet) != len(loud):
            out.append('%s: the quiet code has %d runs, the loud %d' % (where, len(quiet), len(loud)))
            continue
        # a statement's quiet run jumps past the statements after it that nothing enters
        ends = {}
        for s in sorted(found, reverse=True):
            after = found[s]
            ends[s] = ends[after] if after in ends and parts[after][0].offset not in inside else after
        own = {}                # a statement's own checks: its quiet run's, less the chained ones'
        for s in sorted(found, reverse=True):
            op = quiet[s][0]
            if op not in STATEMENT:
                out.append('%s: the message statement at run %d is loud' % (where, s))
                continue
            slots, checks, after = _quiet_arg(quiet[s])
            if after != ends[s]:
                out.append('%s: the statement at run %d jumps to run %d, not %d'
                           % (where, s, after, ends[s]))
            if not set(slots) <= _locals(parts, s, after):
                out.append('%s: the statement at run %d checks locals it does not read' % (where, s))
            if (op == OP.QUIET_LOCALS) != (not checks):
                out.append('%s: run %d is opcode %d with %d checks' % (where, s, op, len(checks)))
            # (a next statement left loud is reported on its own)
            chained = ends[s] != found[s] and quiet[found[s]][0] in STATEMENT
            rest = _quiet_arg(quiet[found[s]])[1] if chained else ()
            if checks[len(checks) - len(rest):] != rest:
                out.append('%s: the statement at run %d drops the checks of the next' % (where, s))
            own[s] = checks[:len(checks) - len(rest)]
        loops = {}
        for f, run in enumerate(parts):
            if len(run) != 1 or run[0].op.name != 'FOR_NEXT':
                continue
            slot, end = loud[f][1]
            k, checks = f + 1, ()
            while k in found:
                checks, k = checks + own.get(k, ()), found[k]
            if k > f + 1 and k < len(loud) and loud[k][:2] == (OP.JUMP, f) and end == k + 1:
                needs = _locals(parts, f + 1, k)
                loops[f] = (slot, needs - {slot}, slot in needs, checks, end)
                if f and loud[f - 1][0] == OP.FOR_ITER:
                    loops[f - 1] = loops[f]
        for i, (l, q) in enumerate(zip(loud, quiet)):
            if i in loops:
                want = OP.QUIET_FOR if l[0] == OP.FOR_ITER else OP.QUIET_LOOP
                slot, others, of_item, checks, locals_only, end = (
                    q[1] if q[0] == want else (None,) * 6)
                # (locals_only: every round checks as the first, only a check of
                # locals' values shown may say so)
                if q[0] != want or (slot, checks, end) != (loops[i][0], loops[i][3], loops[i][4]) \
                        or not set(others) <= loops[i][1] or (of_item and not loops[i][2]) \
                        or (locals_only and not all(getattr(c, 'locals_only', False)
                                                    for c in checks)):
                    out.append('%s: the loop at run %d is not quiet as the contract says' % (where, i))
            elif i not in found and q[:2] != l[:2]:
                out.append('%s: run %d is changed, and is neither a statement nor a loop'
                           % (where, i))
    return out
