"""The instruction set: one record per instruction the VM runs (INSTRUCTIONS),
as Lua's lopcodes.h and CPython's Python/bytecodes.c: its number, name,
operands (a name and a kind each), stack effect, what it reads, its
properties, its meaning in words and its body, all in one place.

Numbers are assigned by the table's order: each section starts at a number
of its own and counts up (the gaps keep the numbers of files written
before).  Three kinds share the one numbering: the opcodes of a .pipc file
(1-93, 95-99), superinstructions the VM fuses from them when it loads a program
(100-121) and the instructions loading makes otherwise (200-205: a
rewritten PLAY, the quiet variant, a dealing loop at once).  Only the first may appear in a file
(`in_file`); the validator refuses the others.  pipvm/isa/opcodes.py
derives the tables the rest of the tree reads (OP, BY_CODE, ...), and
pipvm/engine/cases.py writes the VM's loop branches, handlers,
superinstructions and closures from the bodies.

An effect `inputs -- outputs` names the values taken from the stack and
left there, the top last, when control falls through; a jump's effect when
taken is `branch` (by default the same; a `keeps` body's input stays when
it jumps).  A counted input `*values` is the top n values, n its last
operand.  A body is Python statements over its inputs, outputs and
operands; beyond Python it may use `machine` (the Machine), `consts`,
`globals_`, `frame` (the locals), `PART` (which part of a superinstruction
this is, for an error's position), and the statements `JUMP(target)`,
`TICK()` (a step against --max-steps), `LOUD()` (a quiet instruction
cannot: run the ordinary code) and `RETURN(value)`; a `keeps` body says
with `KEEP()` or `DROP()` whether its input stays on the stack.  A body
marked `stack` moves the stack itself, with `POP()`, `PUSH(x)` and
`stack`, as its effect says (tests/test_effects.py checks every body
against its effect).  What a body does to the machine beyond its stack is
a macro (MACROS): PAUSE(choice) at a decision, CALL(code) for an action's
frame, EMIT(event) for output, TICK(n) for a step.  The quiet variant's
instructions have bodies too: what pipvm/engine/quiet.py decides when it
loads a program (which message statements, the closures that check their
operands) are their operands.  A record may also give a `quiet` body, what
it does when nobody reads the output (the same inputs, outputs and
failures; a message shows nothing), from which cases.py writes the quiet
variant's handler.
"""
import textwrap

from pipvm.core import plain
from pipvm.isa.operands import DEAL_ALL, OPERANDS

# What an instruction can read, besides its operands on the stack.
READS = ('const', 'local', 'global', 'builtin', 'prop', 'list', 'deck', 'hand')
FLAGS = ('pure', 'fails', 'makes', 'shows', 'inline')
BODY_FLAGS = ('stack', 'loop_only', 'keeps')


@plain.frozen
class Instruction:
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
    parts: tuple = ()          # a superinstruction's instructions, in order
    deals_all: object = None   # one ending in DEAL: its mode has DEAL_ALL (True) or not (False)
    # its body (pipvm/engine/cases.py writes the VM's code from it)
    names: tuple = ()          # a name for each operand (the VM's own too, for load-time ones)
    inputs: tuple = ()         # popped, the top last
    outputs: tuple = ()        # pushed, the top last
    body: object = None        # Python statements; None: a hand-written handler
    counted: object = None     # the operand counting the `*values` input
    stack: bool = False        # moves the stack itself (PUSH, POP, stack)
    loop_only: bool = False    # reads the loop's own state (frames, pc, instrs)
    keeps: bool = False        # its one input stays on the stack (KEEP()) or goes (DROP())
    # its body when nobody reads the output (the quiet variant), where that
    # differs: the same inputs, outputs and failures, nothing shown
    quiet: object = None

    def stack_pops(self, args):
        return self.pops(args[0]) if callable(self.pops) else self.pops


def _op(name, operands, effect, doc, body=None, reads='', flags='', pops=None, branch=None,
        quiet=None, **kw):
    """An instruction (numbered by _section): operands are `name:kind` words
    (a load-time instruction's own need none: never encoded); reads and
    flags are words of READS, FLAGS and BODY_FLAGS."""
    flags = set(flags.split())
    assert set(reads.split()) <= set(READS) and flags <= set(FLAGS + BODY_FLAGS), name
    names = tuple(w.partition(':')[0] for w in operands.split())
    kinds = tuple(w.partition(':')[2] for w in operands.split() if ':' in w)
    ins, outs = (tuple(side.split()) for side in effect.split('--'))
    counted = None
    if ins and ins[-1].startswith('*'):       # (counted by the `count` operand)
        counted = next(n for n, k in zip(names, kinds) if k in ('count', 'args'))
        ins = ins[:-1] + (ins[-1][1:],)
    if pops is None:
        pops = len(ins) if counted is None else (lambda n, k=len(ins) - 1: n + k)
    if branch is None and any(OPERANDS[k].is_target for k in kinds):
        branch = len(outs) - pops + ('keeps' in flags)
    if body is not None:
        body = body.strip('\n')
    if quiet is not None:
        quiet = quiet.strip('\n')
    return Instruction(0, name, kinds, pops, len(outs), doc, branch, reads=tuple(reads.split()),
                       names=names, inputs=ins, outputs=outs, body=body, counted=counted,
                       quiet=quiet, **{f: True for f in flags}, **kw)


