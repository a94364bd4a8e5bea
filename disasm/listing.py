"""`pipvm dis`: a listing of a compiled program, in the spirit of CPython's dis.

Everything here is derived from the opcode table: an instruction's name and
how to show each operand come from its operand kinds.
"""
from pipvm import opcodes, pipc, runtime, vm

_DEAL_BITS = ((opcodes.DEAL_ALL, 'all'), (opcodes.DEAL_TO_PLAYERS, 'to players'))
_AREA_BITS = ((opcodes.AREA_FACEDOWN, 'facedown'), (opcodes.AREA_SQUAREDUP, 'squaredup'))
_DECK = runtime.new_deck()      # only for the cards' names
_WIDTH = max(len(op.name) for op in opcodes.OPCODES + opcodes.FUSED)


def show_const(value):
    kind = type(value)
    if kind is tuple:
        return '[%s]' % '; '.join(show_const(v) for v in value)
    if kind is str:
        return '"%s"' % value
    if kind is pipc.CardRef:
        return str(_DECK[value.index])
    if kind is runtime.Rank:
        return runtime.RANK_NAMES[value]
    return runtime.to_str(value)


def show_operand(program, code, instr, kind, arg):
    if kind == 'jump':
        return 'to %d' % arg
    if kind == 'const':
        return '%d (%s)' % (arg, show_const(program.consts[arg]))
    if kind == 'global':
        return '%d (%s)' % (arg, program.global_names[arg])
    if kind == 'local':
        return '%d (%s)' % (arg, code.local_names[arg])
    if kind == 'builtin':
        return runtime.BUILTINS[arg]
    if kind == 'prop':
        owner, name, _ = runtime.PROPERTIES[arg]
        return '%s.%s' % (owner, name)
    if kind == 'listprop':
        return runtime.LIST_PROPERTIES[arg]
    if kind in ('action', 'rule', 'ordering'):
        return '%d (%s)' % (arg, program.codes[arg].name)
    if kind == 'mode':
        bits = _DEAL_BITS if instr.op.name == 'DEAL' else _AREA_BITS
        return ', '.join(word for bit, word in bits if arg & bit) or '-'
    return str(arg)


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
        decoded = pipc.decode(code.code)
        runs = vm.fuse_runs(decoded) if fused else [(ins.op, [ins]) for ins in decoded]
        for op, parts in runs:
            pos = code.position(parts[0].offset)
            line = pos[0] if pos else None
            shown = '%5d' % line if line != last_line and line is not None else '     '
            last_line = line
            operands = ', '.join(show_operand(p, code, ins, kind, arg) for ins in parts
                                 for kind, arg in zip(ins.op.operands, ins.args))
            out.append(('%s %6d  %-*s %s' % (shown, parts[0].offset, _WIDTH, op.name,
                                             operands)).rstrip())
    return '\n'.join(out) + '\n'
