"""The extensions to 2008 Pip (docs/language.md, "Extensions and --strict"):
`break.`/`continue.`, and `--strict`, which refuses every extension."""
import glob
import os
import subprocess
import sys

import pytest

from compiler.pip import extensions, frontend, parser, printer
from compiler.errors import PipError, PipSyntaxError
from compiler.pip.highlight import PipLexer
from pygments.token import Keyword
from tests.fuzz import harness
from tests.fuzz.harness import both

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = '/work/shared/corpus'

LEAVING = '''Game "Leaving" requires 3 players.
Number n = 0.
Action main {
  for p in players starting at players->last {
    if p == players->first { continue. }
    message p "not first".
  }
  forever {
    n += 1.
    for r in [2; 5; 9; 11] {
      for c in [3; 4] {
        if c == 4 { break. }
        message "c {c}".
      }
      if r == 9 { break. }
      if r == 2 { continue. }
      forever { break. }
      message "{n} {r}".
    }
    let left be 3 - n.
    if left > 0 { continue. }
    break.
  }
  message "{n}".
}
'''


def test_break_and_continue_run_the_same_on_the_vm_and_the_reference():
    vm, ref = both(LEAVING, 1, ['3', 'Ada', 'Ben', 'Cleo'])
    assert vm == ref
    lines = vm.transcript.splitlines()
    assert lines[-2:] == ['3', 'No winner has been declared.']
    assert [x for x in lines if x.startswith('1 ') or x.startswith('3 ')] == ['1 5', '3 5']
    assert sum(x == 'c 3' for x in lines) == 9            # the inner break, 3 rounds x 3 ranks
    assert vm.ending == 'no winner'


def test_break_inside_an_ask_inside_a_loop():
    source = '''Game "A" requires 2 players.
Action main {
  forever {
    ask players->first { "stop" { break. } "again" { continue. } }
  }
  message "out".
}
'''
    vm, ref = both(source, 1, ['2', 'Ada', 'Ben', 'again', 'stop'])
    assert vm == ref and vm.transcript.endswith('out\nNo winner has been declared.\n')


@pytest.mark.parametrize('word', ['break', 'continue'])
def test_outside_a_loop_is_an_error_at_the_word(word):
    source = 'Game "B" requires 2 players.\nAction main {\n  if True { %s. }\n}\n' % word
    with pytest.raises(PipError) as e:
        frontend.check_text(source)
    assert str(e.value) == ("Error: Line 3, Col 13: '%s' is not inside a 'for' or 'forever' loop"
                            % word)


def test_break_and_continue_are_still_names_in_2008_programs():
    source = '''Game "N" requires 2 players.
Number break = 1.
Action main { break += 1. message "{break}". }
'''
    vm, ref = both(source, 1, ['2', 'Ada', 'Ben'])
    assert vm == ref and '2\n' in vm.transcript
    frontend.check_text(source, strict=True)


def test_a_name_then_a_dot_is_still_the_2008_syntax_error():
    with pytest.raises(PipSyntaxError) as e:
        parser.parse('Game "X" requires 2 players.\nAction main {\n  x.\n}\n')
    assert str(e.value) == 'Error: syntax error on line 3'
    assert e.value.hint.startswith('at column 4, found "."; expected "="')


def test_printer_round_trips_break_and_continue():
    printed = printer.game(parser.parse(LEAVING))
    assert printed.count('continue.\n') == 3 and printed.count('break.\n') == 4
    assert parser.parse(printed) == parser.parse(LEAVING)


def test_strict_refuses_the_first_extension_with_its_position():
    with pytest.raises(PipError) as e:
        frontend.check_text(LEAVING, strict=True)
    assert str(e.value) == ("Error: Line 5, Col 30: 'continue.' is an extension to 2008 Pip "
                            "(refused by --strict)")
    assert [type(n).__name__ for n in extensions.found(parser.parse(LEAVING))] == ['LoopExit'] * 7


def _cli(*args):
    return subprocess.run([sys.executable, '-m', 'pipvm', *args], capture_output=True, text=True,
                          timeout=60, cwd=ROOT)


