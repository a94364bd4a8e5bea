"""The body of each operation, written once (as CPython's Python/bytecodes.c).

Each entry of BODIES is one instruction's meaning: the values it takes
from the stack and leaves there (`inputs -- outputs`, the top last), and
Python statements over them, its operands (named as they come, in the
table's order) and the machine.  pipvm/engine/cases.py writes from them
(checked in; tests/test_cases.py regenerates all of it and fails on a
difference):

- the VM's loop: the instructions the table marks `inline`, as branches
  of the if-chain in vm.py's Machine._run (between its generated-code
  lines), the others through a handler;
- in pipvm/engine/generated_cases.py, the handlers (`op_NAME`) of the
  instructions the table does not mark inline and that have a body here
  (the rest are Machine.op_NAME, or the quiet variant's, which decide or
  call and are written there once);
- every superinstruction, as its parts' bodies one after the other, the
  values passed between them in Python locals instead of on the stack
  (CPython's `macro(X) = A + B`);
- the closures of rules and orderings (pipvm/engine/pure.py) and of the
  quiet variant's checks: one closure factory per pure instruction, and
  the compositions pure.py asks for (a local's property); and bodies
  inside hand-written code (pure.py's shapes of rule, quiet.py's checks).

The words a body may use beyond Python: `machine` (the Machine), `consts`,
`globals_`, `frame` (the locals), `PART` (which part of a superinstruction
this is, for an error's position), `PUSH(x)` and `POP()` (only in a body
that uses the stack itself: `stack`), and the statements `JUMP(target)`,
`TICK()` (a step against --max-steps), `LOUD()` (a quiet instruction
cannot: run the ordinary code) and `RETURN(value)`; a body marked `keeps`
says with `KEEP()` or `DROP()` whether its input stays on the stack (so
that `a == b or ...` leaves its value where it was computed).  A counted input
`*values` is the top n values, n the operand named by `counted`.  A body
may hold another between the lines `# body: NAME word=expr ...` and
`# end of body` (cases.with_bodies), as hand-written code may (which may
also hold a macro so: `# body: TICK machine=machine n=len(rest)`).

Adding an opcode: give it a row in pipvm/isa/opcodes.py, a body here (or a
Machine.op_NAME if it decides, calls or shows), then run
`python -m pipvm.engine.cases` (docs/pipc.md, "Adding an instruction").
"""
import enum
import textwrap

import attrs

from pipvm.core import runtime
from pipvm.core.errors import Fault, PipError
from pipvm.core.runtime import as_rank, items


class Signal(enum.IntEnum):
    """What a handler returns besides a jump target: stop at a decision
    (PAUSE), run the frame CALL pushed (CALLED), run this instruction's
    ordinary code (LOUD: a quiet instruction can't).  Named members, compared
    by identity; negative only so that the loop's one test for a jump,
    `target >= 0`, leaves them out (`type(target) is int` cost 25-30 ns
    more at each jump a handler returns: docs/pipc.md)."""
    PAUSE = -1
    CALLED = -2
    LOUD = -3


PAUSE, CALLED, LOUD = Signal
PAUSED = object()           # what the loop returns at a decision
END = object()              # FOR_NEXT's end of the items


class InvalidProgram(PipError):
    """A validated file still made an operation fail (values of the wrong kind)."""


@attrs.frozen
class Body:
    name: str
    operands: tuple            # a name for each of the table's operands
    inputs: tuple              # popped, the top last
    outputs: tuple             # pushed, the top last
    text: str
    counted: object = None     # the operand counting the `*values` input
    stack: bool = False        # uses the stack itself (PUSH, POP, stack)
    loop_only: bool = False    # reads the loop's own state (frames, pc, instrs)
    keeps: bool = False        # its one input stays on the stack (KEEP()) or goes (DROP())


def _body(name, operands, effect, text, **kw):
    ins, outs = (side.split() for side in effect.split('--'))
    counted = None
    if ins and ins[0].startswith('*'):
        counted, ins = operands.split()[-1], ['values']
    return Body(name, tuple(operands.split()), tuple(ins), tuple(outs),
                text.strip('\n'), counted, **kw)


# A step counted against --max-steps (a loop's next round, a CALL; n at
# once for a quiet loop's rounds): the statement macro TICK(n).
MACROS = {'TICK': """
machine.steps_left -= n
if machine.steps_left < 0:
    raise StepLimit(machine.max_steps)""".strip(),
    # an aggregate's total after one more item's value (AGG_STEP's body, and
    # an aggregate in pure.py's closures)
    'AGG_TOTAL': """
if agg < AGG_MAX:               # count (a Boolean adds 1 or 0), sum
    total = int(total) + value
elif total is None or (value > total if agg == AGG_MAX else value < total):
    total = value""".strip()}


def _read(expr, out='value'):
    """`out = expr`, an error where it is None (a read of what is undefined)."""
    return "if (%s := %s) is None:\n    raise Fault('Undefined value', PART)" % (out, expr)


