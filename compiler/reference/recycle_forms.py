"""What RECYCLE's reference interpreter (recycle.py) reads off the forms of
the syntax tree itself, before running them: the labels of a choice's
options, whether a choice is a `play`, whom the scoring scores."""
from compiler.recycle import ast

def owner_kind(owner):
    if type(owner) in (ast.Who, ast.Seat, ast.Everyone, ast.Others):
        return owner.kind
    if type(owner) is ast.Owner:
        return 'player'
    if type(owner) is ast.TeamOf:
        return 'team'
    return None


def children(e):
    if not hasattr(type(e), '__attrs_attrs__'):
        return []
    out = []
    for f in type(e).__attrs_attrs__:
        v = getattr(e, f.name)
        out += v if type(v) is list else [v]
    return [x for x in out if hasattr(type(x), '__attrs_attrs__')]


def mentions_team(e):
    if type(e) is ast.Who:
        return e.kind == 'team'
    return any(mentions_team(x) for x in children(e))


def rule_reads(e, local, declared):
    """Can a rule (of the player, the card, the destination and the globals)
    read this condition?  Not the variables of a let or an enclosing all, nor
    what needs statements computed first (docs/recycle.md, "Choices")."""
    t = type(e)
    if t is ast.Var:
        return e.name in local or e.name in declared
    if t is ast.Who and (e.which != 'current' or e.kind != 'player'):
        return False
    if t in (ast.Owner, ast.Best) or (t is ast.Seat and type(e.index) is not ast.Int):
        return False
    if t is ast.Aggregate or t is ast.Filter:
        local = local | {e.var.name}
    return all(rule_reads(x, local, declared) for x in children(e))


def top_to_top(a):
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
