"""The checker: resolves names and checks types, producing the checked AST.

It follows the reference's semantic analysis step by step, so that the first
error found, and its position, are the reference's.  Expression checks
return (checked expression, type, position), where the position is the one
the reference reports for that expression (its leftmost operand's).
"""
from pipvm.core.runtime import RANK_NAMES

from . import ast, extensions
from compiler.ir import checked as c
from compiler.ir import types as T
from ..errors import PipError
from .calls import Calls
from .endings import Endings
from .rule_params import RuleParams
from .checks import (_BUILTINS, RULE, Body, area_options, expect, expect_list, expect_one_of,
                     expect_unique, fail)
from .groups import Groups, fixed_areas

RANK_WORDS = {name: n for n, name in enumerate(RANK_NAMES) if name}   # extension: `Four`

_ARITH = {'+', '-', '*', '/'}
_ORDER = {'<', '<=', '>', '>='}


DEAL_FROM = [T.CARDS, T.PLAYER, T.AREA]
DEAL_TO = [T.CARDS, T.PLAYER, T.PLAYERS, T.AREA]
PLAY_TO = DEAL_FROM
MESSAGE_TO = [T.PLAYER, T.PLAYERS, T.TEAM]
WINNER = [T.PLAYER, T.TEAM]


class Checker(Calls, Endings, RuleParams, Groups):
    def __init__(self, strict=False):
        self.strict = strict   # note the extensions the parser cannot tell (rank words)
        self.rank_words = []   # strict: (position, word) of each, for extensions.refuse
        self.scopes = [{}]     # innermost last; [0] holds the globals
        self.actions, self.rules, self.orderings = {}, {}, {}
        self.set_rules = set()  # the rules over sets of cards (extension), by index
        self.owns = {}         # (owner type, name) -> c.Own: the extension's per-player values
        self.init_frame = Body()   # the initialisers' locals
        self.frame = self.init_frame   # the Body of the code being checked (its locals)
        self.signatures = {}   # extension: action name -> (index, parameter types, result type)
        self.rule_params = {}  # extension: rule name -> its parameters' hidden globals
        self.program = c.Program([], [], 0, [], [], [], [], -1, None)

    # --- names --------------------------------------------------------------

    def lookup(self, name, pos):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        fail(pos, "Unknown identifier '%s'" % name)

    def declare(self, name, var, pos):
        expect_unique(self.scopes[-1], name, pos, 'Variable')
        self.scopes[-1][name] = var

    def find(self, table, kind, name, pos):
        if name not in table:
            fail(pos, "Unknown %s '%s'" % (kind, name))
        return table[name]

    # --- references and expressions ----------------------------------------

    def ref(self, r):
        """(checked reference, type); the reference's position is r.pos."""
        kind = type(r)
        if kind is ast.Id:
            var = self.lookup(r.name, r.pos)
            return c.VarRef(var, var.type, r.pos), var.type
        if kind is ast.Prop:
            obj, t, _ = self.expr(r.obj)
            prop = self.prop(t, r.name, r.pos)
            return c.PropRef(obj, prop, prop.type, r.pos), prop.type
        if kind is ast.NewGroup:             # extension (groups.py)
            return self.new_group(r)
        name, t = _BUILTINS[kind]
        return c.VarRef(c.Builtin(name, t), t, r.pos), t

    def prop(self, t, name, pos):
        if isinstance(t, T.ListOf):
            if name in c.LIST_PROPS:
                return c.ListProp(name, T.NUMBER if name == 'size' else t.elem)
        else:
            for index, (owner, field, field_type) in enumerate(c.FIELDS):
                if owner == t and field == name:
                    return c.Field(t, index, name, field_type)
            if (t, name) in self.owns:
                return self.owns[t, name]
        fail(pos, "Type %s has no property named '%s'" % (t, name))

    def opt_ref(self, r):
        return (None, T.EMPTY) if r is None else self.ref(r)

    def string(self, parts):
        out = []
        for part in parts:
            if isinstance(part, ast.StrLit):
                out.append(part.text)
                continue
            r, t = self.ref(part.ref)
            if t == T.AREA:
                self.area_in_string(r.pos)
            elif t not in T.STRINGABLE:
                fail(r.pos, "Can't convert %s to a String" % t)
            out.append(r)
        return out

    def expr(self, e):
        """(checked expression, type, the reference's position for it)."""
        return getattr(self, 'expr_' + type(e).__name__)(e)

    def opt_expr(self, e):
        return (None, T.EMPTY, None) if e is None else self.expr(e)

    def expr_Not(self, e):
        x, t, p = self.expr(e.expr)
        expect(T.BOOLEAN, t, p)
        return c.Not(x, T.BOOLEAN, e.pos), T.BOOLEAN, e.pos

    def expr_Binary(self, e):
        left, t1, p1 = self.expr(e.left)
        right, t2, p2 = self.expr(e.right)
        op = e.op
        if op in _ARITH or op in _ORDER:
            expect(T.NUMBER, t1, p1)
            expect(T.NUMBER, t2, p2)
            if op in _ORDER:        # extension: `Aces high.`
                left, right = self.ace_high(left, t1, p1), self.ace_high(right, t2, p2)
            result = T.NUMBER if op in _ARITH else T.BOOLEAN
        elif op in ('==', '!='):
            expect(t1, t2, p2)
            if t1 == T.AREA:
                fail(p1, 'Invalid type Area for comparison')
            result = T.BOOLEAN
        elif op in ('and', 'or'):
            expect(T.BOOLEAN, t1, p1)
            expect(T.BOOLEAN, t2, p2)
            result = T.BOOLEAN
        else:  # in
            elem = expect_list(t2, p2)
            if elem == T.CARD:
                expect_one_of([T.CARD, T.RANK, T.SUIT], t1, p1)
            else:
                expect(elem, t1, p1)
            result = T.BOOLEAN
        return c.Binary(left, op, right, result, e.pos), result, p1

    def expr_Defined(self, e):
        r, _ = self.ref(e.ref)
        return c.Defined(r, T.BOOLEAN, e.pos), T.BOOLEAN, e.pos

    def expr_CanPlay(self, e):
        rule = self.find(self.rules, 'rule', e.rule, e.pos)
        binds = self.rule_args(e.rule, e.args, e.pos)
        player, dest = self.play_refs(e.player, e.dest)
        node = c.CanPlaySet if rule in self.set_rules else c.CanPlay
        return node(rule, player, dest, T.BOOLEAN, e.pos, binds), T.BOOLEAN, e.pos

    def play_refs(self, player, dest):
        player, t1 = self.ref(player)
        expect(T.PLAYER, t1, player.pos)
        dest, t2 = self.ref(dest)
        expect_one_of(PLAY_TO, t2, dest.pos)
        return player, dest

    def expr_CardExpr(self, e):
        rank, t1, p1 = self.expr(e.rank)
        suit, t2, p2 = self.expr(e.suit)
        expect_one_of([T.RANK, T.RANKS], t1, p1)
        expect_one_of([T.SUIT, T.SUITS], t2, p2)
        t = T.CARD if t1 in (T.RANK, T.NUMBER) and t2 == T.SUIT else T.CARDS
        return c.CardExpr(rank, suit, t, e.pos), t, p1

    def expr_RangeExpr(self, e):
        low, t1, p1 = self.expr(e.low)
        high, t2, p2 = self.expr(e.high)
        expect(T.RANK, t1, p1)
        expect(T.RANK, t2, p2)
        return c.Range(low, high, T.RANKS, e.pos), T.RANKS, p1

    def expr_SeqExpr(self, e):
        left, t1, p1 = self.expr(e.left)
        right, t2, p2 = self.expr(e.right)
        elem1, elem2 = T.elem(t1), T.elem(t2)
        expect_one_of([T.RANK, T.SUIT], elem1, p1)
        expect_one_of([T.RANK, T.SUIT], elem2, p2)
        expect(elem1, elem2, p2)
        t = T.ListOf(elem1)
        return c.Seq(left, right, t, e.pos), t, p1

    def expr_WildRank(self, e):
        suit, t, p = self.expr(e.suit)
        expect_one_of([T.SUIT, T.SUITS], t, p)
        return c.WildRank(suit, T.CARDS, e.pos), T.CARDS, e.pos

    def expr_WildSuit(self, e):
        rank, t, p = self.expr(e.rank)
        expect_one_of([T.RANK, T.RANKS], t, p)
        return c.WildSuit(rank, T.CARDS, e.tilde), T.CARDS, p

    def expr_WildCard(self, e):
        return c.WildCard(T.CARDS, e.pos), T.CARDS, e.pos

    def expr_ListExpr(self, e):
        items, elem = [], T.EMPTY
        for item in e.items:
            x, t, p = self.expr(item)
            expect(elem, T.elem(t), p)
            elem = T.elem(t)        # the reference keeps the last item's type
            items.append(x)
        t = T.ListOf(elem)
        return c.ListLit(items, t, e.pos), t, e.pos

    def expr_RefExpr(self, e):
        word = self.rank_word(e.ref)
        if word is not None:
            return self.literal(word, T.RANK, e.pos)
        r, t = self.ref(e.ref)
        return c.Ref(r, t, e.pos), t, e.pos

    def rank_word(self, r):
        """Extension: `Four` (and Ace ... King) is a Rank that prints as its
        name, where no variable of that name is in scope (a 2008 program meant
        nothing by it): its number, or None."""
        if type(r) is not ast.Id or r.name not in RANK_WORDS:
            return None
        if any(r.name in scope for scope in self.scopes):
            return None
        if self.strict:
            self.rank_words.append((r.pos, "'%s' (a Rank word)" % r.name))
        return RANK_WORDS[r.name]

    def literal(self, value, t, pos):
        return c.Literal(value, t, pos), t, pos

    def expr_BoolLit(self, e):
        return self.literal(e.value, T.BOOLEAN, e.pos)

    def expr_NumLit(self, e):
        return self.literal(e.value, T.NUMBER, e.pos)

    def expr_RankLit(self, e):
        return self.literal(e.value, T.RANK, e.pos)

    def expr_SuitLit(self, e):
        return self.literal(e.value, T.SUIT, e.pos)

    def expr_StringLit(self, e):
        return c.StrLiteral(self.string(e.parts), T.STRING, e.pos), T.STRING, e.pos

    # --- statements ---------------------------------------------------------

    def block(self, stmts, body):
        """Check a block in a new scope; its unresolved skips join the outer ones."""
        outer = body.skips
        body.skips = {}
        self.scopes.append({})
        try:
            out = [getattr(self, 'stmt_' + type(s).__name__)(s, body) for s in stmts]
        finally:
            self.scopes.pop()
        inner, body.skips = body.skips, dict(outer)
        body.skips.update(inner)
        return out

    def stmt_Ask(self, s, body):
        player, t = self.ref(s.player)
        expect(T.PLAYER, t, player.pos)
        questions = []
        for q in s.questions:
            if isinstance(q, ast.ListQuestion):
                questions.append(self.list_question(q, body))
                continue
            text = self.string(q.text)
            cond = None
            if q.cond is not None:
                cond, t, p = self.expr(q.cond)
                expect(T.BOOLEAN, t, p)
            questions.append(c.Question(text, cond, self.block(q.body, body), q.pos))
        return c.Ask(player, questions, s.pos)

    def list_question(self, q, body):
        """Extension: `for x in ITEMS "text" [if cond] { ... }`, one option per
        item: x is bound in the text, the condition and the branch."""
        items, t, p = self.expr(q.items)
        elem = expect_list(t, p)
        var = body.new_local(q.name, elem)
        self.scopes.append({q.name: var})
        try:
            text = self.string(q.text)
            cond = None
            if q.cond is not None:
                cond, t, p = self.expr(q.cond)
                expect(T.BOOLEAN, t, p)
            return c.ListQuestion(var, items, text, cond, self.block(q.body, body), q.pos)
        finally:
            self.scopes.pop()

    def stmt_Assign(self, s, body):
        target, t1 = self.ref(s.target)
        value, t2, _ = self.expr(s.value)
        expect(t1, t2, target.pos)
        writable(target)
        return c.Assign(target, value, s.pos)

    def stmt_Compound(self, s, body):
        target, t1 = self.ref(s.target)
        expect(T.NUMBER, t1, target.pos)
        value, t2, p = self.expr(s.value)
        expect(T.NUMBER, t2, p)
        writable(target)
        return c.Compound(target, s.op, value, s.pos)

    def stmt_Deal(self, s, body):
        count, t, p = self.opt_expr(s.count)
        expect_one_of([T.NUMBER, T.CARD], t, p)
        source, t1 = self.ref(s.source)
        expect_one_of(DEAL_FROM, t1, source.pos)
        dest, t2 = self.ref(s.dest)
        expect_one_of(DEAL_TO, t2, dest.pos)
        if t == T.CARD:
            if t2 == T.PLAYERS:
                fail(s.pos, "Can't deal a single Card to a PlayerList")
            return c.DealCard(count, source, dest, s.pos)
        return c.DealCards(count, source, dest, s.pos)

    def stmt_Forever(self, s, body):
        return c.Forever(self.loop(s.body, body), s.pos)

    def loop(self, stmts, body):
        body.loops += 1
        try:
            return self.block(stmts, body)
        finally:
            body.loops -= 1

    def stmt_LoopExit(self, s, body):
        if not body.loops:
            fail(s.pos, "'%s' is not inside a 'for' or 'forever' loop" % s.word)
        return c.LoopExit(s.word, s.pos)

    def stmt_For(self, s, body):
        items, t1, p1 = self.expr(s.items)
        elem = expect_list(t1, p1)
        start, t2, p2 = self.opt_expr(s.start)
        expect(elem, t2, p2)
        var = body.new_local(s.name, elem)
        self.scopes.append({s.name: var})
        try:
            block = self.loop(s.body, body)
        finally:
            self.scopes.pop()
        return c.For(var, items, start, block, s.pos)

    def stmt_If(self, s, body):
        branches = []
        for cond, stmts in s.branches:
            x, t, p = self.opt_expr(cond)
            expect(T.BOOLEAN, t, p)
            branches.append((x, self.block(stmts, body)))
        return c.If(branches, s.pos)

    def stmt_Invoke(self, s, body):
        if s.args is None and s.name not in self.signatures:
            return c.Invoke(self.find(self.actions, 'action', s.name, s.pos), s.pos)
        index, args, gives = self.call(s.name, s.args or [], s.pos)
        return c.Invoke(index, s.pos, args, gives)

    def stmt_Label(self, s, body):
        expect_unique(body.labels, s.name, s.pos, 'Label')
        if s.name not in body.skips:
            fail(s.pos, 'Unused label')
        del body.skips[s.name]
        body.labels[s.name] = s.pos
        return c.Label(s.name, s.pos)

    def stmt_Let(self, s, body):
        if body.skips:
            fail(s.pos, "Can't skip past Let")
        value, t, _ = self.expr(s.value)
        var = body.new_local(s.name, t)
        self.declare(s.name, var, s.pos)
        return c.Let(var, value, s.pos)

    def stmt_Message(self, s, body):
        try:
            to, t1 = self.opt_ref(s.to)
        except PipError as e:
            # `message f(x).` reads f as the addressee, as 2008 Pip does
            if type(s.to) is ast.Id and s.to.name in self.signatures:
                e.hint = ('"message NAME (...)" sends to NAME: for an action\'s result, '
                          'put the call in brackets, "message (%s(...))."' % s.to.name)
            raise
        expect_one_of(MESSAGE_TO, t1, s.pos)
        text, t2, p = self.expr(s.text)
        expect(T.STRING, t2, p)
        return c.Message(to, text, s.pos)

    def stmt_Order(self, s, body):
        target, t = self.ref(s.target)
        expect(T.CARDS, t, target.pos)
        ordering = self.find(self.orderings, 'ordering', s.ordering, s.pos)
        return c.Order(target, ordering, s.pos)

    def stmt_Play(self, s, body):
        rule = self.find(self.rules, 'rule', s.rule, s.pos)
        binds = self.rule_args(s.rule, s.args, s.pos)
        player, dest = self.play_refs(s.player, s.dest)
        if rule in self.set_rules:
            return c.PlaySet(rule, player, dest, None, s.pos, binds=binds)
        return c.Play(rule, player, dest, s.pos, binds)

    def stmt_PlayOrPass(self, s, body):
        """Extension: `play RULE from P to DEST or pass { ... }`: a set of cards,
        or a pass (the block runs)."""
        rule = self.find(self.rules, 'rule', s.rule, s.pos)
        binds = self.rule_args(s.rule, s.args, s.pos)
        player, dest = self.play_refs(s.player, s.dest)
        label = None if s.label is None else self.string(s.label)
        # (a card rule: its single cards, or the pass)
        return c.PlaySet(rule, player, dest, self.block(s.passing, body), s.pos, label,
                         rule not in self.set_rules, binds)

    def stmt_Rotate(self, s, body):
        target, t = self.ref(s.target)
        expect_list(t, target.pos)
        fixed_areas(target)
        return c.Rotate(target, s.pos)

    def stmt_Shuffle(self, s, body):
        target, t = self.ref(s.target)
        expect_list(t, target.pos)
        fixed_areas(target)
        return c.Shuffle(target, s.pos)

    def stmt_Skip(self, s, body):
        body.skips[s.name] = s.pos
        return c.Skip(s.name, s.pos)

    def stmt_Winner(self, s, body):
        who, t = self.ref(s.who)
        expect_one_of(WINNER, t, who.pos)
        return c.Winner(who, s.pos)

    # --- declarations -------------------------------------------------------

    def new_global(self, name, t, init):
        var = c.Global(len(self.program.globals), t, name)
        init.var = var
        self.declare(name, var, init.pos)
        self.program.globals.append(init)

    def decl_AreaDecl(self, d):
        label = self.string(d.label)
        facedown, squaredup = area_options(d.options)
        self.new_global(d.name, T.AREA, c.AreaInit(None, label, facedown, squaredup, d.pos))

    def decl_ActionDecl(self, d):
        body = self.frame = Body()
        stmts = self.block(d.body, body)
        self.frame = self.init_frame
        if body.skips:
            name = min(body.skips)
            fail(body.skips[name], "Can't find label '%s'" % name)
        expect_unique(self.actions, d.name, d.pos, 'Action')
        self.actions[d.name] = len(self.program.actions)
        self.program.actions.append(c.Action(d.name, body.locals, stmts, d.pos))

    def with_params(self, params, check):
        """Check an expression with a rule's or ordering's parameters in scope:
        (its result, its frame size)."""
        self.scopes.append(params)
        self.frame = Body(RULE)
        self.frame.locals = len(params)
        try:
            return check(), self.frame.locals
        finally:
            self.scopes.pop()
            self.frame = self.init_frame

    def decl_SetRuleDecl(self, d):
        """Extension: a rule over a set of cards (a CardList), for `play`."""
        self.set_rules.add(len(self.program.rules))
        self.rule_decl(d, (T.PLAYER, T.CARDS, T.CARDS))

    def decl_RuleDecl(self, d):
        self.rule_decl(d, (T.PLAYER, T.CARD, T.CARDS))

    def rule_decl(self, d, kinds, extra=()):
        params = {}
        for slot, (name, t) in enumerate(zip(d.params, kinds)):
            params[name] = c.Local(slot, t, name)
        params.update(extra)        # (extension: rule_params.py)
        (x, t, _), size = self.with_params(params, lambda: self.expr(d.body))
        expect(T.BOOLEAN, t, d.pos)
        expect_unique(self.rules, d.name, d.pos, 'Rule')
        self.rules[d.name] = len(self.program.rules)
        self.program.rules.append(c.Rule(d.name, list(d.params), x, d.pos, size))

    def decl_OrderingDecl(self, d):
        params = {d.param: c.Local(0, T.CARDS, d.param)}
        (x, t, _), size = self.with_params(params, lambda: self.expr(d.body))
        expect(T.CARDS, t, d.pos)
        expect_unique(self.orderings, d.name, d.pos, 'Ordering')
        self.orderings[d.name] = len(self.program.orderings)
        self.program.orderings.append(c.Ordering(d.name, d.param, x, d.pos, size))

    def decl_VarDecl(self, d):
        t = T.NAMED[d.type]
        self.no_list_of_areas(d, t)
        init, actual, _ = self.opt_expr(d.init)
        expect(t, actual, d.pos)
        self.new_global(d.name, t, c.VarInit(None, init, d.pos))

    # --- extension: values for each player or team ----------------------------

    def decl_OwnDecl(self, d):
        owner = {'player': T.PLAYER, 'team': T.TEAM}[d.owner]
        t = T.NAMED[d.type]
        if isinstance(t, T.ListOf):
            # one shared list would be every player's: a list is not a value to copy
            fail(d.pos, "A value for each %s can't be a list (%s)" % (d.owner, t))
        if (owner, d.name) in self.owns or any(o == owner and n == d.name for o, n, _ in c.FIELDS):
            fail(d.pos, "Duplicate property: %s->%s" % (owner, d.name))
        init, actual, _ = self.opt_expr(d.init)
        expect(t, actual, d.pos)
        own = c.Own(owner, len(self.program.owns), d.name, t, init,
                    len(self.program.globals), d.pos)
        self.owns[owner, d.name] = own
        self.program.owns.append(own)

    # --- extension: aggregates ------------------------------------------------

    def expr_Aggregate(self, e):
        items, t, p = self.expr(e.items)
        elem = expect_list(t, p)
        if e.how == 'by':
            expect(T.CARDS, t, p)      # an ordering orders cards
            ordering = self.find(self.orderings, 'ordering', e.body, e.pos)
            return c.Aggregate(e.word, None, items, ordering, T.CARD, e.pos), T.CARD, e.pos
        var = self.frame.new_local(e.name, elem)
        self.scopes.append({e.name: var})
        try:
            body, t, p = self.expr(e.body)
        finally:
            self.scopes.pop()
        expect(T.BOOLEAN if e.how == 'where' else T.NUMBER, t, p)
        if e.word in ('max', 'min'):
            body = self.ace_high(body, t, p)
        return c.Aggregate(e.word, var, items, body, T.NUMBER, e.pos), T.NUMBER, e.pos

    def game(self, g):
        p = self.program
        p.name, p.pos = self.string(g.name), g.pos
        p.counts = list(g.count.counts)
        p.team_size = g.count.size if isinstance(g.count, ast.TeamCount) else 0
        self.find_rank_order(g.decls)
        self.signature_pass(g.decls)
        for d in g.decls:
            getattr(self, 'decl_' + type(d).__name__)(d)
        if 'main' not in self.actions:
            fail(None, "No 'main' action was declared.")
        p.main = self.actions['main']
        p.init_frame = self.init_frame.locals
        return p


def writable(target):
    """The reference fails at run time here; we report it when checking."""
    if isinstance(target, c.VarRef) and isinstance(target.var, c.Builtin):
        fail(target.pos, "Can't assign to a read-only variable")
    if isinstance(target, c.PropRef) and isinstance(target.prop, c.ListProp):
        fail(target.pos, "Can't assign read-only list properties")
    fixed_areas(target)


def check(game, strict=False):
    """The checked program for an ast.Game, or PipError with the first error
    (strict: at the first extension to 2008 Pip in the text, if it has one,
    before any other error: the Rank words the checking met are among
    them, the order it checks in is not the text's)."""
    checker = Checker(strict)
    if not strict:
        return checker.game(game)
    try:
        program, error = checker.game(game), None
    except PipError as e:
        program, error = None, e
    extensions.refuse(game, checker.rank_words)
    if error is not None:
        raise error
    return program
