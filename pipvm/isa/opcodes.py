"""The instruction set: every opcode the VM runs defined once, in one table
(INSTRUCTIONS), with its number, operand format, stack effect, what it reads,
its properties and meaning, as Lua's lopcodes.h and CPython's Lib/opcode.py.
Three kinds share the one numbering: the opcodes of a .pipc file (OPCODES,
1-89), superinstructions the VM fuses from them when it loads a program
(FUSED, 100-119) and the instructions loading makes otherwise (LOAD_TIME,
200-204: a rewritten PLAY, the quiet variant).  Only the first may appear in
a file (`in_file`); the validator refuses the others.  The compiler's
emitter, the .pipc validator, the VM's dispatch, the closures' translator,
the quiet variant, the fusion pass and the disassembler are derived from it;
what each instruction does is its body, written once in
pipvm/engine/bodies.py (docs/pipc.md: "Where each operation's meaning is
written").

Operand kinds are data too (OPERANDS below): how each is encoded, checked
against the program, shown by `pipvm dis` and decoded for the VM; nothing
else knows what an operand kind means.  See docs/pipc.md for the encoding.
"""
import attrs

from pipvm.core import runtime
from pipvm.isa.constants import show_const


@attrs.frozen
class Opcode:
    code: int
    name: str
    operands: tuple            # operand kinds, in encoding order
    pops: object               # int, or a function of the first operand
    pushes: int
    doc: str
    branch: object = None      # net stack change when the jump is taken
    ends: bool = False         # control never falls through to the next instruction
    in_file: bool = True       # may appear in a .pipc (False: made when the VM loads one)
    reads: tuple = ()          # the game state it reads: READS words
    pure: bool = False         # an expression's part: changes nothing, shows nothing, no control
    fails: bool = False        # can fail in a checked program (raise Fault: an undefined value, ...)
    makes: bool = False        # pushes a new list or object each time it runs
    shows: bool = False        # shows text (nobody reads it in `pipvm sim`: only its failure matters)
    inline: bool = False       # the VM's loop runs it inline (the rest have a handler)
    parts: tuple = ()          # a superinstruction's opcodes, in order

    def stack_pops(self, args):
        return self.pops(args[0]) if callable(self.pops) else self.pops


# What an instruction can read, besides its operands on the stack.
READS = ('const', 'local', 'global', 'builtin', 'prop', 'list', 'deck', 'hand')
FLAGS = ('pure', 'fails', 'makes', 'shows', 'inline')


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



@attrs.frozen
class OperandKind:
    """One kind of operand, as Lua's opmode and CPython's hasconst/hasjrel."""
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
             'PLAY_SET': ((PLAY_PASS, 'or pass'),)}


def _check_mode(p, c, op, arg):
    allowed = sum(bit for bit, _ in MODE_BITS[op])
    return 'bad mode %d' % arg if arg & ~allowed else None


MAX_COUNT = 1 << 20

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
    OperandKind('mode', 'option bits of DEAL, NEW_AREA or PLAY_SET', 0, _check_mode,
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
    _code_kind('action'), _code_kind('rule'), _code_kind('ordering'),
    # Fixed width, so a forward jump can be patched when its target is
    # emitted; whether it lands on an instruction is checked with the code.
    OperandKind('jump', 'byte offset of an instruction in the same code', 4,
                lambda p, c, op, arg: None, lambda p, c, op, arg: 'to %d' % arg,
                load=lambda arg, index: index[arg], is_target=True),
)}
CODE_KINDS = ('action', 'rule', 'ordering')
TARGET_KINDS = tuple(k.name for k in OPERANDS.values() if k.is_target)





ASKS = ('ASK', 'ASK_FROM')      # the instructions followed by one JUMP per question


def ask_table(instrs, i):
    """The JUMPs an ASK (or ASK_FROM) at instrs[i] chooses between: the n
    instructions after it."""
    return instrs[i + 1:i + 1 + instrs[i].args[0]]


def _op(code, name, operands, pops, pushes, doc, reads='', flags='', **kw):
    """An opcode; reads and flags are words of READS and FLAGS."""
    assert set(reads.split()) <= set(READS) and set(flags.split()) <= set(FLAGS), name
    return Opcode(code, name, tuple(operands.split()), pops, pushes, doc,
                  reads=tuple(reads.split()), **{f: True for f in flags.split()}, **kw)


