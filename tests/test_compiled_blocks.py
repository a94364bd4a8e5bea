"""Which blocks the compiled tier makes (pipvm/engine/compiled.py), and
what a block's function is given and returns.

Every game plays the same whichever instructions run as blocks (the loop
runs the rest), so the fuzz properties cannot see a change in where blocks
begin and end; these check it against compiled.py's own account of a
block: a run of at least two instructions a handler can run, ended by a
JUMP (a loop when it goes back to the block's start), by an instruction
it cannot hold or by one that ends, and one opening at every entered
index."""
import os
import types

import pytest

from pipvm.core.errors import StepLimit
from pipvm.engine import cases, compiled, generated_cases
from pipvm.isa.opcodes import BY_CODE, OP

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _e(name, arg=0, handler=None):
    """A loaded instruction: (opcode, operands, handler)."""
    return (getattr(OP, name), arg, handler)


L, S = _e('LOAD_LOCAL'), _e('STORE_LOCAL')


def test_a_block_is_a_run_of_at_least_two_instructions_it_can_hold():
    assert compiled.blocks([L, S], set()) == [(0, 2, None)]
    assert compiled.blocks([L], set()) == []
    assert compiled.blocks([], set()) == []
    # RETURN hands back: no block holds it, the run after it is one
    assert compiled.blocks([L, _e('RETURN'), L, S], set()) == [(2, 4, None)]
    assert compiled.blocks([L, S, _e('RETURN'), L, S, L], set()) == [(0, 2, None), (3, 6, None)]


def test_a_jump_ends_a_block_and_one_back_to_its_start_makes_it_a_loop():
    add = [L, _e('CONST'), _e('ADD'), S]
    assert compiled.blocks(add + [_e('JUMP', 0)], set()) == [(0, 5, 'loop')]
    assert compiled.blocks(add + [_e('JUMP', 9), L, S], set()) == [(0, 5, 'out'), (5, 7, None)]
    # a JUMP at a block's first index is no block's end (it cannot be held)
    assert compiled.blocks([_e('JUMP', 3), L, S], set()) == [(1, 3, None)]
    # a conditional jump stays inside (it leaves from the middle)
    assert compiled.blocks([L, _e('JUMP_IF_FALSE', 4), L, S], set()) == [(0, 4, None)]


def test_every_entered_index_opens_a_block_of_its_own_also_inside_another():
    assert compiled.blocks([L, S, L, S], {2}) == [(0, 4, None), (2, 4, None)]
    assert compiled.blocks([L, S, L, S], {1}) == [(0, 4, None), (1, 4, None)]
    # an index not entered, inside a block, opens none
    assert compiled.blocks([L, S, L, S], set()) == [(0, 4, None)]
    # entered one before the end: too short for a block
    assert compiled.blocks([L, S, L, S], {3}) == [(0, 4, None)]
    assert compiled.blocks([L, S, _e('JUMP', 1), L, S], {1}) == [
        (0, 3, 'out'), (1, 3, 'loop'), (3, 5, None)]


def test_an_instruction_that_ends_closes_its_block():
    assert BY_CODE[OP.AGG_STEP].ends
    assert compiled.blocks([L, _e('AGG_STEP'), L, S], set()) == [(0, 2, None), (2, 4, None)]


def test_which_loaded_instructions_a_block_may_hold():
    assert compiled._parts(L) == (BY_CODE[OP.LOAD_LOCAL],)
    fused = BY_CODE[OP.STORE_LOCAL_ADD_CONST]
    assert compiled._parts(_e('STORE_LOCAL_ADD_CONST')) == fused.parts
    for name in ('RETURN', 'JUMP', 'QUIET_MESSAGE', 'EQ_RETURN'):
        assert compiled._parts(_e(name)) is None, name
    # an instruction the quiet variant runs from its quiet body stays out
    code, quiet = next(iter(generated_cases.QUIET_HANDLERS.items()))
    assert compiled._parts((code, 0, quiet)) is None
    assert compiled._parts((code, 0, None)) is not None


def test_a_block_s_opcode_is_no_instruction_s():
    assert compiled.BLOCK not in BY_CODE and compiled.BLOCK not in set(OP.__dict__.values())


def test_a_loaded_instruction_s_operands_as_a_list():
    assert compiled._operands(_e('LOAD_LOCAL', 3)) == [3]
    assert compiled._operands(_e('FOR_NEXT', (1, 7))) == [1, 7]
    fused = BY_CODE[OP.STORE_LOCAL_ADD_CONST]
    n = sum(len(p.names) for p in fused.parts)
    assert n > 1 and compiled._operands(_e('STORE_LOCAL_ADD_CONST', tuple(range(n)))) == list(
        range(n))


