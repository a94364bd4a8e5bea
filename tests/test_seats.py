"""Seats: random and first bots, scripts, humans; --players and --seat."""
import os

import pytest

from pipvm.core.rng import OCamlRandom

from .util import run_cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')


def menus(out):
    """(who, options, answer) for every question in a transcript."""
    lines, found = out.decode('latin-1').splitlines(), []
    for i, line in enumerate(lines):
        if line.endswith(': Choose a card:') or line.endswith(': Choose an action:'):
            j = i + 1
            while lines[j].startswith('  '):
                j += 1
            found.append((line.split(':')[0], [o[2:] for o in lines[i + 1:j]],
                          lines[j][len('Your choice? '):]))
    return found


def test_random_bots_play_a_whole_game_reproducibly():
    status, out = run_cli(['run', HIGH_CARD, '--bots', 'random', '--seed', '4', '--players', '3'])
    assert status == 0
    text = out.decode('latin-1')
    assert 'Enter a name for Player 3: Cleo\n' in text
    assert text.rstrip().splitlines()[-1].startswith('The game was won by ')
    assert run_cli(['run', HIGH_CARD, '--bots', 'random', '--seed', '4', '--players', '3']) == (0, out)
    other = run_cli(['run', HIGH_CARD, '--bots', 'random', '--seed', '5', '--players', '3'])[1]
    assert [m[2] for m in menus(other)] != [m[2] for m in menus(out)]


def test_random_bot_choices_are_uniform_over_the_options():
    # Five options, so each card is picked about a fifth of the time.
    counts = [0] * 5
    for seed in range(60):
        out = run_cli(['run', HIGH_CARD, '--bots', 'random', '--seed', str(seed),
                       '--players', '2'])[1]
        for _, options, answer in menus(out):
            if len(options) == 5:
                counts[options.index(answer)] += 1
    assert sum(counts) == 120 and min(counts) > 12, counts


def test_first_bot_always_takes_the_first_option():
    out = run_cli(['run', HIGH_CARD, '--bots', 'first', '--seed', '2', '--players', '2'])[1]
    asked = menus(out)
    assert len(asked) == 10 and all(answer == options[0] for _, options, answer in asked)


def test_a_seat_can_be_human_while_the_others_are_bots():
    status, out = run_cli(['run', HIGH_CARD, '--seat', '2=random', '--seed', '1'],
                          b'2\nZoe\n' + b'junk\n' * 3)
    text = out.decode('latin-1')
    assert 'Enter a name for Player 2: Ben\n' in text
    assert text.count("I'm sorry, I didn't understand.") == 3
    assert status == 1 and text.endswith("Error: input ended while waiting for Zoe's choice\n")


def test_script_seat_answers_from_its_file_and_ends_cleanly(tmp_path):
    script = tmp_path / 'me.txt'
    script.write_bytes(b'Zed\nnot a card\n')
    status, out = run_cli(['run', HIGH_CARD, '--seat', '1=script:%s' % script,
                           '--bots', 'first', '--players', '2', '--seed', '2'])
    text = out.decode('latin-1')
    assert 'Enter a name for Player 1: Zed\n' in text          # echoed, as typed
    assert 'Your choice? not a card\nI\'m sorry, I didn\'t understand.\n' in text
    assert status == 1 and text.endswith("Error: input ended while waiting for Zed's choice\n")


def test_players_fixes_the_count_without_asking():
    out = run_cli(['run', HIGH_CARD, '--bots', 'first', '--players', '4', '--seed', '1'])[1]
    text = out.decode('latin-1')
    assert 'How many players' not in text and 'This game has 4 players.\n' in text


@pytest.mark.parametrize('argv, message', [
    (['--players', '7'], 'Error: --players 7: this game is for 2, 3 or 4 players'),
    (['--players', '2', '--seat', '3=random'], 'Error: --seat 3: this game has 2 players'),
    (['--seat', '5=first'], 'Error: --seat 5: this game has at most 4 players'),
    (['--bots', 'robot'], "Error: unknown seat 'robot' (use random, first, mc[:N], ismcts[:N], human, script:FILE)"),
    (['--seat', 'two=random'], 'Error: --seat two=random: expected N=KIND, e.g. --seat 2=random'),
    (['--seat', '1=script:/no/such/file'],
     'Error: cannot read /no/such/file: No such file or directory'),
])
def test_bad_seating_is_one_line_before_the_game_starts(argv, message):
    assert run_cli(['run', HIGH_CARD] + argv) == (1, (message + '\n').encode())


def test_team_games_count_players_in_whole_teams():
    euchre = os.path.join(ROOT, 'examples', 'euchre.pip')
    assert run_cli(['run', euchre, '--players', '3']) == (
        1, b'Error: --players 3: this game is for 4 players\n')
    status, out = run_cli(['run', euchre, '--players', '4', '--bots', 'random', '--seed', '3'])
    text = out.decode('latin-1')
    assert status == 0 and 'This game has 2 teams.\n' in text
    assert 'Enter a name for Player 2 on team 1: Cleo\n' in text      # seats interleave teams


