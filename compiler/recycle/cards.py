"""RECYCLE's cards as the VM's: each card a deck creates must be one of the
52 of a standard deck, named by its RANK and SUIT; its other keys (COLOR...)
are facts about those cards, looked up in tables made here.

The VM holds one of each of the 52 cards (pipvm/core/runtime.py), so a game
may create each at most once, and a card's attributes are fixed: exactly
what RECYCLE's cards are, since no action changes a card.
"""
from compiler.ir import checked as c
from compiler.ir import types as T

from ..errors import PipError

RANKS = {name: n for n, name in enumerate(
    ('ACE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE', 'TEN',
     'JACK', 'QUEEN', 'KING'), 1)}
SUITS = {'CLUBS': 'C', 'HEARTS': 'H', 'SPADES': 'S', 'DIAMONDS': 'D'}
NATIVE = {'RANK': ('rank', T.RANK), 'SUIT': ('suit', T.SUIT)}


class Cards:
    """The cards the game's decks create, and each key's values."""

    def __init__(self):
        self.made = {}             # (rank, suit letter) -> {KEY: VALUE}
        self.order = []            # (rank, suit letter) in creation order, per deck

    def add_deck(self, deck):
        """The deck's cards as (rank, suit letter), in the order written."""
        out = []
        for attrs in deck.cards:
            rank, suit = attrs.get('RANK'), attrs.get('SUIT')
            if rank not in RANKS or suit not in SUITS:
                raise PipError(deck.pos, 'Each card needs a RANK (ACE, TWO, ... KING) and a SUIT '
                               '(CLUBS, HEARTS, SPADES, DIAMONDS): the VM plays with the 52 cards '
                               'of a standard deck; found %s' % _show(attrs))
            key = (RANKS[rank], SUITS[suit])
            if key in self.made:
                raise PipError(deck.pos, 'This deck makes the %s of %s a second time: a game has '
                               'one of each of the 52 cards' % (rank.title(), suit.title()))
            self.made[key] = attrs
            out.append(key)
        return out

    def keys(self):
        return {k for attrs in self.made.values() for k in attrs}

    def values(self, key):
        return sorted({attrs[key] for attrs in self.made.values() if key in attrs})

    def with_value(self, key, value):
        """The cards whose key has value, in deck order."""
        return sorted(k for k, attrs in self.made.items() if attrs.get(key) == value)


def card_expr(key, pos):
    rank, suit = key
    return c.CardExpr(c.Literal(rank, T.RANK, pos), c.Literal(suit, T.SUIT, pos), T.CARD, pos)


def card_list(keys, pos):
    return c.ListLit([card_expr(k, pos) for k in keys], T.CARDS, pos)


def _show(attrs):
    return '(%s)' % ', '.join('%s %s' % kv for kv in attrs.items())
