"""`pipvm dis`: a listing of a compiled program, in the spirit of CPython's dis.

Everything here is derived from the opcode table: an instruction's name,
and how each operand is shown by its kind (opcodes.OPERANDS); the fused
runs are the VM's (pipvm/engine/fusion.py).
"""
from pipvm.engine import fusion
from pipvm.isa import opcodes, pipc

_WIDTH = max(len(op.name) for op in opcodes.INSTRUCTIONS)


def show_operand(program, code, instr, kind, arg):
    return opcodes.OPERANDS[kind].show(program, code, instr.op.name, arg)


def listing(program, fused=False):
    """The text of the listing: a header, then every code object; fused=True
    shows the superinstructions the VM runs instead of the file's opcodes."""
    p = program
    out = ['game "%s"' % p.name,
           'counts %s%s' % (', '.join(map(str, p.counts)),
                            ', teams of %d' % p.team_size if p.team_size else ' players'),
           'globals %s' % (', '.join(p.global_names) or '-'),
           'constants %d, code objects %d, main %s' % (len(p.consts), len(p.codes),
                                                      p.codes[p.main].name)]
    for code in p.codes:
        out.append('')
        out.append('%s %s (locals: %s; %d bytes)' % (
            code.kind, code.name, ', '.join(code.local_names) or '-', len(code.code)))
        last_line = None
        runs = fusion.runs(pipc.decode(code.code), fused)
        rewrites = fusion.rewrites(runs) if fused else {}
        for i, (op, parts) in enumerate(runs):
            pos = code.position(parts[0].offset)
            line = pos[0] if pos else None
            shown = '%5d' % line if line != last_line and line is not None else '     '
            last_line = line
            name = rewrites.get(i, op.name)
            operands = ', '.join(show_operand(p, code, ins, kind, arg) for ins in parts
                                 for kind, arg in zip(ins.op.operands, ins.args))
            if name != op.name:
                operands = '(%s %s)' % (op.name, operands) if operands else '(%s)' % op.name
            out.append(('%s %6d  %-*s %s' % (shown, parts[0].offset, _WIDTH, name,
                                             operands)).rstrip())
    return '\n'.join(out) + '\n'
