"""A choice of a card from the hand, as Pip's `play` (a mixin of the checker).

`(choice ((any ((current player) iloc HAND) 'C (move 'C (top LOC)))))`, with
any conditions and filters, is exactly Pip's `play RULE from P to LOC`: the
player picks one of the cards the rule allows, and it moves on top of LOC.
Lowered so, it is one card decision the VM filters with the rule (quickly,
pipvm/engine/pure.py), the table tells who played what as Pip's plays are
told (the card named only where it lands face up), and a bot's sampled
worlds replay a card played face down as any card of the player's
(pipvm/game/determinize.py): an `ask` would be replayed by its label, which
names the card.

A rule sees its three parameters (the player, the card, the destination)
and the globals only, so a choice whose conditions read anything else (a
`let`, a variable of an enclosing `all`) stays an `ask`.
"""
import attrs

from compiler.ir import checked as c
from compiler.ir import types as T

from ..errors import PipError
from . import ast
from .cards import NATIVE
from .forms import children, node_fields, play_shapes, reads_points
from .places import Frame, as_expr, cards_of
from .values import (CARD, LocColl, Val, at_least, binary, conj, excludes, implies, lit, local_expr,
                     local_ref, negation, same_expr)


class RuleFrame(Frame):
    """A rule's locals: its three parameters, then any aggregate's variable."""

    def __init__(self):
        super().__init__()
        self.made = []
        self.params = [self.new(n, t) for n, t in (('player', T.PLAYER), ('card', T.CARD),
                                                   ('dest', T.CARDS))]

    def new(self, name, type_):
        local = super().new(name, type_)
        self.made.append(local)
        return local


@attrs.define(slots=True)
class RuleCycle:               # (current player) inside a rule: its first parameter
    kind: str
    cur: object
    nxt: object = None


