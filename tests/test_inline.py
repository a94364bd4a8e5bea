"""Small actions written in place of their calls in play-out mode
(pipvm/engine/inline.py): a Fault, a step limit or an invalid file's error
inside one is reported as its call reports it in the loop, with the same
frames left on the machine, nested ones too; what goes on after one is as
in the loop."""

import os

import pytest

from compiler.pip import frontend
from pipvm.engine import actions, inline
from pipvm.engine.vm import Image
from tests.fuzz import harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GAME = '''Game "g" requires 2 players.
Deck deck = standard.
Number n = 0.
Number seat = 0.
Number missing.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action find_seat {
  let i be 1.
  for p in players {
    if p == players->first { seat = i. }
    i += 1.
  }
  %s
}
Action helper {
  find_seat().
  for k in [1; 2; 3] { n += 1. }
  %s
}
Action turn {
  play any from players->first to table.
  helper().
  %s
}
Action main {
  shuffle deck.
  deal 6 from deck to players.
  forever { turn(). rotate players. }
}
'''


def _program(leaf='', helper='', turn=''):
    return harness.compile_checked(frontend.check_text(GAME % (leaf, helper, turn)))


def _frames(machine):
    """The frame records a playout left: each action's name and locals."""
    return [(rec[0].code.name, [v if type(v) is int else type(v).__name__ for v in rec[3]])
            for rec in machine.frames]


def _play_outs(program, max_steps=None):
    """For the loop and the tier: each seed's playout (history, ending,
    state, frames left), and the tier's image."""
    (_, loop), (image, tier) = harness.played_out(program, max_steps=max_steps)
    loop, tier = ([(f.history, f.ending and (f.ending.kind, str(f.ending.error)),
                    harness.snapshot(f.machine), _frames(f.machine)) for f, _ in runs]
                  for runs in (loop, tier))
    return loop, tier, image


def _source(image, name):
    return next(loaded.action.source for loaded in image.codes if loaded.code.name == name)


def test_leaves_are_written_in_place_nested_and_play_as_in_the_loop():
    loop, tier, image = _play_outs(_program())
    assert loop == tier
    codes = [loaded.code.name for loaded in image.codes]
    # find_seat is written in helper, helper (find_seat in it) in turn: no call left
    assert 'fr%d = [None]' % codes.index('find_seat') in _source(image, 'helper')
    turn = _source(image, 'turn')
    assert 'fr%d = [None]' % codes.index('helper') in turn
    assert 'fr%d_%d = [None]' % (codes.index('find_seat'), codes.index('helper')) in turn
    assert '.action(self' not in turn


@pytest.mark.parametrize('where', ['leaf', 'helper', 'turn'])
def test_a_fault_in_or_after_a_leaf_is_reported_with_the_loop_s_frames(where):
    # an undefined value read in the innermost leaf, in the one around it,
    # or in the caller after both: the same message at the same place, and
    # the frames the call left (the leaves' records pushed on the way out)
    loop, tier, _ = _play_outs(_program(**{where: 'n = missing.'}))
    assert loop[0][1][0] == 'error' and 'Undefined' in loop[0][1][1], loop[0][1]
    assert loop == tier
    names = [name for name, _ in tier[0][3]]
    assert names[-1] == {'leaf': 'find_seat', 'helper': 'helper', 'turn': 'turn'}[where]
    if where == 'leaf':
        assert names[-3:] == ['turn', 'helper', 'find_seat']


@pytest.mark.parametrize('max_steps', [5, 40, 41, 42, 43, 60, 200])
def test_the_step_limit_met_inside_a_leaf_is_met_at_the_same_step(max_steps):
    loop, tier, _ = _play_outs(_program(), max_steps=max_steps)
    assert loop == tier
    assert any(p[1] and 'step' in p[1][1].lower() for p in loop) or max_steps == 200


def test_a_leaf_that_decides_is_written_in_and_plays_as_in_the_loop():
    # (its answer drawn by the caller's names for the policy, not renamed)
    program = _program(helper='play any from players->first to table.')
    loop, tier, image = _play_outs(program)
    assert loop == tier
    codes = [loaded.code.name for loaded in image.codes]
    turn = _source(image, 'turn')
    assert 'fr%d = [None]' % codes.index('helper') in turn and '.action(self' not in turn
    assert 'choose_(' in turn and 'choose__' not in turn and 'noted__' not in turn


