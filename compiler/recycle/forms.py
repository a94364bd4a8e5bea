"""Facts read off RECYCLE's syntax tree alone, before anything runs: the
shape of a choice that is Pip's `play`, an option's label, the face-up
location an option tells, whom the scoring scores.

Both the checker (compiler/recycle/) and the reference interpreter
(compiler/reference/recycle.py) read them here, so a label or a shape is
stated once.  They are structure, not semantics: what a form does when it
runs stays each side's own (the fuzz compares the two).  Like ast.py, this
module imports nothing of the project but ast.py (pyproject.toml lets the
reference import these two).
"""
import attrs

from . import ast


_FIELDS = {}        # type -> its attribute names, or None if it is no syntax node


def node_fields(t):
    """The attribute names of node type t (a syntax or checked node), or None
    for a type that is no node."""
    names = _FIELDS.get(t, False)
    if names is False:
        names = _FIELDS[t] = tuple(f.name for f in attrs.fields(t)) if attrs.has(t) else None
    return names


def children(e):
    """The syntax nodes directly inside e, in order (the checker walks the
    tree often: the fields of each type are looked up once)."""
    names = node_fields(type(e))
    if names is None:
        return []
    out = []
    for name in names:
        v = getattr(e, name)
        if type(v) is list:
            out += [x for x in v if node_fields(type(x)) is not None]
        elif node_fields(type(v)) is not None:
            out.append(v)
    return out


def owner_kind(owner):
    """'player', 'team' or None (the game): whose location this owner names."""
    if type(owner) in (ast.Who, ast.Seat, ast.Everyone, ast.Others):
        return owner.kind
    if type(owner) is ast.Owner:
        return 'player'
    if type(owner) is ast.TeamOf:
        return 'team'
    return None


def mentions_team(e):
    """Does e name `(current team)` and the like: the scoring then scores teams."""
    if type(e) is ast.Who:
        return e.kind == 'team'
    return any(mentions_team(x) for x in children(e))


def top_to_top(a):
    """(move (top LOC) (top LOC)): the one action `repeat all` repeats."""
    return type(a) is ast.Move and a.word == 'move' and type(a.card) is ast.End and \
        a.card.which == 'top' and type(a.dest) is ast.End and a.dest.which == 'top' and \
        type(a.card.coll) is ast.Loc and type(a.dest.coll) is ast.Loc


def summary(a, var):
    """What an option does, as its label says it (docs/recycle.md, "Choices")."""
    kind = type(a)
    if kind is ast.Do:
        return summary(a.actions[0], var) if a.actions else ''
    if kind is ast.Conditional:
        return summary(a.action, var)
    if kind is ast.Move:
        dest = a.dest.coll if type(a.dest) is ast.End else None
        where = dest.name.title() if type(dest) is ast.Loc else 'there'
        if type(a.card) is ast.Var and a.card.name == var:
            return '%s to %s' % (a.word, where)
        return '%s a card to %s' % (a.word, where)
    if kind is ast.Pass:
        return 'pass'
    if kind is ast.IntAction:
        return '%s %s' % (a.op, a.target.name.title())
    return {ast.Shuffle: 'shuffle', ast.Forget: 'forget', ast.Cycle: 'cycle',
            ast.Repeat: 'repeat'}.get(kind, '')


def shown_at(a, var):
    """The face-up location (vloc) an option first moves its card to: everyone reads it."""
    kind = type(a)
    if kind is ast.Do:
        return shown_at(a.actions[0], var) if a.actions else None
    if kind is ast.Conditional:
        return shown_at(a.action, var)
    if kind is ast.Move and a.word == 'move' and type(a.card) is ast.Var and a.card.name == var \
            and type(a.dest) is ast.End and type(a.dest.coll) is ast.Loc and a.dest.coll.vis == 'vloc':
        return a.dest.coll.name.title()
    return None


