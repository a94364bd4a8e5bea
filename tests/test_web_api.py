"""The served table's HTTP API (pipvm/web, docs/web.md) through Starlette's
test client: privacy on every example game, authorisation, every malformed
request, bots on the server, and records a crashed server resumes from."""
import collections
import contextlib
import glob
import json
import os
import random
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from starlette.testclient import WebSocketDenialResponse

from pipvm.core.errors import PipError
from pipvm.play import loader
from pipvm.web.patch import apply
from pipvm.web.table import LOG_PAGE, STEPS_KEPT, Table

from .privacy import watch
from .util import CHOICELESS, serving
from .web_util import post, seating, served, served_view

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip')))
HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')
# Seeds whose game with random answers is short: random Crazy Eights can go
# on for thousands of turns, each step here checks every seat's view.
# Seeds whose random game is short: Cheat's seed 1 runs 2,218 answers (six
# minutes of checked frames), seed 12 runs 476 with challenges all the same.
SEEDS = {'crazy_eights.pip': 24, 'cheat.pip': 12}


def players_of(path):
    from pipvm.play import loader
    p = loader.load_program(path)
    return p.counts[0] * (p.team_size or 1)


def random_answer(decision, rng):
    if decision['kind'] == 'name':
        return {'decision': decision['id'], 'text': 'P%d' % (decision['seat'] + 1)}
    return {'decision': decision['id'], 'choice': rng.randrange(len(decision['options']))}


# --- privacy --------------------------------------------------------------------------

def same_view(paged, whole):
    """Whether a served view (its log paged, bots and seats added) is the
    game's view of the seat."""
    rest = {k: v for k, v in paged.items() if k not in ('log', 'log_start', 'bots', 'seats', 'lobby')}
    return (rest == {k: v for k, v in whole.items() if k != 'log'}
            and paged['log'] == whole['log'][paged['log_start']:])


@pytest.mark.parametrize('path', EXAMPLES, ids=os.path.basename)
def test_no_seat_is_sent_a_card_hidden_from_it(path):
    """Played to the end through the API: at every step, each seat's state
    is its view, the live channel's patches keep the page's copy equal to
    it, and neither they nor the page's copy name a card it has not seen
    (tests/privacy.py)."""
    seed = SEEDS.get(os.path.basename(path), 1)
    rng = random.Random(seed)
    with served(path, seating(players_of(path)), seed) as (table, client, urls), \
            contextlib.ExitStack() as open_channels:      # closed on failure too, or it hangs
        witness = watch(table.game)
        channels = {seat: open_channels.enter_context(client.websocket_connect(url + 'live'))
                    for seat, url in urls.items()}
        pages = {}
        steps = 0
        while True:
            game = table.game
            decision = None
            for seat, url in urls.items():
                r = client.get(url + 'state')
                state, live = r.json(), channels[seat].receive_json()
                if 'view' in live:
                    assert seat not in pages
                    pages[seat] = live['view']
                else:
                    assert live['base'] == steps - 1
                    pages[seat] = apply(pages[seat], live['patch'])
                whole = json.loads(json.dumps(served_view(game, seat)))
                assert same_view(state, whole) and same_view(pages[seat], whole)
                assert state['log_start'] == max(0, len(whole['log']) - LOG_PAGE)
                assert int(r.headers['Pip-Version']) == live['version'] == steps
                for sent in (state, live, pages[seat]):
                    hidden = witness.unseen(seat, sent)
                    assert not hidden, (seat, hidden)
                decision = decision or state['decision']
            if decision is None:
                break
            # the answer's reply: a patch from the view answered from (Pip-Base) to the next
            seat = decision['seat']
            r = client.post(urls[seat] + 'answer', json=random_answer(decision, rng),
                            headers={'Pip-Base': str(steps)})
            reply = r.json()
            assert r.status_code == 200 and reply['base'] == steps
            assert reply['version'] == int(r.headers['Pip-Version']) == steps + 1
            assert not witness.unseen(seat, reply)
            after = apply(json.loads(json.dumps(pages[seat])), reply['patch'])
            assert same_view(after, json.loads(json.dumps(served_view(game, seat))))
            steps += 1
        open_channels.close()
        # the program's own end: a winner, a loser (durak.pip: its fool), or none
        # (golf.pip: a patience random play does not solve)
        assert game.ending.kind in ('winner', 'loser', 'no winner')
        assert steps > 3 or os.path.basename(path) in CHOICELESS  # Blackjack may end after four


