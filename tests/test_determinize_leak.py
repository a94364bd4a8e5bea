"""A bug found by the mutation testing of pipvm/game/determinize.py (not in
any SUITE of tools/mutation_plan.py, so that it fails alone): Blind masks
only the first mention of a card in an ask's label (lines 140 and 149,
label.replace(card.name, '\\0', 1)), so a label that names its card twice
still names it, and every sample of a seat that does not see it answers
the real card: the seat learns it."""
import random

from compiler.codegen import generator as codegen
from compiler.pip import frontend
from pipvm.game.determinize import determinize
from pipvm.game.game import Game

TWICE = '''Game "Twice" requires 2 players.
Deck stock = [A~S; 2~S; 3~S; 4~S; 5~S; 6~S].
Area pile labeled "pile" is facedown.
Action main {
  shuffle stock.
  deal 2 from stock to players.
  let p be players->first.
  ask p {
    for c in p->hand "Hide {c}, the {c}" { deal c from p->hand to pile. }
    "Pass" { message "passed". }
  }
  ask players->last { "Done" { message "done". } }
}
'''


def test_a_card_named_twice_in_a_blind_ask_stays_hidden():
    # Ada hides a card face down; Bob's worlds must put any card he does not see there
    game = Game(codegen.generate(frontend.check_text(TWICE)), seed=1, players=2,
                names=['Ada', 'Bob'])
    assert game.decision.seat == 0 and game.decision.options[1] == \
        'Hide Six of Spades, the Six of Spades'
    game.answer(1)
    assert game.decision.seat == 1 and 'Six' not in str(game.view(1))
    unseen = {str(c) for c in game.players[0].hand} | {str(c) for c in game.machine.globals[0]}
    unseen.add('Six of Spades')
    put = set()
    for i in range(20):
        (card,) = determinize(game, 1, random.Random(i)).machine.globals[1].cards
        put.add(str(card))
    assert put == unseen and len(unseen) == 4, put       # fails: always {'Six of Spades'}
