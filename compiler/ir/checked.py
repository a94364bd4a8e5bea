"""The checked AST: what the checker hands to the code generator.

Every name is resolved: globals to slots in the global array, locals to
slots in the running action's (or rule's, or ordering's) frame, properties
to field indices, actions/rules/orderings to their index in the program.
Every expression carries its static type.  Positions are those the
reference reports run-time errors at.
"""
import attrs

from pipvm.core.runtime import LIST_PROPERTY_ALIASES, PROPERTIES

from . import types as T

node = attrs.define(slots=True)

# --- variables and properties ----------------------------------------------


@node
class Global:
    slot: int
    type: object
    name: str


@node
class Local:
    slot: int
    type: object
    name: str


@node
class Builtin:
    name: str                  # players, teams or standard
    type: object


@node
class Field:
    """A stored property of a card, player, team or area."""
    owner: str                 # the object's type
    index: int                 # its place in FIELDS
    name: str
    type: object


@node
class Own:
    """Extension: a value `for each player` (or team), read as a property."""
    owner: str                 # the object's type: Player or Team
    index: int                 # its place in Program.owns
    name: str
    type: object
    init: object = None        # None: it starts undefined
    after: int = 0             # how many globals are declared before it (initialised first)
    pos: tuple = None


@node
class ListProp:
    """A property computed from a list: size, first/top, last/bottom."""
    name: str
    type: object


# Stored properties (owner type, name, type) come from the run-time object
# model, so bytecode, VM and checker agree on them; Field.index is a
# property's place in that table.
FIELDS = [(owner, name, T.DECLARED[type_name]) for owner, name, type_name in PROPERTIES]
LIST_PROPS = tuple(LIST_PROPERTY_ALIASES)

# --- references ------------------------------------------------------------


@node
class VarRef:
    var: object                # Global, Local or Builtin
    type: object
    pos: tuple


@node
class PropRef:
    obj: object                # an expression
    prop: object               # Field or ListProp
    type: object
    pos: tuple                 # the property name

# --- expressions -----------------------------------------------------------


@node
class Literal:
    value: object              # bool, int, or a suit letter
    type: object               # Boolean, Number, Rank, Suit
    pos: tuple


@node
class StrLiteral:
    parts: list                # str, or a reference to convert
    type: object
    pos: tuple


@node
class Ref:
    ref: object
    type: object
    pos: tuple


@node
class Not:
    expr: object
    type: object
    pos: tuple


@node
class Binary:
    left: object
    op: str
    right: object
    type: object
    pos: tuple                 # the operator


@node
class Defined:
    ref: object
    type: object
    pos: tuple


@node
class CanPlay:
    rule: int
    player: object
    dest: object
    type: object
    pos: tuple
    binds: list = None         # extension: [(hidden global, argument)] of a rule with parameters


@node
class CanPlaySet:               # (extension) is there a set the (set) rule allows?
    rule: int
    player: object
    dest: object
    type: object
    pos: tuple
    binds: list = None


@node
class CardExpr:
    rank: object
    suit: object
    type: object               # Card for one rank and one suit, else CardList
    pos: tuple                 # the tilde


@node
class Range:
    low: object
    high: object
    type: object
    pos: tuple


@node
class Seq:
    left: object
    right: object
    type: object               # the list type of the sequence's elements
    pos: tuple


@node
class WildRank:                # %~suits
    suit: object
    type: object
    pos: tuple


@node
class WildSuit:                # ranks~%
    rank: object
    type: object
    pos: tuple                 # the tilde


@node
class WildCard:                # %~%
    type: object
    pos: tuple


@node
class Aggregate:
    """Extension: `(count x in L where C)`, `(sum x in L of E)`, `(max x in L of E)`,
    `(min ...)`: a Number; `(max x in L by O)`, `(min ...)`: an item of L."""
    word: str                  # count, sum, max or min
    var: object                # the Local each item is stored in (None for `by`)
    items: object
    body: object               # the condition or Number, or (by) the ordering's index
    type: object
    pos: tuple


@node
class Item:
    """Extension: `(item K of L)`, L's K-th item (from 1)."""
    index: object
    items: object
    type: object
    pos: tuple


@node
class NewGroup:
    """Extension: a deal's destination `new melds`: a new area, labeled
    "LABEL n" (n: the list's new size) with its list's options, added to
    the end of the list of groups `var` (a Global) before the cards move."""
    var: object
    label: list                # string parts, the list's
    facedown: bool
    squaredup: bool
    type: object
    pos: tuple


@node
class ListLit:
    items: list
    type: object
    pos: tuple

# --- statements ------------------------------------------------------------


@node
class Ask:
    player: object
    questions: list
    pos: tuple


