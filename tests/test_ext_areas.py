"""Extension: lists of areas declared at once (`Area stacks[7] labeled
"Stack"`), `Area` as a parameter's and a result's type, an area's label in
a string (docs/language.md, "Lists of areas")."""
import pytest

from compiler.errors import PipError, PipSyntaxError
from compiler.pip import ast, extensions, frontend, parser, printer
from pipvm.game.game import Game
from pipvm.isa import pipc
from pipvm.play.loader import load_program
from tests.fuzz.harness import both
from tests.util import check_error, run_cli

HEAD = 'Game "L" requires 2 players.\n'
SEATS = ['2', 'Ada', 'Ben']

STACKS = HEAD + '''Deck deck = standard.
Area pile labeled "Pile" is faceup.
Area hidden[3] labeled "Hidden" is facedown, spreadout.
Area stacks[3] labeled "Stack" is faceup, spreadout.
Rule any(p, c, cl) = True.

Action biggest() gives Area {
  let best be stacks->first.
  for s in stacks {
    if s->cards->size > best->cards->size { best = s. }
  }
  give best.
}

Action fill(Area a, Number n) {
  deal n from deck to a.
}

Action main {
  shuffle deck.
  let k be 0.
  for s in stacks {
    k += 1.
    fill(s; k).
  }
  for h in hidden { fill(h; 2). }
  let b be biggest().
  let n be b->cards->size.
  let last be stacks->last.
  let size be stacks->size.
  message "{b} has {n}; the last of {size} is {last}".
  for s in stacks {
    let top be s->cards->top.
    message "{s}: {top}".
  }
}
'''


def test_parses_and_prints_a_list_of_areas():
    game = parser.parse(STACKS)
    family = game.decls[3]
    assert type(family) is ast.AreaFamily
    assert (family.name, family.count, [w for w, _ in family.options]) == \
        ('stacks', 3, ['faceup', 'spreadout'])
    printed = printer.game(game)
    assert 'Area stacks[3] labeled "Stack" is faceup, spreadout.\n' in printed
    assert 'Area hidden[3] labeled "Hidden" is facedown, spreadout.\n' in printed
    assert parser.parse(printed) == game and printer.game(parser.parse(printed)) == printed


def test_strict_refuses_it_in_one_positioned_line():
    assert [type(n).__name__ for n in extensions.found(parser.parse(STACKS))][:2] == \
        ['AreaFamily', 'AreaFamily']
    with pytest.raises(PipError) as e:
        frontend.check_text(STACKS, strict=True)
    assert str(e.value) == ("Error: Line 4, Col 1: a list of areas ('Area hidden[3]') is an "
                            "extension to 2008 Pip (refused by --strict)")


def test_strict_refuses_an_area_in_a_string():
    source = HEAD + '''Area t labeled "T".
Action main {
  message "{t}".
}
'''
    assert frontend.check_text(source) is not None
    with pytest.raises(PipError) as e:
        frontend.check_text(source, strict=True)
    assert str(e.value) == ("Error: Line 4, Col 13: an area in a string ('{...}') is an "
                            "extension to 2008 Pip (refused by --strict)")


def test_runs_the_same_on_the_vm_and_the_reference():
    for seed in (1, 2, 3):
        vm, ref = both(STACKS, seed, SEATS)
        assert vm == ref
        assert vm.ending == 'no winner', vm.ending
        assert 'Stack 3 has 3; the last of 3 is Stack 3' in vm.transcript
        assert 'Stack 1: ' in vm.transcript and 'Hidden' not in vm.transcript


@pytest.mark.parametrize('where,public', [('stacks->last', True), ('hidden->last', False)])
def test_a_card_played_to_an_area_of_a_list_is_seen_as_its_options_say(where, public, tmp_path):
    path = tmp_path / 'g.pip'
    path.write_text(STACKS.replace('  for s in stacks {\n    let top', '''  deal 2 from deck to players.
  let p be players->first.
  let dest be %s.
  play any from p to dest.
  for s in stacks {
    let top''' % where, 1))
    game = Game(load_program(str(path)), seed=1, players=2, names=['Ada', 'Ben'])
    game.answer(0)
    played = [e for e in game.events if e.kind == 'played']
    assert len(played) == 1
    assert (played[0].seen_by(1) == played[0]) is public     # Ben sees the card itself
    assert (played[0].card in str(game.view(1))) is public


