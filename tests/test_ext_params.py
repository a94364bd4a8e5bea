"""Extension: actions with parameters and results, and recursion with a
depth limit (docs/language.md, "Actions with parameters and results")."""
import re
import subprocess
import sys

import pytest

from compiler.codegen import generator
from compiler.errors import PipError, PipSyntaxError
from compiler.pip import ast, extensions, frontend, parser, printer
from pipvm.core import plain
from pipvm.core.runtime import CALL_TOO_DEEP, MAX_CALL_DEPTH
from pipvm.engine import engines
from pipvm.isa import pipc
from tests.fuzz.harness import both
from tests.util import check_error

HEAD = 'Game "P" requires 2 players.\n'
SEATS = ['2', 'Ada', 'Ben']

HELPERS = HEAD + '''Deck stock = standard.
Number calls = 0.

Action deal_to(Player p, Number n) {
  calls += 1.
  deal n from stock to p.
}

Action highest(CardList cs) gives Card {
  let best be cs->top.
  for c in cs {
    if c->rank > best->rank { best = c. }
  }
  give best.
}

Action is_even(Number n) gives Boolean {
  if n == 0 { give True. }
  give is_odd(n - 1).
}

Action is_odd(Number n) gives Boolean {
  if n == 0 { give False. } else { give is_even(n - 1). }
}

Action fact(Number n) gives Number {
  if n <= 1 { give 1. }
  give n * fact(n - 1).
}

Action first_big(CardList cs, Rank r) gives Card {
  for c in cs {
    if c->rank >= r { give c. }
  }
  give cs->top.
}

Action main {
  shuffle stock.
  for p in players { deal_to(p; 4). }
  for p in players {
    let c be highest(p->hand).
    let f be first_big(p->hand; 7).
    message p "highest {c}, first of 7 or more {f}".
  }
  let e be is_even(7).
  let big be fact(10).
  fact(3).
  message "{calls} deals; 7 even: {e}; 10! = {big}".
}
'''


def deep(n):
    """A program whose main calls down(n): n + 1 actions inside main."""
    return HEAD + '''Action down(Number n) gives Number {
  if n == 0 { give 0. }
  give 1 + down(n - 1).
}
Action main {
  let x be down(%d).
  message "{x}".
}
''' % n


# --- parsing ------------------------------------------------------------------

def test_parses_declarations_calls_and_give():
    game = parser.parse(HELPERS)
    deal_to = game.decls[2]
    assert type(deal_to) is ast.ParamActionDecl and deal_to.gives is None
    assert [(x.type, x.name) for x in deal_to.params] == [('Player', 'p'), ('Number', 'n')]
    assert game.decls[3].gives == 'Card'
    found = [type(n).__name__ for n in extensions.found(game)]
    assert {'ParamActionDecl', 'Call', 'Invoke', 'Give'} <= set(found)


def test_printer_round_trips():
    printed = printer.game(parser.parse(HELPERS))
    assert 'Action deal_to(Player p, Number n) {' in printed
    assert 'deal_to(p; 4).' in printed and 'give best.' in printed
    assert parser.parse(printed) == parser.parse(HELPERS)
    assert printer.game(parser.parse(printed)) == printed


def test_2008_programs_keep_their_meaning():
    # a variable named give, an addressee before brackets, `where (` in an
    # aggregate: none of them is a call or a result
    source = HEAD + '''Number give = 1.
String s = "hi".
Action main {
  give = 2.
  give += 1.
  message players->first (s).
  let n be (count c in standard where (c->rank) == give).
  message "{give} {n}".
}
'''
    game = parser.parse(source)
    main = game.decls[-1].body
    assert type(main[0]) is ast.Assign and type(main[1]) is ast.Compound
    assert type(main[2]) is ast.Message and main[2].to is not None
    assert extensions.found(game)[0].word == 'count'      # the only extension
    vm, ref = both(source, 1, SEATS)
    assert vm == ref and vm.transcript.splitlines()[-2:] == ['3 4', 'No winner has been declared.']


def test_a_parameter_needs_its_type():
    with pytest.raises(PipSyntaxError) as e:
        parser.parse(HEAD + 'Action f(p) { }\nAction main { }\n')
    assert e.value.hint.startswith('at column 10, found "p"; each parameter of an action')


def test_gives_is_the_only_word_after_the_parameters():
    with pytest.raises(PipSyntaxError) as e:
        parser.parse(HEAD + 'Action f() returns Number { }\nAction main { }\n')
    assert e.value.hint == 'at column 12, found "returns"; expected "{" (or "gives TYPE")'


# --- checking -----------------------------------------------------------------

