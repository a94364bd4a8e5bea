"""The .pipc file: reading, validating and writing compiled games.

The format is described in docs/pipc.md.  Nothing in a file is executed or
trusted until `load` has checked all of it: the header and checksum, every
constant, every instruction and operand, jump targets, and the stack depth
along every path, so the VM can run what it is given without further checks.
"""
import bisect
import zlib

from pipvm.core import plain
from pipvm.core.errors import PipError
from pipvm.core.files import read_file, write_file      # noqa: F401 (where callers find them)
from pipvm.isa.constants import CardRef
from pipvm.isa.opcodes import ASKS, BY_CODE, CODE_KINDS, OP, OPERANDS, ask_table
from pipvm.core.runtime import RANKS, SUITS, Rank, Suit

MAGIC = b'PIPC'
VERSION = 2                                  # what dump writes (1 for a program without types)
VERSIONS = (1, 2, 3)                         # what load reads: 2 added the globals' types
# 3 (written only for a program using pipvm's extensions, so plain Pip's files
# keep their bytes): values for each player or team, and rules and orderings
# with locals of their own (an aggregate's variable) after their parameters.
EXTENDED = 3
OWNERS = ('Player', 'Team')
# The declared type of each global (version 2): the checker's type names.
GLOBAL_TYPES = ('Area', 'Boolean', 'Card', 'Number', 'Player', 'Rank', 'String', 'Suit',
                'Team', 'CardList', 'PlayerList', 'RankList', 'SuitList', 'TeamList',
                'AreaList')     # (extension: a list of areas declared at once)
KINDS = ('init', 'action', 'rule', 'ordering')
FRAME_SIZE = {'rule': 3, 'ordering': 1}     # the parameters the VM passes in
MAX_VARINT_BYTES = 10                        # every count, index and position
MAX_NUMBER_BYTES = 1 << 16                   # a Number constant


@plain.define
class Code:
    kind: str                  # one of KINDS
    name: str
    local_names: list          # one per frame slot
    code: bytes
    lines: list                # [(offset, line, col)], offsets ascending
    max_stack: int = plain.field(default=0, eq=False)   # found by the validator
    # The validated instructions (load decodes each code object once; an
    # engine can take them instead of decoding the bytes again).
    decoded: tuple = plain.field(default=None, eq=False, repr=False)

    def position(self, offset):
        """The source (line, col) of the instruction at offset."""
        i = bisect.bisect_right(self.lines, (offset, float('inf')))
        return self.lines[i - 1][1:] if i else None


@plain.define
class Program:
    name: str
    counts: list               # allowed player (or team) counts, in offer order
    team_size: int             # 0 for a players game
    global_names: list
    consts: list               # int, bool, str, Rank, Suit, CardRef, or tuples of these
    codes: list                # codes[0] initialises the globals
    main: int
    global_types: list = None  # one of GLOBAL_TYPES per global; None from a version-1 file
    owns: list = plain.Factory(list)    # (owner, name, type) per value for each player/team

    def version(self):
        """The format version this program needs."""
        if self.owns or any(len(c.local_names) > FRAME_SIZE.get(c.kind, len(c.local_names))
                            for c in self.codes):
            return EXTENDED
        return 1 if self.global_types is None else VERSION


@plain.frozen
class Instr:
    offset: int
    op: object                 # the Opcode
    args: tuple
    end: int                   # offset of the next instruction


class FileError(PipError):
    def __init__(self, path, message):
        super().__init__(None, '%s: %s' % (path, message))


class Corrupt(Exception):
    pass


# --- encoding -----------------------------------------------------------------

def varint(n):
    """Unsigned LEB128."""
    if n < 0:       # a writer's slip: its bits would never run out
        raise ValueError('a varint of the negative number %d' % n)
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def encode_instr(op, args):
    out = bytearray([op.code])
    for kind, arg in zip(op.operands, args, strict=True):
        width = OPERANDS[kind].width
        out += arg.to_bytes(width, 'little') if width else varint(arg)
    return bytes(out)


def operand_at(code, offset, kind):
    """Where the first operand of this kind of the instruction at offset is."""
    at = offset + 1
    for k in BY_CODE[code[offset]].operands:
        if k == kind:
            return at
        width = OPERANDS[k].width
        at = at + width if width else _read_varint(code, at)[1]
    raise ValueError('no %s operand' % kind)