def _section(first, *ops):
    """Instructions numbered from first, in order."""
    return tuple(plain.evolve(op, code=first + i) for i, op in enumerate(ops))


def _read(expr, out='value'):
    """`out = expr`, an error where it is None (a read of what is undefined)."""
    return "if (%s := %s) is None:\n    raise Fault('Undefined value', PART)" % (out, expr)


# Statement macros a body may use, each written out where it stands:
# TICK(n), a step counted against --max-steps (a loop's next round, a CALL;
# n at once for a quiet loop's rounds); PAUSE(choice), stop at a decision
# (the loop returns, or play_out answers it); CALL(code), run an action in a
# new frame; EMIT(event), output for whoever reads it; and AGG_TOTAL, an
# aggregate's total after one more item's value (AGG_STEP's body, and an
# aggregate in pure.py's closures, written in with `# body: AGG_TOTAL`).
MACROS = {'TICK': """
machine.steps_left -= n
if machine.steps_left < 0:
    raise StepLimit(machine.max_steps)""".strip(),
    'PAUSE': """
machine.pending = choice
SIGNAL(PAUSE)""".strip(),
    'CALL': """
TICK()
callee = machine.image.codes[code]
machine.frames.append([callee, 0, [], [None] * callee.frame_size])    # (a new frame)
SIGNAL(CALLED)""".strip(),
    'EMIT': """
if machine.events is not None:
    machine.events.append(event)""".strip(),
    'AGG_TOTAL': """
if agg < AGG_MAX:               # count (a Boolean adds 1 or 0), sum
    total = int(total) + value
elif total is None or (value > total if agg == AGG_MAX else value < total):
    total = value""".strip()}
MACRO_PARAMS = {'TICK': ('n', '1'), 'PAUSE': ('choice', None), 'CALL': ('code', None),
                'EMIT': ('event', None)}      # (its parameter, and its default)


def _play_set(passing):
    """PLAY_SET's body, `passing` the statements that add the pass (if any)."""
    return """
to = cards_of(POP())
player = POP()
sets = list(machine.allowed_sets(rule, player, to))
labels = [set_label([card.name for card in s]) for s in sets]
%s
if not sets:
    raise Fault('No cards match the given rule')
PAUSE(SetChoice(player, sets, labels, to))""".strip() % passing


# MESSAGE_ALL's check of what it shows, watched or not
_SHOWS_TEXT = """
if not isinstance(text, str):   # only from a damaged .pipc: never shown (a Text is one)
    raise TypeError('message of %s' % type(text).__name__)""".strip()


_FILE_OPCODES = _section(1,
    # values and variables
    _op('CONST', 'k:const', '-- value',
        'push a constant (Number, Boolean, String, Rank, Suit or Card)',
        'value = consts[k]', 'const', 'pure inline'),
    _op('LIST_CONST', 'k:const', '-- value', "push a new list holding a constant list's items",
        'value = list(consts[k])', 'const', 'pure makes'),
    _op('LOAD_GLOBAL', 'g:global', '-- value', 'push a global; error if it is undefined',
        _read('globals_[g]'), 'global', 'pure fails inline'),
    _op('STORE_GLOBAL', 'g:global', 'value --', 'pop a value into a global',
        'globals_[g] = value', flags='inline'),
    _op('LOAD_LOCAL', 'slot:local', '-- value', 'push a local; error if it is undefined',
        _read('frame[slot]'), 'local', 'pure fails inline'),
    _op('STORE_LOCAL', 'slot:local', 'value --', 'pop a value into a local',
        'frame[slot] = value', flags='inline'),
    _op('LOAD_BUILTIN', 'b:builtin', '-- value',
        'push players, teams or a new list of the 52 cards', """
if b == 0:
    value = machine.players
elif b == 1:
%s
else:
    value = list(machine.deck)""" % textwrap.indent(_read('machine.teams'), '    '),
        'builtin', 'pure fails'),      # (standard's list is new, but always equal)
    _op('LOAD_PROP', 'prop:prop', 'obj -- value',
        'replace an object by its property; error if undefined',
        _read('getattr(obj, prop)'), 'prop', 'pure fails inline'),
    _op('STORE_PROP', 'prop:prop', 'value obj --',
        'pop an object, then the value to store in its property', 'setattr(obj, prop, value)'),
    _op('LIST_PROP', 'k:listprop', 'lst -- value', 'replace a list by its size, first or last item',
        'value = list_prop(lst, k, PART)', 'list', 'pure fails inline'),
    _op('DEFINED_GLOBAL', 'g:global', '-- res', 'push whether a global is defined',
        'res = globals_[g] is not None', 'global', 'pure'),
    _op('DEFINED_LOCAL', 'slot:local', '-- res', 'push whether a local is defined',
        'res = frame[slot] is not None', 'local', 'pure'),
    _op('DEFINED_BUILTIN', 'b:builtin', '-- res', 'push whether players/teams/standard is defined',
        'res = b != 1 or machine.teams is not None', 'builtin', 'pure'),
    _op('DEFINED_PROP', 'prop:prop', 'obj -- res',
        'replace an object by whether its property is defined',
        'res = getattr(obj, prop) is not None', 'prop', 'pure'),
    # the stack
    _op('POP', '', 'a --', 'discard the top of the stack', 'pass', flags='pure'),
    _op('DUP', '', 'a -- a copy', 'duplicate the top of the stack', 'copy = a', flags='pure'),
    _op('SWAP', '', 'a b -- b a', 'exchange the two top items', 'pass', flags='pure'),
    _op('DROP', 'n:count', '*values --', 'discard n items (loops a skip leaves)', 'pass',
        flags='pure'),
)

