"""Every mode of running a program under a property (issue 58): every
engine on Numbers past Python's digit limit, and `--strict` against a
strict reference of its own (strict_reference.py).  (Loud against quiet
code on generated programs is property 6, test_game_object.py; the
generator now draws Numbers past the digit limit for it.)

A Number over Python's 4,300 digits (`str()` refuses it) is made only by
sums; `{x}` of one is the run-time error `Number too large to show`
(docs/language.md), on every path: the dispatch loop, the quiet code a
game nobody watches runs (`pipvm sim`, playouts), a rule's closures and
the reference interpreter.
"""
import glob
import os
import tempfile

import pytest
from hypothesis import given

from compiler.pip import frontend
from pipvm.core.errors import InputEnded, PipError, StepLimit
from pipvm.core.rng import OCamlRandom
from pipvm.game.game import Game

from ..util import run_cli
from . import harness, strict_reference
from .budget import fuzz
from .programs import sources
from .test_fuzz import REPLAY

TOO_LONG = 'Number too large to show'

# x passes the digit limit in 8 rounds of 52 x 35 doublings (14,560 bits:
# 4,383 digits) and 416 steps; then the statement under test shows it.
BIG = '''Game "Big" requires 2 players.
Number x = 1.
Number shown = 0.
%s
Action grow {
  for c in standard {
%s
  }
}
Action main {
  for c in standard { if c->rank <= 8 and c->suit == C { grow(). } }
  let y be x.
%s
  winner players->first.
}
'''
DOUBLINGS = '\n'.join(['    x += x.'] * 35)

# the statement that shows x, each by another path
SHOWS = {
    'global': ('', '  message "{x}".'),
    'local': ('', '  message "x is {y}".'),
    'to a player': ('', '  message players->last "{shown} {y}".'),
    'loop': ('', '  for p in players { message "{p}: {y}". }'),
    'text': ('', '  let t be "{x}".'),
    'rule': ('Rule r(p, c, pile) = "{x}" == "1".',
             '  deal 1 from standard to players.\n'
             '  if canplay r from players->first to standard { shown = 1. }'),
    # after an action called in the same statement has run its own statements
    'after a call': ('Action one() gives Number {\n  shown = 1.\n  give 1.\n}',
                     '  if one() == 1 and "{y}" == "1" { shown = 2. }'),
}


# where: the statement (the loop's header: its own), a rule's expression, the
# statement a call returned into (not the callee's last)
AT = {how: 'Error: Line 47, Col 3: ' for how in SHOWS}
AT.update({'loop': 'Error: Line 47, Col 22: ', 'rule': 'Error: Line 4, Col 28: ',
           'after a call': 'Error: Line 50, Col 3: '})


def source(how):
    decls, statement = SHOWS[how]
    return BIG % (decls, DOUBLINGS, statement)


def ending_of(play):
    try:
        return play()
    except (PipError, InputEnded) as e:
        return str(e)
    except StepLimit:
        return 'step limit'


def quiet_ending(checked, fuse=True):
    """The game nobody watches: the quiet code (Game(quiet=True))."""
    image = harness.vm_image(checked)

    def play():
        game = Game(image, rng=OCamlRandom(1), players=2, names=['A', 'B'], quiet=True,
                    max_steps=harness.MAX_STEPS)
        if game.decision is not None:
            return 'decision'
        ending = game.ending.to_json()
        return ending['error'] or '%s %s' % (ending['kind'], ending['winner'])
    return ending_of(play)


@pytest.mark.parametrize('how', sorted(SHOWS))
def test_a_number_past_the_digit_limit_ends_every_path_alike(how):
    checked = frontend.check_text(source(how))
    answers = [0, 'A', 'B']
    loud = harness.run(harness.vm_engine(checked), 1, answers)
    ref = harness.run(harness.reference_engine(checked), 1, answers)
    image = harness.vm_image(checked)
    image.pure = [None] * len(image.pure)           # rules on the dispatch loop only
    loop = harness.run(harness.image_engine(image), 1, answers)
    assert loud.ending.endswith(TOO_LONG) and ref.ending.endswith(TOO_LONG), loud.ending
    assert loud == loop                             # closures as the loop
    ending = loud.ending
    # at the same place: the statement; in a rule, its expression (docs/language.md)
    assert loud == ref, (loud.ending, ref.ending)
    assert ending.startswith(AT[how]), ending
    quiet = quiet_ending(checked)
    assert quiet == ending, (quiet, ending)


def test_pipvm_sim_counts_the_number_past_the_digit_limit_as_an_error():
    # the case of issue 58: `pipvm sim` (quiet code) ended it with a winner
    for engine in ('compiled', 'loop', 'reference'):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'big.pip')
            with open(path, 'w') as f:
                f.write(source('global'))
            status, out = run_cli(['sim', path, '--games', '1', '--players', '2',
                                   '--engine', engine])
        assert status == 0, out
        assert b'0.0% with a winner, 0 without, 0 stopped at the step limit, 1 errors' in out, out


# --- --strict against a strict reference of its own (strict_reference.py) ---------

def strict_says(source):
    try:
        frontend.check_text(source, strict=True)
    except PipError as e:
        return str(e)
    return None


@fuzz
@given(sources())
def test_strict_refuses_each_extension_at_its_first_use(source):
    # every generated program uses some (a value for each player, at least)
    may = strict_reference.strict_lines(source)
    assert may != [None], REPLAY
    assert strict_says(source) == may[0], (strict_says(source), may[:3], REPLAY)


# A Rank word (found while checking) before an extension the syntax tree
# shows: the checker checks in an order of its own, the error is the text's first.
FIRST = {
    'a for-each value after it': 'Rank n for each player = Five.\nAction main { message "x". }',
    'an aggregate after it': 'Action main { let x be (max c in standard of c->rank). }',
    'a rule for sets after it': ('Rule s(p, cs, d) for sets = (cs->size >= 1).\n'
                                 'Action main { message "x". }'),
}


@pytest.mark.parametrize('after', sorted(FIRST))
def test_strict_names_the_first_extension_in_the_text(after):
    text = 'Game "G" requires 2 players.\nRank r = Four.\n%s\n' % FIRST[after]
    assert strict_says(text) == ("Error: Line 2, Col 10: 'Four' (a Rank word) is an "
                                 "extension to 2008 Pip (refused by --strict)")
    assert strict_says(text) == strict_reference.strict_lines(text)[0]


DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), 'data')
PROGRAMS = sorted(glob.glob(os.path.join(DATA, '**', '*.pip'), recursive=True)
                  + glob.glob(os.path.join(os.path.dirname(DATA), '..', 'examples', '*.pip')))


def test_strict_accepts_every_2008_program_and_refuses_each_other_at_its_first_extension():
    # tests/data (the 2008 corpus among them) and examples/: the programs
    # that check, each as the strict reference says; both kinds are there
    accepted = refused = 0
    for path in PROGRAMS:
        with open(path, encoding='latin-1') as f:
            text = f.read()
        try:
            plain = frontend.check_text(text)
        except PipError:
            continue            # (a program of the error tests)
        may = strict_reference.strict_lines(text)
        assert strict_says(text) == may[0], (path, strict_says(text), may[:3])
        if may == [None]:
            assert frontend.check_text(text, strict=True) == plain, path
            accepted += 1
        else:
            refused += 1
    assert accepted >= 20 and refused >= 5, (accepted, refused)
