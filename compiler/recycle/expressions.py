"""Checking RECYCLE's expressions into checked expressions (a mixin of the
checker, checker.py).

Some expressions have no checked expression of their own: the card of most
points (`max ... using`), a card's owner, the player after another.  They
are computed by statements placed before the action that uses them
(`hoist`); where no statement can go (a choice's condition for each card,
the condition of an aggregate), they are an error naming the place.
"""
from compiler.ir import checked as c
from compiler.ir import types as T

from . import ast
from .cards import NATIVE, RANKS, SUITS, card_list
from .forms import children
from .places import as_expr, cards_of, field
from .points import Points
from .values import (BOOL, CARD, CARDS, ELEMENT, GAME, INT, INTS, IR_TYPE, PLAYER, PLAYERS,
                     STR, STRS, TEAM, TEAMS, EachColl, FilterColl, GroupColl, ListColl, LocColl,
                     UnionColl, Val, binary, conj, fail, lit, local_expr, local_ref, negation)

ARITH = {'+': '+', '-': '-', '*': '*', '//': '/'}
GROUP = {PLAYER: (PLAYERS, 'players', T.PLAYERS), TEAM: (TEAMS, 'teams', T.TEAMS)}
MAX_UNROLL = 64
MAX_SEATS = 6           # all/any over more players (teams) is a loop


