"""The second line of a syntax error: where, what was found, and what the
grammar would have accepted there, in a game author's words.

The original names only the line (`Error: syntax error on line N`), and that
line stays as it was.  What comes after it is ours: the tokens that have an
action in the parser's state (checked by running the LALR tables on a copy
of the stack, so LALR's merged look-aheads do not promise what the parse
would then refuse), grouped and worded, with the construct a closing token
would finish, and special cases for the mistakes authors make most.
"""
import difflib
import functools
import re
from collections import defaultdict

from .lexer import KEYWORDS, Positions

SPELLING = {t: word for word, t in KEYWORDS.items()}
SPELLING.update({
    'LCURLY': '{', 'RCURLY': '}', 'LPAREN': '(', 'RPAREN': ')', 'LSQUARE': '[',
    'RSQUARE': ']', 'ARROW': '->', 'COMMA': ',', 'DOT': '.', 'DOTDOT': '..', 'SEMI': ';',
    'TILDE': '~', 'PERCENT': '%', 'ASSIGN': '=', 'EQ': '==', 'NOTEQ': '!=', 'LT': '<',
    'LTEQ': '<=', 'GT': '>', 'GTEQ': '>=', 'PLUS': '+', 'MINUS': '-', 'TIMES': '*',
    'DIVIDE': '/', 'PLUSEQ': '+=', 'MINUSEQ': '-=', 'TIMESEQ': '*=', 'DIVIDEEQ': '/=',
})
NAMED = {'ID': 'a name', 'NUMLIT': 'a number', 'STRINGLIT': 'a string in quotes',
         '$end': 'the end of the file'}

TYPES = {'BOOLEAN', 'CARD', 'CARDLIST', 'DECK', 'NUMBER', 'PLAYER', 'PLAYERLIST', 'RANK',
         'RANKLIST', 'STRING', 'SUIT', 'SUITLIST', 'TEAM', 'TEAMLIST'}
DECL_START = TYPES | {'AREA', 'ACTION', 'RULE', 'ORDERING'}
STMT_KEYWORDS = {'ASK', 'DEAL', 'FOREVER', 'FOR', 'IF', 'LABEL', 'LET', 'MESSAGE', 'ORDER',
                 'PLAY', 'ROTATE', 'SHUFFLE', 'SKIP', 'WINNER'}
REF_START = {'ID', 'LPAREN', 'PLAYERS', 'TEAMS', 'STANDARD'}
RANKS = {'ACE', 'KING', 'QUEEN', 'JACK'}
SUITS = {'CLUBS', 'HEARTS', 'SPADES', 'DIAMONDS'}
VALUE_START = REF_START | RANKS | SUITS | {
    'NOT', 'DEFINED', 'CANPLAY', 'PERCENT', 'LSQUARE', 'STRINGLIT', 'NUMLIT', 'TRUE', 'FALSE'}
OPERATORS = {'PLUS', 'MINUS', 'TIMES', 'DIVIDE', 'EQ', 'NOTEQ', 'LT', 'LTEQ', 'GT', 'GTEQ',
             'AND', 'OR', 'IN', 'ARROW', 'TILDE', 'DOTDOT', 'COMMA'}
CLOSERS = ('DOT', 'RCURLY', 'RPAREN', 'RSQUARE')

# (words, the tokens whose presence means the group is expected, all it stands for)
GROUPS = [
    ('a declaration', DECL_START, DECL_START),
    ('a statement', STMT_KEYWORDS, STMT_KEYWORDS | REF_START),
    ('a value', {'NOT', 'LSQUARE', 'TRUE'}, VALUE_START),
    ('a rank', RANKS, RANKS | REF_START | {'NUMLIT'}),
    ('a suit', SUITS, SUITS | REF_START),
    ('a name', {'ID', 'PLAYERS', 'TEAMS', 'STANDARD'}, REF_START),
    ('an operator', {'PLUS', 'EQ', 'AND'}, OPERATORS),
]
DECLARATIONS = {'vardecl', 'areadecl', 'ruledecl', 'orderdecl'}
SHOWN = 24                      # at most this much of a found token is quoted


