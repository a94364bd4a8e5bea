"""The reference interpreter: Pip's executable specification.

It walks the checked AST directly and follows the language manual,
docs/language.md (which follows the original OCaml interpreter, except
where it says otherwise), one rule at a time, in the plainest code that
will do.  It shares only the run-time objects (`pipvm.core.runtime`), the table
and its seats, and the random-number generator with the VM; every operation
(deal, play, order, for, skip, equality, string conversion...) is written
again here, so a bug in one engine cannot hide the same bug in the other.
The fuzzer (tests/fuzz) runs both on random programs and compares them.

Steps are counted as the VM counts them (a completed loop iteration, an
action call), so both stop at the same point under the same budget.
"""
import sys

from pipvm.core.dialogue import NO_WINNER, PASS, choice_question, set_label, won_by
from pipvm.core.errors import GameOver, PipError, StepLimit
from pipvm.core.runtime import (CALL_TOO_DEEP, LARGEST, MAX_CALL_DEPTH, Area, Card, Player, Rank, RANK_NAMES, RANKS, SUIT_BY_LETTER, Suit,
                           Team, card_sets, new_deck)

from compiler.ir import checked as c
from compiler.ir import types as T
from .pip_endings import Endings
from .pip_groups import Groups
from compiler.reference.told import play_event


# What a block returns after `break.` / `continue.`: pending like a skip's
# label, but no label matches them, and the nearest loop takes them.
BREAK, CONTINUE = object(), object()
LOOP_EXITS = {'break': BREAK, 'continue': CONTINUE}


def fail(pos, message):
    raise PipError(pos, message)


# --- values ---------------------------------------------------------------

def number(value):
    """A Number or Rank as a plain int."""
    return int(value)


def rank(value, pos):
    """A Number or Rank used as a Rank."""
    if type(value) is Rank:
        return value
    if 1 <= value <= 13:
        return RANKS[value]
    fail(pos, "The value %d can't be a Rank" % value)


def as_list(value):
    """A list's elements, or one value as a list of one."""
    return value if type(value) is list else [value]


def equal(a, b):
    """Pip's `==`: basic values by value (a Rank equals its Number), lists
    element by element, cards, players, teams and areas by identity."""
    numeric = (int, Rank)
    if type(a) in numeric and type(b) in numeric:
        return int(a) == int(b)
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if isinstance(a, str) and isinstance(b, str):     # (a test may note what a String shows)
        return a == b
    if type(a) is list and type(b) is list:
        return len(a) == len(b) and all(equal(x, y) for x, y in zip(a, b))
    return a is b


def member(x, items, pos):
    """`x in items`: a Rank, Number or Suit also matches a card that has it."""
    for item in items:
        if type(item) is Card and type(x) is Rank:
            hit = rank(item.rank, pos) == x
        elif type(item) is Card and type(x) is int:
            hit = number(item.rank) == x
        elif type(item) is Card and type(x) is Suit:
            hit = item.suit is x
        else:
            hit = equal(x, item)
        if hit:
            return True
    return False


def text(value, pos):
    """A value as `message` and `{x}` show it."""
    if value is None:
        fail(pos, 'Undefined value')
    if type(value) is bool:
        return 'True' if value else 'False'
    if type(value) is int:
        return str(value)
    if type(value) is Rank:
        return RANK_NAMES[value]
    if isinstance(value, str):
        return value
    if type(value) is Suit:
        return value.name
    if type(value) is Card:
        return '%s of %s' % (RANK_NAMES[value.born_rank], value.born_suit.name)
    if type(value) is Player:
        return value.name
    if type(value) is Team:
        return 'Team (%s)' % ', '.join(p.name for p in value.members)
    if type(value) is Area:    # extension: an area shows its label
        return value.name
    raise AssertionError('no string for %r' % (value,))


def card_list(value):
    """The cards a Player (its hand), an Area or a card list stands for."""
    if type(value) is Player:
        return value.hand
    if type(value) is Area:
        return value.cards
    return value


