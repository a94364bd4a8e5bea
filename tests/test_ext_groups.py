"""Extension: lists of groups (`Area melds[] labeled "Meld"`), a new group
made by a deal (`deal ... to new melds.`), a list's item by its place
(`(item K of L)`) and `Area[]` as a parameter's and a result's type
(docs/language.md, "Lists of groups")."""
import pytest

from compiler.errors import PipError, PipSyntaxError
from compiler.pip import extensions, frontend, parser, printer
from pipvm.game.game import Game
from pipvm.isa import pipc
from pipvm.play.loader import load_program
from tests.fuzz.harness import both
from tests.util import check_error, run_cli

HEAD = 'Game "G" requires 2 players.\n'
SEATS = ['2', 'Ada', 'Ben']

MELDS = HEAD + '''Deck deck = standard.
Area melds[] labeled "Meld" is faceup, spreadout.
Area kept[] labeled "Kept".
Ordering by_rank(cards) = A..K~C,H,S,D.

Action over(Area[] gs, Number n) gives Area[] {    # the groups of more than n cards
  let out be [].
  for g in gs {
    if g->cards->size > n { out = [out; g]. }
  }
  give out.
}

Action main {
  shuffle deck.
  deal 7 from deck to players.
  for p in players {
    order p->hand by by_rank.
    deal 3 from p to new melds.
    deal p->hand->first from p to new melds.
    deal 1 from p to new kept.
  }
  let k be 2.
  let second be (item k of melds).
  deal 2 from deck to second.
  for g in over(melds; 1) {
    let n be g->cards->size.
    let top be g->cards->top.
    message "{g}: {n}, {top} on top".
  }
  let size be melds->size.
  let last be melds->last.
  message "{size} melds, the last {last}".
  let first be (item 1 of melds).
  deal all from first to players->first.
  let left be first->cards->size.
  message "{first} has {left}".
}
'''


def test_parses_and_prints_a_list_of_groups():
    game = parser.parse(MELDS)
    printed = printer.game(game)
    for text in ('Area melds[] labeled "Meld" is faceup, spreadout.\n',
                 'Area kept[] labeled "Kept".\n', 'Action over(Area[] gs, Number n) gives Area[] {',
                 'deal 3 from p to new melds.', 'let second be (item k of melds).',
                 'let first be (item 1 of melds).'):
        assert text in printed
    assert parser.parse(printed) == game and printer.game(parser.parse(printed)) == printed


@pytest.mark.parametrize('body,error', [
    ('Area m[] labeled "M".\nAction main { }',
     "Line 2, Col 1: a list of groups ('Area m[]') is an extension to 2008 Pip"),
    ('Area m[1] labeled "M".\nAction main { deal 1 from standard to new m. }',
     "Line 2, Col 1: a list of areas ('Area m[1]')"),
    ('Deck d = standard.\nAction main { let c be (item 1 of d). }',
     "Line 3, Col 24: '(item ... of ...)' is an extension to 2008 Pip"),
])
def test_strict_refuses_it_in_one_positioned_line(body, error):
    source = HEAD + body + '\n'
    with pytest.raises(PipError) as e:
        frontend.check_text(source, strict=True)
    assert str(e.value).startswith('Error: ' + error)
    assert '\n' not in str(e.value)


def test_strict_names_the_new_group_first_where_it_is_first():
    tree = parser.parse(MELDS)
    assert [type(n).__name__ for n in extensions.found(tree)][:3] == \
        ['AreaFamily', 'AreaFamily', 'ParamActionDecl']
    assert 'NewGroup' in [type(n).__name__ for n in extensions.found(tree)]
    assert 'Item' in [type(n).__name__ for n in extensions.found(tree)]


def test_runs_the_same_on_the_vm_and_the_reference():
    for seed in (1, 2, 3):
        vm, ref = both(MELDS, seed, SEATS)
        assert vm == ref
        assert vm.ending == 'no winner', vm.ending
        assert '4 melds, the last Meld 4' in vm.transcript
        assert 'Meld 2: 3, ' in vm.transcript and 'Meld 1 has 0' in vm.transcript
        assert 'Kept' not in vm.transcript