_FILE_OPCODES = (
    # values and variables
    _op(1, 'CONST', 'const', 0, 1, 'push a constant (Number, Boolean, String, Rank, Suit or Card)',
        'const', 'pure inline'),
    _op(2, 'LIST_CONST', 'const', 0, 1, 'push a new list holding a constant list\'s items',
        'const', 'pure makes'),
    _op(3, 'LOAD_GLOBAL', 'global', 0, 1, 'push a global; error if it is undefined',
        'global', 'pure fails inline'),
    _op(4, 'STORE_GLOBAL', 'global', 1, 0, 'pop a value into a global', flags='inline'),
    _op(5, 'LOAD_LOCAL', 'local', 0, 1, 'push a local; error if it is undefined',
        'local', 'pure fails inline'),
    _op(6, 'STORE_LOCAL', 'local', 1, 0, 'pop a value into a local', flags='inline'),
    _op(7, 'LOAD_BUILTIN', 'builtin', 0, 1, 'push players, teams or a new list of the 52 cards',
        'builtin', 'pure fails'),      # (standard's list is new, but always equal)
    _op(8, 'LOAD_PROP', 'prop', 1, 1, 'replace an object by its property; error if undefined',
        'prop', 'pure fails inline'),
    _op(9, 'STORE_PROP', 'prop', 2, 0, 'pop an object, then the value to store in its property'),
    _op(10, 'LIST_PROP', 'listprop', 1, 1, 'replace a list by its size, first or last item',
        'list', 'pure fails inline'),
    _op(11, 'DEFINED_GLOBAL', 'global', 0, 1, 'push whether a global is defined', 'global', 'pure'),
    _op(12, 'DEFINED_LOCAL', 'local', 0, 1, 'push whether a local is defined', 'local', 'pure'),
    _op(13, 'DEFINED_BUILTIN', 'builtin', 0, 1, 'push whether players/teams/standard is defined',
        'builtin', 'pure'),
    _op(14, 'DEFINED_PROP', 'prop', 1, 1, 'replace an object by whether its property is defined',
        'prop', 'pure'),
    # the stack
    _op(15, 'POP', '', 1, 0, 'discard the top of the stack', flags='pure'),
    _op(16, 'DUP', '', 1, 2, 'duplicate the top of the stack', flags='pure'),
    _op(17, 'SWAP', '', 2, 2, 'exchange the two top items', flags='pure'),
    _op(18, 'DROP', 'count', lambda n: n, 0, 'discard n items (loops a skip leaves)', flags='pure'),
    # operators
    _op(20, 'ADD', '', 2, 1, 'a + b', flags='pure'),
    _op(21, 'SUB', '', 2, 1, 'a - b', flags='pure'),
    _op(22, 'MUL', '', 2, 1, 'a * b', flags='pure'),
    _op(23, 'DIV', '', 2, 1, 'a / b, truncated toward zero; error on zero', flags='pure fails'),
    _op(24, 'EQ', '', 2, 1, 'a == b', flags='pure'),
    _op(25, 'NE', '', 2, 1, 'a != b', flags='pure'),
    _op(26, 'LT', '', 2, 1, 'a < b', flags='pure'),
    _op(27, 'LE', '', 2, 1, 'a <= b', flags='pure'),
    _op(28, 'GT', '', 2, 1, 'a > b', flags='pure'),
    _op(29, 'GE', '', 2, 1, 'a >= b', flags='pure'),
    _op(30, 'IN', '', 2, 1, 'a in list b (a Rank, Suit or Number matches a card having it)',
        flags='pure'),
    _op(31, 'NOT', '', 1, 1, 'not a', flags='pure'),
    _op(32, 'FORMAT', 'count', lambda n: n, 1, 'join n values as one String', flags='pure'),
    # cards and lists
    _op(40, 'MAKE_CARD', '', 2, 1, 'rank, suit -> the card', 'deck', 'pure'),
    _op(41, 'MAKE_CARDS', '', 2, 1, 'ranks, suits -> new list of their cards, ranks outer',
        'deck', 'pure makes'),
    _op(42, 'RANGE', '', 2, 1, 'low, high -> new list of the ranks from low to high',
        flags='pure makes'),
    _op(43, 'SEQ', '', 2, 1, 'a, b -> new list of the items of a then of b', flags='pure makes'),
    _op(44, 'WILD_RANK', '', 1, 1, 'suits -> new list of the cards now of those suits (%~S)',
        'deck', 'pure makes'),
    _op(45, 'WILD_SUIT', '', 1, 1, 'ranks -> new list of the cards now of those ranks (R~%)',
        'deck', 'pure makes'),
    _op(46, 'BUILD_LIST', 'count', lambda n: n, 1, 'new list of the items of n values',
        flags='pure makes'),
    _op(47, 'NEW_AREA', 'mode', 1, 1, 'name -> a new empty area (mode: AREA_* bits)',
        flags='makes'),
    # control
    _op(50, 'JUMP', 'jump', 0, 0, 'continue at the target', branch=0, ends=True, flags='inline'),
    _op(51, 'JUMP_IF_FALSE', 'jump', 1, 0, 'pop; jump if False', branch=-1, flags='inline'),
    _op(52, 'JUMP_IF_FALSE_OR_POP', 'jump', 1, 0, 'if False jump (keeping it), else pop', branch=0),
    _op(53, 'JUMP_IF_TRUE_OR_POP', 'jump', 1, 0, 'if True jump (keeping it), else pop', branch=0,
        flags='inline'),
    _op(54, 'FOR_ITER', '', 1, 1, 'list -> iteration state over a snapshot of it', flags='makes'),
    _op(55, 'FOR_ITER_FROM', '', 2, 1,
        'list, start -> iteration state beginning at start and wrapping around',
        flags='makes fails'),
    _op(56, 'FOR_NEXT', 'local jump', 1, 1,
        'store the next item in the local, or drop the state and jump', branch=-1, flags='inline'),
    _op(57, 'CALL', 'action', 0, 0, 'run an action in a new frame'),
    _op(58, 'RETURN', '', 0, 0, 'end an action (or the initialisers)', ends=True, flags='inline'),
    _op(59, 'RETURN_VALUE', '', 1, 0, 'end a rule or ordering with its value', ends=True,
        flags='inline'),
    # the game
    _op(60, 'ASK', 'count', lambda n: 2 * n + 1, 0,
        'player, then text and enabled flag per question -> run the chosen one: '
        'continue at the chosen one of the n JUMPs that follow', flags='fails'),
    _op(61, 'MESSAGE', '', 2, 0, 'text, player(s) or team -> "NAME: text" to each', flags='shows'),
    _op(62, 'MESSAGE_ALL', '', 1, 0, 'text -> show it to everyone', flags='shows'),
    _op(63, 'WINNER', '', 1, 0, 'end the game won by a player or team'),
    # extension: options from a list (85-92 are this branch's numbers)
    _op(85, 'OPTION', 'question', 3, 1,
        'options, text, asked -> options (with the question if asked)'),
    _op(86, 'OPTION_ITEM', 'question local', 4, 2,
        "options, iteration state, text, asked -> the same two (with the question for the "
        "local's item, if asked)"),
    _op(87, 'ASK_FROM', 'count', 2, 0,
        'player, options -> run the chosen one: continue at its question\'s one of the n '
        'JUMPs that follow, its item (if any) stored in its local', flags='fails'),
    # extension: several cards at once
    _op(88, 'PLAY_SET', 'rule mode', 2, 1,
        'player, destination -> the player chooses a set of cards of one rank the rule allows '
        '(or passes, mode PLAY_PASS); they move; push whether the player passed',
        'hand', 'fails'),
    _op(89, 'CANPLAY_SET', 'rule', 2, 1,
        'player, destination -> is there a set of cards PLAY_SET would offer (no pass)',
        'hand', 'pure fails'),
    _op(70, 'DEAL', 'mode', lambda m: 2 if m & DEAL_ALL else 3, 0,
        'source, destination[, count] -> deal cards from the front (mode: DEAL_* bits)'),
    _op(71, 'DEAL_CARD', '', 3, 0, 'card, source, destination -> move that card', flags='fails'),
    _op(72, 'PLAY', 'rule', 2, 0,
        'player, destination -> the player chooses a card the rule allows; it moves',
        'hand', 'fails'),
    _op(73, 'CANPLAY', 'rule', 2, 1, 'player, destination -> can any card be played',
        'hand', 'pure fails'),
    _op(74, 'ORDER', 'ordering', 1, 0, 'card list -> sort it stably by the ordering', flags='fails'),
    _op(75, 'ROTATE', '', 1, 0, 'move a list\'s first item to its end'),
    _op(76, 'SHUFFLE', '', 1, 0, 'shuffle a list'),
    # extension: values for each player or team (the program's owns table)
    _op(77, 'LOAD_OWN', 'own', 1, 1,
        "replace a player or team by its value for each player/team; error if undefined",
        'prop', 'pure fails'),
    _op(78, 'STORE_OWN', 'own', 2, 0, 'pop a player or team, then the value to store as its own'),
    _op(79, 'DEFINED_OWN', 'own', 1, 1,
        'replace a player or team by whether its value for each player/team is defined',
        'prop', 'pure'),
    _op(80, 'INIT_OWN', 'own', 1, 0, 'pop a value: every player (or team) starts with it'),
    # extension: aggregates; the loop is FOR_ITER/FOR_NEXT's, its total under the state
    _op(81, 'AGG_START', 'agg', 0, 1, 'push the total an aggregate starts from (max, min: none)'),
    _op(82, 'AGG_STEP', 'agg jump', 1, 0,
        'pop a value; count it into the total under the iteration state; jump back',
        branch=-1, ends=True),
    _op(83, 'AGG_END', '', 1, 1, 'keep the total of a max or min; error if there was no item',
        flags='pure fails'),
    _op(84, 'PICK_BY', 'ordering agg', 1, 1,
        'card list -> its last (max) or first (min) card as `order` by the ordering would '
        'sort it; error if it is empty', flags='pure fails'),
)
_FILE_BY_NAME = {op.name: op for op in _FILE_OPCODES}


