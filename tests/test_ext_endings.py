"""Extensions: losers, several winners, rankings, players out of the turn
order and back; a card rule's single cards or a pass; aces high; rules with
parameters (docs/language.md; issue 55)."""
import subprocess
import sys

import pytest

from compiler.errors import PipError, PipSyntaxError
from compiler.pip import ast, extensions, frontend, parser, printer
from pipvm.core import endings
from pipvm.core.outcome import rewards
from pipvm.core.runtime import Player
from pipvm.game.game import Game
from pipvm.play.loader import load_program
from tests.fuzz.harness import both
from tests.util import check_error

HEAD = 'Game "E" requires 3 players.\n'
SEATS = ['3', 'Ada', 'Ben', 'Cleo']

TURNS = HEAD + '''Action show {
  for q in players { message "{q}". }
  message "--".
}
Action main {
  let a be players->first.
  let c be players->last.
  out a.
  out a.
  show().
  back a.
  back a.
  show().
  rotate players.
  out c.
  show().
  back c.
  show().
  rotate players.
  out a.
  back a.
  show().
  %s
}
'''


def lines(source, answers=SEATS, seed=1):
    vm, ref = both(source, seed, answers)
    assert vm == ref
    return vm.transcript.split('Enter a name for Player 3: ')[1].splitlines()[1:]


# --- parsing and printing -------------------------------------------------------

def test_the_words_parse_as_statements_and_print_back():
    game = parser.parse(TURNS % 'loser players->last.')
    main = game.decls[-1].body
    words = [s.word for s in main if type(s) is ast.Ending]
    assert words == ['out', 'out', 'back', 'back', 'out', 'back', 'out', 'back', 'loser']
    printed = printer.game(game)
    assert 'loser (players)->last.' in printed and 'out a.' in printed
    assert parser.parse(printed) == game and printer.game(parser.parse(printed)) == printed


def test_the_words_stay_names_in_2008_programs():
    source = HEAD + '''Number out = 1.
Number back = 2.
Number loser = 3.
Number ranking = 4.
Number winners = 5.
Action main {
  out = back + 1.
  loser += ranking.
  message "{out} {loser} {winners}".
}
'''
    game = parser.parse(source)
    assert extensions.found(game) == []
    assert lines(source)[-2:] == ['3 7 5', 'No winner has been declared.']


def test_aces_high_and_rule_parameters_parse_print_and_round_trip():
    source = HEAD + '''Aces high.
Rule above(p, c, pile, Number n, Suit s) = c->rank > n and c->suit == s.
Rule sets(p, cs, pile, Rank r) for sets = cs->top->rank == r.
Action main {
  if canplay above(3; H) from players->first to players->last { message "y". }
  play above(3 + 1; H) from players->first to players->last or "None" { message "n". }
  play sets(K) from players->first to players->last or pass.
}
'''
    game = parser.parse(source)
    assert type(game.decls[0]) is ast.RankOrder and game.decls[0].high
    rule = game.decls[1]
    assert type(rule) is ast.ParamRuleDecl and [x.name for x in rule.extra] == ['n', 's']
    assert game.decls[2].sets
    printed = printer.game(game)
    assert 'Aces high.' in printed and 'Rule above(p, c, pile, Number n, Suit s) =' in printed
    assert 'play above((3) + (1); H) from' in printed
    assert parser.parse(printed) == game
    found = {type(n).__name__ for n in extensions.found(game)}
    assert {'RankOrder', 'ParamRuleDecl', 'PlayOrPass'} <= found


def test_other_words_before_a_name_are_2008_syntax_errors():
    for line in ('lose p.', 'Aces hi.'):
        with pytest.raises(PipSyntaxError):
            parser.parse(HEAD + 'Action main {\n  %s\n}\n' % line)
    with pytest.raises(PipSyntaxError):
        parser.parse(HEAD + 'Aces top.\nAction main { }\n')


# --- checking -------------------------------------------------------------------

