"""Play-out mode on the compiled tier (pipvm/engine/actions.py) where no
example game goes: hand-made files (a validated action doing what no
compiler writes), actions with a thousand locals, a playout started from
deep in Python's stack.  Each is played out on the loop and on the tier,
and the two must agree."""
import os
import re
import sys

from compiler.codegen.assembler import Assembler
from compiler.pip import frontend
from pipvm.engine.vm import Image
from pipvm.isa import pipc
from tests.fuzz import harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

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
    return [([(f.history, f.ending and (f.ending.kind, f.ending.winner, str(f.ending.error)),
               harness.snapshot(f.machine), rng.getstate()) for f, rng in runs],
             any(loaded.action is not None for loaded in image.codes))
            for image, runs in harness.played_out(program, seeds)]


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
    # under a limit of 1000 more than the test's own) as the calls go 700
    # deep (500 + 700 frames: past the limit unless it is raised)
    program = _program(_deep_chain(700))

    def nested(k):
        return nested(k - 1) if k else _play_outs(program, seeds=(1,))

    depth = len(_stack())
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000 + depth)
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


def test_a_rule_too_big_for_a_closure_is_played_by_the_loop_s_playable():
    # (a rule over pure.MAX_NODES instructions has no Pure: PLAY's filter
    # is Machine.playable's, as in the loop)
    terms = ' or '.join('c->rank == %d' % (2 + k % 12) for k in range(450))
    program = _program((GAME % '').replace('Rule any(p, c, pile) = True.',
                                           'Rule any(p, c, pile) = %s.' % terms))
    image = Image(program, compiled=True)
    assert image.pure[[c.name for c in program.codes].index('any')] is None
    (loop, _), (tier, functions) = _play_outs(program)
    assert functions and loop == tier


def test_a_local_past_the_thousandth_shown_by_a_quiet_message_plays_as_in_the_loop():
    # a slot of 1000 or more reaches the function as an operand (A[k]), not
    # as text; the message shows it, so it must be defined (QUIET_LOCALS)
    lets = '\n'.join('  let v%d be %d.' % (k, k) for k in range(1000))
    program = _program((GAME % '').replace(
        '  n += 1.\n}\nAction turn',
        '%s\n  let last be "last".\n  n += v999.\n  message "{last}".\n}\nAction turn' % lets))
    (loop, _), (tier, functions) = _play_outs(program)
    assert functions and loop == tier
    assert loop[0][2][0][1] >= 999


# Loops whose body only shows messages, written out by the function
# (QUIET_FOR): showing the item; only other locals (two Numbers, which
# could be too long to show); the item and a global.
QUIET_LOOPS = '''Number total = 0.
Action show {
  let a be n * 1000.
  let b be n.
  for c in players->first->hand { message "{c}". }
  for c in players->first->hand { message "{a} then {b}". }
  for x in [1; 2; n] { message "{x} of {total}". }
  total += a + b.
}'''


def test_quiet_loops_showing_the_item_or_other_locals_play_as_in_the_loop():
    program = _program((GAME % QUIET_LOOPS).replace('  helper().', '  helper().\n  show().'))
    (loop, _), (tier, functions) = _play_outs(program, seeds=(1, 2, 3))
    assert functions and loop == tier
    source = Image(program, compiled=True)
    from pipvm.engine import actions
    actions.prepare(source)
    text = [c.action.source for c in source.codes if c.code.name == 'show'][0]
    assert 'int in map(type, rest_)' in text and ' or (type(frame[' in text, text


