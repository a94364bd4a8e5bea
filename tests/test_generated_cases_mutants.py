"""Mutants of pipvm/engine/generated_cases.py that the rest of its SUITE left
alive: small programs on the loop (`--engine loop`: Image(program), not
compiled), each pinning what one handler leaves under the value it works on,
and where the compiled tier and the reference can play them, all three."""
from compiler.pip import frontend
from pipvm.engine.vm import Image
from pipvm.game.game import Game
from tests.fuzz.harness import both

HEAD = 'Game "H" requires 2 players.\n'
SEATS = ['2', 'Ada', 'Ben']


def loop_game(source, seed=1):
    """A game of source on the loop, at its first decision (or its end)."""
    return Game(Image(frontend.compile_text(source)), seed=seed, players=2,
                names=['Ada', 'Ben'])


def said(game):
    return [e.text for e in game.events if e.kind in ('message', 'played')]


def test_an_item_by_place_under_another_value_leaves_that_value_alone():
    # LIST_ITEM replaces its list (stack[-1]), not the stack's bottom (203:4)
    source = HEAD + '''Number k = 2.
Action main {
  let x be 1 + (item k of [7; 8; 9]).
  message "x {x}".
}
'''
    game = loop_game(source)
    assert said(game) == ['x 9'] and game.ending.kind == 'no winner'
    vm, ref = both(source, 1, SEATS)
    assert vm == ref


def test_a_dealing_loop_onto_an_items_own_hand_runs_as_written_deep_in_loops():
    # DEAL_EACH declining (Ben's hand is the pile) puts the iterator back at
    # stack[-1], under two outer loops' iterators (706: not stack[0], [1], [-2])
    source = HEAD + '''Deck deck = standard.
Player who.
Action main {
  deal 3 from deck to players.
  who = players->last.
  for i in [1] {
    for j in [1; 2] {
      for p in players { deal all from p to who. }
      let n be who->hand->size.
      let m be players->first->hand->size.
      message "{i} {j} {n} {m}".
    }
  }
}
'''
    game = loop_game(source)
    assert said(game) == ['1 1 6 0', '1 2 6 0'] and game.ending.kind == 'no winner'
    vm, ref = both(source, 1, SEATS)
    assert vm == ref


def test_a_call_of_no_arguments_leaves_the_callers_values_alone():
    # CALL_WITH and CALL_FOR of `f()` (0 arguments) move none of the caller's
    # stack into the callee's slots: not `if arg[1]` (437 and 452: 0 -> 1, 0 -> -1)
    source = HEAD + '''Number total = 0.
Action bump() {
  total += 1.
}
Action seven() gives Number {
  give 7.
}
Action main {
  for k in [1; 2] {
    bump().
    let u be k + seven().
    message "{k} {u} {total}".
  }
}
'''
    game = loop_game(source)
    assert said(game) == ['1 8 1', '2 9 2'] and game.ending.kind == 'no winner'
    vm, ref = both(source, 1, SEATS)
    assert vm == ref
