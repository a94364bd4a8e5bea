"""The belief's budgets and shares, in one place for every part: how many
replays, trades and rounds each search may spend, and how often a walk
proposes each kind of trade (docs/metrics.md, "Beliefs").  A change here
changes which worlds the bots find: tools/pin_beliefs.py tells."""
from pipvm.game.determinize import TRIES
from pipvm.game.kinds import CARD, SETS

PLAYS = (CARD, SETS)    # the decisions that play cards from the player's hand

REPAIRS = 400       # replays to repair one particle when no world is left (a tenth while some are)
FORWARD = 4         # replays to mend a particle a card played face up killed (Repairs.forward)
FORWARD_TRADES = 6  # trades (steps of the game) to mend one where no shuffle came since
LOCAL = 120         # local steps to repair one particle, at most
REPAIRED = 3        # dead particles repaired per decision, at most
FRESH = TRIES       # fresh deals tried when no particle is left, at most (as determinize)
FRESH_SOME = 20     # fresh deals tried while some particles live but fewer than half, at most
FRESH_MISSES = 5    # of those, given up when the first this many all fail
WIDTH = 2           # replayed moves tried per step of a repair, the best kept
TRADES = 30         # trades (steps of the game) per replay in a directed repair
MOVES = 1           # Metropolis steps for a copy of a particle
STILL = 0.5         # share of the last walk's trades between cards still where the deal put them
ZONE = 0.3          # share of a walk's trades moving a card the difference names across its hands
NAMED = 8           # unseen plays a directed repair makes the cards turned over, one by one
CHAIN = 1           # how deep the last walk carries on a trade its replay undid earlier
CHAINED = 4         # replays for each such walk
GATHER = 0.4        # share of the gathering walk's proposals moving a whole rank at once
SHOWN = 8           # chains of Replay.shown (unseen plays made the cards shown), a last resort
SHOWN_DEPTH = 12    # replays a chain goes on without getting further
SHOWN_REPLAYS = 400  # replays of all the chains of one Replay.shown, at most (scaled as repairs)
WINDOW_REPLAYS = 600  # replays of Repairs.window's chain, at most (scaled as repairs)
WINDOW_WALK = 40    # replays of the walk after each of Repairs.window's trades (its last round)
RELABEL = 6         # rounds of Replay.relabel_plays (each a solve and a replay), at most
VOID_ROUNDS = 4     # rounds of Repairs.void (each a player's cards traded away at once), at most
VOID_TRIES = 24     # random draws of the cards traded in, per round of Repairs.void
CYCLED = 4          # Repairs.window's first trades whose Z goes on to a third card's place
