"""RECYCLE's reference interpreter: seed 001's semantics, walked on RECYCLE's
own syntax tree (compiler/recycle/ast.py), not on the checked program the
RECYCLE checker lowers it to.

It follows seed 001 section by section, with the decisions docs/recycle.md
takes where the seed is silent, in the plainest code that will do: a
location is a Python list (its top first), storage a dict, a stage a loop
over its players.  What the table is told follows docs/recycle.md too (a
choice that is a `play`, its labels, `X plays CARD to PLACE`), so the same
seed and the same answers give the transcript the VM gives when it runs the
lowered program: a difference is a fault in one of the two
(tests/test_recycle_reference.py).

It shares with the VM only the run-time objects (players, teams, cards),
the table and the random-number generator.  Steps are counted per turn of a
stage and per round of a `repeat`: the VM counts more (every loop of the
lowered program), so a game stopped by a step limit stops elsewhere here.
"""
from compiler.recycle import ast
from compiler.recycle.forms import (children, fixed_points, mentions_team, owner_kind, play_shapes,
                                   shown_at, summary, top_to_top)
from compiler.reference.told import play_event
from pipvm.core.dialogue import NO_WINNER, choice_question, won_by
from pipvm.core.errors import GameOver, PipError, StepLimit
from pipvm.core.runtime import Area, Card, Player, RANK_NAMES, Team, new_deck

RANKS = ('ACE', 'TWO', 'THREE', 'FOUR', 'FIVE', 'SIX', 'SEVEN', 'EIGHT', 'NINE', 'TEN',
         'JACK', 'QUEEN', 'KING')
EMPTY = "can't get item from empty list"


class Missing:
    """The top (bottom) of an empty collection: its attributes are the empty
    String, equal to no value; using it as a card is an error where it was written."""

    def __init__(self, pos):
        self.pos = pos


MISSING_VALUE = object()        # a card's attribute it lacks: equal to nothing


def fail(pos, message):
    raise PipError(pos, message)


def card(value):
    if type(value) is Missing:
        fail(value.pos, "Can't get item from empty list")
    return value


def text(value):
    if type(value) is Card:
        return '%s of %s' % (RANK_NAMES[value.born_rank], value.born_suit.name)
    if type(value) is Player:
        return value.name
    if type(value) is Team:
        return 'Team (%s)' % ', '.join(p.name for p in value.members)
    if isinstance(value, str):
        return value.title()
    return str(value)


class Stage:
    def __init__(self, kind, cur):
        self.kind, self.cur, self.nxt = kind, cur, cur
        self.step = 1               # clockwise; -1 once (cycle next previous) reversed it