@pytest.mark.parametrize('name,players,seed', [
    ('euchre.pip', 4, 2), ('crazy_eights.pip', 2, 24), ('go_fish.pip', 3, 1)])
def test_a_channel_any_number_of_steps_behind_is_patched_to_its_view(name, players, seed):
    """A live message is built from the steps' common patches and the seat's
    own parts (hand, decision, the events it is told): a channel that takes
    one after 1 to STEPS_KEPT + 2 answers (the spectators' too) still builds
    exactly its seat's view, is sent the whole view when it fell too far
    behind, and is never told a card it has not seen."""
    channels_behind(name, players, seed)


def test_a_hand_is_put_back_when_the_common_patch_sets_its_player_whole(monkeypatch):
    """The common patch may set a whole player, or the list of them (patch.diff
    does when most of a list changed): the seat's hand, which the common
    part lacks, is put in again.  Here every changed part is set whole."""
    def coarse(old, new, path=''):
        if path:
            return [] if old == new else [{'op': 'replace', 'path': path, 'value': new}]
        return [{'op': 'replace', 'path': '/' + k, 'value': v}
                for k, v in new.items() if old.get(k) != v]
    monkeypatch.setattr('pipvm.web.table.diff', coarse)
    channels_behind('crazy_eights.pip', 2, 24, answers=150)


def channels_behind(name, players, seed, answers=None):
    """Play the game (up to that many answers) as the test above says."""
    path = os.path.join(ROOT, 'examples', name)
    table = Table(loader.load_program(path), seating(players), seed, path=path)
    witness = watch(table.game)
    rng = random.Random(seed)
    seats = [*range(table.seats), None]
    sent, pages = dict.fromkeys(seats), {}
    due = dict.fromkeys(seats, 0)          # the version at which each takes its next message
    kinds = collections.Counter()
    while True:
        over = table.game.decision is None
        for seat in seats:
            if table.version < due[seat] and not over:
                continue
            message, sent[seat] = table.frame(seat, sent[seat])
            live = json.loads(message)
            if 'view' in live:
                kinds['whole' if seat in pages else 'first'] += 1
                pages[seat] = live['view']
            else:
                kinds['behind' if live['base'] < live['version'] - 1 else 'next'] += 1
                pages[seat] = apply(pages[seat], live['patch'])
            assert same_view(pages[seat], json.loads(json.dumps(served_view(table.game, seat))))
            hidden = witness.unseen(seat, live)
            assert not hidden, (seat, hidden)
            due[seat] = table.version + rng.choice([1, 1, 1, 2, 3, 7, STEPS_KEPT, STEPS_KEPT + 2])
        if over:
            break
        if table.version == answers:
            return
        d = table.game.decision
        table.answer(d.seat, json.dumps(random_answer(d.to_json(), rng)).encode())
    assert table.game.ending.kind == 'winner'
    assert kinds['first'] == len(seats) and min(kinds.values()) > 0, kinds


def test_a_message_to_one_seat_reaches_no_other(tmp_path):
    source = tmp_path / 'secret.pip'
    source.write_text('Game "Secret" requires 2 players.\n'
                      'Action main {\n'
                      '  message players->first "for your eyes: Queen of Spades".\n'
                      '  winner players->first.\n}\n')
    with served(str(source), seating(2)) as (table, client, urls):
        for seat in (0, 1):
            post(client, urls[seat], {'decision': seat, 'text': 'P%d' % seat})
        texts = {seat: client.get(url + 'state').text for seat, url in urls.items()}
    assert 'Queen of Spades' in texts[0]
    assert 'Queen of Spades' not in texts[1] and 'Queen of Spades' not in texts[None]


