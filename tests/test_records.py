"""Records: `pipvm run --record`, `pipvm replay [--seat N]`, `pipvm run --resume`.

A terminal shows what is typed, so a human game's dialogue as it was seen is
the run with its input echoed (run_cli(..., echo=True)); bots and scripts echo
their answers themselves.
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pipvm.records import record

from .util import played_to_its_end, run_cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, 'examples')
GAMES = sorted(n[:-len('.answers')] for n in os.listdir(EXAMPLES) if n.endswith('.answers'))
SORRY = b"I'm sorry, I didn't understand.\n"


def example(name):
    return os.path.join(EXAMPLES, name + '.pip')


def answer_lines(name):
    with open(os.path.join(EXAMPLES, name + '.answers'), 'rb') as f:
        return f.read().splitlines(keepends=True)


def cut(src, dst, k):
    """dst: the record src as if the game had stopped after k answers."""
    r = record.read(str(src))
    r.answers = r.answers[:k]
    record.write(str(dst), r)


def recorded(tmp_path, argv, stdin=b'', echo=True, name='r.json'):
    """(status, output, record path) of `pipvm run ARGV --record tmp/NAME`."""
    path = tmp_path / name
    status, out = run_cli(['run'] + argv + ['--record', str(path)], stdin, echo)
    return status, out, path


def resumed(path, stdin=b'', extra=()):
    return run_cli(['run', '--resume', str(path)] + list(extra), stdin, echo=True)


# --- round trips --------------------------------------------------------------------

@pytest.mark.parametrize('name', GAMES)
def test_record_replay_and_resume_every_example(name, tmp_path):
    lines = answer_lines(name)
    status, shown, path = recorded(tmp_path, ['--seed', '1', example(name)], b''.join(lines))
    assert status == 0 and played_to_its_end(shown)
    answers = record.read(str(path)).answers
    assert len(answers) == len(lines)              # one answer a line read
    assert [a.text.encode('latin-1') + b'\n' for a in answers] == lines
    # the dialogue exactly as the terminal showed it, asking nothing
    assert run_cli(['replay', str(path)]) == (0, shown)
    # cut after k answers and resumed with the rest: the game played in one go
    n = len(lines)
    for k in range(n + 1) if name == 'high_card' else sorted({0, 1, n // 2, n - 1}):
        part = tmp_path / ('cut%d.json' % k)
        cut(path, part, k)
        assert resumed(part, b''.join(lines[k:])) == (0, shown), k
        assert part.read_bytes() == path.read_bytes(), k


def test_record_lists_the_settings_and_the_answers(tmp_path):
    status, _, path = recorded(tmp_path, ['--seed', '1', example('high_card')],
                               b''.join(answer_lines('high_card')))
    obj = json.loads(path.read_bytes())
    assert obj['format'] == 'pipvm record' and obj['version'] == 1
    assert os.path.normpath(os.path.join(tmp_path, obj['game'])) == example('high_card')
    assert (obj['seed'], obj['players'], obj['max_steps'], obj['bots'], obj['seats']) == \
        (1, None, None, 'human', {})
    assert obj['names'] == {'1': 'P1', '2': 'P2'}
    assert obj['answers'][:4] == [
        {'seat': 1, 'choice': 1, 'answer': '2'}, {'seat': 1, 'name': 'P1'},
        {'seat': 2, 'name': 'P2'}, {'seat': 1, 'choice': 2, 'answer': 'Four of Spades'}]
    assert len(obj['fingerprint']) == 64


@pytest.mark.parametrize('name', GAMES)
def test_bot_games_replay_and_resume_byte_for_byte(name, tmp_path):
    argv = [example(name), '--bots', 'random', '--seed', '3', '--max-steps', '3000']
    status, shown, path = recorded(tmp_path, argv, echo=False)
    assert status == 0 or shown.endswith(b'(--max-steps)\n')   # ended, or stopped
    assert run_cli(['replay', str(path)]) == (status, shown)
    n = len(record.read(str(path)).answers)
    for k in (0, n // 2):
        part = tmp_path / ('cut%d.json' % k)
        cut(path, part, k)
        # the random bots draw again from the game's generator, as they did
        assert resumed(part) == (status, shown)
        assert part.read_bytes() == path.read_bytes()


# Thinking bots (issue 20): their budget is part of the seat kind the record
# keeps (`ismcts:4`); a record that kept only `ismcts` replayed with the
# default budget, so the bot chose otherwise and the record was refused.
# (A small budget: each replay and resume thinks the whole game again.)
THINKING_GAMES = [
    ('euchre', ['--seat', '1=ismcts:4', '--bots', 'random'],
     {'bots': 'random', 'seats': {'1': 'ismcts:4'}}),
    ('oh_hell', ['--players', '3', '--seat', '2=ismcts:4', '--seat', '3=mc:1', '--bots', 'first'],
     {'bots': 'first', 'seats': {'2': 'ismcts:4', '3': 'mc:1'}}),
]


@pytest.mark.parametrize('name, seats, kept', THINKING_GAMES, ids=[g[0] for g in THINKING_GAMES])
def test_thinking_bot_games_replay_and_resume_byte_for_byte(name, seats, kept, tmp_path):
    status, shown, path = recorded(tmp_path, [example(name), '--seed', '4'] + seats, echo=False)
    assert status == 0 and b'The game was won by' in shown
    obj = json.loads(path.read_bytes())
    assert {k: obj[k] for k in kept} == kept
    assert run_cli(['replay', str(path)]) == (0, shown)
    n = len(obj['answers'])
    for k in (0, n // 3, n - 1):
        part = tmp_path / ('cut%d.json' % k)
        cut(path, part, k)
        # the thinking bots think again, from the same seed, and must answer as recorded
        assert resumed(part) == (0, shown), k
        assert part.read_bytes() == path.read_bytes(), k


def test_a_script_and_a_thinking_bot_resume_after_any_answer(tmp_path):
    # The bot's answers reach the file with the script's next line; cut after
    # any answer, --resume re-derives the bot's from the seed and checks them.
    argv = [example('high_card'), '--seat', '2=ismcts:5', '--players', '2', '--seed', '2']
    _, _, first = recorded(tmp_path, argv + ['--seat', '1=first'], echo=False, name='f.json')
    script = tmp_path / 'me.txt'
    script.write_bytes(b''.join(a.text.encode() + b'\n'
                                for a in record.read(str(first)).answers if a.seat == 0))
    status, shown, path = recorded(tmp_path, argv + ['--seat', '1=script:%s' % script],
                                   echo=False)
    assert status == 0 and json.loads(path.read_bytes())['seats'] == {
        '1': 'script:me.txt', '2': 'ismcts:5'}
    assert run_cli(['replay', str(path)]) == (0, shown)
    for k in range(len(record.read(str(path)).answers)):
        part = tmp_path / 'cut.json'
        cut(path, part, k)
        assert resumed(part) == (0, shown), k
        assert part.read_bytes() == path.read_bytes(), k


def test_a_thinking_bot_that_would_choose_otherwise_is_refused(tmp_path):
    _, _, path = recorded(tmp_path, [example('euchre'), '--seed', '4', '--seat', '1=ismcts:10',
                                     '--bots', 'random'], echo=False)
    obj = json.loads(path.read_bytes())
    obj['seats'] = {'1': 'ismcts:11'}      # another budget: it thinks otherwise somewhere
    bad = tmp_path / 'bad.json'
    bad.write_text(json.dumps(obj))
    assert refused(bad).startswith('answer ') and ': the bot at seat 1 chose option ' in refused(bad)


def test_thinking_bots_resume_on_the_vm_only(tmp_path):
    _, _, path = recorded(tmp_path, [example('oh_hell'), '--seed', '4', '--players', '3',
                                     '--bots', 'mc:2'], echo=False)
    cut(path, path, 10)
    assert resumed(path, extra=['--engine', 'reference']) == (
        1, b'Error: thinking bots (mc, ismcts) need the VM (--engine compiled or loop), not the reference\n')


def test_a_variant_is_recorded_and_resumed_as_played(tmp_path):
    argv = [example('high_card'), '--bots', 'random', '--seed', '2', '--set', 'rounds=2']
    status, shown, path = recorded(tmp_path, argv, echo=False)
    assert status == 0 and b'Dealing 2 cards to everyone.' in shown
    assert json.loads(path.read_bytes())['set'] == {'rounds': '2'}
    assert run_cli(['replay', str(path)]) == (0, shown)
    part = tmp_path / 'cut.json'
    cut(path, part, 3)
    assert resumed(part) == (0, shown)
    assert part.read_bytes() == path.read_bytes()


def test_a_random_seed_is_chosen_and_recorded(tmp_path):
    # (High Card ends whatever the deal; a random Crazy Eights game may not)
    argv = [example('high_card'), '--bots', 'random', '--players', '3']
    status, shown, path = recorded(tmp_path, argv, echo=False)
    seed = json.loads(path.read_bytes())['seed']
    assert status == 0 and type(seed) is int
    assert run_cli(['replay', str(path)]) == (0, shown)
    assert run_cli(['run'] + argv + ['--seed', str(seed)]) == (0, shown)


def test_script_and_bot_seats_resume_where_they_were(tmp_path):
    # A script that answers as a `first` bot would, with a refused line before each card.
    argv = [example('high_card'), '--seat', '2=random', '--players', '2', '--seed', '2']
    _, _, first = recorded(tmp_path, argv + ['--seat', '1=first'], echo=False, name='f.json')
    script = tmp_path / 'me.txt'
    script.write_bytes(b''.join(b'no such card\n' + a.text.encode() + b'\n'
                                for a in record.read(str(first)).answers if a.seat == 0)
                       .replace(b'no such card\nAda\n', b'Zed\n', 1))
    status, shown, path = recorded(tmp_path, argv + ['--seat', '1=script:%s' % script],
                                   echo=False)
    assert status == 0 and shown.count(SORRY) == 5 and b'Player 1: Zed\n' in shown
    assert json.loads(path.read_bytes())['seats'] == {'1': 'script:me.txt', '2': 'random'}
    assert run_cli(['replay', str(path)]) == (0, shown)
    n = len(record.read(str(path)).answers)
    for k in range(n):
        part = tmp_path / 'cut.json'
        cut(path, part, k)
        assert resumed(part) == (0, shown), k
        assert part.read_bytes() == path.read_bytes(), k


def test_the_reference_engine_records_and_resumes_the_same_game(tmp_path):
    lines = answer_lines('three_hearts')
    argv = ['--seed', '1', example('three_hearts')]
    _, shown, vm = recorded(tmp_path, argv, b''.join(lines), name='vm.json')
    _, ref_shown, ref = recorded(tmp_path, argv + ['--engine', 'reference'], b''.join(lines),
                                 name='ref.json')
    assert ref_shown == shown and ref.read_bytes() == vm.read_bytes()
    cut(vm, ref, 20)
    assert resumed(ref, b''.join(lines[20:]), ['--engine', 'reference']) == (0, shown)
    assert ref.read_bytes() == vm.read_bytes()


def test_easy_answers_and_numbered_menus_replay_as_they_were(tmp_path):
    lines = answer_lines('high_card')
    typed = lines[:3] + [b'zz\n'] + [line.lower() for line in lines[3:]]
    status, shown, path = recorded(tmp_path, ['--seed', '1', example('high_card'),
                                              '--numbered'], b''.join(typed))
    assert status == 0 and b'  1. Three of Diamonds\n' in shown
    assert json.loads(path.read_bytes())['numbered'] is True
    assert run_cli(['replay', str(path)]) == (0, shown)
    for k in range(len(typed)):
        part = tmp_path / 'cut.json'
        cut(path, part, k)
        assert resumed(part, b''.join(typed[k:])) == (0, shown), k
        assert part.read_bytes() == path.read_bytes(), k
    # the lines typed chose what the exact names choose
    _, _, exact = recorded(tmp_path, ['--seed', '1', example('high_card')], b''.join(lines),
                           name='exact.json')

    def chosen(p):
        return [a.option for a in record.read(str(p)).answers if a.kind == record.CHOICE]
    assert chosen(path) == chosen(exact)


def test_an_answer_refused_as_inexact_stays_refused(tmp_path):
    lines = answer_lines('high_card')
    typed = lines[:3] + [lines[3].lower()] + lines[3:]       # piped: exact answers only
    status, shown, path = recorded(tmp_path, ['--seed', '1', example('high_card')],
                                   b''.join(typed))
    assert status == 0 and shown.count(SORRY) == 1
    assert record.read(str(path)).answers[3].kind == record.REFUSED
    assert run_cli(['replay', str(path)]) == (0, shown)


# --- what is kept when the game stops -------------------------------------------------

def test_end_of_input_keeps_every_line_given_refused_ones_too(tmp_path):
    lines = answer_lines('high_card')
    given = lines[:6] + [b'seven of swords\n']
    status, shown, path = recorded(tmp_path, ['--seed', '1', example('high_card')],
                                   b''.join(given))
    assert status == 1 and shown.endswith(b"Error: input ended while waiting for P2's choice\n")
    r = record.read(str(path))
    assert [a.text.encode() + b'\n' for a in r.answers] == given
    assert r.answers[-1].kind == record.REFUSED
    # the replay shows the refusal where it was, and the question left waiting
    status, replayed = run_cli(['replay', str(path)])
    assert status == 0 and replayed == shown[:-len(b"Error: input ended while waiting for "
                                                   b"P2's choice\n")]
    assert replayed.endswith(b'Your choice? seven of swords\n' + SORRY +
                             replayed[replayed.rindex(b'P2: Choose a card:'):])
    # resumed, the game ends as if played in one go with the same lines
    _, one_go, _ = recorded(tmp_path, ['--seed', '1', example('high_card')],
                            b''.join(given + lines[6:]), name='one.json')
    assert resumed(path, b''.join(lines[6:])) == (0, one_go)
    assert path.read_bytes() == (tmp_path / 'one.json').read_bytes()


def test_a_record_is_written_before_the_first_question(tmp_path):
    status, shown, path = recorded(tmp_path, ['--seed', '4', example('euchre')])
    assert status == 1 and record.read(str(path)).answers == []
    assert run_cli(['replay', str(path)]) == (0, shown[:shown.rindex(b'Error:')])


def test_ctrl_c_keeps_what_was_answered(tmp_path):
    path = tmp_path / 'r.json'
    lines = answer_lines('high_card')
    p = subprocess.Popen([sys.executable, '-m', 'pipvm', 'run', '--seed', '1',
                          example('high_card'), '--record', str(path)],
                         stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    p.stdin.write(b''.join(lines[:5]))
    p.stdin.flush()
    deadline = time.time() + 30
    while time.time() < deadline:      # the game waits for the sixth answer
        if path.exists() and len(json.loads(path.read_bytes())['answers']) == 5:
            break
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    assert p.wait(30) == 130 and p.stderr.read().endswith(b'Interrupted.\n')
    p.stdin.close()
    p.stderr.close()
    assert len(record.read(str(path)).answers) == 5
    _, one_go, full = recorded(tmp_path, ['--seed', '1', example('high_card')],
                               b''.join(lines), name='one.json')
    assert resumed(path, b''.join(lines[5:])) == (0, one_go)
    assert path.read_bytes() == full.read_bytes()


# --- one seat's view -----------------------------------------------------------------

def test_a_seat_sees_only_its_own_questions_and_messages(tmp_path):
    status, shown, path = recorded(tmp_path, ['--seed', '1', example('crazy_eights')],
                                   b''.join(answer_lines('crazy_eights')))
    assert status == 0
    everything = shown.decode().splitlines()

    def questions(lines, who):
        return [line for line in lines if line.startswith(who + ': Choose ')]
    views = {}
    for seat, me, other in ((1, 'P1', 'P2'), (2, 'P2', 'P1')):
        status, out = run_cli(['replay', str(path), '--seat', str(seat)])
        assert status == 0
        view = views[seat] = out.decode().splitlines()
        # others' questions (their menus list their hands) become one line a run
        choosing = '%s is choosing.' % other
        assert 0 < view.count(choosing) <= len(questions(everything, other))
        assert (choosing, choosing) not in zip(view, view[1:])
        assert not any(line.startswith(other + ': ') for line in view)
        assert questions(view, me) == questions(everything, me)
        # everything else it sees is what the table showed, in order
        rest = iter(everything)
        assert all(line in rest for line in view if not line.endswith(' is choosing.'))
        assert [l for l in everything if ' played ' in l] == [l for l in view if ' played ' in l]
    # a message to one player is seen by that player only
    private = [l for l in everything if l.startswith('P1: You drew')]
    assert private and all(l in views[1] for l in private)


def test_a_team_message_view(tmp_path):
    # Euchre: every seat sees its own "Your hand:" and no other's
    status, shown, path = recorded(tmp_path, ['--seed', '1', example('euchre')],
                                   b''.join(answer_lines('euchre')))
    for seat, me in enumerate(('T1P1', 'T2P1', 'T1P2', 'T2P2'), 1):
        view = run_cli(['replay', str(path), '--seat', str(seat)])[1].decode()
        assert (me + ': Your hand:') in view
        assert [l for l in view.splitlines() if l.endswith(': Your hand:')] == \
            [l for l in shown.decode().splitlines() if l == me + ': Your hand:']


def test_seat_beyond_the_game_is_refused(tmp_path):
    _, _, path = recorded(tmp_path, ['--seed', '1', example('high_card')],
                          b''.join(answer_lines('high_card')))
    assert run_cli(['replay', str(path), '--seat', '3']) == (
        1, b'Error: %s: --seat 3: this game has 2 players\n' % str(path).encode())


# --- records that cannot be played ---------------------------------------------------

def _set(key, value):
    def change(obj):
        obj[key] = value
    return change


def _drop(key):
    return lambda obj: obj.pop(key)


def _answer(i, **fields):
    def change(obj):
        obj['answers'][i] = fields
    return change


def _append(entry):
    return lambda obj: obj['answers'].append(entry)


MALFORMED = {
    'other format': (_set('format', 'chess record'), 'not a pipvm record'),
    'version 2': (_set('version', 2), 'format version 2 is not supported'),
    'version as text': (_set('version', '1'), 'format version "1" is not supported'),
    'unknown key': (_set('colour', 'red'), 'unknown key "colour"'),
    'game not text': (_set('game', 5), '"game" must be one line'),
    'game empty': (_set('game', ''), '"game" must be a file name'),
    'game missing': (_set('game', 'nowhere.pip'), 'cannot load the game nowhere.pip (cannot '
                                                  'read '),
    'short fingerprint': (_set('fingerprint', 'abc'), '"fingerprint" must be 64'),
    'other fingerprint': (_set('fingerprint', '0' * 64), 'has changed since it was recorded'),
    'seed as text': (_set('seed', '1'), '"seed" must be a whole number'),
    'seed true': (_set('seed', True), '"seed" must be a whole number'),
    'seed fraction': (_set('seed', 1.5), '"seed" must be a whole number'),
    'huge seed': (None, 'not valid JSON'),
    'players zero': (_set('players', 0), '"players" must be a whole number of at least 1'),
    'players not allowed': (_set('players', 9), '--players 9: this game is for 2, 3 or 4'),
    'max_steps text': (_set('max_steps', 'many'), '"max_steps" must be a whole number'),
    'bots unknown': (_set('bots', 'genius'), '"bots" must be random, first, mc[:N], ismcts[:N]'),
    'budget zero': (_set('bots', 'ismcts:0'), '"bots" must be random, first, mc[:N]'),
    'budget padded': (_set('seats', {'2': 'mc:02'}), 'seat "2" must be random'),
    'seats list': (_set('seats', []), '"seats" must be an object'),
    'seat zero': (_set('seats', {'0': 'random'}), '"seats" keys must be seat numbers'),
    'seat padded': (_set('seats', {'01': 'random'}), '"seats" keys must be seat numbers'),
    'seat kind': (_set('seats', {'2': 7}), 'seat "2" must be random'),
    # (a key is checked before its value, and shown escaped: one line)
    'seat a line break': (_set('seats', {'\n': None}), '"seats" keys must be seat numbers from 1, '
                                                      'not "\\n"'),
    'key a line break': (_set('a\nb', 1), 'unknown key "a\\nb"'),
    'seat beyond the game': (_set('seats', {'7': 'random'}),
                             '--seat 7: this game has at most 4 players'),
    'names differ': (_set('names', {'1': 'P1', '2': 'Q'}), '"names" differ'),
    'names list': (_set('names', []), '"names" must be an object'),
    'answers object': (_set('answers', {}), '"answers" must be a list'),
    'answer not object': (_answer(3, x=1), 'answer 4 must hold "seat"'),
    'answer a number': (lambda o: o['answers'].__setitem__(0, 1), 'answer 1 must be an object'),
    'answer extra key': (_answer(3, seat=1, choice=2, answer='Four of Spades', why='x'),
                         'answer 4 must hold'),
    'answer seat zero': (_answer(3, seat=0, choice=2, answer='Four of Spades'),
                         'answer 4 "seat" must be a whole number of at least 1'),
    'option zero': (_answer(3, seat=1, choice=0, answer='Four of Spades'),
                    '"choice" must be a whole number of at least 1'),
    'two lines': (_answer(3, seat=1, refused='a\nb'), 'must be one line of Latin-1 text'),
    'not latin-1': (_answer(3, seat=1, refused='\u20ac'), 'must be one line of Latin-1'),
    'option out of range': (_answer(3, seat=1, choice=9, answer='Four of Spades'),
                            'answer 4: option 9 is out of range (5 options)'),
    'option not its label': (_answer(3, seat=1, choice=1, answer='Four of Spades'),
                             'answer 4: "Four of Spades" does not choose option 1'),
    'numbered not true or false': (_set('numbered', 1), '"numbered" must be true or false'),
    'another seat': (_answer(3, seat=2, choice=2, answer='Four of Spades'),
                     "answer 4: it is seat 2's, but the game asks seat 1"),
    'choice for a name': (lambda o: (_answer(1, seat=1, choice=1, answer='P1')(o),
                                     o['names'].pop('1')),
                          'answer 2: it is a choice, but the game asks seat 1 for a name'),
    'refused option': (_answer(3, seat=1, refused='Four of Spades'),
                       'answer 4: "Four of Spades" was refused, but it is an option'),
    'after the end': (_append({'seat': 1, 'refused': 'more'}),
                      'answer 14 comes after the end of the game'),
}
RAW = {
    'bad json': b'{"format": "pipvm record",,}',
    'empty file': b'',
    'not utf-8': b'\xff\xfe{}',
    'nested too deeply': b'[' * 100000,
    'not an object': b'[]',
}


@pytest.fixture(scope='module')
def good(tmp_path_factory):
    folder = tmp_path_factory.mktemp('good')
    shutil.copy(example('high_card'), folder / 'game.pip')
    status, _, path = recorded(folder, ['--seed', '1', str(folder / 'game.pip')],
                               b''.join(answer_lines('high_card')))
    assert status == 0
    return path


def refused(path):
    """The single error line replay and resume give for the record in path,
    which they must leave as it was."""
    before = path.read_bytes()
    results = {run_cli(argv) for argv in (['replay', str(path)], ['run', '--resume', str(path)])}
    assert len(results) == 1 and path.read_bytes() == before
    (status, out), = results
    prefix = b'Error: %s: ' % str(path).encode()
    assert status == 1 and out.startswith(prefix) and out.count(b'\n') == 1, out
    return out[len(prefix):-1].decode()


@pytest.mark.parametrize('case', sorted(MALFORMED) + ['missing ' + k for k in record.KEYS[2:]])
def test_a_malformed_record_gets_one_error_line(case, good):
    obj = json.loads(good.read_bytes())
    if case.startswith('missing '):
        change, expected = _drop(case[len('missing '):]), 'missing "%s"' % case[len('missing '):]
    else:
        change, expected = MALFORMED[case]
    bad = good.parent / ('bad %s.json' % case)
    if change is None:                     # too many digits for Python to read
        bad.write_bytes(good.read_bytes().replace(b'"seed": 1', b'"seed": 1' + b'0' * 5000))
    else:
        change(obj)
        bad.write_text(json.dumps(obj))
    assert expected in refused(bad)


@pytest.mark.parametrize('case', sorted(RAW) + ['truncated %d' % n for n in (1, 2, 3)])
def test_a_damaged_file_gets_one_error_line(case, good):
    bad = good.parent / 'damaged.json'
    data = good.read_bytes()
    bad.write_bytes(RAW[case] if case in RAW else data[:len(data) * int(case[-1]) // 4])
    assert refused(bad).startswith(('not valid JSON', 'not a pipvm record'))


def test_a_changed_game_is_refused(good):
    copy = good.parent / 'changed.json'
    copy.write_bytes(good.read_bytes())
    game = good.parent / 'game.pip'
    source = game.read_bytes()
    try:
        game.write_bytes(source.replace(b'takes the round', b'wins the round'))
        assert refused(copy) == ('the game game.pip has changed since it was recorded '
                                 '(its fingerprint differs)')
        game.write_bytes(b'Game "Broken" requires')
        assert refused(copy) == 'cannot load the game game.pip (syntax error on line 1)'
    finally:
        game.write_bytes(source)


def test_a_bot_that_would_choose_otherwise_is_refused(tmp_path):
    _, _, path = recorded(tmp_path, [example('high_card'), '--bots', 'random', '--seed', '5',
                                     '--players', '2'], echo=False)
    obj = json.loads(path.read_bytes())
    a = obj['answers'][2]                  # a's first card choice; rechose another card
    assert 'choice' in a
    bad = tmp_path / 'bad.json'
    status, shown = run_cli(['replay', str(path)])
    menu = shown.decode().split('Your choice? ')[0].splitlines()
    options = [line[2:] for line in menu if line.startswith('  ')]
    other = (a['choice'] % len(options)) + 1
    a['choice'], a['answer'] = other, options[other - 1]
    bad.write_text(json.dumps(obj))
    assert refused(bad) == 'answer 3: the bot at seat 1 chose option %d, not %d' % (
        options.index(json.loads(path.read_bytes())['answers'][2]['answer']) + 1, other)


def test_a_missing_script_stops_a_resume_but_not_a_replay(tmp_path):
    script = tmp_path / 'me.txt'
    script.write_bytes(b'Zed\n')
    status, shown, path = recorded(tmp_path, [example('high_card'), '--seat',
                                              '1=script:%s' % script, '--bots', 'first',
                                              '--seed', '1', '--players', '2'], echo=False)
    assert status == 1
    script.unlink()
    assert run_cli(['replay', str(path)]) == (0, shown[:shown.rindex(b'Error:')])
    status, out = run_cli(['run', '--resume', str(path)])
    assert status == 1 and out == b'Error: %s: cannot read %s: No such file or directory\n' % (
        str(path).encode(), str(script).encode())


# --- the command line -----------------------------------------------------------------

@pytest.mark.parametrize('argv, message', [
    (['--seed', '1'], '--resume plays the game, seed and seats of its record: drop --seed'),
    ([example('high_card')], 'drop GAME'),
    (['--bots', 'random'], 'drop --bots'),
    (['--seat', '2=first'], 'drop --seat'),
    (['--players', '2'], 'drop --players'),
    (['--max-steps', '9'], 'drop --max-steps'),
    (['--record', 'x.json'], 'drop --record'),
])
def test_resume_takes_its_settings_from_the_record(argv, message, tmp_path):
    status, out = run_cli(['run', '--resume', str(tmp_path / 'r.json')] + argv)
    assert status == 1 and out.startswith(b'Error: --resume plays the game') and \
        out.endswith(b' ' + message.encode() + b'\n') and out.count(b'\n') == 1


def test_run_needs_a_game_or_a_record():
    assert run_cli(['run']) == (
        1, b'Error: run: give GAME.pip (or GAME.pipc), or --resume FILE.json\n')


def test_end_to_end_from_a_fresh_process(tmp_path):
    path = tmp_path / 'r.json'
    lines = answer_lines('up_and_down')
    cmd = [sys.executable, '-m', 'pipvm']
    run = subprocess.run(cmd + ['run', '--seed', '1', example('up_and_down'), '--record',
                                str(path)], input=b''.join(lines[:40]), capture_output=True)
    assert run.returncode == 1
    go_on = subprocess.run(cmd + ['run', '--resume', str(path)], input=b''.join(lines[40:]),
                           capture_output=True)
    assert go_on.returncode == 0 and go_on.stderr == b''
    replay = subprocess.run(cmd + ['replay', str(path)], capture_output=True)
    assert replay.returncode == 0 and replay.stderr == b''
    # as a terminal shows the game played in one go
    assert replay.stdout == run_cli(['run', '--seed', '1', example('up_and_down')],
                                    b''.join(lines), echo=True)[1]
    # the resumed part went on where the record stopped: the answers typed are not echoed
    prompt = b'Your choice? '
    tail = go_on.stdout[go_on.stdout.rindex(prompt) + len(prompt):]
    assert replay.stdout.endswith(prompt + lines[-1] + tail)
    assert [a.text.encode() + b'\n' for a in record.read(str(path)).answers] == lines


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 30) | st.floats() |
                    st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=3) |
                    st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.data())
def test_any_changed_value_replays_or_gets_one_error_line(good, data):
    obj = json.loads(good.read_bytes())
    where = obj
    if data.draw(st.booleans(), 'in an answer'):
        where = obj['answers'][data.draw(st.integers(0, len(obj['answers']) - 1), 'answer')]
    key = data.draw(st.sampled_from(sorted(where) + ['seat', 'choice', 'extra']), 'key')
    where[key] = data.draw(JSON | st.integers(), 'value')
    bad = good.parent / 'changed value.json'
    bad.write_text(json.dumps(obj))
    status, out = run_cli(['replay', str(bad)])       # a traceback fails here
    if status:
        # a record error alone, or the game's own end (e.g. a changed seed: a bot game)
        last = out.splitlines()[-1]
        assert status == 1 and last.startswith(b'Error: '), out
        assert out.count(b'\n') == 1 or not last.startswith(b'Error: %s: ' % str(bad).encode())


def test_one_person_against_a_bot_sees_their_seat_when_recorded_and_resumed(tmp_path):
    argv = [example('crazy_eights'), '--seat', '2=random', '--players', '2', '--seed', '3',
            '--numbered']
    status, shown, path = recorded(tmp_path, argv, b'Ann\n' + b'1\n' * 400)
    assert status == 0 and b'Ben is choosing.\n' in shown and b'Ann: You drew ' in shown
    assert b'\nBen: ' not in shown
    # `pipvm replay` without --seat shows everything; a resumed game, the person's view
    everything = run_cli(['replay', str(path)])[1]
    assert b'Ben: Choose an action:' in everything and b'Ben is choosing.' not in everything
    part = tmp_path / 'cut.json'
    cut(path, part, 20)
    status, again = resumed(part, b'1\n' * 400)
    assert status == 0 and b'Ben is choosing.\n' in again and b'\nBen: ' not in again
    assert part.read_bytes() == path.read_bytes()
