"""Syntax highlighting for Pip: a Pygments lexer and the word classes it uses.

Registered as the `pip` lexer through the `pygments.lexers` entry point (the
`highlight` extra installs Pygments), so `pygmentize -l pip GAME.pip`, Sphinx
and Markdown renderers find it.  Nothing that runs a game imports this.

The keywords are not listed here: they are the project lexer's own
(`compiler.pip.lexer.KEYWORDS`), sorted into the classes an editor shows.  The
TextMate grammar in `editors/` is generated from the same classes
(`tools/make_textmate.py`).
"""
from pygments.lexer import RegexLexer, bygroups
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation,
                            String, Whitespace)

from pipvm.core.runtime import BUILTINS as _BUILTIN_NAMES, RANK_NAMES, SUIT_BY_LETTER

from .lexer import IDENT, KEYWORDS
from .tokens import ENDWORDS, RANK_ORDERS
from .parser import AGGREGATES, GIVES as GIVES_WORD, LOOP_EXITS, OWNERS, PASS, SETS
from compiler.ir.types import DECLARED

# Card literals and wildcards have token types of their own (a style without
# them falls back to Name.Constant).
RANK = Name.Constant.Rank
SUIT = Name.Constant.Suit
WILDCARD = Name.Constant.Wildcard

BOOLEANS = frozenset({'True', 'False'})
SUITS = frozenset(SUIT_BY_LETTER) & frozenset(KEYWORDS)
RANKS = frozenset(w for w in KEYWORDS if len(w) == 1) - SUITS
# (`Area` opens a declaration; as a parameter's type, an extension, it is still that word)
TYPES = frozenset(DECLARED) & frozenset(KEYWORDS) - {'Area'}
BUILTINS = frozenset(_BUILTIN_NAMES) & frozenset(KEYWORDS)
WORD_OPERATORS = frozenset({'and', 'or', 'not', 'in'}) & frozenset(KEYWORDS)
# What is left: capitalised words open declarations (Game, Action, Area,
# Rule, Ordering), lower-case ones are the statements' keywords.
_REST = frozenset(KEYWORDS) - BOOLEANS - SUITS - RANKS - TYPES - BUILTINS - WORD_OPERATORS
DECLARATIONS = frozenset(w for w in _REST if w[0].isupper())
STATEMENT_WORDS = _REST - DECLARATIONS

WORD_CLASSES = (
    (TYPES, Keyword.Type), (DECLARATIONS, Keyword.Declaration), (STATEMENT_WORDS, Keyword),
    (WORD_OPERATORS, Operator.Word), (BUILTINS, Name.Builtin), (BOOLEANS, Keyword.Constant),
    (RANKS, RANK), (SUITS, SUIT),
)
WORD_TOKEN = {word: token for words, token in WORD_CLASSES for word in words}
assert len(WORD_TOKEN) == len(KEYWORDS), 'every keyword in exactly one class'


# Extension words that are keywords only where they make a statement
# (`break.`), so they stay usable as names: the parser's LOOP_EXITS.
LOOP_EXIT = r'\b(%s)([ \t\n]*)(\.)' % '|'.join(LOOP_EXITS)
# `or pass` and `for sets` (several cards at once): the second word is a
# keyword only after the first.
PAIRED = r'\b(or|for)([ \t\n]+)(%s|%s)\b' % (PASS, SETS)

# `for each player` / `for each team` in a declaration (extension): `each`
# and the owner are words only there.
FOR_EACH = r'\b(for)([ \t\n]+)(each)([ \t\n]+)(%s)\b' % '|'.join(OWNERS)

# An aggregate's words (extension), which are words only there: `(count c
# in L where C)`, `(sum c in L of E)`, `(max c in L by O)`.
AGGREGATE = r'(\()([ \t\n]*)(%s)(?=[ \t\n]+%s[ \t\n]+in\b)' % (
    '|'.join(sorted({w for ws in AGGREGATES.values() for w in ws})), IDENT)

