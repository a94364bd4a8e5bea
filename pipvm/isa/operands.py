"""The kinds of operand an instruction takes (OPERANDS), as Lua's opmode and
CPython's hasconst/hasjrel: how each is encoded, checked against the
program, shown by `pipvm dis` and decoded for the VM; nothing else knows
what an operand kind means.  Also the bits and words some operands hold.
See docs/pipc.md for the encoding."""
from pipvm.core import plain
from pipvm.core import runtime
from pipvm.isa.constants import show_const

# Bits of the DEAL operand.
DEAL_ALL = 1           # no count on the stack: deal every card of the source
DEAL_TO_PLAYERS = 2    # the destination is a PlayerList: deal round-robin
# Bits of the PLAY_SET operand (extension).
PLAY_PASS = 1          # the player may pass instead
# The `agg` operand (an extension): which aggregate; from AGG_MAX on, the
# total starts as none and a value replaces it.
AGGREGATES = ('count', 'sum', 'max', 'min')
AGG_COUNT, AGG_SUM, AGG_MAX, AGG_MIN = range(4)
# Bits of the NEW_AREA operand.
AREA_FACEDOWN = 1
AREA_SQUAREDUP = 2

MAX_COUNT = 1 << 20


@plain.frozen
class OperandKind:
    """One kind of operand."""
    name: str
    doc: str
    width: int                 # bytes in the file: 0 for an unsigned LEB128 varint
    check: object              # (program, code, opname, arg) -> why it is invalid, or None
    show: object               # (program, code, opname, arg) -> its text in `pipvm dis`
    load: object = None        # (arg, jump index) -> the VM's operand; None: the number
    is_target: bool = False    # a byte offset in the same code: control may continue there


def _below(table, what):
    """A check that the operand indexes one of table(program, code)."""
    return lambda p, c, op, arg: None if arg < len(table(p, c)) else 'no %s %d' % (what, arg)


def _named(names):
    return lambda p, c, op, arg: '%d (%s)' % (arg, names(p, c)[arg])


def _check_const(p, c, op, arg):
    if arg >= len(p.consts):
        return 'no constant %d' % arg
    if (type(p.consts[arg]) is tuple) != (op == 'LIST_CONST'):
        return 'constant %d has the wrong kind' % arg
    return None


def _code_kind(kind):
    def check(p, c, op, arg):
        ok = arg < len(p.codes) and p.codes[arg].kind == kind
        return None if ok else 'no %s %d' % (kind, arg)
    return OperandKind(kind, 'index of a code object of this kind', 0, check,
                       lambda p, c, op, arg: '%d (%s)' % (arg, p.codes[arg].name))


# Bits of a `mode` operand, by opcode: (bit, the word `pipvm dis` shows).
MODE_BITS = {'DEAL': ((DEAL_ALL, 'all'), (DEAL_TO_PLAYERS, 'to players')),
             'NEW_AREA': ((AREA_FACEDOWN, 'facedown'), (AREA_SQUAREDUP, 'squaredup')),
             'NEW_GROUP': ((AREA_FACEDOWN, 'facedown'), (AREA_SQUAREDUP, 'squaredup')),
             'PLAY_SET': ((PLAY_PASS, 'or pass'),)}


def _check_mode(p, c, op, arg):
    allowed = sum(bit for bit, _ in MODE_BITS[op])
    return 'bad mode %d' % arg if arg & ~allowed else None


OPERANDS = {k.name: k for k in (
    OperandKind('const', 'index into the constant pool', 0, _check_const,
                lambda p, c, op, arg: '%d (%s)' % (arg, show_const(p.consts[arg]))),
    OperandKind('global', 'global variable slot', 0, _below(lambda p, c: p.global_names, 'global'),
                _named(lambda p, c: p.global_names)),
    OperandKind('local', 'slot in the running frame', 0, _below(lambda p, c: c.local_names, 'local'),
                _named(lambda p, c: c.local_names)),
    OperandKind('builtin', '0 players, 1 teams, 2 standard', 0,
                _below(lambda p, c: runtime.BUILTINS, 'builtin'),
                lambda p, c, op, arg: runtime.BUILTINS[arg]),
    OperandKind('prop', 'stored property (runtime.PROPERTIES)', 0,
                _below(lambda p, c: runtime.PROPERTIES, 'property'),
                lambda p, c, op, arg: '%s.%s' % runtime.PROPERTIES[arg][:2],
                load=lambda arg, index: runtime.PROPERTY_NAMES[arg]),
    OperandKind('listprop', '0 size, 1 first/top, 2 last/bottom', 0,
                _below(lambda p, c: runtime.LIST_PROPERTIES, 'list property'),
                lambda p, c, op, arg: runtime.LIST_PROPERTIES[arg]),
    OperandKind('count', 'how many stack items', 0,
                lambda p, c, op, arg: None if 0 < arg <= MAX_COUNT else 'bad count %d' % arg,
                lambda p, c, op, arg: str(arg)),
    OperandKind('args', "how many arguments a call passes (an action's may be none)", 0,
                lambda p, c, op, arg: None if 0 <= arg <= MAX_COUNT else 'bad count %d' % arg,
                lambda p, c, op, arg: str(arg)),
    OperandKind('mode', 'option bits of DEAL, NEW_AREA, NEW_GROUP or PLAY_SET', 0, _check_mode,
                lambda p, c, op, arg: ', '.join(w for bit, w in MODE_BITS[op] if arg & bit) or '-'),
    OperandKind('question', "a question of the ASK_FROM that follows (its JUMP's index, from 0)",
                0, lambda p, c, op, arg: None if arg < MAX_COUNT else 'bad question %d' % arg,
                lambda p, c, op, arg: str(arg)),
    OperandKind('agg', '0 count, 1 sum, 2 max, 3 min (PICK_BY: max or min)', 0,
                lambda p, c, op, arg: None if arg < len(AGGREGATES) and (
                    op != 'PICK_BY' or arg >= AGG_MAX) else 'bad aggregate %d' % arg,
                lambda p, c, op, arg: AGGREGATES[arg]),
    OperandKind('own', 'a value for each player or team (the program\'s owns table)', 0,
                _below(lambda p, c: p.owns, 'value for each player or team'),
                lambda p, c, op, arg: '%d (%s->%s)' % ((arg,) + tuple(p.owns[arg][:2]))),
    OperandKind('ending', '0 winners, 1 loser(s), 2 ranking (extension)', 0,
                lambda p, c, op, arg: None if arg < 3 else 'bad ending %d' % arg,
                lambda p, c, op, arg: ('winner', 'loser', 'ranking')[arg]),
    _code_kind('action'), _code_kind('rule'), _code_kind('ordering'),
    # Fixed width, so a forward jump can be patched when its target is
    # emitted; whether it lands on an instruction is checked with the code.
    OperandKind('jump', 'byte offset of an instruction in the same code', 4,
                lambda p, c, op, arg: None, lambda p, c, op, arg: 'to %d' % arg,
                load=lambda arg, index: index[arg], is_target=True),
)}
CODE_KINDS = ('action', 'rule', 'ordering')
TARGET_KINDS = tuple(k.name for k in OPERANDS.values() if k.is_target)