# --- authorisation -------------------------------------------------------------------

@pytest.mark.parametrize('game,players', [('german_whist', 2), ('euchre', 4), ('high_card', None)])
def test_a_game_for_one_number_of_players_does_not_ask_how_many(game, players, tmp_path):
    """Seat 1 is asked how many play only when the game allows a choice
    (High Card: 2 to 4); the record keeps the number, so it replays."""
    path = os.path.join(ROOT, 'examples', game + '.pip')
    record = str(tmp_path / 'game.json')
    with served(path, seed=2, record_path=record) as (table, client, urls):
        d = client.get(urls[0] + 'state').json()['decision']
        if players is None:
            assert d['options'] == ['2', '3', '4'] and len(urls) == 5
            return
        assert d['kind'] == 'name' and len(urls) == players + 1
        assert post(client, urls[0], {'decision': d['id'], 'text': 'Kay'}).status_code == 200
    assert json.loads(open(record).read())['players'] == players
    resumed = Table.resume(record).game
    assert resumed.names[0] == 'Kay' and resumed.decision.kind == 'name' and resumed.decision.seat != 0


def test_a_table_refuses_a_seat_a_count_seat_1_may_answer_leaves_out(tmp_path):
    """A served table's seat 1 may answer any count the game allows: the
    table itself (serve's, a lobby's) refuses a --seat that fewer players
    leave out; a record's table, resumed, was seated when it began (here
    at the terminal, which offered seat 1 only the counts that seat 4)."""
    nap = os.path.join(ROOT, 'examples', 'nap.pip')
    with pytest.raises(PipError, match='--seat 4: fewer players would leave it out'):
        Table(loader.load_program(nap), seating(s4='random'), 1)
    record = str(tmp_path / 'nap.json')
    subprocess.run([sys.executable, '-m', 'pipvm', 'run', '--seed', '1', '--record', record,
                    '--seat', '4=random', nap], input='4\nA\nB\nC\n', text=True,
                   capture_output=True, cwd=ROOT)
    resumed = Table.resume(record).game
    assert resumed.names == {0: 'A', 1: 'B', 2: 'C', 3: 'Dev'} and resumed.decision.seat == 1


def test_a_bad_token_gets_404():
    with served(HIGH_CARD, seating(2)) as (table, client, urls):
        for url in ('/play/nope/', '/play/nope/state', '/play/%s/state' % ('x' * 24)):
            r = client.get(url)
            assert r.status_code == 404 and r.json() == {'error': 'no such seat'}
        assert post(client, '/play/nope/', {'decision': 0, 'text': 'Al'}).status_code == 404
        # the live channel too: refused before it opens, with the same JSON 404
        for url, reason in (('/play/nope/live', 'no such seat'), ('/nowhere', 'no such page')):
            with pytest.raises(WebSocketDenialResponse) as refused:
                with client.websocket_connect(url) as ws:
                    ws.receive_json()
            r = refused.value
            assert r.status_code == 404 and r.headers['content-type'] == 'application/json'
            assert r.json() == {'error': reason}
        assert table.version == 0


def raw(base, request):
    """The status line, headers and body a real server answers to these bytes."""
    host, port = base.rsplit('/', 1)[1].split(':')
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(request)
        got = b''
        while chunk := s.recv(65536):
            got += chunk
    head, _, body = got.partition(b'\r\n\r\n')
    return head.decode('latin-1').lower(), body


def test_what_the_server_refuses_before_any_route_is_json_too():
    """A request line that is no HTTP, a WebSocket handshake without its key,
    a WebSocket to a bad token: over a real socket, each refusal is JSON."""
    table = Table(loader.load_program(HIGH_CARD), seating(2), 1, path=HIGH_CARD)
    with serving([table]) as base:
        for request, status in (
                (b'GARBAGE\r\n\r\n', 400),
                (b'GET /play/nope/live HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\n'
                 b'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n', 400),
                (b'GET /play/nope/live HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\n'
                 b'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n'
                 b'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n', 404)):
            head, body = raw(base, request)
            assert head.startswith('http/1.1 %d ' % status), head
            assert 'content-type: application/json' in head
            error = json.loads(body)
            assert list(error) == ['error'] and '\n' not in error['error'] and error['error']