_OPERATORS = _section(20,
    _op('ADD', '', 'a b -- res', 'a + b', 'res = int(a) + b', flags='pure'),
    _op('SUB', '', 'a b -- res', 'a - b', 'res = int(a) - b', flags='pure'),
    _op('MUL', '', 'a b -- res', 'a * b', 'res = runtime.multiply(int(a), b)', flags='pure'),
    _op('DIV', '', 'a b -- res', 'a / b, truncated toward zero; error on zero',
        'res = runtime.divide(int(a), int(b))', flags='pure fails'),
    _op('EQ', '', 'a b -- res', 'a == b', 'res = a == b', flags='pure'),
    _op('NE', '', 'a b -- res', 'a != b', 'res = a != b', flags='pure'),
    _op('LT', '', 'a b -- res', 'a < b', 'res = a < b', flags='pure'),
    _op('LE', '', 'a b -- res', 'a <= b', 'res = a <= b', flags='pure'),
    _op('GT', '', 'a b -- res', 'a > b', 'res = a > b', flags='pure'),
    _op('GE', '', 'a b -- res', 'a >= b', 'res = a >= b', flags='pure'),
    _op('IN', '', 'a b -- res', 'a in list b (a Rank, Suit or Number matches a card having it)',
        'res = contains(b, a)', flags='pure'),
    _op('NOT', '', 'a -- res', 'not a', 'res = not a', flags='pure'),
    # (quiet: only where a message shows the String, pipvm/engine/quiet.py)
    _op('FORMAT', 'n:count', '*values -- res', 'join n values as one String',
        'res = joined(values)', flags='pure', quiet="""
for value in values:
    if value is None or type(value) is int and value.bit_length() > SHOWN_BITS:
        to_str(value)           # (fails as joining it would)
res = ''"""),
)

_CARDS = _section(40,
    _op('MAKE_CARD', '', 'a b -- res', 'rank, suit -> the card',
        'res = card_of(machine.deck, a, b)', 'deck', 'pure'),
    _op('MAKE_CARDS', '', 'a b -- res', 'ranks, suits -> new list of their cards, ranks outer',
        'res = make_cards(machine.deck, a, b)', 'deck', 'pure makes'),
    _op('RANGE', '', 'a b -- res', 'low, high -> new list of the ranks from low to high',
        'res = runtime.rank_range(int(a), int(b))', flags='pure makes'),
    _op('SEQ', '', 'a b -- res', 'a, b -> new list of the items of a then of b',
        'res = items(a) + items(b)', flags='pure makes'),
    _op('WILD_RANK', '', 'a -- res', 'suits -> new list of the cards now of those suits (%~S)',
        'res = wild_rank(machine.deck, a)', 'deck', 'pure makes'),
    _op('WILD_SUIT', '', 'a -- res', 'ranks -> new list of the cards now of those ranks (R~%)',
        'res = wild_suit(machine.deck, a)', 'deck', 'pure makes'),
    _op('BUILD_LIST', 'n:count', '*values -- res', 'new list of the items of n values',
        'res = build_list(values)', flags='pure makes'),
    _op('NEW_AREA', 'mode:mode', 'name -- area', 'name -> a new empty area (mode: AREA_* bits)',
        'area = Area(name, [], bool(mode & AREA_FACEDOWN), bool(mode & AREA_SQUAREDUP))',
        flags='makes'),
    # extension: a list of groups (`Area melds[]`) and a list's item by its place
    _op('NEW_GROUP', 'g:global mode:mode', 'name -- area',
        'label -> a new empty area "LABEL n" added to the list of groups in global g as its '
        'n-th (mode: AREA_* bits)', """
groups = globals_[g]
label = '%s %d' % (name, len(groups) + 1)
area = Area(label, [], bool(mode & AREA_FACEDOWN), bool(mode & AREA_SQUAREDUP))
groups.append(area)""", 'global', 'makes'),
    _op('LIST_ITEM', '', 'lst index -- value', "list, place -> the list's item there (from 1)",
        """
k = int(index)
if not 0 < k <= len(lst):
    raise Fault('No item at that place: the list has %d items' % len(lst), PART)
value = lst[k - 1]""", 'list', 'pure fails'),
)