def _effect(parts, first):
    """(pops, pushes, depth before the last part) of running parts in order,
    the first operand being `first`, all relative to the depth they start at."""
    depth = low = before_last = 0
    for part in parts:
        before_last = depth
        depth -= part.stack_pops((first,))
        low = min(low, depth)
        depth += part.pushes
    return -low, depth - low, before_last


def _fused(code, name, parts, doc, flags=''):
    """A superinstruction: a run of file opcodes the VM executes as one.  It
    never appears in a .pipc file; the VM fuses a run when it loads a program
    if no jump lands inside it.  Its operands are its parts' operands, in
    order; its stack effect, what it reads and its properties are theirs."""
    parts = tuple(_FILE_BY_NAME[p] for p in parts.split())
    assert not any(callable(p.pops) for p in parts[1:]), name     # pops follow the first operand
    pops, pushes, before_last = _effect(parts, 1)
    if callable(parts[0].pops):
        pops = lambda n, parts=parts: _effect(parts, n)[0]
    last = parts[-1]
    return Opcode(code, name, tuple(k for p in parts for k in p.operands), pops, pushes, doc,
                  branch=None if last.branch is None else before_last + last.branch,
                  ends=last.ends, in_file=False,
                  reads=tuple(dict.fromkeys(r for p in parts for r in p.reads)),
                  pure=all(p.pure for p in parts), fails=any(p.fails for p in parts),
                  makes=any(p.makes for p in parts), shows=any(p.shows for p in parts),
                  inline='inline' in flags.split(), parts=parts)