@pytest.mark.parametrize('seat', [0, 1, None])
def test_each_area_of_a_list_is_shown_or_hidden_as_declared(seat, tmp_path):
    path = tmp_path / 'g.pip'
    path.write_text(STACKS)
    game = Game(load_program(str(path)), seed=2, players=2, names=['Ada', 'Ben'])
    view = game.view(seat)
    names = [a['name'] for a in view['areas']]
    assert names == ['Pile', 'Hidden 1', 'Hidden 2', 'Hidden 3', 'Stack 1', 'Stack 2', 'Stack 3']
    machine = game.machine
    for area, shown in zip(view['areas'][1:], machine.globals[2] + machine.globals[3]):
        assert area['size'] == len(shown.cards)
        if area['facedown']:
            assert 'cards' not in area           # the hidden cards are nobody's to see
        else:
            assert area['cards'] == [str(c) for c in shown.cards]
    hidden = {str(c) for h in machine.globals[2] for c in h.cards}
    assert len(hidden) == 6 and not any(name in str(view) for name in hidden)


def test_a_list_of_areas_survives_the_file_format(tmp_path):
    path = tmp_path / 'g.pip'
    path.write_text(STACKS)
    program = frontend.compile_text(STACKS)
    assert 'AreaList' in program.global_types
    loaded = pipc.load(pipc.dump(program), 'g.pipc')
    assert loaded.global_types == program.global_types
    out = str(tmp_path / 'g.pipc')
    assert run_cli(['compile', str(path), '-o', out])[0] == 0
    answers = ('\n'.join(SEATS + ['1']) + '\n').encode()
    assert run_cli(['run', '--seed', '1', out], answers) == \
        run_cli(['run', '--seed', '1', str(path)], answers)


@pytest.mark.parametrize('decl,use,error', [
    ('Area a[0] labeled "A".', '', 'Line 2, Col 1: A list of areas has 1 to 52 areas, not 0'),
    ('Area a[53] labeled "A".', '', 'Line 2, Col 1: A list of areas has 1 to 52 areas, not 53'),
    ('Area a[2] labeled "A" is faceup, facedown.', '',
     'Line 2, Col 26: This option contradicts earlier options'),
    ('Area a[2] labeled "A".', 'a = [a->first].',
     "Line 4, Col 3: A list of areas declared at once can't be changed ('a')"),
    ('Area a[2] labeled "A".', 'shuffle a.',
     "Line 4, Col 11: A list of areas declared at once can't be changed ('a')"),
    ('Area a[2] labeled "A".', 'rotate a.',
     "Line 4, Col 10: A list of areas declared at once can't be changed ('a')"),
    ('Area a[2] labeled "A".', 'let x be a->first == a->last.',
     'Line 4, Col 12: Invalid type Area for comparison'),
    ('Area a[2] labeled "A".', 'deal 1 from standard to a.',
     'Line 4, Col 27: Expected type to be one of CardList or Player or PlayerList or Area '
     'but found type AreaList'),
])
def test_misuses_are_checked(decl, use, error):
    source = HEAD + decl + '\nAction main {\n  ' + use + '\n}\n'
    assert error in check_error(source)


def test_a_list_of_areas_keeps_2008_syntax_errors():
    # `Area x.` declares no variable: still the 2008 syntax error
    with pytest.raises(PipSyntaxError) as e:
        parser.parse(HEAD + 'Area x.\nAction main { }\n')
    assert e.value.pos == (2, 7)


def test_an_action_without_arguments_is_called_in_a_statement_and_an_expression():
    source = HEAD + '''Number n = 0.
Action bump() { n += 1. }
Action twice() gives Number { give 2 * n. }
Action main {
  bump().
  bump().
  let t be twice().
  message "{t}".
}
'''
    vm, ref = both(source, 1, SEATS)
    assert vm == ref and vm.transcript.endswith('Ben\n4\nNo winner has been declared.\n')


TAKE = HEAD + '''Deck deck = standard.
Area stacks[2] labeled "Stack" is faceup, spreadout.
Area hidden labeled "Hidden".

Action main {
  deal 2 from deck to players.
  deal 1 from deck to stacks->first.
  deal 1 from deck to hidden.
  let me be players->first.
  let them be players->last.
  ask me {
    for c in them->hand "Take one" { deal c from them to me. }
    for c in [me->hand; stacks->first->cards; hidden->cards] "Show {c}" { message "{c}". }
    for s in stacks "Pass to {s}" { }
    "Nothing" { }
  }
}
'''


def test_a_decision_names_only_the_cards_its_seat_sees_and_the_areas(tmp_path):
    path = tmp_path / 'g.pip'
    path.write_text(TAKE)
    game = Game(load_program(str(path)), seed=1, players=2, names=['Ada', 'Ben'])
    m = game.machine
    mine = [str(c) for c in m.players[0].hand]
    theirs = [str(c) for c in m.players[1].hand]
    on_table = [str(c) for c in m.globals[1][0].cards]
    targets = game.view(0)['decision']['targets']
    assert targets == ([None, None] + [{'card': c} for c in mine + on_table] + [None]
                       + [{'area': 'Stack 1'}, {'area': 'Stack 2'}, None])
    assert not any(c in str(game.view(0)['decision']) for c in theirs)
    assert 'targets' not in (game.view(1)['decision'] or {})       # not Ben's decision
