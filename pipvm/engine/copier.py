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
    a deck), an empty dict without a comprehension.

    The copy of each card, player, team and area is found by the object
    itself (each hashes and equals as itself: no id made), of each list by
    its id (the original is alive as long as the copier: the id is its
    own).  The cards, and the players and teams the game was given
    (`players`, `teams`: a fork's seated players and its teams), are made
    before any field is copied, so that a reference to one is found
    without a call and a list of them (a hand, the players, a team's
    members) is copied by one map, in C; an object not given is copied
    where it is met, as the rest.  (A hand-made program may store any
    value in any field: the verifier checks no kinds.)"""

    def __init__(self, deck, players=(), teams=None):
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
        self.objs = objs = dict(zip(deck, cards))
        self.lists = {}
        self.copied = objs.__getitem__
        teams = teams or ()
        made = [_new(Player) for _ in players], [_new(Team) for _ in teams]
        objs.update(zip(players, made[0]))
        objs.update(zip(teams, made[1]))
        for old, new in zip(players, made[0]):
            self._player(old, new)
        for old, new in zip(teams, made[1]):
            self._team(old, new)
        get = objs.get
        # (only the cards played so far, picked in C: a Player is true)
        for card in filter(_PLAYED_BY, cards):
            by = card.last_played_by
            card.last_played_by = (get(by) or self(by)) if type(by) is Player else self(by)

    def all(self, values):
        """Copies of values, the commonest (shared, or copied already) without a call."""
        get = self.objs.get
        return [v if type(v) in _SHARED else self(v) if type(v) in _UNHASHED else get(v) or self(v)
                for v in values]

    def items(self, v):
        """A new list of the copies of the items of list v."""
        try:
            # (all copied already, as a hand's cards or a list of players are)
            return list(map(self.copied, v))
        except (KeyError, TypeError):
            return self.all(v)

    def of_list(self, v):
        """The copy of list v (one a list)."""
        lists = self.lists
        new = lists.get(id(v))
        if new is None:
            try:
                # (all copied already: none is the list itself)
                new = lists[id(v)] = list(map(self.copied, v))
            except (KeyError, TypeError):
                new = lists[id(v)] = []     # (before its items: one may be the list itself)
                new += self.all(v)
        return new

    def __call__(self, v):
        kind = type(v)
        if kind is list:
            return self.of_list(v)
        if kind in _SHARED:
            return v
        objs = self.objs
        if kind is tuple:
            return tuple(map(self, v))
        new = objs.get(v)
        if new is not None:
            return new
        if kind is Player:
            new = objs[v] = _new(Player)
            self._player(v, new)
        elif kind is Team:
            new = objs[v] = _new(Team)
            self._team(v, new)
        elif kind is Area:
            new = objs[v] = _new(Area)
            new.name, new.is_facedown, new.is_squaredup = v.name, v.is_facedown, v.is_squaredup
            new.cards = self(v.cards)
        elif kind is _LIST_ITERATOR:
            # A loop's iteration state: its own snapshot of the list, and where it is.
            _, (items,), *place = v.__reduce__()
            new = iter(self.items(items))
            if place:
                new.__setstate__(place[0])
        else:
            raise TypeError('cannot copy %r' % (v,))
        return new

    def _player(self, v, new):
        new.name, new.score, new.seat = v.name, v.score, v.seat
        hand, stash, team = v.hand, v.stash, v.team
        new.hand = self.of_list(hand) if type(hand) is list else self(hand)
        new.stash = self.of_list(stash) if type(stash) is list else self(stash)
        new.team = (team if team is None else
                    (self.objs.get(team) or self(team)) if type(team) is Team else self(team))
        own = v.own
        new.own = {k: self(x) for k, x in own.items()} if own else {}

    def _team(self, v, new):
        new.score = v.score
        new.members, new.stash = self(v.members), self(v.stash)
        own = v.own
        new.own = {k: self(x) for k, x in own.items()} if own else {}


_new = object.__new__
_PLAYED_BY = operator.attrgetter('last_played_by')

_LIST_ITERATOR = type(iter([]))
# values a copy shares (undefined, and the immutable kinds)
_SHARED = frozenset({type(None), int, str, Text, bool, Rank, Suit})
_UNHASHED = frozenset({list, tuple})      # (a tuple may hold a list)