# The commonest fall-through runs over the examples and the benchmark programs,
# as `python benchmarks/engines.py --opcodes` counts them (benchmarks/README.md).
_FUSED = (
    _fused(100, 'LOAD_LOCAL_PROP', 'LOAD_LOCAL LOAD_PROP', "push a local's property", 'inline'),
    _fused(101, 'EQ_CONST', 'CONST EQ', 'a == a constant'),
    _fused(102, 'EQ_GLOBAL', 'LOAD_GLOBAL EQ', 'a == a global', 'inline'),
    _fused(103, 'EQ_GLOBAL_JUMP_IF_FALSE', 'LOAD_GLOBAL EQ JUMP_IF_FALSE', 'jump if a != a global',
           'inline'),
    _fused(104, 'STORE_LOCAL_ADD_CONST', 'LOAD_LOCAL CONST ADD STORE_LOCAL',
           'store a local + a constant in a local (`i = i + 1`)'),
    _fused(105, 'EQ_JUMP_IF_FALSE', 'EQ JUMP_IF_FALSE', 'jump if a != b'),
    _fused(106, 'EQ_RETURN', 'EQ RETURN_VALUE', 'return a == b', 'inline'),
    _fused(107, 'LOAD_LOCAL_LIST_PROP', 'LOAD_LOCAL LIST_PROP',
           "push a local list's size, first or last item"),
    _fused(108, 'FORMAT_MESSAGE_ALL', 'FORMAT MESSAGE_ALL', 'join n values and show them'),
    _fused(109, 'EQ_CONST_OR', 'CONST EQ JUMP_IF_TRUE_OR_POP',
           'if a == a constant, replace a by True and jump, else pop', 'inline'),
    _fused(111, 'EQ_CONST_AND', 'CONST EQ JUMP_IF_FALSE_OR_POP',
           'if a != a constant, replace a by False and jump, else pop'),
    _fused(110, 'GT_JUMP_IF_FALSE', 'GT JUMP_IF_FALSE', 'jump unless a > b'),
    _fused(112, 'GE_CONST_AND', 'CONST GE JUMP_IF_FALSE_OR_POP',
           'if a < a constant, replace a by False and jump, else pop'),
    _fused(113, 'LOAD_GLOBAL_PROP', 'LOAD_GLOBAL LOAD_PROP', "push a global's property", 'inline'),
    _fused(114, 'LOAD_LOCAL_ITEM_PROP', 'LOAD_LOCAL LIST_PROP LOAD_PROP',
           "push a property of a local list's first or last item", 'inline'),
    _fused(115, 'ADD_CONST', 'CONST ADD', 'a + a constant'),
    _fused(116, 'EQ_CONST_JUMP_IF_FALSE', 'CONST EQ JUMP_IF_FALSE', 'jump if a != a constant'),
    _fused(117, 'CANPLAY_JUMP_IF_FALSE', 'CANPLAY JUMP_IF_FALSE',
           'jump unless the player can play a card the rule allows'),
    _fused(118, 'LOAD_GLOBAL_PROP_LIST_PROP', 'LOAD_GLOBAL LOAD_PROP LIST_PROP',
           "push the size, first or last item of a global's list property (`pile->cards->top`)"),
    _fused(119, 'LOAD_BUILTIN_LIST_PROP', 'LOAD_BUILTIN LIST_PROP',
           'push the size, first or last item of players, teams or standard'),
)


