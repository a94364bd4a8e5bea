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
from pipvm.core.runtime import CALL_TOO_DEEP, MAX_CALL_DEPTH
from pipvm.engine.vm import Image, Machine
from pipvm.game.game import Game
from tests.fuzz.harness import both

HEAD = 'Game "H" requires 2 players.\n'
SEATS = ['2', 'Ada', 'Ben']


def loop_game(source, seed=1, quiet=False, max_steps=None):
    """A game of source on the loop, at its first decision (or its end)."""
    return Game(Image(frontend.compile_text(source)), seed=seed, players=2,
                names=['Ada', 'Ben'], quiet=quiet, max_steps=max_steps)


def said(game):
    """The messages and shown lines so far, as the table reads them."""
    return [e.text for e in game.events if e.kind in ('message', 'show', 'played')]


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
    assert said(game)[-len(want) - 1:-1] == want and ending(game) == ('no winner', None)
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


@pytest.mark.parametrize('gives,body,call', [
    ('', 'down(n + 1).', 'down(1).'),
    ('gives Number ', 'give down(n + 1).', 'let x be down(1).'),
])
def test_recursion_past_the_call_depth_is_the_error_at_the_call(gives, body, call):
    source = DEEP % (gives, body, call)
    game = loop_game(source)
    line = 'Error: Line 5, Col %d: %s' % (8 if gives else 3, CALL_TOO_DEEP)
    assert ending(game) == ('error', line)
    assert game.machine.globals[0] == MAX_CALL_DEPTH - 1
    vm, ref = both(source, 1, SEATS)
    assert vm == ref and vm.ending == line


@pytest.mark.parametrize('gives,body,call', [
    ('', 'down(n + 1).', 'down(1).'),
    ('gives Number ', 'give down(n + 1).', 'let x be down(1).'),
])
def test_a_call_past_the_step_limit_stops_there(gives, body, call):
    source = DEEP % (gives, body, call)
    steps = []
    for limit in (30, 31, 32, 33):
        game = loop_game(source, max_steps=limit)
        assert game.ending.kind == 'step limit'
        steps.append((game.machine.globals[0], game.machine.steps_left))
    assert steps == EXPECTED_STEPS[bool(gives)]


EXPECTED_STEPS = {False: [(30, -1), (31, -1), (32, -1), (33, -1)],
                  True: [(30, -1), (31, -1), (32, -1), (33, -1)]}


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
    assert said(game)[-3:] == ['nothing', '2', 'No winner has been declared.']


def test_a_set_rule_or_a_labelled_pass_plays_as_the_reference():
    got = lines(SETS_OR, SEATS + [0, 0])
    assert got[-3:] == ['nothing', '2', 'No winner has been declared.']