_CONTROL = _section(50,
    _op('JUMP', 'target:jump', '--', 'continue at the target', """
if target < pc:
    TICK()
JUMP(target)""", flags='inline loop_only', ends=True),
    _op('JUMP_IF_FALSE', 'target:jump', 'cond --', 'pop; jump if False', """
if not cond:
    JUMP(target)""", flags='inline'),
    _op('JUMP_IF_FALSE_OR_POP', 'target:jump', 'cond --',
        'if False jump (keeping it), else pop', """
if not cond:
    KEEP()
    JUMP(target)
else:
    DROP()""", flags='keeps'),
    _op('JUMP_IF_TRUE_OR_POP', 'target:jump', 'cond --', 'if True jump (keeping it), else pop', """
if cond:
    KEEP()
    JUMP(target)
else:
    DROP()""", flags='inline keeps'),
    _op('FOR_ITER', '', 'lst -- it', 'list -> iteration state over a snapshot of it',
        'it = iter(list(lst))', flags='makes'),
    _op('FOR_ITER_FROM', '', 'lst start -- it',
        'list, start -> iteration state beginning at start and wrapping around', """
# (list.index finds the first item equal to start, in C: a Pip value equals
# itself, so its test of `is` first finds the one == finds)
try:
    i = lst.index(start)
except ValueError:
    raise Fault('Starting element is not in list', PART) from None
it = iter(lst[i:] + lst[:i])""", flags='makes fails'),
    # the state stays while there are items; the jump drops it
    _op('FOR_NEXT', 'slot:local target:jump', 'it -- it',
        'store the next item in the local, or drop the state and jump', """
item = next(stack[-1], END)
if item is END:
    POP()
    JUMP(target)
else:
    frame[slot] = item""", flags='inline stack', branch=-1),
    _op('CALL', 'action:action', '--', 'run an action in a new frame', 'CALL(action)'),
    _op('RETURN', '', '--', 'end an action (or the initialisers)', """
frames.pop()
if not frames:
    RETURN(None)
loaded, pc, stack, frame = frames[-1]
instrs = loaded.instrs if loud else loaded.quiet
push, pop = stack.append, stack.pop""", flags='inline stack loop_only', ends=True),
    _op('RETURN_VALUE', '', 'value --', 'end a rule or ordering with its value', 'RETURN(value)',
        flags='inline loop_only', ends=True),
)

_GAME = _section(60,
    # (first: where its JUMPs begin, the VM's operand)
    _op('ASK', 'n:count first', 'player *values --',
        'player, then text and enabled flag per question -> run the chosen one: '
        'continue at the chosen one of the n JUMPs that follow', """
flat = stack[-2 * n:]
del stack[-2 * n:]
player = POP()
enabled, texts = questions_enabled(flat, n)
if not enabled:
    raise Fault('None of the questions can be asked')
PAUSE(action_choice((player, texts, first, enabled, None)))""",
        flags='fails stack', pops=lambda n: 2 * n + 1),
    _op('MESSAGE', '', 'text to --', 'text, player(s) or team -> "NAME: text" to each', """
if machine.events is not None:  # (nobody reads it: the operands were checked when pushed)
    shows = shown(text)
    for player in addressees(to):
        line = '%s: %s' % (player.name, text)
        EMIT(Event('message', line, player.seat, shows=shows))""",
        flags='shows', quiet='pass'),
    _op('MESSAGE_ALL', '', 'text --', 'text -> show it to everyone',
        _SHOWS_TEXT + "\nEMIT(Event('message', text, shows=shown(text)))", flags='shows',
        quiet=_SHOWS_TEXT),
    _op('WINNER', '', 'who --', 'end the game won by a player or team',
        'raise GameOver(to_str(who))'),
)

# DEAL to one hand or area, the one text of it (bodies.deal_each's pile
# takes the same slice), written into DEAL's body, not called: a trick to
# its winner's pile, a hand back to the deck, once an Oh Hell answer, one
# Python call fewer
DEAL_TO = """dest = cards_of(dest)
dealt_n = len(source) if count is None else count
if dealt_n > 0 and dest is not source:       # (dealt to itself: each card back where it was)
    dest[:0] = source[dealt_n - 1::-1]       # (past the end: all, reversed)
    del source[:dealt_n]"""