def test_answering_a_decision_that_is_not_yours_or_stale_gets_409():
    with served(HIGH_CARD, seating(2)) as (table, client, urls):
        before = client.get(urls[0] + 'state').json()
        for url, body in ((urls[1], {'decision': 0, 'text': 'Mallory'}),     # seat 1's
                          (urls[None], {'decision': 0, 'text': 'Eve'}),      # a spectator
                          (urls[0], {'decision': 1, 'text': 'Al'})):         # not yet
            r = post(client, url, body)
            assert r.status_code == 409 and '\n' not in r.json()['error']
        assert client.get(urls[0] + 'state').json() == before
        assert post(client, urls[0], {'decision': 0, 'text': 'Al'}).status_code == 200
        assert post(client, urls[0], {'decision': 0, 'text': 'Al'}).status_code == 409   # stale
        assert post(client, urls[1], {'decision': 1, 'text': 'Bo'}).status_code == 200
        assert table.game.names == {0: 'Al', 1: 'Bo'}
        assert table.version == 2


MALFORMED = [
    ('not json', b'{"decision": 0,'),
    ('not utf-8', b'{"decision": 0, "text": "\xff"}'),
    ('an array', b'[0, 1]'),
    ('a number', b'0'),
    ('NaN', b'{"decision": NaN, "text": "Al"}'),
    ('no decision', b'{"text": "Al"}'),
    ('no answer', b'{"decision": 0}'),
    ('both', b'{"decision": 0, "text": "Al", "choice": 0}'),
    ('an extra key', b'{"decision": 0, "text": "Al", "x": 1}'),
    ('decision a string', b'{"decision": "0", "text": "Al"}'),
    ('decision true', b'{"decision": true, "text": "Al"}'),
    ('decision negative', b'{"decision": -1, "text": "Al"}'),
    ('decision a float', b'{"decision": 0.0, "text": "Al"}'),
    ('text empty', b'{"decision": 0, "text": ""}'),
    ('text too long', b'{"decision": 0, "text": "%s"}' % (b'a' * 41)),
    ('text a number', b'{"decision": 0, "text": 7}'),
    ('text unprintable', b'{"decision": 0, "text": "A\\nB"}'),
    ('text not latin-1', b'{"decision": 0, "text": "\\u0100da"}'),
    ('choice for a name', b'{"decision": 0, "choice": 0}'),
    ('over 4 KiB', b'{"decision": 0, "text": "Al", "pad": "%s"}' % (b' ' * 4100)),
    ('deeply nested', b'[' * 3000 + b']' * 3000),
]
MALFORMED_CHOICE = [
    ('out of range', {'choice': 5}),
    ('negative', {'choice': -1}),
    ('a bool', {'choice': True}),
    ('a float', {'choice': 1.0}),
    ('a string', {'choice': '1'}),
    ('huge', {'choice': 10 ** 40}),
    ('text for a card', {'text': 'Ace of Spades'}),
]


@pytest.mark.parametrize('body', [b for _, b in MALFORMED], ids=[n for n, _ in MALFORMED])
def test_a_malformed_answer_gets_400_and_changes_nothing(body):
    with served(HIGH_CARD, seating(2)) as (table, client, urls):
        r = client.post(urls[0] + 'answer', content=body,
                        headers={'content-type': 'application/json'})
        assert r.status_code == 400
        reason = r.json()['error']
        assert reason and '\n' not in reason
        assert table.version == 0 and table.game.decision.id == 0


@pytest.mark.parametrize('fields', [f for _, f in MALFORMED_CHOICE],
                         ids=[n for n, _ in MALFORMED_CHOICE])