class Plays:
    def as_play(self, ch):
        """The statements of a choice as a `play`, or None if it is not one."""
        shapes = play_shapes(ch)
        if shapes is None:
            return None
        shapes = [_lifted(shape) for shape in shapes]
        first = shapes[0].first
        try:
            hand_ref = self.typed(shapes[0].hand, 'CardCollection').ir.ref
            dest = self.typed(first.dest.coll, 'CardCollection').ir
        except PipError:
            return None
        if not (isinstance(hand_ref, c.PropRef) and hand_ref.prop.name == 'hand') or \
                type(dest) is not LocColl or dest.vis == 'mem':
            return None
        if any(reads_points(x, self.fixed_points) for shape in shapes
               for x in shape.conds + shape.inner + [f.cond for f in shape.filters]):
            return None     # a computed entry is kept in main's locals (forms.fixed_points)
        made = self.rule_of(shapes)
        if made is None:
            return None
        rule, helds, reads, raws = made
        pos = ch.pos
        player = local_ref(self.stage_of('player', pos).cur, pos)
        card = self.frame.new(shapes[0].option.var.name.lower(), T.CARD)
        top = c.Ref(c.PropRef(as_expr(cards_of(dest.ref)), c.ListProp('first', T.CARD), T.CARD, pos),
                    T.CARD, pos)

        def rest(shape):
            return self.bound(shape.option.var.name, Val(CARD, local_expr(card, pos), home=dest.ref),
                              lambda: self.block(shape.rest))
        # each option's conditions, then (if they held) what its rule reads once
        before = []
        for shape, held, read, flag in zip(shapes, helds, reads, self.flags(shapes, helds, pos)):
            before += flag + (read if type(held) is c.Literal or not read else [c.If([(held, read)], pos)])
        before = _guarded_together(before, pos)
        fetch = [c.Let(card, top, pos)]        # the card played, where the rest reads it
        if len(shapes) == 1:
            after = fetch + rest(shapes[0])
        else:
            more, after = self.which_option(shapes, helds, raws, hand_ref, card, rest, fetch, pos)
            before += more
        return before + [c.If([(c.CanPlay(rule, player, dest.ref, T.BOOLEAN, pos),
                                [c.Play(rule, player, dest.ref, pos)] + after)], pos)]

    def flags(self, shapes, helds, pos):
        """The statements setting each option's hidden global, in the options'
        order.  An option whose conditions begin with all of a later
        option's (Agram: not being able to follow begins with following's
        one condition, `(== (size (game mem LEAD)) 1)`) reads that option's
        flag, set first, instead of computing them again: a flag that is
        one value only reads, so setting it earlier reads the same, and the
        tests shared still come first."""
        out = [[] if type(h) is c.Literal else self.held(h, shape.conds, pos)
               for shape, h in zip(shapes, helds)]
        for k in range(len(out)):
            for j in range(k + 1, len(out)):
                if len(out[k]) == len(out[j]) == 1 and type(out[k][0]) is type(out[j][0]) is c.Assign:
                    value = _after(out[k][0].value, out[j][0].value, helds[j], pos)
                    if value is not None:
                        out[k] = out[j] + [c.Assign(out[k][0].target, value, pos)]
                        out[j] = []
                        break
        return out

    def held(self, held, conds, pos):
        """Statements setting an option's hidden global: whether its conditions
        hold.  Conditions computed by no statement are its value at once
        (`held = A and B`, each read only if those before held), not a False
        overwritten by True."""
        mark = c.Assign(held.ref, lit(True, T.BOOLEAN, pos), pos)
        tests = self.test_stmts(conds, [mark], pos)
        value = _as_value(tests, mark, pos)
        if value is not None:
            return [c.Assign(held.ref, value, pos)]
        return [c.Assign(held.ref, lit(False, T.BOOLEAN, pos), pos)] + tests

    def which_option(self, shapes, helds, raws, hand, card, rest, fetch, pos):
        """Several options, one play: the card played runs the rest of the
        first option that allowed it, as the choice was made (so before the
        play: each option's conditions, and the cards of the hand its tests
        allow, unless the play cannot change them).  (statements before the
        play, statements after it, fetch among them: the card played read
        into its Local).  When only the last option does more than the play
        (Agram's lead remembers the card), the rest is asked only if that
        option's conditions held, and of the earlier options only those
        whose conditions (raws: as the rule reads them) those do not
        exclude (Agram's lead, whose lead size is 0, is never following)."""
        before, branches, apart = [], [], []
        for shape, held, raw in zip(shapes[:-1], helds, raws):
            apart.append(excludes(raws[-1], raw))
            if _unmoved(shape, shapes[0]):
                # its tests of a card read neither the hand nor the destination,
                # which the play changes: asked of the card played, after it
                test = conj([held] + self.card_tests(shape, card), 'and', pos)
                branches.append((test, rest(shape)))
                continue
            allowed, x = self.frame.new('allowed', T.CARDS), self.frame.new('x', T.CARD)
            keep = [c.If([(conj(self.card_tests(shape, x), 'and', pos), [c.Assign(
                local_ref(allowed, pos), c.Seq(local_expr(allowed, pos), local_expr(x, pos), T.CARDS, pos),
                pos)])], pos)]
            before += [c.Let(allowed, c.ListLit([], T.CARDS, pos), pos),
                       c.If([(held, [c.For(x, as_expr(hand), None, keep, pos)])], pos)]
            branches.append((binary(local_expr(card, pos), 'in', local_expr(allowed, pos), T.BOOLEAN, pos),
                             rest(shape)))
        last = rest(shapes[-1])
        if not any(body for _, body in branches) and type(helds[-1]) is not c.Literal and \
                len(before) == 0:
            # only the last option does more than the play: only when its
            # conditions held is it asked whether an earlier option allowed the card
            if not last:
                return before, []
            # the flags are set together before the play: one excluded is False
            unless = conj([negation(t, pos) for (t, _), gone in zip(branches, apart) if not gone],
                          'and', pos)
            if type(unless) is c.Literal and _locals_within(last, {id(card)}, but=True):
                fetch = []      # nothing reads the card played
            return before, [c.If([(helds[-1], fetch + (last if type(unless) is c.Literal else [
                c.If([(unless, last)], pos)]))], pos)]
        branches.append((None, last))
        return before, fetch + [c.If(branches, pos)]

    def card_tests(self, shape, card):
        """An option's tests of a card (its filters' and inner conditions),
        with the card the Local card."""
        o = shape.option
        tests = [self.bound(f.var.name, Val(CARD, local_expr(card, f.pos)), lambda f=f: self.cond(f.cond))
                 for f in shape.filters]
        return tests + self.bound(o.var.name, Val(CARD, local_expr(card, o.pos)),
                                  lambda: [self.cond(e) for e in shape.inner])

    def read_once(self, a, b, pos):
        """In a rule (a play's), the rank (suit) of a card the rule is asked
        about against that of a card named without it (Agram's card against
        the lead): the other card's, and whether it exists, are read into
        hidden globals before the play (self.rule_reads), so the rule
        compares each card with a global, Pip's `c->suit == led`, which
        the VM checks over a whole hand at once.  Reading them cannot fail:
        the other card is read only if it exists (known when the option's
        conditions, self.rule_held, say so: Agram's lead size is 1).  None
        otherwise."""
        if self.rule_reads is None or a.att is None or b.att is None or a.att[0] != b.att[0] \
                or a.att[0] not in NATIVE:
            return None
        free_a, free_b = (_locals_within(x.att[1], ()) for x in (a, b))
        if free_a == free_b:
            return None
        mine, other = (b, a) if free_a else (a, b)
        name, t = NATIVE[a.att[0]]
        choice = 'Choice %d read' % (len(self.rules) + 1)
        label = '%s %d' % (choice, 1 + sum(g.var.name.startswith(choice) for g in self.layout.globals))
        value = self.layout.global_(label, t, pos)
        read = [c.Assign(c.VarRef(value, t, pos), self.card_prop(other.att[1], name, pos), pos)]
        same = binary(self.card_prop(mine.att[1], name, pos), '==', as_expr(c.VarRef(value, t, pos)),
                      T.BOOLEAN, pos)
        tests = [mine.guard] if mine.guard is not None else []
        if other.guard is not None and not implies(self.rule_held, other.guard):
            there = self.layout.global_(label + ' there', T.BOOLEAN, pos)
            read = [c.Assign(c.VarRef(there, T.BOOLEAN, pos), other.guard, pos),
                    c.If([(as_expr(c.VarRef(there, T.BOOLEAN, pos)), read)], pos)]
            tests.append(as_expr(c.VarRef(there, T.BOOLEAN, pos)))
        self.rule_reads.extend(read)
        return conj(tests + [same], 'and', pos)

    def rule_of(self, shapes):
        """(the index of a new rule allowing a card that one of the options
        allows, each option's conditions held, statements before the play
        reading the rule's card-free values: read_once), or None
        if their conditions read more than a rule can.  Conditions held:
        True, or a hidden global (the choice computes them once, not the
        rule once per card)."""
        saved = self.frame, self.stages, self.pre, self.no_pre, self.rule_reads
        frame = RuleFrame()
        player, card, _ = frame.params
        self.frame, self.stages = frame, [RuleCycle('player', player)]
        self.pre, self.no_pre = None, 'a rule'
        pos = shapes[0].option.pos
        checked = []
        reads = []
        try:
            for shape in shapes:
                self.rule_reads = None      # (held before the play: computed in main, not here)
                held = conj([self.cond(x) for x in shape.conds], 'and', shape.option.pos)
                self.rule_reads, self.rule_held = [], held
                checked.append((held, self.card_tests(shape, card)))
                reads.append(self.rule_reads)
        except (PipError, TypeError):
            return None
        finally:
            self.frame, self.stages, self.pre, self.no_pre, self.rule_reads = saved
        if not _locals_within(checked, {id(x) for x in frame.made}):
            return None
        n = len(self.rules) + 1
        alternatives, helds = [], []
        raws = [held for held, _ in checked]
        for k, (shape, (held, tests)) in enumerate(zip(shapes, checked)):
            o = shape.option
            if type(held) is not c.Literal:
                g = self.layout.global_('Choice %d option %d' % (n, k + 1), T.BOOLEAN, o.pos)
                held = as_expr(c.VarRef(g, T.BOOLEAN, o.pos))
            helds.append(held)
            alternatives.append(conj([held] + tests, 'and', o.pos))
        body = alternatives[0] if len(alternatives) == 1 else conj(alternatives, 'or', pos)
        self.rules.append(c.Rule('choice_%d' % n, ['player', 'card', 'dest'], body, pos, frame.size))
        return len(self.rules) - 1, helds, reads, raws


