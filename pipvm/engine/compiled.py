"""The compiled tier (issue 60's second part, begun; `--engine compiled`,
not the default): each block of a code object's instructions runs as one
Python function generated from the same bodies as the loop's code.

A block is a run of at least two of the loaded instructions that a
handler can run (a body that neither reads the loop's own state nor
pauses, calls or hands back), that no jump enters past its first, and in
which only the last may jump.  Its function is the block's file
instructions composed as one superinstruction (cases.compose, in a
handler's words): a value one instruction leaves for the next is a Python
local, never pushed.  It returns where the loop goes on: the instruction
after the block, or a jump's target.  It stands at the block's first index
in a copy of the instruction list; the other indexes keep their own
instructions, so a frame resumed or entered inside a block runs them as
before, and an error's position is its instruction's (the block's first
index holds the positions of all its instructions, by part).

Trust: the generated source holds only text from the instruction table
(the bodies and macros) and subscripts of the handler's operand tuple:
no constant, number or name of the program reaches it.  Every operand
(the instruction after the block, each instruction's decoded operands)
comes in that tuple at run time.  So a function depends only on the
block's opcodes: it is made once per opcode sequence, cached in memory
(never written to disk).
"""
import types

from pipvm.engine import cases, fusion, generated_cases
from pipvm.isa.opcodes import BY_CODE, OPERANDS

MIN_BLOCK = 2           # a lone instruction gains nothing from a call of its own
_SIGNALS = {'PAUSE', 'CALL', 'LOUD', 'SIGNAL', 'RETURN'}
_MADE = {}              # opcode sequence -> the block's function


def _runs_in_block(op):
    """Can a block hold this file instruction?"""
    return (op.body is not None and not op.loop_only and not op.parts
            and not (cases._words(op.body) & _SIGNALS))


def _jumps(op):
    return op.ends or any(OPERANDS[k].is_target for k in op.operands)


def _parts(entry):
    """The file instructions a loaded instruction runs, or None if a block
    may not hold it (a load-time instruction, or one it cannot run)."""
    op = BY_CODE[entry[0]]
    parts = op.parts or (op,)
    if not op.in_file and not op.parts:
        return None
    return parts if all(_runs_in_block(p) for p in parts) else None


def _operands(entry):
    """A loaded instruction's operands as a list (cases.operand_exprs' shapes)."""
    op, arg = BY_CODE[entry[0]], entry[1]
    n = sum(len(p.names) for p in op.parts) if op.parts else len(op.names)
    return [arg] if n == 1 else list(arg)


def function(codes):
    """The block function for a sequence of file opcodes (cached)."""
    fn = _MADE.get(codes)
    if fn is None:
        ops = tuple(BY_CODE[c] for c in codes)
        n = sum(len(op.names) for op in ops)
        text = cases.compose(types.SimpleNamespace(parts=ops), cases.CONTEXTS['handler'],
                             ['arg[%d]' % (i + 1) for i in range(n)], own_parts=True)
        if not ops[-1].ends:
            text += '\nreturn arg[0]'
        source = 'def block(self, stack, frame, arg):\n%s\n' % '\n'.join(
            '    ' + line for line in text.split('\n'))
        space = dict(vars(generated_cases))
        exec(compile(source, '<pipvm block %s>' % ' '.join(op.name for op in ops), 'exec'),
             space)
        fn = _MADE[codes] = space['block']
        fn.source, fn.ops = source, ops     # (for `pipvm dis` and the tests)
    return fn


def blocks(instrs, entered):
    """[(first index, end index)] of the blocks in a list of loaded
    instructions; entered: the indexes control may enter other than by
    falling through."""
    out, i = [], 0
    while i < len(instrs):
        j = i
        while j < len(instrs) and (j == i or j not in entered):
            parts = _parts(instrs[j])
            if parts is None:
                break
            j += 1
            if _jumps(parts[-1]):
                break
        if j - i >= MIN_BLOCK:
            out.append((i, j))
            i = j
        else:
            i += 1
    return out


def variant(loaded, instrs, entered):
    """A copy of instrs with each block's function at its first index."""
    out = list(instrs)
    for start, end in blocks(instrs, entered):
        parts = [p for entry in instrs[start:end] for p in _parts(entry)]
        fn = function(tuple(p.code for p in parts))
        arg = tuple([end] + [x for entry in instrs[start:end] for x in _operands(entry)])
        out[start] = (BLOCK, arg, fn)
        positions = tuple(p for k in range(start, end) for p in loaded.positions[k])
        if len(positions) > len(loaded.positions[start]):
            loaded.positions[start] = positions
    return out


BLOCK = -1              # a block's opcode: never a table's (the loop calls its handler)


def compile_loaded(loaded):
    """Give a vm.Loaded its compiled instructions (loud and quiet)."""
    index = {offset: i for i, offset in enumerate(loaded.offsets)}
    decoded = [ins for parts in loaded.parts for ins in parts]
    entered = {index[o] for o in fusion.jump_targets(decoded) if o in index}
    loud, quiet = loaded.instrs, loaded.quiet
    loaded.instrs = variant(loaded, loud, entered)
    loaded.quiet = loaded.instrs if quiet is loud else variant(loaded, quiet, entered)