def test_a_leaf_that_calls_out_is_not_a_leaf():
    # find_seat's message shows a Number in its own `for`: its hand-over
    # to the loud code cannot leave by `break`
    program = _program(leaf='for p in players { n += 1. message p "{n}". }')
    image = Image(program, compiled=True)
    actions.prepare(image)
    codes = {loaded.code.name: loaded for loaded in image.codes}
    assert 'return LOUD_RUN' in codes['find_seat'].action.source
    assert inline.leaf(codes['find_seat'].action, codes['find_seat'].frame_size) is None
    assert inline.leaf(codes['helper'].action, codes['helper'].frame_size) is None
    assert '.action(self' in _source(image, 'helper') and '.action(self' in _source(image, 'turn')
    loop, tier, _ = _play_outs(program)
    assert loop == tier


@pytest.mark.parametrize('where', ['leaf', 'helper'])
def test_a_leaf_handing_over_to_its_loud_code_leaves_the_loop_s_frames(where):
    # a quiet message showing an undefined global, after a decision: the
    # leaf's quiet code hands over to its loud code, which reports it with
    # the callee's record pushed as the call would have left it
    text = 'play any from players->first to table. message players->first "{missing}".'
    loop, tier, image = _play_outs(_program(**{where: text}))
    assert loop[0][1][0] == 'error' and 'Undefined' in loop[0][1][1], loop[0][1]
    assert loop == tier
    names = [name for name, _ in tier[0][3]]
    assert names[-1] == {'leaf': 'find_seat', 'helper': 'helper'}[where]
    codes = [loaded.code.name for loaded in image.codes]
    k = codes.index({'leaf': 'find_seat', 'helper': 'helper'}[where])
    caller = _source(image, {'leaf': 'helper', 'helper': 'turn'}[where])
    assert 'ho%d = None' % k in caller and 'LOUD_RUN(self, entered(frames, rec' in caller
    # (a function holding a hand-over of a callee's is not a leaf itself:
    # the record pushed would lack its own)
    assert ('.action(self' in _source(image, 'turn')) == (where == 'leaf')


def test_a_leaf_s_stored_names_are_renamed_apart_but_not_keywords_or_strings():
    text = ("            a, b = f(x=c, y=[d])\n"
            "            if (e := frame[1]) is None:\n"
            "                raise Fault('a b e frame', 0)\n"
            "            push(a + b + e + A[3])  # a b\n"
            "            self.a = b")
    renamed, stack = inline._renamed(text)
    suffix = inline._SUFFIX
    assert stack
    assert renamed.replace(suffix, '@').split('\n') == [
        "            a_@, b_@ = f(x=c, y=[d])",
        "            if (e_@ := fr@[1]) is None:",
        "                raise Fault('a b e frame', 0)",
        "            st@.append(a_@ + b_@ + e_@ + A[@3@])  # a b",
        "            self.a = b_@"]
    # what a leaf may not name
    assert inline._renamed("            rec_[0].action(self, rec_)") is None
    assert inline._renamed("            x = self.frames") is None
    assert inline._renamed("            x = f'{y}'") is None


def test_the_starts_only_a_paused_frame_enters_are_left_out_of_a_leaf():
    # (the test tree's branch past the loop heads and 0, where every jump
    # goes to one of them)
    body = ['            if pc == 8:', '                x = 1', '                pc = 8',
            '                continue', '            else:', '                if pc == 0:',
            '                    pc = 8', '', '                else:', '                    if pc < 5:',
            '                        y = 2', '                    else:', '                        z = 3']
    assert inline._unentered(body, list(range(13))) == (body[:8], list(range(8)))
    for jump in ('pc = 5', 'pc = (8, 0)[x]', 'pc = 8  # x'):
        other = body[:2] + ['                ' + jump] + body[3:]
        assert inline._unentered(other, list(range(13))) == (other, list(range(13)))
    assert inline._unentered(body[1:], list(range(12))) == (body[1:], list(range(12)))
    untested = body[:5] + ['                x = 2'] + body[5:]
    assert inline._unentered(untested, list(range(14))) == (untested, list(range(14)))
    # Crazy Eights' `turn` (511 lines, 225 without its ASK's and deals'
    # starts) stands in main's loop, once
    from pipvm.play import loader
    image = Image(loader.load_program(os.path.join(ROOT, 'tests', 'data', 'full',
                                                   'crazy_eights.pip')), compiled=True)
    actions.prepare(image)
    codes = {loaded.code.name: loaded for loaded in image.codes}
    leaf = inline.leaf(codes['turn'].action, codes['turn'].frame_size)
    assert leaf is not None and leaf.loud and len(leaf.lines) < inline.MAX_LINES
    main = codes['main'].action.source
    assert main.count('QUIET_ROUNDS(') == 1 and '.action(self' not in main
