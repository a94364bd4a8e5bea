"""From S-expressions to RECYCLE's syntax tree: which form each list is.

A list's first item says what it is: a name (`move`, `top`, `all`), an
operator (`==`, `+`), an Integer (`(0 player)`, `(2 COLL)`), or an owner
followed by `vloc`/`iloc`/`hloc`/`mem`/`sto`.  In an action's place a list
whose first item is itself a list is a conditional action
`(CONDITION ACTION)`.  A form that matches none is a positioned error.
"""
import itertools

from ..errors import PipError
from . import ast
from .lexer import Atom
from .parser import SList, parse

VISIBILITIES = ('vloc', 'iloc', 'hloc', 'mem')
ARITH = ('+', '-', '*', '//', 'mod')
COMPARE = ('==', '!=', '<', '>', '<=', '>=')
WHO = ('current', 'next', 'previous')
KINDS = ('player', 'team')


def read(text):
    """The Game of a RECYCLE program's text."""
    forms = parse(text)
    if not forms:
        raise PipError((1, 1), 'Expected (game ...)')
    if len(forms) > 1:
        raise PipError(_pos(forms[1]), 'Nothing may follow the (game ...) form')
    return Reader().game(forms[0])


def _pos(x):
    return x.pos


def _head(x):
    """The first item of a list if it is a name or operator, else None."""
    if type(x) is SList and x.items and type(x.items[0]) is Atom and x.items[0].kind in ('name', 'symbol'):
        return x.items[0].value
    return None


def _is(x, kind, value=None):
    return type(x) is Atom and x.kind == kind and (value is None or x.value == value)


def fail(x, message):
    raise PipError(_pos(x), message)