@pytest.mark.parametrize('decls,main,error', [
    ('Action f(Number n) { }', 'f(1; 2).', "Line 4, Col 3: Action 'f' takes 1 argument but is given 2"),
    ('Action f(Number n, Player p) { }', 'f(1).',
     "Line 4, Col 3: Action 'f' takes 2 arguments but is given 1"),
    ('Action f(Number n) { }', 'f(players->first).',
     'Line 4, Col 5: Expected type Number but found type Player'),
    ('Action f(Number n) { }', 'let x be f(1).',
     "Line 4, Col 12: Action 'f' gives no result (declare it 'Action f(...) gives TYPE')"),
    ('Action f() gives Number { give True. }', 'f().',
     'Line 2, Col 32: Expected type Number but found type Boolean'),
    ('Action f(Number n) gives Number { if n > 0 { give 1. } }', 'f(1).',
     "Line 2, Col 1: Action 'f' can end without a result: end it with 'give VALUE.' "
     "(or an if/else whose every branch does)"),
    ('Action f(Number n) { give n. }', 'f(1).',
     "Line 2, Col 22: 'give' ends an action that gives a result "
     "(Action NAME(...) gives TYPE { ... })"),
    ('Action f(Number n, Rank n) { }', 'f(1; 2).', 'Line 2, Col 25: Duplicate Variable: n'),
    ('Action g(Number n) gives Boolean { give n > 0. }\nRule r(p, c, l) = g(1).',
     'f().', "Line 3, Col 19: Only an action can call an action ('g')"),
    ('Action g(Number n) gives Number { give n. }\nNumber x = g(1).', 'f().',
     "Line 3, Col 12: Only an action can call an action ('g')"),
    ('Action f { }', 'let x be f().',
     "Line 4, Col 12: Action 'f' gives no result (declare it 'Action f(...) gives TYPE')"),
    ('Action f { }', 'nope(1).', "Line 4, Col 3: Unknown action 'nope'"),
])
def test_checking_errors_have_positions(decls, main, error):
    source = HEAD + decls + '\nAction main {\n  %s\n}\n' % main
    if '\n' in decls:       # (main one line lower)
        error = error.replace('Line 4,', 'Line 5,')
    assert check_error(source) == 'Error: ' + error


def test_message_then_a_call_reads_the_name_as_the_addressee_as_in_2008():
    source = HEAD + '''Action name_of(Player p) gives String { give p->name. }
Action main {
  let p be players->first.
  message p name_of(p).
  message (name_of(p)).
  message name_of(p).
}
'''
    with pytest.raises(PipError) as e:
        frontend.check_text(source)
    assert str(e.value) == "Error: Line 7, Col 11: Unknown identifier 'name_of'"
    assert e.value.hint == ('"message NAME (...)" sends to NAME: for an action\'s result, put '
                            'the call in brackets, "message (name_of(...))."')
    vm, ref = both(source.replace('  message name_of(p).\n', ''), 1, SEATS)
    assert vm == ref and vm.transcript.splitlines()[-3:] == [
        'Ada: Ada', 'Ada', 'No winner has been declared.']


def test_main_takes_no_parameters():
    assert check_error(HEAD + 'Action main(Number n) { }\n') == (
        "Error: Line 2, Col 1: Action 'main' takes no parameters and gives no result")


def test_a_2008_action_calling_itself_is_still_unknown():
    """corpus semantic/invoke.pip: the original's message, byte for byte."""
    assert check_error(HEAD + 'Action f {\n  f().\n}\nAction main { }\n') == (
        "Error: Line 3, Col 3: Unknown action 'f'")


def test_parameters_are_local_and_calls_come_before_declarations():
    source = HEAD + '''Number n = 5.
Action main {
  show(n + 1).
  message "{n}".
}
Action show(Number n) {
  n += 10.
  message "{n}".
}
'''
    vm, ref = both(source, 1, SEATS)
    assert vm == ref
    assert vm.transcript.splitlines()[-3:] == ['16', '5', 'No winner has been declared.']


# --- running ------------------------------------------------------------------

@pytest.mark.parametrize('seed', [1, 2, 3])
def test_runs_the_same_on_the_vm_and_the_reference(seed):
    vm, ref = both(HELPERS, seed, SEATS)
    assert vm == ref
    lines = vm.transcript.splitlines()
    assert lines[-2:] == ['2 deals; 7 even: False; 10! = 3628800', 'No winner has been declared.']
    assert sum(x.startswith(('Ada: highest', 'Ben: highest')) for x in lines) == 2


def test_recursion_as_deep_as_the_limit_allows():
    vm, ref = both(deep(MAX_CALL_DEPTH - 2), 1, SEATS)   # main and 999 calls: 1000 frames
    assert vm == ref and vm.ending == 'no winner'
    assert str(MAX_CALL_DEPTH - 2) in vm.transcript.splitlines()


def test_recursion_past_the_limit_is_one_error_line_on_every_engine():
    vm, ref = both(deep(MAX_CALL_DEPTH - 1), 1, SEATS)
    assert vm == ref
    assert vm.ending == 'Error: Line 4, Col 12: ' + CALL_TOO_DEEP
    assert CALL_TOO_DEEP == ('Actions called inside one another more than 1000 deep '
                             '(does an action call itself without end?)')


