"""kinds.items_shown: whether no list a program can make holds a value a
message cannot show (undefined, a Number), and the compiled tier's quiet
loops without their test of the items where none can."""
import os

from compiler.pip import frontend
from pipvm.core import plain
from pipvm.engine import actions, kinds
from pipvm.engine.vm import Image
from pipvm.play import loader
from tests.fuzz import harness
from tests.test_compiled_playouts import QUIET_LOOPS, ROOT, _play_outs

HAND = '''Game "g" requires 2 players.
Deck deck = standard.
Rule any(p, c, pile) = c->suit == pile->top->suit or c->rank == 8.
Area table labeled "Table" is faceup.
Action turn {
  for c in players->first->hand { message "{c}". }
  if canplay any from players->first to table { play any from players->first to table. }
  else { deal 1 from deck to players->first. }
  if players->first->hand->size == 0 { winner players->first. }
  rotate players.
}
Action main {
  shuffle deck.
  deal 5 from deck to players.
  deal 1 from deck to table.
  forever { turn(). }
}
'''


def _sources(program):
    image = Image(program, compiled=True)
    actions.prepare(image)
    return '\n'.join(loaded.action.source for loaded in image.codes if loaded.action)


def test_a_program_that_only_moves_cards_loops_over_them_untested():
    program = harness.compile_checked(frontend.check_text(HAND))
    assert kinds.items_shown(program)
    source = _sources(program)
    assert 'QUIET_ROUNDS(' in source and 'UNSHOWN' not in source and 'in rest_' not in source
    loop, compiled = _play_outs(program, n=3, reps=2)
    assert compiled == loop
    crazy_eights = loader.load_program(os.path.join(ROOT, 'tests', 'data', 'full',
                                                    'crazy_eights.pip'))
    assert kinds.items_shown(crazy_eights) and 'UNSHOWN' not in _sources(crazy_eights)


def test_a_program_that_may_make_a_list_of_other_values_keeps_the_test():
    # a list built of values ([1; 2; n]), a list constant of Numbers kept
    # in a local, code that is no code (a constant list a CONST may push:
    # test_kinds_mutants.py)
    quiet = harness.compile_checked(frontend.check_text(QUIET_LOOPS))
    assert not kinds.items_shown(quiet) and 'UNSHOWN.isdisjoint' in _sources(quiet)
    for name in ('oh_hell_ext', 'durak'):
        assert not kinds.items_shown(loader.load_program(os.path.join(ROOT, 'examples',
                                                                      name + '.pip')))
    # (a list constant of Numbers kept in a local: anything may be done with it)
    kept = harness.compile_checked(frontend.check_text(HAND.replace(
        'forever', 'let l be [1; 2]. for x in l { message "{x}". } forever')))
    assert not kinds.items_shown(kept)
    program = harness.compile_checked(frontend.check_text(HAND))
    bad = plain.evolve(program, codes=(plain.evolve(program.codes[0], code=b'\xff'),)
                       + tuple(program.codes[1:]))
    assert not kinds.items_shown(bad)


COUNTED = HAND.replace('Area table', 'PlayerList seats = [players].\nNumber n = 0.\nArea table')
COUNTED = COUNTED.replace(
    '  rotate players.', """  for x in [1; 2; 3] { n += x. }
  if n > 6 and n * 2 >= 12 and not (players->first in seats) { n -= n / 2. }
  for p in seats starting at players->first { for c in p->hand { message p "{c}". } }
  rotate players.""")


def test_arithmetic_a_for_over_a_list_constant_and_a_list_of_the_players_keep_the_answer():
    # Euchre's `for round in [1; 2; 3; 4; 5]` and its sums, Oh Hell's
    # `seats = [players]`: their hand loops untested (3-5% of a playout answer)
    program = harness.compile_checked(frontend.check_text(COUNTED))
    assert kinds.items_shown(program)
    source = _sources(program)
    assert 'QUIET_ROUNDS(' in source and 'UNSHOWN' not in source and 'in rest_' not in source
    loop, compiled = _play_outs(program, n=3, reps=2)
    assert compiled == loop
    for name in ('euchre', 'oh_hell'):
        game = loader.load_program(os.path.join(ROOT, 'examples', name + '.pip'))
        assert kinds.items_shown(game) and 'UNSHOWN' not in _sources(game)
