"""`pipvm serve --lobby`: tables started, joined by name, watched and
rematched; kept in SQLite so that a server killed mid-game (kill -9)
brings every table back on the same links; only hashes of the tokens."""
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from starlette.testclient import TestClient

from pipvm.web.lobby import Lobby
from pipvm.web.lobby_app import make_lobby_app

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')
EUCHRE = os.path.join(ROOT, 'examples', 'euchre.pip')


def answer(client, link, rng):
    """Answer the seat's decision at random, if it has one; whether it did."""
    d = client.get(link + 'state').json()['decision']
    if d is None:
        return False
    assert d['kind'] != 'name'                 # the lobby names the seats itself
    r = client.post(link + 'answer', json={'decision': d['id'],
                                            'choice': rng.randrange(len(d['options']))})
    assert r.status_code == 200
    return True


def test_the_lobby_lists_who_watches_by_name(tmp_path):
    lobby = Lobby([HIGH_CARD], str(tmp_path / 'lobby.sqlite'))
    with TestClient(make_lobby_app(lobby)) as client:
        tab = client.post('/lobby/new', json={'game': 0, 'players': 2}).json()['table']
        watch = client.get('/lobby/state').json()['tables'][0]['watch']

        def listed():
            t = client.get('/lobby/state').json()['tables'][0]
            return t['watchers'], t['spectators']
        assert listed() == (0, [])
        with client.websocket_connect(watch + 'live?name=%20Zoe%20') as zoe, \
                client.websocket_connect(watch + 'live?name=Ann') as ann, \
                client.websocket_connect(watch + 'live?name=Ann') as ann_again, \
                client.websocket_connect(watch + 'live') as nobody, \
                client.websocket_connect(watch + 'live?name=' + 'x' * 41) as too_long:
            for ws in (zoe, ann, ann_again, nobody, too_long):
                ws.receive_json()
            # a name is checked as a player's is; one refused is an unnamed spectator
            assert listed() == (5, ['Ann', 'Zoe'])
        assert listed() == (0, [])
        # a player's channel is not a spectator's, whatever it says
        ada = client.post('/lobby/join', json={'table': tab, 'name': 'Ada'}).json()['link']
        with client.websocket_connect(ada + 'live?name=Mallory') as ws:
            ws.receive_json()
            assert listed() == (0, [])


