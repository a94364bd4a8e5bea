"""Trades of two cards, in a game and in a deal alike.

trade makes two cards of a machine exchange every value (so a deck index
still means the same card); traded_in makes them exchange places in one
shuffle's order of a deal, the unseen plays of that shuffle's deal of them
following their cards (dealt_by, follow); Swapped does both at once on a
game kept at a decision, so that a walk tries a trade with a step of the
game instead of a replay; named_deals makes an unseen play have been a
given card.  Every function returns new deals and games: the ones given
are never changed."""
from pipvm.game.kinds import CARD, SETS

from . import clues
from .particles import Deal


def named_deals(deal, h, name, also=()):
    """Copies of deal in which the unseen play at h played name, and the
    first play they change: alone; where an earlier unseen play of the
    world played name, with that play's card and h's exchanged (Cheat: the
    card turned over went into a pile earlier in this world; the two plays
    change together, or the player no longer holds it); and with each
    earlier unseen play of also having played name too (the world kept the
    card where the real game laid it into a pile)."""
    one = deal.copy()
    one.plays[h] = name
    out = [(one, h)]
    for h0, label in sorted(deal.plays.items()):
        if label == name and h0 < h and h in deal.plays:
            two = one.copy()
            two.plays[h0] = deal.plays[h]
            out.append((two, h0))
    for h0 in also:
        two = one.copy()
        two.plays[h0] = name
        out.append((two, h0))
    return out


def traded_in(deal, j, x, z, shuffled_at, pinned=()):
    """A copy of deal with cards x and z (deck indexes) trading places in
    shuffle j's order: each takes the other's part from there on, and the
    unseen plays of shuffle j's deal of them (but the pinned ones) follow
    their cards."""
    d = deal.copy()
    order = d.orders[j]
    a, b = order.index(x), order.index(z)
    order[a], order[b] = z, x
    d.plays = follow(d.plays, x, z, dealt_by(deal.orders, j, (x, z), shuffled_at), pinned)
    return d


def dealt_by(orders, j, cards, shuffled_at):
    """The history positions (lo, hi] whose plays laid cards as shuffle j
    dealt them: after shuffle j, up to the next shuffle that deals one of
    cards again (its own order gives them their parts from there; a play
    answers before a shuffle it leads to).  An earlier play laid a card of
    another deal: a trade in shuffle j's order leaves it as it was (Euchre
    shuffles the whole deck every hand)."""
    later = (shuffled_at.get(k) for k in range(j + 1, len(orders))
             if any(c in orders[k] for c in cards))
    return shuffled_at.get(j, -1), min((h for h in later if h is not None), default=None)


def follow(plays, a, b, window, pinned=()):
    """plays with cards a and b (deck indexes) traded at the positions of
    window (lo, hi], but the pinned ones; hi None: no end."""
    lo, hi = window
    x, z = clues.NAMES[a], clues.NAMES[b]
    swap = {x: z, z: x}
    return {k: swap.get(label, label) if lo < k and (hi is None or k <= hi) and k not in pinned
            else label for k, label in plays.items()}


_CARD_FIELDS = ('rank', 'suit', 'last_played_by', 'born_rank', 'born_suit', 'name')


def trade(m, a, b):
    """Cards a and b (deck indexes) of machine m trade places: each object
    takes the other's whole value, and the deck (and the constants naming
    cards) follow, so that index a still means card a."""
    deck = m.deck
    x, y = deck[a], deck[b]
    for field in _CARD_FIELDS:
        u, v = getattr(x, field), getattr(y, field)
        setattr(x, field, v)
        setattr(y, field, u)
    deck[a], deck[b] = y, x          # (the caller then resolves m.consts anew)


class Swapped:
    """A game at a particle's last matched decision with some never-seen
    cards traded, and the particle's deal with the same cards traded in
    shuffle j's order (later shuffles are dealt anew)."""

    def __init__(self, deal, j, game, shuffled_at, moved=frozenset(), orders=None):
        self.deal = Deal(deal.orders[:j + 1], deal.drawn[:j + 1], deal.plays)
        self.j, self.game, self.shuffled_at = j, game, shuffled_at
        self.moved = moved      # the cards traded so far
        self.orders = deal.orders if orders is None else orders    # the particle's, every shuffle

    def then(self, pairs, plays=None, fork=True):
        """The game with pairs of cards traded, and with plays (position ->
        card name) as the cards those unseen plays played.  fork=False: the
        trades are made in this one's game itself, which the caller no
        longer needs (it is as a fork of it would be: never played on)."""
        deal = self.deal.copy()
        order = deal.orders[self.j]
        g = self.game.fork() if fork else self.game
        m = g.machine
        for a, b in pairs:
            x, y = order.index(a), order.index(b)
            order[x], order[y] = b, a
            trade(m, a, b)
            window = dealt_by(self.orders, self.j, (a, b), self.shuffled_at)
            deal.plays = follow(deal.plays, a, b, window)
        deal.plays.update(plays or {})
        m.consts = m.image.consts_for(m.deck)
        if g.decision is not None and g.decision.kind == CARD:
            g.decision = g.decision._replace(options=tuple(c.name for c in m.pending.cards))
        elif g.decision is not None and g.decision.kind == SETS:
            m.pending = m.pending.relabelled()
            g.decision = g.decision._replace(options=tuple(m.pending.labels))
        return Swapped(deal, self.j, g, self.shuffled_at, self.moved.union(*pairs), self.orders)