def test_a_block_stands_at_its_first_index_with_its_operands_and_positions():
    instrs = [_e('LOAD_LOCAL', 0), _e('STORE_LOCAL', 1), _e('JUMP', 7), _e('RETURN')]
    positions = [((1, 1),), ((2, 2),), ((3, 3),), ((4, 4),)]
    loaded = types.SimpleNamespace(positions=list(positions))
    out = compiled.variant(loaded, instrs, set(), positions)
    assert out[1:] == instrs[1:]
    op, arg, fn = out[0]
    # after the block (3), the parts' operands, the JUMP's target and the pc after it
    assert op == compiled.BLOCK and arg == (3, 0, 1, 7, 3)
    assert compiled.lazy_of(fn).key == ((OP.LOAD_LOCAL, OP.STORE_LOCAL), 'out')
    assert loaded.positions[0] == ((1, 1), (2, 2), (3, 3))
    assert loaded.positions[1:] == positions[1:]
    # a shorter account never replaces a longer one already there
    loaded.positions[0] = ((0, 0),) * 5
    compiled.variant(loaded, instrs, set(), positions)
    assert loaded.positions[0] == ((0, 0),) * 5


def _machine(steps):
    return types.SimpleNamespace(steps_left=steps, max_steps=steps, consts=[1])


def test_a_block_s_function_returns_where_the_loop_goes_on():
    codes = (OP.LOAD_LOCAL, OP.STORE_LOCAL)
    frame, m = [5, None], _machine(10)
    assert compiled.function(codes)(m, [], frame, (2, 0, 1)) == 2 and frame == [5, 5]
    # a JUMP out: forward costs no step, backward one
    frame = [6, None]
    assert compiled.function(codes, 'out')(m, [], frame, (3, 0, 1, 9, 3)) == 9
    assert frame == [6, 6] and m.steps_left == 10
    assert compiled.function(codes, 'out')(m, [], frame, (3, 0, 1, 1, 3)) == 1
    assert m.steps_left == 9
    # a loop runs until the step limit stops it, one step a round
    m = _machine(3)
    with pytest.raises(StepLimit):
        compiled.function(codes, 'loop')(m, [], [1, None], (3, 0, 1))
    assert m.steps_left == -1


def test_a_block_s_function_is_made_at_its_hot_call_and_put_in_place(monkeypatch):
    monkeypatch.setattr(compiled, 'HOT', 3)
    compiled._MADE.clear()      # (made here, not found made by an earlier test)
    instrs = [_e('LOAD_LOCAL', 0), _e('STORE_LOCAL', 1)]
    loaded = types.SimpleNamespace(positions=[((1, 1),), ((2, 2),)])
    out = compiled.variant(loaded, instrs, set(), list(loaded.positions))
    op, arg, lazy = out[0]
    # (the loop calls a plain function while it is cold: an object's
    # __call__ costs it about twice the machine instructions)
    assert type(lazy) is types.FunctionType and compiled.lazy_of(lazy).calls == 0
    for _ in range(2):
        # cold: its first instruction alone, by its handler (nothing composed
        # nor compiled), the loop goes on at the next
        stack, frame = [], [4, None]
        assert lazy(_machine(5), stack, frame, arg) == 1 and stack == [4] and frame == [4, None]
        assert out[0][2] is lazy and not compiled._MADE
    frame = [4, None]
    assert lazy(_machine(5), [], frame, arg) == 2 and frame == [4, 4]
    assert out[0][0] == compiled.BLOCK and out[0][1] == arg
    assert out[0][2] is compiled.function((OP.LOAD_LOCAL, OP.STORE_LOCAL))
    cold = compiled.lazy_of(lazy)
    assert cold.source == out[0][2].source and cold.ops == out[0][2].ops
    assert compiled.lazy_of(out[0][2]) is None      # (made: no longer cold)
    assert [o.name for o in compiled.function((OP.LOAD_LOCAL, OP.STORE_LOCAL), 'out').ops] == [
        'LOAD_LOCAL', 'STORE_LOCAL', 'JUMP']


def test_every_index_a_jump_enters_opens_a_block_where_one_can_stand():
    # without its own block, the code after a jump's target would run in
    # the loop one instruction at a time (every game the same, only slower)
    from pipvm.engine import fusion, vm
    from pipvm.play import loader
    program = loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip'))
    image, plain = vm.Image(program, compiled=True), vm.Image(program)
    opened = 0
    for loaded, uncompiled in zip(image.codes, plain.codes):
        index = {offset: i for i, offset in enumerate(uncompiled.offsets)}
        decoded = [ins for parts in uncompiled.parts for ins in parts]
        for target in fusion.jump_targets(decoded):
            t = index.get(target)
            if t is None or not compiled.blocks(uncompiled.instrs[t:t + compiled.MIN_BLOCK],
                                                set()):
                continue
            assert loaded.instrs[t][0] == compiled.BLOCK, (loaded.code.name, t)
            opened += 1
    assert opened > 10


