"""Play-out mode on the compiled tier (pipvm/engine/actions.py) where no
example game goes: hand-made files (a validated action doing what no
compiler writes), actions with a thousand locals, a playout started from
deep in Python's stack.  Each is played out on the loop and on the tier,
and the two must agree."""
import random
import re
import sys

from compiler.codegen.assembler import Assembler
from compiler.pip import frontend
from pipvm.engine.vm import Image
from pipvm.game.game import Game
from pipvm.isa import pipc
from pipvm.play.bots import playout
from tests.fuzz import harness

GAME = '''Game "g" requires 2 players.
Deck deck = standard.
Number n = 0.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
%s
Action helper {
  n += 1.
}
Action turn {
  play any from players->first to table.
  helper().
}
Action main {
  shuffle deck.
  deal 6 from deck to players.
  forever { turn(). rotate players. }
}
'''


def _program(text):
    return harness.compile_checked(frontend.check_text(text))


def _hand_made(instrs, declarations=''):
    """GAME's program with its action `helper` replaced by instrs (name,
    *operands), validated as any file is."""
    program = _program(GAME % declarations)
    asm = Assembler()
    for op, *args in instrs:
        asm.emit(op, *args, pos=(8, 3))
    k = [c.name for c in program.codes].index('helper')
    program.codes[k] = pipc.Code('action', 'helper', [], bytes(asm.code), asm.lines)
    return pipc.load(pipc.dump(program), '<hand-made>')


def _play_outs(program, seeds=(1, 2)):
    """For the loop and the compiled tier: each seed's playout from the
    game's first decision (history, ending, final state, the policy's
    generator), and whether the tier ran actions as functions."""
    out = []
    for compiled in (False, True):
        image = Image(program, compiled=compiled)
        played = []
        for seed in seeds:
            g = Game(image, seed=seed, players=2, names=['a', 'b'], quiet=True)
            rng = random.Random(seed)
            f = playout(g.fork(quiet=True), rng)
            e = f.ending
            played.append((f.history, e and (e.kind, e.winner, str(e.error)),
                           harness.snapshot(f.machine), rng.getstate()))
        out.append((played, any(loaded.action is not None for loaded in image.codes)))
    return out


def test_a_validated_action_adding_a_string_fails_as_in_the_loop():
    # the verifier checks no value's kind: ADD of a String and a Number
    # fails at run time as invalid bytecode, naming the action and the cause
    program = _hand_made([('CONST', 1), ('CONST', 2), ('ADD',), ('STORE_GLOBAL', 1),
                          ('RETURN',)])
    assert program.consts[1] == 'Table' and program.consts[2] == 1
    (loop, _), (tier, functions) = _play_outs(program)
    assert functions
    errors = [o[1] for o in loop]
    assert all(e[0] == 'error' and 'invalid bytecode' in e[2] for e in errors), errors
    # (the tier's function knows the action, not the instruction's offset)
    assert [o[:1] + (o[1][:2] + (re.sub(r' at offset \d+ of', ' in', o[1][2]),),) + o[2:]
            for o in loop] == tier
    assert tier[0][1][2] == ("Error: invalid bytecode in action helper "
                             "(invalid literal for int() with base 10: 'Table')")


def _deep_chain(n):
    """n actions, each calling the one before, called at each turn."""
    chain = '\n'.join(['Action a0 { n += 1. }'] +
                      ['Action a%d { n += 1. a%d(). }' % (k, k - 1) for k in range(1, n)])
    return (GAME % chain).replace('  n += 1.\n}\nAction turn', '  a%d().\n}\nAction turn' % (n - 1))


def test_a_deep_playout_started_deep_in_python_s_stack_runs_as_in_the_loop():
    # A called action is a Python call: the recursion limit must keep a
    # margin for the frames already below the playout (here 500 of them,
    # under a limit of 1000 + 500) as the calls go 700 deep
    program = _program(_deep_chain(700))

    def nested(k):
        return nested(k - 1) if k else _play_outs(program, seeds=(1,))

    depth = len(_stack())
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1500 + depth)
    try:
        (loop, _), (tier, functions) = nested(500)
    finally:
        sys.setrecursionlimit(limit)
    assert functions and loop == tier
    assert loop[0][2][0][1] >= 700        # (the global n: one call a round of the chain)


def _stack():
    frames, f = [], sys._getframe()
    while f is not None:
        frames.append(f)
        f = f.f_back
    return frames
