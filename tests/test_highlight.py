"""Highlighting: the Pygments lexer and the TextMate grammar agree with the
project's own lexer on every example and every valid corpus program."""
import glob
import json
import os
import re
import subprocess
import sys

import pytest

from compiler.pip.tokens import ENDWORDS, RANK_ORDERS
from pipvm.core.runtime import RANK_NAMES
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Name, Number, Operator, Punctuation, String

from compiler.pip import frontend, highlight
from compiler.errors import PipError
from compiler.pip.lexer import KEYWORDS, PipLexer
from compiler.pip.parser import LOOP_EXITS, PASS, SETS
from compiler.ir.types import DECLARED

from .test_tools import ROOT
from .util import DATA

import make_textmate  # noqa: E402  (tools/ is on sys.path through test_tools)


def valid_programs():
    """Every example, and every corpus program that the parser accepts (its
    type errors, if any, come later and do not matter to highlighting)."""
    paths = sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip')))
    for path in sorted(glob.glob(os.path.join(DATA, '*', '*.pip'))):
        try:
            frontend.print_text(frontend.read_source(path))
        except PipError:
            continue
        paths.append(path)
    return paths


PROGRAMS = valid_programs()

# The Pygments class each of the project lexer's tokens must get (by token
# type; `Name` covers names and properties, not the keyword-like classes).
NAMES = (Name, Name.Attribute, Name.Variable)
PUNCTUATION = {'LCURLY', 'RCURLY', 'LPAREN', 'RPAREN', 'LSQUARE', 'RSQUARE', 'COMMA', 'DOT', 'SEMI'}
EXPECTED = {'ID': NAMES, 'NUMLIT': (Number.Integer,), 'STRINGLIT': (String.Double,),
            'TRUE': (Keyword.Constant,), 'FALSE': (Keyword.Constant,),
            'ACE': (highlight.RANK,), 'KING': (highlight.RANK,), 'QUEEN': (highlight.RANK,),
            'JACK': (highlight.RANK,), 'CLUBS': (highlight.SUIT,), 'HEARTS': (highlight.SUIT,),
            'SPADES': (highlight.SUIT,), 'DIAMONDS': (highlight.SUIT,),
            'PERCENT': (highlight.WILDCARD,),
            'PLAYERS': (Name.Builtin,), 'TEAMS': (Name.Builtin,), 'STANDARD': (Name.Builtin,),
            'AND': (Operator.Word,), 'OR': (Operator.Word,), 'NOT': (Operator.Word,),
            'IN': (Operator.Word,)}
EXPECTED.update({KEYWORDS[w]: (Keyword.Type,) for w in DECLARED})
EXPECTED.update({KEYWORDS[w]: (Keyword.Declaration,)
                 for w in ('Game', 'Action', 'Area', 'Rule', 'Ordering')})


# The extensions' words are names to the lexer, and where they make an
# extension a keyword (or a rank) to the highlighter.
EXTENSION_WORDS = {word: (Keyword,) for word in
                   LOOP_EXITS + (PASS, SETS, 'each', 'player', 'team', 'count', 'sum', 'max', 'min',
                                 'gives', 'give')}
EXTENSION_WORDS.update({name: (highlight.RANK,) for name in RANK_NAMES if name})
EXTENSION_WORDS.update({word: (Keyword,) for word in ENDWORDS + RANK_ORDERS})   # loser p., Aces high.
EXTENSION_WORDS['Aces'] = (Keyword.Declaration,)


def expected_classes(tok_type):
    if tok_type in EXPECTED:
        return EXPECTED[tok_type]
    if tok_type in PUNCTUATION:
        return (Punctuation,)
    if tok_type in KEYWORDS.values():
        return (Keyword,)          # the statements' keywords
    return (Operator,)


def read(path):
    with open(path, encoding='latin-1') as f:
        return f.read()


def test_there_are_programs_to_check():
    assert len(PROGRAMS) > 100


def test_the_entry_point_registers_the_lexer():
    # What pygmentize, Sphinx and Markdown renderers look up.
    assert isinstance(get_lexer_by_name('pip'), highlight.PipLexer)
    assert isinstance(get_lexer_for_filename('game.pip'), highlight.PipLexer)


def test_every_keyword_has_exactly_one_class():
    classes = [highlight.TYPES, highlight.DECLARATIONS, highlight.STATEMENT_WORDS,
               highlight.WORD_OPERATORS, highlight.BUILTINS, highlight.BOOLEANS,
               highlight.RANKS, highlight.SUITS]
    assert sum(len(c) for c in classes) == len(KEYWORDS)
    assert set().union(*classes) == set(KEYWORDS)
    assert highlight.RANKS == {'A', 'K', 'Q', 'J'} and highlight.SUITS == set('CHSD')
    assert highlight.DECLARATIONS == {'Game', 'Action', 'Area', 'Rule', 'Ordering'}


@pytest.mark.parametrize('path', PROGRAMS, ids=lambda p: os.path.relpath(p, ROOT))
def test_pygments_tokens_follow_the_project_lexer(path):
    text = read(path)
    pieces = list(highlight.PipLexer().get_tokens_unprocessed(text))
    assert ''.join(value for _, _, value in pieces) == text
    assert not [value for _, t, value in pieces if t in Error], 'Error token'
    at = {index: t for index, t, _ in pieces}
    for tok in PipLexer().tokenize(text):
        assert tok.index in at, (tok.type, tok.value.pos)
        expected = expected_classes(tok.type)
        if tok.type == 'ID' and tok.value.value in EXTENSION_WORDS:
            expected += EXTENSION_WORDS[tok.value.value]
        assert at[tok.index] in expected, (tok.type, at[tok.index], tok.value.pos)