def test_check_and_run_strict_on_the_command_line(tmp_path):
    game = tmp_path / 'game.pip'
    game.write_text(LEAVING)
    for command in (['check', '--strict'], ['run', '--strict', '--bots', 'first']):
        done = _cli(*command, str(game))
        assert done.returncode == 1
        assert done.stdout == ''
        assert done.stderr.strip().splitlines() == [
            "Error: Line 5, Col 30: 'continue.' is an extension to 2008 Pip (refused by --strict)"]
    assert _cli('check', str(game)).returncode == 0


def _programs():
    return sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip')) +
                  glob.glob(os.path.join(CORPUS, '*', '*.pip')))


# examples that need the extensions to be said at all
EXTENDED = ('klondike_full.pip', 'gin_rummy.pip', 'durak.pip')


def test_strict_accepts_every_2008_program_as_the_plain_check_does():
    """Every example and corpus program: --strict gives the same result (an
    example written with the extensions, NAME_ext.pip, president_sets.pip or
    one of EXTENDED, is refused in one line)."""
    programs = _programs()
    assert len(programs) > 100
    for path in programs:
        text = frontend.read_source(path)
        try:
            frontend.check_text(text)
            plain = None
        except PipError as e:
            plain = str(e)
        try:
            frontend.check_text(text, strict=True)
            strict = None
        except PipError as e:
            strict = str(e)
        if path.endswith(('_ext.pip', 'president_sets.pip') + EXTENDED):
            assert plain is None and strict.endswith(' is an extension to 2008 Pip (refused by --strict)')
            assert '\n' not in strict
        else:
            assert strict == plain, path


def test_highlighters_show_the_loop_exits_as_keywords():
    tokens = [(t, v) for t, v in PipLexer().get_tokens('forever { break. continue . }') if v.strip()]
    assert (Keyword, 'break') in tokens and (Keyword, 'continue') in tokens
    import json
    with open(os.path.join(ROOT, 'editors', 'pip.tmLanguage.json'), encoding='utf-8') as f:
        grammar = json.load(f)
    assert {'include': '#loop-exit'} in grammar['patterns']


# --- clearer messages for three common mistakes (issue 24) -----------------------

def _first_error(source):
    with pytest.raises(PipError) as e:
        frontend.check_text(source)
    return str(e.value), getattr(e.value, 'hint', None)


def test_a_rule_calling_a_rule_says_so():
    line, hint = _first_error('Game "S" requires 2 players.\nRule a(p, c, l) = True.\n'
                              'Rule b(p, c, l) = a(p, c, l).\nAction main { }\n')
    assert line == 'Error: syntax error on line 3'
    assert hint.startswith('at column 20, found "("; a rule or ordering cannot call a rule')


def test_a_for_over_a_range_says_to_write_a_list():
    line, hint = _first_error('Game "S" requires 2 players.\nAction main {\n'
                              '  for i in 1..5 { message "{i}". }\n}\n')
    assert line == 'Error: syntax error on line 3'
    assert 'for i in [1; 2; 3; 4; 5]' in hint and hint.startswith('at column 17, found "{"')


def printed_refused_found(source):
    """For each extension's tests: (the printed program, which must parse
    back to the same tree; --strict's error; the extension nodes found)."""
    printed = printer.game(parser.parse(source))
    assert parser.parse(printed) == parser.parse(source)
    with pytest.raises(PipError) as e:
        frontend.check_text(source, strict=True)
    return printed, str(e.value), [type(n).__name__ for n in extensions.found(parser.parse(source))]


# --- values for each player and team ----------------------------------------

OWN = '''Game "Own" requires 2 teams of 2.
Number bid for each player = 1 + 1.
Boolean out for each player.
String tag for each team = "t".
Rank high for each player = Q.
Action main {
  for p in players {
    p->bid += 3.
    if p == players->first { p->out = True. }
    p->high = p->bid.
  }
  for p in players {
    let b be p->bid.
    let h be p->high.
    if defined p->out { message p "out {b} {h}". } else { message p "in {b} {h}". }
  }
  let t be teams->last.
  t->tag = "last".
  let s be t->tag.
  message "{s}".
  let q be players->last.
  let o be q->out.
}
'''