_CARD_GAME = _section(70,
    _op('DEAL', 'mode:mode', 'source dest count --',
        'source, destination[, count] -> deal cards from the front (mode: DEAL_* bits)', """
count = None if mode & DEAL_ALL else int(POP())
dest = POP()
source = cards_of(POP())
if mode & DEAL_TO_PLAYERS:
    deal(source, [p.hand for p in dest], count)
else:
""" + textwrap.indent(DEAL_TO, '    '),
        flags='stack', pops=lambda m: 2 if m & DEAL_ALL else 3),
    _op('DEAL_CARD', '', 'card source dest --', 'card, source, destination -> move that card', """
to = cards_of(dest)            # (the destination's error first, as the reference)
from_ = cards_of(source)
move(card, from_, to, 'Card is not in the source')""", flags='fails'),
    _op('PLAY', 'rule:rule', 'player dest --',
        'player, destination -> the player chooses a card the rule allows; it moves', """
to = cards_of(dest)
cards = machine.playable(rule, player, to)
if not cards:
    raise Fault('No cards match the given rule')
PAUSE(card_choice((player, cards, to)))""", reads='hand', flags='fails'),
    _op('CANPLAY', 'rule:rule', 'player dest -- res',
        'player, destination -> can any card be played', """
found = machine.playable(rule, player, cards_of(dest))
machine.canplay_found = found
res = bool(found)""", 'hand', 'pure fails'),
    _op('ORDER', 'ordering:ordering', 'cards --', 'card list -> sort it stably by the ordering',
        'cards[:] = machine.ordered(ordering, cards)', flags='fails'),
    _op('ROTATE', '', 'lst --', "move a list's first item to its end", """
if len(lst) > 1:
    lst.append(lst.pop(0))"""),
    _op('SHUFFLE', '', 'lst --', 'shuffle a list', 'machine.dealer.shuffle(machine, lst)'),
    # extension: values for each player or team (the program's owns table), by their number
    _op('LOAD_OWN', 'k:own', 'obj -- value',
        "replace a player or team by its value for each player/team; error if undefined",
        _read('obj.own.get(k)'), 'prop', 'pure fails'),
    _op('STORE_OWN', 'k:own', 'value obj --',
        'pop a player or team, then the value to store as its own', 'obj.own[k] = value'),
    _op('DEFINED_OWN', 'k:own', 'obj -- res',
        'replace a player or team by whether its value for each player/team is defined',
        'res = obj.own.get(k) is not None', 'prop', 'pure'),
    _op('INIT_OWN', 'k:own', 'value --', 'pop a value: every player (or team) starts with it', """
owners = machine.players if machine.program.owns[k][0] == 'Player' else machine.teams or ()
for o in owners:
    o.own[k] = value"""),
    # extension: aggregates; the loop is FOR_ITER/FOR_NEXT's, its total under the state
    _op('AGG_START', 'agg:agg', '-- total',
        'push the total an aggregate starts from (max, min: none)',
        'total = 0 if agg < AGG_MAX else None'),
    _op('AGG_STEP', 'agg:agg target:jump', 'total it value -- total it',
        'pop a value; count it into the total under the iteration state; jump back', """
value = POP()
total = stack[-2]
# body: AGG_TOTAL agg=agg total=total value=value
# end of body
stack[-2] = total
JUMP(target)""", flags='stack', ends=True),
    _op('AGG_END', '', 'total -- total',
        'keep the total of a max or min; error if there was no item', """
if total is None:
    raise Fault("Can't get item from empty list", PART)""", flags='pure fails'),
    # `(max c in L by O)` is L's last card as `order L by O` sorts it
    _op('PICK_BY', 'ordering:ordering agg:agg', 'cards -- card',
        'card list -> its last (max) or first (min) card as `order` by the ordering would '
        'sort it; error if it is empty', """
if not cards:
    raise Fault("Can't get item from empty list", PART)
card = machine.ordered(ordering, cards)[-1 if agg == AGG_MAX else 0]""", flags='pure fails'),
    # extension: options from a list, gathered for ASK_FROM
    _op('OPTION', 'k:question', 'options text asked -- options',
        'options, text, asked -> options (with the question if asked)', '''
if asked:
    options.append((text, k, None, None))'''),
    _op('OPTION_ITEM', 'k:question slot:local', 'options it text asked -- options it',
        "options, iteration state, text, asked -> the same two (with the question for the "
        "local's item, if asked)", '''
if asked:
    options.append((text, k, slot, frame[slot]))'''),
    # (options: (text, question, local slot or None, item) each, as OPTION* gathered them)
    _op('ASK_FROM', 'n:count first', 'player options --',
        "player, options -> run the chosen one: continue at its question's one of the n "
        'JUMPs that follow, its item (if any) stored in its local', """
if not options:
    raise Fault('None of the questions can be asked')
binds = [None if slot is None else (slot, item) for _, _, slot, item in options]
labels, questions = [o[0] for o in options], [o[1] for o in options]
PAUSE(action_choice((player, labels, first, questions, binds)))""",
        flags='fails'),
    # extension: several cards at once (the player's answer pushes whether they passed)
    _op('PLAY_SET', 'rule:rule mode:mode', 'player dest -- passed',
        'player, destination -> the player chooses a set of cards of one rank the rule allows '
        '(or passes, mode PLAY_PASS); they move; push whether the player passed',
        _play_set('if mode & PLAY_PASS:\n    sets.append(None)\n    labels.append(PASS)'), reads='hand', flags='fails stack'),
    _op('CANPLAY_SET', 'rule:rule', 'player dest -- res',
        'player, destination -> is there a set of cards PLAY_SET would offer (no pass)',
        'res = any(machine.allowed_sets(rule, player, cards_of(dest)))', 'hand', 'pure fails'),
)
# Extension: the pass in the author's words, `or "Take"`.
_PLAY_SET_OR = _section(93,
    _op('PLAY_SET_OR', 'rule:rule', 'player dest label -- passed',
        "as PLAY_SET with a pass, the pass's option labelled by the string on top",
        'label = POP()\n' + _play_set('sets.append(None)\nlabels.append(label)'), reads='hand', flags='fails stack'),
)
# Extension: actions with parameters and results.  An action's arguments
# fill its first frame slots; GIVE hands its result to the caller's stack.
def _call_with(result):
    """CALL_WITH's body (CALL_FOR's: result, the caller's place for the result)."""
    return """
TICK()
if len(machine.frames) >= runtime.MAX_CALL_DEPTH:
    raise Fault(runtime.CALL_TOO_DEEP, PART)
callee = machine.image.codes[action]
slots = [None] * callee.frame_size
if n:
    slots[:n] = stack[-n:]
    del stack[-n:]%s
machine.frames.append([callee, 0, [], slots])    # (a new frame)
SIGNAL(CALLED)""" % ('\nPUSH(None)' if result else '')