BODIES = {b.name: b for b in (
    # values and variables
    _body('CONST', 'k', '-- value', 'value = consts[k]'),
    _body('LIST_CONST', 'k', '-- value', 'value = list(consts[k])'),
    _body('LOAD_GLOBAL', 'g', '-- value', _read('globals_[g]')),
    _body('STORE_GLOBAL', 'g', 'value --', 'globals_[g] = value'),
    _body('LOAD_LOCAL', 'slot', '-- value', _read('frame[slot]')),
    _body('STORE_LOCAL', 'slot', 'value --', 'frame[slot] = value'),
    _body('LOAD_BUILTIN', 'b', '-- value', """
if b == 0:
    value = machine.players
elif b == 1:
%s
else:
    value = list(machine.deck)""" % textwrap.indent(_read('machine.teams'), '    ')),
    _body('LOAD_PROP', 'prop', 'obj -- value', _read('getattr(obj, prop)')),
    _body('STORE_PROP', 'prop', 'value obj --', 'setattr(obj, prop, value)'),
    _body('LIST_PROP', 'k', 'lst -- value', 'value = list_prop(lst, k, PART)'),
    _body('DEFINED_GLOBAL', 'g', '-- res', 'res = globals_[g] is not None'),
    _body('DEFINED_LOCAL', 'slot', '-- res', 'res = frame[slot] is not None'),
    _body('DEFINED_BUILTIN', 'b', '-- res', 'res = b != 1 or machine.teams is not None'),
    _body('DEFINED_PROP', 'prop', 'obj -- res', 'res = getattr(obj, prop) is not None'),
    # the stack
    _body('POP', '', 'a --', 'pass'),
    _body('DUP', '', 'a -- a copy', 'copy = a'),
    _body('SWAP', '', 'a b -- b a', 'pass'),
    _body('DROP', 'n', '*values --', 'pass'),
    # operators
    _body('ADD', '', 'a b -- res', 'res = int(a) + b'),
    _body('SUB', '', 'a b -- res', 'res = int(a) - b'),
    _body('MUL', '', 'a b -- res', 'res = runtime.multiply(int(a), b)'),
    _body('DIV', '', 'a b -- res', 'res = runtime.divide(int(a), int(b))'),
    _body('EQ', '', 'a b -- res', 'res = a == b'),
    _body('NE', '', 'a b -- res', 'res = a != b'),
    _body('LT', '', 'a b -- res', 'res = a < b'),
    _body('LE', '', 'a b -- res', 'res = a <= b'),
    _body('GT', '', 'a b -- res', 'res = a > b'),
    _body('GE', '', 'a b -- res', 'res = a >= b'),
    _body('IN', '', 'a b -- res', 'res = contains(b, a)'),
    _body('NOT', '', 'a -- res', 'res = not a'),
    _body('FORMAT', 'n', '*values -- res', "res = joined(values)"),
    # cards and lists
    _body('MAKE_CARD', '', 'a b -- res', 'res = card_of(machine.deck, a, b)'),
    _body('MAKE_CARDS', '', 'a b -- res', 'res = make_cards(machine.deck, a, b)'),
    _body('RANGE', '', 'a b -- res', 'res = runtime.rank_range(int(a), int(b))'),
    _body('SEQ', '', 'a b -- res', 'res = items(a) + items(b)'),
    _body('WILD_RANK', '', 'a -- res', 'res = wild_rank(machine.deck, a)'),
    _body('WILD_SUIT', '', 'a -- res', 'res = wild_suit(machine.deck, a)'),
    _body('BUILD_LIST', 'n', '*values -- res', 'res = build_list(values)'),
    _body('NEW_AREA', 'mode', 'name -- area',
          'area = Area(name, [], bool(mode & AREA_FACEDOWN), bool(mode & AREA_SQUAREDUP))'),
    # control
    _body('JUMP', 'target', '--', """
if target < pc:
    TICK()
JUMP(target)""", loop_only=True),
    _body('JUMP_IF_FALSE', 'target', 'cond --', """
if not cond:
    JUMP(target)"""),
    _body('JUMP_IF_FALSE_OR_POP', 'target', 'cond --', """
if not cond:
    KEEP()
    JUMP(target)
else:
    DROP()""", keeps=True),
    _body('JUMP_IF_TRUE_OR_POP', 'target', 'cond --', """
if cond:
    KEEP()
    JUMP(target)
else:
    DROP()""", keeps=True),
    _body('FOR_ITER', '', 'lst -- it', 'it = iter(list(lst))'),
    _body('FOR_ITER_FROM', '', 'lst start -- it', """
for i, v in enumerate(lst):
    if v == start:
        it = iter(lst[i:] + lst[:i])
        break
else:
    raise Fault('Starting element is not in list', PART)"""),
    _body('FOR_NEXT', 'slot target', '--', """
item = next(stack[-1], END)
if item is END:
    POP()
    JUMP(target)
else:
    frame[slot] = item""", stack=True),
    _body('RETURN_VALUE', '', 'value --', 'RETURN(value)', loop_only=True),
    _body('RETURN', '', '--', """
frames.pop()
if not frames:
    RETURN(None)
loaded, pc, stack, frame = frames[-1]
instrs = loaded.instrs if loud else loaded.quiet
push, pop = stack.append, stack.pop""", stack=True, loop_only=True),
    # the game
    _body('MESSAGE_ALL', '', 'text --', """
if not isinstance(text, str):   # only from a damaged .pipc: never shown (a Text is one)
    raise TypeError('message of %s' % type(text).__name__)
machine.emit('message', text)"""),
    _body('CANPLAY', 'rule', 'player dest -- res', """
found = machine.playable(rule, player, cards_of(dest))
machine.canplay_found = found
res = bool(found)"""),
    # extension: is there a set of cards a rule for sets allows (PLAY_SET's sets)
    _body('CANPLAY_SET', 'rule', 'player dest -- res', """
res = any(machine.allowed_sets(rule, player, cards_of(dest)))"""),
    # extension: options from a list, gathered for ASK_FROM (Machine.op_ASK_FROM)
    _body('OPTION', 'k', 'options text asked -- options', '''
if asked:
    options.append((text, k, None, None))'''),
    _body('OPTION_ITEM', 'k slot', 'options it text asked -- options it', '''
if asked:
    options.append((text, k, slot, frame[slot]))'''),
    # extension: values for each player or team, by their number
    _body('LOAD_OWN', 'k', 'obj -- value', _read('obj.own.get(k)')),
    _body('STORE_OWN', 'k', 'value obj --', 'obj.own[k] = value'),
    _body('DEFINED_OWN', 'k', 'obj -- res', 'res = obj.own.get(k) is not None'),
    _body('INIT_OWN', 'k', 'value --', """
owners = machine.players if machine.program.owns[k][0] == 'Player' else machine.teams or ()
for o in owners:
    o.own[k] = value"""),
    # extension: aggregates (their loop is FOR_ITER/FOR_NEXT's)
    _body('AGG_START', 'agg', '-- total', 'total = 0 if agg < AGG_MAX else None'),
    _body('AGG_STEP', 'agg target', 'value --', """
total = stack[-2]               # under the iteration state
# body: AGG_TOTAL agg=agg total=total value=value
# end of body
stack[-2] = total
JUMP(target)""", stack=True),
    _body('AGG_END', '', 'total -- total', """
if total is None:
    raise Fault("Can't get item from empty list", PART)"""),
    # `(max c in L by O)` is L's last card as `order L by O` sorts it
    _body('PICK_BY', 'ordering agg', 'cards -- card', """
if not cards:
    raise Fault("Can't get item from empty list", PART)
card = machine.ordered(ordering, cards)[-1 if agg == AGG_MAX else 0]"""),
    # the quiet variant's (pipvm/engine/quiet.py): messages nobody reads
    # whose operands are locals only need them defined
    _body('QUIET_LOCALS', 'slots after', '--', """
for slot in slots:
    # body: DEFINED_LOCAL slot=slot res=defined
    # end of body
    if not defined:
        LOUD()
        break
else:
    JUMP(after)""", loop_only=True),
)}