class Reader:
    # --- the game --------------------------------------------------------------

    def game(self, form):
        if _head(form) != 'game':
            fail(form, 'Expected (game ...)')
        items = form.items[1:]
        declares = []
        while items and _head(items[0]) == 'declare':
            d = items.pop(0)
            self.arity(d, 3, '(declare VALUE \'NAME)')
            declares.append((self.var(d.items[2]), self.value(d.items[1])))
        if not items or _head(items[0]) != 'setup':
            fail(items[0] if items else form, 'Expected (setup ...) after the declarations')
        setup = self.setup(items.pop(0))
        if not items or _head(items[-1]) != 'scoring':
            fail(items[-1] if items else form, 'Expected (scoring max|min INTEGER) last in the game')
        scoring = items.pop()
        self.arity(scoring, 3, '(scoring max|min INTEGER)')
        word = scoring.items[1]
        if not (_is(word, 'name', 'max') or _is(word, 'name', 'min')):
            fail(word, 'Expected max or min after scoring')
        flow = [self.stage_part(x) for x in items]
        return ast.Game(declares, setup, flow, ast.Scoring(word.value, self.expr(scoring.items[2]),
                                                           scoring.pos), form.pos)

    def setup(self, form):
        players, teams, teams_pos, decks = None, [], None, []
        for x in form.items[1:]:
            self.setup_item(x, decks, 1)
            if _head(x) == 'create' and _is(x.items[1], 'name', 'players'):
                self.arity(x, 3, '(create players INTEGER)')
                players = self.expr(x.items[2])
            elif _head(x) == 'create' and _is(x.items[1], 'name', 'teams'):
                teams_pos = x.pos
                teams = [self.seats(t) for t in x.items[2:]]
        if players is None:
            fail(form, 'The setup needs (create players INTEGER)')
        if not decks:
            fail(form, 'The setup needs at least one (create deck LOCATION (deck ...))')
        return ast.Setup(players, teams, decks, form.pos, teams_pos)

    def setup_item(self, x, decks, times):
        if _head(x) == 'repeat' and len(x.items) == 3 and _is(x.items[1], 'int'):
            return self.setup_item(x.items[2], decks, times * x.items[1].value)
        if _head(x) != 'create' or len(x.items) < 2 or not _is(x.items[1], 'name'):
            fail(x, 'Expected (create players|teams|deck ...) in the setup')
        what = x.items[1].value
        if what == 'deck':
            self.arity(x, 4, '(create deck LOCATION (deck (KEY (VALUE, ...)) ...))')
            loc = self.expr(x.items[2])
            if type(loc) is not ast.Loc:
                fail(x.items[2], 'A deck is created in a location, as (game iloc STOCK)')
            cards = self.deck(x.items[3])
            decks.extend([ast.Deck(loc, cards, x.pos)] * times)
        elif what not in ('players', 'teams'):
            fail(x.items[1], 'Expected players, teams or deck after create')
        elif times != 1:
            fail(x, 'Only (create deck ...) may be repeated')

    def seats(self, t):
        if type(t) is not SList or not t.items or not all(_is(s, 'int') for s in t.items):
            fail(t, 'A team is a list of seats from 0, as (0, 2)')
        return [s.value for s in t.items]

    def deck(self, form):
        if _head(form) != 'deck' or len(form.items) < 2:
            fail(form, 'Expected (deck (KEY (VALUE, ...)) ...)')
        return [dict(c) for c in self.attributes(form.items[1:])]

    def attributes(self, attrs):
        """Every card the attributes make: one per combination of values."""
        return [sum(combo, ()) for combo in itertools.product(*map(self.attribute, attrs))]

    def attribute(self, a):
        if type(a) is not SList or len(a.items) < 2 or not _is(a.items[0], 'string'):
            fail(a, 'Expected (KEY (VALUE, ...)) in a deck')
        key, out = a.items[0].value, []
        for group in a.items[1:]:
            if type(group) is SList and all(_is(v, 'string') for v in group.items) and group.items \
                    and (group.commas or len(group.items) == 1):
                out += [((key, v.value),) for v in group.items]
            elif type(group) is SList and len(group.items) >= 2 and _is(group.items[0], 'string'):
                mine = ((key, group.items[0].value),)
                out += [mine + rest for rest in self.attributes(group.items[1:])]
            else:
                fail(group, 'Expected (VALUE, ...) or (VALUE (KEY (VALUE, ...))) in a deck')
        return out

    # --- game flow ---------------------------------------------------------------

    def stage_part(self, x):
        head = _head(x)
        if head == 'stage':
            return self.stage(x)
        if head in ('do', 'choice'):
            return self.action(x)
        fail(x, 'Expected (do ...), (choice ...) or (stage ...)')

    def stage(self, form):
        if len(form.items) < 3 or not (_is(form.items[1], 'name') and form.items[1].value in KINDS):
            fail(form, 'Expected (stage player|team (end CONDITION) ...)')
        end = form.items[2]
        if _head(end) != 'end' or len(end.items) != 2:
            fail(end, 'Expected (end CONDITION) after stage %s' % form.items[1].value)
        body = [self.stage_part(x) for x in form.items[3:]]
        return ast.Stage(form.items[1].value, self.expr(end.items[1]), body, form.pos)

    # --- actions -------------------------------------------------------------------

    def actions(self, form, word):
        if len(form.items) != 2 or type(form.items[1]) is not SList or \
                (form.items[1].items and _head(form.items[1]) is not None):
            fail(form, 'Expected (%s (ACTION ...)): its actions in one list' % word)
        return [self.action(a) for a in form.items[1].items]

    def action(self, x):
        if type(x) is not SList or not x.items:
            fail(x, 'Expected an action')
        first = x.items[0]
        if type(first) is SList:
            self.arity(x, 2, '(CONDITION ACTION)')
            return ast.Conditional(self.expr(first), self.action(x.items[1]), x.pos)
        head = _head(x)
        method = getattr(self, 'act_' + head, None) if head else None
        if method is None:
            fail(x, 'Expected an action; found (%s ...)' % first)
        return method(x)

    def act_do(self, x):
        return ast.Do(self.actions(x, 'do'), x.pos)

    def act_choice(self, x):
        return ast.Choice(self.actions(x, 'choice'), x.pos)

    def act_stage(self, x):
        return self.stage(x)

    def act_move(self, x):
        self.arity(x, 3, '(%s CARD CARD)' % x.items[0].value)
        return ast.Move(x.items[0].value, self.expr(x.items[1]), self.expr(x.items[2]), x.pos)

    act_remember = act_move

    def act_forget(self, x):
        self.arity(x, 2, '(forget CARD)')
        return ast.Forget(self.expr(x.items[1]), x.pos)

    def act_shuffle(self, x):
        self.arity(x, 2, '(shuffle COLLECTION)')
        return ast.Shuffle(self.expr(x.items[1]), x.pos)

    def act_set(self, x):
        word = x.items[0].value
        self.arity(x, 3, '(%s STORAGE INTEGER)' % word)
        target = self.expr(x.items[1])
        if type(target) is not ast.Sto:
            fail(x.items[1], 'Expected a storage, as (game sto NAME), to %s' % word)
        return ast.IntAction(word, target, self.expr(x.items[2]), x.pos)

    act_inc = act_dec = act_set

    def act_cycle(self, x):
        self.arity(x, 3, '(cycle next|current PLAYER)')
        which = x.items[1]
        if not (_is(which, 'name', 'next') or _is(which, 'name', 'current')):
            fail(which, 'Expected next or current after cycle')
        t = x.items[2]
        target = t.value if _is(t, 'name') and t.value in WHO else self.expr(t)
        return ast.Cycle(which.value, target, x.pos)

    def act_turn(self, x):
        if len(x.items) != 2 or not _is(x.items[1], 'name', 'pass'):
            fail(x, 'Expected (turn pass)')
        return ast.Pass(x.pos)

    def act_repeat(self, x):
        self.arity(x, 3, '(repeat INTEGER ACTION) or (repeat all (move ...))')
        if _is(x.items[1], 'name', 'all'):
            move = self.action(x.items[2])
            if type(move) is not ast.Move or move.word != 'move':
                fail(x.items[2], 'repeat all repeats a (move CARD CARD)')
            return ast.Repeat(None, move, x.pos)
        return ast.Repeat(self.expr(x.items[1]), self.action(x.items[2]), x.pos)

    def act_put(self, x):
        if len(x.items) != 4 or not _is(x.items[1], 'name', 'points') or type(x.items[3]) is not SList:
            fail(x, "Expected (put points 'NAME (((KEY (VALUE)) POINTS) ...))")
        entries = []
        for e in x.items[3].items:
            if type(e) is not SList or len(e.items) != 2 or type(e.items[0]) is not SList \
                    or len(e.items[0].items) != 2 or not _is(e.items[0].items[0], 'string'):
                fail(e, 'Expected ((KEY (VALUE)) POINTS) in a points map')
            key, value = e.items[0].items
            if type(value) is SList and len(value.items) == 1 and _is(value.items[0], 'string'):
                value = value.items[0]
            entries.append(ast.PointEntry(key.value, self.expr(value), self.expr(e.items[1]), e.pos))
        return ast.PutPoints(self.var(x.items[2]), entries, x.pos)

    def act_let(self, x):
        self.arity(x, 4, "(let VALUE 'NAME ACTION)")
        return ast.Let(self.expr(x.items[1]), self.var(x.items[2]), self.action(x.items[3]), x.pos)

    def act_all(self, x):
        self.arity(x, 4, "(%s COLLECTION 'NAME BODY)" % x.items[0].value)
        return ast.Aggregate(x.items[0].value, self.expr(x.items[1]), self.var(x.items[2]),
                             self.action(x.items[3]), x.pos)

    act_any = act_all

    # --- expressions ---------------------------------------------------------------

    def value(self, x):
        return self.expr(x)

    def var(self, x):
        if not _is(x, 'var'):
            fail(x, "Expected a variable, as 'P")
        return ast.Var(x.value, x.pos)

    def arity(self, x, n, shape):
        if type(x) is not SList or len(x.items) != n:
            fail(x, 'Expected ' + shape)

    def expr(self, x):
        if type(x) is Atom:
            if x.kind == 'int':
                return ast.Int(x.value, x.pos)
            if x.kind == 'string':
                return ast.Str(x.value, x.pos)
            if x.kind == 'var':
                return ast.Var(x.value, x.pos)
            if x.kind == 'name' and x.value in KINDS:
                return ast.Everyone(x.value, x.pos)
            if x.kind == 'name' and x.value == 'game':
                return ast.GameOwner(x.pos)
            fail(x, "Unexpected '%s'" % x.value)
        items = x.items
        if not items:
            fail(x, 'Unexpected ()')
        if all(_is(i, 'string') for i in items) and (x.commas or len(items) == 1):
            return ast.StrColl([ast.Str(i.value, i.pos) for i in items], x.pos)
        if len(items) in (2, 3) and _is(items[1], 'name') and items[1].value in VISIBILITIES + ('sto',):
            if len(items) != 3 or not _is(items[2], 'string'):
                fail(x, 'Expected (OWNER %s NAME), the NAME in upper case' % items[1].value)
            owner = self.expr(items[0])
            if items[1].value == 'sto':
                return ast.Sto(owner, items[2].value, x.pos)
            return ast.Loc(owner, items[1].value, items[2].value, x.pos)
        first = items[0]
        if type(first) is SList or first.kind in ('int', 'var'):
            if len(items) == 2 and _is(items[1], 'name') and items[1].value in KINDS:
                return ast.Seat(self.expr(first), items[1].value, x.pos)
            if len(items) == 2 and first.kind == 'int' if type(first) is Atom else False:
                return ast.End(self.expr(first), self.expr(items[1]), x.pos)
            fail(x, 'Expected an expression; found a list starting with %s' % (
                'a list' if type(first) is SList else first))
        word = first.value
        if word in ARITH:
            self.arity(x, 3, '(%s INTEGER INTEGER)' % word)
            return ast.Arith(word, self.expr(items[1]), self.expr(items[2]), x.pos)
        if word in COMPARE:
            self.arity(x, 3, '(%s A B)' % word)
            return ast.Compare(word, self.expr(items[1]), self.expr(items[2]), x.pos)
        method = getattr(self, 'ex_' + word, None) if first.kind == 'name' else None
        if method is None:
            fail(x, 'Expected an expression; found (%s ...)' % word)
        return method(x)

    def ex_and(self, x):
        if len(x.items) < 3:
            fail(x, 'Expected (%s BOOLEAN BOOLEAN ...)' % x.items[0].value)
        return ast.Logic(x.items[0].value, [self.expr(i) for i in x.items[1:]], x.pos)

    ex_or = ex_and

    def ex_not(self, x):
        self.arity(x, 2, '(not BOOLEAN)')
        return ast.Not(self.expr(x.items[1]), x.pos)

    def ex_all(self, x):
        self.arity(x, 4, "(%s COLLECTION 'NAME BODY)" % x.items[0].value)
        return ast.Aggregate(x.items[0].value, self.expr(x.items[1]), self.var(x.items[2]),
                             self.expr(x.items[3]), x.pos)

    ex_any = ex_all

    def ex_current(self, x):
        self.arity(x, 2, '(%s player) or (%s team)' % ((x.items[0].value,) * 2))
        if not (_is(x.items[1], 'name') and x.items[1].value in KINDS):
            fail(x.items[1], 'Expected player or team after %s' % x.items[0].value)
        return ast.Who(x.items[0].value, x.items[1].value, x.pos)

    ex_next = ex_previous = ex_current

    def ex_other(self, x):
        self.arity(x, 2, '(other player) or (other team)')
        if not (_is(x.items[1], 'name') and x.items[1].value in KINDS):
            fail(x.items[1], 'Expected player or team after other')
        return ast.Others(x.items[1].value, x.pos)

    def ex_owner(self, x):
        self.arity(x, 2, '(owner CARD)')
        return ast.Owner(self.expr(x.items[1]), x.pos)

    def ex_team(self, x):
        self.arity(x, 2, '(team PLAYER)')
        return ast.TeamOf(self.expr(x.items[1]), x.pos)

    def ex_top(self, x):
        self.arity(x, 2, '(%s COLLECTION)' % x.items[0].value)
        return ast.End(x.items[0].value, self.expr(x.items[1]), x.pos)

    ex_bottom = ex_top

    def ex_max(self, x):
        if len(x.items) != 4 or not _is(x.items[2], 'name', 'using'):
            fail(x, "Expected (%s COLLECTION using 'POINTS)" % x.items[0].value)
        return ast.Best(x.items[0].value, self.expr(x.items[1]), self.var(x.items[3]), x.pos)

    ex_min = ex_max

    def ex_actual(self, x):
        self.arity(x, 2, '(actual CARD)')
        return ast.Actual(self.expr(x.items[1]), x.pos)

    def ex_filter(self, x):
        self.arity(x, 4, "(filter COLLECTION 'NAME BOOLEAN)")
        return ast.Filter(self.expr(x.items[1]), self.var(x.items[2]), self.expr(x.items[3]), x.pos)

    def ex_union(self, x):
        return ast.Union([self.expr(i) for i in x.items[1:]], x.pos)

    def ex_tuples(self, x):
        if len(x.items) != 5 or not _is(x.items[3], 'name', 'using'):
            fail(x, "Expected (tuples INTEGER COLLECTION using 'POINTS)")
        return ast.Tuples(self.expr(x.items[1]), self.expr(x.items[2]), self.var(x.items[4]), x.pos)

    def ex_cardatt(self, x):
        self.arity(x, 3, '(cardatt KEY CARD)')
        return ast.CardAtt(self.expr(x.items[1]), self.expr(x.items[2]), x.pos)

    def ex_size(self, x):
        self.arity(x, 2, '(size COLLECTION)')
        return ast.Size(self.expr(x.items[1]), x.pos)

    def ex_score(self, x):
        if len(x.items) != 4 or not _is(x.items[2], 'name', 'using'):
            fail(x, "Expected (score CARD using 'POINTS)")
        return ast.Score(self.expr(x.items[1]), self.var(x.items[3]), x.pos)

    def ex_sum(self, x):
        if len(x.items) != 4 or not _is(x.items[2], 'name', 'using'):
            fail(x, "Expected (sum COLLECTION using 'POINTS)")
        return ast.Sum(self.expr(x.items[1]), self.var(x.items[3]), x.pos)

    def ex_range(self, x):
        if len(x.items) != 4 or not _is(x.items[2], 'symbol', '..'):
            fail(x, 'Expected (range LOW .. HIGH)')
        return ast.Range(self.expr(x.items[1]), self.expr(x.items[3]), x.pos)
