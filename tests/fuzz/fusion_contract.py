"""fusion.py's contract (its docstring), checked on what the VM loaded: an
Image's runs and the instructions they run, against the file's instructions
and the instruction table alone.  Nothing here calls fusion.py: a mutant that
fuses less, fuses wrongly or loses or adds a rewrite changes no game the
differential properties play (a superinstruction computes what its parts
do), so only a postcondition on the loaded code sees it.  Property 2
(test_fuzz.test_vm_matches_reference) runs it on every generated program.
"""
from pipvm.isa import pipc
from pipvm.isa.opcodes import ASKS, DEAL_ALL, FUSED, OP, OPERANDS, ask_table


def entered(decoded):
    """Offsets control can reach other than by falling through: the targets
    of jumps, and the JUMPs an ask chooses between.  fusion.jump_targets
    says the same; written again here so that a mutant of it is checked
    against this, not against itself."""
    out = set()
    for i, ins in enumerate(decoded):
        out.update(a for kind, a in zip(ins.op.operands, ins.args) if OPERANDS[kind].is_target)
        if ins.op.name in ASKS:
            out.update(j.offset for j in ask_table(decoded, i))
    return out


def only_reads(op):
    """The table's word for an instruction that only reads a value: running it
    again with nothing in between gives the same value."""
    return op.pure and bool(op.reads) and not op.makes and op.pushes == 1 and op.pops in (0, 1)


_STARTING = {}                  # first part -> the superinstructions beginning with it
for _f in FUSED:
    _STARTING.setdefault(_f.parts[0], []).append(_f)


def longest_fusion(decoded, k, inside):
    """The longest superinstruction whose parts are the instructions from
    decoded[k] on, none entered but the first (a last DEAL of the mode the
    table says); None if there is none."""
    best = None
    for fused in _STARTING.get(decoded[k].op, ()):
        window = decoded[k:k + len(fused.parts)]
        if (tuple(ins.op for ins in window) == fused.parts
                and not any(ins.offset in inside for ins in window[1:])
                and (fused.deals_all is None
                     or bool(window[-1].args[0] & DEAL_ALL) == fused.deals_all)
                and (best is None or len(fused.parts) > len(best.parts))):
            best = fused
    return best


def pushes(instrs, n):
    """Do the instructions push exactly n values, never taking one they did
    not push?  (A PLAY's player and destination; a message's operands.)"""
    depth = 0
    for ins in instrs:
        depth -= ins.op.stack_pops(ins.args)
        if depth < 0:
            return False
        depth += ins.op.pushes
    return depth == n


def plays_again(decoded, p, inside):
    """Is the PLAY at decoded[p] `if canplay R from P to D { play R from P to
    D`: CANPLAY of its rule, the JUMP_IF_FALSE on its answer, then only reads,
    which push the PLAY's two operands and are the same instructions as those
    just before CANPLAY, nothing entered from the JUMP_IF_FALSE to the PLAY?"""
    j = p - 1
    while j > 0 and only_reads(decoded[j].op):
        j -= 1
    reads = decoded[j + 1:p]
    c = j - 1                   # CANPLAY, if decoded[j] is its jump
    same = [(ins.op, ins.args) for ins in reads]
    return (c >= len(reads) and decoded[j].op.name == 'JUMP_IF_FALSE'
            and decoded[c].op.name == 'CANPLAY' and decoded[c].args == decoded[p].args
            and [(ins.op, ins.args) for ins in decoded[c - len(reads):c]] == same
            and pushes(reads, 2)
            and not any(ins.offset in inside for ins in decoded[j:p + 1]))


def deals_each(decoded, k, inside):
    """Does the FOR_ITER at decoded[k] head `for p in LIST { deal all from p
    to GLOBAL. }` (or `from p->PROP`, its LOAD_PROP entered by no jump):
    FOR_NEXT into a local, LOAD_LOCAL of it, LOAD_GLOBAL, DEAL with the mode
    DEAL_ALL alone, the JUMP back to the FOR_NEXT, whose end follows it?"""
    names = [ins.op.name for ins in decoded[k + 1:k + 7]]
    prop = names[2:3] == ['LOAD_PROP'] and decoded[k + 3].offset not in inside
    body = decoded[k + 1:k + 6 + prop]
    shape = ['FOR_NEXT', 'LOAD_LOCAL'] + ['LOAD_PROP'] * prop + ['LOAD_GLOBAL', 'DEAL', 'JUMP']
    if [ins.op.name for ins in body] != shape or len(decoded) <= k + 6 + prop:
        return False
    head, back = body[0], body[-1]
    return (body[1].args[0] == head.args[0] and body[-2].args[0] == DEAL_ALL
            and back.args[0] == head.offset and head.args[1] == decoded[k + 6 + prop].offset)


def violations(image):
    """Where the Image's loaded code breaks fusion.py's contract: a list of
    messages (empty if it keeps it)."""
    out = []
    for code, loaded in zip(image.program.codes, image.codes):
        decoded = pipc.decode(code.code)
        where = '%s %s' % (code.kind, code.name)
        # the runs are the file's instructions, in order, each once
        if [ins for parts in loaded.parts for ins in parts] != decoded:
            out.append('%s: the runs are not the file\'s instructions' % where)
            continue
        inside = entered(decoded)
        starts = {parts[0].offset for parts in loaded.parts}
        out += ['%s: offset %d is entered inside a run' % (where, a)
                for a in sorted(inside - starts)]
        at = {ins.offset: k for k, ins in enumerate(decoded)}
        for (ran, _, _), parts in zip(loaded.instrs, loaded.parts):
            k = at[parts[0].offset]
            # leftmost longest: no fusion lost, none too short or too long
            fused = longest_fusion(decoded, k, inside)
            want = fused.code if fused else decoded[k].op.code
            if len(parts) != (len(fused.parts) if fused else 1):
                out.append('%s: offset %d runs %d instruction(s) as one, the table fuses %d'
                           % (where, parts[0].offset, len(parts), len(fused.parts) if fused else 1))
                continue
            # the rewrites: exactly these PLAYs, JUMPs and FOR_ITERs
            ins = decoded[k]
            if ins.op.code == OP.PLAY and plays_again(decoded, k, inside):
                want = OP.PLAY_AGAIN
            elif ins.op.code == OP.FOR_ITER and deals_each(decoded, k, inside):
                want = OP.DEAL_EACH
            elif (ins.op.code == OP.JUMP and ins.args[0] > ins.offset
                    and decoded[at[ins.args[0]]].op.code == OP.RETURN):
                want = OP.RETURN        # (a jump back counts a step: not rewritten)
            if ran != want:
                out.append('%s: offset %d runs opcode %d, the contract says %d'
                           % (where, parts[0].offset, ran, want))
    return out
