"""What the instructions' bodies (pipvm/isa/instructions.py) use at run
time: the signals a handler returns, the loop's markers, and the operations
too long for a body line, called from it (each written once).
pipvm/engine/cases.py writes the VM's code from the bodies
(docs/pipc.md: "Where each operation's meaning is written").
"""
import enum
import operator
import sys
from itertools import compress

from pipvm.core import runtime
from pipvm.core.errors import Fault, PipError, StepLimit
from pipvm.core.runtime import Area, Player, Rank, as_rank, items


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


# What such an operation raises (the loop and the compiled tier's functions
# turn each into an InvalidProgram)
INVALID = (TypeError, AttributeError, IndexError, KeyError, ValueError)


# Operations too long for a body line, called from it (each written once).
def fault(message, part):
    """`raise Fault(message, part)` as an expression: a closure's one-line
    form of a body that raises when a value is None (cases._checked)."""
    raise Fault(message, part)


def contains(lst, x):
    """`x in lst`: a Rank, Number or Suit also matches a card that has it.
    (A loop for each kind of x: Go Fish asks `A in hand` for 13 ranks at
    every turn.)"""
    kind = type(x)
    Card = runtime.Card
    if kind is runtime.Rank:
        Rank = runtime.Rank
        for item in lst:
            if type(item) is Card:
                rank = item.rank
                if (rank if type(rank) is Rank else as_rank(rank)) == x:
                    return True
            elif item == x:
                return True
        return False
    if kind is int:
        for item in lst:
            if (item.rank if type(item) is Card else item) == x:
                return True
        return False
    if kind is runtime.Suit:
        return suit_in(lst, x)
    return any(item is x or item == x for item in lst)


# `x in lst` for a Suit x, the one text of it: contains' (suit_in, made
# from it here) and the compiled tier's, written where IN stands (no call:
# Oh Hell's `led in p->hand`, rewrites.inlined)
SUIT_IN = """{res} = False
for item_ in {lst}:
    if (item_.suit is {x}) if type(item_) is Card else item_ == {x}:
        {res} = True
        break"""


def _suit_in():
    space = {'Card': runtime.Card}
    exec(compile('def suit_in(lst, x):\n%s\n    return res' % '\n'.join(
        '    ' + line for line in SUIT_IN.format(res='res', lst='lst', x='x').split('\n')),
        '<pipvm bodies.SUIT_IN>', 'exec'), space)
    return space['suit_in']


suit_in = _suit_in()


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
    # (a card's rank is a Rank unless a Number was stored in it: as_rank
    # then, which fails where it would; a Rank is its own as_rank, found
    # in a set as in the list, by its number)
    ranks = {as_rank(r) for r in items(ranks)}
    found = list(map(_RANK, deck))
    if found == _DEALT:
        # (every card's rank its place's in deck order, as new_deck made
        # them, or a Number equal to it, which as_rank makes that rank:
        # the cards are those at the places of the ranks, picked in C by
        # a getter kept for the set; Euchre's `9..K,A~%` at every hand,
        # 2.5 against 4.9 us)
        key = frozenset(ranks)
        pick = _PICKS.get(key)
        if pick is None:
            places = [i for i, r in enumerate(_DEALT) if r in key]
            pick = _PICKS[key] = (operator.itemgetter(*places) if len(places) > 1 else
                                  lambda deck: [deck[i] for i in places])   # (not one card)
        return list(pick(deck))
    if _RANKS_ONLY >= set(map(type, found)):
        # (every card's rank a Rank, the commonest: the tests in C, no Python loop)
        return list(compress(deck, map(ranks.__contains__, found)))
    return [c for c in deck if ((r in ranks) if type(r := c.rank) is Rank else
                                (as_rank(r) in ranks))]


_RANK = operator.attrgetter('rank')
_DEALT = [runtime.RANKS[i % 13 + 1] for i in range(52)]    # each place's rank in deck order
_PICKS = {}             # a set of ranks -> its cards picked by their places in deck order
_RANKS_ONLY = frozenset({Rank})


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
    if type(card) is runtime.Card:
        # (a Card equals only itself: index finds it where `is` does, in C)
        try:
            i = source.index(card)
        except ValueError:
            raise Fault(missing) from None
        del source[i]
        dest.insert(0, card)
        return
    for i, c in enumerate(source):
        if c is card:
            del source[i]
            dest.insert(0, card)
            return
    raise Fault(missing)


def deal(source, dests, count):
    """DEAL: count cards to each of dests (all of source's when count is
    None), from the front of source, round-robin (DEAL to one hand or
    area is its body's own text, instructions.DEAL_TO)."""
    k = len(dests)
    if not k:
        return              # (nobody to deal to: the reference divides by zero)
    n = len(source) if count is None else count * k
    ids = set(map(id, dests))           # (one pass in C: any(d is source ...) was not)
    ids.add(id(source))
    if len(ids) <= k:
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
    if n > len(source):
        n = len(source)
    elif n < 0:
        n = 0                           # a negative count deals nothing
    plan = _DEALS.get((n, k))
    if plan is None:
        if len(_DEALS) > 4096:
            _DEALS.clear()
        plan = _DEALS[n, k] = [(j, slice(last, None, -k)) for j, last in _deal_plan(n, k)]
    for j, taken in plan:
        dests[j][_FRONT] = source[taken]
    del source[:n]