def test_start_join_watch_play_and_rematch(tmp_path):
    lobby = Lobby([HIGH_CARD, EUCHRE], str(tmp_path / 'lobby.sqlite'))
    with TestClient(make_lobby_app(lobby)) as client:
        assert client.get('/', follow_redirects=False).headers['location'] == '/lobby/'
        assert 'lobby.js' in client.get('/lobby/').text
        games = client.get('/lobby/state').json()['games']
        assert [(g['name'], g['players']) for g in games] == [
            ('High Card', [2, 3, 4]), ('Euchre', [4])]
        assert client.post('/lobby/new', json={'game': 1, 'players': 2}).status_code == 400
        tab = client.post('/lobby/new', json={'game': 0, 'players': 2}).json()['table']
        for bad in ({'table': tab, 'name': '   '}, {'table': tab, 'name': 7}, {'table': tab}):
            assert client.post('/lobby/join', json=bad).status_code == 400
        ada = client.post('/lobby/join', json={'table': tab, 'name': ' Ada '}).json()['link']
        # Ada's browser gets her seat back; another (no seat cookie) is refused
        assert client.post('/lobby/join', json={'table': tab, 'name': 'Ada'}).json() == {'link': ada}
        client.cookies.clear()
        assert client.post('/lobby/join', json={'table': tab, 'name': 'Ada'}).status_code == 409
        listed = client.get('/lobby/state').json()['tables'][0]
        assert listed['open'] and listed['names'] == ['Ada', None]
        ben = client.post('/lobby/join', json={'table': tab, 'name': 'Ben'}).json()['link']
        assert client.post('/lobby/join', json={'table': tab, 'name': 'Cy'}).status_code == 409
        view = client.get(ada + 'state').json()
        assert [p['name'] for p in view['players']] == ['Ada', 'Ben'] and view['lobby']
        watch = client.get('/lobby/state').json()['tables'][0]['watch']
        with client.websocket_connect(watch + 'live') as ws:
            assert ws.receive_json()['view']['seat'] is None
            assert client.get('/lobby/state').json()['tables'][0]['watchers'] == 1
        assert client.post(ada + 'rematch', json={}).status_code == 409     # not over yet
        rng = random.Random(1)
        while client.get(ada + 'state').json()['ending'] is None:
            answer(client, ada, rng) or answer(client, ben, rng)
        again = client.post(ada + 'rematch', json={}).json()['link']
        assert again != ada
        assert client.post(watch + 'rematch', json={}).status_code == 409
        view = client.get(again + 'state').json()
        assert view['ending'] is None and [p['name'] for p in view['players']] == ['Ada', 'Ben']
        ben2 = client.post(ben + 'rematch', json={}).json()['link']
        assert client.get(ben2 + 'state').json()['seat'] == 1
        assert len(client.get('/lobby/state').json()['tables']) == 2
        for r in (client.get('/lobby/nope'), client.post('/lobby/state'),
                  client.post('/lobby/new', content=b'{', headers={'content-type': 'application/json'})):
            assert r.status_code in (400, 404, 405) and list(r.json()) == ['error']
    db = sqlite3.connect(str(tmp_path / 'lobby.sqlite'))
    assert db.execute('PRAGMA journal_mode').fetchone()[0] == 'wal'
    stored = ' '.join(h for (h,) in db.execute('SELECT token_hash FROM seats') if h)
    for link in (ada, ben, again, ben2):
        assert link.split('/')[2] not in stored                # hashes only


