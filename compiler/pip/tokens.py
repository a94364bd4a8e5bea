"""The token stream Pip's parser reads: the lexer's tokens, with the two
kinds of word the lexer cannot tell apart retagged by looking around them
(extension: actions with parameters and results)."""
from ..errors import PipError
from .lexer import PipLexer

RETAGGED = {'CALLNAME', 'GIVE', 'ENDWORD', 'ACES'}

# Extension: the parse's token stream names two kinds of word the lexer
# cannot tell (pipvm's `retag`): CALLNAME, a name followed by "(" inside an
# expression (a call: 2008 Pip has a name before "(" only at a statement's
# start, after `Action`, `Rule` or `Ordering`, and as `message`'s addressee);
# GIVE, `give` beginning a statement that does not give it a value or call it.
STATEMENT_START = ('LCURLY', 'RCURLY', 'DOT')
NOT_A_CALL = STATEMENT_START + ('MESSAGE', 'ARROW', 'ACTION', 'RULE', 'ORDERING')
NAME_USES = ('ASSIGN', 'PLUSEQ', 'MINUSEQ', 'TIMESEQ', 'DIVIDEEQ', 'ARROW', 'DOT')
GIVES = 'gives'                 # a word only after an action's parameters
VALUE_END = ('ID', 'NUMLIT', 'STRINGLIT', 'RPAREN', 'RSQUARE', 'TRUE', 'FALSE', 'PERCENT',
             'PLAYERS', 'TEAMS', 'STANDARD', 'ACE', 'KING', 'QUEEN', 'JACK',
             'CLUBS', 'HEARTS', 'SPADES', 'DIAMONDS')


def retag(prev, tok, after, after2):
    """The type tok has in the parse, given the token before and the two after."""
    if tok.type != 'ID' or after is None:
        return tok.type
    if after.type == 'LPAREN' and prev is not None and prev.type not in NOT_A_CALL \
            and not (tok.value.value == 'where' and prev.type in VALUE_END):   # an aggregate's
        return 'CALLNAME'
    if (tok.value.value == 'give' and prev is not None and prev.type in STATEMENT_START
            and after.type not in NAME_USES
            and not (after.type == 'LPAREN' and after2 is not None and after2.type == 'RPAREN')):
        return 'GIVE'
    if ending_word(prev, tok, after, after2):
        return 'ENDWORD'
    if tok.value.value == 'Aces' and after.type == 'ID' and after.value.value in RANK_ORDERS:
        return 'ACES'
    return tok.type


# Extension (compiler/pip/endings.py): ENDWORD, one of these words beginning
# a statement and followed by a name (`loser p.`, `out p.`): 2008 Pip has no
# statement of two names.  Before a bracket it is the word only with a space
# between and something in the brackets (`out (x)->y.`; `out(x).`, `out ().`
# are calls).
ENDWORDS = ('winners', 'loser', 'ranking', 'out', 'back')
LOOKS_TWO_AHEAD = ('give',) + ENDWORDS     # (the stream fetches after2 for these)
RANK_ORDERS = ('high', 'low')   # ACES: `Aces high.`, a declaration (2008 Pip has no `ID ID`)


def ending_word(prev, tok, after, after2):
    if tok.value.value not in ENDWORDS or prev is None or prev.type not in STATEMENT_START:
        return False
    if after.type == 'LPAREN':
        return (tok.value.end < after.value.end - 1 and after2 is not None
                and after2.type != 'RPAREN')
    return after.type in ('ID', 'PLAYERS', 'TEAMS')


def stream(text, seen):
    """The tokens of text for the parser, each passed to seen as the parser
    takes it (the parser's `previous`: the token before its look-ahead)."""
    # The retag looks at most two tokens ahead, and only after a name; a
    # lexing error there waits until the parser asks for that token, so
    # an error before it is still the one reported.
    stream = PipLexer().tokenize(text)
    window = []

    def peek(n):
        while len(window) < n:
            try:
                window.append(next(stream, None))
            except PipError as e:
                window.append(e)
        return window[n - 1]

    prev = None
    while True:
        tok = peek(1)
        if isinstance(tok, PipError):
            raise tok
        if tok is None:
            return
        if tok.type == 'ID':
            after = peek(2)
            after = None if isinstance(after, PipError) else after
            if after is not None and after.type == 'LPAREN' and tok.value.value in LOOKS_TWO_AHEAD:
                after2 = peek(3)
                after2 = None if isinstance(after2, PipError) else after2
            else:
                after2 = None
            tok.type = retag(prev, tok, after, after2)
        window.pop(0)
        yield tok
        prev = tok
        seen(tok)


class Quiet:
    """SLY reports the grammar's (expected, yacc-resolved) conflicts; hush it."""

    def __getattr__(self, name):
        return lambda *args, **kwargs: None
