"""The handlers of pipvm/engine/generated_cases.py that the dispatch loop
(`--engine loop`: Image(program), not compiled) calls for an instruction it
does not write inline, the quiet variant's handlers, Machine.tick and the
loop's rule closures: small programs each asserting the exact outcome (the
messages, the waiting choice, the error line, the turn order), against the
compiled tier and the reference where `both` can play them."""
import pytest

from compiler.pip import frontend
from pipvm.core.errors import StepLimit
from pipvm.core.rng import OCamlRandom
from pipvm.core.runtime import CALL_TOO_DEEP, MAX_CALL_DEPTH, Player
from pipvm.engine.vm import Image, Machine
from pipvm.game.game import Game
from tests.fuzz.harness import both
from tests.test_vm import K, program

HEAD = 'Game "H" requires 2 players.\n'
SEATS = ['2', 'Ada', 'Ben']


def loop_game(source, seed=1, quiet=False, max_steps=None):
    """A game of source on the loop, at its first decision (or its end)."""
    return Game(Image(frontend.compile_text(source)), seed=seed, players=2,
                names=['Ada', 'Ben'], quiet=quiet, max_steps=max_steps)


def said(game):
    """The messages and plays so far, as the table reads them."""
    return [e.text for e in game.events if e.kind in ('message', 'played')]


def ending(game):
    return game.ending.kind, str(game.ending.error) if game.ending.error else game.ending.winner


def lines(source, answers=SEATS, seed=1):
    """The transcript after the names, the same on the three engines."""
    vm, ref = both(source, seed, answers)
    assert vm == ref
    return vm.transcript.split('Enter a name for Player 2: ')[1].splitlines()[1:]


# --- Machine.tick ------------------------------------------------------------------

def test_tick_counts_down_and_stops_only_past_the_limit():
    m = Machine(Image(frontend.compile_text(HEAD + 'Action main { }\n')), OCamlRandom(1), 5, [])
    m.tick(4)
    assert m.steps_left == 1
    m.tick()
    assert m.steps_left == 0            # (at 0: still within the limit)
    with pytest.raises(StepLimit) as e:
        m.tick()
    assert m.steps_left == -1 and e.value.args == (5,)


# --- actions with parameters and results: CALL_WITH, CALL_FOR ---------------------

PARAMS = HEAD + '''Deck d = [2~H; 3~H; 4~H; 5~H].
Number total = 0.
Action add(Number n, Card c) {
  total += n + c->rank.
}
Action twice(Number n) gives Number {
  give n + n.
}
Action main {
  for c in d {
    add(10; c).
    let t be twice(c->rank).
    message "{c} {t} {total}".
  }
  let u be 1 + twice(twice(3)).
  message "u {u}".
}
'''


def test_calls_with_arguments_leave_the_callers_stack_as_it_was():
    want = ['Two of Hearts 4 12', 'Three of Hearts 6 25', 'Four of Hearts 8 39',
            'Five of Hearts 10 54', 'u 13']
    game = loop_game(PARAMS)
    assert said(game)[-len(want):] == want and ending(game) == ('no winner', None)
    assert lines(PARAMS)[-len(want) - 1:-1] == want


DEEP = HEAD + '''Number depth = 0.
Action down(Number n) %s{
  depth = n.
  %s
}
Action main {
  message "start".
  %s
}
'''
RECURSIONS = [('', 'down(n + 1).', 'down(1).'),
              ('gives Number ', 'give down(n + 1).', 'let x be down(1).')]


@pytest.mark.parametrize('gives,body,call', RECURSIONS)
def test_recursion_past_the_call_depth_is_the_error_at_the_call(gives, body, call):
    source = DEEP % (gives, body, call)
    game = loop_game(source, max_steps=20000)     # (without the depth limit: the step limit)
    line = 'Error: Line 5, Col %d: %s' % (8 if gives else 3, CALL_TOO_DEEP)
    assert ending(game) == ('error', line)
    assert game.machine.globals[0] == MAX_CALL_DEPTH - 1
    vm, ref = both(source, 1, SEATS)
    assert vm == ref and vm.ending == line


@pytest.mark.parametrize('gives,body,call', RECURSIONS)
def test_a_call_past_the_step_limit_stops_there(gives, body, call):
    # a call is a step: the one past the limit stops there, before its frame
    # (depth: the calls made), not at a later step
    source = DEEP % (gives, body, call)
    for limit in (30, 31, 32, 33):
        game = loop_game(source, max_steps=limit)
        assert game.ending.kind == 'step limit'
        assert (game.machine.globals[0], game.machine.steps_left) == (limit, -1)


