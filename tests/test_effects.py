"""Every instruction's stack effect, as its record in the one table
(pipvm/isa/instructions.py) states it, is what its code does: each runs on
a synthetic stack, as the VM runs it (its loop branch or its handler,
both written from the body), on each path it can take (falling through, jumping, pausing for an answer,
handing back to the loud code), and the stack's depth after it must be the
record's: pops and pushes when it falls through, `branch` when it jumps,
the pushes after the answer when it pauses; nothing under its inputs may
change."""
import types

from compiler.pip import frontend
from pipvm.core import plain
from pipvm.core import runtime
from pipvm.core.errors import GameOver
from pipvm.core.rng import OCamlRandom
from pipvm.engine import cases, generated_cases, vm
from pipvm.engine.bodies import CALLED, END, LOUD, PAUSE
from pipvm.isa.opcodes import AGG_MAX, DEAL_ALL, DEAL_TO_PLAYERS, INSTRUCTIONS
from tests.fuzz import harness

PROGRAM = '''Game "g" requires 2 players.
Deck deck = standard.
Number n = 1.
Rule any(p, c, pile) = True.
Ordering by_rank(cards) = A..K~C,H,S,D.
Action main { }
'''


class Below:
    """A stack item under an instruction's inputs: it must stay."""


_IMAGE = []


def _machine():
    """A fresh game of PROGRAM, its first player holding three cards."""
    if not _IMAGE:
        _IMAGE.append(vm.Image(harness.compile_checked(frontend.check_text(PROGRAM))))
    m = vm.Machine(_IMAGE[0], OCamlRandom(1), events=[])
    m.players = [runtime.Player('Ada'), runtime.Player('Ben')]
    m.players[0].hand.extend(m.deck[:3])
    m.globals = [m.players[0]] * len(m.globals)
    m.globals[1] = []              # (NEW_GROUP's list of groups)
    m.players[0].own[0] = 1
    m.program = types.SimpleNamespace(owns=[('Player', 'bid', 'Number')])    # (INIT_OWN's)
    return m


def _code(m, kind):
    return next(i for i, c in enumerate(m.image.program.codes) if c.kind == kind)