_CALLS = _section(90,
    _op('CALL_WITH', 'n:args action:action', '*values --',
        'the n arguments -> run the action in a new frame, the arguments in its first '
        'slots; error past runtime.MAX_CALL_DEPTH frames', _call_with(False), flags='fails stack'),
    # (the result's place waits on the stack, None, until GIVE fills it)
    _op('CALL_FOR', 'n:args action:action', '*values -- result',
        "as CALL_WITH, for an action's result: GIVE puts it where this leaves None",
        _call_with(True), flags='fails stack'),
    _op('GIVE', '', 'value --', "end an action with its result, in its caller's CALL_FOR place", """
value = POP()
frames.pop()
loaded, pc, stack, frame = frames[-1]
instrs = loaded.instrs if loud else loaded.quiet
push, pop = stack.append, stack.pop
stack[-1] = value""", flags='inline stack loop_only', ends=True),
)
# Extension: a single card or a pass, the endings beyond `winner X.`, the turn
# order, and aces high (pipvm/core/endings.py; numbered down from 99).
_ENDINGS = _section(95,
    _op('PLAY_CARD_OR', 'rule:rule', 'player dest label -- passed',
        'player, destination, label -> the player chooses a card the (card) rule allows, or '
        'the pass labelled so; the card moves; push whether the player passed', """
label = POP()
to = cards_of(POP())
player = POP()
sets = [[card] for card in machine.playable(rule, player, to)]
labels = [card.name for card, in sets]
sets.append(None)
labels.append(label)
PAUSE(SetChoice(player, sets, labels, to, True))""", reads='hand', flags='fails stack'),
    _op('FINISH', 'how:ending', 'who --',
        'end the game: winners, loser(s) or a ranking of a player, a team or a list of them',
        'finish(how, who)', flags='fails'),
    _op('TURN_OUT', '', 'player --', 'take a player out of the turn order (players)',
        'take_out(machine.players, player)', flags='fails'),
    _op('TURN_BACK', '', 'player --', 'bring a player back into the turn order, by seat',
        'bring_back(machine.players, player)', flags='fails'),
    _op('ACE_HIGH', '', 'rank -- value', 'a rank as aces high compare it: an ace (1) is 14',
        'value = 14 if rank == 1 else int(rank)', flags='pure'),
)
_FILE = (_FILE_OPCODES + _OPERATORS + _CARDS + _CONTROL + _GAME + _CARD_GAME + _CALLS
         + _PLAY_SET_OR + _ENDINGS)
_FILE_BY_NAME = {op.name: op for op in _FILE}


