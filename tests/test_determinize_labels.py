"""A determinization replays the real game's answers: when two options read
alike (two questions with the same text), it must give the very option that
was chosen, not the first with that label.  Found by the fuzzer
(test_a_determinization_keeps_what_its_seat_observed, issue 16's generator)."""
import random

from compiler import frontend
from pipvm.game import Game
from pipvm.rng import OCamlRandom

from .fuzz import harness

SOURCE = '''Game "Twins" requires 2 players.
Deck stock = standard.
Number n = 0.
Action main {
  shuffle stock.
  deal 2 from stock to players.
  forever {
    ask players->first {
      "same" { message "first". n += 1. }
      "same" { message "second". }
      "other" { message "third". }
    }
    if n >= 1 { skip to done. }
  }
  label done.
}
'''


def test_a_determinization_gives_the_chosen_one_of_two_options_alike():
    game = Game(harness.compile_checked(frontend.check_text(SOURCE)), rng=OCamlRandom(1))
    while game.decision.kind != 'action':      # the player count, the names
        game.answer('P%d' % len(game.history) if game.decision.kind == 'name' else 0)
    game.answer(1)                             # the second "same": the game goes on
    assert game.decision is not None
    sample = game.determinize(0, random.Random(1), tries=20)
    assert sample.view(0) == game.view(0)
    assert sample.history == game.history
