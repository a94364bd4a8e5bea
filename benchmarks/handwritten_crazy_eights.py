"""The original's Crazy Eights (tests/data/full/crazy_eights.pip) written
by hand in plain Python, with random players: the yardstick for the VM.

It follows the Pip program step by step: deal 7 each, the rest to the draw
pile, its top card to the discard pile.  On a turn the player plays a card
matching the discard's rank or suit, or any 8, choosing among all such
cards; with none, the only action offered is "Draw" (one card, or none if
the pile is empty), and when that empties the draw pile the discard pile
but its top is shuffled in; then the same player looks again.  Whoever
empties their hand wins.

Every choice the Pip program offers (a card to play; the one-option "Draw")
counts as a decision, as `pipvm sim` counts them.  A random player picks
uniformly among the options, so the order of cards in a hand does not
change the statistics; lists keep their top at the end here, the cheap end
in Python.  It plays from Python's `random`, not Pip's generator, so only
the distributions agree with `pipvm sim`, not single games.
"""
import random

DECK = [(rank, suit) for suit in 'CHSD' for rank in range(1, 14)]    # ace = 1
HAND = 7
MAX_DECISIONS = 100_000        # a game no one can end (all but one card held) stops here


def play(rng, players=2):
    """One game: (winning seat or None, decisions, options offered)."""
    deck = DECK[:]
    rng.shuffle(deck)
    hands = [deck[i::players] for i in range(players)]
    draw_pile = deck[HAND * players:]
    for hand in hands:
        del hand[HAND:]
    discard = [draw_pile.pop()]
    decisions = options = 0
    seat = 0
    while decisions < MAX_DECISIONS:
        hand = hands[seat]
        while True:
            rank, suit = discard[-1]
            playable = [c for c in hand if c[0] == rank or c[1] == suit or c[0] == 8]
            decisions += 1
            if playable:
                options += len(playable)
                card = playable[rng.randrange(len(playable))]
                hand.remove(card)
                discard.append(card)
                break
            options += 1                    # "Draw", the only action offered
            if draw_pile:
                hand.append(draw_pile.pop())
            if not draw_pile:
                draw_pile, discard = discard[:-1], discard[-1:]
                rng.shuffle(draw_pile)
            if decisions >= MAX_DECISIONS:
                return None, decisions, options
        if not hand:
            return seat, decisions, options
        seat = (seat + 1) % players
    return None, decisions, options


def simulate(games, seed=1, players=2):
    """[(winning seat or None, decisions, options)] of games games, game i
    played with random.Random(seed + i)."""
    return [play(random.Random(seed + i), players) for i in range(games)]