def test_the_compiled_engine_and_a_pipc_file_play_it_the_same(tmp_path):
    path = tmp_path / 'g.pip'
    path.write_text(MELDS)
    answers = ('\n'.join(SEATS) + '\n').encode()
    plain = run_cli(['run', '--seed', '2', str(path)], answers)
    assert plain[0] == 0 and b'4 melds, the last Meld 4' in plain[1]
    assert run_cli(['run', '--seed', '2', '--engine', 'compiled', str(path)], answers) == plain
    assert run_cli(['run', '--seed', '2', '--engine', 'reference', str(path)], answers) == plain
    out = str(tmp_path / 'g.pipc')
    assert run_cli(['compile', str(path), '-o', out])[0] == 0
    assert run_cli(['run', '--seed', '2', out], answers) == plain
    program = frontend.compile_text(MELDS)
    assert pipc.load(pipc.dump(program), 'g.pipc').global_types == program.global_types


@pytest.mark.parametrize('seat', [0, 1, None])
def test_each_group_is_shown_or_hidden_as_its_list_is_declared(seat, tmp_path):
    path = tmp_path / 'g.pip'
    path.write_text(MELDS)
    game = Game(load_program(str(path)), seed=1, players=2, names=['Ada', 'Ben'])
    view = game.view(seat)
    names = [a['name'] for a in view['areas']]
    assert names == ['Meld 1', 'Meld 2', 'Meld 3', 'Meld 4', 'Kept 1', 'Kept 2']
    melds, kept = game.machine.globals[1], game.machine.globals[2]
    for area, group in zip(view['areas'], melds + kept):
        assert area['size'] == len(group.cards)
        if area['facedown']:
            assert 'cards' not in area           # nobody sees a facedown group's cards
        else:
            assert area['cards'] == [str(c) for c in group.cards]
    hidden = {str(c) for g in kept for c in g.cards}
    assert len(hidden) == 2 and not any(name in str(view) for name in hidden)


@pytest.mark.parametrize('opts,public', [('faceup', True), ('facedown', False)])
def test_a_card_played_to_a_group_is_seen_as_its_list_says(opts, public, tmp_path):
    path = tmp_path / 'g.pip'
    path.write_text(HEAD + '''Area gs[] labeled "G" is %s.
Rule any(p, c, pile) = True.
Action main {
  deal 3 from standard to players.
  let p be players->first.
  deal 1 from p to new gs.
  let g be gs->last.
  play any from p to g.
}
''' % opts)
    game = Game(load_program(str(path)), seed=1, players=2, names=['Ada', 'Ben'])
    game.answer(0)
    played = [e for e in game.events if e.kind == 'played']
    assert len(played) == 1
    assert (played[0].seen_by(1) == played[0]) is public
    assert (played[0].card in str(game.view(1))) is public


@pytest.mark.parametrize('decl,use,error', [
    ('Area a[2] labeled "A".', 'deal 1 from standard to new a.',
     "Line 4, Col 31: A new group goes in a list of groups declared as "
     "'Area NAME[] labeled ...', not in 'a'"),
    ('Deck d = standard.', 'deal 1 from standard to new d.',
     "not in 'd'"),
    ('Area a[] labeled "A".', 'a = [].',
     "Line 4, Col 3: A list of areas declared at once can't be changed ('a')"),
    ('Area a[] labeled "A".', 'shuffle a.',
     "Line 4, Col 11: A list of areas declared at once can't be changed ('a')"),
    ('Area a[] labeled "A".', 'let x be (item 1 of []).',
     'Line 4, Col 23: An empty list has no items'),
    ('Area a[] labeled "A".', 'let x be (item 1 of 3).',
     'Line 4, Col 23: Expected a list type but found type Number'),
    ('Area a[] labeled "A".', 'let x be (item a of a).',
     'Line 4, Col 18: Expected type Number but found type AreaList'),
    ('Area a[] labeled "A".\nArea[] b = a.', '',
     "Line 3, Col 1: A list of areas is declared as 'Area b[N] labeled ...' "
     "or 'Area b[] labeled ...'"),
    ('Area a[] labeled "A".', 'deal 1 from standard to new a->first.',
     "A new group goes in a list of groups declared as"),
])
def test_misuses_are_checked_in_one_positioned_line(decl, use, error):
    source = HEAD + decl + '\nAction main {\n  ' + use + '\n}\n'
    text = check_error(source)
    assert error in text and '\n' not in text.strip()


