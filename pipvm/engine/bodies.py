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


# A frame, one action call, is a list [code, pc, operand stack, local
# slots]: the code it runs (a vm.Loaded), where it goes on (written back
# only at a call or a decision), its stack and its locals, read by these
# names.  A list, not a record: the loop makes one at every CALL and
# unpacks one at every call and return, which CPython does fastest for an
# exact list (a slotted class took about twice as long to make and three
# times as long to read, and random playouts 2-4% longer).
CODE, PC, STACK, LOCALS = range(4)


def new_frame(loaded):
    """The frame of a call of loaded, at its start."""
    return [loaded, 0, [], [None] * loaded.frame_size]


def move(card, source, dest, missing):
    """Move a card from anywhere in source to the front of dest."""
    for i, c in enumerate(source):
        if c is card:
            del source[i]
            dest.insert(0, card)
            return
    raise Fault(missing)


def deal(source, dests, count):
    """DEAL: count cards to each of dests (all of source's when count is
    None), from the front of source, round-robin."""
    if not dests:
        return              # nobody to deal to (the reference divides by zero)
    k = len(dests)
    n = len(source) if count is None else count * k
    if k == 1 and dests[0] is not source:
        # (the commonest: to one hand or area, e.g. a trick to its winner's
        # pile; what the general case below does for k = 1)
        n = max(0, min(n, len(source)))
        dealt = source[:n]
        del source[:n]
        dests[0][:0] = dealt[::-1]
        return
    if (dests[0] is source if k == 1 else
            any(d is source for d in dests) or len(set(map(id, dests))) < k):
        # A hand that is also the source, or is dealt to twice (a player
        # listed twice): card i (from 1) to the top of dests[i mod k], one
        # at a time, exactly as the reference does.
        if all(d is source for d in dests):
            return          # each card would go back on top of where it was
        # Now every k steps move a card out of source: n may be huge, the
        # loop still ends soon.
        for i in range(1, n + 1):
            if not source:
                break       # the reference crashes; we deal what there is
            dests[i % k].insert(0, source.pop(0))
        return
    n = max(0, min(n, len(source)))      # a negative count deals nothing
    dealt = source[:n]
    del source[:n]
    for j, hand in enumerate(dests):
        # The cards i = j, j+k, ... (so the first card goes to the second
        # player), each put on top of the last: in reverse.
        hand[:0] = dealt[(j - 1) % k::k][::-1]


def addressees(to):
    """The players a MESSAGE goes to: a player, a team's members, or a list."""
    if type(to) is runtime.Player:
        return [to]
    if type(to) is runtime.Team:
        return list(to.members)
    return list(to)