# Actions with parameters and results (extension): `gives` after the
# parameters, and `give` beginning a statement that neither gives `give` a
# value nor calls it (the parser's retag), are words only there.
GIVES = r'(\))([ \t\n]*)(%s)\b' % GIVES_WORD
GIVE = r'([{}.])([ \t\n]*)(give)\b(?![ \t\n]*(=|\+=|-=|\*=|/=|->|\.|\([ \t\n]*\)))'

# The endings and the turn order (extension): `loser`, `winners`, `ranking`,
# `out`, `back` beginning a statement before a name; `Aces high.` (the
# parser's retag, compiler/pip/tokens.py).
ENDWORD = r'([{}.])([ \t\n]*)(%s)\b(?=[ \t\n]+[A-Za-z])' % '|'.join(ENDWORDS)
ACES = r'\b(Aces)([ \t\n]+)(%s)\b' % '|'.join(RANK_ORDERS)

# A Rank word (extension: `Four` is a Rank that prints as its name where no
# variable has that name; the highlighter cannot tell, so always a rank).
RANK_WORD = r'\b(%s)\b' % '|'.join(name for name in RANK_NAMES if name)


def _word(lexer, match):
    """An identifier-shaped word: a keyword's class, or a name (the lexer's rule)."""
    yield match.start(), WORD_TOKEN.get(match.group(), Name), match.group()


def _paired(lexer, match):
    """`or pass`, `for sets`: the first word as the lexer's, the second a keyword."""
    yield match.start(1), WORD_TOKEN[match.group(1)], match.group(1)
    yield match.start(2), Whitespace, match.group(2)
    yield match.start(3), Keyword, match.group(3)


def _property(lexer, match):
    """`->name`: the name is a property unless it is a keyword."""
    yield match.start(1), Operator, match.group(1)
    if match.group(2):
        yield match.start(2), Whitespace, match.group(2)
    word = match.group(3)
    yield match.start(3), WORD_TOKEN.get(word, Name.Attribute), word


class PipLexer(RegexLexer):
    """Pip, the English-like card-game language of pipvm."""

    name = 'Pip'
    aliases = ['pip']
    filenames = ['*.pip']
    mimetypes = ['text/x-pip']

    tokens = {
        'root': [
            (r'[ \t\n]+', Whitespace),
            (r'#[^\n]*', Comment.Single),
            (r'"', String.Double, 'string'),
            (r'(->)([ \t\n]*)(%s)' % IDENT, _property),
            (LOOP_EXIT, bygroups(Keyword, Whitespace, Punctuation)),
            (PAIRED, _paired),
            (FOR_EACH, bygroups(Keyword, Whitespace, Keyword, Whitespace, Keyword)),
            (AGGREGATE, bygroups(Punctuation, Whitespace, Keyword)),
            (GIVES, bygroups(Punctuation, Whitespace, Keyword)),
            (GIVE, bygroups(Punctuation, Whitespace, Keyword)),
            (ENDWORD, bygroups(Punctuation, Whitespace, Keyword)),
            (ACES, bygroups(Keyword.Declaration, Whitespace, Keyword)),
            (RANK_WORD, RANK),
            (IDENT, _word),
            (r'[0-9]+', Number.Integer),
            (r'%', WILDCARD),
            (r'\.\.|->|==|!=|<=|>=|[-+*/]=|[<>=+\-*/~]', Operator),
            (r'[{}()\[\],.;]', Punctuation),
        ],
        # Strings: `\c` escapes any character (`\n`, `\t` mean newline, tab);
        # `{name}` interpolates a variable; any other `{` is a lexical error.
        'string': [
            (r'"', String.Double, '#pop'),
            (r'\\(.|\n)', String.Escape),
            (r'(\{)(%s)?(\})' % IDENT, bygroups(String.Interpol, Name.Variable, String.Interpol)),
            (r'\{', Error),
            (r'[^"\\{]+', String.Double),
        ],
    }