def test_the_code_before_its_blocks_is_kept_for_the_whole_action_functions():
    # actions.py writes an action as one function from its instructions
    # without blocks; without them no action gets one (every playout the
    # same, on the blocks and the loop, only slower)
    from pipvm.engine import actions, vm
    from pipvm.play import loader
    program = loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip'))
    image, plain = vm.Image(program, compiled=True), vm.Image(program)
    for loaded, uncompiled in zip(image.codes, plain.codes):
        loud, quiet, positions = loaded.plain
        assert loud == uncompiled.instrs and positions == uncompiled.positions
        # (the quiet code's checks are closures made per image: their opcodes)
        assert [op for op, _, _ in quiet] == [op for op, _, _ in uncompiled.quiet]
        assert loaded.instrs != uncompiled.instrs or not compiled.blocks(uncompiled.instrs, set())
    actions.prepare(image)
    assert any(loaded.action is not None for loaded in image.codes)


def test_every_instruction_a_block_may_begin_with_has_a_handler():
    # a cold block runs its first instruction by one (compiled._Lazy): the
    # loop's, or an inline instruction's, generated from the same body
    from pipvm.engine import generated_cases
    from pipvm.isa.opcodes import INSTRUCTIONS
    firsts = [op for op in INSTRUCTIONS if compiled._parts((op.code, None, None))]
    assert len(firsts) > 40
    for op in firsts:
        handler = generated_cases.HANDLERS.get(op.code) or generated_cases.INLINE_HANDLERS.get(op.code)
        assert handler is not None, op.name
    assert set(generated_cases.INLINE_HANDLERS).isdisjoint(generated_cases.HANDLERS)


def test_a_block_s_deal_is_made_for_its_mode_and_takes_its_operands_in_locals():
    # (cases.deal_body) LOAD_LOCAL source, LOAD_LOCAL dest[, LOAD_LOCAL count],
    # DEAL mode: nothing pushed nor popped, the count there or not as the
    # mode says, and the cards dealt as DEAL's own body deals them
    from pipvm.core import runtime
    from pipvm.isa.operands import DEAL_ALL, DEAL_TO_PLAYERS
    for mode in (0, DEAL_ALL, DEAL_TO_PLAYERS, DEAL_ALL | DEAL_TO_PLAYERS):
        counted = not mode & DEAL_ALL
        codes = (OP.LOAD_LOCAL,) * (2 + counted) + (OP.DEAL,)
        players = [runtime.Player('p%d' % i) for i in range(3)]
        dest = players if mode & DEAL_TO_PLAYERS else runtime.Area('pile', [], False, False)
        source = list(range(10))
        frame = [source, dest, 2 if counted else None]
        fn = compiled.function(codes, None, (mode,))
        assert 'stack.' not in fn.source and ('int(' in fn.source) == counted, fn.source
        # (whether the count is None a constant of the mode: no test of it)
        assert 'is None' not in cases.deal_body(mode).body
        stack = []
        arg = (9,) + tuple(range(2 + counted)) + (mode,)
        assert fn(_machine(10), stack, frame, arg) == 9 and stack == []
        # the same through DEAL's own body (the handler's: the stack)
        source2 = list(range(10))
        players2 = [runtime.Player('p%d' % i) for i in range(3)]
        dest2 = players2 if mode & DEAL_TO_PLAYERS else runtime.Area('pile', [], False, False)
        stack2 = [source2, dest2] + ([2] if counted else [])
        generated_cases.HANDLERS[OP.DEAL](_machine(10), stack2, [], mode)
        assert source == source2 and stack2 == []
        if mode & DEAL_TO_PLAYERS:
            assert [p.hand for p in players] == [p.hand for p in players2] != [[]] * 3
        else:
            assert dest.cards == dest2.cards != []


def test_a_block_holds_a_dealing_loop_at_once_and_leaves_it_past_the_loop():
    # DEAL_EACH (a load-time instruction a block can run: no pause, no loud
    # code) in a block after what pushes its list: the loop's rounds at
    # once and out to its end, or FOR_ITER's state left for the loop
    from pipvm.core import runtime
    each = _e('DEAL_EACH', (1, 0, 9, None))
    assert compiled._parts(each) == (BY_CODE[OP.DEAL_EACH],)
    assert compiled.blocks([L, each, _e('FOR_NEXT', (1, 9))], set()) == [(0, 3, None)]
    fn = compiled.function((OP.LOAD_LOCAL, OP.DEAL_EACH))
    players = [runtime.Player('p%d' % i, hand=[i, 10 + i]) for i in range(3)]
    deck = runtime.Area('deck', [99], False, False)
    m = types.SimpleNamespace(steps_left=5, max_steps=5, globals=[deck])
    frame, stack = [players, None], []
    assert fn(m, stack, frame, (3, 0, 1, 0, 9, None)) == 9
    assert deck.cards == [12, 2, 11, 1, 10, 0, 99] and stack == [] and frame[1] is players[2]
    assert m.steps_left == 2 and all(p.hand == [] for p in players)
    # too few steps for its rounds: the loop runs them
    players[0].hand[:] = [5]
    assert fn(m, stack, frame, (3, 0, 1, 0, 9, None)) == 3
    assert list(stack.pop()) == players and players[0].hand == [5] and m.steps_left == 2