@attrs.define(slots=True)
class PlayShape:
    """An option of a choice shaped as Pip's `play` (docs/recycle.md, "Choices"):
    `(CONDS (any (filter HAND 'F FCOND) 'V (INNER (do ((move 'V (top DEST)) REST...))))))`."""
    option: ast.Aggregate       # the `any`: its var is the card
    conds: list                 # the conditions written around the `any`
    filters: list               # the filters of the hand, outermost first
    hand: ast.Loc               # ((current player) iloc HAND)
    inner: list                 # the conditions inside the `any`
    first: ast.Move             # the move of the card on top of DEST
    rest: list                  # the actions after it


def play_shapes(ch):
    """The options of a choice that is a `play`, or None: each option a card
    of the hand moved on top of one same location.  Whether the conditions
    are ones a rule can read is each side's own question."""
    shapes = [option_shape(o) for o in ch.options]
    if not shapes or None in shapes:
        return None
    dest = shapes[0].first.dest.coll
    if not all(same(s.first.dest.coll, dest) for s in shapes[1:]):
        return None
    return shapes


def option_shape(o):
    """The parts of one option shaped as a `play`, or None."""
    conds = []
    while type(o) is ast.Conditional:
        conds.append(o.cond)
        o = o.action
    if type(o) is not ast.Aggregate or o.word != 'any':
        return None
    body, inner = o.body, []
    while type(body) is ast.Conditional:
        inner.append(body.cond)
        body = body.action
    actions = body.actions if type(body) is ast.Do else [body]
    first = actions[0] if actions else None
    if not (type(first) is ast.Move and first.word == 'move' and type(first.card) is ast.Var
            and first.card.name == o.var.name and type(first.dest) is ast.End
            and first.dest.which == 'top' and type(first.dest.coll) is ast.Loc
            and first.dest.coll.vis != 'mem'):
        return None
    hand, filters = o.coll, []
    while type(hand) is ast.Filter:
        filters.append(hand)
        hand = hand.coll
    if not (type(hand) is ast.Loc and hand.vis == 'iloc' and type(hand.owner) is ast.Who
            and hand.owner.which == 'current' and hand.owner.kind == 'player'):
        return None
    return PlayShape(o, conds, filters, hand, inner, first, actions[1:])


def same(a, b):
    """Are two pieces of syntax the same but for where they are written?"""
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if not attrs.has(type(a)):
        return a == b
    return all(same(getattr(a, f.name), getattr(b, f.name)) for f in attrs.fields(type(a))
               if f.name != 'pos')


def points_puts(game):
    """Every `put points` of game, by its map's name."""
    puts, todo = {}, [game]
    while todo:
        x = todo.pop()
        if type(x) is ast.PutPoints:
            puts.setdefault(x.var.name, []).append(x)
        todo += children(x)
    return puts


def written(e):
    """e as written, its positions left out: two `put`s alike compare equal."""
    names = node_fields(type(e))
    if type(e) is list:
        return tuple(map(written, e))
    return e if names is None else (type(e).__name__,) + tuple(
        written(getattr(e, n)) for n in names if n != 'pos')


def varying_points(game):
    """The points maps put more than once, not all alike: what a card scores
    depends on which `put` ran last, so the checker keeps their points in
    variables each `put` sets (checker.st_PutPoints), and no rule reads them."""
    return {n for n, puts in points_puts(game).items()
            if len({written(p.entries) for p in puts}) > 1}


def fixed_points(game):
    """The points maps every `put` of which has constant entries (Strings
    and Integers written or declared), all alike: a rule can read them, their
    entries written into it; a computed entry is kept where only the game's
    own statements read it.  Both sides ask this of a play's conditions."""
    declared = {v.name for v, _ in game.declares}
    varying = varying_points(game)

    def fixed(e, kind):
        return type(e) is kind or (type(e) is ast.Var and e.name in declared)
    return {n for n, puts in points_puts(game).items()
            if n not in varying and all(fixed(e.value, ast.Str) and fixed(e.points, ast.Int)
                                        for p in puts for e in p.entries)}


def reads_points(e, fixed):
    """Does e read a points map other than those fixed?"""
    if type(e) in (ast.Sum, ast.Score, ast.Best) and e.points.name not in fixed:
        return True
    return any(reads_points(x, fixed) for x in children(e))
