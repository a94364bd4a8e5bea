"""The kinds of decision a game waits for (game.Decision.kind): the set-up's
own, and the machine's (a card to play, a question of an `ask`)."""
from pipvm.engine.vm import ACTION, CARD, SETS

COUNT, NAME = 'count', 'name'
KINDS = (COUNT, NAME, CARD, ACTION, SETS)
