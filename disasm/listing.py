"""`pipvm dis`: a listing of a compiled program, in the spirit of CPython's dis.

Everything here is derived from the opcode table: an instruction's name,
and how each operand is shown by its kind (opcodes.OPERANDS); the fused
runs are the VM's (pipvm/engine/fusion.py).
"""
from pipvm.engine import fusion, pure
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
           'globals %s' % (', '.join(p.global_names) or '-')]
    if p.owns:      # the extension's values for each player or team
        out.append('for each %s' % ', '.join('%s %s->%s' % (t, owner, name)
                                             for owner, name, t in p.owns))
    out += ['constants %d, code objects %d, main %s' % (len(p.consts), len(p.codes),
                                                      p.codes[p.main].name)]
    for code in p.codes:
        out.append('')
        out.append('%s %s (locals: %s; %d bytes)' % (
            code.kind, code.name, ', '.join(code.local_names) or '-', len(code.code)))
        last_line = None
        runs, rewrites = fusion.loaded(pipc.decode(code.code), fused)
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


def loaded_listing(program):
    """`pipvm dis --loaded`: what the VM runs for program, read from the
    image it loads (vm.Image), not worked out again: each instruction as
    the loop runs it (superinstructions, load-time rewrites, and how: inline
    in the loop, a handler written from its body, or the quiet variant's),
    then, where it differs, what the quiet variant runs in its place (an
    instruction of its own, or the same one from its quiet body)
    (`pipvm sim`, a bot's playouts), and each rule's and ordering's
    closures, in the shape pure.py built them."""
    from pipvm.engine import generated_cases, vm
    image = vm.Image(program)
    p = program
    out = ['game "%s" as the VM loads it; a quiet line: what `pipvm sim` runs instead' % p.name]
    for index, (code, loaded) in enumerate(zip(p.codes, image.codes)):
        out.append('')
        out.append('%s %s (locals: %s; %d instructions from %d)' % (
            code.kind, code.name, ', '.join(code.local_names) or '-', len(loaded.instrs),
            sum(map(len, loaded.parts))))
        for i, ((op, arg, handler), parts) in enumerate(zip(loaded.instrs, loaded.parts)):
            name = opcodes.BY_CODE[op].name
            operands = ', '.join(show_operand(p, code, ins, kind, a) for ins in parts
                                 for kind, a in zip(ins.op.operands, ins.args))
            ran = opcodes.BY_CODE[parts[0].op.code].name if len(parts) == 1 else None
            if ran is not None and ran != name:
                operands = '(rewritten from %s%s)' % (ran, ' ' + operands if operands else '')
            out.append(('%4d %6d  %-*s %-9s %s' % (
                i, parts[0].offset, _WIDTH, name, _how(op, handler, generated_cases),
                operands)).rstrip())
            quiet = loaded.quiet[i]
            quiet_op, _, quiet_handler = quiet
            if quiet_op != op:
                out.append('%4s %6s  quiet: %s' % ('', '', _quiet(quiet, code, loaded, p)))
            elif quiet_handler is not handler:      # (its record's quiet body: nothing shown)
                out.append('%4s %6s  quiet: %s, its quiet body' % ('', '', name))
        fast = image.pure[index]
        if code.kind in ('rule', 'ordering'):
            if fast is None:
                out.append('  closures: none (runs on the loop)')
            else:
                out.append('  closures: ' + _shape(fast.fn, code, p))
                if fast.by_card is not None:
                    out.append('  over a hand: ' + _shape(fast.by_card, code, p)
                               + ', then filter_by_card')
    return '\n'.join(out) + '\n'


def _how(op, handler, generated):
    if handler is None:
        return 'inline'
    if generated.HANDLERS.get(op) is handler:
        return 'body'
    return handler.__qualname__


def _locals(code, slots):
    return ', '.join(code.local_names[s] for s in slots) or '-'


def _quiet(instr, code, loaded, p):
    """A quiet instruction and its operand, as quiet.py made it."""
    op, arg, _ = instr
    name = opcodes.BY_CODE[op].name

    def to(i):
        return 'then %d' % loaded.offsets[i] if i < len(loaded.offsets) else 'then the end'
    if name == 'QUIET_MESSAGE':
        slots, checks, after = arg
        return '%s: locals %s defined, %s; %s' % (
            name, _locals(code, slots), ', '.join(_shape(c, code, p) for c in checks), to(after))
    if name == 'QUIET_LOCALS':
        return '%s: locals %s defined; %s' % (name, _locals(code, arg[0]), to(arg[1]))
    slot, others, _, checks, _, end = arg         # QUIET_LOOP, QUIET_FOR
    return '%s over %s: locals %s defined%s; %s' % (
        name, code.local_names[slot], _locals(code, others),
        ''.join(', ' + _shape(c, code, p) for c in checks), to(end))