class Tables:
    """The parser's LALR tables, and the LR(0) items of each state (which SLY
    does not keep), rebuilt from the grammar and numbered by its tables."""

    def __init__(self, parser_class):
        lr = parser_class._lrtable
        self.action, self.goto, self.defaulted = lr.lr_action, lr.lr_goto, lr.defaulted_states
        self.prods = parser_class._grammar.Productions
        self.terminals = [t for t in parser_class._grammar.Terminals if t != 'error'] + ['$end']
        self.items = self._items()

    def _items(self):
        by_name = defaultdict(list)
        for p in self.prods:
            by_name[p.name].append(p.number)

        def closure(kernel):
            items, work = set(kernel), list(kernel)
            while work:
                p, dot = work.pop()
                after = self.prods[p].prod[dot:dot + 1]
                for q in by_name.get(after[0], ()) if after else ():
                    if (q, 0) not in items:
                        items.add((q, 0))
                        work.append((q, 0))
            return items

        states, work = {0: closure({(0, 0)})}, [0]
        while work:
            s = work.pop()
            moves = defaultdict(set)
            for p, dot in states[s]:
                if dot < self.prods[p].len:
                    moves[self.prods[p].prod[dot]].add((p, dot + 1))
            for symbol, kernel in moves.items():
                target = (self.goto if symbol in by_name else self.action)[s].get(symbol)
                if target and target > 0 and target not in states:
                    states[target] = closure(kernel)
                    work.append(target)
        return states

    def shift(self, states, symbols, token):
        """Run the tables on copies of the stacks with `token` next: the stacks
        once it is shifted (or accepted at the end), or None if it is an error."""
        states, symbols = list(states), list(symbols)
        while True:
            s = states[-1]
            move = self.defaulted.get(s)
            if move is None:
                move = self.action[s].get(token)
            if move is None:
                return None
            if move >= 0:
                return states + [move], symbols + [token]
            p = self.prods[-move]
            if p.len:
                del states[-p.len:], symbols[-p.len:]
            states.append(self.goto[states[-1]][p.name])
            symbols.append(p.name)


@functools.cache
def tables(parser_class):
    """The Tables of a SLY parser class (the parser hands over its own: it is built on this module)."""
    return Tables(parser_class)


class Context:
    """A syntax error as the parser saw it, and the text around it."""

    def __init__(self, parser_class, text, states, symbols, token, previous):
        self.text, self.token, self.previous = text, token, previous
        self.tables = tables(parser_class)
        self.states = states
        self.symbols = symbols          # parser symbols: tokens or YaccSymbols
        self.at = Positions(text)
        self.type = token.type if token else '$end'
        self.shifted = {}
        for t in self.tables.terminals:
            after = self.tables.shift(states, symbols, t)
            if after:
                self.shifted[t] = after

    def source(self, tok):
        return self.text[tok.index:tok.end]


def explain(parser_class, text, states, symbols, token, previous):
    """(position, found, advice): where to point, what is there (`"players"`),
    and what to do (`expected "." to end the declaration`), for a syntax
    error of a parser of parser_class."""
    c = Context(parser_class, text, states, symbols, token, previous)
    for special in SPECIALS:
        found = special(c)
        if found:
            return found
    return _where(c), _found(c), _expected(c)


def _where(c, tok=None):
    tok = tok or c.token
    return c.at(len(c.text) if tok is None else tok.index)


def _found(c):
    if c.token is None:
        return 'the end of the file'
    words = c.source(c.token)
    if c.type == 'STRINGLIT':
        first = words.split('\n')[0]
        short = first if first == words and len(first) <= SHOWN else first[:SHOWN] + '..."'
        return 'the string ' + short
    return '"%s"' % (words if len(words) <= SHOWN else words[:SHOWN] + '...')


def _expected(c):
    """`expected A, B or C`: the accepted tokens, grouped, closers first.
    Ways to go on (operators, `->`) are named only when nothing else fits:
    after `1 2` the author meant to end, not to add.  A token only an
    extension takes there is not named (unless inside the extension, where
    nothing else fits): 2008 Pip's hints stay as they were."""
    left = {t for t in c.shifted if not _only_extension(c, t)} or set(c.shifted)
    words = []
    for t in CLOSERS + ('LCURLY',):
        if t in left:
            words.append('"%s"%s' % (SPELLING[t], _purpose(c, t)))
            left.discard(t)
    going_on = {t for t in left & OPERATORS if not _purpose(c, t)}
    if going_on != left or words:
        left -= going_on
    groups = []
    for name, core, members in GROUPS:
        if core <= left:
            groups.append(name)
            left -= members
    words += sorted('"%s"%s' % (SPELLING[t], _purpose(c, t)) for t in left if t in SPELLING)
    words += groups + [NAMED[t] for t in ('ID', 'NUMLIT', 'STRINGLIT', '$end') if t in left]
    return 'expected ' + _alternatives(words)


