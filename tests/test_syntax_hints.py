"""The second line of a syntax error, for the mistakes game authors make most.

The first line is the original's (`Error: syntax error on line N`); the
second, the hint, is pipvm's: where, what was found, what would fit.
"""
import pytest

from compiler.pip import syntax_hints
from compiler.errors import PipError, PipSyntaxError
from compiler.pip.frontend import check_text
from compiler.pip.parser import PipParser, parse

HEAD = 'Game "g" requires 2 players.\n'


def action(body):
    """A program whose main action holds body; body's first line is line 5."""
    return HEAD + 'Deck d = standard.\nArea t labeled "T" is faceup.\nAction main {\n' + body + '\n}\n'


MISTAKES = [
    ('missing dot after a declaration', HEAD + 'Number n = 1\nDeck d = standard.\n', 3,
     'at column 1, found "Deck"; expected "." to end the declaration on line 2'),
    ('missing dot after a statement', action('  shuffle d\n  deal 1 from d to players.'), 6,
     'at column 3, found "deal"; expected "." to end the statement on line 5'),
    ('missing closing brace', HEAD + 'Action main {\n  shuffle standard.\n', 4,
     'at the end of the file; expected "}" to close the block opened on line 2 or a statement'),
    ('= for ==', action('  if players->size = 2 { shuffle d. }'), 5,
     'at column 20, found "="; expected "==" to compare (a single "=" gives a value)'),
    ('== for =', action('  d == standard.'), 5,
     'at column 5, found "=="; expected "=" to give a value ("==" compares)'),
    ('a range of numbers to count with', action('  let n be 1..13.'), 5,
     'at column 17, found "."; expected "~": a range such as 1..13 names cards, as in '
     '1..13~S; it is not a list of numbers'),
    ('declaration inside an action', action('  Number n = 1.'), 5,
     'at column 3, found "Number"; declarations cannot go inside an action: declare it '
     'before the action, or use "let NAME be VALUE."'),
    ('statement outside an action', HEAD + 'shuffle standard.\n', 2,
     'at column 1, found "shuffle"; expected a declaration: statements go inside an action, '
     'e.g. Action main { ... }'),
    ('misspelled statement keyword', action('  shufle d.'), 5,
     'at column 3, found "shufle", which is not a keyword; did you mean "shuffle"?'),
    ('misspelled keyword inside a statement', action('  deal 1 form d to players.'), 5,
     'at column 10, found "form"; did you mean "from"?'),
    ('misspelled type', HEAD + 'Deckk d = standard.\n', 2,
     'at column 1, found "Deckk"; did you mean "Deck"?'),
    ('type in lower case', HEAD + 'deck d = standard.\n', 2,
     'at column 1, found "deck"; did you mean "Deck"?'),
    ('else if for elseif', action('  if True { } else if False { }'), 5,
     'at column 20, found "if" after "else"; write "elseif" as one word'),
    ('missing opening brace', action('  if True shuffle d.'), 5,
     'at column 11, found "shuffle"; expected "{" to begin the body of "if"'),
    ('unclosed parenthesis', action('  let x be (1 + 2.'), 5,
     'at column 18, found "."; expected ")" to close the "(" opened at column 12'),
    ('an action call not closed', action('  helper(.'), 5,
     'at column 10, found "."; expected ")" to close the "(" opened at column 9 or a value'),
    ('list items without ;', action('  let x be [1 2].'), 5,
     'at column 15, found "2"; expected "]" to close the list opened at column 12 or ";" '
     'between the items of a list'),
    ('keyword as a name', HEAD + 'Number deal = 1.\n', 2,
     'at column 8, found "deal"; expected a name ("deal" is a keyword)'),
    ('no heading', 'Number n = 1.\n', 1,
     'at column 1, found "Number"; expected "Game" to begin the heading, '
     'e.g. Game "Snap" requires 2 players.'),
    ('misspelled heading', 'Game "g" requires 2 player.\n', 1,
     'at column 21, found "player"; did you mean "players"?'),
    ('game name without quotes', 'Game Snap requires 2 players.\n', 1,
     'at column 6, found "Snap"; expected a string in quotes'),
    ('action called without ()', action('  helper.'), 5,
     'at column 9, found "."; expected "=" (or "+=", "-=", "*=", "/=") to give it a value, '
     'or "()" to call an action'),
    ('let with =', action('  let x = 1.'), 5, 'at column 9, found "="; expected "be"'),
    ('; to end a statement', action('  shuffle d;'), 5,
     'at column 12, found ";"; expected "." to end the statement'),
    ('one } too many', HEAD + 'Action main { }\n}\n', 3,
     'at column 1, found "}"; expected a declaration or the end of the file'),
    ('string left open until the next one', action('  message "hello.\n  message "bye".'), 6,
     'at column 12, found "bye"; expected "." to end the statement (the string before it '
     'runs from line 5 to line 6: is a closing quote missing?)'),
    ('a Rule with two parameters', HEAD + 'Rule r(p, c) = True.\n', 2,
     'at column 12, found ")"; expected "," (a Rule has three parameters, e.g. Rule r(p, c, pile))'),
    ('deal without to', action('  deal 1 from d players.'), 5,
     'at column 17, found "players"; expected "to"'),
    ('area options without a comma', HEAD + 'Area t labeled "T" is faceup spreadout.\n', 2,
     'at column 30, found "spreadout"; expected "." to end the declaration or "," between '
     'the options'),
    ('expression cut short', action('  let x be 1 + .'), 5,
     'at column 16, found "."; expected a value'),
    ('empty file', '', 1,
     'at the end of the file; expected "Game" to begin the heading, e.g. Game "Snap" requires 2 players.'),
    ('missing opening brace after elseif', action('  if True { } elseif False shuffle d.'), 5,
     'at column 28, found "shuffle"; expected "{" to begin the body of "elseif"'),
    ('string found where a block belongs', action('  ask players->first "q" { }'), 5,
     'at column 22, found the string "q"; expected "{" to begin the body of "ask"'),
]