@pytest.mark.parametrize('decls,main,error', [
    ('Number n.\n', 'out n.', 'Line 4, Col 7: Expected type Player but found type Number'),
    ('', 'back players.', 'Line 3, Col 8: Expected type Player but found type PlayerList'),
    ('', 'winners players->first.',
     'Line 3, Col 20: Expected type to be one of PlayerList or TeamList but found type Player'),
    ('Number n.\n', 'ranking n.', 'Line 4, Col 11: Expected type to be one of PlayerList or '
     'TeamList but found type Number'),
    ('String x.\n', 'loser x.', 'Line 4, Col 9: Expected type to be one of Player or Team or PlayerList '
     'or TeamList but found type String'),
    ('Aces high.\nAces low.\n', '', 'Line 3, Col 1: The rank order is declared twice'),
    ('Rule r(p, c, d, Number n) = c->rank > n.\n', 'play r from players->first to standard.',
     "Line 4, Col 3: Rule 'r' takes 1 argument, not 0"),
    ('Rule r(p, c, d, Number n) = c->rank > n.\n', 'play r(1; 2) from players->first to standard.',
     "Line 4, Col 3: Rule 'r' takes 1 argument, not 2"),
    ('Rule r(p, c, d) = True.\n', 'play r(1) from players->first to standard.',
     "Line 4, Col 3: Rule 'r' has no parameters"),
    ('Rule r(p, c, d, Number n) = c->rank > n.\n', 'play r(H) from players->first to standard.',
     'Line 4, Col 10: Expected type Number but found type Suit'),
    ('Rule r(p, c, d, Number n) = c->rank > n.\n'
     'Rule s(p, c, d) = canplay r(1) from p to d.\n', '',
     "Line 3, Col 19: A rule or ordering can't give a rule its arguments"),
    ('Rule r(p, c, d, Number c) = True.\n', '', 'Line 2, Col 24: Duplicate Parameter: c'),
])
def test_checking_errors_have_positions(decls, main, error):
    source = HEAD + decls + 'Action main {\n  %s\n}\n' % main
    assert check_error(source) == 'Error: ' + error


def test_winner_of_a_list_is_still_2008_s_error():
    assert check_error(HEAD + 'Action main {\n  winner players.\n}\n') == (
        'Error: Line 3, Col 10: Expected type to be one of Player or Team but found type '
        'PlayerList')


@pytest.mark.parametrize('decls,main,what', [
    ('', 'out players->first.', "Line 3, Col 3: 'out'"),
    ('', 'loser players->first.', "Line 3, Col 3: 'loser'"),
    ('', 'winners players.', "Line 3, Col 3: 'winners'"),
    ('', 'ranking players.', "Line 3, Col 3: 'ranking'"),
    ('Aces high.\n', '', "Line 2, Col 1: 'Aces high.'"),
    ('Rule r(p, c, d, Number n) = True.\n', '',
     "Line 2, Col 1: a rule with parameters ('Rule r(..., TYPE x)')"),
    ('Rule r(p, c, d) = True.\n', 'play r from players->first to standard or pass.',
     "Line 4, Col 3: 'or pass'"),
])
def test_strict_refuses_each_form(decls, main, what):
    source = HEAD + decls + 'Action main {\n  %s\n}\n' % main
    frontend.check_text(source)
    with pytest.raises(PipError) as e:
        frontend.check_text(source, strict=True)
    assert str(e.value) == 'Error: %s is an extension to 2008 Pip (refused by --strict)' % what


# --- running --------------------------------------------------------------------

def test_out_and_back_keep_the_turn_order_on_both_engines():
    assert lines(TURNS % '') == [
        'Ben', 'Cleo', '--',
        'Ben', 'Cleo', 'Ada', '--',      # back before Ben, but the first player stays first
        'Ada', 'Ben', '--',              # (rotated: Cleo, Ada, Ben; Cleo out)
        'Ada', 'Ben', 'Cleo', '--',      # Cleo back before Ada: last
        'Ben', 'Cleo', 'Ada', '--',      # (rotated: Ben, Cleo, Ada; Ada out and back)
        'No winner has been declared.']


@pytest.mark.parametrize('end,line', [
    ('loser players->last.', 'The game was lost by Ada'),
    ('loser players.', 'The game was lost by Ben, Cleo and Ada'),
    ('winners players.', 'The game was won by Ben, Cleo and Ada'),
    ('ranking players.', 'The game ended in this order: Ben, Cleo, Ada'),
    ('out players->first. winner players->first.', 'The game was won by Cleo'),
])
def test_each_ending_is_announced_on_both_engines(end, line):
    assert lines(TURNS % end)[-1] == line


def test_an_empty_list_cannot_end_the_game():
    source = HEAD + 'Action main {\n  let e be [players->first].\n  out e->first.\n' \
        '  out players->first.\n  out players->first.\n  loser players.\n}\n'
    vm, ref = both(source, 1, SEATS)
    assert vm == ref and vm.ending == "Error: Line 7, Col 3: An empty list can't lose"


