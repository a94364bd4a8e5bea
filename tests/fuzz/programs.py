"""Hypothesis strategies for random, well-typed Pip programs.

`cases()` draws a Case: the source of a whole game, a seed and a script of
answers.  The program is typed by construction: every expression is built
for the type its place needs, from the variables in scope at that point, so
the checker must accept it (property 1).  Skips are only drawn towards a
label that will be placed later in the same or an enclosing block, and a
`let` is never drawn while a skip in its block is pending.

What is generated, so the properties cover the whole language: globals of
every type (some left undefined), areas with options, rules and orderings
over globals, helper actions called from later ones, every statement
(ask with conditional questions, assignment and compound assignment to
variables and properties, deals of every kind including to player lists,
for with and without `starting at`, forever, if/elseif/else, let with
shadowing, message to everyone/a player/a list/a team, order, play,
rotate, shuffle, skip/label out of loops and ifs, winner) and every
expression (arithmetic, comparison, `in`, and/or/not, defined, canplay,
card expressions with ranges, sequences and wildcards, nested list
literals, properties including list properties).  Programs end however
they end: a winner, no winner, a run-time error, the answers running out,
or the step limit.

Each `main` also begins with a tour (`Builder.tour`): locals holding values
known only at run time, then VM operations on them whose results are shown
(negative arithmetic, comparisons, card expressions, `in`, fused
equalities, list properties of empty lists, `defined`, unusual deals), and
perhaps one rare ending at the end of `main`; docs/fuzzing.md measures what
this buys.  And it draws the boundaries of the extensions and aggregates
on purpose (`Builder.edges`, issue 58: an unset value read outside
`defined`, max of an empty or all-negative list, options of game-bound
values, one- and two-element rotations, an ask whose first condition is
false, a Number past Python's digit limit), each marked for
`tools/fuzz_reach.py --edges`.

`broken()` damages a generated program so that the checker must reject it.
"""
import functools

import attrs
from hypothesis import strategies as st

NUMBER, BOOLEAN, RANK, SUIT, STRING = 'Number', 'Boolean', 'Rank', 'Suit', 'String'
CARD, PLAYER, TEAM, AREA = 'Card', 'Player', 'Team', 'Area'
CARDS, PLAYERS, RANKS, SUITS, TEAMS = 'CardList', 'PlayerList', 'RankList', 'SuitList', 'TeamList'
ELEM = {CARDS: CARD, PLAYERS: PLAYER, RANKS: RANK, SUITS: SUIT, TEAMS: TEAM}
AREAS = 'AreaList'             # the extension's list of areas declared at once
LISTS = tuple(ELEM)
SCALARS = (NUMBER, BOOLEAN, RANK, SUIT, STRING, CARD, PLAYER, TEAM)
STRINGABLE = (NUMBER, BOOLEAN, RANK, SUIT, STRING, CARD, PLAYER, TEAM)
# Stored properties: (owner, name, type); all assignable.
FIELDS = [(CARD, 'rank', RANK), (CARD, 'suit', SUIT), (CARD, 'last_played_by', PLAYER),
          (PLAYER, 'name', STRING), (PLAYER, 'hand', CARDS), (PLAYER, 'stash', CARDS),
          (PLAYER, 'score', NUMBER), (PLAYER, 'team', TEAM),
          (TEAM, 'members', PLAYERS), (TEAM, 'stash', CARDS), (TEAM, 'score', NUMBER),
          (AREA, 'name', STRING), (AREA, 'cards', CARDS),
          (AREA, 'is_facedown', BOOLEAN), (AREA, 'is_squaredup', BOOLEAN)]
RANK_LITS = ['A', 'J', 'Q', 'K'] + [str(n) for n in range(2, 11)] + ['Four', 'Ten', 'Ace']   # words: extension
SUIT_LITS = ['C', 'H', 'S', 'D']
WORDS = ['go', 'stop', 'Pick', 'x', 'a b', '']


# Strategies made once: hypothesis builds a strategy object at every call of
# st.integers or st.sampled_from, a fifth of the generator's time. The same
# arguments draw the same values, so the programs are unchanged.
@functools.lru_cache(maxsize=4096)
def _sampled(options):
    return st.sampled_from(options)


@functools.lru_cache(maxsize=None)
def between(lo, hi):
    return st.integers(lo, hi)


def number(n):
    """A Number literal; Pip has no negative literals, so a negative one is a subtraction."""
    return str(n) if n >= 0 else '(0 - %d)' % -n


def fits(want, have):
    """The checker's rule, for the types generated here."""
    return want == have or {want, have} == {RANK, NUMBER}


@attrs.frozen
class Case:
    source: str
    seed: int
    answers: tuple             # int: the option at that index (mod n); str: typed as is

    def __repr__(self):
        return 'Case(seed=%d, answers=%r, source=\n%s)' % (self.seed, self.answers, self.source)