def test_an_action_s_function_is_compiled_at_its_first_call(monkeypatch):
    # helper is written into turn, turn into main (it decides: inline.py),
    # wherever they are called: their own functions are never called in a
    # playout from the start, and never compiled
    from pipvm.design import sim
    from pipvm.engine import actions
    from pipvm.play import loader
    from pipvm.play.seats import Seating, parse_kind
    monkeypatch.setattr(actions, '_MADE', {})
    path = os.path.join(ROOT, 'tests', 'data', 'full', 'crazy_eights.pip')
    program, engine = loader.load_engine(path, 'compiled', 100_000)
    seating = sim.sim_seating(program, Seating({}, parse_kind('random'), None))
    results = [sim.play_one(engine, seating, seed) for seed in (1, 2)]
    assert all(r.ending == 'winner' for r in results)
    sources = set(actions._MADE)
    assert len(sources) == 1 and 'def action(' in next(iter(sources))
    assert actions._MADE[next(iter(sources))].__code__.co_filename == '<pipvm action main>'
    # a playout from a decision in `turn` goes on in turn's own function:
    # made at that first call, it stands in for itself from then on
    import random
    from pipvm.game.game import Game
    from pipvm.play.bots import playout
    image = Image(loader.load_program(path), compiled=True)
    game = Game(image, seed=3, players=2, names=['a', 'b'], quiet=True)
    actions.prepare(image)
    turn = next(loaded for loaded in image.codes if loaded.code.name == 'turn')
    later = turn.action
    assert later.source not in actions._MADE
    playout(game.fork(quiet=True), random.Random(3))
    assert turn.action is not later and turn.action.source == later.source
    assert turn.action.__code__ is actions._MADE[later.source].__code__
    assert turn.action.__defaults__ == later.__defaults__


def test_a_run_reaching_a_loop_head_tested_first_goes_there():
    # Crazy Eights' `turn`: its way in at 0 goes to its `forever` loop's
    # head by the tree, not through the loop's body written again
    from pipvm.engine import actions
    from pipvm.play import loader
    image = Image(loader.load_program(os.path.join(ROOT, 'tests', 'data', 'full',
                                                   'crazy_eights.pip')), compiled=True)
    actions.prepare(image)
    turn = next(loaded.action for loaded in image.codes if loaded.code.name == 'turn')
    # (its hand loop's rounds once; no test of their items: kinds.items_shown)
    assert turn.source.count('QUIET_ROUNDS(') == 1 and 'UNSHOWN' not in turn.source
    assert re.search(r'\n {20}pc = 8\n {20}continue\n', turn.source)


SHOWN_HANDS = '''Action show {
  let p be players->first.
  message p "Your hand:".
  for c in p->hand { message p "  {c}". }
  let q be players->first.
  message q "Yours:".
  q = players->last.
  for c in q->hand { message q "  {c}". }
}
Action numbers {
  let l be [1; 2].
  for x in l { message "{x}". }
}'''


def test_a_local_a_quiet_message_just_tested_is_not_tested_again_by_the_loop_after_it():
    # (the message's test is the statement itself, no name `defined`; the
    # hand loop after it tests p no more, but q again: stored since; the
    # items tested too: `numbers` keeps a list of Numbers, kinds.py)
    from pipvm.engine import actions
    program = _program((GAME % SHOWN_HANDS).replace('  helper().', '  helper().\n  show().'))
    image = Image(program, compiled=True)
    actions.prepare(image)
    text = [c.action.source for c in image.codes if c.code.name == 'show'][0]
    assert 'defined =' not in text and 'if frame[0] is None:' in text
    tests = [line.strip() for line in text.split('\n') if 'UNSHOWN' in line]
    assert tests == ['if len(rest_) > steps_ or not UNSHOWN.isdisjoint(map(type, rest_)):',
                     'if len(rest_) > steps_ or frame[2] is None or '
                     'not UNSHOWN.isdisjoint(map(type, rest_)):']
    (loop, _), (tier, functions) = _play_outs(program, seeds=(1, 2))
    assert functions and loop == tier


def test_a_loop_whose_body_always_leaves_is_a_start_of_the_tree():
    # Found by the fuzz (PIPVM_FUZZ_SEED=2901906597): a run falling into a
    # loop's head went on at it by the tree, which held no start there (no
    # jump the function reaches goes back to a head whose body always
    # leaves), so the run before it ran again and again, its iterators
    # piling up on the stack with no step counted, until memory ran out
    from pipvm.engine import actions
    program = _program(LEAVING)
    image = Image(program, compiled=True)
    actions.prepare(image)
    main = next(loaded.action for loaded in image.codes if loaded.code.name == 'main')
    assert main is not None and not harness.unheld(main)
    (loop, _), (tier, functions) = _play_outs(program, seeds=(1, 2))
    assert functions and loop == tier


LEAVING = '''Game "g" requires 2 players.
Deck stock = standard.
Action main {
  ask players->first { "yes" { message "y". } "no" { message "n". } }
  for p in players { message "a {p}". }
  for c in stock { message "b {c}". skip to out. }
  label out.
  ask players->first { "yes" { message "y". } "no" { message "n". } }
}
'''
