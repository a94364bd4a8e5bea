"""The RECYCLE checker: a Game (ast.py) to the checked program Pip's
checker makes (compiler/ir/checked.py), so that Pip's code generator and VM
run it unchanged.

The whole game runs in one action, `main`: first the setup (each deck's
cards into its location, each player's areas), then the game's flow, then
the scoring.  A stage is a `forever` loop with the player (team) whose turn
it is, and the one to go next, in two locals (docs/recycle.md, "Stages").
"""
import attrs

from compiler.ir import checked as c
from compiler.ir import types as T

from . import ast
from .cards import Cards, card_list
from .forms import (children, fixed_points, mentions_team, shown_at, summary, top_to_top,
                    varying_points)
from .expressions import Expressions, fail
from .places import Frame, Layout, as_expr, cards_of
from .plays import Plays
from .values import (CARD, CARDS, ELEMENT, INT, INTS, IR_TYPE, PLAYER, PLAYERS, STR, STRS, TEAM,
                     TEAMS, GroupColl, LocColl, Val, binary, conj, lit, local_expr, local_ref)


@attrs.define(slots=True)
class Cycle:
    kind: str                  # player or team
    cur: object                # the Local of whose turn it is
    nxt: object                # the Local of who goes next
    back: object = None        # the Local (Boolean) of a stage `(cycle next previous)`
                               # may reverse: true while turns go counter-clockwise
    nexts: int = 0             # statements and values made naming nxt (a cycle, (next ...))
    first_set: object = None   # (the first `cycle next` assignment made, nexts before it)


def check(game, name='RECYCLE game'):
    """The checked Program of a Game, or PipError."""
    return Checker(game, name).program()