class Expressions(Points):
    # --- entry points ------------------------------------------------------------

    def expr(self, e):
        return getattr(self, 'ex_' + type(e).__name__)(e)

    def typed(self, e, *types):
        v = self.expr(e)
        if v.type not in types:
            fail(e.pos, 'Expected %s; found %s' % (' or '.join(types), v.type))
        return v

    def scalar(self, e, *types):
        """A checked expression of one of the types (a String is not one)."""
        return self.typed(e, *types).ir

    def cond(self, e):
        return self.scalar(e, BOOL)

    def whole_cond(self, e):
        """A condition that is the whole test of a statement (a stage's end, a
        conditional action, an option's conditions: test_stmts): an `all` or
        `any` there is a loop that stops at the first element deciding it,
        as the reference's does, not a count over every element (a stage's
        end is tested before every turn); so is a filter's size compared
        with 0 (Agram's "no card follows suit")."""
        if self.pre is None:
            return self.cond(e)
        if type(e) is ast.Aggregate:
            v = self.ex_Aggregate(e, stop=True)
            if v.type != BOOL:
                fail(e.pos, 'Expected %s; found %s' % (BOOL, v.type))
            return v.ir
        if type(e) is ast.Compare and e.op in ('==', '!=', '>') and type(e.left) is ast.Size \
                and type(e.left.coll) is ast.Filter and type(e.right) is ast.Int and e.right.value == 0:
            v = self.expr(e.left.coll)
            having = self.having(v.ir, e.pos)
            if having is not None:
                return having if e.op != '==' else negation(having, e.pos)
            items, var, keep = self.flat(v.ir, e.pos, '(size COLLECTION)')
            some = self.first_deciding('any', e.pos, var, items, keep)
            return some if e.op != '==' else c.Not(some, T.BOOLEAN, e.pos)
        return self.cond(e)

    def having(self, coll, pos):
        """`(filter LOC 'C (== (cardatt RANK|SUIT 'C) X))` of a location, X
        not naming 'C, as its size's test against 0 needs it: is X's rank
        (suit) in LOC, one `in` as Pip's `led in p->hand`, not a loop over
        LOC.  X is read once, where the loop read it per card: a String,
        which reading cannot fail.  None if coll is not of that shape."""
        if type(coll) is not FilterColl or type(coll.base) is not LocColl:
            return None
        cond = coll.cond
        if type(cond) is not ast.Compare or cond.op != '==':
            return None
        for att, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if type(att) is ast.CardAtt and type(att.card) is ast.Var and att.card.name == coll.var \
                    and type(att.key) is ast.Str and att.key.value in NATIVE \
                    and not _names(other, coll.var):
                break
        else:
            return None
        x = self.no_hoist('a filter', lambda: self.with_env(coll.env, lambda: self.expr(other)))
        if x.type != STR:
            return None
        key = att.key.value
        items = as_expr(cards_of(coll.base.ref))
        if x.att is None:
            table = RANKS if key == 'RANK' else SUITS
            if x.const not in table:
                return lit(False, T.BOOLEAN, pos)
            return binary(lit(table[x.const], NATIVE[key][1], pos), 'in', items, T.BOOLEAN, pos)
        if x.att[0] != key:
            return None
        found = binary(self.card_prop(x.att[1], NATIVE[key][0], pos), 'in', items, T.BOOLEAN, pos)
        return conj([x.guard, found], 'and', pos) if x.guard is not None else found

    def test_stmts(self, conds, body, pos):
        """Statements running body if each condition holds (an `and`'s each),
        each computed (whole_cond) only if those before it held."""
        if not conds:
            return body
        first = conds[0]
        if type(first) is ast.Logic and first.op == 'and':
            return self.test_stmts(first.items + conds[1:], body, pos)
        saved, self.pre = self.pre, []
        try:
            test = self.whole_cond(first)
            pre = self.pre
        finally:
            self.pre = saved
        return pre + [c.If([(test, self.test_stmts(conds[1:], body, pos))], pos)]

    def hoist(self, stmts, pos, what):
        if self.pre is None:
            fail(pos, '%s is computed by statements, which cannot go here (%s): '
                 'compute it first with (let ...)' % (what, self.no_pre))
        self.pre.extend(stmts)

    def with_env(self, env, fn):
        saved = self.env
        self.env = env
        try:
            return fn()
        finally:
            self.env = saved

    def bound(self, name, val, fn, env=None):
        env = dict(self.env if env is None else env)
        env[name] = val
        return self.with_env(env, fn)

    def no_hoist(self, reason, fn):
        saved, saved_reason = self.pre, self.no_pre
        self.pre, self.no_pre = None, reason
        try:
            return fn()
        finally:
            self.pre, self.no_pre = saved, saved_reason

    # --- constants and arithmetic -------------------------------------------------

    def ex_Int(self, e):
        return Val(INT, lit(e.value, T.NUMBER, e.pos), const=e.value)

    def ex_Str(self, e):
        return Val(STR, const=e.value)

    def ex_StrColl(self, e):
        return Val(STRS, const=[s.value for s in e.items])

    def ex_Var(self, e):
        if e.name in self.env:
            return self.env[e.name]
        if e.name in self.points:
            fail(e.pos, "'%s is a points map: it goes after using" % e.name)
        fail(e.pos, "Unknown variable '%s" % e.name)

    def ex_Range(self, e):
        low, high = self.typed(e.low, INT), self.typed(e.high, INT)
        if low.const is None or high.const is None:
            fail(e.pos, 'A range goes from one constant Integer to another')
        return Val(INTS, const=list(range(low.const, high.const)))

    def ex_Arith(self, e):
        a, b = self.typed(e.left, INT), self.typed(e.right, INT)
        if e.op != 'mod':
            return Val(INT, binary(a.ir, ARITH[e.op], b.ir, T.NUMBER, e.pos))
        # a mod b = a - (a // b) * b: the sign of a, as C#'s % (CardStock's)
        quotient = binary(a.ir, '/', b.ir, T.NUMBER, e.pos)
        return Val(INT, binary(a.ir, '-', binary(quotient, '*', b.ir, T.NUMBER, e.pos),
                               T.NUMBER, e.pos))

    def ex_Logic(self, e):
        return Val(BOOL, conj([self.cond(x) for x in e.items], e.op, e.pos))

    def ex_Not(self, e):
        return Val(BOOL, c.Not(self.cond(e.expr), T.BOOLEAN, e.pos))

    def ex_Compare(self, e):
        a, b = self.expr(e.left), self.expr(e.right)
        if a.type != b.type:
            fail(e.pos, 'Cannot compare %s with %s' % (a.type, b.type))
        if a.type == INT:
            return Val(BOOL, binary(a.ir, e.op, b.ir, T.BOOLEAN, e.pos))
        if e.op not in ('==', '!='):
            fail(e.pos, '%s compares Integers only' % e.op)
        if a.type == STR:
            same = self.same_string(a, b, e.pos)
            return Val(BOOL, same if e.op == '==' else c.Not(same, T.BOOLEAN, e.pos))
        if a.type in (CARD, PLAYER, TEAM):
            return Val(BOOL, binary(a.ir, e.op, b.ir, T.BOOLEAN, e.pos))
        fail(e.pos, 'Cannot compare two %ss' % a.type)

    # --- Strings: constants and card attributes ------------------------------------

    def ex_CardAtt(self, e):
        key = self.typed(e.key, STR)
        if key.const is None:
            fail(e.key.pos, 'The key of cardatt is a String written in the program, as SUIT')
        card = self.typed(e.card, CARD)
        if key.const not in self.cards.keys():
            fail(e.key.pos, 'No card of this game has the key %s' % key.const)
        return Val(STR, att=(key.const, card.ir), guard=card.guard)

    def same_string(self, a, b, pos):
        """Are two Strings equal?  The attribute of a card that does not exist
        ((top EMPTY)) is "", equal to no value of a key."""
        once = self.read_once(a, b, pos)
        if once is not None:
            return once
        guards = [g for g in (a.guard, b.guard) if g is not None]
        same = self.same_value(a, b, pos)
        return conj(guards + [same], 'and', pos) if guards else same

    def same_value(self, a, b, pos):
        if a.att is None and b.att is None:
            return lit(a.const == b.const, T.BOOLEAN, pos)
        if a.att is None:
            a, b = b, a
        if b.att is None:
            return self.has_value(a.att[1], a.att[0], b.const, pos)
        (k1, c1), (k2, c2) = a.att, b.att
        if k1 == k2 and k1 in NATIVE:
            name, t = NATIVE[k1]
            return binary(self.card_prop(c1, name, pos), '==', self.card_prop(c2, name, pos),
                          T.BOOLEAN, pos)
        common = [v for v in self.cards.values(k1) if v in self.cards.values(k2)]
        return conj([conj([self.has_value(c1, k1, v, pos), self.has_value(c2, k2, v, pos)], 'and', pos)
                     for v in common], 'or', pos)

    def card_prop(self, card, name, pos):
        f = field('Card', name)
        return c.Ref(c.PropRef(card, f, f.type, pos), f.type, pos)

    def has_value(self, card, key, value, pos):
        """Is the card's key this value?  (A card without the key has the String "".)"""
        if key == 'RANK':
            if value not in RANKS:
                return lit(False, T.BOOLEAN, pos)
            return binary(self.card_prop(card, 'rank', pos), '==', lit(RANKS[value], T.RANK, pos),
                          T.BOOLEAN, pos)
        if key == 'SUIT':
            if value not in SUITS:
                return lit(False, T.BOOLEAN, pos)
            return binary(self.card_prop(card, 'suit', pos), '==', lit(SUITS[value], T.SUIT, pos),
                          T.BOOLEAN, pos)
        keys = self.cards.with_value(key, value)
        if not keys:
            return lit(False, T.BOOLEAN, pos)
        return binary(card, 'in', card_list(keys, pos), T.BOOLEAN, pos)

    # --- owners, players and teams ----------------------------------------------------

    def ex_GameOwner(self, e):
        return Val(GAME)

    def stage_of(self, kind, pos):
        for s in reversed(self.stages):
            if s.kind == kind:
                return s
        fail(pos, '(current %s) is only known inside a stage %s' % (kind, kind))

    def ex_Who(self, e):
        kind = PLAYER if e.kind == 'player' else TEAM
        self.need_teams(kind, e.pos)
        s = self.stage_of(e.kind, e.pos)
        if e.which == 'current':
            return Val(kind, local_expr(s.cur, e.pos))
        if e.which == 'next':
            if s.nxt is None:
                fail(e.pos, '(next %s) is not known in a rule' % e.kind)
            s.nexts += 1        # (checker.st_Stage: read before the turn sets it?)
            return Val(kind, local_expr(s.nxt, e.pos))
        return Val(kind, self.neighbour(kind, local_expr(s.cur, e.pos), 'previous', e.pos))

    def need_teams(self, kind, pos):
        if kind == TEAM and not self.teams:
            fail(pos, 'This game has no teams of more than one player: (create teams ...) with '
                 'two or more players a team')

    def group(self, kind, pos):
        _, name, t = GROUP[kind]
        return as_expr(c.VarRef(c.Builtin(name, t), t, pos))

    def neighbour(self, kind, who, which, pos, into=None):
        """The player (team) after who in turn order (which='next'), or before it."""
        ir_type = IR_TYPE[kind]
        res = into or self.frame.new(which, ir_type)
        seats = self.layout.seat_globals(kind, pos)
        step = 1 if which == 'next' else -1
        stmts = []
        if type(who) is c.Ref and type(who.ref) is c.VarRef and type(who.ref.var) is c.Local:
            held = who.ref.var          # a local already: compared as it is
        else:
            held = self.frame.new('who', ir_type)
            stmts.append(c.Let(held, who, pos))
        # every player (team) sits in a seat: the last needs no test
        stmts += [c.If([
            (binary(local_expr(held, pos), '==', as_expr(c.VarRef(g, ir_type, pos)), T.BOOLEAN, pos)
             if k < len(seats) - 1 else None,
             [c.Assign(local_ref(res, pos), as_expr(c.VarRef(seats[(k + step) % len(seats)], ir_type, pos)),
                       pos)])
            for k, g in enumerate(seats)], pos)]
        if into is not None:
            return stmts
        self.hoist(stmts, pos, '(%s %s)' % (which, kind.lower()))
        return local_expr(res, pos)

    def ex_Seat(self, e):
        kind = PLAYER if e.kind == 'player' else TEAM
        self.need_teams(kind, e.pos)
        index = self.scalar(e.index, INT)
        if type(index) is c.Literal:
            seats = self.layout.seat_globals(kind, e.pos)
            if not 0 <= index.value < len(seats):
                fail(e.pos, 'There is no %s %d: they count from 0 to %d' % (e.kind, index.value,
                                                                           len(seats) - 1))
            return Val(kind, as_expr(c.VarRef(seats[index.value], IR_TYPE[kind], e.pos)))
        res, q, k = (self.frame.new('seat', IR_TYPE[kind]), self.frame.new('q', IR_TYPE[kind]),
                     self.frame.new('k', T.NUMBER))
        pos = e.pos
        found = self.frame.new('found', T.BOOLEAN)
        stmts = [c.Let(k, lit(0, T.NUMBER, pos), pos), c.Let(found, lit(False, T.BOOLEAN, pos), pos),
                 c.For(q, self.group(kind, pos), None, [
                     c.If([(binary(local_expr(k, pos), '==', index, T.BOOLEAN, pos),
                            [c.Assign(local_ref(res, pos), local_expr(q, pos), pos),
                             c.Assign(local_ref(found, pos), lit(True, T.BOOLEAN, pos), pos)])], pos),
                     c.Compound(local_ref(k, pos), '+', lit(1, T.NUMBER, pos), pos)], pos),
                 self.fail_unless(found, IR_TYPE[kind], pos)]
        self.hoist(stmts, pos, '(N %s)' % e.kind)
        return Val(kind, local_expr(res, pos))

    def fail_unless(self, found, ir_type, pos):
        """Reading the first of an empty list: the run-time error `Can't get
        item from empty list` at pos, when nothing was found (found: a
        Boolean Local, or a checked condition)."""
        empty = c.ListLit([], T.ListOf(ir_type), pos)
        first = c.Ref(c.PropRef(empty, c.ListProp('first', ir_type), ir_type, pos), ir_type, pos)
        junk = self.frame.new('none', ir_type)
        found = local_expr(found, pos) if type(found) is c.Local else found
        return c.If([(negation(found, pos), [c.Let(junk, first, pos)])], pos)

    def ex_Owner(self, e):
        holder = None
        if type(e.card) is ast.Best:
            card, holder, stores = self.best(e.card, track=True)
            card = card.ir
        else:
            card = self.scalar(e.card, CARD)
        pos = e.pos
        held, res, p, found = (self.frame.new('card', T.CARD), self.frame.new('owner', T.PLAYER),
                               self.frame.new('p', T.PLAYER), self.frame.new('found', T.BOOLEAN))
        test = c.If([], pos)       # filled in by finish(): every place a player holds cards
        # the first player holding it, in seat order (a memory's copy is held twice)
        test.branches.append((None, [c.Assign(local_ref(res, pos), local_expr(p, pos), pos),
                                     c.Assign(local_ref(found, pos), lit(True, T.BOOLEAN, pos), pos),
                                     c.LoopExit('break', pos)]))
        self.owner_tests.append((test, held, p, pos))
        search = [c.Let(held, card, pos), c.Let(found, lit(False, T.BOOLEAN, pos), pos),
                  c.For(p, self.group(PLAYER, pos), None, [test], pos),
                  self.fail_unless(found, T.PLAYER, pos)]
        if holder is not None:
            # the player whose place the max (min) was found in; finish() keeps
            # the search instead if a player has a memory (a copy held twice)
            search = [c.If([(None, search)], pos)]
            self.owners_known.append((search[0], [c.Assign(local_ref(res, pos), local_expr(holder, pos),
                                                           pos)], stores))
        self.hoist(search, pos, '(owner CARD)')
        return Val(PLAYER, local_expr(res, pos))

    def ex_TeamOf(self, e):
        self.need_teams(TEAM, e.pos)
        p = self.scalar(e.player, PLAYER)
        f = field('Player', 'team')
        return Val(TEAM, c.Ref(c.PropRef(p, f, T.TEAM, e.pos), T.TEAM, e.pos))

    def ex_Everyone(self, e):
        kind = PLAYER if e.kind == 'player' else TEAM
        self.need_teams(kind, e.pos)
        return Val(GROUP[kind][0], GroupColl(kind, self.group(kind, e.pos)))

    def ex_Others(self, e):
        kind = PLAYER if e.kind == 'player' else TEAM
        self.need_teams(kind, e.pos)
        cur = local_expr(self.stage_of(e.kind, e.pos).cur, e.pos)
        return Val(GROUP[kind][0], GroupColl(kind, self.group(kind, e.pos), None,
                                             lambda x: binary(x, '!=', cur, T.BOOLEAN, e.pos)))

    # --- locations and storage --------------------------------------------------------

    def owner(self, e):
        v = self.expr(e)
        if v.type == GAME:
            return None, None
        if v.type == PLAYER:
            return 'Player', v.ir
        if v.type == TEAM:
            self.need_teams(TEAM, e.pos)
            return 'Team', v.ir
        fail(e.pos, 'Expected game, a Player or a Team as an owner; found %s' % v.type)

    def ex_Loc(self, e):
        owner, obj = self.owner(e.owner)
        if owner is None:
            ref = self.layout.game_loc(e.vis, e.name, e.pos)
        else:
            ref = self.layout.owner_loc(owner, obj, e.vis, e.name, e.pos)
        return Val(CARDS, LocColl(ref, e.vis, e.name))

    def ex_Sto(self, e):
        owner, obj = self.owner(e.owner)
        ref = self.layout.sto(owner, obj, e.name, e.pos)
        return Val(INT, c.Ref(ref, T.NUMBER, e.pos), ref=ref)

    # --- cards of collections -----------------------------------------------------------

    def ex_End(self, e):
        if e.which not in ('top', 'bottom'):
            fail(e.pos, '(N COLLECTION), a card by its place, is not supported yet: use top or bottom')
        coll = self.typed(e.coll, CARDS).ir
        prop = 'first' if e.which == 'top' else 'last'
        if type(coll) is LocColl:
            lst = cards_of(coll.ref)
            items = as_expr(lst)
            home = coll.ref
        else:
            items = self.materialize(coll, e.pos, '(%s COLLECTION)' % e.which)
            home = None
        card = c.Ref(c.PropRef(items, c.ListProp(prop, T.CARD), T.CARD, e.pos), T.CARD, e.pos)
        size = c.Ref(c.PropRef(items, c.ListProp('size', T.NUMBER), T.NUMBER, e.pos), T.NUMBER, e.pos)
        return Val(CARD, card, home=home,
                   guard=binary(size, '>', lit(0, T.NUMBER, e.pos), T.BOOLEAN, e.pos))

    def ex_Actual(self, e):
        return Val(CARD, self.scalar(e.card, CARD))

    def ex_Filter(self, e):
        v = self.expr(e.coll)
        if v.type == CARDS:
            return Val(CARDS, FilterColl(v.ir, e.var.name, e.cond, dict(self.env)))
        if v.type in (PLAYERS, TEAMS):
            g = v.ir
            if g.cond is not None:
                fail(e.pos, 'Filter a filtered group of players once, with (and ...)')
            return Val(v.type, GroupColl(g.kind, g.items, e.var.name, e.cond, dict(self.env)))
        fail(e.coll.pos, 'Expected a collection of cards, players or teams; found %s' % v.type)

    def ex_Union(self, e):
        return Val(CARDS, UnionColl([self.typed(x, CARDS).ir for x in e.colls]))

    def ex_Tuples(self, e):
        fail(e.pos, 'tuples is not supported yet (docs/recycle.md, "Not yet")')

    def ex_Size(self, e):
        v = self.expr(e.coll)
        if v.type == STRS:
            return Val(INT, lit(len(v.const), T.NUMBER, e.pos), const=len(v.const))
        if v.type not in (CARDS, PLAYERS, TEAMS):
            fail(e.coll.pos, 'Expected a collection; found %s' % v.type)
        coll = v.ir
        if type(coll) is LocColl:
            lst = as_expr(cards_of(coll.ref))
            return Val(INT, c.Ref(c.PropRef(lst, c.ListProp('size', T.NUMBER), T.NUMBER, e.pos),
                                  T.NUMBER, e.pos))
        items, var, keep = self.flat(coll, e.pos, '(size COLLECTION)')
        return Val(INT, c.Aggregate('count', var, items, keep or lit(True, T.BOOLEAN, e.pos),
                                    T.NUMBER, e.pos))

    # --- aggregates as values -------------------------------------------------------------

    def ex_Aggregate(self, e, stop=False):
        v = self.expr(e.coll)
        if v.type in (STRS, INTS):
            return self.unrolled(e, v)
        if v.type not in (CARDS, PLAYERS, TEAMS):
            fail(e.coll.pos, 'Expected a collection after %s; found %s' % (e.word, v.type))
        elem = ELEMENT[v.type]
        if v.type != CARDS and self.is_collection(e.body, e.var.name, elem):
            if e.word != 'all':
                fail(e.pos, 'any over a collection of locations: use all (and union)')
            return Val(CARDS, EachColl(v.ir, e.var.name, e.body, dict(self.env)))
        if type(v.ir) is GroupColl and v.ir.cond is None:
            by_seat = self.by_seat(e, elem)
            if by_seat is not None:
                return by_seat
        items, var, keep = self.flat(v.ir, e.pos, '(%s ...)' % e.word)
        body = self.no_hoist('the body of %s' % e.word, lambda: self.bound(
            e.var.name, Val(elem, local_expr(var, e.pos), home=self.home_of(v.ir)),
            lambda: self.expr(e.body)))
        if body.type == BOOL:
            test = body.ir if e.word == 'any' else negation(body.ir, e.pos)
            if stop:
                return Val(BOOL, self.first_deciding(e.word, e.pos, var, items,
                                                     conj([keep, test], 'and', e.pos) if keep else test))
            count = c.Aggregate('count', var, items, conj([keep, test], 'and', e.pos) if keep else test,
                                T.NUMBER, e.pos)
            return Val(BOOL, binary(count, '>' if e.word == 'any' else '==', lit(0, T.NUMBER, e.pos),
                                    T.BOOLEAN, e.pos))
        if body.type == INT and e.word == 'all':
            if keep is not None:
                fail(e.pos, 'all ... of Integers adds over a whole collection, not a filtered one')
            return Val(INT, c.Aggregate('sum', var, items, body.ir, T.NUMBER, e.pos))
        fail(e.body.pos, 'The body of %s is a Boolean%s; found %s' % (
            e.word, ', an Integer or a collection' if e.word == 'all' else '', body.type))

    def by_seat(self, e, elem):
        """all/any over every player (team), when there are at most MAX_SEATS:
        the body once per seat, its player (team) the seat's global, joined
        by `and` (`or`, or `+` for an Integer `all`): no loop, and it stops
        at the first seat deciding it, as the reference's does.  None if
        the body is neither, or there are more seats."""
        count = self.layout.players if elem == PLAYER else self.layout.teams
        if count > MAX_SEATS:
            return None
        t = IR_TYPE[elem]
        vals = [self.no_hoist('the body of %s' % e.word, lambda g=g: self.bound(
            e.var.name, Val(elem, as_expr(c.VarRef(g, t, e.pos))), lambda: self.expr(e.body)))
            for g in self.layout.seat_globals(elem, e.pos)]
        return joined(vals, e.word, e.pos)

    def seats_of(self, g, pos):
        """Every player (team) of an unfiltered group as its seat's global, in
        seat order, where a loop over them may be written out once per seat
        (at most MAX_SEATS); else None."""
        count = self.layout.players if g.kind == PLAYER else self.layout.teams
        if type(g) is not GroupColl or g.cond is not None or count > MAX_SEATS:
            return None
        t = IR_TYPE[g.kind]
        return [as_expr(c.VarRef(s, t, pos)) for s in self.layout.seat_globals(g.kind, pos)]

    def first_deciding(self, word, pos, var, items, test):
        """`all` (`any`) as a loop that stops at the first element failing
        (holding): test is true of that element."""
        res = self.frame.new(word, T.BOOLEAN)
        self.hoist([c.Let(res, lit(word == 'all', T.BOOLEAN, pos), pos),
                    c.For(var, items, None, [c.If([(test, [
                        c.Assign(local_ref(res, pos), lit(word == 'any', T.BOOLEAN, pos), pos),
                        c.LoopExit('break', pos)])], pos)], pos)], pos, '(%s ...)' % word)
        return local_expr(res, pos)

    def is_collection(self, body, name, elem):
        """Is an aggregate's body a collection (a location, a filter, a union)?"""
        kind = type(body)
        if kind is ast.Aggregate:
            return body.word == 'all' and self.is_collection(body.body, name, elem)
        return kind in (ast.Loc, ast.Filter, ast.Union)

    def unrolled(self, e, v):
        """all/any over Strings or a range: one copy of the body per element."""
        if len(v.const) > MAX_UNROLL:
            fail(e.coll.pos, 'At most %d elements in a collection written in the program' % MAX_UNROLL)
        elem = ELEMENT[v.type]
        vals = [self.bound(e.var.name, Val(elem, lit(x, T.NUMBER, e.pos) if elem == INT else None,
                                           const=x), lambda: self.expr(e.body)) for x in v.const]
        out = joined(vals, e.word, e.pos)
        if out is not None:
            return out
        if {x.type for x in vals} == {CARDS} and e.word == 'all':
            return Val(CARDS, UnionColl([x.ir for x in vals]))
        fail(e.body.pos, 'The body of %s is a Boolean, an Integer or a collection' % e.word)

    # --- walking collections -----------------------------------------------------------------

    def home_of(self, coll):
        if type(coll) is LocColl:
            return coll.ref
        if type(coll) is FilterColl:
            return self.home_of(coll.base)
        return None

    def keep(self, coll, var, pos):
        """The filter of a group or a filtered collection, for its element in var."""
        elem = local_expr(var, pos)
        if coll.cond is None:
            return None
        if callable(coll.cond):
            return coll.cond(elem)
        kind = coll.kind if type(coll) is GroupColl else CARD
        home = self.home_of(coll.base) if type(coll) is FilterColl else None
        return self.no_hoist('a filter', lambda: self.bound(
            coll.var, Val(kind, elem, home=home), lambda: self.cond(coll.cond), coll.env))

    def flat(self, coll, pos, what):
        """(list, its element's Local, condition or None) for a location, a
        group or their filters; anything else is made into a list first."""
        if type(coll) is GroupColl:
            var = self.frame.new('x', IR_TYPE[coll.kind])
            return coll.items, var, self.keep(coll, var, pos)
        if type(coll) is LocColl:
            return as_expr(cards_of(coll.ref)), self.frame.new('x', T.CARD), None
        if type(coll) is FilterColl:
            items, var, keep = self.flat(coll.base, pos, what)
            mine = self.keep(coll, var, pos)
            return items, var, mine if keep is None else conj([keep, mine], 'and', pos)
        if type(coll) is ListColl:
            return coll.items, self.frame.new('x', T.CARD), None
        return self.materialize(coll, pos, what), self.frame.new('x', T.CARD), None

    def materialize(self, coll, pos, what):
        """A union or a collection of collections as a new card list, made before the action."""
        lst, x = self.frame.new('cards', T.CARDS), self.frame.new('x', T.CARD)
        stmts = [c.Let(lst, c.ListLit([], T.CARDS, pos), pos)] + self.each(coll, x, lambda: [
            c.Assign(local_ref(lst, pos), c.Seq(local_expr(lst, pos), local_expr(x, pos), T.CARDS, pos),
                     pos)], pos)
        self.hoist(stmts, pos, what)
        return local_expr(lst, pos)

    def each(self, coll, var, body, pos):
        """Statements running body() with each element of coll in var, in order."""
        kind = type(coll)
        if kind is UnionColl:
            return [s for part in coll.parts for s in self.each(part, var, body, pos)]
        if kind is EachColl:
            g = coll.source

            def inner(who):
                part = self.bound(coll.var, Val(g.kind, who),
                                  lambda: self.typed(coll.body, CARDS).ir, coll.env)
                saved, saved_who = self.pre, self.each_who
                self.pre, self.each_who = [], who
                try:
                    stmts = self.each(part, var, body, pos)
                    return self.pre + stmts
                finally:
                    self.pre, self.each_who = saved, saved_who
            seats = self.seats_of(g, pos)
            if seats is not None:       # each seat's part in turn, read from its globals
                return [s for who in seats for s in inner(who)]
            who = self.frame.new('p', IR_TYPE[g.kind])
            keep = self.keep(g, who, pos)
            inside = inner(local_expr(who, pos))
            if keep is not None:
                inside = [c.If([(keep, inside)], pos)]
            return [c.For(who, g.items, None, inside, pos)]
        if kind is FilterColl:
            return self.each(coll.base, var, lambda: [c.If([(self.keep(coll, var, pos), body())], pos)],
                             pos)
        if kind is GroupColl:
            keep = self.keep(coll, var, pos)
            inside = body()
            return [c.For(var, coll.items, None, [c.If([(keep, inside)], pos)] if keep else inside, pos)]
        items = coll.items if kind is ListColl else as_expr(cards_of(coll.ref))
        return [c.For(var, items, None, body(), pos)]


def _names(e, name):
    """Does e name the Variable 'name anywhere?"""
    if type(e) is ast.Var:
        return e.name == name
    return any(_names(x, name) for x in children(e))


def joined(vals, word, pos):
    """One copy of an all/any's body per element, joined: Booleans by
    and/or (none: all holds, any does not), Integers summed by all; else None."""
    types = {x.type for x in vals}
    if types <= {BOOL}:
        return Val(BOOL, conj([x.ir for x in vals], 'and' if word == 'all' else 'or', pos))
    if types == {INT} and word == 'all':
        total = vals[0].ir
        for x in vals[1:]:
            total = binary(total, '+', x.ir, T.NUMBER, pos)
        return Val(INT, total)
    return None