def _const_bytes(value):
    kind = type(value)
    if kind is bool:
        return bytes([2 if value else 1])
    if kind is int:
        return b'\x00' + varint(value * 2 if value >= 0 else -value * 2 - 1)
    if kind is str:
        return b'\x03' + _string(value)
    if kind is Rank:
        return b'\x04' + varint(int(value))
    if kind is Suit:
        return b'\x05' + varint(value.index)
    if kind is CardRef:
        return b'\x06' + varint(value.index)
    return b'\x07' + varint(len(value)) + b''.join(_const_bytes(v) for v in value)


def _string(s):
    data = s.encode('latin-1')
    return varint(len(data)) + data


def dump(program):
    """The bytes of a .pipc file."""
    p = program
    out = bytearray(_string(p.name))
    out += varint(len(p.counts)) + b''.join(varint(n) for n in p.counts)
    out += varint(p.team_size)
    out += varint(len(p.global_names)) + b''.join(_string(n) for n in p.global_names)
    version = p.version()
    if p.global_types is not None:
        out += bytes(GLOBAL_TYPES.index(t) for t in p.global_types)
    if version >= EXTENDED:
        out += varint(len(p.owns))
        for owner, name, t in p.owns:
            out += bytes([OWNERS.index(owner), GLOBAL_TYPES.index(t)]) + _string(name)
    out += varint(len(p.consts)) + b''.join(_const_bytes(c) for c in p.consts)
    out += varint(len(p.codes))
    for c in p.codes:
        out += bytes([KINDS.index(c.kind)]) + _string(c.name)
        out += varint(len(c.local_names)) + b''.join(_string(n) for n in c.local_names)
        out += varint(len(c.code)) + c.code
        out += varint(len(c.lines))
        last = 0
        for offset, line, col in c.lines:
            out += varint(offset - last) + varint(line) + varint(col)
            last = offset
    out += varint(p.main)
    return MAGIC + bytes([version]) + zlib.crc32(out).to_bytes(4, 'little') + bytes(out)


# --- decoding -----------------------------------------------------------------

def _read_varint(data, at, limit=MAX_VARINT_BYTES):
    n = shift = 0
    for i in range(limit):
        if at >= len(data):
            raise Corrupt('truncated')
        byte = data[at]
        at += 1
        n |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return n, at
    raise Corrupt('number too long')


class _Reader:
    def __init__(self, data, at):
        self.data, self.at = data, at

    def varint(self, limit=MAX_VARINT_BYTES):
        n, self.at = _read_varint(self.data, self.at, limit)
        return n

    def small(self, bound, what):
        n = self.varint()
        if n >= bound:
            raise Corrupt('bad ' + what)
        return n

    def bytes(self, n):
        if self.at + n > len(self.data):
            raise Corrupt('truncated')
        chunk = self.data[self.at:self.at + n]
        self.at += n
        return chunk

    def string(self):
        return self.bytes(self.varint()).decode('latin-1')

    def strings(self):
        return [self.string() for _ in range(self.varint())]

    def const(self, nested=False):
        tag = self.bytes(1)[0]
        if tag == 0:
            z = self.varint(MAX_NUMBER_BYTES)
            return z >> 1 if not z & 1 else -((z + 1) >> 1)
        if tag in (1, 2):
            return tag == 2
        if tag == 3:
            return self.string()
        if tag == 4:
            n = self.varint()
            if not 1 <= n <= 13:
                raise Corrupt('bad rank constant')
            return RANKS[n]
        if tag == 5:
            return SUITS[self.small(4, 'suit constant')]
        if tag == 6:
            return CardRef(self.small(52, 'card constant'))
        if tag == 7 and not nested:
            return tuple(self.const(True) for _ in range(self.varint()))
        raise Corrupt('bad constant')


_DECODED = {}           # a code object's bytes -> its instructions (shared: read only)


def decoded(code):
    """decode(code) as a tuple, made once for each bytes: the loader's
    validation, the VM's loading (vm.Loaded, pure.translate: a tenth of an
    Image's making when each decoded again) and what the compiled tier
    reads of a whole program at its first hot block (steady, kinds: each a
    pass over every code object, a fortieth of loops.pip's game)."""
    out = _DECODED.get(code)
    if out is None:
        if len(_DECODED) > 4096:
            _DECODED.clear()
        out = _DECODED[code] = tuple(decode(code))
    return out