# --- `play R from P to D or "LABEL" { }` of a rule for sets: PLAY_SET_OR ------------

SETS_OR = HEAD + '''Deck d = [5~H; 5~S; 9~C; 5~D; 9~H; 9~S; 2~C; 2~D].
Area pile labeled "Pile" is faceup.
Rule pairs(p, cards, cl) for sets = cards->size == 2.
Rule none(p, cards, cl) for sets = cards->size == 9.
Action main {
  deal 4 from d to players.
  let p be players->last.
  play pairs from p to pile or "Keep" { message "kept". }
  play none from players->first to pile or "Nothing" { message "nothing". }
  let n be pile->cards->size.
  message "{n}".
}
'''


def test_a_set_rule_or_a_labelled_pass_waits_with_each_set_and_the_label():
    game = loop_game(SETS_OR)
    pending = game.machine.pending
    assert pending.player.name == 'Ben' and pending.dest is game.machine.globals[-1].cards
    assert pending.labels == list(game.decision.options)
    assert pending.labels[-1] == 'Keep' and pending.sets[-1] is None
    assert [[c.name for c in s] for s in pending.sets[:-1]] == [
        label.split(' and ') for label in pending.labels[:-1]]
    assert game.decision.prompt == 'Ben: Choose cards:' and len(pending.labels) > 1
    game.answer(0)
    assert game.decision.options == ('Nothing',)
    game.answer(0)
    assert said(game)[-2:] == ['nothing', '2'] and ending(game) == ('no winner', None)


def test_a_set_rule_or_a_labelled_pass_plays_as_the_reference():
    got = lines(SETS_OR, SEATS + [0, 0])
    assert got[-3:] == ['nothing', '2', 'No winner has been declared.']


# --- out and back: TURN_OUT, TURN_BACK ------------------------------------------------

TURNS = HEAD + '''Action main {
  let a be players->first.
  out a.
  for q in players { message "{q}". }
  back a.
  for q in players { message "{q}". }
}
'''


def test_back_brings_a_player_back_into_the_turn_order():
    game = loop_game(TURNS)
    assert said(game) == ['Ben', 'Ben', 'Ada']      # (back: after the first player)
    assert lines(TURNS) == ['Ben', 'Ben', 'Ada', 'No winner has been declared.']


# --- aces high: ACE_HIGH on the loop and in a rule's closure ---------------------------

ACES = HEAD + '''Aces high.
Deck d = [A~H; 9~H; K~S].
Area table labeled "Table" is faceup.
Number top = 14.
Rule above(p, c, pile) = c->rank > top.
Rule reach(p, c, pile) = c->rank >= top.
Action main {
  let p be players->first.
  deal 3 from d to p.
  let m be (max c in p->hand of c->rank).
  let n be (min c in p->hand of c->rank).
  message "max {m} min {n}".
  if A > K { message "aces high". }
  if canplay above from p to table { message "above". }
  if canplay reach from p to table { message "at". }
}
'''


def test_an_ace_counts_fourteen_on_the_loop_and_in_a_rule():
    want = ['max 14 min 9', 'aces high', 'at']
    assert said(loop_game(ACES)) == want
    assert lines(ACES) == want + ['No winner has been declared.']


# --- an ask with no question left: ASK_FROM -------------------------------------------

def test_an_ask_with_no_option_left_is_the_error_at_the_ask():
    source = HEAD + '''Action main {
  ask players->first {
    for c in players->first->hand "{c}" { }
    "never" if False { }
  }
}
'''
    assert ending(loop_game(source)) == (
        'error', 'Error: Line 3, Col 3: None of the questions can be asked')


# --- (item K of L): LIST_ITEM on the loop and in a rule's closure ----------------------

ITEMS = HEAD + '''Deck d = [2~H; 3~H; 4~H].
Area table labeled "Table" is faceup.
Number k = %d.
Rule is_item(p, c, pile) = c->rank == (item k of [3; 4; 2]).
Action main {
  let p be players->first.
  deal 3 from d to p.
  %s
}
'''
IN_MAIN = 'let x be (item k of [7; 8; 9]).\n  message "item {x}".'
IN_RULE = 'play is_item from p to table or "None" { message "none". }'