def _effect(parts, first, deals_all=None):
    """(pops, pushes, depth before the last part) of running parts in order,
    the first operand being `first` (a last DEAL's mode: DEAL_ALL or not as
    deals_all says), all relative to the depth they start at."""
    depth = low = before_last = 0
    for k, part in enumerate(parts):
        before_last = depth
        depth -= part.stack_pops((DEAL_ALL if deals_all else 0,) if k and deals_all is not None
                                 else (first,))
        low = min(low, depth)
        depth += part.pushes
    return -low, depth - low, before_last


def _fused(name, parts, doc, flags='', deals_all=None):
    """A superinstruction: a run of file opcodes the VM executes as one.  It
    never appears in a .pipc file; the VM fuses a run when it loads a program
    if no jump lands inside it.  Its operands are its parts' operands, in
    order; its stack effect, what it reads and its properties are theirs,
    and its body is their bodies one after the other.  deals_all: a last
    DEAL's mode has DEAL_ALL or not (loading fuses no DEAL of the other)."""
    parts = tuple(_FILE_BY_NAME[p] for p in parts.split())
    assert (deals_all is not None) == (parts[-1].name == 'DEAL' and len(parts) > 1), name
    assert not any(callable(p.pops) for p in parts[1:len(parts) - (deals_all is not None)]), name
    pops, pushes, before_last = _effect(parts, 1, deals_all)
    if callable(parts[0].pops):
        pops = lambda n, parts=parts: _effect(parts, n)[0]
    last = parts[-1]
    return Instruction(0, name, tuple(k for p in parts for k in p.operands), pops, pushes, doc,
                       branch=None if last.branch is None else before_last + last.branch,
                       ends=last.ends, in_file=False,
                       reads=tuple(dict.fromkeys(r for p in parts for r in p.reads)),
                       pure=all(p.pure for p in parts), fails=any(p.fails for p in parts),
                       makes=any(p.makes for p in parts), shows=any(p.shows for p in parts),
                       inline='inline' in flags.split(), parts=parts, deals_all=deals_all)


# The commonest fall-through runs over the examples and the benchmark programs,
# as `python benchmarks/engines.py --opcodes` counts them (benchmarks/README.md).
_FUSED = _section(100,
    _fused('LOAD_LOCAL_PROP', 'LOAD_LOCAL LOAD_PROP', "push a local's property", 'inline'),
    _fused('EQ_CONST', 'CONST EQ', 'a == a constant'),
    _fused('EQ_GLOBAL', 'LOAD_GLOBAL EQ', 'a == a global', 'inline'),
    _fused('EQ_GLOBAL_JUMP_IF_FALSE', 'LOAD_GLOBAL EQ JUMP_IF_FALSE', 'jump if a != a global',
           'inline'),
    _fused('STORE_LOCAL_ADD_CONST', 'LOAD_LOCAL CONST ADD STORE_LOCAL',
           'store a local + a constant in a local (`i = i + 1`)'),
    _fused('EQ_JUMP_IF_FALSE', 'EQ JUMP_IF_FALSE', 'jump if a != b'),
    _fused('EQ_RETURN', 'EQ RETURN_VALUE', 'return a == b', 'inline'),
    _fused('LOAD_LOCAL_LIST_PROP', 'LOAD_LOCAL LIST_PROP',
           "push a local list's size, first or last item"),
    _fused('FORMAT_MESSAGE_ALL', 'FORMAT MESSAGE_ALL', 'join n values and show them'),
    _fused('EQ_CONST_OR', 'CONST EQ JUMP_IF_TRUE_OR_POP',
           'if a == a constant, replace a by True and jump, else pop', 'inline'),
    _fused('GT_JUMP_IF_FALSE', 'GT JUMP_IF_FALSE', 'jump unless a > b'),
    _fused('EQ_CONST_AND', 'CONST EQ JUMP_IF_FALSE_OR_POP',
           'if a != a constant, replace a by False and jump, else pop'),
    _fused('GE_CONST_AND', 'CONST GE JUMP_IF_FALSE_OR_POP',
           'if a < a constant, replace a by False and jump, else pop'),
    _fused('LOAD_GLOBAL_PROP', 'LOAD_GLOBAL LOAD_PROP', "push a global's property", 'inline'),
    _fused('LOAD_LOCAL_ITEM_PROP', 'LOAD_LOCAL LIST_PROP LOAD_PROP',
           "push a property of a local list's first or last item", 'inline'),
    _fused('ADD_CONST', 'CONST ADD', 'a + a constant'),
    _fused('EQ_CONST_JUMP_IF_FALSE', 'CONST EQ JUMP_IF_FALSE', 'jump if a != a constant'),
    _fused('CANPLAY_JUMP_IF_FALSE', 'CANPLAY JUMP_IF_FALSE',
           'jump unless the player can play a card the rule allows'),
    _fused('LOAD_GLOBAL_PROP_LIST_PROP', 'LOAD_GLOBAL LOAD_PROP LIST_PROP',
           "push the size, first or last item of a global's list property (`pile->cards->top`)"),
    _fused('LOAD_BUILTIN_LIST_PROP', 'LOAD_BUILTIN LIST_PROP',
           'push the size, first or last item of players, teams or standard'),
    _fused('SHUFFLE_GLOBAL', 'LOAD_GLOBAL SHUFFLE', 'shuffle a global list (`shuffle deck`)'),
    # (deal.pip's three deals a round: its DEAL's operands in locals, cases.deal_body)
    _fused('DEAL_GLOBAL_BUILTIN_CONST', 'LOAD_GLOBAL LOAD_BUILTIN CONST DEAL',
           'deal a constant count of cards from a global to players', deals_all=False),
    _fused('DEAL_ALL_GLOBAL_BUILTIN', 'LOAD_GLOBAL LOAD_BUILTIN DEAL',
           'deal all the cards of a global to players (`deal all from deck to players`)',
           deals_all=True),
)