def decode(code):
    """The instructions of a code object's bytes; Corrupt names a bad offset."""
    out, at = [], 0
    while at < len(code):
        op = BY_CODE.get(code[at])
        if op is None:
            raise BadCode(at, 'unknown opcode %d' % code[at])
        if not op.in_file:
            raise BadCode(at, 'opcode %d (%s) is made when the VM loads a program, never in a file'
                          % (op.code, op.name))
        start, at = at, at + 1
        args = []
        try:
            for kind in op.operands:
                width = OPERANDS[kind].width
                if width:
                    if at + width > len(code):
                        raise Corrupt('truncated')
                    args.append(int.from_bytes(code[at:at + width], 'little'))
                    at += width
                else:
                    n, at = _read_varint(code, at)
                    args.append(n)
        except Corrupt as e:
            raise BadCode(start, str(e)) from None
        out.append(Instr(start, op, tuple(args), at))
    return out


class BadCode(Exception):
    def __init__(self, offset, reason):
        super().__init__(reason)
        self.offset, self.reason = offset, reason


def load(data, path, initial=None):
    """The validated Program in a .pipc file's bytes, or FileError.

    initial (for `--set`): called with the program once it is validated, it
    gives {global slot: constant} for the globals whose initialisers are to
    be replaced by those constants (see with_initial)."""
    if len(data) < 9 or data[:4] != MAGIC:
        raise FileError(path, 'not a pipvm bytecode file')
    if data[4] not in VERSIONS:
        raise FileError(path, 'unsupported format version %d' % data[4])
    if int.from_bytes(data[5:9], 'little') != zlib.crc32(data[9:]):
        raise FileError(path, 'corrupt (checksum mismatch)')
    try:
        program = _parse(_Reader(data, 9), data[4])
    except Corrupt as e:
        raise FileError(path, 'corrupt (%s)' % e) from None
    calls = []
    for c in program.codes:
        try:
            c.decoded = decoded(c.code)
        except BadCode as e:
            _invalid(path, c, e)
        calls.append(_checked(path, program, c))
    _check_results(path, program)
    if _has_cycle(calls):
        # 2008 Pip cannot recurse (CALL); a file that does would only exhaust the stack.
        raise FileError(path, 'corrupt (code objects call each other in a cycle)')
    values = initial(program) if initial is not None else None
    if values:
        program = with_initial(program, values, path)
        _checked(path, program, program.codes[0])
    return program


# Extension (actions with results): the calls that wait for a result, and GIVE.
CALLS = {'CALL': 0, 'CALL_WITH': 1, 'CALL_FOR': 1}     # name -> the action operand's place


def _check_results(path, program):
    """An action that gives a result (has GIVE) is run only by CALL_FOR, and
    CALL_FOR runs only such an action; main gives none."""
    gives = [any(ins.op.name == 'GIVE' for ins in c.decoded) for c in program.codes]
    if gives[program.main]:
        raise FileError(path, 'corrupt (main gives a result)')
    for c in program.codes:
        for ins in c.decoded:
            place = CALLS.get(ins.op.name)
            if place is not None and gives[ins.args[place]] != (ins.op.name == 'CALL_FOR'):
                raise FileError(path, 'corrupt (%s at offset %d of %s %s runs an action that '
                                      'gives %s result)' % (ins.op.name, ins.offset, c.kind,
                                                            c.name, 'a' if gives[ins.args[place]]
                                                            else 'no'))


def _checked(path, program, code):
    """Validate a decoded code object (setting its max_stack): the indexes of
    the code objects it runs."""
    try:
        code.max_stack, callees = _validate(program, code)
    except BadCode as e:
        _invalid(path, code, e)
    return callees


def _invalid(path, code, e):
    raise FileError(path, 'invalid bytecode at offset %d of %s %s (%s)'
                    % (e.offset, code.kind, code.name, e.reason)) from None


# --- replacing initialisers (`--set`) -----------------------------------------