def _lifted(shape):
    """The option with its inner conditions that name no card and cannot
    fail among its conditions: computed once before the play into its
    flag, not by the rule once per card (Agram's `(== (size (game mem
    LEAD)) 1)` inside the `any`).  The same value: nothing changes between."""
    cards = {shape.option.var.name} | {f.var.name for f in shape.filters}
    lift = [x for x in shape.inner if _plain(x, cards)]
    if not lift:
        return shape
    return attrs.evolve(shape, conds=shape.conds + lift,
                        inner=[x for x in shape.inner if not any(x is y for y in lift)])


_PLAIN = (ast.Compare, ast.Logic, ast.Not, ast.Int, ast.Str, ast.Size, ast.Loc, ast.Sto,
          ast.GameOwner, ast.CardAtt)


def _plain(e, cards):
    """Is e read from locations, storage and constants only, with no card of
    cards, no arithmetic (a division by 0 fails) and no card but a top or
    bottom read by cardatt (of an empty location: the empty String)?"""
    kind = type(e)
    if kind is ast.Var:
        return e.name not in cards
    if kind is ast.Who:
        return e.which == 'current'
    if kind is ast.CardAtt and type(e.card) is ast.End:
        return _plain(e.key, cards) and e.card.which in ('top', 'bottom') and _plain(e.card.coll, cards)
    if kind is ast.CardAtt:
        return _plain(e.key, cards) and type(e.card) is ast.Var and e.card.name not in cards
    return kind in _PLAIN and kind is not ast.CardAtt and all(_plain(x, cards) for x in children(e))