class Checker(Expressions, Plays):
    def __init__(self, game, name):
        self.game, self.name = game, name
        self.cards = Cards()
        self.frame = Frame()
        self.env = {}
        self.stages = []
        self.points = {}
        self.pre, self.no_pre = [], None
        self.rule_reads = None         # in a rule: statements reading its card-free values first
        self.rule_held = None          # and the conditions of the option it is checking
        self.fixed_points = fixed_points(game)     # points maps a rule may read
        self.varying_points = varying_points(game)     # and those put again not alike
        self.owner_tests = []
        self.owners_known, self.each_who = [], None
        self.turns, self.turn_inits = {}, []
        self.rules = []
        self.labels = 0                # stages that end by a skip to a label of their own

    # --- the game ------------------------------------------------------------

    def program(self):
        g = self.game
        for var, value in g.declares:
            v = self.expr(value) if type(value) in (ast.Int, ast.Str, ast.StrColl) else Val(INT)
            if v.const is None:
                fail(value.pos, 'A declaration gives a constant: an Integer, a String or Strings')
            if var.name in self.env:
                fail(var.pos, "'%s is declared twice" % var.name)
            self.env[var.name] = v
        players, team_size, counts = self.seating(g.setup)
        self.layout = Layout(players, counts if team_size else 0)
        self.teams = bool(team_size)
        body = self.decks(g.setup)
        for part in g.flow:
            body += self.statement(part)
        body += self.scoring(g.scoring)
        self.finish()
        body = self.layout.prologue(g.pos) + self.turn_inits + body
        main = c.Action('main', self.frame.size, body, g.pos)
        return c.Program([self.name], [counts if team_size else players], team_size,
                         self.layout.globals, [main], self.rules, [], 0, g.pos, self.layout.owns)

    def seating(self, setup):
        """(players, team size, teams): RECYCLE's teams as Pip's, whose seats
        interleave the teams (team t: seats t, t + n, ...)."""
        v = self.typed(setup.players, INT) if type(setup.players) in (ast.Int, ast.Var) else None
        if v is None or v.const is None or not 1 <= v.const <= 64:
            fail(setup.players.pos, 'The number of players is a constant from 1 to 64')
        n = v.const
        teams = setup.teams
        if not teams:
            return n, 0, n
        seats = sorted(s for t in teams for s in t)
        if seats != list(range(n)):
            fail(setup.teams_pos, 'The teams must seat each of the %d players (0 to %d) once' % (n, n - 1))
        size = len(teams[0])
        if any(t != [m * len(teams) + k for m in range(size)] for k, t in enumerate(teams)):
            fail(setup.teams_pos, 'Teams sit alternately, each of the same size, as (0, 2) (1, 3): '
                 'the VM seats teams so')
        if size == 1:
            return n, 0, n             # teams of one are the players themselves
        return n, size, len(teams)

    def decks(self, setup):
        out = []
        for deck in setup.decks:
            keys = self.cards.add_deck(deck)
            v = self.expr(deck.loc)
            if deck.loc.owner.__class__ is not ast.GameOwner or deck.loc.vis == 'mem':
                fail(deck.loc.pos, 'A deck is created in a location of the game, as (game iloc STOCK)')
            tmp = self.frame.new('deck', T.CARDS)
            out += [c.Let(tmp, card_list(keys, deck.pos), deck.pos),
                    c.DealCards(None, local_ref(tmp, deck.pos), v.ir.ref, deck.pos)]
        return out

    def finish(self):
        """The owner of a card: the player holding it in any of its places."""
        for test, held, p, pos in self.owner_tests:
            who = as_expr(local_ref(p, pos))
            places = self.layout.locs['Player'].values()
            holds = [binary(local_expr(held, pos), 'in',
                            as_expr(cards_of(c.PropRef(who, prop, prop.type, pos))), T.BOOLEAN, pos)
                     for prop in places]
            cond, body = test.branches[0]
            test.branches[0] = (conj(holds, 'or', pos), body)
        if not any(own.owner == 'Player' for own in self.layout.mems):
            for search, known, stores in self.owners_known:
                search.branches = [(None, known)]     # each card is in one player's place
                for body, store in stores:      # and the card found is read by no one
                    body[:] = [x for x in body if x is not store]

    def scoring(self, s):
        """Each player (team) scored; the best alone wins, a tie is a draw."""
        kind = TEAM if mentions_team(s.expr) else PLAYER
        pos = s.pos
        t = IR_TYPE[kind]
        who, best, value, seen, tie = (self.frame.new('scored', t), self.frame.new('winner', t),
                                       self.frame.new('best', T.NUMBER), self.frame.new('seen', T.BOOLEAN),
                                       self.frame.new('tie', T.BOOLEAN))
        score = self.frame.new('score', T.NUMBER)

        def scored():
            """The statements setting score to who's."""
            self.stages.append(Cycle(kind.lower(), who, who))
            saved, self.pre = self.pre, []
            try:
                v = self.scalar(s.expr, INT)
                return self.pre + [c.Let(score, v, pos)]
            finally:
                self.pre = saved
                self.stages.pop()
        better = binary(local_expr(score, pos), '>' if s.word == 'max' else '<', local_expr(value, pos),
                        T.BOOLEAN, pos)
        keep = [c.Assign(local_ref(best, pos), local_expr(who, pos), pos),
                c.Assign(local_ref(value, pos), local_expr(score, pos), pos),
                c.Assign(local_ref(tie, pos), lit(False, T.BOOLEAN, pos), pos)]
        same = (binary(local_expr(score, pos), '==', local_expr(value, pos), T.BOOLEAN, pos),
                [c.Assign(local_ref(tie, pos), lit(True, T.BOOLEAN, pos), pos)])
        seats = self.seats_of(GroupColl(kind, self.group(kind, pos)), pos)
        if seats is not None:
            # written out seat by seat: the first seat's score is the best so far
            out = []
            for k, seat in enumerate(seats):
                out += [c.Let(who, seat, pos)] + scored() + (keep if k == 0 else [c.If([(better, keep), same],
                                                                                       pos)])
            return out + [c.If([(c.Not(local_expr(tie, pos), T.BOOLEAN, pos), [c.Winner(local_ref(best, pos),
                                                                                          pos)])], pos)]
        body = scored() + [c.If([
            (binary(c.Not(local_expr(seen, pos), T.BOOLEAN, pos), 'or', better, T.BOOLEAN, pos),
             keep + [c.Assign(local_ref(seen, pos), lit(True, T.BOOLEAN, pos), pos)]), same], pos)]
        return [c.Let(seen, lit(False, T.BOOLEAN, pos), pos), c.Let(tie, lit(False, T.BOOLEAN, pos), pos),
                c.For(who, self.group(kind, pos), None, body, pos),
                c.If([(conj([local_expr(seen, pos), c.Not(local_expr(tie, pos), T.BOOLEAN, pos)], 'and',
                            pos), [c.Winner(local_ref(best, pos), pos)])], pos)]

    # --- statements -------------------------------------------------------------

    def statement(self, a):
        """The checked statements of an action, after those computing its values."""
        saved, self.pre = self.pre, []
        try:
            out = getattr(self, 'st_' + type(a).__name__)(a)
            return self.pre + out
        finally:
            self.pre = saved

    def block(self, actions):
        return [s for a in actions for s in self.statement(a)]

    def st_Stage(self, s):
        kind = PLAYER if s.kind == 'player' else TEAM
        self.need_teams(kind, s.pos)
        t = IR_TYPE[kind]
        pos = s.pos
        cycle = Cycle(s.kind, self.frame.new('current', t), self.frame.new('next', t))
        outer = [x for x in self.stages if x.kind == s.kind]
        start = local_expr(outer[-1].cur if outer else self.game_turn(kind, pos), pos)
        first = [c.Let(cycle.cur, start, pos)]
        back = reverses(s)
        if back:
            cycle.back = self.frame.new('reversed', T.BOOLEAN)
            first.append(c.Let(cycle.back, lit(False, T.BOOLEAN, pos), pos))
        if not back and not _steers(s):
            return self.rotation(s, cycle, kind, start, outer)
        self.stages.append(cycle)
        try:
            end = self.statement_cond(s.end)
            turn = self.block(s.body)
            # who goes next, unless the turn sets it before anything names it
            # (Agram's round: the trick's winner, by `(cycle next (owner ...))`):
            # nothing named it before the first assignment, one of the turn's
            # statements (made in their order), so it always runs
            set_ = cycle.first_set
            sets = cycle.back is None and set_ is not None and set_[1] == 0 and any(x is set_[0] for x in turn)
            body = [] if sets else self.after(cycle, kind, pos)
            body = end[0] + [c.If([(end[1], [c.LoopExit('break', pos)])], pos)] + body + turn
            body.append(c.Assign(local_ref(cycle.cur, pos), local_expr(cycle.nxt, pos), pos))
        finally:
            self.stages.pop()
        after = [] if outer else [c.Assign(local_ref(self.game_turn(kind, pos), pos),
                                           local_expr(cycle.cur, pos), pos)]
        return first + [c.Forever(body, pos)] + after

    def rotation(self, s, cycle, kind, start, outer):
        """A stage whose turns nothing steers (no cycle in it, no `(next ...)`
        read) goes round the seats in order from the one it starts at: Pip's
        `for p in players starting at X` (the VM's rotation) inside a loop
        that starts it again, the current player (team) the loop's variable,
        and its end a skip past both loops."""
        pos = s.pos
        cycle.nxt = None
        self.labels += 1
        done = 'stage %d' % self.labels
        self.stages.append(cycle)
        try:
            end = self.statement_cond(s.end)
            body = end[0] + [c.If([(end[1], [c.Skip(done, pos)])], pos)] + self.block(s.body)
        finally:
            self.stages.pop()
        after = [] if outer else [c.Assign(local_ref(self.game_turn(kind, pos), pos),
                                           local_expr(cycle.cur, pos), pos)]
        return [c.Forever([c.For(cycle.cur, self.group(kind, pos), start, body, pos)], pos),
                c.Label(done, pos)] + after

    def after(self, cycle, kind, pos):
        """Statements setting who goes after the current player (team): the
        next seat clockwise, or counter-clockwise in a stage reversed."""
        ahead = self.neighbour(kind, local_expr(cycle.cur, pos), 'next', pos, into=cycle.nxt)
        if cycle.back is None:
            return ahead
        return [c.If([(local_expr(cycle.back, pos), self.neighbour(
            kind, local_expr(cycle.cur, pos), 'previous', pos, into=cycle.nxt)), (None, ahead)], pos)]

    def game_turn(self, kind, pos):
        """The game's own current player (team): where a stage at the top level
        starts, and what it leaves when it ends; seat 0 (the first team) at first."""
        if kind not in self.turns:
            t = IR_TYPE[kind]
            self.turns[kind] = self.frame.new('turn', t)
            self.turn_inits.append(c.Let(self.turns[kind], c.Ref(c.PropRef(
                self.group(kind, pos), c.ListProp('first', t), t, pos), t, pos), pos))
        return self.turns[kind]

    def statement_cond(self, e):
        """(statements computing its values, the checked condition)."""
        saved, self.pre = self.pre, []
        try:
            v = self.whole_cond(e)
            return self.pre, v
        finally:
            self.pre = saved

    def st_Do(self, d):
        return self.block(d.actions)

    def st_Conditional(self, a):
        cond = self.whole_cond(a.cond)
        return [c.If([(cond, self.statement(a.action))], a.pos)]

    def st_Pass(self, a):
        return []

    def st_Shuffle(self, a):
        coll = self.typed(a.coll, CARDS).ir
        if type(coll) is not LocColl or coll.vis == 'mem':
            fail(a.coll.pos, 'shuffle shuffles a location (not a memory)')
        return [c.Shuffle(cards_of(coll.ref), a.pos)]

    def st_IntAction(self, a):
        target = self.expr(a.target).ref
        value = self.scalar(a.value, INT)
        if a.op == 'set':
            return [c.Assign(target, value, a.pos)]
        return [c.Compound(target, '+' if a.op == 'inc' else '-', value, a.pos)]

    def destination(self, e, mem, word):
        """(location's reference, top or bottom) of a move's or remember's second card."""
        if type(e) is not ast.End or e.which not in ('top', 'bottom'):
            fail(e.pos, 'The second card of %s is (top LOCATION) or (bottom LOCATION)' % word)
        coll = self.typed(e.coll, CARDS).ir
        if type(coll) is not LocColl or (coll.vis == 'mem') != mem:
            fail(e.pos, '%s puts a card %s' % (word, 'in a memory (mem)' if mem else
                                              'in a location that is not a memory'))
        return coll.ref, e.which

    def st_Move(self, a):
        card = self.typed(a.card, CARD)
        if a.word == 'remember':
            ref, end = self.destination(a.dest, True, 'remember')
            ref = cards_of(ref)
            lst = as_expr(ref)
            new = c.Seq(card.ir, lst, T.CARDS, a.pos) if end == 'top' else c.Seq(lst, card.ir, T.CARDS, a.pos)
            return [c.Assign(ref, new, a.pos)]
        home = self.source(card, a.card.pos, 'move')
        ref, end = self.destination(a.dest, False, 'move')
        if end == 'top':
            return [c.DealCard(card.ir, home, ref, a.pos)]
        # to the bottom: out of its place, then after the last card
        scratch, held = self.frame.new('moved', T.CARDS), self.frame.new('card', T.CARD)
        lst = cards_of(ref)
        return [c.Let(held, card.ir, a.pos), c.Let(scratch, c.ListLit([], T.CARDS, a.pos), a.pos),
                c.DealCard(local_expr(held, a.pos), home, local_ref(scratch, a.pos), a.pos),
                c.Assign(lst, c.Seq(as_expr(lst), local_expr(held, a.pos), T.CARDS, a.pos), a.pos)]

    def source(self, card, pos, word):
        if card.home is None:
            fail(pos, 'Cannot tell which location this card is in: %s a card of a location, '
                 '(top LOCATION) or a variable over one' % word)
        if self.is_mem(card.home):
            if word == 'move':
                fail(pos, 'A card in a memory (mem) is a copy: forget it, do not move it')
        elif word == 'forget':
            fail(pos, 'forget forgets a card in a memory (mem)')
        return card.home

    def is_mem(self, ref):
        lay = self.layout
        if isinstance(ref, c.VarRef):
            return any(v is ref.var for (vis, _), v in lay.game_locs.items() if vis == 'mem') or \
                any(v is ref.var for v in lay.mem_areas)
        return getattr(ref, 'prop', None) in lay.mems

    def st_Forget(self, a):
        card = self.typed(a.card, CARD)
        home = self.source(card, a.card.pos, 'forget')
        scratch = self.frame.new('forgotten', T.CARDS)
        return [c.Let(scratch, c.ListLit([], T.CARDS, a.pos), a.pos),
                c.DealCard(card.ir, home, local_ref(scratch, a.pos), a.pos)]

    def st_Cycle(self, a):
        if type(a.target) is str:
            if not self.stages:
                fail(a.pos, 'cycle changes the turn order of a stage: it goes inside one')
            s = self.stages[-1]
            kind = PLAYER if s.kind == 'player' else TEAM
            s.nexts += a.target == 'next' or a.which == 'current' or a.target == 'previous'
            if a.which == 'next' and a.target == 'previous':
                # the play's direction reverses (docs/recycle.md, "Stages and turns")
                back = local_expr(s.back, a.pos)
                return [c.Assign(local_ref(s.back, a.pos), c.Not(back, T.BOOLEAN, a.pos), a.pos)] + \
                    self.after(s, kind, a.pos)
            who = {'current': local_expr(s.cur, a.pos), 'next': local_expr(s.nxt, a.pos)}.get(a.target)
            if who is None:
                who = self.neighbour(kind, local_expr(s.cur, a.pos), 'previous', a.pos)
        else:
            v = self.typed(a.target, PLAYER, TEAM)
            kind, who = v.type, v.ir
            s = self.stage_of('player' if kind == PLAYER else 'team', a.pos)
            s.nexts += a.which == 'current'
        if a.which == 'next':
            out = c.Assign(local_ref(s.nxt, a.pos), who, a.pos)
            if s.first_set is None:
                s.first_set = (out, s.nexts)
            s.nexts += 1
            return [out]
        return [c.Assign(local_ref(s.cur, a.pos), who, a.pos)] + self.after(s, kind, a.pos)

    def st_Repeat(self, a):
        if a.count is None or top_to_top(a.action):
            src = self.typed(a.action.card.coll, CARDS).ir if top_to_top(a.action) else None
            if src is None:
                fail(a.action.pos, 'repeat all moves (top LOCATION) to (top LOCATION)')
            dest, _ = self.destination(a.action.dest, False, 'move')
            if type(src) is not LocColl or src.vis == 'mem':
                fail(a.action.card.pos, 'repeat moves the top card of a location')
            count = None if a.count is None else self.scalar(a.count, INT)
            return [c.DealCards(count, src.ref, dest, a.pos)]
        count = self.scalar(a.count, INT)
        pos = a.pos
        n, i = self.frame.new('times', T.NUMBER), self.frame.new('i', T.NUMBER)
        body = [c.If([(binary(local_expr(i, pos), '>=', local_expr(n, pos), T.BOOLEAN, pos),
                       [c.LoopExit('break', pos)])], pos)]
        body += self.statement(a.action)
        body.append(c.Compound(local_ref(i, pos), '+', lit(1, T.NUMBER, pos), pos))
        return [c.Let(n, count, pos), c.Let(i, lit(0, T.NUMBER, pos), pos), c.Forever(body, pos)]

    def st_PutPoints(self, a):
        """A points map: its entries, each value and number computed now and
        kept.  A map put again not alike (forms.varying_points) keeps its
        entries in the variables of its first `put`, which every `put` sets:
        a card scores by the `put` that ran last, as in seed 001.  Its keys
        and written values stay those of the first."""
        name = a.var.name
        old = self.points.get(name)
        if name in self.env or (old is not None and len(old) != len(a.entries)):
            fail(a.var.pos, "'%s is already a variable or another points map" % name)
        varying = name in self.varying_points
        entries, out = [], []
        for k, entry in enumerate(a.entries):
            key, pos = entry.key, entry.pos
            if key not in self.cards.keys():
                fail(pos, 'No card of this game has the key %s' % key)
            was = old[k] if varying and old is not None else None
            v = self.typed(entry.value, STR)
            if was is not None and (key != was[0] or (v.att is None) != (type(was[1]) is str)
                                    or v.att is None and v.const != was[1]):
                fail(pos, "'%s is put again with other keys or values: its entry %d is (%s (%s))"
                     % (name, k + 1, was[0], was[1] if type(was[1]) is str else 'computed'))
            if v.att is not None:
                # the card read now and kept; one that does not exist (the
                # top of an empty location) is a value no card matches, as
                # its cardatt is "" (docs/recycle.md, Decisions)
                if was is not None:
                    held, present = was[1][1], was[1][2]
                else:
                    held = self.frame.new(name.lower(), T.CARD)
                    present = self.frame.new(name.lower(), T.BOOLEAN) \
                        if v.guard is not None or varying else None
                read = c.Let(held, v.att[1], pos)
                if present is not None:
                    guard = lit(True, T.BOOLEAN, pos) if v.guard is None else v.guard
                    out += [c.Let(present, guard, pos), c.If([(local_expr(present, pos), [read])], pos)]
                else:
                    out.append(read)
                v = (v.att[0], held, present)
            else:
                v = v.const
            n = self.typed(entry.points, INT)
            if n.const is None or varying:
                kept = was[2].ref.var if was is not None else self.frame.new(name.lower(), T.NUMBER)
                out.append(c.Let(kept, n.ir, pos))
                n = local_expr(kept, pos)
            else:
                n = n.ir
            entries.append((key, v, n))
        self.points[name] = entries
        return out

    def st_Let(self, a):
        v = self.expr(a.value)
        if v.const is None and v.type in (INT, CARD, PLAYER, TEAM):
            local = self.frame.new(a.var.name.lower(), IR_TYPE[v.type])
            stmts = [c.Let(local, v.ir, a.pos)]
            v = Val(v.type, local_expr(local, a.pos), home=v.home)
        elif v.const is None and v.type not in (CARDS, PLAYERS, TEAMS, STR):
            fail(a.value.pos, 'let names an Integer, a String, a Card, a Player, a Team or a collection')
        else:
            stmts = []
        return stmts + self.bound(a.var.name, v, lambda: self.statement(a.body))

    def st_Aggregate(self, a):
        if a.word == 'any':
            return self.st_Choice(ast.Choice([a], a.pos))
        v = self.expr(a.coll)
        if v.type in (STRS, INTS):
            elem = ELEMENT[v.type]
            return [s for x in v.const for s in self.bound(
                a.var.name, Val(elem, lit(x, T.NUMBER, a.pos) if elem == INT else None, const=x),
                lambda: self.statement(a.body))]
        if v.type not in (CARDS, PLAYERS, TEAMS):
            fail(a.coll.pos, 'Expected a collection after all; found %s' % v.type)
        elem = ELEMENT[v.type]
        seats = self.seats_of(v.ir, a.pos) if v.type != CARDS and _nodes(a.body) <= SMALL else None
        if seats is not None:           # a small body once per seat: no loop
            return [s for who in seats for s in self.bound(
                a.var.name, Val(elem, who), lambda: self.statement(a.body))]
        var = self.frame.new(a.var.name.lower(), IR_TYPE[elem])
        home = self.home_of(v.ir)
        return self.each(v.ir, var, lambda: self.bound(
            a.var.name, Val(elem, local_expr(var, a.pos), home=home),
            lambda: self.statement(a.body)), a.pos)

    # --- choices ----------------------------------------------------------------

    def st_Choice(self, ch):
        if not any(s.kind == 'player' for s in self.stages):
            fail(ch.pos, 'A choice is made by (current player): it goes inside a stage player')
        player = local_ref(self.stage_of('player', ch.pos).cur, ch.pos)
        play = self.as_play(ch)
        if play is not None:
            return play
        questions = []
        for o in ch.options:
            self.option(o, [], questions)
        if not questions:
            return []
        able = []
        for q in questions:
            if isinstance(q, c.ListQuestion):
                count = c.Aggregate('count', q.var, q.items, q.cond or lit(True, T.BOOLEAN, q.pos),
                                    T.NUMBER, q.pos)
                able.append(binary(count, '>', lit(0, T.NUMBER, q.pos), T.BOOLEAN, q.pos))
            else:
                able.append(q.cond or lit(True, T.BOOLEAN, q.pos))
        ask = c.Ask(player, questions, ch.pos)
        avail = conj(able, 'or', ch.pos)
        if type(avail) is c.Literal:
            return [ask] if avail.value else []
        return [c.If([(avail, [ask])], ch.pos)]

    def option(self, o, conds, out):
        """The questions of one option: its conditions so far in conds."""
        if type(o) is ast.Conditional:
            cond = self.no_hoist("a choice's condition", lambda: self.cond(o.cond))
            return self.option(o.action, conds + [cond], out)
        if type(o) is ast.Choice:
            for x in o.options:
                self.option(x, conds, out)
            return
        if type(o) is ast.Aggregate and o.word == 'any' and conds:
            # the conditions around an any hold or not before it offers its
            # elements (as CardStock checks them): computed once, first
            ok = self.frame.new('ok', T.BOOLEAN)
            self.pre.append(c.Let(ok, conj(conds, 'and', o.pos), o.pos))
            conds = [local_expr(ok, o.pos)]
        if type(o) is ast.Aggregate and o.word == 'any':
            q = self.list_question(o, conds)
            return out.extend(q) if type(q) is list else out.append(q)
        body = self.statement(o)
        cond = conj(conds, 'and', o.pos) if conds else None
        out.append(c.Question(self.describe(o, None), cond, body, o.pos))

    def list_question(self, a, conds):
        v = self.expr(a.coll)
        if v.type in (STRS, INTS):
            return self.written_out(a, v, conds)
        if v.type not in (CARDS, PLAYERS, TEAMS):
            fail(a.coll.pos, 'A choice of any is over cards, players or teams; found %s' % v.type)
        elem = ELEMENT[v.type]
        items, var, keep = self.flat(v.ir, a.pos, 'the cards of a choice')
        home = self.home_of(v.ir)

        def inside():
            body, more = a.body, []
            while type(body) is ast.Conditional:
                more.append(self.no_hoist("a choice's condition", lambda b=body: self.cond(b.cond)))
                body = body.action
            if type(body) is ast.Aggregate and body.word == 'any':
                fail(body.pos, 'A choice of any inside a choice of any is not supported yet')
            all_conds = conds + ([keep] if keep is not None else []) + more
            cond = conj(all_conds, 'and', a.pos) if all_conds else None
            stmts = self.statement(body)
            shown = shown_at(body, a.var.name)
            if shown is not None and elem == CARD:
                # a card that lands face up: everyone reads who played it where
                who = local_ref(self.stage_of('player', a.pos).cur, a.pos)
                stmts.append(c.Message(None, c.StrLiteral(
                    [who, ' plays ', local_ref(var, a.pos), ' to ' + shown], T.STRING, a.pos), a.pos))
            return c.ListQuestion(var, items, self.describe(body, (a.var.name, var)), cond, stmts, a.pos)
        return self.bound(a.var.name, Val(elem, local_expr(var, a.pos), home=home), inside)

    def written_out(self, a, v, conds, out=None):
        """A choice of any over Strings or a range: one option per element,
        labelled with it."""
        elem = ELEMENT[v.type]
        questions = []
        for x in v.const:
            def one(x=x):
                body, more = a.body, []
                while type(body) is ast.Conditional:
                    more.append(self.no_hoist("a choice's condition", lambda b=body: self.cond(b.cond)))
                    body = body.action
                cond = conj(conds + more, 'and', a.pos) if conds + more else None
                what = summary(body, None)
                text = [str(x).title() if elem == STR else str(x)] + ([' (%s)' % what] if what else [])
                return c.Question(text, cond, self.statement(body), a.pos)
            questions.append(self.bound(a.var.name, Val(elem, lit(x, T.NUMBER, a.pos) if elem == INT
                                                        else None, const=x), one))
        return questions

    def describe(self, a, var):
        """An option's label: its variable's value, and what the action does."""
        head = [local_ref(var[1], a.pos)] if var else []
        what = summary(a, var[0] if var else None)
        if head and what:
            return head + [' (%s)' % what]
        return head or [what or 'do it']


SMALL = 16        # syntax nodes: an action all over the players this small is written out per seat


def _nodes(e):
    return 1 + sum(_nodes(x) for x in children(e))


def _steers(stage):
    """Does anything in a stage change or read who goes next: a cycle, a
    `(next ...)`?"""
    todo = [stage]
    while todo:
        e = todo.pop()
        if type(e) is ast.Cycle or (type(e) is ast.Who and e.which == 'next'):
            return True
        todo += children(e)
    return False


def reverses(stage):
    """Does a `(cycle next previous)` of this stage's own (not of a stage
    inside it: that is the innermost there) reverse its turns?"""
    todo = list(stage.body)
    while todo:
        node = todo.pop()
        if type(node) is ast.Cycle and node.which == 'next' and node.target == 'previous':
            return True
        if type(node) is not ast.Stage:
            todo += children(node)
    return False
