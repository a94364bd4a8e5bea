"""The parser's LALR tables, made once and kept in generated_tables.py.

SLY builds a parser's tables when its class is made: 77 ms of every
start-up from source.  PipParser takes them instead from
compiler/pip/generated_tables.py, written by `python tools/make_parse_tables.py`,
whenever the grammar is the one they were made from (its productions, their
precedence, the start symbol and SLY's version: `signature`); for any other
grammar SLY builds them as before.  tests/test_startup.py checks that the
kept tables are the ones SLY builds, and that the parser uses them.

The file holds only the tables' data (states, token names, numbers), read
as a module like any other of the package.
"""
import os

import sly
from sly.yacc import LRTable, Parser

OUT = os.path.join(os.path.dirname(__file__), 'generated_tables.py')


class Tables:
    """What SLY's parser reads of an LRTable."""

    def __init__(self, action, goto, defaulted):
        self.lr_action, self.lr_goto, self.defaulted_states = action, goto, defaulted
        self.sr_conflicts, self.rr_conflicts = [], []


def signature(grammar):
    """What a grammar's LALR tables depend on."""
    return (sly.__version__, grammar.Start,
            tuple((str(p), p.prec) for p in grammar.Productions),
            tuple(sorted(grammar.Precedence.items())))


def load_or_build(cls):
    """A SLY parser class's tables (its _Parser__build_lrtables): the kept
    ones if they were made from its grammar, else SLY's, built now."""
    try:
        from . import generated_tables as kept
    except ImportError:                 # (not written yet)
        kept = None
    if kept is not None and kept.SIGNATURE == signature(cls._grammar):
        cls._lrtable = Tables(kept.ACTION, kept.GOTO, dict(kept.DEFAULTED))
        return True
    import copy
    cls._unbuilt = copy.deepcopy(cls._grammar)      # (building them changes the grammar)
    return Parser._Parser__build_lrtables.__func__(cls)


def built(cls):
    """The tables SLY builds for the parser class's grammar, as kept (and
    its grammar as it was before any was built)."""
    import copy
    grammar = copy.deepcopy(getattr(cls, '_unbuilt', cls._grammar))
    table = LRTable(copy.deepcopy(grammar))
    return table.lr_action, table.lr_goto, table.defaulted_states, grammar


def write(parser_class, out=OUT):
    """Keep the parser class's tables (tools/make_parse_tables.py)."""
    import pprint
    action, goto, defaulted, grammar = built(parser_class)
    text = ['"""The LALR tables of Pip\'s grammar (compiler/pip/tables.py).\n\n'
            'Written by `python tools/make_parse_tables.py`; never edited."""',
            'SIGNATURE = %s' % pprint.pformat(signature(grammar), width=100),
            'ACTION = %s' % _by_state(action), 'GOTO = %s' % _by_state(goto),
            'DEFAULTED = %r' % defaulted]
    with open(out, 'w') as f:
        f.write('\n'.join(text) + '\n')


def _by_state(table):
    """A table's text, a line per state."""
    return '{\n%s}' % ''.join('    %d: %r,\n' % (state, moves) for state, moves in table.items())