def test_values_for_each_player_run_the_same_on_the_vm_and_the_reference():
    vm, ref = both(OWN, 1, ['2', 'Ada', 'Ben', 'Cleo', 'Dan'])
    assert vm == ref
    lines = vm.transcript.splitlines()
    # (a Number stored in a Rank stays a Number, as in a Rank variable)
    assert 'Ada: out 5 5' in lines and 'Dan: in 5 5' in lines and 'last' in lines
    assert vm.ending == "Error: Line 22, Col 12: Undefined value"


def test_a_value_for_each_player_is_its_own_and_shows_in_the_view():
    from pipvm.game.game import Game
    from pipvm.game.view import view
    source = OWN.replace('  let q be players->last.\n  let o be q->out.\n', '  ask players->first { "go" { } }\n')
    game = Game(frontend.compile_text(source), seed=1, players=4,
                names=['Ada', 'Ben', 'Cleo', 'Dan'])
    v = view(game, 0)
    assert [p['values'] for p in v['players']] == [
        {'bid': 5, 'out': True, 'high': 5}, {'bid': 5, 'out': None, 'high': 5},
        {'bid': 5, 'out': None, 'high': 5}, {'bid': 5, 'out': None, 'high': 5}]
    assert [t['values'] for t in v['teams']] == [{'tag': 't'}, {'tag': 'last'}]
    fork = game.fork()
    fork.machine.players[0].own[0] = 99
    assert view(game, 0)['players'][0]['values']['bid'] == 5     # a fork's values are its own


HELD = '''Game "Held" requires 2 players.
Deck stock = standard.
Card kept for each player.
Number bid for each player = 1.
Action main {
  shuffle stock.
  deal 1 from stock to players.
  for p in players { p->kept = p->hand->first. }
  ask players->first { "go" { } }
}
'''


def test_a_card_for_each_player_is_not_shown_in_the_view():
    # each player's Card is the card dealt face down to it: no seat's view
    # shows it, not even its own seat's (a Card value may name any card)
    from pipvm.game.game import Game
    from pipvm.game.view import view
    game = Game(frontend.compile_text(HELD), seed=1, players=2, names=['Ada', 'Ben'])
    assert all(p.own[0] is p.hand[0] for p in game.machine.players)
    for seat in (0, 1):
        assert [p['values'] for p in view(game, seat)['players']] == [{'bid': 1}, {'bid': 1}]


@pytest.mark.parametrize('decl,use,error', [
    ('CardList won for each player.', '', "Line 2, Col 1: A value for each player can't be a list (CardList)"),
    ('Number score for each player.', '', 'Line 2, Col 1: Duplicate property: Player->score'),
    ('Number bid for each player = True.', '', 'Line 2, Col 1: Expected type Number but found type Boolean'),
    ('Number bid for each team.', 'let x be players->first->bid.',
     "Line 3, Col 40: Type Player has no property named 'bid'"),
    ('Number bid for each player.', 'players->first->bid = "x".',
     'Line 3, Col 31: Expected type Number but found type String'),
])
def test_values_for_each_player_are_checked(decl, use, error):
    source = 'Game "E" requires 2 players.\n%s\nAction main { %s }\n' % (decl, use)
    with pytest.raises(PipError) as e:
        frontend.check_text(source)
    assert str(e.value) == 'Error: ' + error


def test_for_each_needs_its_words():
    with pytest.raises(PipSyntaxError) as e:
        parser.parse('Game "E" requires 2 players.\nNumber bid for all player.\nAction main { }\n')
    assert str(e.value) == 'Error: syntax error on line 2'
    source = 'Game "E" requires 2 players.\nNumber each = 1.\nNumber player = each.\nAction main { }\n'
    frontend.check_text(source, strict=True)            # still names in 2008 programs