def tokens(text):
    return [(t, v) for _, t, v in highlight.PipLexer().get_tokens_unprocessed(text)
            if not v.isspace()]


def test_card_literals_wildcards_and_properties():
    assert tokens('Q~S 2..5~H,D %~H c->rank') == [
        (highlight.RANK, 'Q'), (Operator, '~'), (highlight.SUIT, 'S'),
        (Number.Integer, '2'), (Operator, '..'), (Number.Integer, '5'), (Operator, '~'),
        (highlight.SUIT, 'H'), (Punctuation, ','), (highlight.SUIT, 'D'),
        (highlight.WILDCARD, '%'), (Operator, '~'), (highlight.SUIT, 'H'),
        (Name, 'c'), (Operator, '->'), (Name.Attribute, 'rank')]
    # A word that only starts like a keyword is a name, as in the lexer.
    assert tokens('Aces players_2 format') == [(Name, 'Aces'), (Name, 'players_2'), (Name, 'format')]


def test_strings_interpolate_names_and_escape_characters():
    assert tokens(r'"{p} has\n{score}\"{}"') == [
        (String.Double, '"'), (String.Interpol, '{'), (Name.Variable, 'p'), (String.Interpol, '}'),
        (String.Double, ' has'), (String.Escape, r'\n'),
        (String.Interpol, '{'), (Name.Variable, 'score'), (String.Interpol, '}'),
        (String.Escape, r'\"'), (String.Interpol, '{'), (String.Interpol, '}'),
        (String.Double, '"')]
    # What the project's lexer refuses is an Error token.
    assert (Error, '{') in tokens('"{ p}"')
    assert (Error, '$') in tokens('Number n = $.')


def test_pygmentize_uses_the_installed_lexer():
    # `python -m pygments` is pygmentize, run from this environment.
    p = subprocess.run([sys.executable, '-m', 'pygments', '-l', 'pip', '-f', 'raw',
                        os.path.join(ROOT, 'examples', 'euchre.pip')],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert "Token.Keyword.Declaration\t'Game'" in p.stdout
    assert "Token.Name.Constant.Rank\t'J'" in p.stdout


# --- the TextMate grammar ------------------------------------------------------

GRAMMAR_PATH = os.path.join(ROOT, 'editors', 'pip.tmLanguage.json')


def load_grammar():
    with open(GRAMMAR_PATH, encoding='utf-8') as f:
        return json.load(f)


def test_textmate_grammar_is_the_generated_one():
    # Regenerate with `python tools/make_textmate.py`.
    with open(GRAMMAR_PATH, encoding='utf-8') as f:
        assert f.read() == make_textmate.text()


def regexes(node):
    """Every regex in a grammar (match, begin, end), however deeply nested."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ('match', 'begin', 'end'):
                yield value
            else:
                yield from regexes(value)
    elif isinstance(node, list):
        for item in node:
            yield from regexes(item)


def test_textmate_grammar_is_valid_and_its_regexes_compile():
    g = load_grammar()
    assert g['scopeName'] == 'source.pip' and g['fileTypes'] == ['pip']
    for include in g['patterns']:
        assert include['include'][1:] in g['repository']
    found = list(regexes(g))
    assert len(found) > 10
    for rx in found:
        re.compile(rx)        # the subset used is common to Python and Oniguruma


def test_textmate_keywords_agree_with_the_lexer():
    repo = load_grammar()['repository']
    listed = set()
    for key, names, _ in make_textmate.WORD_SCOPES:
        words = set(re.fullmatch(r'\\b\(\?:(.*)\)\\b', repo[key]['match']).group(1).split('|'))
        assert words == names
        listed |= words
    assert listed == set(KEYWORDS)


def textmate_scope(repo, word):
    for key, _, scope in make_textmate.WORD_SCOPES:
        if re.fullmatch(repo[key]['match'], word):
            return scope
    return None


def test_textmate_word_patterns_match_whole_words_only():
    repo = load_grammar()['repository']
    assert textmate_scope(repo, 'CardList') == 'storage.type.pip'
    assert textmate_scope(repo, 'Q') == 'constant.other.rank.pip'
    assert textmate_scope(repo, 'deal') == 'keyword.control.pip'
    assert re.search(repo['keywords']['match'], 'dealer') is None
    assert re.search(repo['ranks']['match'], 'A_1') is None
    m = re.search(repo['string']['patterns'][1]['match'], '"{best} takes"')
    assert m.group(0) == '{best}' and m.group(1) == 'best'


def test_the_editors_folder_is_a_vscode_extension():
    # Copied or linked into ~/.vscode/extensions/, the folder loads as is.
    folder = os.path.dirname(GRAMMAR_PATH)
    with open(os.path.join(folder, 'package.json'), encoding='utf-8') as f:
        manifest = json.load(f)
    (language,), (grammar,) = manifest['contributes']['languages'], manifest['contributes']['grammars']
    assert language['extensions'] == ['.pip'] and grammar['language'] == language['id']
    assert os.path.samefile(os.path.join(folder, grammar['path']), GRAMMAR_PATH)
    assert grammar['scopeName'] == load_grammar()['scopeName']
    with open(os.path.join(folder, language['configuration']), encoding='utf-8') as f:
        assert json.load(f)['comments']['lineComment'] == '#'
