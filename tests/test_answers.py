"""Easy answers at `Your choice?`: each accepted form, each ambiguity, and the
dialogue's bytes, which stay the original's whatever the answers' form."""
import io
import os
import re

import pytest
from hypothesis import given, strategies as st

from pipvm.play.answers import by_number, match
from pipvm.play.table import Console, HumanSeat

from .util import run_cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HAND = ['Three of Diamonds', 'Four of Spades', 'Five of Clubs', 'Five of Spades', 'Queen of Hearts']


@pytest.mark.parametrize('typed,index', [
    ('Four of Spades', 1),              # exact, as the original
    ('four of spades', 1),              # any case
    ('  QUEEN OF HEARTS \t', 4),        # and surrounding blanks
    ('q', 4),                           # the unique option that starts so
    ('Five of S', 3),
    ('fi', None),                       # two options start so
    ('Five', None),
    ('3', 2),                           # the option's number, from 1
    (' 5 ', 4),
    ('0', None),                        # no such number
    ('6', None),
    ('\u00b2', None),                     # a digit to str.isdigit, not a number
    ('9' * 5000, None),
    ('003', 2),
    ('', None),
    ('   ', None),
    ('Kings', None),
    ('Four of Spades and more', None),
])
def test_easy_forms_and_ambiguities(typed, index):
    assert match(typed, HAND, easy=True) == index


def test_without_easy_only_the_exact_text_is_an_answer():
    assert match('Four of Spades', HAND, easy=False) == 1
    for typed in ('four of spades', ' Four of Spades', 'q', '3'):
        assert match(typed, HAND, easy=False) is None


def test_an_exact_match_always_wins():
    assert match('queen', ['Queen', 'queen'], easy=True) == 1
    assert match('QUEEN', ['Queen', 'queen'], easy=True) is None     # equal to both, ignoring case
    assert match('Q', ['Q', 'Queen of Hearts'], easy=True) == 0     # not the prefix of another
    assert match('Queen', ['Queen', 'Queen of Hearts'], easy=True) == 0
    assert match('2', ['2', '3', '4'], easy=True) == 0              # the option, not the 2nd


def test_equal_options_are_one_answer():
    # Two decks: a hand may hold the same card twice; either is that card.
    hand = ['Ace of Clubs', 'Two of Hearts', 'Ace of Clubs']
    assert match('ace', hand, easy=True) == 0
    assert match('ace of clubs', hand, easy=True) == 0
    assert match('Ace of Clubs', hand, easy=True) == 0


def test_numbers_only_when_no_option_is_a_number():
    assert by_number(HAND) and not by_number(['2', '3', '4'])
    assert match('1', ['2', '3', '4'], easy=True) is None
    assert match('3', ['2', '3', '4'], easy=True) == 1
    assert match('1', ['10 points', 'pass'], easy=True) == 0          # 10 points is no number


def seat_dialogue(lines, easy=False, numbered=False, options=HAND):
    """What a human seat prints while answering lines, and what it chose."""
    out = io.BytesIO()
    console = Console(io.BytesIO(''.join(l + '\n' for l in lines).encode('latin-1')), out)
    console.easy, console.numbered = easy, numbered
    chosen = HumanSeat(console).choose('Ann: Choose a card:', options, "Ann's choice")
    return out.getvalue().decode('latin-1'), chosen


def test_the_dialogue_is_the_same_whatever_the_form_of_the_answer():
    exact = seat_dialogue(['Queen of Hearts'])
    assert seat_dialogue(['q'], easy=True) == exact
    assert seat_dialogue(['5'], easy=True) == exact
    sorry = seat_dialogue(['Queen', 'Queen of Hearts'])
    assert sorry[0].count("I'm sorry, I didn't understand.\n") == 1
    assert seat_dialogue(['fi', 'queen of hearts'], easy=True) == sorry
    assert seat_dialogue(['q', 'Queen of Hearts'], easy=False) == sorry


def test_numbered_prints_the_numbers_before_the_options():
    out, chosen = seat_dialogue(['2'], easy=True, numbered=True)
    assert out == ('Ann: Choose a card:\n  1. Three of Diamonds\n  2. Four of Spades\n'
                   '  3. Five of Clubs\n  4. Five of Spades\n  5. Queen of Hearts\nYour choice? ')
    assert chosen == 1
    out, chosen = seat_dialogue(['3'], easy=True, numbered=True, options=['2', '3', '4'])
    assert out == 'Ann: Choose a card:\n  2\n  3\n  4\nYour choice? ' and chosen == 1


PROMPT = re.compile(r'Your choice\? |Enter a name for [^\n:]*: ')


def easy_forms(transcript, answers):
    """The answers rewritten, one choice in three each, as the option's number,
    its text in lower case, and its shortest unique start (in upper case)."""
    menus = [m for m in PROMPT.finditer(transcript)]
    assert len(menus) == len(answers)
    rewritten = []
    for i, (prompt, answer) in enumerate(zip(menus, answers)):
        before = transcript[:prompt.start()].rsplit(':\n', 1)[-1]
        options = [line[2:] for line in before.split('\n') if line.startswith('  ')]
        if not prompt.group().startswith('Your') or answer not in options or not by_number(options):
            rewritten.append(answer)
        elif i % 3 == 0:
            rewritten.append(str(options.index(answer) + 1))
        elif i % 3 == 1:
            rewritten.append(answer.lower())
        else:
            rewritten.append(next(answer[:n].upper() for n in range(1, len(answer) + 1)
                                  if match(answer[:n], options, True) == options.index(answer)))
    assert rewritten != answers
    return rewritten


@pytest.mark.parametrize('game', ['high_card', 'crazy_eights', 'euchre'])
def test_easy_answers_play_the_same_game_byte_for_byte(game):
    path = os.path.join(ROOT, 'examples', game + '.pip')
    with open(os.path.join(ROOT, 'examples', game + '.answers'), 'rb') as f:
        answers = f.read().decode('latin-1').splitlines()
    argv = ['run', '--seed', '1', path]
    status, exact = run_cli(argv, '\n'.join(answers).encode('latin-1') + b'\n')
    easy = '\n'.join(easy_forms(exact.decode('latin-1'), answers)).encode('latin-1') + b'\n'
    assert run_cli(argv[:1] + ['--easy-answers'] + argv[1:], easy) == (status, exact)
    # Piped input without the flag keeps the original's exact matching.
    assert b"I'm sorry, I didn't understand." in run_cli(argv, easy)[1]


@given(st.text(alphabet=st.characters(max_codepoint=255), max_size=12),
       st.lists(st.text(alphabet=st.characters(max_codepoint=255), max_size=12), min_size=1,
                max_size=6))
def test_any_answer_names_one_option_or_none(typed, options):
    for easy in (False, True):
        chosen = match(typed, options, easy)
        assert chosen is None or 0 <= chosen < len(options)
        if typed in options:
            assert chosen == options.index(typed)
        elif not easy:
            assert chosen is None
