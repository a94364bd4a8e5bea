"""The points of cards (a mixin of the checker, checker.py): `put points`
maps, `score ... using`, `sum ... using`, and the card of most (least)
points, `max ... using`, with the player it was found under when that is its
owner (`(owner (max (union (all player 'P ('P vloc TRICK))) using 'M))`)."""
from compiler.ir import checked as c
from compiler.ir import types as T

from . import ast
from .cards import RANKS
from .values import (CARD, CARDS, INT, PLAYER, STR, EachColl, UnionColl, Val, binary, fail, lit,
                     local_expr, local_ref)


class Points:
    # --- points --------------------------------------------------------------------

    def points_map(self, var):
        pm = self.points.get(var.name)
        if pm is None:
            fail(var.pos, "'%s is not a points map: (put points '%s ...) comes first" % (
                var.name, var.name))
        return pm

    def score(self, card, pm, pos, sure=False):
        """The points a card scores: the sum of the entries its attributes match.
        Where statements can go and the card surely exists (sure: reading it
        cannot fail, so computing it first changes nothing), they compute it:
        an `if` per entry, one chain for the entries of one key.  Elsewhere a
        count per entry adds it up."""
        if self.pre is not None and sure:
            total = self.frame.new('points', T.NUMBER)
            self.pre.extend(self.score_stmts(card, pm, total, pos))
            return local_expr(total, pos)
        base, pm = self.by_rank(card, pm, pos)
        x = self.frame.new('scored', T.CARD)
        one = c.ListLit([card], T.CARDS, pos)
        terms = [] if base is None else [base]
        for key, value, points in pm:
            test = self.has_value(local_expr(x, pos), key, value, pos) if type(value) is str else \
                self.same_string(Val(STR, att=(key, local_expr(x, pos))), _kept(value, pos), pos)
            if type(test) is c.Literal and not test.value:
                continue
            hit = c.Aggregate('count', x, one, test, T.NUMBER, pos)
            terms.append(binary(points, '*', hit, T.NUMBER, pos))
        if not terms:
            return lit(0, T.NUMBER, pos)
        total = terms[0]
        for t in terms[1:]:
            total = binary(total, '+', t, T.NUMBER, pos)
        return total

    def by_rank(self, card, pm, pos):
        """(a*rank + b, the other entries): the RANK entries of constant points
        as a line through most of the game's ranks, and the ranks off it as
        entries of their own (Agram's precedence: the rank, and 13 more for
        an ace).  (None, pm) if under three ranks have points."""
        points, rest = {}, []
        for key, value, n in pm:
            if key == 'RANK' and type(value) is str and value in RANKS and type(n) is c.Literal:
                points[RANKS[value]] = points.get(RANKS[value], 0) + n.value
            else:
                rest.append((key, value, n))
        ranks = sorted({RANKS[v] for v in self.cards.values('RANK')})
        if len(points) < 3 or not ranks:
            return None, pm
        p = [points.get(r, 0) for r in ranks]
        best = None
        # the rank as it is, or aces high (one ACE_HIGH: Agram's precedence is that line)
        for high in (False, True):
            xs = [14 if high and r == 1 else r for r in ranks]
            for i in range(len(ranks)):
                for j in range(i + 1, len(ranks)):
                    a, left = divmod(p[j] - p[i], xs[j] - xs[i])
                    if left:
                        continue
                    b = p[i] - a * xs[i]
                    off = [k for k, x in enumerate(xs) if a * x + b != p[k]]
                    if best is None or len(off) < len(best[2]):
                        best = (a, b, off, high, xs)
        if best is None or len(best[2]) * 2 >= len(ranks):
            return None, pm
        a, b, off, high, xs = best
        names = {n: name for name, n in RANKS.items()}
        rank = self.card_prop(card, 'rank', pos)
        if high:
            rank = c.AceHigh(rank, T.NUMBER, pos)
        line = rank if a == 1 else binary(lit(a, T.NUMBER, pos), '*', rank, T.NUMBER, pos)
        if b:
            line = binary(line, '+', lit(b, T.NUMBER, pos), T.NUMBER, pos)
        return line, [('RANK', names[ranks[k]], lit(p[k] - a * xs[k] - b, T.NUMBER, pos))
                      for k in off] + rest

    def score_stmts(self, card, pm, total, pos):
        out = []
        if type(card) is c.Ref and type(card.ref) is c.VarRef and type(card.ref.var) is c.Local:
            held = card.ref.var         # a local already: read as it is
        else:
            held = self.frame.new('scored', T.CARD)
            out.append(c.Let(held, card, pos))
        base, pm = self.by_rank(local_expr(held, pos), pm, pos)
        out.append(c.Let(total, base or lit(0, T.NUMBER, pos), pos))
        chain, chain_key = [], None
        for key, value, points in pm + [(None, None, None)]:
            if chain and (key != chain_key or type(value) is not str):
                out.append(c.If(chain, pos))
                chain = []
            if key is None:
                break
            x = local_expr(held, pos)
            test = self.has_value(x, key, value, pos) if type(value) is str else \
                self.same_string(Val(STR, att=(key, x)), _kept(value, pos), pos)
            if type(test) is c.Literal and not test.value:
                continue
            branch = (test, [c.Compound(local_ref(total, pos), '+', points, pos)])
            if type(value) is str:          # values of one key exclude each other: one chain
                chain.append(branch)
                chain_key = key
            else:
                out.append(c.If([branch], pos))
        return out

    def ex_Score(self, e):
        card = self.typed(e.card, CARD)
        sure = type(card.ir) is c.Ref and isinstance(card.ir.ref, c.VarRef)
        return Val(INT, self.score(card.ir, self.points_map(e.points), e.pos, sure))

    def ex_Sum(self, e):
        coll = self.typed(e.coll, CARDS).ir
        pm = self.points_map(e.points)
        items, var, keep = self.flat(coll, e.pos, 'sum ... using')
        body = self.score(local_expr(var, e.pos), pm, e.pos)
        if keep is not None:
            fail(e.pos, 'sum ... using adds the points of a location or of a union: filter it '
                 'with a condition in the points map instead')
        return Val(INT, c.Aggregate('sum', var, items, body, T.NUMBER, e.pos))


    def ex_Best(self, e):
        return self.best(e)[0]

    def best(self, e, track=False):
        """(the max (min) card, the Local of the player holding it or None,
        each (body, statement) keeping the card found).  track: find that
        player too, if the collection is each player's own location
        (`(union (all player 'P ('P vloc TRICK)))`), as Agram's
        `(owner (max ...))` asks; the checker's finish() drops the card's
        statements where the owner needs only the player."""
        coll = self.typed(e.coll, CARDS).ir
        pm = self.points_map(e.points)
        pos = e.pos
        best, value, found, x, v = (self.frame.new('best', T.CARD), self.frame.new('value', T.NUMBER),
                                    self.frame.new('found', T.BOOLEAN), self.frame.new('x', T.CARD),
                                    self.frame.new('v', T.NUMBER))
        holder = self.frame.new('holder', T.PLAYER) if track and _players_own(coll) else None
        better = binary(local_expr(v, pos), '>' if e.word == 'max' else '<', local_expr(value, pos),
                        T.BOOLEAN, pos)

        # Every card scores more than `beyond` (max; less, min) when each
        # entry's points are constants: starting from it, the first card is
        # better, and no card found leaves it (no flag to test a card).
        points = [n.value for _, _, n in pm if type(n) is c.Literal and type(n.value) is int]
        beyond = None if len(points) < len(pm) else \
            sum(min(0, n) for n in points) - 1 if e.word == 'max' else sum(max(0, n) for n in points) + 1

        stores = []

        def body():
            keep = [c.Assign(local_ref(best, pos), local_expr(x, pos), pos),
                    c.Assign(local_ref(value, pos), local_expr(v, pos), pos)]
            stores.append((keep, keep[0]))
            if beyond is None:
                keep.append(c.Assign(local_ref(found, pos), lit(True, T.BOOLEAN, pos), pos))
            if holder is not None:
                keep.append(c.Assign(local_ref(holder, pos), self.each_who, pos))
            test = better if beyond is not None else \
                binary(c.Not(local_expr(found, pos), T.BOOLEAN, pos), 'or', better, T.BOOLEAN, pos)
            return self.score_stmts(local_expr(x, pos), pm, v, pos) + [c.If([(test, keep)], pos)]
        if beyond is None:
            stmts = [c.Let(found, lit(False, T.BOOLEAN, pos), pos)] + self.each(coll, x, body, pos) + \
                [self.fail_unless(found, T.CARD, pos)]
        else:
            stmts = [c.Let(value, lit(beyond, T.NUMBER, pos), pos)] + self.each(coll, x, body, pos) + \
                [self.fail_unless(binary(local_expr(value, pos), '!=', lit(beyond, T.NUMBER, pos),
                                         T.BOOLEAN, pos), T.CARD, pos)]
        self.hoist(stmts, pos, '(%s ... using)' % e.word)
        return Val(CARD, local_expr(best, pos), home=self.home_of(coll)), holder, stores


def _players_own(coll):
    """Is coll each player's own location (no memory), one union of them:
    is the player a card is found under its owner?"""
    parts = coll.parts if type(coll) is UnionColl else [coll]
    return all(type(p) is EachColl and p.source.kind == PLAYER and type(p.body) is ast.Loc
               and p.body.vis != 'mem' and type(p.body.owner) is ast.Var and p.body.owner.name == p.var
               for p in parts)


def _kept(value, pos):
    """A points map's computed value (checker.st_PutPoints): the kept card's
    attribute, guarded by whether that card existed when the map was put."""
    key, held, present = value
    return Val(STR, att=(key, local_expr(held, pos)),
               guard=None if present is None else local_expr(present, pos))