def _alternatives(words):
    return words[0] if len(words) == 1 else ', '.join(words[:-1]) + ' or ' + words[-1]


# What a token would do in a construct, where the construct says more than
# the token: (rule, token) -> words.
PURPOSES = {
    ('ruledecl', 'COMMA'): ' (a Rule has three parameters, e.g. Rule r(p, c, pile))',
    ('listitems', 'SEMI'): ' between the items of a list',
    ('areaopts', 'COMMA'): ' between the options',
    ('vardecl', 'ASSIGN'): ' to give it a value',
}


# Rules only an extension has (`Number bid for each player.`).
EXTENSION_RULES = {'owndecl'}


def _only_extension(c, t):
    """Does shifting t here continue nothing but an extension's rule?"""
    states, _ = c.shifted[t]
    prods = c.tables.prods
    rules = {prods[p].name for p, dot in c.tables.items[states[-1]]
             if dot and prods[p].prod[dot - 1] == t}
    return bool(rules) and rules <= EXTENSION_RULES


def _purpose(c, t):
    """What shifting t would finish (or, for "{", begin), when that helps."""
    states, symbols = c.shifted[t]
    items = c.tables.items[states[-1]]
    prods = c.tables.prods
    for p, dot in sorted(items):
        prod = prods[p]
        if dot == 0 or prod.prod[dot - 1] != t:
            continue
        if (prod.name, t) in PURPOSES:
            return PURPOSES[prod.name, t]
        if t not in CLOSERS + ('LCURLY',):
            continue
        if t == 'DOT':
            if prod.name == 'gameheading':
                return " to end the game's heading"
            thing = 'declaration' if prod.name in DECLARATIONS else 'statement'
            return ' to end the %s%s' % (thing, _on_earlier_line(c))
        if t == 'LCURLY':
            return _block_owner(c, states[:-1])
        what, opening = {'RCURLY': ('the block', 'LCURLY'), 'RPAREN': ('the "("', 'LPAREN'),
                         'RSQUARE': ('the list', 'LSQUARE')}[t]
        before = prod.prod[:dot]
        opener = symbols[len(symbols) - dot + len(before) - 1 - before[::-1].index(opening)]
        if hasattr(opener, 'index'):
            if prod.name == 'questionblock':
                what = 'the questions'
            return ' to close %s opened %s' % (what, _place(c, opener))
    return ''


def _block_owner(c, states):
    """` to begin the body of "if"`: the construct whose block starts here."""
    for p, dot in sorted(c.tables.items[states[-1]]):
        prod = c.tables.prods[p]
        if prod.prod[dot:dot + 1] in (('block',), ('questionblock',)):
            # Its first token: `elseifs ELSEIF expr block` begins with the elseifs before it.
            first = next((s for s in prod.prod if s in SPELLING or s == 'STRINGLIT'), None)
            if first is None:
                return ''
            owner = 'the question' if first == 'STRINGLIT' else '"%s"' % SPELLING[first]
            return ' to begin the body of %s' % owner
    return ''


def _place(c, tok):
    """`on line 3` or, on the error's own line, `at column 7`."""
    pos, here = c.at(tok.index), _where(c)
    return 'at column %d' % pos[1] if pos[0] == here[0] else 'on line %d' % pos[0]


def _on_earlier_line(c):
    """A missing "." is noticed at the next line's first word: name the line."""
    prev = c.previous
    if prev is not None and c.at(prev.end - 1)[0] < _where(c)[0]:
        return ' on line %d' % c.at(prev.end - 1)[0]
    return ''


def _did_you_mean(word, spellings):
    close = difflib.get_close_matches(word, spellings, n=1, cutoff=0.75)
    if not close and word.lower() in {s.lower(): s for s in spellings}:
        close = [s for s in spellings if s.lower() == word.lower()]
    return close[0] if close else None


# --- the common mistakes ------------------------------------------------------