def move(card, source, dest):
    """Take the card out of source (first occurrence) and put it on top of dest."""
    for i in range(len(source)):
        if source[i] is card:
            del source[i]
            dest.insert(0, card)
            return True
    return False


# --- the interpreter --------------------------------------------------------

class Gave(Exception):
    """`give VALUE.`: the running action ends with its result."""

    def __init__(self, value):
        self.value = value


class Interpreter(Endings, Groups):
    """One game of a checked program."""

    def __init__(self, program, table, rng, max_steps=None):
        self.program, self.table, self.rng = program, table, rng
        self.deck = new_deck()
        self.globals = [None] * len(program.globals)
        self.players, self.teams = [], None
        self.seated = []
        self.max_steps = self.steps_left = max_steps
        self.init_frame = [None] * program.init_frame     # the initialisers' locals
        self.at = None      # the position of the statement running (block)
        self.depth = 0      # actions running, main's included (the VM's frames)

    def play(self):
        """Play the game and announce how it ended: the winner's name, or
        None if main returns."""
        self.ending = None      # extension: the line of an ending other than `winner X.`
        self.over = None        # (and its GameOver, whose places pipvm sim reads)
        winner = self.run()
        self.table.show(self.ending or (NO_WINNER if winner is None else won_by(winner)))
        return winner

    def run(self):
        p, table = self.program, self.table
        # Pip's calls nest Python's (about a dozen frames each), as deep as
        # MAX_CALL_DEPTH actions: room for them, so the limit is Pip's own error.
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 30 * MAX_CALL_DEPTH))
        table.banner(''.join(p.name))
        if p.team_size:
            self.players, self.teams = table.seat_teams(p.counts, p.team_size)
        else:
            self.players = table.seat_players(p.counts)
        self.seated = list(self.players)    # every player by seat (`out p.` leaves `players`)
        try:
            owns = [own for own in p.owns if own.init is not None]
            for i, g in enumerate(p.globals + [None]):
                while owns and owns[0].after == i:
                    self.init_own(owns.pop(0))
                if g is not None:
                    self.init_global(g)
            self.run_action(p.main)
        except GameOver as g:
            self.ending, self.over = g.line, g
            return g.winner
        return None

    def init_global(self, g):
        self.at = g.pos             # its declaration: the VM's position for its code
        if isinstance(g, c.AreaInit):
            value = [Area(self.string(label), [], g.facedown, g.squaredup)
                     for label in g.labels()]
            value = value if g.count or g.grows else value[0]     # extension: a list of areas
        elif g.init is None:
            value = None
        else:
            value = self.expr(g.init, self.init_frame)
        self.globals[g.var.slot] = value

    def init_own(self, own):
        """Extension: every player (or team) starts with the declared value."""
        self.at = own.pos
        value = self.expr(own.init, self.init_frame)
        for o in (self.players if own.owner == T.PLAYER else self.teams or ()):
            o.own[own.index] = value

    def step(self):
        if self.steps_left is not None:
            self.steps_left -= 1
            if self.steps_left < 0:
                raise StepLimit(self.max_steps)

    def run_action(self, index, args=()):
        action = self.program.actions[index]
        frame = [None] * action.frame_size
        frame[:len(args)] = args
        self.depth += 1
        try:
            self.block(action.body, frame)
        except Gave as gave:            # (an action with a result)
            return gave.value
        finally:
            self.depth -= 1
        return None

    # Extension: actions with parameters and results, which may recurse as
    # deep as the VM lets them (runtime.MAX_CALL_DEPTH frames).
    def call(self, action, args, pos, frame):
        values = [self.expr(arg, frame) for arg in args]
        self.step()
        if self.depth >= MAX_CALL_DEPTH:
            fail(pos, CALL_TOO_DEEP)
        return self.run_action(action, values)

    def stmt_Give(self, s, frame):
        raise Gave(self.expr(s.value, frame))

    def expr_Call(self, e, frame):
        return self.call(e.action, e.args, e.pos, frame)

    # --- statements: each returns the label of a pending skip, or None ------

    def block(self, stmts, frame):
        pending = None
        outer = self.at
        try:
            for s in stmts:
                if pending is None:
                    self.at = s.pos     # the statement's, where the VM reports a string's faults
                    pending = getattr(self, 'stmt_' + type(s).__name__)(s, frame)
                elif isinstance(s, c.Label) and s.name == pending:
                    pending = None
        finally:
            self.at = outer     # the rest of the statement around it (a call returns into it)
        return pending

    def expression_at(self, body, frame):
        """A rule's or ordering's body: a string's faults in it are reported
        at the body, its own statement, as the VM reports them."""
        outer, self.at = self.at, body.pos
        try:
            return self.expr(body, frame)
        finally:
            self.at = outer

    def stmt_Label(self, s, frame):
        return None

    def stmt_Skip(self, s, frame):
        return s.name

    def stmt_LoopExit(self, s, frame):
        return LOOP_EXITS[s.word]      # no label has this name: the block ends

    def stmt_Let(self, s, frame):
        frame[s.var.slot] = self.expr(s.value, frame)

    def stmt_Assign(self, s, frame):
        self.store(s.target, self.expr(s.value, frame), frame)

    def stmt_Compound(self, s, frame):
        old = self.load(s.target, frame)
        value = self.arith(s.op, old, self.expr(s.value, frame), s.pos)
        self.store(s.target, value, frame)

    def stmt_If(self, s, frame):
        for cond, body in s.branches:
            if cond is None or self.expr(cond, frame):
                return self.block(body, frame)
        return None

    def stmt_Forever(self, s, frame):
        while True:
            pending = self.block(s.body, frame)
            if pending is BREAK:
                return None
            if pending is not None and pending is not CONTINUE:
                return pending
            self.step()

    def stmt_For(self, s, frame):
        values = list(self.expr(s.items, frame))      # a snapshot
        if s.start is not None:
            start = self.expr(s.start, frame)
            at = next((i for i, v in enumerate(values) if equal(v, start)), None)
            if at is None:
                fail(s.pos, 'Starting element is not in list')
            values = values[at:] + values[:at]
        for value in values:
            frame[s.var.slot] = value
            pending = self.block(s.body, frame)
            if pending is BREAK:
                return None
            if pending is not None and pending is not CONTINUE:
                return pending
            self.step()
        return None

    def stmt_Invoke(self, s, frame):
        if s.args is not None:
            self.call(s.action, s.args, s.pos, frame)
            return
        self.step()
        self.run_action(s.action)

    def stmt_Ask(self, s, frame):
        player = self.load(s.player, frame)
        offered = []
        for q in s.questions:
            if type(q) is c.ListQuestion:
                offered += self.list_options(q, frame)
                continue
            label = self.string(q.text, frame)
            if q.cond is None or self.expr(q.cond, frame):
                offered.append((label, q.body, None))
        if not offered:
            fail(s.pos, 'None of the questions can be asked')
        i = self.choose(player, 'action', [label for label, _, _ in offered])
        _, body, bind = offered[i]
        if bind is not None:
            frame[bind[0]] = bind[1]
        return self.block(body, frame)

    def list_options(self, q, frame):
        """Extension: a list question's options, one per item of a snapshot of
        the list (a step per item, as a `for` loop's round)."""
        options = []
        for item in list(self.expr(q.items, frame)):
            frame[q.var.slot] = item
            label = self.string(q.text, frame)
            if q.cond is None or self.expr(q.cond, frame):
                options.append((label, q.body, (q.var.slot, item)))
            self.step()
        return options

    def choose(self, player, kind, options):
        return self.table.choose(player.seat, choice_question(player.name, kind), options,
                                 "%s's choice" % player.name)

    def area_of(self, cards):
        """The global Area (or an Area of a global list of areas, an
        extension) whose cards are this very list, or None."""
        for v in self.globals:
            for a in (v if type(v) is list else (v,)):
                if type(a) is Area and a.cards is cards:
                    return a
        return None

    def stmt_Message(self, s, frame):
        message = self.expr(s.text, frame)
        if s.to is None:
            self.table.show(message)
            return
        to = self.load(s.to, frame)
        members = to.members if type(to) is Team else as_list(to)
        for player in list(members):
            self.table.tell(player, message)

    def stmt_Winner(self, s, frame):
        raise GameOver(text(self.load(s.who, frame), s.who.pos))

    def stmt_DealCard(self, s, frame):
        card = self.expr(s.card, frame)
        source = card_list(self.load(s.source, frame))
        dest = card_list(self.load(s.dest, frame))
        if not move(card, source, dest):
            fail(s.pos, 'Card is not in the source')

    def stmt_DealCards(self, s, frame):
        source = card_list(self.load(s.source, frame))
        dest = self.load(s.dest, frame)
        if s.dest.type == T.PLAYERS:
            hands = [p.hand for p in dest]
        else:
            hands = [card_list(dest)]
        if s.count is None:
            n = len(source)
        else:
            n = number(self.expr(s.count, frame)) * len(hands)
        if all(hand is source for hand in hands):
            # No hands (the original divides by zero), or each card would go
            # back on top of where it was: nothing changes (n may be huge).
            return
        # Card i (counting from 1) goes to hands[i mod len]: with several
        # players the first card goes to the second one.
        for i in range(1, n + 1):
            if not source:
                return
            move(source[0], source, hands[i % len(hands)])

    @staticmethod
    def text(value, pos):               # (for pip_endings.py, which this module imports)
        return text(value, pos)

    def rule_args(self, binds, frame):
        """Extension: a rule's arguments, stored where its parameters are read."""
        for var, value in binds or ():
            self.globals[var.slot] = self.expr(value, frame)

    def stmt_Play(self, s, frame):
        self.rule_args(s.binds, frame)
        player = self.load(s.player, frame)
        dest = card_list(self.load(s.dest, frame))
        cards = self.playable(s.rule, player, dest)
        if not cards:
            fail(s.pos, 'No cards match the given rule')
        i = self.choose(player, 'card', [text(card, s.pos) for card in cards])
        card = cards[i]
        move(card, player.hand, dest)
        card.last_played_by = player
        self.table.show_event(play_event(player, text(card, s.pos), self.area_of(dest)))

    def stmt_PlaySet(self, s, frame):
        """Extension: a set of cards of one rank the rule allows, or a pass."""
        self.rule_args(s.binds, frame)
        player = self.load(s.player, frame)
        dest = self.load(s.dest, frame)
        # (the pass's own label, an extension, is made before the destination's cards are read)
        label = PASS if s.label is None else self.string(s.label, frame)
        dest = card_list(dest)
        if s.one:                   # (extension: a card rule's single cards, or the pass)
            sets = [[card] for card in self.playable(s.rule, player, dest)]
        else:
            sets = list(self.allowed_sets(s.rule, player, dest))
        labels = [set_label([text(card, s.pos) for card in cards]) for cards in sets]
        if s.passing is not None:
            sets.append(None)
            labels.append(label)
        if not sets:
            fail(s.pos, 'No cards match the given rule')
        chosen = sets[self.choose(player, 'card' if s.one else 'cards', labels)]
        if chosen is None:
            return self.block(s.passing, frame)
        for card in chosen:
            move(card, player.hand, dest)
            card.last_played_by = player
            self.table.show_event(play_event(player, text(card, s.pos), self.area_of(dest)))
        return None

    def stmt_Order(self, s, frame):
        cards = self.load(s.target, frame)
        cards[:] = self.ordered(s.ordering, cards)

    def ordered(self, index, cards):
        ordering = self.program.orderings[index]
        result = self.expression_at(ordering.body, [cards] + [None] * (ordering.frame_size - 1))

        def place(card):           # the first place the card has in the result
            for i, other in enumerate(result):
                if other is card:
                    return i
            return len(result)
        return sorted(cards, key=place)       # sorted() is stable

    def stmt_Rotate(self, s, frame):
        items = self.load(s.target, frame)
        if items:
            items.append(items.pop(0))

    def stmt_Shuffle(self, s, frame):
        # Fisher-Yates from the top index down, as the original's Utils.shuffle.
        items = self.load(s.target, frame)
        for n in range(len(items), 1, -1):
            r = self.rng.int(n)
            items[n - 1], items[r] = items[r], items[n - 1]

    # --- rules ----------------------------------------------------------------

    def playable(self, index, player, dest):
        """The cards of the player's hand the rule allows, in hand order."""
        rule = self.program.rules[index]
        return [card for card in list(player.hand)
                if self.expression_at(rule.body, [player, card, dest] + [None] * (rule.frame_size - 3))]

    def allowed_sets(self, index, player, dest):
        """Extension: the sets of cards of one rank a rule for sets allows,
        in the order they are offered (runtime.card_sets), one at a time."""
        rule = self.program.rules[index]
        pad = [None] * (rule.frame_size - 3)
        return (cards for cards in card_sets(player.hand)
                if self.expression_at(rule.body, [player, cards, dest] + pad))

    # --- references -----------------------------------------------------------

    def load(self, ref, frame, pos=None):
        """A reference's value; undefined is an error at pos (by default the
        reference's own position)."""
        if isinstance(ref, c.NewGroup):         # extension (pip_groups.py)
            return self.new_group(ref, frame)
        value = self.read(ref, frame)
        if value is None:
            fail(pos or ref.pos, 'Undefined value')
        return value

    def read(self, ref, frame):
        """A reference's value, None when undefined."""
        if isinstance(ref, c.PropRef):
            obj = self.expr(ref.obj, frame)
            if isinstance(ref.prop, c.Field):
                return getattr(obj, ref.prop.name)
            if isinstance(ref.prop, c.Own):
                return obj.own.get(ref.prop.index)
            if ref.prop.name == 'size':
                return len(obj)
            if not obj:
                fail(ref.pos, "Can't get item from empty list")
            return obj[0] if ref.prop.name in ('first', 'top') else obj[-1]
        var = ref.var
        if isinstance(var, c.Global):
            return self.globals[var.slot]
        if isinstance(var, c.Local):
            return frame[var.slot]
        if var.name == 'players':
            return self.players
        if var.name == 'teams':
            return self.teams
        return list(self.deck)                   # standard: a new list each time

    def store(self, ref, value, frame):
        if isinstance(ref, c.PropRef):
            obj = self.expr(ref.obj, frame)
            if isinstance(ref.prop, c.Own):
                obj.own[ref.prop.index] = value
            else:
                setattr(obj, ref.prop.name, value)
        elif isinstance(ref.var, c.Global):
            self.globals[ref.var.slot] = value
        else:
            frame[ref.var.slot] = value

    def string(self, parts, frame=None):
        try:
            return ''.join(p if isinstance(p, str) else text(self.load(p, frame), p.pos)
                           for p in parts)
        except ValueError:      # a Number over the 4,300 digits Python shows
            fail(self.at, 'Number too large to show')

    # --- expressions ----------------------------------------------------------

    def expr(self, e, frame):
        return getattr(self, 'expr_' + type(e).__name__)(e, frame)

    def expr_Literal(self, e, frame):
        if e.type == T.RANK:
            return RANKS[e.value]
        if e.type == T.SUIT:
            return SUIT_BY_LETTER[e.value]
        return e.value

    def expr_StrLiteral(self, e, frame):
        return self.string(e.parts, frame)

    def expr_Ref(self, e, frame):
        return self.load(e.ref, frame, e.pos)

    def expr_Defined(self, e, frame):
        return self.read(e.ref, frame) is not None

    def expr_Not(self, e, frame):
        return not self.expr(e.expr, frame)

    def expr_Binary(self, e, frame):
        if e.op == 'and':
            return self.expr(e.left, frame) and self.expr(e.right, frame)
        if e.op == 'or':
            return self.expr(e.left, frame) or self.expr(e.right, frame)
        a, b = self.expr(e.left, frame), self.expr(e.right, frame)
        if e.op == '==':
            return equal(a, b)
        if e.op == '!=':
            return not equal(a, b)
        if e.op == 'in':
            return member(a, b, e.pos)
        if e.op == '<':
            return number(a) < number(b)
        if e.op == '<=':
            return number(a) <= number(b)
        if e.op == '>':
            return number(a) > number(b)
        if e.op == '>=':
            return number(a) >= number(b)
        return self.arith(e.op, a, b, e.pos)

    @staticmethod
    def arith(op, a, b, pos):
        a, b = number(a), number(b)
        if op == '+':
            return a + b
        if op == '-':
            return a - b
        if op == '*':
            product = a * b
            if not -LARGEST - 1 <= product <= LARGEST:
                fail(pos, 'Number too large')
            return product
        if b == 0:
            fail(pos, 'Division by zero')
        quotient = abs(a) // abs(b)              # truncated toward zero
        return quotient if (a < 0) == (b < 0) else -quotient

    def expr_CanPlay(self, e, frame):
        self.rule_args(e.binds, frame)
        player = self.load(e.player, frame)
        dest = card_list(self.load(e.dest, frame))
        return len(self.playable(e.rule, player, dest)) > 0

    def expr_CanPlaySet(self, e, frame):
        self.rule_args(e.binds, frame)
        player = self.load(e.player, frame)
        dest = card_list(self.load(e.dest, frame))
        return any(self.allowed_sets(e.rule, player, dest))

    def the_card(self, r, s):
        """The card created with rank r and suit s (deck order: suits C H S D)."""
        return self.deck[s.index * 13 + int(r) - 1]

    def expr_CardExpr(self, e, frame):
        ranks = as_list(self.expr(e.rank, frame))
        suits = as_list(self.expr(e.suit, frame))
        cards = [self.the_card(rank(r, e.pos), s) for r in ranks for s in suits]
        return cards[0] if e.type == T.CARD else cards

    def expr_Range(self, e, frame):
        low, high = number(self.expr(e.low, frame)), number(self.expr(e.high, frame))
        values = range(low, high + 1) if low <= high else range(low, high - 1, -1)
        return [rank(n, e.pos) for n in values]

    def expr_Seq(self, e, frame):
        return as_list(self.expr(e.left, frame)) + as_list(self.expr(e.right, frame))

    def expr_WildRank(self, e, frame):
        suits = as_list(self.expr(e.suit, frame))
        return [card for card in self.deck if any(card.suit is s for s in suits)]

    def expr_WildSuit(self, e, frame):
        ranks = [rank(r, e.pos) for r in as_list(self.expr(e.rank, frame))]
        return [card for card in self.deck if rank(card.rank, e.pos) in ranks]

    def expr_WildCard(self, e, frame):
        return list(self.deck)

    def expr_Aggregate(self, e, frame):
        """Extension: count, sum, max, min over a list (`by`: as `order` sorts)."""
        items = list(self.expr(e.items, frame))
        if e.var is None:
            if not items:
                fail(e.pos, "Can't get item from empty list")
            return self.ordered(e.body, items)[-1 if e.word == 'max' else 0]
        values = []
        for item in items:
            frame[e.var.slot] = item
            values.append(self.expr(e.body, frame))
        if e.word == 'count':
            return sum(1 for v in values if v)
        if e.word == 'sum':
            return sum(int(v) for v in values)
        if not values:
            fail(e.pos, "Can't get item from empty list")
        best = values[0]
        for v in values[1:]:       # the first of equal values, as the VM keeps it
            if (v > best) if e.word == 'max' else (v < best):
                best = v
        return best

    def expr_ListLit(self, e, frame):
        out = []
        for item in e.items:
            out.extend(as_list(self.expr(item, frame)))
        return out