class Builder:
    """Writes one program, drawing every choice from hypothesis."""

    def __init__(self, draw, teams):
        self.draw = draw
        self.teams = teams
        self.counter = 0
        self.scopes = [{}]          # name -> type; [0] is the globals
        self.actions, self.rules, self.orderings = [], [], []
        self.set_rules = []                # the extension's rules over sets of cards
        self.param_rules = []              # the extension's rules with parameters: (name, types)
        self.counters = set()
        self.loops = []                    # 'for' / 'forever' around the statement drawn
        self.used = set()                  # labels some skip goes to
        self.empties = set()               # globals that start as empty lists
        self.owns = []                     # the extension's values for each player/team, as FIELDS
        self.edge_decls = []               # the declarations an edge value needs (actions)
        self.group_lists = []              # the extension's lists of groups (globals)
        # team types only rarely in a players game, where `teams` is undefined
        team_types = () if teams else (TEAM, TEAMS)
        self.scalars = tuple(t for t in SCALARS if t not in team_types)
        self.lists = tuple(t for t in LISTS if t not in team_types)

    # --- choices ------------------------------------------------------------

    def pick(self, options):
        return self.draw(_sampled(tuple(options)))

    def chance(self, p):
        """True with probability about p."""
        return self.draw(between(0, 99)) < p * 100

    def rarely(self, p):
        """True with probability about p, but False for hypothesis's favourite
        draw (0), so that what ends a game early stays rare."""
        return self.draw(between(0, 99)) >= 100 - p * 100

    def fresh(self, prefix):
        self.counter += 1
        return '%s%d' % (prefix, self.counter)

    def names_of(self, want):
        """Visible variables usable as `want`, innermost binding of each name."""
        seen, out = set(), []
        for scope in reversed(self.scopes):
            for name, t in scope.items():
                if name not in seen:
                    seen.add(name)
                    if fits(want, t):
                        out.append(name)
        return sorted(out)

    # --- references: things a statement can name (and `->` can follow) -------

    def ref(self, want, depth):
        """A reference of type `want`, or None if none can be made."""
        options = [('var', n) for n in self.names_of(want)]
        if want == PLAYERS:
            options.append(('players', None))
        if want == TEAMS and (self.teams or self.chance(0.05)):
            options.append(('teams', None))
        if want == CARDS and self.chance(0.3):
            options.append(('standard', None))
        if depth > 0:
            for owner, name, t in self.fields():
                if fits(want, t) and self.likely(owner, name):
                    options.append(('field', (owner, name)))
            if want == NUMBER:
                options.append(('size', None))
            if want in SCALARS:
                options.append(('item', None))
        if not options:
            return None
        kind, arg = self.pick(options)
        if kind == 'var':
            return arg
        if kind in ('players', 'teams', 'standard'):
            return kind
        if kind == 'field':
            owner, name = arg
            return self.prop(self.expr(owner, depth - 1), name)
        if kind == 'size':
            return self.prop(self.expr(self.pick(self.lists), depth - 1), 'size')
        lists = [t for t in self.lists if fits(want, ELEM[t])]
        if not lists:
            return None
        prop = self.pick(['first', 'top', 'last', 'bottom'])
        lst = self.expr(self.pick(lists), depth - 1)
        if lst in self.empties and self.chance(0.8):
            return None                  # the item of a list that starts empty: mostly not
        return self.prop(lst, prop)

    def prop(self, obj, name):
        # now and then a name in parentheses too, `(g)->p`: the property's
        # position is then the parenthesis, not the name's (a superinstruction
        # reports each part's failure at its own position)
        if obj[0].isalpha() and obj.replace('->', '').replace('_', '').isalnum() and \
                not self.rarely(0.15):
            return '%s->%s' % (obj, name)
        return '(%s)->%s' % (obj, name)

    def writable(self, want, depth):
        """An assignable reference of type `want` (no builtins, no list properties)."""
        options = [('var', n) for n in self.names_of(want) if n in self.assignable()]
        if depth > 0:
            for owner, name, t in self.fields():
                if fits(want, t) and (owner != TEAM or self.teams):
                    options.append(('field', (owner, name)))
        if not options:
            return None
        kind, arg = self.pick(options)
        if kind == 'var':
            return arg
        owner, name = arg
        return self.prop(self.expr(owner, depth - 1), name)

    def likely(self, owner, name):
        """Keep most reads of properties that are often undefined (a card's
        last player, a team in a players game) out, so games get further."""
        if name == 'last_played_by' or (not self.teams and (owner == TEAM or name == 'team')):
            return self.rarely(0.1)
        return True

    def fields(self):
        has_area = bool(self.names_of(AREA))
        return [f for f in FIELDS + self.owns if f[0] != AREA or has_area]

    def assignable(self):
        return {n for scope in self.scopes for n in scope}

    # --- expressions ----------------------------------------------------------

    def expr(self, want, depth):
        """An expression of type `want` (parenthesised unless atomic)."""
        if depth <= 0 or self.chance(0.35):
            leaf = self.leaf(want)
            if leaf is not None:
                return leaf
        return getattr(self, 'expr_' + want)(max(depth - 1, 0))

    def leaf(self, want):
        names = self.names_of(want)
        if names and self.chance(0.5):
            return self.pick(names)
        if want == NUMBER:
            return number(self.draw(between(-14, 14)))
        if want == BOOLEAN:
            return self.pick(['True', 'False'])
        if want == RANK:
            return self.pick(RANK_LITS)
        if want == SUIT:
            return self.pick(SUIT_LITS)
        if want == STRING:
            return self.string()
        if want == CARD:
            return '%s~%s' % (self.pick(RANK_LITS), self.pick(SUIT_LITS))
        if want == PLAYER:
            return 'players->%s' % self.pick(['first', 'last', 'top', 'bottom'])
        if want == TEAM:
            return 'teams->first' if self.teams else 'players->first->team'
        if want == CARDS:
            return self.pick(['standard', '%~%', 'A..3~C', '%~H', 'K~%'])
        if want == PLAYERS:
            return 'players'
        if want == RANKS:
            return '[%s]' % '; '.join(self.pick(RANK_LITS) for _ in range(self.draw(between(1, 3))))
        if want == SUITS:
            return '[%s]' % '; '.join(self.pick(SUIT_LITS) for _ in range(self.draw(between(1, 3))))
        if want == TEAMS:
            return 'teams'
        return names[0] if names else None

    def string(self):
        """A string literal, perhaps with `{x}` references to variables."""
        parts = []
        for _ in range(self.draw(between(0, 3))):
            names = [n for t in STRINGABLE for n in self.names_of(t)]
            if names and self.chance(0.5):
                parts.append('{%s}' % self.pick(sorted(set(names))))
            else:
                parts.append(self.pick(WORDS))
        return '"%s"' % ' '.join(parts)

    def ref_or_leaf(self, want, depth):
        r = self.ref(want, depth)
        return r if r is not None else self.leaf(want)

    def factor(self):
        """A small constant factor, -3 to 3 (Pip writes a negative as 0 - k)."""
        k = self.draw(between(-3, 3))
        return str(k) if k >= 0 else '(0 - %d)' % -k

    def edge_product(self):
        """A product of constants at an edge of the 63-bit Numbers: 2^62 - 1
        and -2^62 are Numbers, 2^62 and -2^62 - 1 are `Number too large`
        (the compiler folds the first two; the reference multiplies them)."""
        return self.pick(['(2147483647 * 2147483649)', '((0 - 2147483648) * 2147483648)',
                          '(2147483648 * 2147483648)', '((0 - 5) * 922337203685477581)'])

    def expr_Number(self, d):
        form = self.pick(['arith', 'arith', 'ref', 'rank', 'aggregate'])
        if form == 'aggregate':
            return self.aggregate(d)
        if form == 'arith':
            op = self.pick(['+', '-', '*', '/', '+', '-'])
            if op == '*':
                # by a small factor: x = x * x in a loop doubles x's digits
                # at every step, so within six steps its product is beyond
                # 63 bits and ends the game (`Number too large`; before that
                # bound, memory ran out first); x * 3 adds two bits a step
                if self.pick(['small', 'edge']) == 'edge':
                    return self.edge_product()
                return '(%s * %s)' % (self.expr(NUMBER, d), self.factor())
            return '(%s %s %s)' % (self.expr(NUMBER, d), op, self.expr(NUMBER, d))
        if form == 'rank':
            return self.expr(RANK, d)
        return self.ref_or_leaf(NUMBER, d)

    def expr_Boolean(self, d):
        form = self.pick(['cmp', 'eq', 'logic', 'not', 'in', 'defined', 'canplay', 'ref',
                          'guard', 'guard', 'chain', 'chain'])
        if form == 'guard':
            return self.guard(d)
        if form == 'chain':
            return self.chain(d)
        if form == 'cmp':
            return '(%s %s %s)' % (self.expr(NUMBER, d), self.pick(['<', '<=', '>', '>=']),
                                   self.expr(NUMBER, d))
        if form == 'eq':
            t = self.pick(self.scalars + self.lists)
            return '(%s %s %s)' % (self.expr(t, d), self.pick(['==', '!=']), self.expr(t, d))
        if form == 'logic':
            return '(%s %s %s)' % (self.expr(BOOLEAN, d), self.pick(['and', 'or']),
                                   self.expr(BOOLEAN, d))
        if form == 'not':
            return 'not %s' % self.expr(BOOLEAN, d)
        if form == 'in':
            lst = self.pick(self.lists)
            elem = self.pick([CARD, RANK, SUIT, NUMBER]) if lst == CARDS else ELEM[lst]
            return '(%s in %s)' % (self.expr(elem, d), self.expr(lst, d))
        if form == 'defined':
            if self.chance(0.15):
                return 'defined %s' % self.pick(['players', 'teams', 'standard'])
            t = self.pick(self.scalars + self.lists)
            r = self.ref(t, d)
            return 'defined %s' % r if r is not None else 'True'
        if form == 'canplay' and (self.rules or self.set_rules):
            # (a rule for sets: the extension's "is there a set it allows")
            return 'canplay %s from %s to %s' % (self.pick(self.rules + self.set_rules),
                                                 self.ref_or_leaf(PLAYER, d), self.play_dest(d))
        return self.ref_or_leaf(BOOLEAN, d)

    def chain(self, d):
        """Equalities between values known only at run time, joined by and/or
        (the VM fuses each comparison with the jump that follows it)."""
        tests = []
        for _ in range(self.draw(between(1, 3))):
            t = self.pick(self.scalars)
            left = self.ref_or_leaf(t, d)
            right = self.ref_or_leaf(t, d) if self.chance(0.5) else self.expr(t, d)
            tests.append('(%s %s %s)' % (left, self.pick(['==', '==', '!=']), right))
        text = tests[0]
        for test in tests[1:]:
            text = '(%s %s %s)' % (text, self.pick(['and', 'or']), test)
        return text

    def guard(self, d):
        """The idioms that rely on and/or not evaluating their right side:
        a test that makes the right side safe to evaluate."""
        form = self.pick(['defined', 'size', 'zero'])
        if form == 'defined':
            t = self.pick(self.scalars)
            r = self.ref(t, d)
            if r is not None:
                if self.chance(0.5):
                    return '(defined %s and (%s == %s))' % (r, r, self.expr(t, d))
                return '(not defined %s or (%s == %s))' % (r, r, self.expr(t, d))
        if form == 'size':
            t = self.pick(self.lists)
            lst = self.ref(t, d)
            if lst is not None:
                item = self.prop(lst, self.pick(['first', 'last', 'top', 'bottom']))
                t = ELEM[t]
                return '((%s->size > 0) and (%s == %s))' % (lst, item, self.expr(t, d))
        n = self.expr(NUMBER, d)
        return '((%s != 0) and ((%s / %s) > 1))' % (n, self.expr(NUMBER, d), n)

    def expr_Rank(self, d):
        if self.chance(0.3):
            return self.prop(self.expr(CARD, d), 'rank')
        return self.ref_or_leaf(RANK, d)

    def expr_Suit(self, d):
        if self.chance(0.3):
            return self.prop(self.expr(CARD, d), 'suit')
        return self.ref_or_leaf(SUIT, d)

    def expr_String(self, d):
        return self.string() if self.chance(0.6) else self.ref_or_leaf(STRING, d)

    def aggregate(self, d):
        """The extension: `(count x in L where C)`, `(sum x in L of N)`, max, min
        (max and min of an empty list fail: mostly over lists that seldom are)."""
        word = self.pick(['count', 'count', 'sum', 'max', 'min'])
        lst = self.pick(self.lists)
        items = self.expr(lst, d)
        name = self.fresh('x')
        self.scopes.append({name: ELEM[lst]})
        try:
            body = self.expr(BOOLEAN if word == 'count' else NUMBER, d)
        finally:
            self.scopes.pop()
        return '(%s %s in %s %s %s)' % (word, name, items, 'where' if word == 'count' else 'of',
                                        body)

    def expr_Card(self, d):
        if self.orderings and self.chance(0.15):
            # the extension: a list's last (max) or first (min) card as `order` sorts it
            return '(%s x in %s by %s)' % (self.pick(['max', 'min']), self.expr(CARDS, d),
                                          self.pick(self.orderings))
        if self.chance(0.4):
            return '%s~%s' % (self.rank_part(d, single=True), self.suit_part(d, single=True))
        return self.ref_or_leaf(CARD, d)

    def expr_Player(self, d):
        return self.ref_or_leaf(PLAYER, d)

    def expr_Team(self, d):
        return self.ref_or_leaf(TEAM, d)

    def expr_CardList(self, d):
        form = self.pick(['cross', 'wildrank', 'wildsuit', 'list', 'ref', 'ref'])
        if form == 'cross':             # a list of ranks, so the result is a list
            return '%s~%s' % (self.rank_part(d, several=True), self.suit_part(d))
        if form == 'wildrank':
            return '%%~%s' % self.suit_part(d)
        if form == 'wildsuit':
            return '%s~%%' % self.rank_part(d)
        if form == 'list':
            return self.list_literal(CARDS, d)
        return self.ref_or_leaf(CARDS, d)

    def list_literal(self, lst, d):
        """[a; b; ...] mixing elements and (flattened) lists of the same type."""
        items = [self.expr(self.pick([ELEM[lst], lst]), d)
                 for _ in range(self.draw(between(1, 3)))]
        return '[%s]' % '; '.join(items)

    def expr_PlayerList(self, d):
        return self.list_literal(PLAYERS, d) if self.chance(0.4) else self.ref_or_leaf(PLAYERS, d)

    def expr_RankList(self, d):
        return self.list_literal(RANKS, d) if self.chance(0.5) else self.ref_or_leaf(RANKS, d)

    def expr_SuitList(self, d):
        return self.list_literal(SUITS, d) if self.chance(0.5) else self.ref_or_leaf(SUITS, d)

    def expr_TeamList(self, d):
        return self.list_literal(TEAMS, d) if self.chance(0.4) else self.ref_or_leaf(TEAMS, d)

    def expr_Area(self, d):
        return self.leaf(AREA)

    def rank_part(self, d, single=False, several=False):
        """The rank side of a card expression: literals, references, ranges, sequences."""
        if single:
            form = 'one'
        elif several:
            form = self.pick(['range', 'seq'])
        else:
            form = self.pick(['one', 'range', 'seq', 'list'])
        if form == 'range':
            return '%s..%s' % (self.rank_atom(d), self.rank_atom(d))
        if form == 'seq':
            return '%s,%s' % (self.rank_atom(d), self.rank_part(d - 1) if d > 0 else self.rank_atom(0))
        if form == 'list':
            names = self.names_of(RANKS)
            return self.pick(names) if names else self.rank_atom(d)
        return self.rank_atom(d)

    def rank_atom(self, d):
        names = self.names_of(RANK)
        if d > 0 and self.chance(0.2):
            return self.prop(self.ref_or_leaf(CARD, d - 1), 'rank')
        if names and self.chance(0.5):
            return self.pick(names)
        if self.rarely(0.03):
            return self.pick(['0', '14'])     # no such rank: an error, even when folded
        return self.pick(RANK_LITS)

    def suit_part(self, d, single=False):
        if not single and self.chance(0.4):
            return '%s,%s' % (self.suit_atom(d), self.suit_part(d - 1) if d > 0 else self.suit_atom(0))
        if not single and self.chance(0.2) and self.names_of(SUITS):
            return self.pick(self.names_of(SUITS))
        return self.suit_atom(d)

    def suit_atom(self, d):
        names = self.names_of(SUIT)
        if d > 0 and self.chance(0.2):
            return self.prop(self.ref_or_leaf(CARD, d - 1), 'suit')
        if names and self.chance(0.5):
            return self.pick(names)
        return self.pick(SUIT_LITS)

    def play_dest(self, d):
        """A reference play/canplay can put cards on."""
        return self.ref(self.pick([CARDS, PLAYER, AREA]), d) or 'players->first'

    def cards_ref(self, d, to=False):
        kinds = [CARDS, PLAYER] + ([AREA] if self.names_of(AREA) else []) + ([PLAYERS] if to else [])
        return self.ref(self.pick(kinds), d) or 'players->first'

    # --- statements -------------------------------------------------------------

    def block(self, ctx, depth, size):
        """A block's statements.  ctx: labels that may be skipped to (placed
        later in this block or an enclosing one); returns the text lines."""
        self.scopes.append({})
        pending = set()                   # skips of this block still waiting for their label
        lines = []
        own = self.fresh('L') if depth > 0 and self.chance(0.5) else None
        used = self.used
        n = self.draw(between(1 if depth >= 2 else 0, size))
        cut = self.draw(between(0, n))
        if depth >= 3:
            lines += self.setup()
        for i in range(n):
            if own is not None and i == cut:
                if own in used:
                    lines.append('label %s.' % own)
                    pending.discard(own)
                own = None
            labels = ctx + ([own] if own else [])
            lines += self.statement(labels, depth, pending)
        if own is not None and own in used:
            lines.append('label %s.' % own)
            pending.discard(own)
        self.scopes.pop()
        self.pending_out = pending
        return lines

    def nested(self, ctx, depth, size, pending):
        lines = self.block(ctx, depth - 1, size)
        pending |= self.pending_out
        return ['  ' + line for line in lines]

    def statement(self, labels, depth, pending):
        kinds = ['let', 'assign', 'compound', 'message', 'deal', 'deal', 'if', 'for', 'play',
                 'order', 'rotate', 'shuffle', 'call', 'ask', 'winner', 'forever', 'skip', 'skip',
                 'show', 'show', 'show', 'exit', 'ending']
        kind = self.pick(kinds)
        if kind == 'let' and pending:
            kind = 'assign'
        if kind in ('if', 'for', 'ask', 'forever') and depth <= 0:
            kind = 'message'
        return getattr(self, 'stmt_' + kind)(labels, depth, pending)

    def stmt_let(self, labels, depth, pending):
        t = self.pick(self.scalars + self.lists)
        value = self.expr(t, 2)
        outer = [n for scope in self.scopes[1:-1] for n in scope
                 if n not in self.scopes[-1] and n not in self.counters]
        name = self.pick(outer) if outer and self.chance(0.15) else self.fresh('v')
        self.scopes[-1][name] = t
        return ['let %s be %s.' % (name, value)]

    def stmt_show(self, labels, depth, pending):
        """Show a value computed at run time, so that a difference is seen: a
        scalar through a `let` and a message, a list element by element."""
        t = self.pick(self.scalars + self.lists + (NUMBER, NUMBER, CARDS, CARDS))
        value = self.expr(t, 2)
        if t in LISTS:
            x = self.fresh('x')
            return ['for %s in %s { message "%s {%s}". }' % (x, value, x, x)]
        if pending:
            return self.stmt_message(labels, depth, pending)
        name = self.fresh('o')
        self.scopes[-1][name] = t
        # every other one to a player: a quiet message with a check to run
        # beside the local (no draw, so the programs are otherwise the same)
        to = 'players->first ' if self.counter % 2 else ''
        return ['let %s be %s.' % (name, value), 'message %s"%s {%s}".' % (to, name, name)]

    def setup(self):
        """Locals holding values known only at run time (so what uses them is
        not constant-folded): numbers, negative ones too, ranks as numbers,
        suits, cards and lists built from them."""
        lines = []
        for _ in range(self.draw(between(0, 4))):
            t = self.pick([NUMBER, NUMBER, NUMBER, RANK, SUIT, SUIT, CARD, CARDS, RANKS, SUITS])
            if t == NUMBER:
                value = number(self.draw(between(1, 13) if self.chance(0.8)
                                         else between(-20, 20)))
            elif t in (CARD, CARDS, RANKS, SUITS) or self.chance(0.3):
                value = self.expr(t, 2)
            else:
                value = self.leaf(t)
            name = self.fresh('k')
            lines.append('let %s be %s.' % (name, value))
            self.scopes[-1][name] = t
        return lines

    def stmt_assign(self, labels, depth, pending):
        t = self.pick(self.scalars + self.lists + (AREA,))
        target = self.writable(t, 2)
        if target is None:
            return self.stmt_message(labels, depth, pending)
        if t in LISTS and self.chance(0.1):
            value = '[]'                 # typed by the target, so safe here
        else:
            value = self.expr(t, 2) if t != AREA else self.leaf(AREA)
        return ['%s = %s.' % (target, value)]

    def stmt_compound(self, labels, depth, pending):
        target = self.writable(self.pick([NUMBER, NUMBER, RANK]), 2)
        if target is None:
            return self.stmt_message(labels, depth, pending)
        op = self.pick(['+=', '-=', '*=', '/='])
        # (x *= x + 1 squares x at every step: a small factor, as in expr_Number)
        value = self.factor() if op == '*=' else self.expr(NUMBER, 1)
        return ['%s %s %s.' % (target, op, value)]

    def stmt_message(self, labels, depth, pending):
        text = self.expr(STRING, 1)
        if self.chance(0.5):
            return ['message %s.' % text]
        to = self.ref(self.pick([PLAYER, PLAYERS, TEAM][:3 if self.teams else 2]), 1) or 'players->first'
        return ['message %s %s.' % (to, text)]

    def stmt_deal(self, labels, depth, pending):
        form = self.pick(['count', 'all', 'card'])
        if form == 'card':
            kind = self.pick([CARDS, PLAYER] + ([AREA] if self.names_of(AREA) else []))
            source = self.ref(kind, 1) or 'stock'
            kind = kind if source != 'stock' else CARDS
            dest, card = self.cards_ref(1), self.expr(CARD, 1)
            deal = 'deal %s from %s to %s.' % (card, source, dest)
            if self.chance(0.6):
                cards = {CARDS: source, PLAYER: self.prop(source, 'hand'),
                         AREA: self.prop(source, 'cards')}[kind]
                return ['if (%s in %s) { %s }' % (card, cards, deal)]
            return [deal]
        source = self.cards_ref(1)
        dest = self.cards_ref(1, to=True)
        if self.group_lists and self.chance(0.2):     # the extension: a new group
            dest = 'new ' + self.pick(self.group_lists)
        count = 'all' if form == 'all' else self.expr(NUMBER, 1)
        return ['deal %s from %s to %s.' % (count, source, dest)]

    def stmt_if(self, labels, depth, pending):
        lines = ['if %s {' % self.expr(BOOLEAN, 2)]
        lines += self.nested(labels, depth, 3, pending)
        for _ in range(self.draw(between(0, 2))):
            lines.append('} elseif %s {' % self.expr(BOOLEAN, 2))
            lines += self.nested(labels, depth, 3, pending)
        if self.chance(0.5):
            lines.append('} else {')
            lines += self.nested(labels, depth, 3, pending)
        return lines + ['}']

    def stmt_for(self, labels, depth, pending):
        if self.names_of(AREAS) and self.chance(0.3):
            return self.area_loop(labels, depth, pending)
        lst = self.pick(self.lists)
        name = self.fresh('x')
        items = self.ref(lst, 2) if self.chance(0.6) else None
        is_ref = items is not None
        items = items or self.expr(lst, 2)
        head = 'for %s in %s' % (name, items)
        if self.chance(0.4):
            if self.chance(0.7) and is_ref:      # an element of the list itself
                start = self.prop(items, self.pick(['first', 'last']))
            else:
                start = self.expr(ELEM[lst], 1)
            head += ' starting at %s' % start
        search = None if pending or self.chance(0.7) else self.fresh('L')
        self.scopes.append({name: ELEM[lst]})
        if search:
            self.counters.add(name)
        body = []
        if self.chance(0.7):
            body.append('  message "%s {%s}".' % (name, name))
        if is_ref and items != 'standard' and self.chance(0.5):
            # the body changes the list being walked: the loop must not see it
            body.append('  ' + self.pick(['rotate %s.' % items, 'shuffle %s.' % items] +
                                         (['deal 1 from %s to players.' % items] if lst == CARDS else [])))
        body += self.in_loop('for', labels + ([search] if search else []), depth, pending)
        if self.chance(0.25):                     # the extension: end this round early
            body.insert(0, '  if %s { continue. }' % self.expr(BOOLEAN, 1))
        self.scopes.pop()
        if search:
            # (only the loop variable and globals: the body's lets may shadow others)
            saved, self.scopes = self.scopes, [self.scopes[0], {name: ELEM[lst]}]
            body.append('  if %s { skip to %s. }' % (self.expr(BOOLEAN, 1), search))
            self.scopes = saved
        lines = [head + ' {'] + body + ['}']
        if search:
            pending.discard(search)
            lines.append('label %s.' % search)
        return lines

    def area_loop(self, labels, depth, pending):
        """The extension: a loop over a list of areas, each an Area in the body
        (shown by its label, dealt to, and whatever an area can be used for)."""
        name = self.fresh('x')
        head = 'for %s in %s {' % (name, self.pick(self.names_of(AREAS)))
        self.scopes.append({name: AREA})
        try:
            body = ['  message "%s {%s}".' % (name, name),
                    '  deal 1 from %s to %s.' % (self.cards_ref(1), name)]
            if self.chance(0.3):        # cards out of an area of the list again
                body.append('  deal 1 from %s to %s.' % (name, self.cards_ref(1)))
            body += self.in_loop('for', labels, depth, pending)
        finally:
            self.scopes.pop()
        return [head] + body + ['}']

    def stmt_forever(self, labels, depth, pending):
        """A forever loop that counts its rounds and leaves after a few (or,
        rarely, runs until something else ends the game)."""
        if pending or not self.chance(0.9):
            body = self.in_loop('forever', labels, depth, pending)
            return ['forever {'] + body + ['}']
        counter, out = self.fresh('n'), self.fresh('L')
        self.counters.add(counter)         # never shadowed: the loop must end
        self.scopes[-1][counter] = NUMBER
        body = self.in_loop('forever', labels, depth, pending)
        rounds = self.draw(between(1, 4))
        return (['let %s be 0.' % counter, 'forever {'] + body +
                ['  %s += 1.' % counter, '  if %s >= %d { skip to %s. }' % (counter, rounds, out),
                 '}', 'label %s.' % out])

    def stmt_play(self, labels, depth, pending):
        if self.param_rules and self.chance(0.3):
            return self.play_with_args(labels, depth, pending)
        if self.rules and self.chance(0.15):
            return self.play_or_pass(self.pick(self.rules), labels, depth, pending)
        if self.set_rules and (not self.rules or self.chance(0.4)):
            return self.play_set(labels, depth, pending)
        if not self.rules:
            return self.stmt_deal(labels, depth, pending)
        player = self.ref(PLAYER, 1) or 'players->first'
        rule, dest = self.pick(self.rules), self.play_dest(1)
        play = 'play %s from %s to %s.' % (rule, player, dest)
        if self.chance(0.7):
            return ['if canplay %s from %s to %s { %s }' % (rule, player, dest, play)]
        return [play]

    def param_rule(self):
        """The extension: a rule with parameters of its own."""
        name, p, c, d = self.fresh('pr'), self.fresh('p'), self.fresh('c'), self.fresh('d')
        types = (NUMBER, SUIT)[:self.draw(between(1, 2))]
        params = [self.fresh('x') for _ in types]
        terms = ['(%s->rank > %s)' % (c, params[0])]
        if len(types) > 1:
            terms.append('(%s->suit == %s)' % (c, params[1]))
        terms.append('(%s->hand->size > 3)' % p)
        body = self.pick([' or ', ' and ']).join(terms[:self.draw(between(1, len(terms)))])
        self.param_rules.append((name, types))
        return 'Rule %s(%s, %s, %s, %s) = %s.' % (
            name, p, c, d, ', '.join('%s %s' % tp for tp in zip(types, params)), body)

    def play_with_args(self, labels, depth, pending):
        """The extension: a play (or canplay) giving a rule its arguments."""
        name, types = self.pick(self.param_rules)
        rule = '%s(%s)' % (name, '; '.join(self.expr(t, 1) for t in types))
        if self.chance(0.3):
            return self.play_or_pass(rule, labels, depth, pending)
        player = self.ref(PLAYER, 1) or 'players->first'
        dest = self.play_dest(1)
        play = 'play %s from %s to %s.' % (rule, player, dest)
        return ['if canplay %s from %s to %s { %s }' % (rule, player, dest, play)]

    def play_or_pass(self, rule, labels, depth, pending):
        """The extension: a card rule's single cards, or the pass (labelled)."""
        player = self.ref(PLAYER, 1) or 'players->first'
        play = 'play %s from %s to %s or %s' % (rule, player, self.play_dest(1),
                                                self.pick(['pass', '"Take"', self.string()]))
        if depth <= 0 or self.chance(0.4):
            return [play + '.']
        return [play + ' {'] + self.nested(labels, depth, 2, pending) + ['}']

    def stmt_ending(self, labels, depth, pending):
        """The extension's endings and turn order: loser, winners, ranking, out, back."""
        word = self.pick(['out', 'out', 'back', 'back', 'loser', 'winners', 'ranking'])
        if word in ('out', 'back'):
            return ['%s %s.' % (word, self.ref(PLAYER, 1) or 'players->first')]
        if not self.chance(0.3):
            return self.stmt_message(labels, depth, pending)
        kinds = [PLAYERS, TEAMS][:2 if self.teams else 1]
        if word == 'loser':
            kinds = kinds + [PLAYER, TEAM][:len(kinds)]
        want = self.pick(kinds)
        fallback = {PLAYERS: 'players', TEAMS: 'teams', PLAYER: 'players->last',
                    TEAM: 'teams->last'}[want]
        return ['%s %s.' % (word, self.ref(want, 1) or fallback)]

    def play_set(self, labels, depth, pending):
        """The extension: several cards at once, perhaps with a pass."""
        player = self.ref(PLAYER, 1) or 'players->first'
        rule, dest = self.pick(self.set_rules), self.play_dest(1)
        play = 'play %s from %s to %s' % (rule, player, dest)
        if self.chance(0.3):
            if self.chance(0.5):     # a play without a pass, after canplay's "some set exists"
                return ['if canplay %s from %s to %s { %s. }' % (rule, player, dest, play)]
            return [play + '.']
        if depth <= 0 or self.chance(0.3):
            return [play + ' or pass.']
        body = self.nested(labels, depth, 2, pending)
        return [play + ' or pass {'] + body + ['}']

    def stmt_order(self, labels, depth, pending):
        target = self.ref(CARDS, 1)
        if not self.orderings or target is None or target == 'standard':
            return self.stmt_shuffle(labels, depth, pending)
        return ['order %s by %s.' % (target, self.pick(self.orderings))]

    def stmt_rotate(self, labels, depth, pending):
        target = self.ref(self.pick(self.lists), 1) or 'players'
        return ['rotate %s.' % target]

    def stmt_shuffle(self, labels, depth, pending):
        target = self.ref(self.pick(self.lists), 1) or 'players'
        return ['shuffle %s.' % target]

    def stmt_call(self, labels, depth, pending):
        if not self.actions:
            return self.stmt_message(labels, depth, pending)
        return ['%s().' % self.pick(self.actions)]

    def stmt_ask(self, labels, depth, pending):
        player = self.ref(PLAYER, 1) or 'players->first'
        lines = ['ask %s {' % player]
        for _ in range(self.draw(between(1, 3))):
            if self.chance(0.3):
                lines += self.list_question(labels, depth, pending)
                continue
            cond = ' if %s' % self.expr(BOOLEAN, 1) if self.chance(0.4) else ''
            lines.append('  %s%s {' % (self.string(), cond))
            lines += ['  ' + line for line in self.nested(labels, depth, 2, pending)]
            lines.append('  }')
        return lines + ['}']

    def list_question(self, labels, depth, pending):
        """The extension: an ask's options from a list (the item bound in the
        text, the condition and the branch)."""
        lst = self.pick(self.lists)
        name = self.fresh('o')
        items = self.ref(lst, 2) if self.chance(0.6) else None
        head = '  for %s in %s ' % (name, items or self.expr(lst, 2))
        self.scopes.append({name: ELEM[lst]})
        try:
            text = self.string()
            if ELEM[lst] in STRINGABLE and self.chance(0.7):
                text = text[:-1] + ' {%s}"' % name
            cond = ' if %s' % self.expr(BOOLEAN, 1) if self.chance(0.4) else ''
            body = self.nested(labels, depth, 2, pending)
        finally:
            self.scopes.pop()
        return [head + text + cond + ' {'] + ['  ' + line for line in body] + ['  }']

    def stmt_winner(self, labels, depth, pending):
        if not self.chance(0.3):
            return self.stmt_message(labels, depth, pending)
        who = self.ref(self.pick([PLAYER, TEAM][:2 if self.teams else 1]), 1) or 'players->first'
        return ['winner %s.' % who]

    def in_loop(self, kind, labels, depth, pending):
        self.loops.append(kind)
        try:
            return self.nested(labels, depth, 3, pending)
        finally:
            self.loops.pop()

    def stmt_exit(self, labels, depth, pending):
        """The extension `break.` / `continue.` (continue only in a `for`: a
        forever's round counter comes last in its body, so must not be skipped)."""
        if not self.loops:
            return self.stmt_message(labels, depth, pending)
        word = 'continue' if self.loops[-1] == 'for' and self.chance(0.5) else 'break'
        if self.chance(0.7):
            return ['if %s { %s. }' % (self.expr(BOOLEAN, 1), word)]
        return [word + '.']

    def stmt_skip(self, labels, depth, pending):
        if not labels:
            return self.stmt_message(labels, depth, pending)
        label = self.pick(labels)
        self.used.add(label)
        pending.add(label)
        line = 'skip to %s.' % label
        if self.chance(0.7):             # most skips are conditional
            return ['if %s { %s }' % (self.expr(BOOLEAN, 1), line)]
        return [line]

    # --- declarations -------------------------------------------------------------

    def program(self):
        if self.teams:
            header = 'Game "Fuzz" requires %s teams of %d.' % (
                self.pick(['2', '1 to 2', '2 or 3']), self.draw(between(1, 2)))
        else:
            header = 'Game "Fuzz" requires %s players.' % self.pick(['2', '1 to 3', '3 or 2'])
        decls = [header, 'Deck stock = standard.']
        self.scopes[0]['stock'] = CARDS
        for _ in range(self.draw(between(0, 4))):
            decls.append(self.global_decl())
        for _ in range(self.draw(between(0, 2))):
            decls.append(self.own_decl())
        decls += self.tour_globals()
        self.at_table = True             # (a switch, to measure what the table adds)
        if self.at_table:
            decls += self.table_decls()
        for _ in range(self.draw(between(0, 2))):
            decls.append(self.rule())
        if self.chance(0.5):
            decls.append(self.set_rule())
        if self.chance(0.3):
            decls.append(self.param_rule())
        if self.chance(0.2):
            decls.append('Aces %s.' % self.pick(['high', 'high', 'low']))     # the extension
        for _ in range(self.draw(between(1, 2))):
            decls.append(self.ordering())
        # the edges' declarations go here, once main has drawn them: before
        # the first statement, so that `pipvm parse` output keeps their lines
        # (an area's options hold their positions: property 3)
        at = len(decls)
        for _ in range(self.draw(between(0, 3))):
            decls.append(self.action(self.fresh('act')))
        decls.append(self.action('main', prologue=True))
        decls[at:at] = self.edge_decls
        return '\n'.join(decls) + '\n'

    # --- edge values by construction (issue 58): each boundary of an
    # extension or aggregate drawn on purpose, marked `message "~edge NAME".`
    # just before it (tools/fuzz_reach.py --edges counts the marks shown) ---

    EDGES = ('own_unset', 'max_empty', 'max_negative', 'options_bound', 'rotate_one',
             'rotate_two', 'ask_first_false', 'call_no_args', 'play_hidden', 'digit_limit',
             'groups')

    def edges(self):
        """(main's first statements, before the table's; its last): the edges
        drawn, those that end the game (an unset value, max of nothing, a
        Number too long to show) last, so that the rest of the game runs."""
        lines = []

        def mark(name, *statements):
            lines.append('message "~edge %s".' % name)
            lines.extend(statements)
        n, e, p = self.tg['n'], self.tg['e'], 'players->first'
        # aggregates: all-negative values
        if self.chance(0.3):
            t = self.fresh('t')
            mark('max_negative', 'let %s be (%s c in standard of (0 - c->rank)).'
                 % (t, self.pick(['max', 'min'])), 'message "{%s}".' % t)
        # options listing game-bound values (the decision may be forked)
        if self.chance(0.3):
            lst = self.pick(['players', 'standard', '%s->hand' % p]
                            + ['teams'] * bool(self.teams))
            o = self.fresh('o')
            mark('options_bound', 'ask %s {' % p,
                 '  for %s in %s "{%s}" { message "{%s}". }' % (o, lst, o, o),
                 '  "none" { message "none". }', '}')
        # rotations of one and two elements (the players of a two-player game)
        if self.chance(0.3):
            t = self.fresh('t')
            f = self.fresh('t')
            mark('rotate_one', 'let %s be [%s].' % (t, p), 'rotate %s.' % t,
                 'let %s be %s->first.' % (f, t), 'message "{%s}".' % f)
        if self.chance(0.3):
            t, f = self.fresh('t'), self.fresh('t')
            two = self.pick(['players', t])
            mark('rotate_two', *((['let %s be [players->first; players->last].' % t]
                                  if two == t else []) + ['rotate %s.' % two,
                                                          'let %s be %s->first.' % (f, two),
                                                          'message "{%s}".' % f]))
        # a plain ask whose first question's condition is false
        if self.chance(0.25):
            mark('ask_first_false', 'ask %s {' % p,
                 '  "%s" if (%s > 13) { message "then". }' % (self.pick(WORDS[:3]), n),
                 '  "%s" { message "else". }' % self.pick(WORDS[3:5]), '}')
        # actions declared with `()`: called with no argument, on a line and
        # in an expression (a count of 0 arguments)
        if self.chance(0.25):
            f, g, t = self.fresh('act'), self.fresh('act'), self.fresh('t')
            self.edge_decls += ['Action %s() {\n  message "%s".\n}' % (f, f),
                                'Action %s() gives Number {\n  give %s + 1.\n}' % (g, n)]
            mark('call_no_args', '%s().' % f, 'let %s be %s().' % (t, g), 'message "{%s}".' % t)
        # a card played where the other seats cannot read it: a facedown
        # area, or another player's hand (the audience of a `played` event)
        if self.chance(0.3):
            rule, area, t = self.fresh('hid'), self.fresh('hid'), self.fresh('t')
            self.edge_decls += ['Area %s labeled "%s" is facedown%s.'
                                % (area, area, self.pick(['', ', spreadout'])),
                                'Rule %s(p, c, d) = True.' % rule]
            dest = self.pick([area, area, 'players->last'])
            mark('play_hidden', 'if canplay %s from %s to %s {' % (rule, p, dest),
                 '  play %s from %s to %s.' % (rule, p, dest), '}',
                 'let %s be %s->cards->size.' % (t, area), 'message "{%s}".' % t)
        # lists of groups: made by dealing, counted, taken by place, walked,
        # passed to and given by an action (`Area[]`), their cards moved out
        if self.chance(0.3):
            self.groups_edge(mark, p, n)
        # the edges that end the game, at main's end (games that get there),
        # one of them at most: the first would end the game before the others
        # (sometimes at main's start instead, so that they are reached in
        # games that the edges above or the turns would end first)
        if self.chance(0.12):
            first = lines
        else:
            lines, first = [], lines
        ending = self.pick(['own_unset'] * 2 * self.tb['own_unset'] + ['max_empty'] + ['digit_limit'] * 2)
        # extensions' values: a value for each player never set, read outside `defined`
        if ending == 'own_unset' and self.chance(0.8):
            t = self.fresh('t')
            mark('own_unset', 'let %s be players->last->%s.' % (t, self.tb['own']),
                 'message "{%s}".' % t)
        # max or min of an empty list
        if ending == 'max_empty' and self.chance(0.8):
            t = self.fresh('t')
            mark('max_empty', 'let %s be (%s c in %s of c->rank).'
                 % (t, self.pick(['max', 'min']), e), 'message "{%s}".' % t)
        # a Number past Python's 4,300 digits (260 rounds of 55 doublings), shown
        if ending == 'digit_limit' and self.chance(0.8):
            t = self.fresh('t')
            mark('digit_limit', 'let %s be 1.' % t,
                 'for c in standard { for r in [A; 2; 3; 4; 5] {',
                 *['  %s += %s.' % (t, t)] * 55, '} }', 'message "{%s}".' % t)
        return first, ([] if lines is first else lines)

    def groups_edge(self, mark, p, n):
        """The extension's lists of groups, each construct once: a list faceup
        or facedown (the views show its groups so), groups made from a hand
        and the stock, an action over `Area[]` giving one, `(item K of L)`
        in and (rarely: an error) out of range, and cards moved out again."""
        gs, big, t, g, k, size = (self.fresh(x) for x in ('gr', 'act', 't', 't', 't', 't'))
        opts = self.pick(['faceup, spreadout', 'faceup', 'facedown', 'faceup, squaredup'])
        self.edge_decls += [
            'Area %s[] labeled "%s" is %s.' % (gs, gs.capitalize(), opts),
            'Action %s(Area[] xs, Number m) gives Area[] {\n  let out be [].\n'
            '  for x in xs {\n    if x->cards->size >= m { out = [out; x]. }\n  }\n'
            '  give out.\n}' % big]
        at = self.pick(['1', '2', '%s->size' % gs, '%s->size + 1' % gs]
                       if self.rarely(0.2) else ['1', '%s->size' % gs])
        mark('groups', 'deal 2 from %s to new %s.' % (p, gs),
             'deal %s from stock to new %s.' % (self.pick(['1', '3', 'all']), gs),
             'deal %s from %s to new %s.' % (self.pick(['1', '0']), p, gs),
             'let %s be %s(%s; %s).' % (t, big, gs, self.pick(['1', '2', n])),
             'let %s be %s.' % (k, at),
             'let %s be (item %s of %s).' % (g, k, gs),
             'for x in %s { let m be x->cards->size. message "{x} {m}". }' % t,
             'deal 1 from %s to %s.' % (g, self.pick([p, 'players->last', 'stock'])),
             'let %s be %s->size.' % (size, gs), 'message "{%s} {%s}".' % (size, g))

    # --- the tour: each program also walks through some VM operations with
    # values known only at run time, and shows the results ----------------------

    def tour_globals(self):
        """A Number and two lists for the tour (an empty one and a player list
        that may be empty)."""
        self.tg = {k: self.fresh('g') for k in 'nepcu'}
        self.scopes[0].update({self.tg['n']: NUMBER, self.tg['e']: CARDS, self.tg['p']: PLAYERS})
        players = self.pick(['[]', 'players', 'players', '[players->first]'])
        self.empties.update([self.tg['e']] + ([self.tg['p']] if players == '[]' else []))
        self.tg_value = number(self.draw(between(-5, 13)))
        # the Number, sometimes its negation divided by -1: every game starts
        # with runtime.divide's signs (folded; the snapshot compares globals)
        # (plus -1 / -1 - 1: a quotient whose sign is wrong comes out as -1;
        # a sum, as a product by it could undo the first quotient's slip)
        init = self.pick([self.tg_value, '(((%s * (0 - 1)) / (0 - 1)) + (((0 - 1) / (0 - 1)) - 1))'
                          % self.tg_value])
        decls = ['Number %s = %s.' % (self.tg['n'], init),
                 'CardList %s = [].' % self.tg['e'],
                 'PlayerList %s = %s.' % (self.tg['p'], players),
                 'Card %s = %s~%s.' % (self.tg['c'], self.pick(RANK_LITS), self.pick(SUIT_LITS)),
                 'Number %s.' % self.tg['u']]       # never defined
        # a game that fails as it starts, so that the message is compared: a
        # product one past the lower end of the 63-bit Numbers, or a division
        # by zero (the tour's end, where its errors are, is seldom reached)
        # (a pick: `rarely`'s draws of 97 to 99 out of 100 almost never come)
        failing = self.pick([None] * 60 + ['((0 - 5) * 922337203685477581)',
                                           '(%s / 0)' % self.tg_value])
        if failing:
            decls.append('Number %s = %s.' % (self.fresh('g'), failing))
        return decls

    def tour_let(self, t, value):
        name = self.fresh('t')
        self.scopes[-1][name] = t
        self.counters.add(name)          # never shadowed by a later `let` of this block
        return name, 'let %s be %s.' % (name, value)

    def tour(self):
        lines, shown = [], []

        def let(t, value, show=True):
            name, line = self.tour_let(t, value)
            lines.append(line)
            if show:
                shown.append(name)
            return name

        def flush():
            if shown:
                lines.append('message "%s".' % ' '.join('{%s}' % n for n in shown))
                del shown[:]

        nums = lambda: self.draw(between(-20, 20))
        literal = {}                    # local -> the literal it was set to

        def var(t, value):
            name = let(t, value, False)
            literal[name] = value
            return name
        a = var(NUMBER, number(nums()))
        b = var(NUMBER, number(self.draw(between(-7, 7))))
        r1 = var(self.pick([RANK, NUMBER]), self.pick(RANK_LITS + [str(n) for n in range(1, 14)]))
        r2 = var(RANK, self.pick(RANK_LITS))
        s1 = var(SUIT, self.pick(SUIT_LITS))
        s2 = var(SUIT, self.pick(SUIT_LITS))
        g, empty, pl = self.tg['n'], self.tg['e'], self.tg['p']
        same = var(NUMBER, self.tg_value)       # equal to g
        if self.chance(0.5):                        # arithmetic on negatives too
            for op in self.draw(st.lists(st.sampled_from(['+', '-', '*', '/']), min_size=1,
                                         max_size=4, unique=True)):
                let(NUMBER, '(%s %s %s)' % (self.pick([a, b, g]), op, self.pick([a, b, g])))
            if self.chance(0.3):
                lines.append('%s %s %s.' % (a, self.pick(['+=', '-=', '*=', '/=']), b))
                shown.append(a)
        if self.chance(0.5):                        # comparisons
            for op in self.draw(st.lists(st.sampled_from(['<', '<=', '>', '>=', '==', '!=']),
                                         min_size=1, max_size=4, unique=True)):
                x, y = self.pick([(a, b), (b, a), (a, g), (r1, r2), (r1, a), (b, number(nums()))])
                let(BOOLEAN, self.pick(['', 'not ']) + '(%s %s %s)' % (x, op, y))
            tests = [n for n in shown if self.scopes[-1].get(n) == BOOLEAN]
            if len(tests) > 1:
                let(BOOLEAN, '(%s %s %s)' % (tests[0], self.pick(['and', 'or']), tests[1]))
        flush()
        if self.chance(0.5):                        # card expressions built at run time
            ranks = self.pick(['%s..%s' % (r1, r2), '%s,%s' % (r1, r2), '%s..%s' % (r2, r1),
                               '%', r1])
            suits = self.pick(['%s,%s' % (s1, s2), s1, '%'])
            if suits == s1 and ranks in ('%', r1) or ranks == suits == '%':
                suits = '%s,%s' % (s2, s1)      # always a list
            x = self.fresh('x')
            lines.append('for %s in %s~%s { message "%s". }' % (x, ranks, suits, '{%s}' % x))
        if self.chance(0.4):
            let(CARD, '%s~%s' % (r1, s1))
        flush()
        if self.chance(0.5):                        # `in`, on an empty list too
            lst = self.pick(['stock', empty, 'players->first->hand', '%s..%s~%s' % (r1, r2, s1)])
            for x in self.draw(st.lists(st.sampled_from([a, r1, s1, '%s~%s' % (r2, s2)]),
                                        min_size=1, max_size=3, unique=True)):
                let(BOOLEAN, '(%s in %s)' % (x, lst))
            let(BOOLEAN, self.pick(['(%s in [%s; %s])' % (r1, r2, a), '(%s in [%s])' % (s1, s2),
                                    '(players->last in %s)' % pl]))
        for _ in range(self.draw(between(1, 4))):   # equalities fused with their jump
            # against a local, a constant or a global, often equal
            x, y = self.pick([(a, b), (r1, r2), (s1, s2), (same, a), (a, same)])
            k = self.pick([literal[x], literal[y], self.pick([number(nums()), 'K', '3'])
                           if x != s1 else self.pick(SUIT_LITS)])
            z = s2 if x == s1 else g
            left = '(%s == %s)' % (x, self.pick([y, k, z, x]))
            right = '(%s == %s)' % (y, self.pick([x, k, z]))
            how = self.pick(['and', 'or', 'let', 'if'])
            if how == 'if' and self.chance(0.5):          # a constant, equal or not
                left = '(%s == %s)' % (x, self.pick([literal[x], k]))
            if how in ('and', 'or'):
                let(BOOLEAN, '(%s %s %s)' % (left, how, right))
            else:
                cond = self.pick([left, '(%s %s %s)' % (left, self.pick(['and', 'or']), right)])
                if how == 'let':
                    let(BOOLEAN, cond)
                else:
                    lines.append('if %s { message "yes". } else { message "no". }' % cond)
        flush()
        if self.chance(0.5):                        # list properties, of empty lists too
            lst = self.pick([empty, 'stock', 'players->first->hand', 'players', pl,
                             '%s..%s~%s' % (r1, r2, s1)])
            local = let(CARDS if '~' in lst or lst in ('stock', empty) or '->' in lst
                        else PLAYERS, lst, False)
            let(NUMBER, '%s->size' % local)
            prop = self.pick(['first', 'last', 'top', 'bottom'])
            if lst in (empty, pl) and self.chance(0.8) or self.chance(0.5):
                let(NUMBER, self.prop(lst, 'size'))
            elif local and CARDS == self.scopes[-1][local]:
                let(RANK, '%s->%s->rank' % (local, prop))
            else:
                let(PLAYER, '%s->%s' % (local, prop))
        if self.chance(0.4):                        # `defined` of every kind
            for ref in self.draw(st.lists(st.sampled_from(
                    [g, a, 'teams', 'players', 'standard', 'players->first->team',
                     'stock->first->last_played_by', 'stock->last']),
                    min_size=1, max_size=3, unique=True)):
                let(BOOLEAN, 'defined %s' % ref)
        flush()
        if self.chance(0.3):                        # a skip out of two loops
            x, y, out = self.fresh('x'), self.fresh('x'), self.fresh('L')
            lines += ['for %s in players { for %s in [%s; %s; %s] starting at %s {' % (x, y, s1, s2,
                                                                                   s1, s2),
                      '  message "{%s} {%s}".' % (x, y),
                      '  if (%s == %s) { skip to %s. }' % (y, s2, out), '} }', 'label %s.' % out]
        if self.teams and self.chance(0.3):
            lines.append('message %s "to a team".' % self.pick(['teams->first', 'teams->last',
                                                                 'players->last->team']))
        if self.chance(0.4):             # left for the end of main
            self.ending = self.tour_error(a, r1, r2, s1, s2, let)
        elif self.chance(0.5):      # (at main's end: it cuts no game short)
            self.ending = self.quiet_failure()
        if self.chance(0.4):                        # deals that count, negative counts, empty lists
            count = self.pick([a, b, 'all', '1'])
            dest = self.pick([pl, 'players', 'players->first', empty])
            source = self.pick(['stock', 'players->first', 'players->last'])
            lines.append('deal %s from %s to %s.' % (count, source, dest))
            # what is left of the source (all of it, dealt to an empty player list)
            let(NUMBER, source + ('->size' if source == 'stock' else '->hand->size'))
            flush()
            if self.chance(0.5):     # from a hand to the players, that hand among them
                lines.append('deal %s from players->first to players.' % self.pick(['2', a, 'all']))
            card = '%s~%s' % (r2, s2)
            deal = 'deal %s from stock to %s.' % (card, self.pick(['players->last', empty]))
            lines.append(deal if self.rarely(0.2) else 'if (%s in stock) { %s }' % (card, deal))
            x = self.fresh('x')
            lines.append('for %s in players { let %s be %s->hand->size. message "{%s} {%s}". }'
                         % (x, x + 'n', x, x, x + 'n'))
        return lines

    def tour_error(self, a, r1, r2, s1, s2, let):
        """A statement that ends the game with one of the VM's errors (the
        ones the rest of the generator seldom reaches), or with the step limit."""
        form = self.pick(['undefined'] * 4 + ['start', 'forever', 'ask', 'folded', 'quiet', 'quiet'])
        if form == 'quiet':          # what a game nobody watches must still fail on
            return self.quiet_failure()
        if form == 'folded':         # constant, but failing: left to the VM
            return 'let %s be %s.' % (self.fresh('t'), self.pick(['(%s / 0)' % number(self.draw(
                between(-3, 3))), '14~%s' % self.pick(SUIT_LITS), '0..2~H']))
        if form == 'start':
            x = self.fresh('x')
            return 'for %s in [%s] starting at %s { message "{%s}". }' % (x, s1, s2, x)
        if form == 'forever':
            return 'forever { %s += 1. }' % a
        if form == 'ask':
            return 'ask players->first { "q" if (%s != %s) { message "q". } }' % (a, a)
        # an undefined value, read each way
        card = let(CARD, '%s~%s' % (r2, s2), False)
        hand = let(CARDS, 'players->first->hand', False)
        u = self.tg['u']
        return 'let %s be %s.' % (self.fresh('t'), self.pick([
            card + '->last_played_by', hand + '->first->last_played_by',
            self.tg['c'] + '->last_played_by', '(%s == %s)' % (a, u),
            '((%s == %s) or True)' % (a, u), '((%s == %s) and True)' % (a, u),
            '(%s~%s)->last_played_by' % (r1, s1)] +
            ([] if self.teams else ['players->first->team', 'teams'] * 2)))

    # --- the card table: most games play and ask what can be played -------------

    def table_decls(self):
        """A card table's globals, rules and ordering: a pile and an area that
        cards are dealt and played to, rules of every shape pure.py
        translates, and an ordering whose patterns overlap."""
        pile, heap = self.fresh('pile'), self.fresh('heap')
        opts = [self.pick(['faceup', 'facedown']), self.pick(['squaredup', 'spreadout'])]
        decls = ['CardList %s = [].' % pile,
                 'Area %s labeled "%s" is %s.' % (heap, heap, ', '.join(opts))]
        self.scopes[0].update({pile: CARDS, heap: AREA})
        self.tb = {'pile': pile, 'heap': heap, 'rules': [], 'safe': []}
        # a value for each player the turns count in (sometimes never set: `defined` tells)
        self.tb['own'] = own = self.fresh('own')
        self.tb['own_unset'] = self.chance(0.5)
        decls.append('Number %s for each player%s.' % (own, '' if self.tb['own_unset'] else ' = 0'))
        # a Boolean and a Suit the turns change, which rules test alone
        # (Euchre's `not must_follow`, `led == trump`: pure.py's Shapes);
        # always defined (an undefined one ends the game at its first test,
        # which cut the table's other situations short)
        self.tb['flag'], self.tb['led'] = flag, led = self.fresh('f'), self.fresh('led')
        decls += ['Boolean %s = True.' % flag, 'Suit %s = %s.' % (led, self.pick(SUIT_LITS))]
        # and a Number, the turns taken, which they compare (`<`, `>=`, ...)
        self.tb['turns'] = self.fresh('t')
        # 0, by a product at an edge of the 63-bit Numbers that every game
        # computes (runtime.multiply's bounds; the compiler folds it)
        decls.append('Number %s = %s.' % (self.tb['turns'], self.pick(
            ['(2147483647 * 2147483649) - 4611686018427387903',
             '((0 - 2147483648) * 2147483648) + 4611686018427387904'])))
        for _ in range(self.draw(between(2, 3))):
            decls.append(self.table_rule())
        decls.append(self.table_ordering())
        return decls

    def table_rule(self):
        """A rule as card games write them (and as pure.py translates them)."""
        name = self.fresh('r')
        p, c, d = self.fresh('p'), self.fresh('c'), self.fresh('d')

        def item():
            return self.pick(['top', 'first', 'last', 'top'])
        form = self.pick(['terms', 'terms', 'terms', 'one', 'guarded', 'mixed', 'compare', 'all',
                          'settled', 'settled', 'aggregate'])
        if form == 'aggregate':      # counting over the hand or the pile (President's sets)
            body = self.rule_aggregate(p, c, d, guarded=True)
            if self.chance(0.5):
                body = '(%s) %s (%s->suit == %s->%s->suit)' % (body, self.pick(['and', 'or']),
                                                               c, d, item())
        elif form == 'settled':
            # branches on tests of globals and constants alone, each with a
            # test of the card: settled once for each of their values
            flag, led = self.tb['flag'], self.tb['led']
            turns = self.tb['turns']
            tests = ['(not %s)' % flag, '(%s == True)' % flag, '(%s == %s)' % (led, self.pick(SUIT_LITS)),
                     '(%s != %s)' % (led, self.pick(SUIT_LITS)), '(%s == %s)' % (self.pick(SUIT_LITS), led),
                     '(2 < 3)', '(%s == %s->%s->suit)' % (led, d, item()),
                     '(%s %s %d)' % (turns, self.pick(['<', '<=', '>', '>=']), self.draw(between(1, 4))),
                     '(%d %s %s)' % (self.draw(between(1, 4)), self.pick(['<', '>=']), turns)]
            cards = ['(%s->suit == %s)' % (c, led), '(%s->suit == %s->%s->suit)' % (c, d, item()),
                     '(%s->rank > %s)' % (c, self.pick(['2', '9'])), '(%s->suit != %s)' % (c, led),
                     '(%s->rank == %s->%s->rank)' % (c, d, item()),
                     # a text, a count and a canplay, settled with the rest
                     '("{%s}" != "x")' % c,
                     '((count %s in %s->hand where %s->suit == %s->suit) >= 1)' % ((x := self.fresh('x')), p, x, c)]
            cards += ['canplay %s from %s to %s' % (r, p, d) for r in self.tb['rules'][:1]]
            branches = ['(%s and %s)' % (self.pick(tests), self.pick(cards))
                        for _ in range(self.draw(between(1, 3)))]
            if self.chance(0.5):     # a test alone: every card, or none
                branches.insert(self.draw(between(0, len(branches))), self.pick(tests))
            if self.chance(0.3):     # a test of the card alone
                branches.append(self.pick(cards))
            body = ' or '.join(branches)
        elif form == 'one':            # exactly one card of the hand is playable
            body = '(%s == %s->hand->%s)' % (c, p, self.pick(['top', 'last']))
        elif form == 'all':          # `and` of three or more: one closure for the chain
            body = ' and '.join(self.draw(st.lists(st.sampled_from(
                ['(%s->rank > 2)' % c, '(%s->rank < 12)' % c, '(%s->suit != S)' % c,
                 '(defined %s->last_played_by)' % c, 'defined %s' % p, '("{%s}" != "x")' % c,
                 '(%s->rank != %s->%s->rank)' % (c, d, item())]),
                min_size=3, max_size=4, unique=True)))
        elif form == 'compare':
            body = '(%s->rank %s %s->%s->rank)' % (c, self.pick(['>', '<=', '!=']), d, item())
        else:
            # the card's rank or suit against the pile's top or a constant,
            # drawn with replacement: a card often matches two terms
            pool = [('rank', '%s->%s->rank' % (d, item())), ('suit', '%s->%s->suit' % (d, item())),
                    ('rank', self.pick(['8', 'K', 'A', '3'])), ('suit', self.pick(SUIT_LITS))]
            if self.rarely(0.05):     # undefined for a card never played: the game ends
                pool.append(('last_played_by', '%s->%s->last_played_by' % (d, item())))
            terms = ['(%s->%s == %s)' % (c, prop, x) for prop, x in
                     self.draw(st.lists(st.sampled_from(pool), min_size=2, max_size=4))]
            if self.chance(0.3):
                terms.append(self.pick(terms))     # the same test twice
            # (an `and` of equalities on the card is not filtered by card)
            body = (' and ' if self.rarely(0.15) else ' or ').join(terms)
            if form == 'mixed':      # with a test that is not the card's: not one closure
                other = ['(%s->hand->size > 2)' % p, '(%s->size > 3)' % d, '(%s in %s)' % (c, d),
                         '(%s->suit != %s->%s->suit)' % (c, d, item()),
                         'not (%s->rank == %s)' % (c, self.pick(['8', 'K']))]
                other += ['canplay %s from %s to %s' % (r, p, d) for r in self.tb['rules']]
                if self.rarely(0.1):     # undefined for a card never played: the game ends
                    other = ['(%s->last_played_by == %s)' % (c, p)]
                body = '(%s) %s %s' % (body, self.pick(['and', 'or']), self.pick(other))
            elif form == 'guarded':  # an empty pile allows every card
                body = '(%s->size == 0) or %s' % (d, body)
        if self.chance(0.1):
            body = 'not (%s)' % body
        if form in ('one', 'guarded'):
            self.tb['safe'].append(name)    # never reads an empty pile's item
        self.rules.append(name)
        self.tb['rules'].append(name)
        return 'Rule %s(%s, %s, %s) = %s.' % (name, p, c, d, body)

    def table_ordering(self):
        """Patterns that overlap (a card listed twice ranks by its first place)."""
        name, cl = self.fresh('o'), self.fresh('cl')
        pats = ['%~H', '8~%', 'K..Q~%', '%~S', 'A,8~H,S', '8~H', 'Q~%', 'A..3~%',
                '%s->first' % cl, '%s->last' % cl]
        picked = self.draw(st.lists(st.sampled_from(pats), min_size=2, max_size=4))
        self.orderings.append(name)
        self.tb['order'] = name
        return 'Ordering %s(%s) = [%s; %s].' % (name, cl, '; '.join(picked), cl)

    def table(self):
        """main's card table: deals to the pile, the area and the hands, then
        each player (perhaps starting at the last, so the loop wraps) asks
        canplay as a value and plays after canplay with the same rule and
        operands, another rule or other operands; orderings and starting-at
        loops show what they did."""
        pile, heap, rules = self.tb['pile'], self.tb['heap'], self.tb['rules']
        # (an empty pile makes most rules fail: rarely)
        lines = ['deal %s from stock to %s.' % ('0' if self.rarely(0.1) else
                                                 self.pick(['2', '3', '1', '5']), pile),
                 'deal %s from stock to %s.' % (self.pick(['2', '4', '1']), heap)]
        if self.chance(0.7):
            lines.append('deal %s from stock to players.' % self.pick(['3', '5', '7']))
        if self.chance(0.5):
            lines.append('order stock by %s.' % self.tb['order'])
            x = self.fresh('x')
            lines.append('for %s in [stock->top; stock->last] { message "{%s}". }' % (x, x))
        p = self.fresh('p')
        body = []
        for _ in range(self.draw(between(1, 3))):
            rule, dest = self.pick(rules), self.pick([pile, pile, heap, p, 'empty'])
            if dest == 'empty':             # a pile of 0 cards, for the rules that allow it
                rule, dest = (self.pick(self.tb['safe']), self.tg['e']) if self.tb['safe'] \
                    else (rule, pile)
            form = self.pick(['value', 'value', 'same', 'other', 'operands', 'order'] +
                             ['sets'] * bool(self.set_rules))
            if self.rarely(0.1):
                form = 'play'           # perhaps no card matches: an error
            can = 'canplay %s from %s to %s' % (rule, p, dest)
            if form == 'value':          # canplay as a value (not fused with its jump)
                b = self.fresh('b')
                body += ['let %s be %s.' % (b, can), 'message "{%s} {%s}".' % (p, b)]
                if self.chance(0.5):
                    body.append('if %s { play %s from %s to %s. }' % (b, rule, p, dest))
            elif form == 'same' and self.rarely(0.2):
                # the branch on a comparison of canplay's answer: no PLAY_AGAIN
                body.append('if (%s) == True { play %s from %s to %s. }' % (can, rule, p, dest))
            elif form == 'operands':
                # the same rule, other operands: no PLAY_AGAIN.  The outer
                # canplay makes the play legal, the inner one comes right before it.
                who = self.pick([p, p, 'players->first', 'players->last'])
                to = self.pick([d for d in (pile, heap, p) if d != dest]) if who == p else dest
                body.append('if canplay %s from %s to %s { if %s { play %s from %s to %s. } }'
                            % (rule, who, to, can, rule, who, to))
            elif form in ('same', 'other'):  # PLAY_AGAIN only for the same rule
                again = rule if form == 'same' else self.pick([r for r in rules if r != rule])
                body.append('if %s { play %s from %s to %s. }' % (can, again, p, dest))
            elif form == 'play':
                body.append('play %s from %s to %s.' % (rule, p, dest))
            elif form == 'sets':         # the extension: several cards at once
                s = self.pick(self.set_rules)
                if self.chance(0.4):     # canplay of a rule for sets, then the play
                    b = self.fresh('b')
                    body += ['let %s be canplay %s from %s to %s.' % (b, s, p, dest),
                             'message "{%s} {%s}".' % (p, b)]
                body.append('play %s from %s to %s or pass { message "{%s} passed". }'
                            % (s, p, dest, p))
            else:
                # (a message-only loop with a check to run, that shows a
                # local besides its own: property 5's hand-made variant
                # leaves such a local unset)
                x, y = self.fresh('x'), self.fresh('y')
                body += ['order %s->hand by %s.' % (p, self.tb['order']),
                         'let %s be %s->hand->size.' % (y, p),
                         'for %s in %s->hand { message players->first "{%s} {%s}". }' % (x, p, x, y)]
        # the globals the settled rules test change from turn to turn
        flag, led = self.tb['flag'], self.tb['led']
        body.insert(0, '%s += 1.' % self.tb['turns'])
        if self.chance(0.5):
            body.insert(0, '%s = not %s.' % (flag, flag))
        if self.chance(0.5):
            body.insert(0, 'if (%s->size > 0) { %s = %s->top->suit. }' % (pile, led, pile))
        start = ' starting at players->last' if self.chance(0.5) else ''
        lines += ['for %s in players%s {' % (p, start)] + ['  ' + b for b in body] + ['}']
        if self.rarely(0.3):
            # a second deal: every card goes back to the stock, shuffled again,
            # so that a card a seat saw before this shuffle and not since is
            # dealt anew in property 8's worlds (Sightings' clock)
            q = self.fresh('p')
            lines += ['deal all from %s to stock.' % heap, 'deal all from %s to stock.' % pile,
                      'for %s in players { deal all from %s to stock. }' % (q, q), 'shuffle stock.',
                      'deal %s from stock to players.' % self.pick(['1', '2']),
                      'deal 1 from stock to %s.' % heap]
        if self.rarely(0.6):
            # after the turns' decisions, so that property 8's worlds, which
            # replay the game to each decision, seldom replay these too
            q = self.fresh('p')
            lines += ['for %s in players {' % q] + ['  ' + b for b in self.stack_shapes(q)] + ['}']
        if self.chance(0.6):         # a message-only loop that wraps
            x = self.fresh('x')
            lst = self.pick([pile, '%s->cards' % heap])
            lines.append('if (%s->size > 0) { for %s in %s starting at %s->%s { message "{%s}". } }'
                         % (lst, x, lst, lst, self.pick(['last', 'last', 'first']), x))
        if self.rarely(0.3):
            # a shuffle that a hidden card decides: a world may make one the
            # real game did not (determinize's dealers must deal it anew)
            lines.append('if (stock->size > 0) { if (stock->top->rank > 6) { shuffle stock. } }')
        if self.rarely(0.2):             # (it ends the game: not too often)
            lines.append(self.quiet_failure())
        return lines

    def stack_shapes(self, p):
        """Statements for a loop over the players whose every operation runs with
        the loop's iterator (and often more) under its operands, so that a
        handler reading `stack[0]` or `stack[1]` for `stack[-1]` computes
        something else: comparisons, `in`, `not`, value-context and/or
        (plain and fused with a constant), arithmetic, `defined` and
        compound assignment of properties and of a value for each player,
        aggregates, `break` and `skip` out of inner loops, and an ask with
        options from a list."""
        pile, own, order = self.tb['pile'], self.tb['own'], self.tb['order']
        k, n = self.fresh('k'), self.fresh('n')
        lines = ['let %s be %s->size.' % (k, pile),      # values known only at run time
                 'let %s be %s->hand->size.' % (n, p)]
        shown = []

        def let(value):
            name = self.fresh('s')
            lines.append('let %s be %s.' % (name, value))
            shown.append(name)
            return name
        # each drawn alone (a list of unique draws nearly always starts the same);
        # the ask and the inner loops rarely: each ask is a decision more per
        # turn, which properties 7 and 8 replay, and it uses up the answers
        forms = {f for f, p in [('compare', 0.6), ('logic', 0.5), ('prop', 0.5), ('own', 0.5),
                                ('aggregate', 0.4), ('card', 0.4)] if self.chance(p)}
        forms |= {f for f, p in [('exit', 0.3), ('ask', 0.1)] if self.rarely(p)}
        if 'compare' in forms:
            tests = [let('(%s %s %s)' % (n, op, self.pick([k, '%s->score' % p])))
                     for op in self.draw(st.lists(st.sampled_from(
                         ['<', '<=', '>', '>=', '==', '!=']), min_size=1, max_size=3, unique=True))]
            let('(%s in [%s; 2; 5])' % (n, k))
            let('not %s' % tests[0])
            let('((%s * %s) - (%s / (%s + 1)))' % (n, k, n, k))
        if 'logic' in forms:       # value-context and/or: a jump that leaves the value or pops it
            a, b = let('(%s == %s)' % (n, k)), let('(%s >= 3)' % n)
            let('(%s %s %s)' % (a, self.pick(['and', 'or']), b))
            # fused with a constant (EQ_CONST_AND, GE_CONST_AND), a true right side:
            # the value is the test's
            for op in ('==', '>='):
                let('((%s %s %d) and (%s != 99))' % (n, op, self.draw(between(0, 8)), k))
            lines.append('if (%s == %d) { message "{%s} even". }' % (k, self.draw(between(0, 3)), p))
        if 'prop' in forms:        # a property's compound assignment: DUP and SWAP under it
            lines.append('%s->score %s %s.' % (p, self.pick(['+=', '-=', '*=']), self.pick([k, n, '2'])))
            let('%s->score' % p)
            let('defined %s->%s' % (p, self.pick(['team', 'score'])))
            if self.chance(0.5):
                let('defined (%s->hand->first)->last_played_by' % p if self.rarely(0.5)
                    else 'defined %s->team' % p)
        if 'own' in forms:         # the extension's value for each player
            lines += ['if not defined %s->%s { %s->%s = %s. }' % (p, own, p, own, k),
                      '%s->%s += %s.' % (p, own, self.pick([n, '1']))]
            let('%s->%s' % (p, own))
            let('(%s == (defined %s->%s))' % (self.pick(['True', 'False']), p, own))   # 2 under it
        if 'aggregate' in forms:
            x = self.fresh('x')
            let('(count %s in %s->hand where (%s->rank > %s))' % (x, p, x, k))
            let('(sum %s in %s->hand of %s->rank)' % (x, p, x))
            m = self.fresh('m')
            lines.append('if (%s > 0) { let %s be (%s %s in %s->hand %s). message "{%s}". }' % (
                n, m, self.pick(['max', 'min']), x, p,
                self.pick(['of %s->rank' % x, 'by %s' % order]), m))
        if 'card' in forms:        # MAKE_CARD (a rank past 13 rarely: an error)
            r = let('(%s + %s)' % (k, self.pick(['1', '2', n])))
            let('%s~%s' % (r, self.pick(SUIT_LITS)))
        if 'exit' in forms:        # leaving inner loops drops their iterators, not the turn's
            y, z, out = self.fresh('y'), self.fresh('z'), self.fresh('L')
            lines += ['for %s in %s->hand { if (%s->rank > %s) { %s. } message "{%s}". }'
                      % (y, p, y, k, self.pick(['break', 'continue']), y),
                      'for %s in players { for %s in %s->hand {' % (y, z, y),
                      '  if (%s->rank < %s) { skip to %s. } } }' % (z, k, out),
                      'label %s.' % out]
        if shown:
            lines.append('message "%s".' % ' '.join('{%s}' % s for s in shown))
        if 'ask' in forms:         # OPTION and OPTION_ITEM under the player and the iterator
            o = self.fresh('o')
            lines += ['ask %s {' % p,
                      '  "keep {%s}" { message "kept". }' % k,
                      '  "more" if (%s > %s) { %s->score += 1. }' % (n, k, p),
                      '  for %s in %s->hand "show {%s}" if (%s->rank > %s) { message "{%s}". }'
                      % (o, p, o, o, k, o),
                      '}']
        return lines

    def quiet_failure(self):
        """A message whose operand is undefined: a game nobody watches must
        fail there too, in a message-only loop by handing it back to the
        ordinary code mid-loop."""
        u, x = self.tg['u'], self.fresh('x')
        lists = ['stock'] + ([self.tb['pile']] if self.at_table else [])
        lst = self.pick(lists)
        loops = ['for %s in players { message "{%s} {%s}". }' % (x, x, u),
                 'for %s in players starting at players->last { message "{%s} {%s}". }'
                 % (x, x, u),
                 'for %s in %s starting at %s->last { message %s->last_played_by "played". }'
                 % (x, lst, lst, x)]
        # (the loops twice: handing a loop back mid-way is the rarer path, issue
        # 23; the second time inside another loop, whose iterator lies under
        # the handed-back one; one pick still and no fresh name, so no later
        # draw or name moves)
        nested = ['for %so in players { %s }' % (x, loop) for loop in loops]
        return self.pick(['message "{%s}".' % u, 'message players->first "x {%s}".' % u]
                         + loops + nested)

    def own_decl(self):
        """The extension: a value for each player (or team), mostly with a value
        to start from; its uses come from the fields (`p->o3 += 1.`)."""
        name = self.fresh('o')
        owner = TEAM if self.teams and self.chance(0.3) else PLAYER
        t = self.pick([NUMBER, NUMBER, BOOLEAN, STRING, RANK, SUIT, PLAYER])
        init = '' if self.rarely(0.15) else ' = ' + self.expr(t, 1)
        self.owns.append((owner, name, t))
        return '%s %s for each %s%s.' % (t, name, owner.lower(), init)

    def global_decl(self):
        name = self.fresh('g')
        if self.chance(0.2):
            opts = self.draw(st.lists(st.sampled_from(['faceup', 'facedown', 'squaredup', 'spreadout']),
                                      max_size=2, unique=True))
            if set(opts) in ({'faceup', 'facedown'}, {'squaredup', 'spreadout'}):
                opts = opts[:1]
            tail = ' is ' + ', '.join(opts) if opts else ''
            if self.rarely(0.1):         # the extension: a list of groups, dealt to `new`
                self.scopes[0][name] = AREAS
                self.group_lists.append(name)
                return 'Area %s[] labeled %s%s.' % (name, self.string(), tail)
            if self.rarely(0.3):         # the extension: a list of areas, walked by stmt_for
                self.scopes[0][name] = AREAS
                return 'Area %s[%d] labeled %s%s.' % (name, self.draw(between(1, 3)),
                                                      self.string(), tail)
            self.scopes[0][name] = AREA
            return 'Area %s labeled %s%s.' % (name, self.string(), tail)
        t = self.pick(self.scalars + self.lists)
        decl = {CARDS: self.pick(['CardList', 'Deck'])}.get(t, t)
        if self.rarely(0.1):
            init = ''
        elif t in LISTS and self.rarely(0.15):
            init = ' = []'                # empty lists at every list operation
            self.empties.add(name)
        else:
            init = ' = ' + self.expr(t, 2)
        self.scopes[0][name] = t
        return '%s %s%s.' % (decl, name, init)

    def rule(self):
        name = self.fresh('r')
        p, c, d = self.fresh('p'), self.fresh('c'), self.fresh('d')
        self.scopes.append({p: PLAYER, c: CARD, d: CARDS})
        if self.chance(0.15):
            body = '(%s->rank == %s->score)' % (c, p)
        elif self.chance(0.2):       # Crazy Eights' shape: the card against the pile's top
            tests = ['(%s->%s == %s->%s->%s)' % (c, prop, d, self.pick(['top', 'first', 'last']), prop)
                     for prop in ('rank', 'suit') if self.chance(0.7)]
            tests.append('(%s->rank == %s)' % (c, self.pick(RANK_LITS + ['8'])))
            body = ' or '.join(self.draw(st.permutations(tests)))
        elif self.chance(0.4):       # what rules usually test: the card against something
            tests = ['(%s->%s %s %s)' % (c, prop, self.pick(['==', '!=']), self.expr(t, 1))
                     for prop, t in (('rank', RANK), ('suit', SUIT))
                     if self.chance(0.6)] or ['(%s->rank %s %s)' % (c, self.pick(['<', '>=']),
                                                                    self.expr(NUMBER, 1))]
            body = tests[0] if len(tests) == 1 else '(%s %s %s)' % (
                tests[0], self.pick(['and', 'or']), tests[1])
            if self.chance(0.2):
                body = 'not %s' % body
        elif self.chance(0.3):
            body = self.rule_aggregate(p, c, d)
        else:
            body = self.expr(BOOLEAN, 2)
        self.scopes.pop()
        self.rules.append(name)
        return 'Rule %s(%s, %s, %s) = %s.' % (name, p, c, d, body)

    def rule_aggregate(self, p, c, d, guarded=False):
        """The extension's counting in a rule, as games use it (President's
        "as many of my cards of this rank as were led"): over the hand or the
        pile; guarded: a max or min never of an empty list (an error)."""
        x, src = self.fresh('x'), self.pick(['%s->hand' % p, d])
        # (the kind first among the closure's: hypothesis favours the first)
        form = self.pick(['of', 'sum', 'count', 'by', 'count'])
        if form == 'count':
            return '(count %s in %s where %s->rank == %s->rank) >= %d' % (
                x, src, x, c, self.draw(between(1, 3)))
        if form == 'sum':
            return '(sum %s in %s of %s->rank) > %d' % (x, src, x, self.draw(between(0, 30)))
        guard = '%s->size == 0' % src if guarded or self.chance(0.8) else 'False'  # (empty: an error)
        if form == 'by' and self.orderings:
            return '(%s or (%s %s in %s by %s) != %s)' % (
                guard, self.pick(['max', 'min']), x, src, self.pick(self.orderings), c)
        return '(%s or (%s %s in %s of %s->rank) %s %s->rank)' % (
            guard, self.pick(['max', 'min']), x, src, x, self.pick(['<', '>', '<=']), c)

    def probes(self):
        """Rules no game plays, one of each form a rule's closures take
        (generated_cases.CLOSURES: builtins, `in`, ranges and made cards,
        division, aggregates and `by`, strings with `{x}`, properties of
        any object, values for each player, canplay), drawn once the program
        is written.  Property 1c evaluates them at every decision against
        the loop, so that each closure runs in many states whatever the
        game plays (issue 23: most never ran in a generated game)."""
        forms = [
            lambda p, c, d: '(%s in %s)' % (c, self.expr(CARDS, 2)),
            lambda p, c, d: '(%s->rank in %s)' % (c, self.expr(RANKS, 2)),
            lambda p, c, d: '(%s in %s)' % (self.expr(SUIT, 1), self.expr(SUITS, 2)),
            lambda p, c, d: '(%s in %s~%s)' % (c, self.rank_part(2, several=True),
                                               self.suit_part(2)),
            lambda p, c, d: '(%s == %s~%s)' % (c, self.prop(c, 'rank'), self.suit_atom(1)),
            lambda p, c, d: '((%s / %s) %s %s)' % (self.expr(NUMBER, 1), self.expr(NUMBER, 1),
                                                   self.pick(['<', '>=', '==']),
                                                   self.expr(NUMBER, 1)),
            lambda p, c, d: self.rule_aggregate(p, c, d),
            lambda p, c, d: '(%s %s %s)' % (self.aggregate(1), self.pick(['<', '>=']),
                                            self.expr(NUMBER, 1)),
            # (of the list played to, often empty: a max or min of none fails)
            lambda p, c, d: '((%s x in %s of x->rank) > %s)' % (self.pick(['max', 'min']), d,
                                                               self.expr(NUMBER, 1)),
            lambda p, c, d: self.pick(['(standard->size == 52)', '(players->size > 1)',
                                       '(teams->size > 1)', 'defined teams',
                                       '(%s in standard)' % c, '(%s in teams)' % self.expr(TEAM, 1),
                                       '(%s in players)' % p]),
            lambda p, c, d: '(%s %s %s)' % (self.expr(STRING, 1), self.pick(['==', '!=']),
                                            self.expr(STRING, 1)),
            lambda p, c, d: self.any_prop(),
            lambda p, c, d: '(%s == %s)' % (self.prop(self.expr(CARD, 1), 'suit'), self.expr(SUIT, 1)),
            lambda p, c, d: '(((%s + %s) - %s) * %s) %s %s' % (
                tuple(self.expr(NUMBER, 1) for _ in range(4)) + (self.pick(['<=', '>', '==']),
                                                                  self.expr(NUMBER, 1))),
            lambda p, c, d: 'defined %s' % self.pick([c, d]),
            lambda p, c, d: 'defined %s' % self.pick(sorted(self.scopes[0])),
            lambda p, c, d: 'defined %s' % self.pick(['players', 'teams', 'standard']),
            lambda p, c, d: 'defined %s' % self.pick(['%s->last_played_by' % c, '(players->first)->team',
                                                      '(%s->top)->last_played_by' % d]),
            lambda p, c, d: self.expr(BOOLEAN, 2),
        ]
        owns = [(name, t) for owner, name, t in self.owns if owner == PLAYER]
        if owns:
            def own(p, c, d):
                name, t = self.pick(owns)
                return '(%s->%s == %s)' % (p, name, self.expr(t, 1))
            forms.append(own)
            forms.append(lambda p, c, d: 'defined %s->%s' % (p, self.pick(owns)[0]))
        if self.orderings:
            forms.append(lambda p, c, d: '(%s == (%s %s in %s by %s))' % (
                c, self.pick(['max', 'min']), self.fresh('x'), self.pick(['%s->hand' % p, d]),
                self.pick(self.orderings)))
        if self.rules or self.set_rules:
            forms.append(lambda p, c, d: 'canplay %s from %s to %s' % (
                self.pick(self.rules + self.set_rules), p, d))
        out = []
        for form in forms:
            name, p, c, d = self.fresh('z'), self.fresh('p'), self.fresh('c'), self.fresh('d')
            self.scopes.append({p: PLAYER, c: CARD, d: CARDS})
            try:
                out.append('Rule %s(%s, %s, %s) = %s.' % (name, p, c, d, form(p, c, d)))
            finally:
                self.scopes.pop()
        return out

    def any_prop(self):
        """A property of a player the loop loads as a value, not a local's."""
        prop, t = self.pick([('score', NUMBER), ('name', STRING)])
        return '((players->%s)->%s != %s)' % (self.pick(['first', 'last']), prop, self.expr(t, 1))

    def set_rule(self):
        """The extension: a rule over a set of cards of one rank."""
        name = self.fresh('s')
        p, cs, d = self.fresh('p'), self.fresh('cs'), self.fresh('d')
        self.scopes.append({p: PLAYER, cs: CARDS, d: CARDS})
        tests = ['(%s->size %s %d)' % (cs, self.pick(['>=', '<=', '==']), self.draw(between(1, 3))),
                 '(%s->size == 0 or %s->%s->rank %s %s->top->rank)' % (
                     d, cs, self.pick(['top', 'last']), self.pick(['>', '<', '!=']), d)]
        if self.chance(0.3):
            tests.append(self.expr(BOOLEAN, 1))
        body = ' and '.join(self.draw(st.lists(st.sampled_from(tests), min_size=1, max_size=3,
                                               unique=True)))
        self.scopes.pop()
        self.set_rules.append(name)
        return 'Rule %s(%s, %s, %s) for sets = %s.' % (name, p, cs, d, body)

    def ordering(self):
        name, cl = self.fresh('o'), self.fresh('cl')
        self.scopes.append({cl: CARDS})
        body = self.expr(CARDS, 2)
        self.scopes.pop()
        self.orderings.append(name)
        return 'Ordering %s(%s) = %s.' % (name, cl, body)

    def action(self, name, prologue=False):
        lines = []
        if prologue and self.chance(0.8):
            lines += ['shuffle stock.', 'deal %d from stock to players.' % self.draw(between(1, 5))]
        tour, table, last, self.ending = [], [], [], None
        if name == 'main':
            self.scopes.append({})       # the tour's locals, for the statements after it too
            tour = self.tour()
            if self.at_table:
                table = self.table()
            edges, last = self.edges()
        body = tour + self.block([], 3, 8) + last
        if name == 'main':
            self.scopes.pop()
            # main calls every helper, before or after its own statements
            calls = ['%s().' % a for a in self.actions]
            early = [c for c in calls if self.chance(0.5)]
            body = edges + table + early + body + [c for c in calls if c not in early]
            if self.ending:
                body.append(self.ending)
        else:
            self.actions.append(name)
        lines += body
        return 'Action %s {\n%s\n}' % (name, '\n'.join('  ' + line for line in lines))


