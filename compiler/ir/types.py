"""Pip's static types and the reference's compatibility rules."""
import attrs

AREA, BOOLEAN, CARD, NUMBER = 'Area', 'Boolean', 'Card', 'Number'
PLAYER, RANK, STRING, SUIT, TEAM = 'Player', 'Rank', 'String', 'Suit', 'Team'
EMPTY = 'EmptyType'            # the element type of `[]`; fits anything


@attrs.frozen
class ListOf:
    elem: str

    def __str__(self):
        # The reference crashes naming these two; we give them names.
        return {AREA: 'AreaList', EMPTY: 'EmptyList'}.get(self.elem, self.elem + 'List')


CARDS, PLAYERS, RANKS, SUITS, TEAMS = (ListOf(t) for t in (CARD, PLAYER, RANK, SUIT, TEAM))

# The declarable type names (a Deck is a CardList).
DECLARED = {
    'Boolean': BOOLEAN, 'Card': CARD, 'Number': NUMBER, 'Player': PLAYER,
    'Rank': RANK, 'String': STRING, 'Suit': SUIT, 'Team': TEAM,
    'CardList': CARDS, 'Deck': CARDS, 'PlayerList': PLAYERS, 'RankList': RANKS,
    'SuitList': SUITS, 'TeamList': TEAMS,
    'Area': AREA,       # extension: only a parameter's (`Area x.` declares no variable)
}
# The type names a declaration holds in the syntax tree: the words above and
# the extension's `Area[]` (a parameter's or a result's type), read as 'AreaList'.
NAMED = dict(DECLARED, AreaList=ListOf(AREA))

# Types a value can be converted from to a String (messages, `{x}` in strings).
STRINGABLE = {BOOLEAN, CARD, NUMBER, PLAYER, RANK, STRING, SUIT, TEAM}


def elem(t):
    """The element type of a list type; any other type is its own."""
    return t.elem if isinstance(t, ListOf) else t


def fits(expected, actual):
    """Can a value of type `actual` be used where `expected` is wanted?"""
    if actual == EMPTY or expected == EMPTY:
        return True
    if {expected, actual} == {RANK, NUMBER}:
        return True
    if isinstance(expected, ListOf) and isinstance(actual, ListOf):
        return fits(expected.elem, actual.elem)
    return expected == actual