# (cards dealt, hands) -> _deal_plan, each hand's cards as a slice object
# made once (a deal of 13 to 4 hands 1.2 thousand machine instructions
# fewer than its slices built at each deal: a twentieth)
_DEALS = {}
_FRONT = slice(0, 0)    # (a list's front: `hand[_FRONT] = cards` puts them on top)


def deal_each(items, prop, dest, machine):
    """DEAL_EACH's rounds at once: `for p in items { deal all from p to
    DEST. }` (prop None) or `... from p->PROP ...`.  The hands dealt in
    turn, each reversed onto DEST's top (instructions.DEAL_TO), are their
    concatenation reversed onto it once (deal.pip: 8 DEALs a round).  Only where every
    round would deal (each source a card list, Player or Area, DEST's
    cards none of them) and the step limit falls past the loop (its
    rounds' steps taken here); False where not: nothing done, the loop
    runs as written (its faults, its last step)."""
    try:            # (the pile's by runtime.cards_of itself: one call a loop)
        cards = runtime.cards_of(dest)
    except Fault:
        return False
    if machine.steps_left < len(items):
        return False
    sources = []
    for value in items:
        if prop is not None:
            value = getattr(value, prop, None)
        # (its card list as runtime.cards_of finds it, None where that
        # would fail: written out, no call a round)
        kind = type(value)
        source = (value if kind is list else value.hand if kind is Player
                  else value.cards if kind is Area else None)
        if source is None or source is cards:
            return False
        sources.append(source)
    moved = []
    for source in sources:
        moved += source
        del source[:]           # (the same list: a hand is held by identity)
    # (DEAL_TO for moved, all of it: reversed onto the pile's top)
    cards[_FRONT] = moved[::-1]
    machine.steps_left -= len(items)
    return True


def _deal_plan(n, k):
    """[(a hand's index, the place of the last card it gets)] of a deal of
    n cards to k hands (each a slice from there back, every k-th card:
    worked out once per size, not at every deal)."""
    plan = []
    for j in range(k):
        # The cards i = j - 1, j - 1 + k, ... below n (so the first card goes
        # to the second player), each put on top of the last: in reverse,
        # from the last of them (one slice, not a copy and two slices)
        first = (j - 1) % k
        if first < n:
            plan.append((j, n - 1 - (n - 1 - first) % k))
    return plan


def questions_enabled(flat, n):
    """ASK's enabled questions, their places and their texts, from its n
    (text, enabled) pairs (by compress, in C: two comprehensions were
    two Python calls at every ASK)."""
    flags = flat[1:2 * n:2]
    return list(compress(range(n), flags)), list(compress(flat[:2 * n:2], flags))


def addressees(to):
    """The players a MESSAGE goes to: a player, a team's members, or a list."""
    if type(to) is runtime.Player:
        return [to]
    if type(to) is runtime.Team:
        return list(to.members)
    return list(to)


# The most bits of a Number str() always shows (Python's digit limit, 4,300
# by default): joining a longer one fails, so a quiet check shows it.
SHOWN_BITS = (10 ** sys.get_int_max_str_digits()).bit_length() - 1 \
    if sys.get_int_max_str_digits() else float('inf')


def quiet_rounds(machine, frame, loop, rest):
    """Run the rounds of a loop that only shows messages (QUIET_LOOP,
    QUIET_FOR) over the items rest, if none can fail; False if one could
    (the loud code runs them).  loop is (its variable's slot, the other
    locals its messages need, whether they need the variable, checks for
    the rest, whether those only show locals' values, where the loop ends)."""
    slot, slots, of_item, checks, locals_only, end = loop
    if not rest:        # (no round: nothing it shows is read, as in the loud loop)
        return True
    if len(rest) > machine.steps_left:      # the loop would stop at its step limit
        return False
    for s in slots:
        # body: DEFINED_LOCAL frame=frame slot=s res=defined
        defined = frame[s] is not None
        # end of body
        if not defined:
            return False
    if of_item and None in rest:
        return False
    if checks:
        env = frame + [machine]
        checked = rest
        if locals_only:
            # only locals' values shown: an item fails only if it is a Number too
            # long to show; else every round checks the same as the first
            # (`int in map(type, ...)` first: a loop over cards has none, in C)
            if int in map(type, rest) and any(
                    type(v) is int and v.bit_length() > SHOWN_BITS for v in rest):
                return False
            checked = rest[:1]
        try:
            for item in checked:
                env[slot] = item
                for check in checks:
                    check(env)
        except Exception:
            return False
    frame[slot] = rest[-1]
    # a step for each round, as JUMP counts (inline: it runs at every quiet loop)
    # body: TICK machine=machine n=len(rest)
    machine.steps_left -= len(rest)
    if machine.steps_left < 0:
        raise StepLimit(machine.max_steps)
    # end of body
    return True