# Operations too long for a body line, called from it (each written once).
def fault(message, part):
    """`raise Fault(message, part)` as an expression: a closure's one-line
    form of a body that raises when a value is None (cases._checked)."""
    raise Fault(message, part)


def contains(lst, x):
    """`x in lst`: a Rank, Number or Suit also matches a card that has it."""
    kind = type(x)
    if kind is runtime.Rank or kind is int or kind is runtime.Suit:
        for item in lst:
            if type(item) is runtime.Card:
                if kind is runtime.Suit:
                    hit = item.suit is x
                elif kind is runtime.Rank:
                    hit = as_rank(item.rank) == x
                else:
                    hit = item.rank == x
            else:
                hit = item == x
            if hit:
                return True
        return False
    return any(item is x or item == x for item in lst)


def build_list(values):
    """A list literal: its items, a list among them spliced in."""
    res = []
    for v in values:
        if type(v) is list:
            res += v
        else:
            res.append(v)
    return res


def card_of(deck, rank, suit):
    """The card rank~suit.  A call, so that a closure evaluates the suit's
    expression before it checks the rank, as the loop does (both are on
    its stack first): an undefined suit is the error, not a bad rank."""
    return deck[runtime.card_index(as_rank(rank), suit)]


def make_cards(deck, ranks, suits):
    suits = items(suits)
    return [deck[runtime.card_index(as_rank(r), s)] for r in items(ranks) for s in suits]


def wild_rank(deck, suits):
    suits = items(suits)
    return [c for c in deck if c.suit in suits]


def wild_suit(deck, ranks):
    ranks = [as_rank(r) for r in items(ranks)]
    return [c for c in deck if as_rank(c.rank) in ranks]
