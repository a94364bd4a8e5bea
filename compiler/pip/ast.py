"""The Pip abstract syntax tree, as the parser builds it.

Node and field names follow the original interpreter's `Ast` module.
Positions are (line, column), 1-based, and take no part in equality, so two
parses of the same program compare equal wherever its text sat.
`None` stands for the reference's EmptyExpr / EmptyRef (an absent part).
"""
from pipvm.core import plain
from pipvm.core.plain import NamedTuple


class Pos(NamedTuple):
    line: int
    col: int


def at():
    return plain.field(eq=False, repr=False)


# (plain classes, as attrs makes them: attrs's class building was 20 ms of
# a start-up from source)
node = plain.define(eq=True)

# Ranks are stored as their numbers (A=1, J=11, Q=12, K=13); suits as letters.
RANK_LETTERS = {1: 'A', 11: 'J', 12: 'Q', 13: 'K'}
SUITS = ('C', 'H', 'S', 'D')


# --- expressions -----------------------------------------------------------

@node
class Not:
    expr: object
    pos: Pos = at()


@node
class Binary:
    left: object
    op: str                    # + - * / == != < <= > >= and or in
    right: object
    pos: Pos = at()           # the operator


@node
class Defined:
    ref: object
    pos: Pos = at()


@node
class CanPlay:
    rule: str
    player: object
    dest: object
    pos: Pos = at()
    args: list = None          # extension: the rule's arguments (a rule with parameters)


@node
class CardExpr:
    rank: object
    suit: object
    pos: Pos = at()           # the tilde


@node
class RangeExpr:
    low: object
    high: object
    pos: Pos = at()           # the `..`


@node
class SeqExpr:
    left: object
    right: object
    pos: Pos = at()           # the comma


@node
class WildRank:                # %~suits
    suit: object
    pos: Pos = at()           # the %
    tilde: Pos = at()


@node
class WildSuit:                # ranks~%
    rank: object
    tilde: Pos = at()
    percent: Pos = at()


@node
class WildCard:                # %~%
    pos: Pos = at()
    tilde: Pos = at()
    percent: Pos = at()


@node
class Aggregate:               # extension: `count c in L where C`, `sum c in L of E`, ...
    word: str                  # count, sum, max or min
    name: str                  # the variable bound to each item
    items: object
    how: str                   # 'where', 'of' or 'by'
    body: object               # an expression, or (by) an ordering's name
    pos: Pos = at()           # the word


@node
class ListExpr:
    items: list
    pos: Pos = at()           # the [


@node
class RefExpr:
    ref: object
    pos: Pos = at()           # where the reference starts


@node
class BoolLit:
    value: bool
    pos: Pos = at()


@node
class NumLit:
    value: int
    pos: Pos = at()


@node
class StringLit:
    parts: list                # of StrLit and StrRef
    pos: Pos = at()           # the closing quote, as the reference reports it


@node
class RankLit:
    value: int
    pos: Pos = at()


@node
class SuitLit:
    value: str
    pos: Pos = at()


@node
class StrLit:
    text: str


@node
class StrRef:
    ref: object


# --- references ------------------------------------------------------------

@node
class Id:
    name: str
    pos: Pos = at()


@node
class Prop:
    obj: object                # an expression
    name: str
    pos: Pos = at()           # the property name
    start: Pos = at()         # where the whole reference starts


@node
class Players:
    pos: Pos = at()


@node
class Teams:
    pos: Pos = at()


@node
class Standard:
    pos: Pos = at()


@node
class NewGroup:                # extension: `deal ... to new melds.`, a new area of a list of groups
    groups: object             # the list's reference (an Id)
    pos: Pos = at()           # the word `new`


@node
class Item:                    # extension: `(item K of LIST)`, a list's K-th item
    index: object
    items: object
    pos: Pos = at()           # the "("


def ref_start(ref):
    return ref.start if isinstance(ref, Prop) else ref.pos


# --- statements ------------------------------------------------------------

@node
class Ask:
    player: object
    questions: list
    pos: Pos = at()


@node
class Question:
    text: list                 # string parts
    cond: object               # None when unconditional
    body: list
    pos: Pos = at()


@node
class Assign:
    target: object
    value: object
    pos: Pos = at()


@node
class Compound:
    target: object
    op: str                    # + - * /
    value: object
    pos: Pos = at()


@node
class Deal:
    count: object              # None for `all`
    source: object
    dest: object
    pos: Pos = at()


@node
class Forever:
    body: list
    pos: Pos = at()


@node
class For:
    name: str
    items: object
    start: object              # None unless `starting at`
    body: list
    pos: Pos = at()


