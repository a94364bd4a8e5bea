"""`--set NAME=VALUE`: play a variant of a game without editing its file.

NAME is a global `Number`, `Boolean`, `String`, `Rank` or `Suit` the program
declares.  Its declaration's initial value is replaced by VALUE, as if the
file read `Number NAME = VALUE.`: the original initialiser is not evaluated,
and every later use of NAME, including the initialisers of globals declared
after it, sees VALUE.  Actions may still change it as the game goes on.

The value is checked against the declared type (from the checked program, or
the global types a version-2 .pipc holds), and every problem is one `Error:`
line naming the setting, before anything runs.  The variant is itself a
program: its initialiser code has the declaration's code replaced by the
constant (laid out here, so a .pipc needs nothing of the compiler), and goes
through pipc.load's validator again, so the VM, the cluster workers (which
receive its .pipc bytes) and the record's fingerprint all see the variant
and nothing else.  The reference engine gets the same
change in its checked syntax tree.
"""
import attrs

from pipvm.isa import pipc
from pipvm.core.errors import PipError
from pipvm.isa.opcodes import BY_CODE, OP, OPERANDS
from pipvm.core.runtime import RANK_NAMES, RANKS, SUITS, Rank, Suit

SETTABLE = ('Number', 'Boolean', 'String', 'Rank', 'Suit')


@attrs.frozen
class Setting:
    name: str
    slot: int
    type: str
    value: object              # int, bool, str, Rank or Suit

    @property
    def text(self):
        """The value as --set takes it back, and as Pip shows it."""
        return self.value if type(self.value) is str else repr(self.value)

    def option(self):
        return '%s=%s' % (self.name, self.text)


def split(text):
    """'NAME=VALUE' as (NAME, VALUE); the argparse type of --set."""
    name, eq, value = text.partition('=')
    if not eq or not name.strip():
        import argparse
        raise argparse.ArgumentTypeError('expected NAME=VALUE, not %r' % text)
    return name.strip(), value


def _parse(type_, text):
    """The value text means for a declared type, or None."""
    t = text.strip()
    if type_ == 'String':
        try:
            text.encode('latin-1')
        except UnicodeEncodeError:
            return None
        return text
    if type_ == 'Boolean':
        return {'true': True, 'false': False}.get(t.lower())
    if type_ == 'Suit':
        return next((s for s in SUITS if t.lower() in (s.letter.lower(), s.name.lower())), None)
    if type_ == 'Rank':        # as in Pip: Q is a Rank, 7 a Number used as one
        if t in [str(n) for n in range(1, 14)]:
            return int(t)
        n = _RANK_LETTERS.get(t.upper()) or next(
            (n for n in range(1, 14) if t.lower() == RANK_NAMES[n].lower()), None)
        return None if n is None else RANKS[n]
    sign = t[:1] in '+-' and t[:1]
    digits = t[1:] if sign else t
    if digits.isascii() and digits.isdigit() and len(digits) <= _MAX_DIGITS:
        return -int(digits) if sign == '-' else int(digits)
    return None


_MAX_DIGITS = 4300             # Python's limit on converting text to an int
_RANK_LETTERS = {'A': 1, 'J': 11, 'Q': 12, 'K': 13}      # as in a card, Q~S
_EXPECTED = {'Number': 'a whole number', 'Boolean': 'True or False',
             'String': 'Latin-1 text', 'Rank': 'A, 2 to 10, J, Q, K or a rank name',
             'Suit': 'C, H, S, D or a suit name'}


def resolve(program, sets, path):
    """The Settings of [(name, value text)] for a validated pipc.Program."""
    if sets and program.global_types is None:
        raise PipError(None, '--set: %s has no global types (compiled by an older pipvm); '
                             'compile it again' % path)
    out, seen = [], set()
    for name, text in sets:
        where = '--set %s=%s' % (name, text)
        if name in seen:
            raise PipError(None, '%s: %s is set twice' % (where, name))
        seen.add(name)
        kind = next((c.kind for c in program.codes[1:] if c.name == name), None)
        if name not in program.global_names and kind is None:
            raise PipError(None, "%s: %s declares no global '%s'" % (where, path, name))
        slot = program.global_names.index(name) if kind is None else None
        type_ = kind or program.global_types[slot]
        if type_ not in SETTABLE:
            raise PipError(None, "%s: '%s' is a%s %s; only a %s can be set" % (
                where, name, 'n' if type_[0] in 'AEIOUaeiou' else '', type_,
                ', '.join(SETTABLE[:-1]) + ' or ' + SETTABLE[-1]))
        value = _parse(type_, text)
        if value is None:
            raise PipError(None, "%s: '%s' is a %s, so the value must be %s" % (
                where, name, type_, _EXPECTED[type_]))
        out.append(Setting(name, slot, type_, value))
    return out