def _cases(m):
    """(instruction, its operand, its inputs, deepest first) for each path
    each instruction is run on."""
    ada, card = m.players[0], m.players[0].hand[0]
    rule, ordering, action = _code(m, 'rule'), _code(m, 'ordering'), _code(m, 'action')
    lst = list(m.deck[5:8])
    tuple_const = next(i for i, c in enumerate(m.consts) if type(c) is tuple)
    by_name = {   # a value for each input, by its name in the record
        'a': 2, 'b': 3, 'value': 1, 'obj': ada, 'lst': lst, 'start': lst[1], 'text': 'hi',
        'player': ada, 'dest': [], 'options': [], 'asked': True, 'total': 1, 'cards': lst,
        'name': 'pile', 'card': card, 'source': ada.hand, 'count': 1, 'to': ada, 'who': ada,
        'it': iter([1])}
    number = next(i for i, c in enumerate(m.consts) if type(c) is int)
    by_kind = {'const': number, 'global': 0, 'local': 0, 'builtin': 0, 'prop': 'hand',
               'listprop': 0, 'count': 2, 'args': 2, 'mode': 0, 'question': 0, 'agg': 0, 'own': 0, 'ending': 0,
               'action': action, 'rule': rule, 'ordering': ordering, 'jump': 9}
    inputs = {   # where the names do not fit
        'IN': [2, [1, 2]], 'SEQ': [[1], [2]], 'MAKE_CARD': [card.rank, card.suit],
        'MAKE_CARDS': [[card.rank], [card.suit]], 'WILD_RANK': [[card.suit]],
        'WILD_SUIT': [[card.rank]], 'RANGE': [1, 3], 'FOR_ITER_FROM': [lst, lst[1]],
        'ASK': [ada, 'one', True, 'two', False], 'ASK_FROM': [ada, [('one', 0, None, None)]],
        'FORMAT_MESSAGE_ALL': ['a', 'b'], 'AGG_STEP': [0, iter([]), 2], 'PLAY_AGAIN': [ada, []]}
    operands = {'PICK_BY': (ordering, AGG_MAX), 'NEW_GROUP': (1, 0), 'ASK': (2, 5), 'ASK_FROM': (1, 5),
                'LIST_CONST': tuple_const, 'QUIET_MESSAGE': ((0,), (), 9),
                'QUIET_LOCALS': ((0,), 9), 'QUIET_LOOP': (0, (), False, (), False, 9),
                'QUIET_FOR': (0, (), False, (), False, 9), 'PLAY_AGAIN': rule,
                'DEAL_EACH': (0, 0, 9, None), 'SHUFFLE_GLOBAL': 1,    # (a list)
                # (Ada's hand to the players, a count or all; their other mode: below)
                'DEAL_GLOBAL_BUILTIN_CONST': (0, 0, number, DEAL_TO_PLAYERS),
                'DEAL_ALL_GLOBAL_BUILTIN': (0, 0, DEAL_ALL | DEAL_TO_PLAYERS),
                'LOAD_LOCAL_ITEM_PROP': (1, 1, 'hand'), 'LOAD_LOCAL_LIST_PROP': (1, 0),
                'STORE_PROP': 'score', 'STORE_LOCAL_ADD_CONST': (2, number, 2)}
    for op in INSTRUCTIONS:
        parts = op.parts or (op,)
        kinds = [k for p in parts for k in p.operands]
        arg = operands.get(op.name)
        if arg is None:
            args = [by_kind[k] for k in kinds] or [None] * len(op.names)
            arg = args[0] if len(args) == 1 else tuple(args)
        ins = inputs.get(op.name)
        if ins is None:
            first = op if not op.parts else parts[0]
            n = op.stack_pops((2,) if not op.parts else (_first(arg),))
            names = list(first.inputs)
            if first.counted:
                names = names[:-1] + ['*'] * 2
            ins = [by_name.get(x, 1) for x in names[-n:]] if names else [1] * n
            ins = [1] * (n - len(ins)) + ins
        yield op, arg, ins
        # the other paths
        if 'cond' in op.inputs or op.name in ('EQ_JUMP_IF_FALSE', 'GT_JUMP_IF_FALSE'):
            yield op, arg, [0] * len(ins)
        if op.name == 'FOR_NEXT':
            yield op, arg, [iter([])]
        if op.name in ('DEAL',):
            yield op, DEAL_ALL, ins[:-1]
        if op.deals_all is not None:      # (not to players: their list taken for cards)
            yield op, arg[:-1] + (arg[-1] & DEAL_ALL,), ins
        if op.name == 'JUMP':
            yield op, 1, ins            # back: a step
        if op.name in ('QUIET_LOCALS', 'QUIET_MESSAGE'):
            yield op, ((7,),) + arg[1:], ins    # an undefined local: LOUD
        if op.name == 'DEAL_EACH':      # (cards: no rounds at once; players: all, jumping)
            yield op, arg, [[m.players[1]]]
            yield op, arg[:3] + ('hand',), [[m.players[1]]]


def _first(arg):
    """The first operand (an instruction's pops may depend on it)."""
    return (arg[0] if arg else None) if type(arg) is tuple else arg


def _loop_case(op, arg):
    """The loop's branch for op (written from its body), as a function."""
    text = cases.compose(op, cases.CONTEXTS['loop'], cases.operand_exprs(op))
    source = ('def case(self, stack, frame, arg, frames, pc):\n'
              '    push, pop = stack.append, stack.pop\n'
              '    consts, globals_, loud, instrs = self.consts, self.globals, True, None\n'
              '    loaded = frames[-1][0]\n'
              '    for _ in (1,):\n%s\n'
              '    return pc\n') % '\n'.join('        ' + line for line in text.split('\n'))
    space = dict(vars(generated_cases), END=END)
    exec(compile(source, '<%s>' % op.name, 'exec'), space)      # (the test's own text)
    return space['case']


