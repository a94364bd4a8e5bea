"""The checker's part for the endings beyond `winner X.` (extensions, issue
55): `winners` (of a list), `loser`, `ranking`, players taken
out of the turn order and brought back (`out`, `back`), and aces high
(`Aces high.`: comparisons, max and min count an ace as 14).  A mixin of
checker.Checker; the run-time side is pipvm/core/endings.py."""
from compiler.ir import checked as c
from compiler.ir import types as T
from pipvm.core.endings import LOSERS, RANKING, WINNERS

from . import ast
from .checks import expect, expect_one_of, fail

ONE_OR_MORE = [T.PLAYER, T.TEAM, T.PLAYERS, T.TEAMS]
LISTS = [T.PLAYERS, T.TEAMS]
HOW = {'winners': (WINNERS, LISTS), 'loser': (LOSERS, ONE_OR_MORE), 'ranking': (RANKING, LISTS)}


class Endings:
    aces_high = False          # `Aces high.` declared (found before any rule is checked)

    def stmt_Ending(self, s, body):
        who, t = self.ref(s.who)
        if s.word in ('out', 'back'):
            expect(T.PLAYER, t, who.pos)
            return c.Turn(s.word == 'back', who, s.pos)
        how, types = HOW[s.word]
        expect_one_of(types, t, who.pos)
        return c.Finish(how, who, s.pos)

    def find_rank_order(self, decls):
        """Note `Aces high.` before any declaration is checked: one rank
        order for the whole program, wherever it stands."""
        orders = [d for d in decls if type(d) is ast.RankOrder]
        if len(orders) > 1:
            fail(orders[1].pos, 'The rank order is declared twice')
        self.aces_high = bool(orders) and orders[0].high

    def decl_RankOrder(self, d):
        pass

    def ace_high(self, x, t, pos):
        """x as aces high compare it, if it is a Rank and aces are high."""
        if self.aces_high and t == T.RANK:
            return c.AceHigh(x, T.NUMBER, pos)
        return x