# Seven valid answers first (the player count and up to six names), so that
# most games get going; then anything, including answers to be refused.
ANSWERS = st.tuples(
    st.lists(between(0, 6), min_size=7, max_size=7),
    st.lists(st.one_of(between(0, 6), between(0, 6), between(0, 6),
                       st.sampled_from(['', '?', ' 1', 'go', 'Ace of Clubs', '2'])),
             max_size=40),
).map(lambda parts: tuple(parts[0] + parts[1]))


@st.composite
def sources(draw):
    return Builder(draw, draw(st.booleans())).program()


@st.composite
def cases(draw):
    return Case(draw(sources()), draw(st.integers(0, 2 ** 30 - 1)), draw(ANSWERS))


@st.composite
def probed_cases(draw):
    """A case as cases() draws it, with probe rules declared in its program
    (Builder.probes, rules named z...: drawn after the rest of the case, so
    that the game is the one cases() draws; nothing in it plays them)."""
    builder = Builder(draw, draw(st.booleans()))
    source = builder.program()
    seed, answers = draw(st.integers(0, 2 ** 30 - 1)), draw(ANSWERS)
    return Case(with_probes(source, builder.probes()), seed, answers)


def with_probes(source, probes):
    """The program's source with the probe rules declared before its first action."""
    at = source.index('\nAction ') + 1
    return source[:at] + ''.join(line + '\n' for line in probes) + source[at:]