def _made(code, name, pops, pushes, doc, reads='', flags=''):
    """An instruction only loading makes (its operand is the VM's, never encoded)."""
    return _op(code, name, '', pops, pushes, doc, reads, flags, in_file=False)


# What loading makes besides superinstructions: a PLAY rewritten
# (pipvm/engine/fusion.py) and the quiet variant's instructions
# (pipvm/engine/quiet.py), which run when nobody reads the output.
_LOAD_TIME = (
    _made(200, 'QUIET_MESSAGE', 0, 0,
          "check a message statement's operands by closures, for their failures only, "
          'and jump past it', 'local', 'fails'),
    _made(201, 'QUIET_LOOP', 1, 0,
          'run the remaining rounds of a loop that only shows messages at once, counting '
          'their steps', 'local', 'fails'),
    _made(202, 'PLAY_AGAIN', 2, 0, 'PLAY right after the CANPLAY that found its cards',
          'hand', 'fails'),
    _made(203, 'QUIET_LOCALS', 0, 0,
          'jump past messages whose operands are locals if they are all defined',
          'local', 'fails inline'),
    _made(204, 'QUIET_FOR', 1, 0, 'FOR_ITER and the QUIET_LOOP after it, from the list',
          'local', 'fails'),
)

# The one table: every instruction the VM runs, by number.
INSTRUCTIONS = _FILE_OPCODES + _FUSED + _LOAD_TIME
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