# What Pip offers instead of what authors reach for first: functions, calls
# with arguments, results, a card of a computed rank.  One table, so that
# when Pip gains one of these, its hint is changed here (actions with
# parameters or results: the 'call...', 'action...' and 'return' rows).
# Each text follows `found "X"; ` and is filled in with str.format from the
# author's own words (or a placeholder in capitals where those cannot be quoted).
OFFERS = {
    'computed rank': (
        'beside "~" goes only a name, a number or a rank, not a calculation: name it first '
        '("let n be {expr}." then n~{suit}), or go over the cards and compare ranks '
        '("for c in %~{suit} {{ if c->rank == {expr} {{ ... }} }}")'),
    'call in a rule': (
        'a rule or ordering cannot call a rule or an action: write the condition out here '
        '(a statement can test a rule with "canplay RULE from PLAYER to PLACE")'),
    'call with commas': (
        'a call\'s arguments are separated by ";", as a list\'s items are (a comma joins '
        'ranks and suits, as in A, K~S): {name}({args})'),
    'action parameters': (
        'each parameter of an action has its type before it: Action {name}(Player p, '
        'Number n) {{ ... }}, and "gives TYPE" after them for a result'),
    'return': (
        'an action gives its result with "give" ("return" is not a word of Pip): '
        'Action NAME(Number n) gives Number { ... give n + 1. }'),
    'min': 'there is no function "min": (min X in {list} of NUMBER) is the smallest of a list',
    'max': 'there is no function "max": (max X in {list} of NUMBER) is the largest of a list',
    'min of two': '; for two numbers use "if": "let m be {a}. if {b} < m {{ m = {b}. }}"',
    'max of two': '; for two numbers use "if": "let m be {a}. if {b} > m {{ m = {b}. }}"',
    'count': (
        'there is no function "count": (count X in {list} where CONDITION) counts the items '
        'that make CONDITION true, and {list}->size counts them all'),
    'sum': 'there is no function "sum": (sum X in {list} of NUMBER) adds up a NUMBER for each item',
    'index': 'a list\'s item by its place is written (item {index} of {list}), counting from 1',
    'list of lists': (
        'there are no lists of lists: groups of cards kept apart (melds) are a list of groups, '
        'Area {name}[] labeled "LABEL" is faceup. (its type "Area[]" as a parameter\'s)'),
    'new': ('a group is made by dealing cards to it, "deal CARDS from SOURCE to new {list}."; '
            '{list}->last is then the new group'),
    'for each': ('a loop over a list is "for {name} in LIST {{ ... }}" ("for each player" '
                 'only declares a value for each player)'),
}

def _no_heading(c):
    if c.states == [0]:
        return _where(c), _found(c), ('expected "Game" to begin the heading, '
                                      'e.g. Game "Snap" requires 2 players.')


def _assign_for_equals(c):
    if c.type == 'ASSIGN' and 'EQ' in c.shifted:
        return _where(c), '"="', 'expected "==" to compare (a single "=" gives a value)'
    if c.type == 'EQ' and 'ASSIGN' in c.shifted:
        return _where(c), '"=="', 'expected "=" to give a value ("==" compares)'


def _else_if(c):
    if c.type == 'IF' and c.previous is not None and c.previous.type == 'ELSE':
        return _where(c), '"if" after "else"', 'write "elseif" as one word'


def _declaration_in_action(c):
    if c.type in DECL_START and STMT_KEYWORDS <= set(c.shifted):
        return _where(c), _found(c), ('declarations cannot go inside an action: declare it '
                                      'before the action, or use "let NAME be VALUE."')


def _range_without_suits(c):
    # `for i in 1..13 {`: a range exists only as the rank side of a card
    # expression, so the parser waits for its `~`.
    p = c.previous
    if (c.type != 'TILDE' and 'TILDE' in c.shifted and p is not None
            and p.type in ('NUMLIT', 'ACE', 'KING', 'QUEEN', 'JACK')
            and c.text[:p.index].rstrip().endswith('..')):
        return _where(c), _found(c), ('expected "~": a range such as 1..13 names cards, as in '
                                      '1..13~S; it is not a list of numbers')


def _statement_outside_action(c):
    if c.type in STMT_KEYWORDS and DECL_START <= set(c.shifted):
        return _where(c), _found(c), ('expected a declaration: statements go inside an '
                                      'action, e.g. Action main { ... }')