@pytest.mark.parametrize('k,main,want', [
    (1, IN_MAIN, 'item 7'), (3, IN_MAIN, 'item 9'),
    (0, IN_MAIN, 'Error: Line 9, Col 12: No item at that place: the list has 3 items'),
    (4, IN_MAIN, 'Error: Line 9, Col 12: No item at that place: the list has 3 items'),
    (1, IN_RULE, 'Ada played Three of Hearts.'), (3, IN_RULE, 'Ada played Two of Hearts.'),
    (0, IN_RULE, 'Error: Line 5, Col 39: No item at that place: the list has 3 items'),
    (4, IN_RULE, 'Error: Line 5, Col 39: No item at that place: the list has 3 items'),
])
def test_an_item_by_place_or_the_error_naming_the_lists_size(k, main, want):
    source = ITEMS % (k, main)
    game = loop_game(source)
    if game.decision:
        assert game.decision.options[-1] == 'None' and len(game.decision.options) == 2
        game.answer(0)
    got = str(game.ending.error) if game.ending.error else said(game)[-1]
    assert got == want
    vm, ref = both(source, 1, SEATS + [0])
    assert vm == ref


# --- for ... starting at: FOR_ITER_FROM ------------------------------------------------

def test_a_loop_starting_at_a_value_not_in_the_list_is_the_error_at_the_loop():
    source = HEAD + '''Action main {
  for x in [1; 2; 3] starting at 5 { message "{x}". }
}
'''
    assert ending(loop_game(source)) == ('error', 'Error: Line 3, Col 3: Starting element is not in list')


# --- a cold block's first instruction (the compiled tier, compiled.py _Lazy) ------------
# A call ends a block: the instruction after it begins one, and until the
# block is hot its first instruction runs alone by its handler, an inline
# one's included (INLINE_HANDLERS).  Each round of the inner `for` runs
# them cold (the two loops' iterators under the values: stack[-1] is not
# stack[1]); `both` plays the compiled tier at its
# HOT for an even seed.

COLD = HEAD + '''Deck d = [2~H; 3~H; 4~H; 5~H; 3~S].
Card g = 3~H.
Number total = 0.
Action noop(Number k) {
  total += k.
}
Action card_of(Number k) gives Card {
  give (item k of [2~S; 3~H; 4~S]).
}
Action num(Number k) gives Number {
  give k.
}
Action who(Number k) gives Player {
  give (item k of players).
}
Action hand_of(Number k) gives CardList {
  let q be (item k of players).
  give q->hand.
}
Action main {
  deal 2 from d to players->first.
  let p be players->first.
  let e be players->last.
  let c be p->hand->top.
  let h be p->hand.
  let x be e->hand.
  for j in [1] {
  for k in [1; 2; 3] {
    %s
    message "{k} {w}".
  }
  }
}
'''


@pytest.mark.parametrize('statement,want', [
    ('let w be (card_of(k))->rank.', ['1 Two', '2 Three', '3 Four']),
    ('let w be (who(k - k + 1))->hand->size.', ['1 2', '2 2', '3 2']),
    ('let w be (hand_of(1))->size.', ['1 2', '2 2', '3 2']),
    ('let w be card_of(k) == g.', ['1 False', '2 True', '3 False']),
    ('let w be 0.\n    if card_of(k) == g { w = 1. }', ['1 0', '2 1', '3 0']),
    ('let w be 0.\n    if num(k) == 2 or k == 3 { w = 1. }', ['1 0', '2 1', '3 1']),
    ('noop(k).\n    let w be g->rank.', ['1 Three', '2 Three', '3 Three']),
    ('noop(k).\n    let w be h->top->rank.', ['1 Three', '2 Three', '3 Three']),
    ('noop(k).\n    let w be c->suit.', ['1 Hearts', '2 Hearts', '3 Hearts']),
    ('noop(k).\n    let w be c->last_played_by.', 'Error: Line 31, Col 14: Undefined value'),
    ('noop(k).\n    let w be g->last_played_by.', 'Error: Line 31, Col 14: Undefined value'),
    ('noop(k).\n    let w be h->top->last_played_by.', 'Error: Line 31, Col 14: Undefined value'),
    ('noop(k).\n    let w be x->top->rank.', "Error: Line 31, Col 17: Can't get item from empty list"),
    # (the property's position is the parenthesis, its object's the name)
    ('noop(k).\n    let w be (c)->last_played_by.', 'Error: Line 31, Col 14: Undefined value'),
    ('noop(k).\n    let w be (g)->last_played_by.', 'Error: Line 31, Col 14: Undefined value'),
    ('let w be (hand_of(2))->top.', "Error: Line 30, Col 28: Can't get item from empty list"),
    ('let w be 0.\n    for y in [1; 2; 3] starting at num(k) { w = y. }', ['1 3', '2 1', '3 2']),
    ('let w be 0.\n    for y in [1; 2; 3] starting at num(k + 5) { w = y. }',
     'Error: Line 31, Col 5: Starting element is not in list'),
    # (a block that ends before the loop's JUMP: its last part is not the `for`'s)
    ('let w be 0.\n    for y in [1; 2; 3] starting at num(k + 5) { noop(y). }',
     'Error: Line 31, Col 5: Starting element is not in list'),
    ('let w be num(k) == 2 or k == 3.', ['1 False', '2 True', '3 True']),
])
def test_a_cold_blocks_first_instruction_runs_as_the_loop_runs_it(statement, want):
    vm, ref = both(COLD % statement, 2, SEATS)
    assert vm == ref
    if isinstance(want, str):
        assert vm.ending == want
    else:
        assert vm.transcript.splitlines()[-4:-1] == want and vm.ending == 'no winner'