# --- broken programs -----------------------------------------------------------

# Each damage is a (find, replace) on the source whose result the checker must
# reject: a wrong type, an unknown name, a label nobody skips to, a skip to a
# label that isn't there...
DAMAGE = [
    ('Action main {', 'Action main {\n  let bad be 1 + True.'),
    ('Action main {', 'Action main {\n  nosuch = 3.'),
    ('Action main {', 'Action main {\n  message nosuch.'),
    ('Action main {', 'Action main {\n  label nowhere.'),
    ('Action main {', 'Action main {\n  skip to nowhere.'),
    ('Action main {', 'Action main {\n  skip to later.\n  let x be 1.\n  label later.'),
    ('Action main {', 'Action main {\n  deal 1 from players to stock.'),
    ('Action main {', 'Action main {\n  stock = 5.'),
    ('Action main {', 'Action main {\n  play nosuch from players->first to stock.'),
    ('Action main {', 'Action main {\n  winner stock.'),
    ('Action main {', 'Action main {\n  for x in 3 { }'),
    ('Action main {', 'Action main {\n  if 1 { }'),
    ('Action main {', 'Action main {\n  players = players.'),
    ('Action main {', 'Action main {\n  stock->size = 1.'),
    ('Action main {', 'Action main {\n  nosuch().'),
    ('Deck stock = standard.', 'Deck stock = standard.\nNumber stock = 1.'),
    ('Deck stock = standard.', 'Deck stock = 3.'),
    ('Action main {', 'Action helper { }\nAction helper { }\nAction main {'),
    ('Action main {', 'Action not_main {'),
]


@st.composite
def broken_sources(draw):
    source = draw(sources())
    find, replace = draw(st.sampled_from(DAMAGE))
    return source.replace(find, replace, 1)