def _misspelled_keyword(c):
    """`shufle deck.`: a statement's first word that is no keyword reads as a
    name, and the error comes a word later; or `form` where `from` belongs."""
    prev = c.previous
    if prev is not None and prev.type == 'ID' and _began_a_statement(c):
        word = _did_you_mean(prev.value.value, [SPELLING[t] for t in STMT_KEYWORDS])
        if word:
            return (_where(c, prev), '"%s", which is not a keyword' % prev.value.value,
                    'did you mean "%s"?' % word)
    if c.token is not None and c.type not in ('STRINGLIT', 'NUMLIT'):
        spellings = [SPELLING[t] for t in c.shifted if t in KEYWORDS.values()]
        word = _did_you_mean(c.source(c.token), spellings)
        if word:
            return _where(c), _found(c), 'did you mean "%s"?' % word


def _name_alone(c):
    """`helper.`: a statement that begins with a name goes on to set it or call it."""
    if {'ASSIGN', 'LPAREN'} <= set(c.shifted) and _began_a_statement(c):
        return _where(c), _found(c), ('expected "=" (or "+=", "-=", "*=", "/=") to give it a '
                                      'value, or "()" to call an action')


def _for_over_range(c):
    """`for i in 1..5 { ... }`: a range is part of a card expression, not a list."""
    kinds = [getattr(sym, 'type', None) for sym in c.symbols]
    if c.type == 'LCURLY' and 'TILDE' in c.shifted and 'FOR' in kinds:
        return _where(c), _found(c), ('a range such as 1..5 is written only in a card '
                                      'expression (1..5~C); to go over numbers, loop over '
                                      'a list: for i in [1; 2; 3; 4; 5] { ... }')


def _computed_rank(c):
    """`(r + 1)~H`, `[3; 4]~S`: a card expression's sides are names and literals only."""
    prev = c.previous
    if c.type == 'TILDE' and 'TILDE' not in c.shifted and prev is not None \
            and prev.type in ('RPAREN', 'RSQUARE'):
        expr = 'EXPR'
        if prev.type == 'RPAREN' and len(c.symbols) >= 3:
            opener = c.symbols[-3]
            if getattr(opener, 'type', None) == 'LPAREN':
                expr = _quoted(c.text[opener.index + 1:prev.index].strip(), expr)
        suit = re.match(r'\s*(%|[A-Za-z_]\w*)', c.text[c.token.end:])
        return _where(c), _found(c), OFFERS['computed rank'].format(
            expr=expr, suit=suit.group(1) if suit else 'H')


def _call_with_commas(c):
    """`min(a, 10)`, `big(p, c, p->hand)`, `helper(n, 2).`: a call's arguments
    separated by commas, which Pip reads as ranks joined (`A, K~S`)."""
    syms = c.symbols
    kinds = [getattr(sym, 'type', None) for sym in syms]
    for i in range(len(syms) - 1, 0, -1):
        if kinds[i] == 'LPAREN' and (kinds[i - 1] == 'CALLNAME' or (
                kinds[i - 1] == 'ID' and (i < 2 or kinds[i - 2] not in DECL_START))):
            break
    else:
        return None
    args = _arguments(c.text, syms[i].index)
    if len(args) < 2:
        return None
    name = syms[i - 1].value.value
    where, found = _where(c, syms[i]), '"("'
    in_rule = 'RULE' in kinds or 'ORDERING' in kinds
    if name in ('min', 'max', 'count', 'sum'):
        advice = OFFERS[name].format(list='LIST')
        if name in ('min', 'max') and not in_rule:   # a rule has no "if"
            a, b = args if len(args) == 2 else ('A', 'B')
            advice += OFFERS[name + ' of two'].format(a=a, b=b)
        return where, found, advice
    if in_rule:
        return where, found, OFFERS['call in a rule']
    return where, found, OFFERS['call with commas'].format(name=name, args='; '.join(args))


def unknown_call_hint(name, arg):
    """The hint for a call of `min(x)` (and max, count, sum) or `return (x).`
    where no action has that name (arg: the one argument as written, or
    None), or None."""
    if name in ('min', 'max', 'count', 'sum'):
        return OFFERS[name].format(list=arg or 'LIST')
    if name == 'return':
        return OFFERS['return']
    return None


def _action_with_parameters(c):
    """`Action value(p) {`: a parameter without its type."""
    kinds = [getattr(sym, 'type', None) for sym in c.symbols]
    if c.type == 'ID' and len(kinds) >= 3 and kinds[-1] in ('LPAREN', 'COMMA') \
            and 'ACTION' in kinds and 'LCURLY' not in kinds[kinds.index('ACTION'):]:
        name = c.symbols[kinds.index('ACTION') + 1].value.value
        return _where(c), _found(c), OFFERS['action parameters'].format(name=name)


