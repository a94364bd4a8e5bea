"""Superinstructions: which runs of a code object's instructions the VM
runs as one (opcodes.FUSED).  The VM fuses when it loads a program, never
in the file; `pipvm dis --fused` shows the same runs."""
from .opcodes import FUSED, OPERANDS, ask_table

_FUSIONS = sorted(FUSED, key=lambda f: -len(f.parts))      # the longest run wins


def jump_targets(decoded):
    """The offsets control can enter other than by falling through: jump
    targets, and the JUMPs an ASK chooses between."""
    entered = set()
    for i, ins in enumerate(decoded):
        entered.update(a for kind, a in zip(ins.op.operands, ins.args) if OPERANDS[kind].is_target)
        if ins.op.name == 'ASK':
            entered.update(j.offset for j in ask_table(decoded, i))
    return entered


def fuse_runs(decoded):
    """[(opcode or Fused, its instructions)]: each run of FUSED parts becomes
    one superinstruction, unless control can enter it past its first part."""
    entered = jump_targets(decoded)
    runs, i = [], 0
    while i < len(decoded):
        for fused in _FUSIONS:
            n = len(fused.parts)
            window = decoded[i:i + n]
            if (tuple(ins.op for ins in window) == fused.parts
                    and not any(ins.offset in entered for ins in window[1:])):
                runs.append((fused, window))
                i += n
                break
        else:
            runs.append((decoded[i].op, [decoded[i]]))
            i += 1
    return runs


def runs(decoded, fuse=True):
    """fuse_runs(decoded), or each instruction alone."""
    return fuse_runs(decoded) if fuse else [(ins.op, [ins]) for ins in decoded]