def call(url, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data, {'Content-Type': 'application/json'})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def start(db, port=0):
    proc = subprocess.Popen([sys.executable, '-m', 'pipvm', 'serve', '--lobby', HIGH_CARD, EUCHRE,
                             '--db', db, '--port', str(port)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    assert line.startswith('lobby: http://127.0.0.1:'), proc.stderr.read()
    return proc, line.split()[1].rsplit('/lobby/', 1)[0]


def test_a_lobby_killed_mid_game_comes_back_on_the_same_links(tmp_path):
    db = str(tmp_path / 'lobby.sqlite')
    proc, base = start(db)
    try:
        links, views = [], {}
        for game, players in ((0, 2), (0, 3), (1, 4)):
            tab = call(base + '/lobby/new', {'game': game, 'players': players})['table']
            links += [base + call(base + '/lobby/join', {'table': tab, 'name': 'P%d' % n})['link']
                      for n in range(players)]
        rng = random.Random(2)
        for _ in range(25):
            for link in links:
                d = call(link + 'state')['decision']
                if d is not None:
                    call(link + 'answer', {'decision': d['id'],
                                           'choice': rng.randrange(len(d['options']))})
        views = {link: call(link + 'state') for link in links}
        watch = base + call(base + '/lobby/state')['tables'][0]['watch']
        watched = call(watch + 'state')
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()
    port = int(base.rsplit(':', 1)[1])
    time.sleep(0.2)
    proc, again = start(db, port)
    try:
        assert again == base
        for link, view in views.items():
            assert call(link + 'state') == view
        assert call(watch + 'state') == watched
        with pytest.raises(urllib.error.HTTPError) as e:
            call(base + '/play/%s/state' % ('x' * 24))
        assert e.value.code == 404
    finally:
        proc.kill()
        proc.wait(10)
        proc.stdout.close()
        proc.stderr.close()


def test_a_refused_name_or_number_creates_no_table(tmp_path):
    """Starting a table with a name seats that person at once, or creates
    nothing: a name the game cannot print leaves no empty table behind,
    after a restart either."""
    db = str(tmp_path / 'lobby.sqlite')
    lobby = Lobby([HIGH_CARD], db)
    with TestClient(make_lobby_app(lobby)) as client:
        for body, reason in (({'game': 0, 'players': 2, 'name': '\u041e\u043b\u0435\u0433'}, 'Latin-1'),
                             ({'game': 0, 'players': 2, 'name': 5}, '"name" must be a string'),
                             ({'game': 0, 'players': 9, 'name': 'Ada'}, 'High Card is for')):
            r = client.post('/lobby/new', json=body)
            assert r.status_code == 400 and reason in r.json()['error']
        assert client.get('/lobby/state').json()['tables'] == []
        r = client.post('/lobby/new', json={'game': 0, 'players': 2, 'name': ' Ada '})
        made = r.json()
        assert set(made) == {'table', 'link'}
        assert client.get(made['link'] + 'state').json()['seat'] == 0
    assert [t['names'] for t in Lobby([HIGH_CARD], db).state()['tables']] == [['Ada', None]]


def test_joining_names_the_field_at_fault_and_an_unknown_table_is_404(tmp_path):
    lobby = Lobby([HIGH_CARD], str(tmp_path / 'lobby.sqlite'))
    with TestClient(make_lobby_app(lobby)) as client:
        tab = client.post('/lobby/new', json={'game': 0, 'players': 2}).json()['table']
        r = client.post('/lobby/join', json={'table': tab, 'name': 5})
        assert r.status_code == 400 and r.json() == {'error': '"name" must be a string'}
        r = client.post('/lobby/join', json={'table': 'x', 'name': 'Ada'})
        assert r.status_code == 404 and r.json() == {'error': 'no such table'}
        r = client.post('/lobby/join', json={'table': 5, 'name': 'Ada'})
        assert r.status_code == 400 and r.json() == {'error': '"table" must be a string'}


def test_a_player_takes_their_seat_back_and_nobody_else_can(tmp_path):
    """The seat cookie: Ada's browser, joining again under her name, gets
    her seat back on its link (the table full and playing); Mallory, typing
    'Ada' in another browser, is refused; so is Ben's browser."""
    db = str(tmp_path / 'lobby.sqlite')
    lobby = Lobby([HIGH_CARD], db)
    app = make_lobby_app(lobby)
    with TestClient(app) as ada, TestClient(app) as ben, TestClient(app) as mallory:
        made = ada.post('/lobby/new', json={'game': 0, 'players': 2, 'name': 'Ada'}).json()
        tab, link = made['table'], made['link']
        assert ben.post('/lobby/join', json={'table': tab, 'name': 'Ben'}).status_code == 200
        # the seat each browser holds, as the lobby shows it
        assert [t['mine'] for t in ada.get('/lobby/state').json()['tables']] == [0]
        assert [t['mine'] for t in ben.get('/lobby/state').json()['tables']] == [1]
        assert [t['mine'] for t in mallory.get('/lobby/state').json()['tables']] == [None]
        for other in (mallory, ben):
            r = other.post('/lobby/join', json={'table': tab, 'name': 'Ada'})
            assert r.status_code == 409 and 'name' in r.json()['error']
        again = ada.post('/lobby/join', json={'table': tab, 'name': 'Ada'})
        assert again.status_code == 200 and again.json() == {'link': link}
        # a cookie for another table, or a made-up one, proves nothing
        mallory.cookies.set('pip-seat-' + tab, 'x' * 24, path='/lobby/')
        assert mallory.post('/lobby/join', json={'table': tab, 'name': 'Ada'}).status_code == 409
    with TestClient(make_lobby_app(Lobby([HIGH_CARD], db))) as fresh:   # after a restart
        fresh.cookies.set('pip-seat-' + tab, link.split('/')[2], path='/lobby/')
        r = fresh.post('/lobby/join', json={'table': tab, 'name': 'Ada'})
        assert r.json() == {'link': link}