def test_values_for_each_player_print_round_trip_and_are_refused_by_strict():
    printed = printer.game(parser.parse(OWN))
    assert 'Number bid for each player = (1) + (1).\n' in printed
    assert 'Boolean out for each player.\n' in printed and 'for each team = "t".\n' in printed
    assert parser.parse(printed) == parser.parse(OWN)
    with pytest.raises(PipError) as e:
        frontend.check_text(OWN, strict=True)
    assert str(e.value) == ("Error: Line 2, Col 1: 'for each player' is an extension to "
                            "2008 Pip (refused by --strict)")


def test_values_for_each_player_need_format_version_3(tmp_path):
    from pipvm.isa import pipc
    plain = frontend.compile_text(LEAVING)
    assert pipc.dump(plain)[4] == 2                       # plain Pip keeps its bytes
    program = frontend.compile_text(OWN)
    data = pipc.dump(program)
    assert data[4] == 3
    assert pipc.load(data, 'own.pipc').owns == [('Player', 'bid', 'Number'),
                                                ('Player', 'out', 'Boolean'),
                                                ('Team', 'tag', 'String'),
                                                ('Player', 'high', 'Rank')]
    with pytest.raises(PipError) as e:                    # as a version-2 reader reads it
        pipc.load(data[:4] + b'\x02' + data[5:], 'own.pipc')
    assert str(e.value).startswith('Error: own.pipc: corrupt (')
    assert '\n' not in str(e.value)


def test_highlighters_show_for_each_as_keywords():
    tokens = [(t, v) for t, v in PipLexer().get_tokens('Number bid for each player = 0.')
              if v.strip()]
    assert [v for t, v in tokens if t is Keyword] == ['for', 'each', 'player']


# --- counting and aggregates --------------------------------------------------

AGG = '''Game "Agg" requires 2 players.
Deck stock = standard.
Area pile labeled "Pile" is faceup, spreadout.
Number kings = (count c in stock where c->rank == K).
Ordering aces_high(cards) = [2~%; 3~%; 4~%; 5~%; 6~%; 7~%; 8~%; 9~%; 10~%; J~%; Q~%; K~%; A~%].
Ordering strongest(cards) = [(max c in cards by aces_high)].
Rule pairs(p, c, cl) = (count x in p->hand where x->rank == c->rank) >= 2.
Action main {
  shuffle stock.
  deal 9 from stock to players.
  for p in players {
    let n be (count c in p->hand where c->suit == H or c->suit == D).
    let s be (sum c in p->hand of c->rank).
    let m be (max c in p->hand of c->rank).
    let lo be (min c in p->hand of c->rank * 2).
    let best be (max c in p->hand by aces_high).
    let worst be (min c in p->hand by aces_high).
    message "{kings} {n} {s} {m} {lo} {best} {worst}".
    order p->hand by strongest.
    let first be p->hand->first.
    message "{first}".
    if canplay pairs from p to pile { play pairs from p to pile. }
  }
  let none be (sum c in pile->cards of 1) + (count c in players->first->stash where True).
  message "{none}".
  let bad be (max c in players->first->stash of c->rank).
}
'''


def test_aggregates_run_the_same_on_the_vm_and_the_reference():
    for seed in (1, 2, 3):
        vm, ref = both(AGG, seed, ['2', 'Ada', 'Ben', 0, 0])
        assert vm == ref
        assert vm.ending == "Error: Line 26, Col 14: Can't get item from empty list"
    lines = vm.transcript.splitlines()
    assert any(line.startswith('4 ') for line in lines)


def test_an_aggregate_counts_as_the_long_way_does():
    from pipvm.core.runtime import RANK_NAMES
    from pipvm.game.game import Game
    game = Game(frontend.compile_text(AGG), seed=2, players=2, names=['Ada', 'Ben'])
    assert game.decision is not None            # (before anyone has played a card)
    hand = game.players[0].hand
    first = [e.text for e in game.events if e.text and e.text.startswith('4 ')][0].split()
    ranks = [int(c.rank) for c in hand]
    assert first[1:5] == [str(sum(c.suit.letter in 'HD' for c in hand)), str(sum(ranks)),
                          RANK_NAMES[max(ranks)], str(2 * min(ranks))]   # a Rank stays one
    high = max(hand, key=lambda c: 14 if c.rank == 1 else int(c.rank))      # aces high
    assert ' '.join(first[5:]).startswith(str(high))