def with_initial(program, values, path):
    """The program with the initialisers of the globals in values ({slot:
    constant}) replaced by those constants, as if declared so: the original
    initialiser is not run, and the initialisers after it see the constant.

    codes[0] (decoded) is a run of segments, one per initialised global, each
    ending in that global's STORE_GLOBAL, in slot order; a global declared
    without a value has none, so its constant goes where it would be.  The
    result's init code is decoded already (it still needs validating)."""
    code = program.codes[0]
    instrs = code.decoded
    consts = list(program.consts)
    todo = {}
    for slot, value in values.items():
        todo[slot] = len(consts)
        consts.append(value)
    const, store_global = BY_CODE[OP.CONST], BY_CODE[OP.STORE_GLOBAL]
    out, segment = [], []          # out: (opcode, args, old offset or None, position)

    def keep(i):
        out.append((i.op, i.args, i.offset, code.position(i.offset)))

    def store(slot, pos=None):
        out.append((const, (todo.pop(slot),), None, pos))
        out.append((store_global, (slot,), None, None))

    def cannot(slot):
        raise PipError(None, "--set: %s: cannot replace the initial value of '%s'"
                             % (path, program.global_names[slot]))

    for ins in instrs:
        is_store = ins.op.code == OP.STORE_GLOBAL
        if ins.op.code == OP.INIT_OWN:
            # A value for each player (extension) is its own segment, kept; the
            # constants of globals declared without a value before it go first
            # (its initialiser may read them; a later global's it cannot).
            after = min((i.args[0] for i in instrs if i.op.code == OP.STORE_GLOBAL
                         and i.offset > ins.offset), default=len(program.global_names))
            for earlier in sorted(g for g in todo if g < after):
                store(earlier)
            for i in segment + [ins]:
                keep(i)
            segment = []
            continue
        if not (is_store or ins.op.code == OP.RETURN):
            segment.append(ins)
            continue
        slot = ins.args[0] if is_store else len(program.global_names)
        for earlier in sorted(g for g in todo if g < slot):
            store(earlier)                       # declared without a value
        if is_store and slot in todo:
            inside = {i.offset for i in segment} | {ins.offset}
            if any(t in inside for i in instrs if i.offset not in inside
                   for _, t in _targets(i.op, i.args)):
                cannot(slot)
            store(slot, code.position(segment[0].offset if segment else ins.offset))
            segment = []
            continue
        for i in segment + [ins]:
            keep(i)
        segment = []
    for i in segment:                            # after the last RETURN: kept, never run
        keep(i)
    if todo:                                     # only a crafted file has no RETURN to end on
        cannot(min(todo))
    init = Code('init', code.name, code.local_names, *_assemble(out))
    return plain.evolve(program, consts=consts, codes=[init] + program.codes[1:])


def _targets(op, args):
    """(operand index, offset) of each jump target among an instruction's operands."""
    return [(k, a) for k, (kind, a) in enumerate(zip(op.operands, args))
            if OPERANDS[kind].is_target]


def _assemble(instrs):
    """(bytes, line table, max_stack 0, Instrs) of [(opcode, args, old offset or
    None, position)], jump targets moved from old offsets to new.  Targets are
    fixed-width, so every instruction's new offset is known before any is encoded."""
    new_at, at = {}, 0
    for op, args, old, _ in instrs:
        if old is not None:
            new_at[old] = at
        at += len(encode_instr(op, args))
    data, lines, decoded = bytearray(), [], []
    for op, args, _, pos in instrs:
        args = list(args)
        for k, target in _targets(op, args):
            args[k] = new_at[target]
        if pos is not None and (not lines or lines[-1][1:] != tuple(pos)):
            lines.append((len(data),) + tuple(pos))
        start = len(data)
        data += encode_instr(op, args)
        decoded.append(Instr(start, op, tuple(args), len(data)))
    return bytes(data), lines, 0, decoded


