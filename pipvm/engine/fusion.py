"""Superinstructions: which runs of a code object's instructions the VM
runs as one (opcodes.FUSED), and the other changes it makes to them
(rewrites).  The VM does both when it loads a program, never in the file;
`pipvm dis --fused` shows the same runs and changes.

The contract (tests/fuzz/fusion_contract.py checks it on every generated
program, from the file's instructions and the table, not from this code).
Control *enters* an instruction that a jump targets or that is one of an
ask's JUMPs; an instruction *only reads* if the table calls it pure,
reading something (`reads`), making nothing and pushing one value from at
most one.

- The runs are the file's instructions in order, each once; a run of
  several is the superinstruction whose parts they are.
- Leftmost longest: each run is the longest superinstruction whose parts
  are the instructions from its first on, none entered but the first (and
  one ending in DEAL, whose DEAL's mode has DEAL_ALL exactly where the
  table's `deals_all` says); a lone instruction where there is none.  So no fusion is lost, no two
  runs could have been one, and every entered instruction starts a run.
- A PLAY runs as PLAY_AGAIN exactly when it is `if canplay R from P to D {
  play R from P to D`: CANPLAY of the same rule, the JUMP_IF_FALSE on its
  answer, then only reads, which push exactly PLAY's two operands and are
  the same instructions (opcodes and operands) as those just before
  CANPLAY, and nothing enters from the JUMP_IF_FALSE to the PLAY.
- A JUMP runs as RETURN exactly when it jumps forward to a RETURN (a jump
  back counts a step).
- A FOR_ITER runs as DEAL_EACH exactly when it begins `for p in LIST {
  deal all from p to GLOBAL. }` or `... from p->PROP ...`: FOR_NEXT into
  a local, LOAD_LOCAL of it (LOAD_PROP after it), LOAD_GLOBAL, DEAL with
  the mode DEAL_ALL alone, then the JUMP back to the FOR_NEXT, whose end
  is right after that JUMP.  Nothing else is rewritten.
"""
from pipvm.isa.opcodes import ASKS, DEAL_ALL, FUSED, INSTRUCTIONS, OPERANDS, ask_table

_FUSIONS = sorted(FUSED, key=lambda f: -len(f.parts))      # the longest run wins
# The same, by the opcode of the first part: (superinstruction, its parts'
# opcodes), so that loading tries at each instruction only those that can
# begin there (fuse_runs ran for a fifth of the fuzz properties' CPU).
_BY_FIRST = {}
for _f in _FUSIONS:
    _BY_FIRST.setdefault(_f.parts[0].code, []).append((_f, tuple(p.code for p in _f.parts)))
del _f


def _deals_as(fused, last):
    """Does the run's last instruction fit the superinstruction: any, but
    a DEAL only of the mode its effect was made for (deals_all)?"""
    return fused.deals_all is None or bool(last.args[0] & DEAL_ALL) == fused.deals_all


def jump_targets(decoded):
    """The offsets control can enter other than by falling through: jump
    targets, and the JUMPs an ASK chooses between."""
    entered = set()
    for i, ins in enumerate(decoded):
        entered.update(a for kind, a in zip(ins.op.operands, ins.args) if OPERANDS[kind].is_target)
        if ins.op.name in ASKS:
            entered.update(j.offset for j in ask_table(decoded, i))
    return entered


def fuse_runs(decoded, by_first=_BY_FIRST):
    """[(opcode or Fused, its instructions)]: each run of FUSED parts becomes
    one superinstruction, unless control can enter it past its first part
    (by_first: the superinstructions to try, by their first part's opcode)."""
    entered = jump_targets(decoded)
    codes = [ins.op.code for ins in decoded]
    runs, i = [], 0
    while i < len(decoded):
        for fused, parts in by_first.get(codes[i], ()):
            n = len(parts)
            if (tuple(codes[i:i + n]) == parts
                    and not any(ins.offset in entered for ins in decoded[i + 1:i + n])
                    and _deals_as(fused, decoded[i + n - 1])):
                runs.append((fused, decoded[i:i + n]))
                i += n
                break
        else:
            runs.append((decoded[i].op, [decoded[i]]))
            i += 1
    return runs


def runs(decoded, fuse=True):
    """fuse_runs(decoded); fuse False: the same with no superinstruction to
    try, so each instruction runs alone."""
    return fuse_runs(decoded) if fuse else fuse_runs(decoded, {})


def loaded(decoded, fuse=True):
    """(runs, rewrites): what the VM loads for decoded code, and `pipvm dis
    --fused` shows.  fuse is one option for both: False (to measure what
    they buy, and to check they change nothing) gives each instruction
    alone and no rewrite (a PLAY_AGAIN needs its CANPLAY's fused jump)."""
    out = runs(decoded, fuse)
    return out, rewrites(out) if fuse else {}


