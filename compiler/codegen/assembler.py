"""The assembler: one code object's bytes and line table, emitted
instruction by instruction, with forward jumps patched in place when their
target is emitted, and and/or jump chains threaded.  The encoding itself is
the file format's (pipvm/isa/pipc.py)."""
from pipvm.isa.opcodes import BY_CODE, OP, TARGET_KINDS
from pipvm.isa.pipc import decode, encode_instr, operand_at


class Assembler:
    """Builds one code object's bytes and line table; jumps are patched in place."""

    def __init__(self):
        self.code = bytearray()
        self.lines = []

    def emit(self, name, *args, pos=None):
        op = BY_CODE[getattr(OP, name)]
        offset = len(self.code)
        if pos is not None and (not self.lines or self.lines[-1][1:] != tuple(pos)):
            if self.lines and self.lines[-1][0] == offset:
                self.lines.pop()
            self.lines.append((offset, pos[0], pos[1]))
        self.code += encode_instr(op, args)
        return offset

    def here(self):
        return len(self.code)

    def patch(self, jump_offset, target=None):
        """Point the jump at jump_offset at target (default: here)."""
        at = self._jump_field(jump_offset)
        self.code[at:at + 4] = (self.here() if target is None else target).to_bytes(4, 'little')

    def thread_jumps(self):
        """Point an `and`/`or` jump that lands on another jump of its kind at
        that one's target, where it would go next anyway: `a or b or c` then
        jumps straight to the end, and its runs can be fused (pipvm/engine/fusion.py)."""
        keeping = (OP.JUMP_IF_TRUE_OR_POP, OP.JUMP_IF_FALSE_OR_POP)
        jumps = {ins.offset: ins for ins in decode(self.code) if ins.op.code in keeping}
        for ins in jumps.values():
            target, seen = ins.args[0], {ins.offset}
            while target in jumps and jumps[target].op is ins.op and target not in seen:
                seen.add(target)
                target = jumps[target].args[0]
            self.patch(ins.offset, target)

    def _jump_field(self, offset):
        return operand_at(self.code, offset, TARGET_KINDS[0])