def _shape(fn, code, program, depth=0):
    """A closure as pure.py built it: its function's name, then what it
    closes over (closures in turn; a local or global slot by its name)."""
    if depth > 12:
        return '...'
    if not hasattr(fn, '__code__'):
        return repr(fn)
    name = fn.__code__.co_name
    if name == '<lambda>':          # _Builder.b_NAME's, or generated_cases.closure_NAME's
        name = fn.__qualname__.split('.<locals>')[0].split('.')[-1]
        name = name.replace('b_', '').replace('closure_', '').lower()
    cells = dict(zip(fn.__code__.co_freevars, (c.cell_contents for c in fn.__closure__ or ())))
    shown = []
    for var, v in cells.items():
        if var == 'm':
            continue                    # the machine's place in the environment
        if var == 'specs':
            shown += [_term(s, code) for s in v]
        elif callable(v) and hasattr(v, '__code__'):
            shown.append(_shape(v, code, program, depth + 1))
        elif type(v) is list and all(hasattr(f, '__code__') for f in v):
            shown += [_shape(f, code, program, depth + 1) for f in v]
        elif type(v) is tuple and v and all(hasattr(f, '__code__') for f in v):
            # (a quiet check's parts, checks._shows: shown as closures, not by address)
            shown.append('%s=(%s)' % (var, ', '.join(_shape(f, code, program, depth + 1)
                                                     for f in v)))
        elif var == 'o0' and name.rstrip('_') in _SLOTS:
            names = code.local_names if 'local' in name else program.global_names
            shown.append(names[v] if v < len(names) else 'slot %d' % v)
        elif var[0] == 'o' and var[1:].isdigit():
            shown.append(repr(v))
        else:
            shown.append('%s=%r' % (var, v))
    return '%s(%s)' % (name.rstrip('_'), ', '.join(shown))


# Closures whose first operand is a local's or a global's slot.
_SLOTS = ('load_local', 'load_local_prop', 'load_local_item_prop', 'defined_local',
          'load_global', 'defined_global')


def _term(spec, code):
    """One term of any_equal or by_card (pure.Equality.flat)."""
    def path(slot, item, prop):
        where = code.local_names[slot] if slot < len(code.local_names) else 'slot %d' % slot
        return '%s%s.%s' % (where, '' if item is None else '[%d]' % item, prop)
    t = pure.Term(*spec)
    return '%s == %s' % (path(t.slot, t.item, t.prop), repr(t.value) if t.other_slot is None
                         else path(t.other_slot, t.other_item, t.other_prop))


def compiled_listing(program):
    """`pipvm dis --compiled`: each code object's instructions as the VM
    loads them, with the compiled tier's blocks (pipvm/engine/compiled.py)
    beside them: the instructions each block covers (marked `|`) and the
    function it runs, as generated from the table's bodies; then its loops
    that run as regions when hot, with their functions."""
    from pipvm.engine import compiled, vm
    image = vm.Image(program, compiled=True)
    p = program
    out = ['game "%s" as `--engine compiled` runs it: blocks of instructions as functions'
           % p.name]
    for code, loaded in zip(p.codes, image.codes):
        out.append('')
        out.append('%s %s (locals: %s)' % (code.kind, code.name,
                                           ', '.join(code.local_names) or '-'))
        end = 0
        for i, ((op, arg, fn), parts) in enumerate(zip(loaded.instrs, loaded.parts)):
            if op == compiled.BLOCK:
                end = arg[0]
                out.append('     block of %d instructions, %d to %d:' % (end - i, i, end - 1))
                source = (compiled.lazy_of(fn) or fn).source       # (cold, or made)
                out += ['       ' + line for line in source.rstrip().split('\n')]
            operands = ', '.join(show_operand(p, code, ins, kind, a) for ins in parts
                                 for kind, a in zip(ins.op.operands, ins.args))
            name = '+'.join(ins.op.name for ins in parts)
            ran = loaded.plain[0][i][0]         # (a load-time rewrite's, DEAL_EACH's)
            if len(parts) == 1 and ran != parts[0].op.code:
                name = '%s (rewritten from %s)' % (opcodes.BY_CODE[ran].name, name)
            out.append(('%4d %6d %s %s %s' % (i, parts[0].offset, '|' if i < end else ' ',
                                              name, operands)).rstrip())
        out += _regions(loaded)
    return '\n'.join(out) + '\n'


def _regions(loaded):
    """The loops of loaded's code that run as one function once a block in
    them is hot (pipvm/engine/regions.py), each with its function (a block
    that is a whole loop by itself runs as its own function: no region)."""
    from pipvm.engine import compiled, regions
    lazy = [lazy for _, _, fn in loaded.instrs
            if (lazy := compiled.lazy_of(fn)) is not None and not lazy.whole_loop]
    made = {}
    for fn in lazy:
        if regions.enter(fn.site, fn.index) is not None:
            made.update((loop, f) for loop, (f, _) in fn.site.made.items())
    out = []
    for (head, end), fn in sorted(made.items()):
        out.append('     region of the loop %d to %d (once a block in it is hot):' % (head, end))
        out += ['       ' + line for line in fn.source.rstrip().split('\n')]
    return out
