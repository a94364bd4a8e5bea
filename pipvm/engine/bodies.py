"""What the instructions' bodies (pipvm/isa/instructions.py) use at run
time: the signals a handler returns, the loop's markers, and the operations
too long for a body line, called from it (each written once).
pipvm/engine/cases.py writes the VM's code from the bodies
(docs/pipc.md: "Where each operation's meaning is written").
"""
import enum

from pipvm.core import runtime
from pipvm.core.errors import Fault, PipError
from pipvm.core.runtime import as_rank, items


class Signal(enum.IntEnum):
    """What a handler returns besides a jump target: stop at a decision
    (PAUSE), run the frame CALL pushed (CALLED), run this instruction's
    ordinary code (LOUD: a quiet instruction can't).  Named members, compared
    by identity; negative only so that the loop's one test for a jump,
    `target >= 0`, leaves them out (`type(target) is int` cost 25-30 ns
    more at each jump a handler returns: docs/pipc.md)."""
    PAUSE = -1
    CALLED = -2
    LOUD = -3


PAUSE, CALLED, LOUD = Signal
PAUSED = object()           # what the loop returns at a decision
END = object()              # FOR_NEXT's end of the items


class InvalidProgram(PipError):
    """A validated file still made an operation fail (values of the wrong kind)."""


# Operations too long for a body line, called from it (each written once).
def fault(message, part):
    """`raise Fault(message, part)` as an expression: a closure's one-line
    form of a body that raises when a value is None (cases._checked)."""
    raise Fault(message, part)


def contains(lst, x):
    """`x in lst`: a Rank, Number or Suit also matches a card that has it."""
    kind = type(x)
    if kind is runtime.Rank or kind is int or kind is runtime.Suit:
        for item in lst:
            if type(item) is runtime.Card:
                if kind is runtime.Suit:
                    hit = item.suit is x
                elif kind is runtime.Rank:
                    hit = as_rank(item.rank) == x
                else:
                    hit = item.rank == x
            else:
                hit = item == x
            if hit:
                return True
        return False
    return any(item is x or item == x for item in lst)


def build_list(values):
    """A list literal: its items, a list among them spliced in."""
    res = []
    for v in values:
        if type(v) is list:
            res += v
        else:
            res.append(v)
    return res


def card_of(deck, rank, suit):
    """The card rank~suit.  A call, so that a closure evaluates the suit's
    expression before it checks the rank, as the loop does (both are on
    its stack first): an undefined suit is the error, not a bad rank."""
    return deck[runtime.card_index(as_rank(rank), suit)]


def make_cards(deck, ranks, suits):
    suits = items(suits)
    return [deck[runtime.card_index(as_rank(r), s)] for r in items(ranks) for s in suits]


def wild_rank(deck, suits):
    suits = items(suits)
    return [c for c in deck if c.suit in suits]


def wild_suit(deck, ranks):
    ranks = [as_rank(r) for r in items(ranks)]
    return [c for c in deck if as_rank(c.rank) in ranks]
