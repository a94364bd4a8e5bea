"""The run-time object model: values, the 52 cards, players, teams, areas.

Value representation (chosen so Python's `==` is Pip's `==`):
  Number   int                       Boolean  bool
  String   str                       Rank     Rank (an int subclass: K == 13)
  Suit     one of the four SUITS     Card, Player, Team, Area: objects below,
  lists    Python lists (mutable, shared by reference, as in Pip)
  undefined  None
Objects compare by identity, lists element-wise, a Rank equal to its Number;
a well-typed program never compares a Boolean with a Number.
"""
import itertools

from pipvm.core import plain
from pipvm.core.errors import Fault


class Rank(int):
    """A Rank value.  It is its number (A=1 .. K=13) in arithmetic and
    comparisons, but prints as its name: a value keeps its own kind."""
    __slots__ = ()

    def __repr__(self):
        return RANK_NAMES[self]

    # Each rank is one object, RANKS[n], also through pickle and copy: the
    # compiled rules compare ranks by identity (rules._Writer.ranks)
    def __reduce__(self):
        return _rank, (int(self),)


def _rank(n):
    return RANKS[n]


RANK_NAMES = (None, 'Ace', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven',
              'Eight', 'Nine', 'Ten', 'Jack', 'Queen', 'King')
RANKS = (None,) + tuple(Rank(n) for n in range(1, 14))    # RANKS[n] is rank n


def as_rank(value):
    """A Rank or Number used as a Rank (the reference's num_rank)."""
    if type(value) is Rank:
        return value
    if 1 <= value <= 13:
        return RANKS[value]
    raise Fault("The value %d can't be a Rank" % value)


@plain.define(slots=True, eq=False, repr=False)
class Suit:
    index: int                 # place in deck order
    letter: str
    name: str

    def __repr__(self):
        return self.name


SUITS = tuple(Suit(i, letter, name) for i, (letter, name) in
              enumerate((('C', 'Clubs'), ('H', 'Hearts'), ('S', 'Spades'), ('D', 'Diamonds'))))
SUIT_BY_LETTER = {s.letter: s for s in SUITS}
# A card's name by its place in deck order (see card_index), plus one: it is
# shown at every message and decision.
CARD_NAMES = (None,) + tuple('%s of %s' % (RANK_NAMES[r], s.name) for s in SUITS
                             for r in range(1, 14))


@plain.define(slots=True, eq=False)
class Card:
    rank: object               # assignable: may become any Number
    suit: object
    last_played_by: object = None
    # What the card was created as: its name never changes, and `J~C`
    # always means this card (see card_index).
    born_rank: Rank = None
    born_suit: Suit = None
    name: str = None           # its name, from born_rank and born_suit (kept: decisions show it)

    def __str__(self):
        return self.name


@plain.define(slots=True, eq=False)
class Player:
    name: str
    hand: list = plain.Factory(list)
    stash: list = plain.Factory(list)
    score: int = 0
    team: object = None
    seat: int = 0              # not a Pip property: which seat answers for the player
    own: dict = plain.Factory(dict)    # extension: its values `for each player`, by number


@plain.define(slots=True, eq=False)
class Team:
    members: list
    stash: list = plain.Factory(list)
    score: int = 0
    own: dict = plain.Factory(dict)    # extension: its values `for each team`, by number


@plain.define(slots=True, eq=False)
class Area:
    name: str
    cards: list
    is_facedown: bool
    is_squaredup: bool


# Every stored property: (object type, name, type).  A property's number in
# bytecode is its place here; the checker takes names and types from here.
PROPERTIES = (
    ('Card', 'rank', 'Rank'), ('Card', 'suit', 'Suit'), ('Card', 'last_played_by', 'Player'),
    ('Player', 'name', 'String'), ('Player', 'hand', 'CardList'), ('Player', 'stash', 'CardList'),
    ('Player', 'score', 'Number'), ('Player', 'team', 'Team'),
    ('Team', 'members', 'PlayerList'), ('Team', 'stash', 'CardList'), ('Team', 'score', 'Number'),
    ('Area', 'name', 'String'), ('Area', 'cards', 'CardList'),
    ('Area', 'is_facedown', 'Boolean'), ('Area', 'is_squaredup', 'Boolean'),
)
# List properties, by number: `top` is the first element, `bottom` the last.
PROPERTY_NAMES = tuple(name for _, name, _ in PROPERTIES)     # by number, as bytecode names them
LIST_PROPERTIES = ('size', 'first', 'last')
LIST_PROPERTY_ALIASES = {'size': 0, 'first': 1, 'top': 1, 'last': 2, 'bottom': 2}
BUILTINS = ('players', 'teams', 'standard')


def card_index(rank, suit):
    """Place of a card in deck order: Clubs A..K, Hearts, Spades, Diamonds."""
    return suit.index * 13 + rank - 1