# --- the quiet variant's handlers (QUIET_HANDLERS: a game nobody reads) ---------------
# A message of more than quiet.LONGEST parts is not one check: its FORMAT
# joins nothing and its MESSAGE shows nothing, but a part that cannot be
# shown (undefined, a Number too long) fails there as joining it would.

LONG = HEAD + '''Number u.
Number n = 0.
Action main {
  let b be 1.
  let k be 0.
  forever { if k >= %d { skip to done. } b = b + b. k += 1. }
  label done.
  for q in players {
    message %s"%s".
    n += 1.
  }
}
'''
PARTS = '{q} {n} ' * 6      # (twelve parts: past quiet.LONGEST; b only where a case puts it)


def quiet_end(source, n=1):
    """How a quiet game on the loop ends, and global n (the rounds it got past)."""
    game = loop_game(source, quiet=True)
    assert game.events is None
    loud = loop_game(source)
    got = (ending(game), game.machine.globals[n])
    assert got == (ending(loud), loud.machine.globals[n])
    return got


@pytest.mark.parametrize('to', ['', 'q '])
@pytest.mark.parametrize('bits,parts,want', [
    (3, PARTS, ('no winner', None)),
    (3, '{u} ' + PARTS, ('error', 'Error: Line 10, Col 5: Undefined value')),
    (3, PARTS + '{u}', ('error', 'Error: Line 10, Col 5: Undefined value')),
    (15000, '{b} ' + PARTS, ('error', 'Error: Line 10, Col 5: Number too large to show')),
    (15000, PARTS + '{b}', ('error', 'Error: Line 10, Col 5: Number too large to show')),
])
def test_a_long_quiet_message_fails_where_the_loud_one_does(to, bits, parts, want):
    (kind, line), n = quiet_end(LONG % (bits, to, parts))
    assert kind == want[0] and n == (0 if kind == 'error' else 2)
    if line is not None:        # (at the part's column: the loud game's, asserted equal)
        start, _, end = want[1].partition('Col 5')
        assert line.startswith(start) and line.endswith(end)


def test_a_quiet_message_to_everyone_of_no_text_is_the_damaged_files_error():
    # MESSAGE_ALL shows a String; only a damaged file gives it a Number
    image = Image(program([('CONST', K['7']), ('MESSAGE_ALL',), ('CONST', K['1']),
                           ('STORE_GLOBAL', 1)]))
    m = Machine(image, OCamlRandom(1), None, None)
    with pytest.raises(Exception) as e:
        m.start([Player('Ann', seat=0), Player('Bob', seat=1)])
    assert str(e.value).endswith('(message of int)') and m.globals[1] is None


def test_a_message_only_loop_that_could_fail_is_handed_back_to_the_loud_code():
    source = HEAD + '''Deck stock = standard.
Number u.
Number n = 0.
Action main {
  deal 2 from stock to players.
  for p in players {
    n += 1.
    for c in p->hand { message "{c} {u}". }
  }
}
'''
    assert quiet_end(source, 2) == (('error', 'Error: Line 9, Col 38: Undefined value'), 1)