def _made(name, operands, effect, doc, body=None, reads='', flags='', **kw):
    """An instruction only loading makes (its operands are the VM's, never
    encoded; a kind says what one holds: a slot, a jump's index)."""
    return _op(name, operands, effect, doc, body, reads, flags, in_file=False, **kw)


# What loading makes besides superinstructions: a PLAY rewritten
# (pipvm/engine/fusion.py) and the quiet variant's instructions
# (pipvm/engine/quiet.py), which run when nobody reads the output.
_LOAD_TIME = _section(200,
    # (checks: closures of the operands that can fail, pipvm/engine/checks.py;
    # a failure of any kind hands the statement to the loud code, which raises it)
    _made('QUIET_MESSAGE', 'slots checks after', '--',
          "check a message statement's operands by closures, for their failures only, "
          'and jump past it', """
for slot in slots:
    # body: DEFINED_LOCAL slot=slot res=defined
    # end of body
    if not defined:
        LOUD()
env = frame + [machine]
try:
    for check in checks:
        check(env)
except Exception:
    LOUD()
JUMP(after)""", 'local', 'fails'),
    # (loop: bodies.quiet_rounds's operand, where the loop ends last)
    _made('QUIET_LOOP', 'loop', 'it --',
          'run the remaining rounds of a loop that only shows messages at once, counting '
          'their steps', """
rest = list(stack[-1])
if quiet_rounds(machine, frame, loop, rest):
    POP()
    JUMP(loop[-1])
stack[-1] = iter(rest)          # as it was: the loop goes on as ordinary code
LOUD()""", 'local', 'fails stack'),
    _made('PLAY_AGAIN', 'rule', 'player dest --',
          'PLAY right after the CANPLAY that found its cards', """
found, machine.canplay_found = machine.canplay_found, None
PAUSE(card_choice((player, found, cards_of(dest))))""", reads='hand', flags='fails'),
    # messages nobody reads whose operands are locals only need them defined
    _made('QUIET_LOCALS', 'slots after', '--',
          'jump past messages whose operands are locals if they are all defined', """
for slot in slots:
    # body: DEFINED_LOCAL slot=slot res=defined
    # end of body
    if not defined:
        LOUD()
        break
else:
    JUMP(after)""", 'local', 'fails inline loop_only'),
    _made('QUIET_FOR', 'loop', 'lst --', 'FOR_ITER and the QUIET_LOOP after it, from the list',
          """
if quiet_rounds(machine, frame, loop, list(stack[-1])):
    POP()
    JUMP(loop[-1])
# (the list stays on the stack, for FOR_ITER)
LOUD()""",
          'local', 'fails stack'),
)

# A loop that only deals every item's cards to one place, `for p in LIST {
# deal all from p to GLOBAL. }` or `... from p->PROP ...` (deal.pip's two a
# round, Oh Hell's and Auction Pitch's gathering of the hands): at its
# FOR_ITER (fusion.rewrites finds the loop), all its rounds at once where
# none can fail nor stop at the step limit (bodies.deal_each); else its
# FOR_ITER, and the rounds run as written (the same faults, the same step).
_LOOPS = _section(205,
    _made('DEAL_EACH', 'slot:local g:global after:jump prop', 'lst -- it',
          "FOR_ITER of a loop dealing all of each item's (or its property's) cards to a "
          "global: every round at once, the item stored and a step a round counted, and "
          "jump past the loop; or, where a round could fail or reach the step limit, the "
          "iteration state (the loop runs)", """
each = list(stack[-1])
if deal_each(each, prop, globals_[g], machine):
    if each:
        frame[slot] = each[-1]
    POP()
    JUMP(after)
stack[-1] = iter(each)""", 'list global hand', 'makes stack', branch=-1),
)

# The one table: every instruction the VM runs, by number.
INSTRUCTIONS = _FILE + _FUSED + _LOAD_TIME + _LOOPS