def test_a_compiled_file_with_recursion_loads(tmp_path):
    program = generator.generate(frontend.check_text(deep(3)))
    data = pipc.dump(program)
    assert pipc.load(data, 'g.pipc').codes[1].name == 'down'


def _cli(*args):
    return subprocess.run([sys.executable, '-m', 'pipvm', *args], capture_output=True, text=True,
                          timeout=120)


def test_the_command_line_stops_with_one_line(tmp_path):
    game = tmp_path / 'game.pip'
    game.write_text(deep(5000))
    for engine in engines.NAMES:
        done = _cli('run', '--bots', 'first', '--engine', engine, str(game))
        assert done.returncode == 1
        assert done.stderr.strip().splitlines() == ['Error: Line 4, Col 12: ' + CALL_TOO_DEEP]


# --- --strict -----------------------------------------------------------------

@pytest.mark.parametrize('decls,main,what', [
    ('Action f(Number n) { }', 'f(1).', "Line 2, Col 1: an action with parameters ('Action f(...)')"),
    ('Action f { }', 'let x be g(1).', "Line 4, Col 12: a call in an expression ('g(...)')"),
    ('Action f { }', 'g(1).', "Line 4, Col 3: a call with arguments ('g(...).')"),
])
def test_strict_refuses_each_form(decls, main, what):
    source = HEAD + decls + '\nAction main {\n  %s\n}\n' % main
    with pytest.raises(PipError) as e:
        frontend.check_text(source, strict=True)
    assert str(e.value) == 'Error: %s is an extension to 2008 Pip (refused by --strict)' % what


def test_strict_on_the_command_line(tmp_path):
    game = tmp_path / 'game.pip'
    game.write_text(HELPERS)
    done = _cli('check', '--strict', str(game))
    assert done.returncode == 1 and done.stderr.strip().splitlines() == [
        "Error: Line 5, Col 1: an action with parameters ('Action deal_to(...)') is an "
        "extension to 2008 Pip (refused by --strict)"]
    assert _cli('check', str(game)).returncode == 0


# --- the decline option's label: `or "Take"` ------------------------------------

TAKE = HEAD + '''Deck d = [5~H; 5~S; 9~C].
Area table labeled "Table" is faceup.
Rule beats(p, cards, cl) for sets = cards->top->rank > 6.

Action main {
  let p be players->first.
  deal 3 from d to p.
  let word be "Take".
  play beats from p to table or "{word} them" {
    message "{p} took".
  }
  play beats from p to table or "Done".
  let n be table->cards->size.
  message "{n} on the table".
}
'''


def test_the_pass_takes_the_author_s_label_on_both_engines():
    vm, ref = both(TAKE, 1, SEATS + ['Take them', 'Nine of Clubs'])
    assert vm == ref
    lines = vm.transcript.splitlines()
    assert lines.count('  Take them') == 1 and lines.count('  Done') == 1
    assert 'Ada took' in lines and '1 on the table' in lines and '  Pass' not in lines


def test_the_label_prints_round_trips_and_is_refused_by_strict():
    printed = printer.game(parser.parse(TAKE))
    assert 'or "{word} them" {' in printed and 'or "Done" {' in printed
    assert parser.parse(printed) == parser.parse(TAKE)
    with pytest.raises(PipError) as e:
        frontend.check_text(TAKE, strict=True)
    assert str(e.value) == ("Error: Line 4, Col 1: a rule for sets of cards ('for sets') is an "
                            "extension to 2008 Pip (refused by --strict)")
    node = [n for n in extensions.found(parser.parse(TAKE)) if type(n) is ast.PlayOrPass][0]
    assert extensions.EXTENSIONS[ast.PlayOrPass](node) == '\'or "..."\''


def test_the_highlighter_shows_give_and_gives_as_keywords_only_there():
    from pygments.token import Keyword, Name
    from compiler.pip.highlight import PipLexer
    source = HELPERS + 'Action g { give = 1. give(). }\n'
    words = [(t, v) for t, v in PipLexer().get_tokens(source) if v in ('give', 'gives')]
    gives = HELPERS.count(') gives ')
    give = len(re.findall(r'\bgive\b', HELPERS))
    assert words.count((Keyword, 'gives')) == gives == 5
    assert words.count((Keyword, 'give')) == give == 9
    assert words[-2:] == [(Name, 'give'), (Name, 'give')]


def test_a_file_whose_call_for_runs_an_action_without_a_result_is_refused():
    program = generator.generate(frontend.check_text(HELPERS))
    names = [c.name for c in program.codes]
    main = program.codes[program.main]
    at = main.code.index(bytes([91, 1, names.index('highest')]))      # CALL_FOR 1, highest
    code = bytearray(main.code)
    code[at + 2] = names.index('deal_to')
    program.codes[program.main] = plain.evolve(main, code=bytes(code))
    with pytest.raises(pipc.FileError) as e:
        pipc.load(pipc.dump(program), 'g.pipc')
    assert str(e.value) == ('Error: g.pipc: corrupt (CALL_FOR at offset %d of action main runs '
                            'an action that gives no result)' % at)
