"""pipvm/engine/answers.py's jump from an ASK's answer straight to its
question's code, on a table no compiler writes (tools/mutation-results/
answers.tsv: the mutant this kills): a validated file whose ASK's second
JUMP goes back to its first.  The loop counts a step at that JUMP back; the
tier must too, so it keeps the answer's pass through the JUMPs."""
from compiler.pip import frontend
from pipvm.isa import pipc
from pipvm.isa.opcodes import OP, TARGET_KINDS
from tests.fuzz import harness

GAME = '''Game "g" requires 2 players.
Number n = 0.
Action turn {
  ask players->first {
    "a" { n += 1. }
    "b" { n += 1000. }
  }
}
Action main {
  forever { turn(). rotate players. }
}
'''


def _backward_table():
    """GAME's program with the ASK's second JUMP aimed at its first (both
    answers then run "a"'s code), validated as any file is."""
    program = harness.compile_checked(frontend.check_text(GAME))
    k = [c.name for c in program.codes].index('turn')
    code = program.codes[k]
    decoded = pipc.decode(code.code)
    at = next(i for i, ins in enumerate(decoded) if ins.op.code == OP.ASK)
    first, second = decoded[at + 1], decoded[at + 2]
    assert first.op.code == second.op.code == OP.JUMP
    data = bytearray(code.code)
    field = pipc.operand_at(data, second.offset, TARGET_KINDS[0])
    data[field:field + 4] = first.offset.to_bytes(4, 'little')
    program.codes[k] = pipc.Code('action', 'turn', code.local_names, bytes(data), code.lines)
    return pipc.load(pipc.dump(program), '<hand-made>')


def test_an_answer_through_a_jump_back_counts_its_step_as_on_the_loop():
    program = _backward_table()
    runs = harness.played_out(program, seeds=(1, 2, 3), max_steps=500)
    (_, loop), (image, tier) = runs
    assert any(loaded.action is not None for loaded in image.codes)
    played = [[(f.history, f.ending and (f.ending.kind, str(f.ending.error)),
                harness.snapshot(f.machine), f.machine.steps_left) for f, _ in r]
              for r in (loop, tier)]
    assert played[0] == played[1]
    # (every answer ran "a", "b" among them: n counts the turns, which the
    # step limit ends)
    assert all(p[2][0][0] < 1000 and p[1][0] == 'step limit' and (1, 'b') in p[0]
               for p in played[0]), played[0]
    # the tier's turn goes through the JUMPs (pc = first + the answer), not
    # to a tuple of their targets
    turn = next(l.action for l in image.codes if l.code.name == 'turn')
    assert turn is not None and '+ enabled[choice_]' in turn.source
