"""Direct tests of fors.loops on shapes no example's code has
(tools/mutation-results/fors.tsv: the mutants these kill)."""
from compiler.pip import frontend
from pipvm.engine import actions, fors
from pipvm.engine.vm import Image
from pipvm.isa.opcodes import OP
from tests.fuzz import harness
from tests.test_loop_fors import LOOPS


def test_a_for_next_whose_target_is_not_past_its_jump_back_is_no_loop():
    # a crafted list: FOR_NEXT's target is its own index, just after a JUMP
    # to it; the loop's end must come after its head and its body
    instrs = [(OP.CONST, 0, None), (OP.FOR_ITER, (), None), (OP.JUMP, 3, None),
              (OP.FOR_NEXT, (0, 3), None), (OP.RETURN, (), None)]
    assert fors.loops(instrs) == {}


def test_a_question_only_a_jump_reaches_keeps_the_loop_as_it_was():
    # the ASK stands in an `else`, which only the `if`'s jump reaches: the
    # walk over the body follows jumps, not only the instruction after
    text = LOOPS.replace('Action hop {', '''Action ask_some {
  for p in players {
    if n > 3 { n += 1. } else { ask p { "Yes" { n += 1. } "No" { n += 2. } } }
  }
}
Action hop {''').replace('  hop().', '  hop().\n  ask_some().')
    program = harness.compile_checked(frontend.check_text(text))
    loaded = next(x for x in Image(program, compiled=True).codes if x.code.name == 'ask_some')
    for instrs in loaded.plain[:2]:        # (loud and quiet, as loaded: no blocks)
        head = next(i for i, (op, _, _) in enumerate(instrs) if op == OP.FOR_NEXT)
        assert any(op in (OP.ASK, OP.ASK_FROM) for op, _, _ in instrs)
        assert head not in fors.loops(instrs)


def test_a_loop_with_an_empty_body_is_a_for():
    # its body is its JUMP back alone: FOR_NEXT's target two past its head
    instrs = [(OP.CONST, 0, None), (OP.FOR_ITER, (), None), (OP.FOR_NEXT, (0, 4), None),
              (OP.JUMP, 2, None), (OP.RETURN, (), None)]
    assert fors.loops(instrs) == {2: 4}


def test_a_jump_from_outside_to_the_loop_s_head_keeps_its_for():
    # entered at its head (as FOR_ITER falls through to it), not inside its
    # body: a quiet instruction before it going on at the FOR_NEXT
    instrs = [(OP.QUIET_LOCALS, ((), 3), None), (OP.CONST, 0, None), (OP.FOR_ITER, (), None),
              (OP.FOR_NEXT, (0, 7), None), (OP.CONST, 0, None), (OP.POP, (), None),
              (OP.JUMP, 3, None), (OP.RETURN, (), None)]
    assert fors.loops(instrs) == {3: 7}


def test_a_quiet_message_goes_on_at_its_last_operand():
    # QUIET_MESSAGE's operand is (slots, checks, after): a three-tuple, its
    # target the last; one before the loop going on inside its body enters it
    assert fors.targets(OP.QUIET_MESSAGE, ((0,), (), 5)) == [5]
    instrs = [(OP.QUIET_MESSAGE, ((), (), 5), None), (OP.CONST, 0, None), (OP.FOR_ITER, (), None),
              (OP.FOR_NEXT, (0, 7), None), (OP.CONST, 0, None), (OP.POP, (), None),
              (OP.JUMP, 3, None), (OP.RETURN, (), None)]
    assert fors.loops(instrs) == {}


def test_an_instruction_at_the_loop_s_end_jumping_into_its_body_enters_it():
    # the instruction at end (FOR_NEXT's target) is outside the body: a
    # jump from it back into the body enters the loop past its head
    instrs = [(OP.CONST, 0, None), (OP.FOR_ITER, (), None), (OP.FOR_NEXT, (0, 6), None),
              (OP.CONST, 0, None), (OP.POP, (), None), (OP.JUMP, 2, None),
              (OP.JUMP, 4, None), (OP.RETURN, (), None)]
    assert fors.loops(instrs) == {}


def test_a_body_that_puts_another_value_where_its_state_was_is_no_for():
    # the state dropped, a constant pushed in its place, the JUMP back at
    # the depth it began at: the walk refuses at the pop, not at the JUMP
    instrs = [(OP.CONST, 0, None), (OP.FOR_ITER, (), None), (OP.FOR_NEXT, (0, 6), None),
              (OP.DROP, 1, None), (OP.CONST, 0, None), (OP.JUMP, 2, None), (OP.RETURN, (), None)]
    assert fors.loops(instrs) == {}


def test_a_loop_inside_a_for_s_body_that_is_no_for_makes_the_outer_no_for():
    # `forever` in a `for`: its JUMP back goes to an index the run has
    # passed, which a `for` cannot write as a jump (a Python `continue`
    # would go to the next item): the outer loop stays as it was
    from tests.test_compiled_playouts import _play_outs
    text = LOOPS.replace('Action hop {', '''Action spin {
  for c in players->first->hand {
    let k be 0.
    forever {
      k += 1.
      if k > c->rank { break. }
    }
    n += k.
  }
}
Action hop {''').replace('  hop().', '  hop().\n  spin().')
    program = harness.compile_checked(frontend.check_text(text))
    image = Image(program, compiled=True)
    actions.prepare(image)
    loaded = next(x for x in image.codes if x.code.name == 'spin')
    assert ' in stack[-1]:' not in loaded.action.source
    loop, compiled = _play_outs(program, n=3, reps=2)
    assert loop == compiled