def test_a_rule_or_ordering_with_an_aggregate_runs_as_closures_as_the_loop_does():
    """pipvm/engine/pure.py translates the aggregate's loop too: the rule
    `pairs` and the ordering `strongest` are closures, which give what the
    dispatch loop gives for every card of each hand."""
    from pipvm.engine.vm import Image
    from pipvm.game.game import Game
    program = frontend.compile_text(AGG)
    image = Image(program)
    index = {c.name: i for i, c in enumerate(program.codes)}
    assert image.pure[index['pairs']] is not None and image.pure[index['strongest']] is not None
    game = Game(program, seed=2, players=2, names=['Ada', 'Ben'])
    m = game.machine

    def both(name, args):
        code = m.image.codes[index[name]]
        loop = m._run(code, 0, [], args + [None] * (code.frame_size - len(args)), None)
        return image.pure[index[name]].call(m, list(args)), loop

    for p in m.players:
        for card in p.hand:
            fast, loop = both('pairs', [p, card, []])
            assert fast is loop
        fast, loop = both('strongest', [list(p.hand)])
        assert fast == loop and len(fast) == 1
    assert any(image.pure[index['pairs']].call(m, [p, c, []]) for p in m.players for c in p.hand)


@pytest.mark.parametrize('expr,error', [
    ('(count c in players where c->score)', 'Line 3, Col 50: Expected type Boolean but found type Number'),
    ('(sum c in players of c->name)', 'Line 3, Col 45: Expected type Number but found type String'),
    ('(max c in [A; K] by o)', "Line 3, Col 34: Expected type CardList but found type RankList"),
    ('(max c in standard by nowhere)', "Line 3, Col 24: Unknown ordering 'nowhere'"),
    ('(count c in 3 where True)', 'Line 3, Col 36: Expected a list type but found type Number'),
])
def test_aggregates_are_checked(expr, error):
    source = ('Game "E" requires 2 players.\nOrdering o(cl) = cl.\nAction main { let x be %s. }\n'
              % expr)
    with pytest.raises(PipError) as e:
        frontend.check_text(source)
    assert str(e.value) == 'Error: ' + error


def test_aggregate_words_stay_names_and_a_wrong_word_says_the_forms():
    source = ('Game "N" requires 2 players.\nNumber count = 1.\nNumber where = 2.\n'
              'Action main { let sum be (count + where). message "{sum}". }\n')
    vm, ref = both(source, 1, ['2', 'Ada', 'Ben'])
    assert vm == ref and '3\n' in vm.transcript
    frontend.check_text(source, strict=True)
    with pytest.raises(PipSyntaxError) as e:
        parser.parse('Game "E" requires 2 players.\nAction main {\n let x be (total c in players of 1).\n}\n')
    assert str(e.value) == 'Error: syntax error on line 3'
    assert '"(count X in LIST where CONDITION)"' in e.value.hint


def test_aggregates_print_round_trip_are_refused_by_strict_and_need_version_3():
    from pipvm.isa import pipc
    printed = printer.game(parser.parse(AGG))
    assert '(count x in (p)->hand where ((x)->rank) == ((c)->rank))' in printed
    assert '(max c in (p)->hand by aces_high)' in printed
    assert parser.parse(printed) == parser.parse(AGG)
    with pytest.raises(PipError) as e:
        frontend.check_text(AGG, strict=True)
    assert str(e.value) == ("Error: Line 4, Col 16: '(count ... where ...)' is an extension to "
                            "2008 Pip (refused by --strict)")
    data = pipc.dump(frontend.compile_text(AGG))
    assert data[4] == 3                       # a rule with a local of its own
    assert pipc.load(data, 'agg.pipc').codes[2].local_names == ['p', 'c', 'cl', 'x']