def _ended(source):
    game = Game(frontend_program(source), seed=1, players=3, names=['Ada', 'Ben', 'Cleo'])
    assert game.decision is None
    return game


def frontend_program(source):
    from compiler.codegen import generator
    return generator.generate(frontend.check_text(source))


@pytest.mark.parametrize('end,kind,places,reward', [
    ('loser players->last.', 'loser', (0, 0, 1), [1.0, 1.0, 0.0]),
    ('let w be [players->first; players->last].\n  winners w.', 'winner', (0, 1, 0),
     [1.0, 0.0, 1.0]),
    ('let r be [players->last; players->first].\n  ranking r.', 'winner', (1, 2, 0),
     [0.5, 0.0, 1.0]),
    # every seat in one place: no one ahead, as when nobody wins
    ('loser players.', 'loser', (1, 1, 1), [1 / 3] * 3),
    # a place no seat holds counts for none: the second listed is second
    ('let r be [players->first; players->last; players->last].\n  ranking r.', 'winner',
     (0, 3, 2), [1.0, 0.0, 0.5]),
])
def test_the_ending_places_every_seat_and_rewards_by_place(end, kind, places, reward):
    game = _ended(HEAD + 'Action main {\n  %s\n}\n' % end)
    assert game.ending.kind == kind and game.ending.places == places
    assert rewards(game) == reward and game.returns() == reward
    assert game.ending.to_json()['places'] == list(places)
    assert game.view(0)['ending'] == game.ending.to_json()


def test_a_2008_winner_has_no_places():
    game = _ended(HEAD + 'Action main {\n  winner players->last.\n}\n')
    assert game.ending.places is None and rewards(game) == [0.0, 0.0, 1.0]
    assert 'places' not in game.ending.to_json()


def test_a_player_out_of_the_turn_order_is_still_seen_and_can_win():
    game = _ended(HEAD + 'Deck d = standard.\nAction main {\n  deal 2 from d to players.\n'
                  '  let a be players->first.\n  out a.\n  winner a.\n}\n')
    assert [p.name for p in game.players] == ['Ada', 'Ben', 'Cleo']     # every seat
    assert [p.name for p in game.machine.players] == ['Ben', 'Cleo']   # the turn order
    assert len(game.view(0)['players']) == 3 and len(game.view(0)['players'][0]['hand']) == 2
    assert rewards(game) == [1.0, 0.0, 0.0]


def test_bring_back_goes_before_the_next_seat():
    seats = [Player(str(s), seat=s) for s in range(5)]
    for turn, back, want in [([1, 2, 3, 4], 0, [1, 2, 3, 4, 0]),
                             ([3, 4, 1], 2, [3, 4, 1, 2]),
                             ([3, 4, 1], 0, [3, 4, 0, 1]),
                             ([], 2, [2])]:
        players = [seats[s] for s in turn]
        endings.bring_back(players, seats[back])
        assert [p.seat for p in players] == want


CARDS = HEAD + '''Aces high.
Deck d = [A~H; 9~H; K~S; 5~C; Q~H].
Area table labeled "Table" is faceup.
Rule covers(p, c, pile, Card a) = c->suit == a->suit and c->rank > a->rank.
Action main {
  let p be players->first.
  deal 4 from d to p.
  deal 1 from d to table.
  let top be table->cards->top.
  if A > K { message "aces high". }
  let m be (max c in p->hand of c->rank).
  let n be (min c in p->hand of c->rank).
  message "max {m} min {n}".
  play covers(top) from p to table or "Take" { message "took". }
  let top2 be table->cards->top.
  play covers(top2) from p to table or "Take" { message "took". }
}
'''


def test_a_card_rule_with_a_parameter_offers_single_cards_or_take():
    got = lines(CARDS, SEATS + ['Ace of Hearts', 'Take'])
    assert got[:2] == ['aces high', 'max 14 min 5']
    assert got[2:7] == ['Ada: Choose a card:', '  Ace of Hearts', '  Take',
                        'Your choice? Ace of Hearts', 'Ada played Ace of Hearts.']
    assert got[7:10] == ['Ada: Choose a card:', '  Take', 'Your choice? Take']
    assert got[-2:] == ['took', 'No winner has been declared.']


def test_aces_low_is_2008_s_order():
    got = lines(CARDS.replace('Aces high.', 'Aces low.'), SEATS + ['Take', 'Take'])
    assert 'aces high' not in got and got[0] == 'max King min Ace'


