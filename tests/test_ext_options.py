"""The extension 'options from a list' (docs/language.md): `ask p { for x in
LIST "text" [if cond] { ... } ... }`, through every layer."""
import random

import pytest
from pygments.token import Error

from compiler.pip import frontend
from compiler.errors import PipError
from compiler.pip.highlight import PipLexer
from pipvm.game.game import Game
from tests.fuzz.harness import both
from tests.test_extensions import printed_refused_found

HAND = '''Game "Fish" requires 3 players.
Number asked = 0.
Action main {
  deal 3 from standard to players.
  let p be players->first.
  let picked be p.
  forever {
    ask p {
      "Stop" if asked > 1 { skip to out. }
      for c in p->hand "Show {c}" if c->rank != 5 {
        message "{c} shown".
        asked += 1.
      }
      for o in players "Pick {o}" if o != p {
        picked = o.
        asked += 1.
      }
    }
  }
  label out.
  message "{asked} {picked}".
}
'''


def test_options_mix_in_order_and_bind_the_item_on_the_vm_and_the_reference():
    vm, ref = both(HAND, 3, ['3', 'Ada', 'Ben', 'Cleo', 'Pick Cleo', 2, 'Stop'])
    assert vm == ref
    lines = vm.transcript.splitlines()
    first = lines.index('Ada: Choose an action:')
    options = lines[first + 1:lines.index('Your choice? Pick Cleo')]
    assert options[-2:] == ['  Pick Ben', '  Pick Cleo'] and len(options) == 5
    assert all(o.startswith('  Show ') for o in options[:3])
    shown = options[2].strip()[len('Show '):]
    assert shown + ' shown' in lines
    assert lines[-2:] == ['2 Cleo', 'No winner has been declared.']


def test_no_option_left_is_the_ask_error_on_both():
    source = '''Game "E" requires 2 players.
Action main {
  ask players->first {
    for c in players->first->hand "{c}" { }
    "never" if False { }
  }
}
'''
    vm, ref = both(source, 1, ['2', 'Ada', 'Ben'])
    assert vm == ref
    assert vm.ending == 'Error: Line 3, Col 3: None of the questions can be asked'


@pytest.mark.parametrize('question,error', [
    ('for x in 5 "a" { }', 'Line 3, Col 33: Expected a list type but found type Number'),
    ('for x in players "a" if x { }', 'Line 3, Col 48: Expected type Boolean but found type Player'),
    ('for x in players "{y}" { }', "Line 3, Col 43: Unknown identifier 'y'"),
    ('"a" { } for x in players "b" { } "c" { message "{x}". }',
     "Line 3, Col 73: Unknown identifier 'x'"),
])
def test_checker_errors_are_positioned(question, error):
    source = 'Game "C" requires 2 players.\nAction main {\n  ask players->first { %s }\n}\n' % question
    with pytest.raises(PipError) as e:
        frontend.check_text(source)
    assert str(e.value) == 'Error: ' + error


def test_printer_round_trips_and_strict_refuses():
    printed, refused, found = printed_refused_found(HAND)
    assert 'for c in (p)->hand "Show {c}" if ' in printed
    assert refused == ("Error: Line 10, Col 7: an ask's options from a list ('for c in') "
                       "is an extension to 2008 Pip (refused by --strict)")
    assert found == ['ListQuestion', 'ListQuestion']


def test_highlighter_reads_it_without_errors():
    assert not [v for t, v in PipLexer().get_tokens(HAND) if t is Error]


def _game(seed=3):
    return Game(frontend.compile_text(HAND), seed=seed, players=3, names=['Ada', 'Ben', 'Cleo'])


def test_the_game_object_forks_and_answers_it_as_an_action_decision():
    game = _game()
    d = game.decision
    assert d.kind == 'action' and d.player == 'Ada' and d.options[-1] == 'Pick Cleo'
    other = game.fork()
    for g in (game, other):
        g.answer(len(d.options) - 1)           # Pick Cleo: the item is bound in the fork too
        g.answer(0)
        g.answer(0)                            # Stop
    assert game.ending == other.ending and game.events == other.events
    assert game.events[-2].text == '2 Cleo'


def test_views_determinization_and_random_bots_play_it():
    rng = random.Random(1)
    for seed in range(1, 6):
        game = _game(seed)
        while game.decision is not None:
            d = game.decision
            game.view(d.seat)
            world = game.determinize(d.seat, rng)
            assert world.decision.options == d.options      # the seat's own hand is known
            game.answer(rng.randrange(len(d.options)))
        assert game.ending.kind == 'no winner'


def test_bytecode_file_round_trip_and_validation():
    from pipvm.isa import pipc
    program = frontend.compile_text(HAND)
    loaded = pipc.load(pipc.dump(program), 'g.pipc')
    a, b = (Game(p, seed=3, players=3, names=['Ada', 'Ben', 'Cleo']) for p in (program, loaded))
    assert a.decision == b.decision
    from tests.test_pipc import asm, load_error, program_with
    code = asm(('LOAD_BUILTIN', 0), ('LIST_CONST', 1), ('ASK_FROM', 1), ('RETURN',))
    assert 'ASK_FROM must be followed by one JUMP per question' in load_error(
        pipc.dump(program_with(code)))
