"""rewrites.reused: a checked read of a global, a local or a property of
one that an earlier checked read got, on every path and with nothing
between that could change it, is a copy of the name that holds it (an
action's function in play-out mode, pipvm/engine/actions.py); PLAY's
card answered where it stands in such a function (and PLAY_AGAIN's, and an ASK's
question); a loop's head, where
its long runs stop and the start tested before the function's tree of
starts."""
import os

from compiler.pip import frontend
from pipvm.engine import actions, rewrites
from pipvm.engine.vm import Image
from pipvm.play import loader
from tests.fuzz import harness
from tests.test_compiled_playouts import ROOT, _play_outs

READ = ['if (value0 := globals_[8]) is None:', "    raise Fault('Undefined value', 0)"]
AGAIN = ['if (value5 := globals_[8]) is None:', "    raise Fault('Undefined value', 5)"]
RANK = ['if (value6 := value5.rank) is None:', "    raise Fault('Undefined value', 6)"]


def _reused(lines):
    return [text for text, _ in rewrites.reused([(line, k) for k, line in enumerate(lines)])]


def test_a_read_again_is_a_copy_and_its_property_too():
    first = READ + ['if (value1 := value0.rank) is None:', "    raise Fault('Undefined value', 1)"]
    assert _reused(first + AGAIN + RANK + ['x = value6']) == first + [
        'value5 = value0', 'value6 = value1', 'x = value6']
    # a name that holds it already: nothing to read
    assert _reused(READ + ['y = len(value0)'] + READ) == READ + ['y = len(value0)', 'pass']


def test_a_read_after_what_may_change_it_is_checked_again():
    for between in ['globals_[8] = value3', 'globals_[8] += 1', 'x = A[3](self, value1)',
                    'self._answer_auto()', 'rec_[0].action(self, rec_)', 'env_ = frame + [self]',
                    'frames[-1][3][0] = v', 'value0 = 3', 'value0, z = 1, 2', 'for x in y:']:
        assert _reused(READ + [between] + AGAIN) == READ + [between] + AGAIN, between
    # a property after a store to any property
    assert _reused(READ + ['x.rank = 4', 'value5 = value0'] + RANK)[-2:] == RANK
    # a store of a defined value is known: its read is the name stored
    assert _reused(READ + ['frame[2] = value0', 'if (value3 := frame[2]) is None:',
                           "    raise Fault('Undefined value', 3)"])[-1] == 'value3 = value0'


def test_a_read_in_a_branch_ended_is_no_fact_after_it():
    branch = ['if n:'] + ['    ' + x for x in READ] + ['else:', '    y = 1']
    assert _reused(branch + AGAIN) == branch + AGAIN
    inside = ['try:'] + ['    ' + x for x in READ] + ['except Fault as e:'] + ['    ' + x for x in AGAIN]
    assert _reused(inside) == inside
    # (an enclosing block's read holds inside a nested one)
    assert _reused(READ + ['if n:'] + ['    ' + x for x in AGAIN]) == READ + ['if n:',
                                                                          '    value5 = value0']


CHANGED = '''Game "g" requires 2 players.
Number n = 0.
Number hits = 0.
Card seen.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action bump { n += 1. seen = table->cards->top. }
Action turn {
  play any from players->first to table.
  if n < 100 and seen->suit == S { hits += 1. }
  bump().
  if n > 7 and seen->suit == S { hits += 10. }
  if n == 12 { hits += 1000 / (n - 12). }
  rotate players.
}
Action main {
  deal 20 from standard to players.
  seen = standard->top.
  forever { turn(). }
}
'''


def test_a_global_a_callee_changes_is_read_again_and_fails_as_on_the_loop():
    program = harness.compile_checked(frontend.check_text(CHANGED))
    loop, compiled = _play_outs(program, n=2, reps=2)
    assert compiled == loop
    errors = {o[1][2] for o in loop if o[1]}
    assert any('Line 13' in e and 'Division by zero' in e for e in errors), errors


def test_euchre_s_functions_reuse_reads_and_answer_cards_where_they_play():
    image = Image(loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip')),
                  compiled=True)
    actions.prepare(image)
    fns = {loaded.code.name: loaded.action for loaded in image.codes if loaded.action}
    assert 'value5 = value2' in fns['rate'].source
    trick = fns['play_trick'].source
    assert 'choose_(len(cards))' in trick and 'card_choice(' in trick
    assert '_answer_auto' not in trick


def test_a_loop_s_head_its_stops_and_the_start_are_tested_before_the_tree():
    image = Image(loader.load_program(os.path.join(ROOT, 'examples', 'euchre.pip')),
                  compiled=True)
    actions.prepare(image)
    fns = {loaded.code.name: loaded.action for loaded in image.codes if loaded.action}
    # play_trick's `for p in players starting at leader` starts at 7, a
    # Python `for`; the loud loop of its quiet `for c in p->hand` (13) is no head
    lines = [line.strip() for line in fns['play_trick'].source.split('\n')]
    tests = [line for line in lines if line.startswith('if pc ')]
    assert tests[0] == 'if pc == 7:' and 'if pc == 13:' not in tests, tests
    assert lines[lines.index('if pc == 7:') + 1] == 'for frame[2] in stack[-1]:'
    assert tests.index('if pc == 0:') < min(k for k, t in enumerate(tests) if '<' in t)
    # choose_trump's loops (an ASK's answer jumps: no `for`) go back to 64
    # and 11; the long runs of their bodies stop where the tree then tests
    # first; 0 before the tree
    tests = [line.strip() for line in fns['choose_trump'].source.split('\n')
             if line.strip().startswith('if pc ')]
    assert tests[:6] == ['if pc == %d:' % k for k in (64, 11, 32, 51, 87, 0)], tests
    assert 'if pc == 0:' in fns['rate'].source.split('while True:')[1].split('\n')[1]


def test_crazy_eights_answers_its_plays_and_questions_where_they_stand():
    # PLAY after CANPLAY (PLAY_AGAIN: its destination cards_of(x)) and the
    # ASK to draw are answered in the function, not by _answer_auto's call,
    # and its playouts are the loop's
    program = loader.load_program(os.path.join(ROOT, 'tests', 'data', 'full', 'crazy_eights.pip'))
    image = Image(program, compiled=True)
    actions.prepare(image)
    turn = {loaded.code.name: loaded.action for loaded in image.codes if loaded.action}['turn']
    source = turn.source
    assert 'dest_ = ' in source and 'choose_(len(found))' in source, source
    assert 'action_choice(' in source and 'choose_(len(texts))' in source
    assert '_answer_auto' not in source
    loop, compiled = _play_outs(program, n=3, reps=3)
    assert compiled == loop