def test_a_choice_that_fits_no_option_gets_400(fields):
    with served(HIGH_CARD, seating(2)) as (table, client, urls):
        for seat in (0, 1):
            post(client, urls[seat], {'decision': seat, 'text': 'P%d' % seat})
        d = table.game.decision
        assert d.kind == 'card' and len(d.options) == 5
        r = post(client, urls[d.seat], dict(fields, decision=d.id))
        assert r.status_code == 400 and '\n' not in r.json()['error']
        assert table.game.decision is d


def test_a_long_body_sent_in_chunks_is_cut_off_at_4_kib():
    with served(HIGH_CARD, seating(2)) as (table, client, urls):
        r = client.post(urls[0] + 'answer', content=iter([b'{"decision": 0, "text": "'] + [
            b'a' * 1000] * 10 + [b'"}']), headers={'content-type': 'application/json'})
        assert r.status_code == 400 and 'over 4096 bytes' in r.json()['error']
        assert table.version == 0


def test_an_answer_must_be_sent_as_json():
    with served(HIGH_CARD, seating(2)) as (table, client, urls):
        r = client.post(urls[0] + 'answer', data={'decision': '0', 'text': 'Al'})
        assert r.status_code == 400 and 'application/json' in r.json()['error']
        assert table.version == 0


def test_every_error_is_json_with_one_line():
    with served(HIGH_CARD, seating(2)) as (table, client, urls):
        for r, status in ((client.get('/nowhere'), 404), (client.get('/static/none.js'), 404),
                          (client.post(urls[0] + 'state'), 405), (client.get(urls[0] + 'answer'), 405),
                          (client.get(urls[0] + 'log?before=x'), 400),
                          (client.get('/play/nope/log?before=1'), 404)):
            assert r.status_code == status
            assert r.headers['content-type'] == 'application/json'
            assert list(r.json()) == ['error'] and '\n' not in r.json()['error']


@pytest.mark.parametrize('name', ['   ', '', '\u00a0 '])
def test_a_blank_name_is_refused(name):
    with served(HIGH_CARD, seating(2)) as (table, client, urls):
        r = post(client, urls[0], {'decision': 0, 'text': name})
        assert r.status_code == 400 and 'name' in r.json()['error']
        assert table.version == 0


def test_a_name_is_trimmed():
    with served(HIGH_CARD, seating(2)) as (table, client, urls):
        assert post(client, urls[0], {'decision': 0, 'text': '  Ada  '}).status_code == 200
        assert table.game.names[0] == 'Ada'


def test_an_error_says_an_action_decision():
    from pipvm.web.requests import BadRequest, check_against
    from pipvm.game.game import Decision
    d = Decision(3, 0, 'action', 'Choose:', ('Pass',), 'an action')
    with pytest.raises(BadRequest, match='^an action decision takes "choice"$'):
        check_against(d, 0, 3, 'text', 'Al')


def test_the_log_is_paged():
    """A view carries the last LOG_PAGE events; GET log pages back to the first."""
    path = os.path.join(ROOT, 'examples', 'crazy_eights.pip')
    with served(path, seating(2), 24) as (table, client, urls):
        rng = random.Random(3)
        while table.game.ending is None and len(table._logs[0]) < 3 * LOG_PAGE:
            d = table.game.decision
            post(client, urls[d.seat], random_answer(d.to_json(), rng))
        whole = table.game.view(0)['log']
        state = client.get(urls[0] + 'state').json()
        assert len(state['log']) == LOG_PAGE and state['log'] == whole[state['log_start']:]
        log, before = state['log'], state['log_start']
        while before > 0:
            page = client.get(urls[0] + 'log?before=%d' % before).json()
            assert 0 < len(page['log']) <= LOG_PAGE and page['start'] == before - len(page['log'])
            log, before = page['log'] + log, page['start']
        assert log == whole


# --- bots, records, the command -----------------------------------------------------