def _has_cycle(calls):
    """Does the graph calls[i] = {code objects i runs} have a cycle?"""
    state = [0] * len(calls)          # 0 unseen, 1 on the current path, 2 done
    for root in range(len(calls)):
        if state[root]:
            continue
        state[root] = 1
        path = [(root, iter(calls[root]))]
        while path:
            node, children = path[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                path.pop()
            elif state[child] == 1:
                return True
            elif state[child] == 0:
                state[child] = 1
                path.append((child, iter(calls[child])))
    return False


def _parse(r, version):
    name = r.string()
    counts = [r.varint() for _ in range(r.varint())]
    team_size = r.varint()
    if not counts:
        raise Corrupt('no player counts')
    global_names = r.strings()
    global_types = None
    if version >= 2:
        tags = r.bytes(len(global_names))
        if any(t >= len(GLOBAL_TYPES) for t in tags):
            raise Corrupt('bad global type')
        global_types = [GLOBAL_TYPES[t] for t in tags]
    owns = []
    if version >= EXTENDED:
        for _ in range(r.varint()):
            owner = OWNERS[r.small(len(OWNERS), 'owner')]
            t = r.bytes(1)[0]
            if t >= len(GLOBAL_TYPES):
                raise Corrupt('bad type')
            owns.append((owner, r.string(), GLOBAL_TYPES[t]))
    consts = [r.const() for _ in range(r.varint())]
    codes = []
    for i in range(r.varint()):
        kind = KINDS[r.small(len(KINDS), 'code kind')]
        code = Code(kind, r.string(), r.strings(), None, [])
        code.code = r.bytes(r.varint())
        offset = 0
        for _ in range(r.varint()):
            offset += r.varint()
            if offset >= len(code.code):
                raise Corrupt('bad line table')
            code.lines.append((offset, r.varint(), r.varint()))
        if (kind == 'init') != (i == 0):
            raise Corrupt('the first code object, and only it, must initialise the globals')
        if kind in FRAME_SIZE and (len(code.local_names) < FRAME_SIZE[kind] or
                                   version < EXTENDED and len(code.local_names) != FRAME_SIZE[kind]):
            raise Corrupt('bad frame size')
        codes.append(code)
    main = r.small(len(codes), 'main action') if codes else r.varint()
    if not codes or codes[main].kind != 'action':
        raise Corrupt('no main action')
    if r.at != len(r.data):
        raise Corrupt('trailing bytes')
    return Program(name, counts, team_size, global_names, consts, codes, main, global_types, owns)


def _validate(program, code):
    """Check every instruction of a code object: (maximum stack depth, the
    indexes of the code objects it runs)."""
    instrs = code.decoded
    if not instrs:
        raise BadCode(0, 'empty code')
    index = {ins.offset: i for i, ins in enumerate(instrs)}
    for i, ins in enumerate(instrs):
        for kind, arg in zip(ins.op.operands, ins.args):
            reason = OPERANDS[kind].check(program, code, ins.op.name, arg)
            if reason is None and OPERANDS[kind].is_target and arg not in index:
                reason = 'jump target is not an instruction'
            if reason:
                raise BadCode(ins.offset, reason)
        if ins.op.name in ASKS:
            table = ask_table(instrs, i)
            if len(table) < ins.args[0] or any(t.op.name != 'JUMP' for t in table):
                raise BadCode(ins.offset, '%s must be followed by one JUMP per question'
                              % ins.op.name)
    want_end = 'RETURN_VALUE' if code.kind in FRAME_SIZE else 'RETURN'
    gives = code.kind == 'action' and any(ins.op.name == 'GIVE' for ins in instrs)
    # Stack depth along every path: one depth per instruction.
    depth = [None] * len(instrs)
    depth[0] = peak = 0
    work = [0]
    while work:
        i = work.pop()
        ins, d = instrs[i], depth[i]
        pops = ins.op.stack_pops(ins.args)
        if pops > d:
            raise BadCode(ins.offset, 'stack underflow')
        after = d - pops + ins.op.pushes
        peak = max(peak, after)
        targets = []
        if ins.op.name in ('RETURN', 'RETURN_VALUE'):
            if ins.op.name != want_end or after != 0:
                raise BadCode(ins.offset, 'bad return')
            if gives:
                raise BadCode(ins.offset, 'an action that gives a result ends without one')
        elif ins.op.name == 'GIVE' and code.kind != 'action':
            raise BadCode(ins.offset, 'GIVE outside an action')
        elif ins.op.name in ASKS:
            targets = [(i + 1 + k, after) for k in range(ins.args[0])]
        else:
            if not ins.op.ends:
                targets.append((i + 1, after))
            if ins.op.branch is not None:
                targets.append((index[ins.args[-1]], d + ins.op.branch))
        for j, dj in targets:
            if j >= len(instrs):
                raise BadCode(ins.offset, 'runs off the end of the code')
            if depth[j] is None:
                depth[j] = dj
                work.append(j)
            elif depth[j] != dj:
                raise BadCode(instrs[j].offset, 'inconsistent stack depth')
    # (CALL_WITH's and CALL_FOR's action, their second operand, is no edge:
    # those calls may recurse, as deep as the VM's limit)
    callees = {ins.args[0] for ins in instrs if ins.op.operands[:1] and ins.op.operands[0] in CODE_KINDS}
    return peak, callees