def _return(c):
    """`return x.`: a statement that begins with "return", which Pip has not."""
    prev = c.previous
    if prev is not None and prev.type == 'ID' and prev.value.value == 'return' \
            and _began_a_statement(c):
        return _where(c, prev), '"return"', OFFERS['return']


def _arguments(text, start):
    """The arguments of the call whose "(" is at start, as written, if each
    is short and on the call's line; else []."""
    depth, args, begin = 0, [], start + 1
    for i in range(start, min(len(text), start + 200)):
        ch = text[i]
        if ch in '"\n':
            return []
        if ch in '([':
            depth += 1
        elif ch in ')]':
            depth -= 1
            if depth == 0:
                args.append(text[begin:i].strip())
                break
        elif ch == ',' and depth == 1:
            args.append(text[begin:i].strip())
            begin = i + 1
    else:
        return []
    return args if all(0 < len(a) <= SHOWN for a in args) else []


def _quoted(words, placeholder):
    """The author's words, if short and on one line; else the placeholder."""
    return words if words and '\n' not in words and len(words) <= SHOWN else placeholder


def _began_a_statement(c):
    """Whether the name just read began a statement: it is alone on top of the
    stack, where any statement keyword could have stood instead."""
    if getattr(c.symbols[-1], 'type', None) not in ('ID', 'ref'):
        return False
    states, symbols = c.states[:-1], c.symbols[:-1]
    return all(c.tables.shift(states, symbols, t) for t in STMT_KEYWORDS)


def _keyword_as_name(c):
    """`Number deal = 1.`, `shuffle shuffle d.`: a keyword where a name belongs."""
    if c.type in KEYWORDS.values() and 'ID' in c.shifted and not set(CLOSERS) & set(c.shifted):
        return _where(c), _found(c), '%s (%s is a keyword)' % (_expected(c), _found(c))


def _unclosed_string_before(c):
    """A string left open runs to the next quote: the error comes after it."""
    prev = c.previous
    if prev is not None and prev.type == 'STRINGLIT':
        first, last = c.at(prev.index)[0], c.at(prev.end - 1)[0]
        if first < last:
            return _where(c), _found(c), ('%s (the string before it runs from line %d to line '
                                          '%d: is a closing quote missing?)'
                                          % (_expected(c), first, last))


def _groups(c):
    """`melds[2]`, `CardList[] melds.`, `let g be new melds.`, `for each g in
    melds`: what the lists of groups (an extension) offer instead."""
    prev, syms = c.previous, c.symbols
    kinds = [getattr(sym, 'type', None) for sym in syms]
    if prev is None:
        return None
    if c.type == 'LSQUARE' and 'LSQUARE' not in c.shifted:
        declared = len(kinds) >= 2 and kinds[-2] == 'dtype'       # `TYPE name[`
        if prev.type in ('CARDLIST', 'DECK') or declared and \
                getattr(syms[-2].value, 'value', None) in ('CardList', 'Deck'):
            name = prev.value.value if prev.type == 'ID' else 'NAME'
            return _where(c), _found(c), OFFERS['list of lists'].format(name=name)
        if prev.type == 'ID' and not declared:
            close = c.text.find(']', c.token.index)
            index = _quoted(c.text[c.token.index + 1:close].strip(), 'K') if close > 0 else 'K'
            return _where(c), _found(c), OFFERS['index'].format(index=index,
                                                                 list=prev.value.value)
    if c.type == 'ID' and prev.type == 'ID' and 'ID' not in c.shifted:
        word = prev.value.value
        if word == 'new':
            return (_where(c, prev), '"new"',
                    OFFERS['new'].format(list=c.token.value.value))
        if word == 'each' and kinds[-2:] == ['FOR', 'ID']:
            return (_where(c, prev), '"each"',
                    OFFERS['for each'].format(name=c.token.value.value))
    return None


SPECIALS = [_no_heading, _groups, _computed_rank, _call_with_commas, _action_with_parameters, _return,
            _for_over_range, _assign_for_equals, _else_if,
            _declaration_in_action, _range_without_suits, _statement_outside_action,
            _unclosed_string_before, _keyword_as_name,
            _misspelled_keyword, _name_alone]