def new_deck():
    """The 52 cards of one game, in deck order."""
    return list(itertools.starmap(Card, _DECK_ARGS))


# Each card's Card(...) arguments, in deck order: every game makes its deck
# from them (by starmap, without a comprehension's work per card).
_DECK_ARGS = tuple((RANKS[r], s, None, RANKS[r], s, CARD_NAMES[s.index * 13 + r])
                   for s in SUITS for r in range(1, 14))


def to_str(value):
    """A value as `message` and `{x}` show it."""
    kind = type(value)
    if kind is str:
        return value
    if kind is int:
        try:
            return str(value)
        except ValueError:      # over Python's 4,300 digits: a sum doubled 14,000 times
            raise Fault('Number too large to show') from None
    if kind is bool:
        return 'True' if value else 'False'
    if kind is Rank:
        return RANK_NAMES[value]
    if kind is Player:
        return value.name
    if kind is Team:
        return 'Team (%s)' % ', '.join(p.name for p in value.members)
    if kind is Area:           # extension: an area shows its label
        return value.name
    if value is None:
        raise Fault('Undefined value')
    return str(value)          # Card, Suit


class Text(str):
    """A String made of `{x}` parts that shows cards: it keeps their names,
    in order (cards), so that what a message tells a seat is data
    (pipvm/game/determinize.py), never its text read back: a player, a
    team or a literal may spell a card's name.  (Not `cards`: that is an
    Area's alone, which the compiled tier reads a value's kind from.)"""
    shows = ()


def joined(values):
    """The String `{x}` parts make (FORMAT): a Text if a part is a Card or a
    Text, else a str."""
    text = ''.join(map(to_str, values))
    cards = ()
    for v in values:
        kind = type(v)
        if kind is Card:
            cards += (v.name,)
        elif kind is Text:
            cards += v.shows
    if not cards:
        return text
    text = Text(text)
    text.shows = cards
    return text


def shown(text):
    """The names of the cards a String shows: a Text's, else none."""
    return text.shows if type(text) is Text else ()


def cards_of(value):
    """The card list a Player (its hand), an Area or a card list stands for."""
    kind = type(value)
    if kind is list:
        return value
    if kind is Player:
        return value.hand
    if kind is Area:
        return value.cards
    raise Fault('Undefined value' if value is None else 'Expected cards')


def areas_in(values):
    """The Areas among values, a list of areas (an extension) giving its own
    in order: the game's areas, from its globals."""
    out = []
    for v in values:
        if type(v) is Area:
            out.append(v)
        elif type(v) is list and v and type(v[0]) is Area:
            out += v
    return out


def area_of(cards, values):
    """The Area among values (or their lists of areas) whose card list is `cards`, or None."""
    for v in areas_in(values):
        if v.cards is cards:
            return v
    return None


def list_prop(lst, k, part=0):
    """A list's size (k 0), first (1) or last (2) item; `part`: which part of
    a superinstruction asks, for the error's position."""
    if k == 0:
        return len(lst)
    if not lst:
        raise Fault("Can't get item from empty list", part)
    return lst[0] if k == 1 else lst[-1]


def items(value):
    """A list's elements, or a single value as a one-element list."""
    return value if type(value) is list else [value]


LARGEST = 2 ** 62 - 1   # the 2008 interpreter's largest Number (OCaml's max_int)


def multiply(a, b):
    """Number multiplication.  Sums are exact however large (each adds a bit
    at most a step), but a product can double a Number's size at every step
    (`x *= x` in a loop), so one beyond the original's 63-bit Numbers (which
    wrapped there silently) is an error, not a game that exhausts memory."""
    res = a * b
    if -LARGEST - 1 <= res <= LARGEST:
        return res
    raise Fault('Number too large')


def divide(a, b):
    """Number division as the reference does it: truncated toward zero."""
    if b == 0:
        raise Fault('Division by zero')
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def rank_range(low, high):
    """`low..high` as Ranks, counting down when low > high."""
    step = 1 if low <= high else -1
    return [as_rank(n) for n in range(low, high + step, step)]


# Extension (actions with parameters): how deep actions may call one another,
# main's frame included, before the game stops with one error line.
MAX_CALL_DEPTH = 1000
CALL_TOO_DEEP = ('Actions called inside one another more than %d deep '
                 '(does an action call itself without end?)' % MAX_CALL_DEPTH)

MAX_SET = 4     # the most cards of one rank a standard deck has


def card_sets(hand):
    """The sets of cards `play` with a rule for sets offers (extension): every
    set of 1 to MAX_SET cards of one rank in the hand, by rank in order of
    first appearance, then by size, each in hand order.  At most 15 per rank,
    195 in all for a hand of a standard deck's cards."""
    groups = {}
    for card in hand:
        groups.setdefault(int(card.rank), []).append(card)
    return [list(s) for group in groups.values()
            for size in range(1, min(len(group), MAX_SET) + 1)
            for s in itertools.combinations(group, size)]