def _as_value(stmts, mark, pos):
    """The condition under which stmts, nested ifs of one branch each, run
    only mark; None if they do anything else."""
    if len(stmts) == 1 and stmts[0] is mark:
        return lit(True, T.BOOLEAN, pos)
    if len(stmts) != 1 or type(stmts[0]) is not c.If or len(stmts[0].branches) != 1:
        return None
    test, body = stmts[0].branches[0]
    inner = None if test is None else _as_value(body, mark, pos)
    return None if inner is None else conj([test, inner], 'and', pos)


def _walk(node):
    """The checked expression's nodes (and its lists' items), depth first."""
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        t = type(node)
        if t is list or t is tuple:
            todo += node
        else:
            names = node_fields(t)
            if names is not None:
                todo += [getattr(node, n) for n in names]


def _locals_within(node, mine, but=False):
    """Does the checked expression read only the locals in mine?  (but:
    does it read none of them?)"""
    return all((id(x) in mine) is not but for x in _walk(node) if type(x) is c.Local)


def _unmoved(shape, first):
    """Do an option's tests of a card read nothing a play changes: no
    location named as the hand or the destination is, and no owner?"""
    moved = (first.hand, first.first.dest.coll)
    todo = [f.cond for f in shape.filters] + list(shape.inner)
    while todo:
        node = todo.pop()
        if type(node) is ast.Owner or (type(node) is ast.Loc and any(
                node.vis == m.vis and node.name == m.name for m in moved)):
            return False
        todo += children(node)
    return True


def _guarded_together(stmts, pos):
    """stmts with a flag set to `G and Y` just before the reads guarded by
    G (`if G { READS }`) set inside that test instead: `if G { READS; flag
    = Y } else { flag = False }` (Agram: discarding's flag, following's and
    no card follows, beside the lead's suit read when following).  The
    reads only set hidden globals Y does not read, and cannot fail, so Y
    read after them is the same value, failing as it did."""
    out = list(stmts)
    for i in range(len(out) - 1):
        a, b = out[i], out[i + 1]
        if type(a) is not c.Assign or type(b) is not c.If or len(b.branches) != 1:
            continue
        test, reads = b.branches[0]
        value = a.value
        if type(value) is not c.Binary or value.op != 'and':
            continue
        rest = []
        while type(value) is c.Binary and value.op == 'and':
            rest.append(value.right)
            value = value.left
        set_ = {id(x.target.var) for x in reads if type(x) is c.Assign and type(x.target) is c.VarRef}
        if not same_expr(value, test) or len(set_) != len(reads) or id(getattr(a.target, 'var', None)) in set_ \
                or _mentions(rest, set_):
            continue
        y = rest[-1]
        for x in reversed(rest[:-1]):
            y = binary(y, 'and', x, T.BOOLEAN, pos)
        for x in reads:     # a value just read into a global: the global
            y = _replaced(y, x.value, as_expr(x.target))
        out[i:i + 2] = [c.If([(test, reads + [c.Assign(a.target, y, a.pos)]),
                              (None, [c.Assign(a.target, lit(False, T.BOOLEAN, pos), a.pos)])], b.pos)]
        return _guarded_together(out, pos)
    return out


def _replaced(node, old, new):
    """The checked expression with each part that is old (but for where it
    is written) replaced by new."""
    if same_expr(node, old):
        return new
    t = type(node)
    if t is list or t is tuple:
        return t(_replaced(x, old, new) for x in node)
    if not attrs.has(t) or t is c.Local or t is c.Global:
        return node
    return attrs.evolve(node, **{f.name: _replaced(getattr(node, f.name), old, new)
                                 for f in attrs.fields(t) if f.name != 'pos'})


def _mentions(node, ids):
    """Does the checked node name a global or local whose id is in ids?"""
    return any(id(x) in ids for x in _walk(node) if type(x) is c.Global or type(x) is c.Local)


def _after(value, first, flag, pos):
    """value, an `and` whose first tests are the value first, with those
    tests read from flag (first's global) instead; None if it does not
    begin so."""
    rest = []
    while type(value) is c.Binary and value.op == 'and':
        rest.append(value.right)
        value = value.left
        if same_expr(value, first) or same_expr(value, at_least(first)):   # (as conj writes it)
            out = flag
            for x in reversed(rest):
                out = binary(out, 'and', x, T.BOOLEAN, pos)
            return out
    return None