def _run(m, op, arg, ins, quiet=False):
    """(what happened, the stack before, the stack after); quiet: its
    handler written from its quiet body."""
    class Loaded:
        instrs = quiet = ()
    frame = [m.players[0], [m.players[0]], 3, None, None, None, None, None]
    m.canplay_found = [m.players[0].hand[0]]
    below = [Below(), Below()]
    stack = below + list(ins)
    before = list(stack)
    caller = [None] if op.name == 'GIVE' else []     # (CALL_FOR's place for the result)
    m.frames = [[Loaded, 0, caller, list(frame)], [Loaded, 0, stack, frame]]
    pc = 4
    try:
        if op.inline or any(p.loop_only for p in op.parts or (op,)):
            after = _loop_case(op, arg)(m, stack, frame, arg, m.frames, pc)
            how = 'jump' if after != pc else 'fall'
            if op.name == 'RETURN':
                how = 'fall'
        else:
            handler = (generated_cases.QUIET_HANDLERS if quiet else vm.HANDLERS)[op.code]
            got = handler(m, stack, frame, arg)
            how = ('fall' if got is None else 'jump' if got >= 0 else
                   {PAUSE: 'pause', CALLED: 'fall', LOUD: 'loud'}[got])
    except GameOver:
        how = 'fall'
    return how, before, stack


def _wrong(op, arg, ins, m=None, quiet=False):
    """Why op's code on ins (values of game m) does not move the stack as
    op's record says, or None."""
    m = m or _machine()
    try:
        how, before, stack = _run(m, op, arg, ins, quiet)
    except Exception as e:
        raise AssertionError('%s on %r failed' % (op.name, ins)) from e
    pops = op.stack_pops((_first(arg),))
    fall = len(before) - pops + op.pushes
    want = {'fall': fall, 'pause': len(before) - pops, 'loud': len(before),
            'jump': fall if op.branch is None else len(before) + op.branch}[how]
    if len(stack) != want:
        return '%s (%s): depth %d, the record says %d' % (op.name, how, len(stack), want)
    kept = min(len(before) - pops, len(stack)) if how != 'loud' else len(before)
    if not all(x is y for x, y in zip(before[:kept], stack[:kept])):
        return '%s (%s) changed what is under its inputs' % (op.name, how)
    if how == 'pause':          # the answer pushes the rest (PLAY_SET: whether one passed)
        m._apply(0)
        if len(stack) != fall:
            return '%s: depth %d after the answer, the record says %d' % (op.name, len(stack), fall)
    return None


def test_every_instruction_moves_the_stack_as_its_record_says():
    seen, ran = set(), 0
    for i in range(len(list(_cases(_machine())))):
        m = _machine()          # a game of its own for each
        op, arg, ins = list(_cases(m))[i]
        assert _wrong(op, arg, ins, m) is None
        seen.add(op.name)
        ran += 1
    assert seen == {op.name for op in INSTRUCTIONS} and ran > len(INSTRUCTIONS)


def test_every_quiet_body_moves_the_stack_as_its_record_says():
    # the quiet variant's handlers (a message nobody reads) take and leave
    # what the loud ones do, in a game nobody watches
    quiet = {op.code for op in INSTRUCTIONS if cases.has_quiet(op)}
    assert set(generated_cases.QUIET_HANDLERS) == quiet and quiet
    seen = set()
    for i in range(len(list(_cases(_machine())))):
        m = _machine()
        m.events = None
        op, arg, ins = list(_cases(m))[i]
        if op.code in quiet:
            assert _wrong(op, arg, ins, m, quiet=True) is None
            seen.add(op.code)
    assert seen == quiet


def test_a_record_that_differs_from_its_code_is_caught():
    # the check above can fail: FOR_NEXT with the effect its body stated
    # before the one table ('--', so no change when it jumps: it drops the
    # state), ADD said to push two, AGG_STEP said to take only its value
    by_name = {op.name: op for op in INSTRUCTIONS}
    for_next = plain.evolve(by_name['FOR_NEXT'], pops=0, pushes=0, branch=0)
    assert _wrong(for_next, (0, 9), [iter([1])]) is None        # (the same when it falls)
    assert 'FOR_NEXT (jump): depth 2, the record says 3' in _wrong(for_next, (0, 9), [iter([])])
    assert 'ADD (fall)' in _wrong(plain.evolve(by_name['ADD'], pushes=2), None, [2, 3])
    step = plain.evolve(by_name['AGG_STEP'], pops=1, pushes=0, branch=-1)
    assert 'changed what is under its inputs' in _wrong(step, (0, 9), [0, iter([]), 2])
    assert by_name['DEAL'].stack_pops((0,)) == 3 and by_name['DEAL'].stack_pops((DEAL_ALL,)) == 2
