"""A fork's copies of a game's values (vm.Machine.fork): every object the
game holds (card, player, team, area, list, a loop's iterator) copied once
into the new game, so what was shared stays shared and nothing is shared
between the two games that either may change."""
import operator

from pipvm.core.runtime import Area, Card, Player, Rank, Suit, Team, Text


class Copier:
    """Deep copies of one game's values into another game with a new deck:
    each object (card, player, team, area, list) is copied once, so what was
    shared stays shared.  Every field of every object is copied (a fork is
    a whole game: tests/test_game.py checks each is copied); players,
    teams and areas are made without their __init__ (object.__new__, then
    each slot: no defaults or factories to run), and so are the cards
    (each field by its name: 123,000 against 139,000 machine instructions
    a deck), an empty dict without a comprehension."""

    def __init__(self, deck):
        self.deck = cards = []
        add = cards.append
        for c in deck:
            # (a statement a field: a tuple of them built and unpacked cost a
            # quarter more, 14.5 against 10.6 us a deck of 52)
            new = _new(Card)
            new.rank = c.rank
            new.suit = c.suit
            new.last_played_by = c.last_played_by
            new.born_rank = c.born_rank
            new.born_suit = c.born_suit
            new.name = c.name
            add(new)
        # each card's copy by the old card itself (a Card hashes and equals
        # as itself): a list of cards copied by one map, in C; every other
        # object's copy by its id (memo)
        self.card = dict(zip(deck, self.deck)).__getitem__
        self.memo = {}
        get = self.memo.get
        # (only the cards played so far, picked in C: a Player is true)
        for card in filter(_PLAYED_BY, self.deck):
            by = card.last_played_by
            card.last_played_by = get(id(by)) or self(by)

    def all(self, values):
        """Copies of values, the commonest (shared, or copied already) without a call."""
        get = self.memo.get
        return [v if v is None or type(v) in _SHARED else get(id(v)) or self(v) for v in values]

    def __call__(self, v):
        kind = type(v)
        if v is None or kind in _SHARED:
            return v
        memo = self.memo
        new = memo.get(id(v))
        if new is not None:
            return new
        if kind is Card:
            return self.card(v)
        if kind is list:
            new = memo[id(v)] = []
            if not v:
                return new
            if type(v[0]) is Card:
                # a hand, pile or area: all cards, each copied already
                try:
                    new += map(self.card, v)
                    return new
                except (KeyError, TypeError):
                    del new[:]          # (not all: as any list)
            new += self.all(v)
        elif kind is Player:
            new = memo[id(v)] = _new(Player)
            new.name, new.score, new.seat = v.name, v.score, v.seat
            new.hand, new.stash, new.team = self(v.hand), self(v.stash), self(v.team)
            own = v.own
            new.own = {k: self(x) for k, x in own.items()} if own else {}
        elif kind is Team:
            new = memo[id(v)] = _new(Team)
            new.score = v.score
            new.members, new.stash = self(v.members), self(v.stash)
            own = v.own
            new.own = {k: self(x) for k, x in own.items()} if own else {}
        elif kind is Area:
            new = memo[id(v)] = _new(Area)
            new.name, new.is_facedown, new.is_squaredup = v.name, v.is_facedown, v.is_squaredup
            new.cards = self(v.cards)
        elif kind is tuple:
            new = tuple(map(self, v))
        elif kind is _LIST_ITERATOR:
            # A loop's iteration state: its own snapshot of the list, and where it is.
            _, (items,), *place = v.__reduce__()
            snapshot = list(items)
            new = iter(self(snapshot))
            del self.memo[id(snapshot)]     # (a temporary: its id may be reused)
            if place:
                new.__setstate__(place[0])
        else:
            raise TypeError('cannot copy %r' % (v,))
        return new


_new = object.__new__
_PLAYED_BY = operator.attrgetter('last_played_by')

_LIST_ITERATOR = type(iter([]))
_SHARED = frozenset({int, str, Text, bool, Rank, Suit})      # values a copy shares