# What Pip has instead of what authors try first (issue 55): syntax_hints.OFFERS.
COMPUTED_RANK = ('beside "~" goes only a name, a number or a rank, not a calculation: name it '
                 'first ("let n be %s." then n~%s), or go over the cards and compare ranks '
                 '("for c in %%~%s { if c->rank == %s { ... } }")')
COMMAS = ('a call\'s arguments are separated by ";", as a list\'s items are (a comma joins '
          'ranks and suits, as in A, K~S): %s')
RETURN = ('an action gives its result with "give" ("return" is not a word of Pip): '
          'Action NAME(Number n) gives Number { ... give n + 1. }')
OFFERS = [
    ('a card of a computed rank', action('  let c be (r + 1)~H.'), 5,
     'at column 19, found "~"; ' + COMPUTED_RANK % ('r + 1', 'H', 'H', 'r + 1')),
    ('a computed rank with a wildcard suit', action('  let c be (p->score - 2)~%.'), 5,
     'at column 26, found "~"; ' + COMPUTED_RANK % ('p->score - 2', '%', '%', 'p->score - 2')),
    ('a list beside ~', action('  let c be [3; 4]~S.'), 5,
     'at column 18, found "~"; ' + COMPUTED_RANK % ('EXPR', 'S', 'S', 'EXPR')),
    ('a call with commas', action('  if big(p, c, p->hand) { }'), 5,
     'at column 9, found "("; ' + COMMAS % 'big(p; c; p->hand)'),
    ('min of two numbers', action('  let x be min(a, 10).'), 5,
     'at column 15, found "("; there is no function "min": (min X in LIST of NUMBER) is the '
     'smallest of a list; for two numbers use "if": "let m be a. if 10 < m { m = 10. }"'),
    ('max of two numbers', action('  n = max(n, p->score).'), 5,
     'at column 10, found "("; there is no function "max": (max X in LIST of NUMBER) is the '
     'largest of a list; for two numbers use "if": "let m be n. if p->score > m { m = p->score. }"'),
    ('min in a rule, which has no "if"', HEAD + 'Rule r(p, c, l) = min(1, 2) > 0.\n', 2,
     'at column 22, found "("; there is no function "min": (min X in LIST of NUMBER) is the '
     'smallest of a list'),
    ('an action with parameters', HEAD + 'Action value(p) {\n}\n', 2,
     'at column 14, found "p"; each parameter of an action has its type before it: Action '
     'value(Player p, Number n) { ... }, and "gives TYPE" after them for a result'),
    ('an action called with arguments', action('  helper(n, 2).'), 5,
     'at column 9, found "("; ' + COMMAS % 'helper(n; 2)'),
    ('return', action('  return n.'), 5, 'at column 3, found "return"; ' + RETURN),
]


@pytest.mark.parametrize('source,line,hint', [m[1:] for m in MISTAKES + OFFERS],
                         ids=[m[0] for m in MISTAKES + OFFERS])
def test_common_mistakes(source, line, hint):
    with pytest.raises(PipSyntaxError) as e:
        parse(source)
    assert str(e.value) == 'Error: syntax error on line %d' % line     # the original's
    assert e.value.hint == hint


# Calls that parse (extension: actions with parameters and results) and fail
# when checked, the hint naming what Pip has.
CHECKED = [
    ('an action called for its result', action('  let x be helper().'), 5, 12,
     "Action 'helper' gives no result (declare it 'Action helper(...) gives TYPE')", None),
    ('min of a list', action('  let m be min(p->hand).'), 5, 12, "Unknown action 'min'",
     'there is no function "min": (min X in p->hand of NUMBER) is the smallest of a list'),
    ('count as a function', action('  let n be count(p->hand).'), 5, 12,
     "Unknown action 'count'",
     'there is no function "count": (count X in p->hand where CONDITION) counts the items '
     'that make CONDITION true, and p->hand->size counts them all'),
    ('sum as a function', action('  let n be sum(p->hand).'), 5, 12, "Unknown action 'sum'",
     'there is no function "sum": (sum X in p->hand of NUMBER) adds up a NUMBER for each item'),
    ('return in brackets', action('  return (n + 1).'), 5, 3, "Unknown action 'return'", RETURN),
]