def only_reads(op):
    """Does the instruction only read (a value, a property)?  Running it twice
    gives the same values if nothing ran in between.  A superinstruction made
    of such instructions only reads too."""
    if op.parts:
        return all(only_reads(part) for part in op.parts)
    return op.pure and bool(op.reads) and not op.makes and op.pushes == 1 and op.pops in (0, 1)


_READS = {op.name for op in INSTRUCTIONS if only_reads(op)}


def plays_after_canplay(runs):
    """The runs that are a PLAY repeating the CANPLAY just before it:
    `if canplay R from P to D { play R from P to D`, where only the branch
    on CANPLAY's answer and the same reads of P and D come in between and
    nothing jumps in.  The PLAY can take the cards CANPLAY found: the rule
    is pure, and nothing has changed."""
    entered = jump_targets([ins for _, parts in runs for ins in parts])
    found = []
    for q, (op, parts) in enumerate(runs):
        if op.name != 'PLAY':
            continue
        # runs: ... [reads] CANPLAY_JUMP_IF_FALSE [the same reads] PLAY.  Only
        # the fused run branches on CANPLAY's answer itself (CANPLAY then
        # `CONST EQ JUMP_IF_FALSE` branches on a comparison of it, so the PLAY
        # may run with nothing found); they stay apart only when something
        # jumps to the JUMP_IF_FALSE, which refuses the rewrite anyway.
        c = q - 1
        while c > 0 and runs[c][0].name in _READS:
            c -= 1
        if runs[c][0].name != 'CANPLAY_JUMP_IF_FALSE' or runs[c][1][0].args[0] != parts[0].args[0]:
            continue
        reads = runs[c + 1:q]
        before = runs[c - len(reads):c] if len(reads) <= c else None
        after_canplay = [ins for _, ps in runs[c:q + 1] for ins in ps][1:]
        if (before is not None and _pushes(reads) == 2
                and [_same(a) for a in before] == [_same(r) for r in reads]
                and not any(ins.offset in entered for ins in after_canplay)):
            found.append(q)
    return found


def _same(run):
    """A run's opcodes and operands: equal runs compute the same values."""
    op, parts = run
    return op.name, tuple(ins.args for ins in parts)


def _pushes(runs):
    """How many values the runs push, if they never take one they did not
    push (None if they do)."""
    depth = 0
    for _, parts in runs:
        for ins in parts:
            depth -= ins.op.stack_pops(ins.args)
            if depth < 0:
                return None
            depth += ins.op.pushes
    return depth


def rewrites(runs):
    """{run index: what the VM runs there instead}: PLAY_AGAIN for a PLAY
    that takes its CANPLAY's cards (plays_after_canplay), RETURN for a jump
    forward to a RETURN, DEAL_EACH for a dealing loop's FOR_ITER
    (deals_each)."""
    out = dict.fromkeys(plays_after_canplay(runs), 'PLAY_AGAIN')
    index = {parts[0].offset: i for i, (_, parts) in enumerate(runs)}
    for i, (op, parts) in enumerate(runs):
        if op.name == 'JUMP':
            target = index.get(parts[0].args[0])
            if target is not None and target > i and runs[target][0].name == 'RETURN':
                out[i] = 'RETURN'
        elif op.name == 'FOR_ITER' and deals_each(runs, i):
            out[i] = 'DEAL_EACH'
    return out


# The loop DEAL_EACH runs at once, after its FOR_ITER: the run names (the
# item itself, or a property of it)
_DEAL_EACH = (('FOR_NEXT', 'LOAD_LOCAL', 'LOAD_GLOBAL', 'DEAL', 'JUMP'),
              ('FOR_NEXT', 'LOAD_LOCAL_PROP', 'LOAD_GLOBAL', 'DEAL', 'JUMP'))


def deals_each(runs, i):
    """Is run i a FOR_ITER heading `for p in LIST { deal all from p to
    GLOBAL. }` (or `from p->PROP`): its FOR_NEXT's local read, a global,
    DEAL_ALL, the JUMP back to the FOR_NEXT, whose end is right after it?
    (Where control enters the loop does not matter: DEAL_EACH stands for
    what runs from its FOR_ITER on.)"""
    loop = runs[i + 1:i + 6]
    if len(loop) < 5 or tuple(op.name for op, _ in loop) not in _DEAL_EACH:
        return False
    (_, (head,)), (_, load), _, (_, (deal,)), (_, (back,)) = loop
    after = runs[i + 6][1][0].offset if i + 6 < len(runs) else None
    return (load[0].args[0] == head.args[0] and deal.args[0] == DEAL_ALL
            and back.args[0] == head.offset and head.args[1] == after)
