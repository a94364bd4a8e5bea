"""The tables the tree reads, derived from the one instruction table
(pipvm/isa/instructions.py): which instructions a file may hold, the
superinstructions, numbers by name (OP.JUMP == 50), records by number and
by name, and the operand kinds (pipvm/isa/operands.py).  The compiler's
emitter, the .pipc validator, the VM's dispatch, the closures' translator,
the quiet variant, the fusion pass and the disassembler read these."""
from pipvm.isa.instructions import (FLAGS, INSTRUCTIONS, MACROS, READS,  # noqa: F401
                                    Instruction)
from pipvm.isa.operands import (AGG_COUNT, AGG_MAX, AGG_MIN, AGG_SUM,  # noqa: F401
                                AGGREGATES, AREA_FACEDOWN, AREA_SQUAREDUP, CODE_KINDS,
                                DEAL_ALL, DEAL_TO_PLAYERS, MAX_COUNT, MODE_BITS, OPERANDS,
                                PLAY_PASS, TARGET_KINDS, OperandKind)

Opcode = Instruction

OPCODES = tuple(op for op in INSTRUCTIONS if op.in_file)       # what a .pipc may hold
FUSED = tuple(op for op in INSTRUCTIONS if op.parts)
LOAD_TIME = tuple(op for op in INSTRUCTIONS if not op.in_file and not op.parts)

BY_CODE = {op.code: op for op in INSTRUCTIONS}
BY_NAME = {op.name: op for op in INSTRUCTIONS}
# Opcode numbers by name, for emitters and the VM: OP.JUMP == 50.
OP = type('OP', (), {op.name: op.code for op in INSTRUCTIONS})
FUSED_BY_CODE = {f.code: f for f in FUSED}
assert len(BY_CODE) == len(BY_NAME) == len(INSTRUCTIONS)
assert all(0 < op.code < 256 for op in INSTRUCTIONS)
assert all(kind in OPERANDS for op in INSTRUCTIONS for kind in op.operands)

ASKS = ('ASK', 'ASK_FROM')      # the instructions followed by one JUMP per question


def ask_table(instrs, i):
    """The JUMPs an ASK (or ASK_FROM) at instrs[i] chooses between: the n
    instructions after it."""
    return instrs[i + 1:i + 1 + instrs[i].args[0]]