@node
class If:
    branches: list             # [(cond, block)]; cond None for the final else
    pos: Pos = at()


@node
class Invoke:
    name: str
    pos: Pos = at()
    args: list = None          # extension: `name(a; b).`; None: 2008's `name().`


@node
class Call:                    # extension: `name(a; b)` in an expression, an action's result
    name: str
    args: list
    pos: Pos = at()


@node
class Give:                    # extension: `give EXPR.`, an action's result
    value: object
    pos: Pos = at()


@node
class Label:
    name: str
    pos: Pos = at()


@node
class Let:
    name: str
    value: object
    pos: Pos = at()


@node
class Message:
    to: object                 # None: everyone
    text: object
    pos: Pos = at()


@node
class Order:
    target: object
    ordering: str
    pos: Pos = at()


@node
class Play:
    rule: str
    player: object
    dest: object
    pos: Pos = at()
    args: list = None          # extension: the rule's arguments (a rule with parameters)


@node
class Rotate:
    target: object
    pos: Pos = at()


@node
class Shuffle:
    target: object
    pos: Pos = at()


@node
class Skip:
    name: str
    pos: Pos = at()


@node
class LoopExit:                # extension: `break.` or `continue.`
    word: str                  # 'break' or 'continue'
    pos: Pos = at()


@node
class ListQuestion:            # extension: `for x in ITEMS "text" [if cond] { ... }` in an ask
    name: str
    items: object
    text: list                 # string parts, as Question's
    cond: object               # None when unconditional
    body: list
    pos: Pos = at()


@node
class PlayOrPass:              # extension: `play RULE from P to DEST or pass { ... }`
    rule: str
    player: object
    dest: object
    passing: list              # the block run when the player passes ([] for `or pass.`)
    pos: Pos = at()
    label: list = None         # extension: `or "Take"`, the pass's label (string parts); None: Pass
    args: list = None          # extension: the rule's arguments (a rule with parameters)


@node
class Winner:
    who: object
    pos: Pos = at()


@node
class RankOrder:                # extension: `Aces high.` (or `Aces low.`, 2008's order)
    high: bool
    pos: Pos = at()


@node
class Ending:                   # extension: `loser X.`, `ranking L.`, `out P.`, `back P.`
    word: str
    who: object
    pos: Pos = at()


# --- declarations and the game ---------------------------------------------

@node
class AreaDecl:
    name: str
    label: list                # string parts
    options: list              # [(option word, Pos)]
    pos: Pos = at()


@node
class AreaFamily:              # extension: `Area cols[7] labeled "Column" ...`, an AreaList
    name: str
    count: object              # None: a list of groups, `Area melds[]`, empty at first
    label: list                # string parts; each area's label adds " 1", " 2", ...
    options: list              # [(option word, Pos)], every area's
    pos: Pos = at()


@node
class ActionDecl:
    name: str
    body: list
    pos: Pos = at()


@node
class Param:                   # extension: one of an action's parameters, `Number n`
    type: str
    name: str
    pos: Pos = at()           # the name


@node
class ParamActionDecl:         # extension: `Action NAME(TYPE p, ...) [gives TYPE] { ... }`
    name: str
    params: list               # of Param
    gives: str                 # the result's type name, or None
    body: list
    pos: Pos = at()


@node
class SetRuleDecl:             # extension: `Rule NAME(p, cards, pile) for sets = EXPR.`
    name: str
    params: list               # three names: player, the set of cards, destination cards
    body: object
    pos: Pos = at()


@node
class ParamRuleDecl:           # extension: `Rule NAME(p, c, pile, TYPE x, ...) [for sets] = EXPR.`
    name: str
    params: list               # the three names
    extra: list                # its own parameters (Param)
    body: object
    sets: bool
    pos: Pos = at()


@node
class RuleDecl:
    name: str
    params: list               # three names: player, card, destination cards
    body: object
    pos: Pos = at()


@node
class OrderingDecl:
    name: str
    param: str
    body: object
    pos: Pos = at()


@node
class VarDecl:
    type: str                  # the declared type's name, e.g. "Deck"
    name: str
    init: object               # None when not initialised
    pos: Pos = at()


@node
class OwnDecl:                 # extension: `Number bid for each player = 0.`
    type: str
    name: str
    owner: str                 # 'player' or 'team'
    init: object               # None when not initialised
    pos: Pos = at()


@node
class PlayerCount:
    counts: list
    pos: Pos = at()


@node
class TeamCount:
    counts: list
    size: int
    pos: Pos = at()


@node
class Game:
    name: list                 # string parts
    count: object
    decls: list
    pos: Pos = at()