def _cli(*args):
    return subprocess.run([sys.executable, '-m', 'pipvm', *args], capture_output=True, text=True,
                          timeout=300)


def test_durak_plays_to_its_fool_and_sim_counts_losses(tmp_path):
    game = Game(load_program('examples/durak.pip'), seed=1, players=2, names=['A', 'B'])
    while game.decision:
        game.answer(0)
    assert game.ending.kind == 'loser' and sorted(game.ending.places) == [0, 1]
    done = _cli('sim', 'examples/durak.pip', '--games', '12', '--players', '3', '--bots', 'random')
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.startswith('  seat ')]
    assert done.stdout.splitlines()[1].split()[:2] == ['name', 'losses']
    assert len(rows) == 3 and sum(int(r[3]) for r in rows) == 12
    assert '12 with only a loser' in done.stdout
    strict = _cli('check', '--strict', 'examples/durak.pip')
    assert strict.returncode == 1 and strict.stderr.strip() == (
        "Error: Line 21, Col 1: 'Aces high.' is an extension to 2008 Pip (refused by --strict)")


def test_the_highlighter_shows_the_words_as_keywords_only_where_they_are():
    from pygments.token import Keyword, Name
    from compiler.pip.highlight import PipLexer
    source = HEAD + 'Aces high.\nNumber out.\nAction main {\n  out = 1.\n  out p.\n  back p.\n' \
        '  loser players.\n  ranking r.\n  winners w.\n}\n'
    words = [(t, v) for t, v in PipLexer().get_tokens(source)
             if v in ('Aces', 'high', 'out', 'back', 'loser', 'ranking', 'winners')]
    assert words == [(Keyword.Declaration, 'Aces'), (Keyword, 'high'), (Name, 'out'),
                     (Name, 'out'), (Keyword, 'out'), (Keyword, 'back'), (Keyword, 'loser'),
                     (Keyword, 'ranking'), (Keyword, 'winners')]


def test_a_bracket_after_the_word_is_a_reference_only_after_a_space():
    source = HEAD + '''PlayerList g = players.
Action out() { message "called". }
Action back(Number n) { message "b {n}". }
Action main {
  out ().
  out().
  back(1).
  out (g)->first.
  loser (players)->last.
}
'''
    game = parser.parse(source)
    main = game.decls[-1].body
    assert [type(s).__name__ for s in main] == ['Invoke', 'Invoke', 'Invoke', 'Ending', 'Ending']
    printed = printer.game(game)
    assert parser.parse(printed) == game
    assert lines(source)[-4:] == ['called', 'called', 'b 1', 'The game was lost by Cleo']


def test_an_action_with_empty_brackets_runs_from_its_compiled_file(tmp_path):
    # (CALL_WITH of no arguments: its count operand may be 0)
    game = tmp_path / 'game.pip'
    game.write_text(HEAD + 'Action f() { message "called". }\nAction main {\n  f().\n}\n')
    done = _cli('run', '--bots', 'first', str(game))
    assert done.returncode == 0 and done.stdout.splitlines()[-2:] == [
        'called', 'No winner has been declared.']


def test_sim_counts_the_same_losses_on_the_reference():
    args = ('sim', 'examples/durak.pip', '--games', '5', '--players', '2', '--bots', 'random')
    vm, ref = _cli(*args), _cli(*args, '--engine', 'reference')
    assert vm.returncode == ref.returncode == 0, ref.stderr

    def rows(out):
        return [line for line in out.splitlines() if line.startswith('  seat ')]
    assert rows(vm.stdout) == rows(ref.stdout) and len(rows(vm.stdout)) == 2


@pytest.mark.parametrize('end,reward', [
    ('winner players->first.', [1.0]),
    ('let w be [players->first].\n  winners w.', [1.0]),
    ('let r be [players->first].\n  ranking r.', [1.0]),
    ('loser players->first.', [0.0]),
    ('message "stuck".', [0.0]),          # no winner: a patience not won is lost
])
def test_a_one_player_game_rewards_a_win_alone(end, reward):
    # with one seat, "nobody won" as a draw (1/seats) would pay as much as a
    # win, and a thinking bot could not tell a solved patience from a stuck one
    game = Game(frontend_program('Game "P" requires 1 players.\nAction main {\n  %s\n}\n' % end),
                seed=1, players=1, names=['Ada'])
    assert game.decision is None
    assert rewards(game) == reward and game.returns() == reward