def test_highlighters_show_aggregate_words_as_keywords_only_there():
    tokens = [(t, v) for t, v in
              PipLexer().get_tokens('let n be (count c in h where True). let m be (count + 1).')
              if v.strip()]
    assert [v for t, v in tokens if t is Keyword] == ['let', 'be', 'count', 'let', 'be']


# --- Rank words and the property-in-a-string hint -----------------------------

WORDS = '''Game "W" requires 2 players.
Rank asked = 4.
Rank said = Four.
Number Ten = 3.
Action main {
  let t be Ten.
  let k be Seven~H.
  let l be [Two; Ace].
  let f be l->first.
  let n be King - 1.
  message "{asked} {said} {t} {k} {f} {n}".
  for Two in [5] { message "{Two}". }
}
'''


def test_rank_words_print_as_words_where_no_variable_has_the_name():
    vm, ref = both(WORDS, 1, ['2', 'Ada', 'Ben'])
    assert vm == ref
    assert '4 Four 3 Seven of Hearts Two 12\n5\n' in vm.transcript
    printed = printer.game(parser.parse(WORDS))
    assert 'Rank said = Four.\n' in printed and parser.parse(printed) == parser.parse(WORDS)
    with pytest.raises(PipError) as e:
        frontend.check_text(WORDS, strict=True)
    assert str(e.value) == ("Error: Line 3, Col 13: 'Four' (a Rank word) is an extension to "
                            "2008 Pip (refused by --strict)")
    # a declared name is the variable, under --strict too
    frontend.check_text('Game "W" requires 2 players.\nNumber Ten = 3.\n'
                        'Action main { let t be Ten. }\n', strict=True)


def test_a_property_in_a_string_keeps_the_original_line_and_adds_a_hint():
    line, hint = _first_error('Game "S" requires 2 players.\nAction main {\n'
                              '  message "{players->first->name}".\n}\n')
    assert line == 'Error: Line 3, Col 20: Nested string identifier expected; found: -'
    assert hint == ('"{NAME}" shows a variable, not a property: write '
                    '"let shown be players->first->name." before it, then "{shown}"')
    line, hint = _first_error('Game "abc{de=}" requires 2 players.\n')   # the corpus's case
    assert line == 'Error: Line 1, Col 13: Nested string identifier expected; found: =' and hint is None


def test_highlighters_show_rank_words_as_ranks():
    from compiler.pip.highlight import RANK
    tokens = [(t, v) for t, v in PipLexer().get_tokens('asked = Four. x = A.') if v.strip()]
    assert (RANK, 'Four') in tokens and (RANK, 'A') in tokens


# --- the examples written with the extensions ------------------------------------

@pytest.mark.parametrize('name, most', [('oh_hell', 5), ('go_fish', 4), ('president', 5)])
def test_an_example_with_the_extensions_plays_as_its_2008_version(name, most, monkeypatch):
    """The same seed and answers give the same transcript: the golden game
    (NAME.answers, seed 1), and games of 3 and of MOST players where the i-th
    choice takes option i (mod their number): always the first goes round in
    circles in Go Fish."""
    # The fuzz limit is for small programs: plain Go Fish's game takes more.
    monkeypatch.setattr(harness, 'MAX_STEPS', 200_000)
    plain = frontend.read_source(os.path.join(ROOT, 'examples', name + '.pip'))
    ext = frontend.read_source(os.path.join(ROOT, 'examples', name + '_ext.pip'))
    assert extensions.found(parser.parse(ext)) and not extensions.found(parser.parse(plain))
    with open(os.path.join(ROOT, 'examples', name + '.answers'), encoding='latin-1') as f:
        script = f.read().splitlines()
    with open(os.path.join(ROOT, 'examples', name + '_ext.answers'), encoding='latin-1') as f:
        assert f.read().splitlines() == script
    games = [(1, script)] + [(seed, [str(players)] + ['P%d' % i for i in range(players)] + list(range(400)))
                             for seed, players in ((2, 3), (3, most))]
    for seed, answers in games:
        a, _ = both(plain, seed, answers)
        b, _ = both(ext, seed, answers)
        assert a.transcript == b.transcript and a.ending == b.ending
        assert 'The game was won by ' in a.transcript
