"""A loop over a list in an action's function (play-out mode,
pipvm/engine/actions.py) runs as a Python `for` over the iteration state
FOR_ITER left on the stack: its body inside it, a round's step counted at
its back JUMP, `skip to`, `break` and `continue` exact.  A playout must be
the loop's exactly, whatever stops it: a step limit in any round, an error
in a round, a message that cannot be quiet (the loud code goes on with
the same iteration state), a hand the body changes."""
import random

from compiler.pip import frontend
from pipvm.engine import actions, fors
from pipvm.engine.vm import Image
from pipvm.isa.opcodes import OP
from tests.fuzz import harness
from tests.test_compiled_playouts import _outcome, _play_outs, _states

LOOPS = '''Game "g" requires 2 players.
Number n = 0.
Number held.
Number total = 0.
Number gone.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action books {
  for c in %~C {
    let r be c->rank.
    held = 0.
    for h in players->first->hand {
      if h->rank == r { held += 1. }
    }
    if held >= 2 {
      for h in players->first->hand {
        if h->rank == r { deal h from players->first to table. }
      }
      total += held.
    }
  }
}
Action hop {
  for p in players starting at players->last {
    for c in p->hand {
      if c->rank == K { skip to out. }
      if c->rank == Q { break. }
      if c->rank == J { continue. }
      n += 1.
    }
  }
  label out.
  n += 100.
}
Action tell {
  for c in players->first->hand {
    if c->suit == H { message "{gone}". }
    if c->suit == S { n += 1000 / (total - total). }
  }
}
Action turn {
  play any from players->first to table.
  books().
  hop().
  if n > 400 { tell(). }
  rotate players.
}
Action main {
  deal 20 from standard to players.
  forever { turn(). }
}
'''


def _program():
    return harness.compile_checked(frontend.check_text(LOOPS))


def test_the_loops_are_python_fors():
    image = Image(_program(), compiled=True)
    actions.prepare(image)
    fns = {loaded.code.name: loaded.action for loaded in image.codes if loaded.action}
    for name, count in (('books', 3), ('hop', 2), ('tell', 1)):
        source = fns[name].source
        body = source.split('while True:')[1]
        assert body.count(' in stack[-1]:') >= count, source
        # no round goes back through the tree (FOR_NEXT's `next` is gone)
        assert 'next(stack[-1]' not in source, source
    assert 'break' in fns['hop'].source


def test_a_playout_with_fors_is_the_loop_s():
    loop, compiled = _play_outs(_program(), n=4, reps=3)
    assert loop == compiled
    errors = {o[1][2] for o in loop if o[1] and o[1][2]}
    # (the rounds reach an undefined message and a division by zero)
    assert any('Undefined' in e for e in errors) and any('Division' in e for e in errors), errors


def test_a_step_limit_in_any_round_of_a_for_stops_where_the_loop_s_does():
    # (and leaves each frame's stack as the loop does: the iteration states;
    # at an error the loop's holds the operands the function holds in locals)
    program = _program()
    for steps in list(range(1, 40, 3)) + [57, 101, 230, 377]:
        out = []
        for compiled in (False, True):
            image = Image(program, compiled=compiled)
            rng, played = random.Random(7), []
            for s in _states(image, program, 2):
                g = s.fork(quiet=True)
                g.limit_steps(steps)
                g.play_out(rng)
                depths = [len(rec[2]) for rec in g.machine.frames]
                played.append((_outcome(g, rng), depths if g.ending.kind != 'error' else None))
            out.append(played)
        assert out[0] == out[1], steps
        assert any(o[1] and o[1][0] != 'winner' for o, _ in out[0]), steps
        assert any(max(depths or [0]) > 1 for _, depths in out[0]), steps


def test_a_loop_whose_body_answers_a_question_stays_as_it_was():
    text = LOOPS.replace('Action hop {', '''Action ask_each {
  for p in players {
    ask p { "Yes" { n += 1. } "No" { n += 2. } }
  }
}
Action hop {''').replace('  hop().', '  hop().\n  ask_each().')
    program = harness.compile_checked(frontend.check_text(text))
    image = Image(program, compiled=True)
    actions.prepare(image)
    loaded = next(x for x in image.codes if x.code.name == 'ask_each')
    quiet = loaded.plain[1]
    head = next(i for i, (op, _, _) in enumerate(quiet) if op == OP.FOR_NEXT)
    assert head not in fors.loops(quiet)
    assert ' in stack[-1]:' not in loaded.action.source
    loop, compiled = _play_outs(program, n=3, reps=2)
    assert loop == compiled


def test_a_body_that_could_reach_below_its_state_is_no_for():
    # a crafted body: the state dropped and the loop's head jumped to
    # (FOR_NEXT then reads whatever is below): no `for`
    instrs = [(OP.CONST, 0, None), (OP.FOR_ITER, (), None), (OP.FOR_NEXT, (0, 5), None),
              (OP.DROP, 1, None), (OP.JUMP, 2, None), (OP.RETURN, (), None)]
    assert fors.loops(instrs) == {}
    instrs[3] = (OP.CONST, 0, None)
    instrs.insert(4, (OP.POP, (), None))
    instrs = [(op, (0, 6) if op == OP.FOR_NEXT else arg, h) for op, arg, h in instrs]
    assert fors.loops(instrs) == {2: 6}
    # jumped into from outside its body: no `for`
    instrs.insert(0, (OP.JUMP, 4, None))
    instrs = [(op, (0, 7) if op == OP.FOR_NEXT else 3 if (op == OP.JUMP and arg == 2) else arg, h)
              for op, arg, h in instrs]
    assert fors.loops(instrs) == {}


def test_a_loop_that_does_not_end_with_its_jump_back_is_no_for():
    # a crafted file: the JUMP back stands before the loop's last
    # instruction (one nothing reaches): a Python `for` would leave the loop
    # where FOR_NEXT's target is not; the compiler never writes one
    instrs = [(OP.CONST, 0, None), (OP.FOR_ITER, (), None), (OP.FOR_NEXT, (0, 7), None),
              (OP.CONST, 0, None), (OP.POP, (), None), (OP.JUMP, 2, None),
              (OP.CONST, 0, None), (OP.RETURN, (), None)]
    assert fors.loops(instrs) == {}
    del instrs[6]
    instrs[2] = (OP.FOR_NEXT, (0, 6), None)
    assert fors.loops(instrs) == {2: 6}


def test_a_quiet_instruction_jumping_into_a_body_makes_it_no_for():
    # a quiet instruction goes on at its last operand (quiet.py): one
    # before the loop whose `after` is inside its body enters it from outside
    instrs = [(OP.QUIET_LOCALS, ((), 5), None), (OP.CONST, 0, None), (OP.FOR_ITER, (), None),
              (OP.FOR_NEXT, (0, 7), None), (OP.CONST, 0, None), (OP.POP, (), None),
              (OP.JUMP, 3, None), (OP.RETURN, (), None)]
    assert fors.targets(OP.QUIET_LOCALS, ((), 5)) == [5]
    assert fors.loops(instrs) == {}
    instrs[0] = (OP.QUIET_LOCALS, ((), 1), None)
    assert fors.loops(instrs) == {3: 7}