@pytest.mark.parametrize('at,error', [
    ('0', 'No item at that place: the list has 4 items'),
    ('5', 'No item at that place: the list has 4 items'),
])
def test_an_item_out_of_range_fails_alike_on_both(at, error):
    source = MELDS.replace('let k be 2.', 'let k be %s.' % at)
    vm, ref = both(source, 1, SEATS)
    assert vm == ref
    assert error in str(vm.ending), vm.ending


@pytest.mark.parametrize('body,hint', [
    ('let g be melds[2].', 'found "["; a list\'s item by its place is written '
     '(item 2 of melds), counting from 1'),
    ('let g be new melds.', 'found "new"; a group is made by dealing cards to it, '
     '"deal CARDS from SOURCE to new melds."'),
    ('for each g in melds { }', 'found "each"; a loop over a list is "for g in LIST { ... }"'),
    ('deal 1 from standard to newer melds.', 'found "newer"; expected "." (or "new"'),
])
def test_natural_wrong_attempts_get_a_hint(body, hint):
    source = HEAD + 'Area melds[] labeled "M".\nAction main {\n  ' + body + '\n}\n'
    with pytest.raises(PipSyntaxError) as e:
        frontend.check_text(source)
    assert str(e.value) == 'Error: syntax error on line 4'
    assert hint in e.value.hint


@pytest.mark.parametrize('decl', ['CardList[] melds.', 'CardList melds[3].'])
def test_a_list_of_card_lists_gets_the_lists_of_groups_hint(decl):
    with pytest.raises(PipSyntaxError) as e:
        frontend.check_text(HEAD + decl + '\nAction main { }\n')
    assert 'there are no lists of lists: groups of cards kept apart (melds) are a list of ' \
        'groups, Area' in e.value.hint


def test_bots_play_a_game_of_groups_to_its_end(tmp_path):
    path = tmp_path / 'g.pip'
    path.write_text(HEAD + '''Deck deck = standard.
Area melds[] labeled "Meld" is faceup, spreadout.
Area kept[] labeled "Kept".
Rule any(p, c, pile) = True.
Action main {
  shuffle deck.
  deal 5 from deck to players.
  for p in players {
    deal 1 from p to new kept.
    ask p {
      for c in p->hand "Lay {c}" { deal c from p to new melds. }
      "Keep them" { }
    }
    play any from p to melds->first.
  }
  winner players->first.
}
''')
    # a thinking bot samples the worlds its beliefs allow (the groups' cards among them)
    status, out = run_cli(['sim', '--games', '3', '--precision', '0', '--seed', '1', '--jobs', '1',
                           '--players', '2', '--seat', '1=ismcts:20', '--bots', 'random',
                           '--json', str(path)])
    assert status == 0, out
    assert b'"games": 3' in out.replace(b'"games":3', b'"games": 3'), out


RULE = HEAD + '''Area pile labeled "Pile" is faceup.
Number k = 2.
Rule second(p, c, d) = c == (item k of p->hand).
Ordering by_second(cs) = [(item 1 of cs); cs].
Action main {
  deal 4 from standard to players.
  let p be players->first.
  play second from p to pile.
  order p->hand by by_second.
  let t be p->hand->top.
  message "{t}".
  k = 9.
  play second from p to pile.
}
'''


def test_an_item_in_a_rule_and_an_ordering_runs_alike_on_every_engine(tmp_path):
    # (a rule runs as pure.py's closures on the VM)
    path = tmp_path / 'g.pip'
    path.write_text(RULE)
    answers = ('\n'.join(SEATS + ['Six of Clubs']) + '\n').encode()
    outs = [run_cli(['run', '--seed', '1', '--engine', e, str(path)], answers)
            for e in ('vm', 'compiled', 'reference')]
    assert outs[0] == outs[1] == outs[2]
    assert outs[0][0] == 1
    assert outs[0][1].endswith(b'Error: Line 4, Col 29: No item at that place: the list has 3 '
                               b'items\n')
