"""Quick tests that kill what the rest of determinize.py's SUITE leaves alive
(tools/mutation-results/determinize.tsv)."""
import random

from compiler.recycle import frontend
from pipvm.game.determinize import Blind, determinize, real_trace
from pipvm.game.game import Game
from pipvm.isa import pipc

# Ada puts a card of the face-down stock aside: the ask's labels name cards
# neither seat sees, and she is the one who chose it
OWN = """;; Own
(game
 (setup
  (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (ACE, TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 1 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (> (game sto TURNS) 1))
        (do ((inc (game sto TURNS) 1)
             (choice ((any (game iloc STOCK) 'C
                           (move 'C (bottom ((current player) hloc SECRET)))))))))
 (scoring max ((current player) sto SCORE)))
"""


def recycle_game(text, seed):
    """A two-seat game of RECYCLE text, through a .pipc (as `pipvm run` loads one)."""
    program = pipc.load(pipc.dump(frontend.compile_text(text)), 'game.recycle')
    return Game(program, seed=seed, players=2, names=['Ada', 'Ben'])


def own_game():
    game = recycle_game(OWN, 3)
    assert game.decision.seat == 0 and game.decision.kind == 'action'
    game.answer(1)
    return game


def test_blinds_differ_by_seat_and_by_what_they_mask():
    # Blind.__eq__ compares the seat and the masked labels, not only the type
    assert Blind(0) == Blind(0) and Blind(0) != Blind(1) and Blind(0) != object()
    a, b = Blind(0), Blind(0)
    a.masked[3] = '\0 (move to Secret)'
    assert a != b


def test_only_another_seats_ask_is_answered_blind():
    # Blind.note skips the seat's own asks: Ada knows the card she chose, Ben does not
    game = own_game()
    assert real_trace(game, 0)[4].at == frozenset()
    ben = real_trace(game, 1)[4]
    assert ben.at == frozenset({0}) and ben.masked == {0: '\0 (move to Secret)'}


# Ada puts a card of her hand face down: Ben sees neither her hand nor the card
HAND = OWN.replace("repeat 1", "repeat 3").replace("(game iloc STOCK) 'C", "((current player) iloc HAND) 'C")


def test_another_seats_blind_ask_is_answered_alike_at_random():
    # Blind.answer and _answer_all's blind case: Ben's worlds put aside each card he does not see
    game = recycle_game(HAND, 3)
    game.answer(1)
    ada, ben = game.machine.seated
    unseen = {c.name for c in ada.hand + ada.stash}
    put = set()
    for i in range(20):
        w_ada, w_ben = determinize(game, 1, random.Random(i)).machine.seated
        assert [c.name for c in w_ben.hand] == [c.name for c in ben.hand]
        assert {c.name for c in w_ada.hand + w_ada.stash} == unseen and len(w_ada.stash) == 1
        put.add(w_ada.stash[0].name)
    assert put == unseen and len(unseen) == 3


# Ada puts a card of her hand face down or passes: only the first is alike to what she did
PASS = HAND.replace("SECRET)))))))))", "SECRET))))\n                      (turn pass))))))")


def test_a_blind_answer_is_only_an_option_alike_to_the_real_one():
    # Blind.answer keeps only options naming an unseen card whose masked label is the real one's
    game = recycle_game(PASS, 3)
    assert game.decision.options[-1] == 'pass'
    game.answer(1)
    blind = real_trace(game, 1)[4]
    for i in range(12):
        world = determinize(game, 1, random.Random(i), tries=1)
        label = world.history[0][1]
        assert label.endswith(' (move to Secret)') and blind.masked[0] == '\0 (move to Secret)'


# Ada may put aside only a heart (or pass): some worlds deal her none, so no option is alike
HEARTS = PASS.replace("(RANK (ACE, TWO, THREE))", "(RANK (ACE, TWO, THREE, FOUR))").replace(
    "((current player) iloc HAND) 'C",
    "(filter ((current player) iloc HAND) 'X (== (cardatt SUIT 'X) HEARTS)) 'C")


def test_a_world_with_no_alike_option_is_refused():
    # _answer_all refuses a sample where Blind.answer finds no option alike (not a half-replayed world)
    game = recycle_game(HEARTS, 1)
    assert game.decision.options == ('Two of Hearts (move to Secret)', 'pass')
    game.answer(0)
    for i in range(40):
        world = determinize(game, 1, random.Random(i))
        assert len(world.history) == len(game.history)
        assert world.history[0][1].endswith(' (move to Secret)')


def test_a_game_with_nothing_hidden_is_its_own_world_without_a_try():
    # determinize's shortcut: no shuffle and no blind or unseen play -> a fork, whatever tries is
    game = recycle_game(OWN.replace("(shuffle (game iloc STOCK))", ""), 3)
    assert not game.machine.shuffles
    world = determinize(game, 1, random.Random(0), tries=0)
    assert world is not game and world.decision.options == game.decision.options