class Interpreter:
    """One game of a RECYCLE program (a language.Recycled: the syntax tree and the name)."""

    def __init__(self, checked, table, rng, max_steps=None):
        self.game, self.name = checked.game, checked.name
        self.table, self.rng = table, rng
        self.max_steps = self.steps_left = max_steps
        self.over = None               # the GameOver that ended it, whose places pipvm sim reads
        self.deck = {(c.born_rank, c.born_suit.name[0].upper()): c for c in new_deck()}
        self.atts = {}                 # id(card) -> its {KEY: VALUE}
        self.locs = {}                 # (owner id, vis, name) -> list, top first
        self.areas = {}                # id(list) -> its Area, or None (hand, stash, memory)
        self.stos = {}
        self.points = {}
        self.stages, self.turns = [], {}
        self.env = {}
        self.stash_name = {}           # owner kind -> the name of its hloc that is its stash

    def step(self):
        if self.steps_left is not None:
            self.steps_left -= 1
            if self.steps_left < 0:
                raise StepLimit(self.max_steps)

    def play(self):
        winner = self.run()
        self.table.show(NO_WINNER if winner is None else won_by(winner))
        return winner

    def run(self):
        g = self.game
        self.table.banner(self.name)
        setup = g.setup
        for var, value in g.declares:
            self.env[var.name] = self.const(value)
        n = self.value(setup.players)
        teams = setup.teams
        size = len(teams[0]) if teams else 1
        if size > 1:
            self.players, self.teams = self.table.seat_teams([len(teams)], size)
        else:
            self.players, self.teams = self.table.seat_players([n]), []
        self.seated = list(self.players)    # every player by seat, as pipvm sim reads them
        self.find_stashes(g)
        try:
            for deck in setup.decks:
                made = [self.make(attrs) for attrs in deck.cards]
                dest = self.value(deck.loc)
                for c in made:              # dealt one at a time: the last made on top
                    dest.insert(0, c)
            for part in g.flow:
                self.do(part)
            self.scoring(g.scoring)
        except GameOver as over:
            self.over = over
            return over.winner
        return None

    def const(self, value):
        if type(value) is ast.StrColl:
            return [s.value for s in value.items]
        return value.value

    def make(self, attrs):
        c = self.deck[(RANKS.index(attrs['RANK']) + 1, attrs['SUIT'][0])]
        self.atts[id(c)] = attrs
        return c

    def find_stashes(self, g):
        """A player's (team's) stash is its first hloc in the program (docs/recycle.md)."""
        def walk(node):
            if isinstance(node, list):
                for x in node:
                    walk(x)
            elif hasattr(node, '__attrs_attrs__'):
                if type(node) is ast.Loc and node.vis == 'hloc':
                    kind = owner_kind(node.owner)
                    if kind is not None:
                        self.stash_name.setdefault(kind, node.name)
                for f in node.__attrs_attrs__:
                    walk(getattr(node, f.name))
        walk(g.setup)
        walk(g.flow)
        walk(g.scoring)

    # --- the scoring ------------------------------------------------------------

    def scoring(self, s):
        kind = 'team' if mentions_team(s.expr) else 'player'
        best, value, tie = None, None, False
        for who in (self.teams if kind == 'team' else self.players):
            self.stages.append(Stage(kind, who))
            try:
                score = self.value(s.expr)
            finally:
                self.stages.pop()
            if best is None or (score > value if s.word == 'max' else score < value):
                best, value, tie = who, score, False
            elif score == value:
                tie = True
        if best is not None and not tie:
            raise GameOver(text(best))

    # --- actions ----------------------------------------------------------------

    def do(self, a):
        getattr(self, 'do_' + type(a).__name__)(a)

    def do_Do(self, a):
        for x in a.actions:
            self.do(x)

    def do_Conditional(self, a):
        if self.value(a.cond):
            self.do(a.action)

    def do_Pass(self, a):
        pass

    def do_Stage(self, s):
        outer = [x for x in self.stages if x.kind == s.kind]
        group = self.group(s.kind)
        start = outer[-1].cur if outer else self.turns.get(s.kind, group[0])
        stage = Stage(s.kind, start)
        self.stages.append(stage)
        try:
            while True:
                if self.value(s.end):
                    break
                stage.nxt = self.neighbour(stage.cur, stage.step)
                for part in s.body:
                    self.do(part)
                stage.cur = stage.nxt
                self.step()
        finally:
            self.stages.pop()
        if not outer:
            self.turns[s.kind] = stage.cur

    def do_Shuffle(self, a):
        items = self.value(a.coll)
        # Fisher-Yates from the top index down, as the VM's shuffle
        for n in range(len(items), 1, -1):
            r = self.rng.int(n)
            items[n - 1], items[r] = items[r], items[n - 1]

    def do_IntAction(self, a):
        key = self.sto_key(a.target)
        value = self.value(a.value)
        old = self.sto_get(key)
        self.sto_set(key, value if a.op == 'set' else old + value if a.op == 'inc' else old - value)

    def do_Move(self, a):
        c = card(self.value(a.card))
        end = a.dest
        dest = self.value(end.coll)
        if a.word == 'move':
            home = self.home(c)
            home.remove(c)
        if end.which == 'top':
            dest.insert(0, c)
        else:
            dest.append(c)

    def home(self, c):
        for (owner, vis, name), cards in self.locs.items():
            if vis != 'mem' and any(x is c for x in cards):
                return cards
        raise AssertionError('a card in no location')

    def do_Forget(self, a):
        c = card(self.value(a.card))
        mem = self.value(a.card.coll) if type(a.card) is ast.End else \
            next(cards for (o, vis, n), cards in self.locs.items() if vis == 'mem' and c in cards)
        for i, x in enumerate(mem):
            if x is c:
                del mem[i]
                return

    def do_Cycle(self, a):
        if type(a.target) is str:
            s = self.stages[-1]
            if a.which == 'next' and a.target == 'previous':
                s.step = -s.step            # the play's direction reverses (docs/recycle.md)
                s.nxt = self.neighbour(s.cur, s.step)
                return
            who = {'current': s.cur, 'next': s.nxt}.get(a.target) or self.neighbour(s.cur, -1)
        else:
            who = self.value(a.target)
            kind = 'team' if type(who) is Team else 'player'
            s = [x for x in self.stages if x.kind == kind][-1]
        if a.which == 'next':
            s.nxt = who
        else:
            s.cur = who
            s.nxt = self.neighbour(who, s.step)

    def do_Repeat(self, a):
        if a.count is None or top_to_top(a.action):
            source = self.value(a.action.card.coll)
            dest = self.value(a.action.dest.coll)
            n = len(source) if a.count is None else self.value(a.count)
            if source is dest:
                return
            for _ in range(n):
                if not source:
                    return
                dest.insert(0, source.pop(0))
            return
        for _ in range(self.value(a.count)):
            self.do(a.action)
            self.step()

    def do_PutPoints(self, a):
        entries = []
        for e in a.entries:
            value = self.value(e.value)
            entries.append((e.key, value, self.value(e.points)))
        self.points[a.var.name] = entries

    def do_Let(self, a):
        self.bind(a.var.name, self.value(a.value), lambda: self.do(a.body))

    def do_Aggregate(self, a):
        if a.word == 'any':
            return self.do_Choice(ast.Choice([a], a.pos))
        for x in list(self.value(a.coll)):
            self.bind(a.var.name, x, lambda: self.do(a.body))

    def bind(self, name, value, fn):
        saved = self.env.get(name, self)
        self.env[name] = value
        try:
            return fn()
        finally:
            if saved is self:
                del self.env[name]
            else:
                self.env[name] = saved

    # --- choices ----------------------------------------------------------------

    def do_Choice(self, ch):
        player = [s for s in self.stages if s.kind == 'player'][-1].cur
        if self.as_play(ch, player):
            return
        options = []
        for o in ch.options:
            self.options(o, [], options)
        if not options:
            return                      # no option holds: skipped (docs/recycle.md)
        i = self.table.choose(player.seat, choice_question(player.name, 'action'),
                              [label for label, _ in options], "%s's choice" % player.name)
        options[i][1]()

    def holds(self, conds):
        return all(self.value(x) for x in conds)

    def options(self, o, conds, out):
        """The options of one option of a choice, offered if its conditions hold."""
        if type(o) is ast.Conditional:
            return self.options(o.action, conds + [o.cond], out)
        if type(o) is ast.Choice:
            for x in o.options:
                self.options(x, conds, out)
            return
        if type(o) is not ast.Aggregate or o.word != 'any':
            if self.holds(conds):
                out.append((summary(o, None) or 'do it', lambda: self.do(o)))
            return
        if conds and not self.holds(conds):     # checked once, before its elements
            return
        body, more = o.body, []
        while type(body) is ast.Conditional:
            more.append(body.cond)
            body = body.action
        items = self.value(o.coll)
        if items and isinstance(items[0], (str, int)) or type(o.coll) in (ast.StrColl, ast.Range):
            for x in items:
                if self.bind(o.var.name, x, lambda: self.holds(more)):
                    what = summary(body, None)
                    label = text(x) + (' (%s)' % what if what else '')
                    out.append((label, lambda x=x: self.bind(o.var.name, x, lambda: self.do(body))))
            return
        shown = shown_at(body, o.var.name)
        what = summary(body, o.var.name)
        for x in list(items):
            if self.bind(o.var.name, x, lambda: self.holds(more)):
                label = text(x) + (' (%s)' % what if what else '')

                def run(x=x):
                    self.bind(o.var.name, x, lambda: self.do(body))
                    if shown is not None and type(x) is Card:
                        who = [s for s in self.stages if s.kind == 'player'][-1].cur
                        self.table.show('%s plays %s to %s' % (who.name, text(x), shown))
                out.append((label, run))

    def as_play(self, ch, player):
        """A choice whose every option is an `any` over the current player's
        hand (or a filter of it) whose first action moves the card on top of
        one same location (not a memory), with conditions a rule can read:
        Pip's `play` (docs/recycle.md, "Choices").  The card chosen runs the
        rest of the first option that allowed it.  True if it was one."""
        shapes = play_shapes(ch)
        if shapes is None:
            return False
        for shape in shapes:
            local = {shape.option.var.name} | {f.var.name for f in shape.filters}
            if not all(rule_reads(x, local, self.declared, self.fixed_points) for x in shape.conds +
                       shape.inner + [f.cond for f in shape.filters]):
                return False        # the destination is the play's, found by the stage
        dest = self.value(shapes[0].first.dest.coll)
        allows = [self.allowed(shape, player) for shape in shapes]    # as the choice is made
        allowed = [x for x in player.hand if any(x in a for a in allows)]
        if not allowed:
            return True
        i = self.table.choose(player.seat, choice_question(player.name, 'card'),
                              [text(x) for x in allowed], "%s's choice" % player.name)
        c = allowed[i]
        player.hand.remove(c)
        dest.insert(0, c)
        c.last_played_by = player
        self.table.show_event(play_event(player, text(c), self.areas.get(id(dest))))
        shape = next(s for s, a in zip(shapes, allows) if c in a)
        self.bind(shape.option.var.name, c, lambda: [self.do(x) for x in shape.rest])
        return True

    def allowed(self, shape, player):
        """The cards of the hand one option of a `play` allows."""
        if not self.holds(shape.conds):
            return []
        out = []
        for x in list(player.hand):
            def ok(x=x):
                return all(self.bind(f.var.name, x, lambda f=f: self.value(f.cond))
                           for f in shape.filters) and self.holds(shape.inner)
            if self.bind(shape.option.var.name, x, ok):
                out.append(x)
        return out

    @property
    def declared(self):
        return {v.name for v, _ in self.game.declares}

    @property
    def fixed_points(self):
        return fixed_points(self.game)

    # --- owners, turns, places ----------------------------------------------------

    def group(self, kind):
        return self.teams if kind == 'team' else self.players

    def neighbour(self, who, step):
        group = self.group('team' if type(who) is Team else 'player')
        return group[(group.index(who) + step) % len(group)]

    def stage(self, kind):
        return [s for s in self.stages if s.kind == kind][-1]

    def loc(self, owner, vis, name):
        key = (id(owner) if owner is not None else None, vis, name)
        if key not in self.locs:
            kind = None if owner is None else 'player' if type(owner) is Player else 'team'
            area = None
            if kind == 'player' and vis == 'iloc':
                cards = owner.hand
            elif kind is not None and vis in ('iloc', 'hloc') and \
                    (kind == 'team' or self.stash_name.get(kind) == name):
                cards = owner.stash
            else:
                cards = []          # a memory's copies are visible to all (seed 001)
                area = Area(name.title(), cards, vis not in ('vloc', 'mem'), vis not in ('vloc', 'mem'))
            self.locs[key] = cards
            self.areas[id(cards)] = area
        return self.locs[key]

    def sto_key(self, e):
        owner = self.value(e.owner)
        return (owner, e.name)

    def sto_get(self, key):
        owner, name = key
        if name == 'SCORE' and owner is not None:
            return owner.score
        return self.stos.get((id(owner), name), 0)

    def sto_set(self, key, value):
        owner, name = key
        if name == 'SCORE' and owner is not None:
            owner.score = value
        else:
            self.stos[(id(owner), name)] = value

    # --- expressions --------------------------------------------------------------

    def value(self, e):
        return getattr(self, 'ex_' + type(e).__name__)(e)

    def ex_Int(self, e):
        return e.value

    def ex_Str(self, e):
        return e.value

    def ex_StrColl(self, e):
        return [s.value for s in e.items]

    def ex_Var(self, e):
        return self.env[e.name]

    def ex_Range(self, e):
        return list(range(self.value(e.low), self.value(e.high)))

    def ex_Arith(self, e):
        a, b = self.value(e.left), self.value(e.right)
        if e.op == '+':
            return a + b
        if e.op == '-':
            return a - b
        if e.op == '*':
            return a * b
        if b == 0:
            fail(e.pos, 'Division by zero')
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)      # toward zero (C#)
        return q if e.op == '//' else a - q * b

    def ex_Compare(self, e):
        a, b = self.value(e.left), self.value(e.right)
        if e.op in ('==', '!='):
            if a is MISSING_VALUE or b is MISSING_VALUE:
                same = False
            elif isinstance(a, int) or isinstance(a, str):
                same = a == b
            else:
                same = card(a) is card(b)
            return same if e.op == '==' else not same
        return {'<': a < b, '<=': a <= b, '>': a > b, '>=': a >= b}[e.op]

    def ex_Logic(self, e):
        if e.op == 'and':
            return all(self.value(x) for x in e.items)
        return any(self.value(x) for x in e.items)

    def ex_Not(self, e):
        return not self.value(e.expr)

    def ex_Aggregate(self, e):
        items = list(self.value(e.coll))
        results = (self.bind(e.var.name, x, lambda: self.value(e.body)) for x in items)
        kind = self.kind_of(e.body)
        if kind == 'bool':
            return all(results) if e.word == 'all' else any(results)
        if kind == 'int':
            return sum(results)
        return [x for r in results for x in r]

    def kind_of(self, e):
        """What an aggregate's body is: a Boolean, an Integer or a collection."""
        t = type(e)
        if t in (ast.Compare, ast.Logic, ast.Not):
            return 'bool'
        if t in (ast.Int, ast.Arith, ast.Size, ast.Score, ast.Sum, ast.Sto):
            return 'int'
        if t is ast.Aggregate:
            return self.kind_of(e.body)
        if t is ast.Var:
            v = self.env.get(e.name)
            return 'int' if type(v) is int else 'coll'
        return 'coll'

    def ex_GameOwner(self, e):
        return None

    def ex_Who(self, e):
        s = self.stage(e.kind)
        if e.which == 'current':
            return s.cur
        if e.which == 'next':
            return s.nxt
        return self.neighbour(s.cur, -1)

    def ex_Seat(self, e):
        i = self.value(e.index)
        group = self.group(e.kind)
        if not 0 <= i < len(group):
            fail(e.pos, "Can't get item from empty list")
        return group[i]

    def ex_Owner(self, e):
        c = card(self.value(e.card))
        for p in self.players:
            for (owner, vis, name), cards in self.locs.items():
                if owner == id(p) and any(x is c for x in cards):
                    return p
        fail(e.pos, "Can't get item from empty list")

    def ex_TeamOf(self, e):
        return self.value(e.player).team

    def ex_Everyone(self, e):
        return list(self.group(e.kind))

    def ex_Others(self, e):
        cur = self.stage(e.kind).cur
        return [x for x in self.group(e.kind) if x is not cur]

    def ex_Loc(self, e):
        return self.loc(self.value(e.owner), e.vis, e.name)

    def ex_Sto(self, e):
        return self.sto_get(self.sto_key(e))

    def ex_End(self, e):
        items = self.value(e.coll)
        if not items:
            return Missing(e.pos)
        return items[0] if e.which == 'top' else items[-1]

    def ex_Actual(self, e):
        return self.value(e.card)

    def ex_Best(self, e):
        best, value = None, None
        for x in list(self.value(e.coll)):
            v = self.score(x, e.points)
            if best is None or (v > value if e.word == 'max' else v < value):
                best, value = x, v              # a tie: the first (docs/recycle.md)
        if best is None:
            fail(e.pos, "Can't get item from empty list")
        return best

    def ex_Filter(self, e):
        return [x for x in list(self.value(e.coll)) if self.bind(e.var.name, x, lambda: self.value(e.cond))]

    def ex_Union(self, e):
        return [x for coll in e.colls for x in self.value(coll)]

    def ex_CardAtt(self, e):
        c = self.value(e.card)
        if type(c) is Missing:
            return MISSING_VALUE
        return self.atts[id(c)].get(self.value(e.key), MISSING_VALUE)

    def ex_Size(self, e):
        return len(self.value(e.coll))

    def score(self, c, points):
        total = 0
        for key, value, n in self.points[points.name]:
            if value is not MISSING_VALUE and self.atts[id(c)].get(key, MISSING_VALUE) == value:
                total += n
        return total

    def ex_Score(self, e):
        return self.score(card(self.value(e.card)), e.points)

    def ex_Sum(self, e):
        return sum(self.score(x, e.points) for x in self.value(e.coll))


def rule_reads(e, local, declared, points=frozenset()):
    """Can a rule (of the player, the card, the destination and the globals)
    read this condition?  Not the variables of a let or an enclosing all, nor
    what needs statements computed first (docs/recycle.md, "Choices"), nor a
    points map with a computed entry (points: those with none).  The
    checker answers this by trying (plays.py); this is the reference's own
    statement of it."""
    t = type(e)
    if t is ast.Var:
        return e.name in local or e.name in declared
    if t is ast.Sum or t is ast.Score:
        return e.points.name in points and rule_reads(e.coll if t is ast.Sum else e.card, local,
                                                       declared, points)
    if t is ast.Who and (e.which != 'current' or e.kind != 'player'):
        return False
    if t in (ast.Owner, ast.Best) or (t is ast.Seat and type(e.index) is not ast.Int):
        return False
    if t is ast.Aggregate or t is ast.Filter:
        local = local | {e.var.name}
    return all(rule_reads(x, local, declared, points) for x in children(e))
