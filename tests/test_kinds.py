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
    # a list built of values ([1; 2; n]), a list constant, a constant list a
    # CONST may push (only a hand-made file holds one), code that is no code
    quiet = harness.compile_checked(frontend.check_text(QUIET_LOOPS))
    assert not kinds.items_shown(quiet) and 'UNSHOWN.isdisjoint' in _sources(quiet)
    for name in ('euchre', 'oh_hell'):
        assert not kinds.items_shown(loader.load_program(os.path.join(ROOT, 'examples',
                                                                      name + '.pip')))
    program = harness.compile_checked(frontend.check_text(HAND))
    listed = plain.evolve(program, consts=type(program.consts)(list(program.consts) + [(1, 2)]))
    assert not kinds.items_shown(listed)
    bad = plain.evolve(program, codes=(plain.evolve(program.codes[0], code=b'\xff'),)
                       + tuple(program.codes[1:]))
    assert not kinds.items_shown(bad)