@node
class Question:
    text: list                 # string parts, as StrLiteral.parts
    cond: object               # None when unconditional
    body: list
    pos: tuple


@node
class Assign:
    target: object
    value: object
    pos: tuple


@node
class Compound:
    target: object
    op: str
    value: object
    pos: tuple


@node
class DealCard:
    card: object
    source: object
    dest: object
    pos: tuple


@node
class DealCards:
    count: object              # None for `all`
    source: object
    dest: object
    pos: tuple


@node
class Forever:
    body: list
    pos: tuple


@node
class For:
    var: Local
    items: object
    start: object              # None unless `starting at`
    body: list
    pos: tuple


@node
class If:
    branches: list             # [(cond or None, block)]
    pos: tuple


@node
class Invoke:
    action: int
    pos: tuple
    args: list = None          # extension: the arguments, in parameter order
    gives: object = None       # the called action's result type (dropped): None for none


@node
class Call:
    """Extension: an action's result, `name(a; b)` in an expression."""
    action: int
    args: list
    type: object
    pos: tuple


@node
class Give:
    """Extension: `give EXPR.`, end the action with its result."""
    value: object
    pos: tuple


@node
class Label:
    name: str
    pos: tuple


@node
class Let:
    var: Local
    value: object
    pos: tuple


@node
class Message:
    to: object                 # None: everyone
    text: object
    pos: tuple


@node
class Order:
    target: object
    ordering: int
    pos: tuple


@node
class Play:
    rule: int
    player: object
    dest: object
    pos: tuple
    binds: list = None         # extension: [(hidden global, argument)] of a rule with parameters


@node
class Rotate:
    target: object
    pos: tuple


@node
class Shuffle:
    target: object
    pos: tuple


@node
class Skip:
    name: str
    pos: tuple


@node
class LoopExit:                # `break.` / `continue.`: leaves `loops` loops first
    word: str
    pos: tuple


@node
class ListQuestion:            # one option per item of `items`, the item in `var`
    var: object                # Local
    items: object
    text: list
    cond: object
    body: list
    pos: tuple


@node
class PlaySet:                 # a set of cards of one rank the (set) rule allows
    rule: int
    player: object
    dest: object
    passing: object            # None: no pass; else the block run on a pass
    pos: tuple
    label: list = None         # extension: the pass's label (string parts); None: "Pass"
    one: bool = False          # extension: a card rule's single cards or a pass
    binds: list = None         # extension: [(hidden global, argument)] of a rule with parameters


@node
class Winner:
    who: object
    pos: tuple


# Extension: the endings beyond `winner X.` and the turn order
# (compiler/pip/endings.py), aces high.
@node
class Finish:
    how: int                   # pipvm/core/endings.py: WINNERS, LOSERS, RANKING
    who: object
    pos: tuple


@node
class Turn:
    back: bool                 # False: `out P.`; True: `back P.`
    who: object
    pos: tuple


@node
class AceHigh:                 # a Rank as aces high compare it (14 for an ace)
    expr: object
    type: object
    pos: tuple

# --- the program -----------------------------------------------------------


@node
class VarInit:
    var: Global
    init: object               # None: the variable starts undefined
    pos: tuple


@node
class AreaInit:
    var: Global
    label: list                # string parts
    facedown: bool
    squaredup: bool
    pos: tuple
    count: int = 0             # extension: a list of this many areas (labels numbered)
    grows: bool = False        # extension: a list of groups, empty at first (`Area melds[]`)

    def labels(self):
        """Each area's label (string parts): a list of areas numbers them, "Column 1"...;
        a list of groups has none at first."""
        if self.grows:
            return []
        if not self.count:
            return [self.label]
        return [list(self.label) + [' %d' % n] for n in range(1, self.count + 1)]


@node
class Action:
    name: str
    frame_size: int            # local slots: one per let/for in the body (parameters first)
    body: list
    pos: tuple
    params: list = attrs.Factory(list)   # extension: Locals in slots 0.., filled by the call
    gives: object = None                 # extension: the result's type; None: no result


@node
class Rule:
    name: str
    params: list               # player, card, destination cards: slots 0-2
    body: object
    pos: tuple
    frame_size: int = 3


@node
class Ordering:
    name: str
    param: str                 # the card list being ordered: slot 0
    body: object
    pos: tuple
    frame_size: int = 1


@node
class Program:
    name: list                 # string parts of the game's name
    counts: list               # allowed player counts, or team counts
    team_size: int             # 0 for a players game
    globals: list              # VarInit/AreaInit in declaration order = slot order
    actions: list
    rules: list
    orderings: list
    main: int                  # index of `main` in actions
    pos: tuple
    owns: list = attrs.Factory(list)   # Own values, in declaration order
    init_frame: int = 0                # locals of the initialisers (an aggregate's variable)