def apply(program, checked, sets, path):
    """(variant program, variant checked AST or None, Settings) of a loaded game."""
    settings = resolve(program, sets, path)
    if not settings:
        return program, checked, settings
    variant = pipc.load(pipc.dump(_rewrite(program, settings, path)), path)
    if checked is not None:
        checked = _rewrite_checked(checked, settings)
    return variant, checked, settings


def _rewrite(program, settings, path):
    """The program with each setting's initialiser code replaced by its constant.

    The initialiser is a run of segments, one per initialised global, each
    ending in that global's STORE_GLOBAL, in slot order; a global declared
    without a value has none, so its constant goes where it would be."""
    code = program.codes[0]
    instrs = pipc.decode(code.code)
    consts = list(program.consts)
    todo = {}
    for s in settings:
        todo[s.slot] = len(consts)
        consts.append(s.value)
    out, segment = [], []          # out: (opcode, args, old offset or None, position)

    def keep(i):
        out.append((i.op, i.args, i.offset, code.position(i.offset)))

    def store(slot, pos=None):
        out.append((BY_CODE[OP.CONST], (todo.pop(slot),), None, pos))
        out.append((BY_CODE[OP.STORE_GLOBAL], (slot,), None, None))

    for ins in instrs:
        is_store = ins.op.code == OP.STORE_GLOBAL
        if ins.op.code == OP.INIT_OWN:
            # A value for each player (extension) is its own segment, kept; the
            # settings of globals declared without a value before it go first
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
                raise PipError(None, "--set: %s: cannot replace the initial value of '%s'"
                                     % (path, program.global_names[slot]))
            store(slot, code.position(segment[0].offset if segment else ins.offset))
            segment = []
            continue
        for i in segment + [ins]:
            keep(i)
        segment = []
    for i in segment:                            # after the last RETURN: kept, never run
        keep(i)
    if todo:                                     # only a crafted file has no RETURN to end on
        raise PipError(None, "--set: %s: cannot replace the initial value of '%s'"
                             % (path, program.global_names[min(todo)]))
    init = pipc.Code('init', code.name, code.local_names, *_assemble(out))
    return attrs.evolve(program, consts=consts, codes=[init] + program.codes[1:])


def _targets(op, args):
    """(operand index, offset) of each jump target among an instruction's operands."""
    return [(k, a) for k, (kind, a) in enumerate(zip(op.operands, args))
            if OPERANDS[kind].is_target]


def _assemble(instrs):
    """(bytes, line table) of [(opcode, args, old offset or None, position)],
    jump targets moved from old offsets to new.  Targets are fixed-width, so
    every instruction's new offset is known before any is encoded."""
    new_at, at = {}, 0
    for op, args, old, _ in instrs:
        if old is not None:
            new_at[old] = at
        at += len(pipc.encode_instr(op, args))
    data, lines = bytearray(), []
    for op, args, _, pos in instrs:
        args = list(args)
        for k, target in _targets(op, args):
            args[k] = new_at[target]
        if pos is not None and (not lines or lines[-1][1:] != tuple(pos)):
            lines.append((len(data),) + tuple(pos))
        data += pipc.encode_instr(op, args)
    return bytes(data), lines


def _rewrite_checked(checked, settings):
    from compiler.ir import checked as c, types as T
    inits = list(checked.globals)
    for s in settings:
        old = inits[s.slot]
        if s.type == 'String':
            value = c.StrLiteral([s.value], T.STRING, old.pos)
        else:
            kind = {bool: T.BOOLEAN, int: T.NUMBER, Rank: T.RANK, Suit: T.SUIT}[type(s.value)]
            raw = s.value.letter if kind == T.SUIT else int(s.value) if kind == T.RANK else s.value
            value = c.Literal(raw, kind, old.pos)
        inits[s.slot] = attrs.evolve(old, init=value)
    return attrs.evolve(checked, globals=inits)


def describe(settings):
    """The settings as plain data, for reports and records: {name: value text}."""
    return {s.name: s.text for s in settings}


def options(settings):
    """The --set options that make this variant again."""
    return [a for s in settings for a in ('--set', s.option())]
