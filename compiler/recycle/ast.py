"""RECYCLE's syntax tree (reader.py builds it from the S-expressions).

Every node has `pos`, the (line, column) of its opening parenthesis or of
its word.  An `all` or `any` is one node whatever its body is: whether it
is a Boolean, a sum, a collection of collections or actions in sequence (or
a choice) is the checker's to tell, from its body.
"""
import attrs

node = attrs.define(slots=True)

# --- atoms and values ------------------------------------------------------


@node
class Int:
    value: int
    pos: tuple


@node
class Str:
    value: str
    pos: tuple


@node
class Var:
    name: str
    pos: tuple


@node
class StrColl:                 # (RED, GREEN, BLUE)
    items: list                # Str
    pos: tuple


@node
class Range:                   # (range LOW .. HIGH)
    low: object
    high: object
    pos: tuple


@node
class Arith:                   # (+ A B), (- A B), (* A B), (// A B), (mod A B)
    op: str
    left: object
    right: object
    pos: tuple


@node
class Compare:                 # (== A B) ... (>= A B)
    op: str
    left: object
    right: object
    pos: tuple


@node
class Logic:                   # (and A B ...), (or A B ...)
    op: str
    items: list
    pos: tuple


@node
class Not:
    expr: object
    pos: tuple


@node
class Aggregate:               # (all COLL 'V BODY), (any COLL 'V BODY)
    word: str
    coll: object
    var: Var
    body: object
    pos: tuple

# --- owners, players, teams ------------------------------------------------


@node
class GameOwner:               # game
    pos: tuple


@node
class Who:                     # (current player), (next team), (previous player)
    which: str                 # current, next or previous
    kind: str                  # player or team
    pos: tuple


@node
class Seat:                    # (0 player), (1 team)
    index: object
    kind: str
    pos: tuple


@node
class Owner:                   # (owner CARD)
    card: object
    pos: tuple


@node
class TeamOf:                  # (team PLAYER)
    player: object
    pos: tuple


@node
class Everyone:                # player, team: every player or team
    kind: str
    pos: tuple


@node
class Others:                  # (other player), (other team)
    kind: str
    pos: tuple

# --- cards and collections -------------------------------------------------


@node
class Loc:                     # (OWNER vloc|iloc|hloc|mem NAME)
    owner: object
    vis: str
    name: str
    pos: tuple


@node
class Sto:                     # (OWNER sto NAME)
    owner: object
    name: str
    pos: tuple


@node
class End:                     # (top COLL), (bottom COLL), (INT COLL)
    which: object              # 'top', 'bottom' or an Integer expression
    coll: object
    pos: tuple


@node
class Best:                    # (max COLL using MAP), (min COLL using MAP)
    word: str
    coll: object
    points: Var
    pos: tuple


@node
class Actual:
    card: object
    pos: tuple


@node
class Filter:
    coll: object
    var: Var
    cond: object
    pos: tuple


@node
class Union:
    colls: list
    pos: tuple


@node
class Tuples:
    size: object
    coll: object
    points: Var
    pos: tuple


@node
class CardAtt:                 # (cardatt KEY CARD)
    key: object
    card: object
    pos: tuple


@node
class Size:
    coll: object
    pos: tuple


@node
class Score:                   # (score CARD using MAP)
    card: object
    points: Var
    pos: tuple


@node
class Sum:                     # (sum COLL using MAP)
    coll: object
    points: Var
    pos: tuple

# --- actions ---------------------------------------------------------------


@node
class Do:
    actions: list
    pos: tuple


@node
class Choice:
    options: list
    pos: tuple


@node
class Conditional:             # (CONDITION ACTION)
    cond: object
    action: object
    pos: tuple


@node
class Move:                    # move, remember
    word: str
    card: object
    dest: object
    pos: tuple


@node
class Forget:
    card: object
    pos: tuple


@node
class Shuffle:
    coll: object
    pos: tuple


@node
class IntAction:               # (set STO N), (inc STO N), (dec STO N)
    op: str
    target: Sto
    value: object
    pos: tuple


@node
class Cycle:                   # (cycle next WHO), (cycle current WHO)
    which: str
    target: object             # a Player expression, or the words current/next/previous
    pos: tuple


@node
class Pass:                    # (turn pass)
    pos: tuple


@node
class Repeat:                  # (repeat N ACTION); count None: (repeat all MOVE)
    count: object
    action: object
    pos: tuple


@node
class PointEntry:              # ((KEY (VALUE)) POINTS)
    key: str
    value: object              # a String, or an expression of one
    points: object             # an Integer expression
    pos: tuple


@node
class PutPoints:               # (put points 'V (((KEY (VALUE)) POINTS) ...))
    var: Var
    entries: list              # PointEntry
    pos: tuple


@node
class Let:                     # (let VALUE 'V ACTION)
    value: object
    var: Var
    body: object
    pos: tuple

# --- the game ----------------------------------------------------------------


@node
class Deck:                    # (create deck LOC (deck ...)): the cards it makes
    loc: Loc
    cards: list                # per card: {KEY: VALUE}
    pos: tuple


@node
class Setup:
    players: object            # an Integer expression
    teams: list                # per team: its seats (ints); [] without teams
    decks: list
    pos: tuple
    teams_pos: tuple = None


@node
class Stage:
    kind: str                  # player or team
    end: object
    body: list                 # Do, Choice, Stage
    pos: tuple


@node
class Scoring:
    word: str                  # max or min
    expr: object
    pos: tuple


@node
class Game:
    declares: list             # (Var, value)
    setup: Setup
    flow: list                 # Do, Choice, Stage
    scoring: Scoring
    pos: tuple