def test_shuffle_draws_as_int_does():
    # SHUFFLE inlines the generator; it must draw exactly what int(n) draws.
    for seed in range(30):
        fast, slow = OCamlRandom(seed), OCamlRandom(seed)
        items, expected = list(range(seed + 2)), list(range(seed + 2))
        fast.shuffle(items)
        for n in range(len(expected), 1, -1):
            r = slow.int(n)
            expected[n - 1], expected[r] = expected[r], expected[n - 1]
        assert items == expected and fast.bits() == slow.bits()


# --- one person against bots: the terminal shows that seat's view only ---------------

def test_one_person_against_bots_sees_only_what_their_seat_sees():
    crazy_eights = os.path.join(ROOT, 'examples', 'crazy_eights.pip')
    status, out = run_cli(['run', crazy_eights, '--seed', '3', '--players', '2', '--bots',
                           'random', '--seat', '1=human', '--numbered'], b'Ann\n' + b'1\n' * 400)
    text = out.decode('latin-1')
    assert status == 0 and 'Ann: You drew ' in text and 'Ben played ' in text
    # no bot's menu (it lists its hand), nothing addressed to a bot
    assert not [line for line in text.splitlines() if line.startswith('Ben: ')]
    assert 'Ben: Choose' not in text and 'Ann: Choose' in text
    assert 'Ben is choosing.\n' in text
    # everyone at the terminal (bots too): the whole dialogue, as before
    everyone = run_cli(['run', crazy_eights, '--seed', '3', '--players', '2', '--bots',
                        'random'])[1].decode('latin-1')
    assert 'Ben: Choose an action:' in everyone and 'Ben: Your hand:' in everyone


def test_a_bots_card_played_face_down_is_not_named_to_the_person():
    euchre = os.path.join(ROOT, 'examples', 'euchre.pip')
    argv = ['run', euchre, '--seed', '3', '--players', '4', '--bots', 'random', '--seat',
            '1=human', '--numbered']
    status, out = run_cli(argv, b'Ann\n' + b'1\n' * 400)
    # the reference interpreter's table shows the person the same
    assert run_cli(argv + ['--engine', 'reference'], b'Ann\n' + b'1\n' * 400) == (status, out)
    text = out.decode('latin-1')
    # Ann orders up; the dealer, a bot, discards to the face-down Kitty
    assert 'Ann: Choose an action:\n  1. Order up Ace of Hearts\n' in text
    assert 'Dev is choosing.\nDev played a card face down.\nTrump is Hearts.\n' in text
    everyone = run_cli(['run', euchre, '--seed', '3', '--players', '4', '--bots',
                        'random'])[1].decode('latin-1')
    assert 'played a card face down' not in everyone and 'Dev: Choose a card:' in everyone


def test_a_bots_run_of_questions_is_one_line(tmp_path):
    crazy_eights = os.path.join(ROOT, 'examples', 'crazy_eights.pip')
    record = str(tmp_path / 'game.json')
    out = run_cli(['run', crazy_eights, '--seed', '3', '--players', '2', '--bots', 'random',
                   '--seat', '1=human', '--numbered', '--record', record],
                  b'Ann\n' + b'1\n' * 400)[1]
    lines = out.decode('latin-1').splitlines()
    everyone = run_cli(['replay', record])[1].decode('latin-1')      # the same game, all of it
    assert ('Ben is choosing.', 'Ben is choosing.') not in zip(lines, lines[1:])
    assert everyone.count('Ben: Choose') > lines.count('Ben is choosing.') > 0


@pytest.mark.parametrize('engine', ['compiled', 'reference'])
def test_the_count_question_offers_only_counts_that_seat_every_seat_named(engine):
    # a bot at seat 1 used to pick 2 players, then stop: --seat 4 needs four
    for seed in range(1, 6):
        status, out = run_cli(['run', HIGH_CARD, '--engine', engine, '--bots', 'random',
                               '--seat', '4=first', '--seed', str(seed)])
        text = out.decode('latin-1')
        assert status == 0, text
        assert 'How many players are playing?\n  4\nYour choice? 4\n' in text, text
    status, out = run_cli(['run', HIGH_CARD, '--engine', engine, '--seat', '3=random',
                           '--seed', '1'], b'3\nAnn\nBob\n')
    text = out.decode('latin-1')
    assert 'How many players are playing?\n  3\n  4\nYour choice? ' in text, text
    assert 'This game has 3 players.\n' in text


def test_a_sim_seats_the_fewest_players_that_hold_every_seat_named():
    from pipvm.core.errors import PipError
    from pipvm.design.playing import sim_seating
    from pipvm.play.loader import load_variant
    from pipvm.play.seats import from_options
    program = load_variant(HIGH_CARD, ()).program
    assert sim_seating(program, from_options(['--bots', 'random', '--seat', '3=first'])).players == 3
    assert sim_seating(program, from_options(['--bots', 'random'])).players == 2
    with pytest.raises(PipError, match='--seat 5: this game has at most 4 players'):
        sim_seating(program, from_options(['--bots', 'random', '--seat', '5=first']))