@pytest.mark.parametrize('kind', ['random', 'mc:2', 'ismcts:8'])
def test_bots_play_on_the_server(kind):
    with served(HIGH_CARD, seating(2, s2=kind)) as (table, client, urls):
        assert set(urls) == {0, None}                  # no link for the bot's seat
        with client.websocket_connect(urls[0] + 'live') as ws:
            view = ws.receive_json()['view']
            while view['ending'] is None:
                d = view['decision']
                if d is not None:
                    assert post(client, urls[0], random_answer(d, random.Random(d['id']))
                                ).status_code == 200
                live = ws.receive_json()
                view = apply(view, live['patch'])
        names = [p['name'] for p in view['players']]
        assert names == ['P1', 'Ben'] and view['ending']['kind'] == 'winner'


def play_to(table, client, urls, stop, rng):
    """Answer the people's decisions at random until `stop` answers (bots'
    too) are given and a person's turn has come: then nothing moves."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        d = table.game.decision
        if d is None and table.game.ending is not None or \
                d is not None and len(table.history) >= stop and d.seat in urls:
            # A request is served on the event loop, after the answer that
            # brought this decision is wholly applied: the bot's answer can
            # show here before the table has reset its cached views.
            client.get(next(iter(urls.values())) + 'state')
            return
        if d is None or d.seat not in urls:    # a bot's (no decision while it moves)
            time.sleep(0.002)
            continue
        assert post(client, urls[d.seat], random_answer(d.to_json(), rng)).status_code == 200
    raise AssertionError('the served game did not reach answer %d' % stop)


def test_a_record_resumes_where_the_server_stopped(tmp_path):
    record = str(tmp_path / 'game.json')
    seats = seating(4, s2='random', s4='first')
    path = os.path.join(ROOT, 'examples', 'euchre.pip')
    with served(path, seats, 5, record_path=record) as (table, client, urls):
        play_to(table, client, urls, 30, random.Random(1))
        cut = table.version
        saved = table.view(0)
    resumed = Table.resume(record)
    assert resumed.view(0) == saved and resumed.version == cut
    with served(path, seats, 5) as (whole, client, urls):
        play_to(whole, client, urls, cut, random.Random(1))
        assert whole.view(0) == saved


def test_a_record_that_does_not_fit_is_one_error_line(tmp_path):
    record = tmp_path / 'game.json'
    with served(HIGH_CARD, seating(2), record_path=str(record)) as (table, client, urls):
        for seat in (0, 1):
            post(client, urls[seat], {'decision': seat, 'text': 'P%d' % seat})
        post(client, urls[0], {'decision': 2, 'choice': 0})
    obj = json.loads(record.read_text())
    assert obj['format'] == 'pipvm record' and len(obj['answers']) == 3
    obj['answers'][2]['seat'] = 2
    record.write_text(json.dumps(obj))
    r = subprocess.run([sys.executable, '-m', 'pipvm', 'serve', '--resume', str(record)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stdout == ''
    assert r.stderr == ('Error: %s: answer 3 does not fit the game: '
                        'the game does not wait for seat 2\n' % record)


def test_a_served_game_replays_at_the_terminal(tmp_path):
    record = tmp_path / 'game.json'
    with served(HIGH_CARD, seating(2, s2='random'), 2, record_path=str(record)) as (
            table, client, urls):
        play_to(table, client, urls, 10 ** 6, random.Random(4))
        log = [e.text for e in table.game.events if e.to in (None, 0)]
    r = subprocess.run([sys.executable, '-m', 'pipvm', 'replay', str(record), '--seat', '1'],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    for text in log:
        assert text in r.stdout


def test_a_served_game_with_a_thinking_bot_replays_and_resumes(tmp_path):
    # The server seeds a thinking bot as `pipvm run` does (from the game's
    # generator before its first draw), so the terminal re-derives its answers.
    record = tmp_path / 'game.json'
    path = os.path.join(ROOT, 'examples', 'euchre.pip')
    seats = seating(4, s2='ismcts:8', s4='random')
    with served(path, seats, 3, record_path=str(record)) as (table, client, urls):
        play_to(table, client, urls, 10 ** 6, random.Random(2))
        log = [e.text for e in table.game.events if e.to in (None, 0)]
        view = table.view(0)
    assert json.loads(record.read_text())['seats'] == {'2': 'ismcts:8', '4': 'random'}
    r = subprocess.run([sys.executable, '-m', 'pipvm', 'replay', str(record), '--seat', '1'],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert [line for line in r.stdout.splitlines() if line in log] == log
    assert Table.resume(str(record)).view(0) == view


def test_serve_without_the_web_extra_says_what_to_install():
    code = ('import sys; sys.modules["starlette"] = None; from pipvm.cli import main; '
            'sys.exit(main(["serve", %r]))' % HIGH_CARD)
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    assert r.stderr == "Error: pipvm serve needs the web extra: pip install 'pipvm[web]'\n"


@contextlib.contextmanager
def serve_command(*args):
    """`pipvm serve ... --port 0` running: ({seat or 'watch': link}, the process)."""
    proc = subprocess.Popen([sys.executable, '-m', 'pipvm', 'serve', *args, '--port', '0',
                             '--bot-pause', '0', '--linger', '1'],  # a last poll is answered
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        links = {}
        for line in proc.stdout:           # `seat N: URL` lines, then `watch: URL`
            if line.startswith('the links given before'):      # --resume: no new ones
                links['base'] = line.split()[7][:-3]
                break
            label, link = line.split()[-2:]
            links['watch' if label == 'watch:' else int(label[:-1]) - 1] = link
            if label == 'watch:':
                break
        assert 'watch' in links or 'base' in links, proc.stderr.read()
        yield links, proc
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        proc.stderr.close()


def call(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {'Content-Type': 'application/json'})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def play_by_http(link, view, rng):
    """Play one seat at random over HTTP until the game ends; the last view."""
    while view['ending'] is None:
        d = view['decision']
        view = call(link + 'state') if d is None else call(link + 'answer', random_answer(d, rng))
        if d is None:
            time.sleep(0.005)
    return view


def test_serve_prints_a_link_per_person_and_plays_to_the_end():
    with serve_command(HIGH_CARD, '--players', '2', '--seat', '2=first') as (links, proc):
        assert set(links) == {0, 'watch'} and links[0] != links['watch']
        assert links[0].startswith('http://127.0.0.1:')
        view = play_by_http(links[0], call(links[0] + 'state'), random.Random(0))
        assert view['ending']['kind'] == 'winner'
        assert proc.wait(timeout=30) == 0
        assert 'Error' not in proc.stderr.read()


def test_serve_resumes_a_record_on_the_old_links(tmp_path):
    """--resume: the links given before work again (only their hashes were
    kept, beside the record); the game goes on and is recorded on."""
    record = tmp_path / 'game.json'
    with served(HIGH_CARD, seating(2, s2='random'), 3, record_path=str(record)) as (
            table, client, urls):
        play_to(table, client, urls, 6, random.Random(2))
        saved, answered = table.view(0), len(table.history)
        tokens = {seat: t for t, seat in table.tokens.items()}
    kept = (tmp_path / 'game.links.json').read_text()
    assert not [t for t in tokens.values() if t in kept]          # hashes only
    with serve_command('--resume', str(record)) as (links, proc):
        assert set(links) == {'base'}
        old = {seat: links['base'] + t + '/' for seat, t in tokens.items()}
        assert call(old[0] + 'state') == saved
        assert call(old[None] + 'state')['seat'] is None
        view = play_by_http(old[0], saved, random.Random(2))
        assert view['ending']['kind'] == 'winner' and proc.wait(timeout=30) == 0
    answers = json.loads(record.read_text())['answers']
    assert len(answers) > answered and answers[-1]['seat'] in (1, 2)
    assert Table.resume(str(record)).view(0) == view


def test_serve_resume_with_new_links(tmp_path):
    record = tmp_path / 'game.json'
    with served(HIGH_CARD, seating(2), 3, record_path=str(record)) as (table, client, urls):
        post(client, urls[0], {'decision': 0, 'text': 'Al'})
        old = next(t for t, seat in table.tokens.items() if seat == 0)
    with serve_command('--resume', str(record), '--new-links') as (links, proc):
        assert set(links) == {0, 1, 'watch'} and old not in links[0]
        assert call(links[0] + 'state')['players'] == []
        with pytest.raises(urllib.error.HTTPError) as e:
            call(links[0].rsplit('/', 2)[0] + '/' + old + '/state')
        assert e.value.code == 404 and json.load(e.value) == {'error': 'no such seat'}


def test_a_broken_links_file_is_one_error_line(tmp_path):
    record = tmp_path / 'game.json'
    with served(HIGH_CARD, seating(2), 3, record_path=str(record)) as (table, client, urls):
        post(client, urls[0], {'decision': 0, 'text': 'Al'})
    (tmp_path / 'game.links.json').write_text('{"format": "pipvm links", "links": {"1": 5}}')
    r = subprocess.run([sys.executable, '-m', 'pipvm', 'serve', '--resume', str(record)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and r.stdout == ''
    assert r.stderr == 'Error: %s: not a pipvm links file\n' % (tmp_path / 'game.links.json')


def test_a_patch_turns_one_view_into_the_next():
    """patch.diff between consecutive views of every seat, applied, gives the
    later view; an unchanged view gives no operation."""
    import copy
    from pipvm.web.patch import diff
    path = os.path.join(ROOT, 'examples', 'three_hearts.pip')
    with served(path, seating(3), 2) as (table, client, urls):
        rng = random.Random(5)
        before = {seat: table.game.view(seat) for seat in urls}
        for _ in range(60):
            d = table.game.decision
            if d is None:
                break
            post(client, urls[d.seat], random_answer(d.to_json(), rng))
            for seat in urls:
                after = table.game.view(seat)
                assert apply(copy.deepcopy(before[seat]), diff(before[seat], after)) == after
                assert diff(after, after) == []
                before[seat] = after
        assert table.version > 20


def test_without_httptools_h11_refuses_a_garbage_request_in_json_too():
    """The web extra brings httptools; a server without it parses with h11,
    and refuses as the other does."""
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from pipvm.web.protocols import _Refusing
    h11 = type('H11Refusing', (_Refusing, H11Protocol), {})
    table = Table(loader.load_program(HIGH_CARD), seating(2), 1, path=HIGH_CARD)
    with serving([table], http=h11) as base:
        head, body = raw(base, b'GARBAGE\r\n\r\n')
        assert head.startswith('http/1.1 400 ') and 'content-type: application/json' in head
        assert json.loads(body) == {'error': 'the request is not HTTP/1.1'}
        head, body = raw(base, b'GET /play/nope/state HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
        assert head.startswith('http/1.1 404 ') and json.loads(body) == {'error': 'no such seat'}


def test_an_answer_replies_with_a_patch_from_the_version_it_names_else_the_view():
    with served(HIGH_CARD, seating(2)) as (table, client, urls):
        held = client.get(urls[0] + 'state').json()
        r = client.post(urls[0] + 'answer', json={'decision': 0, 'text': 'Al'},
                        headers={'Pip-Base': '0'})
        assert r.json()['base'] == 0 and r.json()['version'] == 1
        assert apply(held, r.json()['patch']) == client.get(urls[0] + 'state').json()
        # another base (it holds another view), or none: the whole view
        for headers in ({}, {'Pip-Base': '0'}, {'Pip-Base': 'x'}):
            d = table.game.decision
            seat = d.seat
            r = client.post(urls[seat] + 'answer', headers=headers, json=(
                {'decision': d.id, 'text': 'Bo'} if d.kind == 'name' else {'decision': d.id, 'choice': 0}))
            assert r.status_code == 200 and r.json() == client.get(urls[seat] + 'state').json()


def test_a_large_response_is_compressed():
    path = os.path.join(ROOT, 'examples', 'euchre.pip')
    with served(path, seating(4), 2) as (table, client, urls):
        play_to(table, client, urls, 12, random.Random(1))
        r = client.get(urls[0] + 'state', headers={'accept-encoding': 'gzip'})
        assert r.headers['content-encoding'] == 'gzip' and r.json()['seat'] == 0