@pytest.mark.parametrize('source,line,col,message,hint', [m[1:] for m in CHECKED],
                         ids=[m[0] for m in CHECKED])
def test_calls_that_parse_are_checked_with_a_hint(source, line, col, message, hint):
    source = source.replace('Action main {', 'Player p.\nNumber n.\nAction helper { }\nAction main {')
    with pytest.raises(PipError) as e:
        check_text(source)
    assert str(e.value) == 'Error: Line %d, Col %d: %s' % (line + 3, col, message)
    assert e.value.hint == hint


def test_string_not_closed_is_reported_at_its_quote():
    with pytest.raises(PipError) as e:
        parse(action('  message "hello.'))
    assert str(e.value) == 'Error: Line 5, Col 11: Unterminated string'


def test_the_column_is_on_another_line_when_the_token_spans_lines():
    with pytest.raises(PipSyntaxError) as e:
        parse(HEAD + 'Number n = 1 "two\nlines".\n')
    assert e.value.line == 3
    assert e.value.hint == ('at line 2, column 14, found the string "two..."; expected "." to '
                            'end the declaration')


def test_a_long_token_is_shortened():
    name = 'x' * 40
    with pytest.raises(PipSyntaxError) as e:
        parse(HEAD + 'Number n = 1 %s.\n' % name)
    assert '"%s..."' % name[:syntax_hints.SHOWN] in e.value.hint


def test_items_agree_with_the_tables():
    """The LR(0) items rebuilt for each state explain every move SLY's tables make."""
    t = syntax_hints.tables(PipParser)
    lr = PipParser._lrtable
    assert set(t.items) == set(lr.lr_action)
    for state, items in t.items.items():
        after_dot = {t.prods[p].prod[dot] for p, dot in items if dot < t.prods[p].len}
        ends = {t.prods[p].number for p, dot in items if dot == t.prods[p].len}
        for token, move in lr.lr_action[state].items():
            if move is not None and move > 0:
                assert token in after_dot, (state, token)
            elif move is not None and move < 0:
                assert -move in ends, (state, token)
        assert set(lr.lr_goto.get(state, {})) <= after_dot


GLOBALS = HEAD + 'Deck d = standard.\nNumber a = 3.\nNumber r = 4.\nNumber n.\n'


@pytest.mark.parametrize('attempt,quoted,written_out', [
    ('let c be (r + 1)~H.', '"let n be r + 1." then n~H', 'let n be r + 1. let c be n~H.'),
    ('let c be (r + 1)~H.', '"for c in %~H { if c->rank == r + 1 { ... } }"',
     'for c in %~H { if c->rank == r + 1 { message "{c}". } }'),
    ('let x be min(a, 10).', '"let m be a. if 10 < m { m = 10. }"', None),
    ('let x be max(a, 10).', '"let m be a. if 10 > m { m = 10. }"', None),
], ids=['named rank', 'wildcard', 'min', 'max'])
def test_what_a_hint_offers_is_pip_today(attempt, quoted, written_out):
    """The code a hint quotes (its "..." filled in) checks where the attempt failed."""
    with pytest.raises(PipSyntaxError) as e:
        parse(GLOBALS + 'Action main {\n  %s\n}\n' % attempt)
    assert quoted in e.value.hint
    check_text(GLOBALS + 'Action main {\n  %s\n}\n' % (written_out or quoted.strip('"')))


def test_an_action_calling_itself_keeps_the_original_message_alone():
    """Recursion gets no hint: the original's test suite expects exactly this
    (corpus semantic/invoke.pip, main calling itself), byte for byte."""
    for name in ('main', 'f'):
        with pytest.raises(PipError) as e:
            check_text(HEAD + 'Action %s {\n  %s().\n}\nAction main { }\n' % (name, name)
                       if name != 'main' else HEAD + 'Action main {\n  main().\n}\n')
        assert str(e.value) == "Error: Line 3, Col 3: Unknown action '%s'" % name
        assert e.value.hint is None


@pytest.mark.parametrize('body', ['  shuffle d. ~H.', '  message~H "x".'])
def test_a_tilde_after_no_value_gets_the_grammar_s_words(body):
    """The computed-rank hint is for a "~" after brackets, where a rank was meant."""
    with pytest.raises(PipSyntaxError) as e:
        parse(action(body))
    assert e.value.hint.startswith('at column') and 'beside "~"' not in e.value.hint
