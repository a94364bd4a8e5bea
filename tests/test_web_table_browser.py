"""The table as a card site shows it, in Debian's chromium (Playwright):
every card of a trick stays on the table, side by side, until the trick is
taken; spectators sit at seat 1's side; the end of the game is a result
panel; a player takes their seat back from the lobby; the lobby refuses a
name without leaving a table behind."""
import contextlib
import json
import os
import random
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from pipvm.play import loader
from pipvm.web.lobby import Lobby
from pipvm.web.lobby_app import make_lobby_app
from pipvm.web.table import Table

from .browser import TIMEOUT
from .util import serving
from .web_util import links, seating

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EUCHRE = os.path.join(ROOT, 'examples', 'euchre.pip')
OH_HELL = os.path.join(ROOT, 'examples', 'oh_hell.pip')
HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')
ROLLING_STONE = os.path.join(ROOT, 'examples', 'rolling_stone.pip')
expect.set_options(timeout=TIMEOUT)
SIZES = ((1280, 800), (390, 844))


def new_page(browser, url, size=(1280, 800), live=None):
    """A page at url (live: a handler of its live channel's WebSocket, as
    Playwright's route_web_socket takes it)."""
    page = browser.new_context(viewport={'width': size[0], 'height': size[1]}).new_page()
    page.set_default_timeout(TIMEOUT)
    page.errors = []
    page.on('pageerror', lambda e: page.errors.append(e))
    if live is not None:
        page.route_web_socket('**/live', live)
    page.goto(url)
    return page


def served_table(path, players, seed, pause):
    bots = {'s%d' % n: 'random' for n in range(2, players + 1)}
    table = Table(loader.load_program(path), seating(players, **bots), seed, path=path)
    table.pause = pause
    return table


def boxes(page, selector):
    return page.locator(selector).evaluate_all(
        'cs => cs.map(c => { const r = c.getBoundingClientRect();'
        ' return [c.title, r.left, r.top, r.right, r.bottom]; })')


def overlapping(found):
    return [(a[0], b[0]) for i, a in enumerate(found) for b in found[i + 1:]
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]


SHOWS_TRICK = '''([want, n]) => {
    const cs = [...document.querySelectorAll('#trick.taken .card.played')].map((c) => c.title.split(',')[0]);
    cs.sort();
    return cs.length === n && cs.every((c, i) => c === want[i]);
}'''


def last_trick(table, seat):
    """The cards of the last trick taken, as the seat's log tells them."""
    log = table.game.view(seat)['log']
    taken = max(i for i, e in enumerate(log) if e['text'].endswith('takes the trick.')
                or 'takes the trick (' in e['text'])
    played = [e['card'] for e in log[:taken] if e['kind'] == 'played' and e['card']]
    return played


def caught_up(pages, table):
    """Wait until every page shows the table's version (its view of the
    game as it is now)."""
    for page in pages:
        expect(page.locator('body')).to_have_attribute('data-version', str(table.version))


def rolling_stone():
    """Rolling Stone at four seats, seed 2: its trick holds each new card on top."""
    return Table(loader.load_program(ROLLING_STONE), seating(4), 2, path=ROLLING_STONE)


def answer_at_random(urls, table, rng):
    """Answer the table's decision over HTTP with one of its options (rng's)."""
    d = table.game.decision
    answer_by_http(urls[d.seat], d, rng.randrange(len(d.options or [0])))


def answer_by_http(url, d, choice=0):
    body = {'decision': d.id, ('text' if d.kind == 'name' else 'choice'):
            'P%d' % (d.seat + 1) if d.kind == 'name' else choice}
    req = urllib.request.Request(url + 'answer', json.dumps(body).encode(),
                                 {'Content-Type': 'application/json'})
    urllib.request.urlopen(req, timeout=10).close()


def tricks_taken(table):
    return sum('takes the trick' in e.text for e in table.game.events)


@pytest.mark.parametrize('path, players', [(EUCHRE, 4), (OH_HELL, 5)], ids=['euchre', 'oh_hell_5'])
def test_every_card_of_a_trick_stays_visible_side_by_side(browser, path, players, tmp_path):
    """The last card of a trick is taken in the step it is played: the page
    keeps the whole trick on the table, each card before its seat, none
    over another, at 1280x800 and on a 390x844 phone (the same seat's link
    open in both), until the next card is led; a spectator sees it too,
    from seat 1's side.  Seat 1 plays by clicking, the others over HTTP."""
    table = Table(loader.load_program(path), seating(players), 3, path=path)
    with serving([table]) as base:
        urls = links(base, table)
        pages = [new_page(browser, urls[0], size) for size in SIZES]
        watcher = new_page(browser, urls[None])
        seen = 0
        rng = random.Random(1)
        while seen < 3 and table.game.ending is None:
            d = table.game.decision
            tricks = tricks_taken(table)
            played = table.version
            if d.seat != 0:
                answer_by_http(urls[d.seat], d, rng.randrange(len(d.options or [0])))
            elif d.kind == 'name':
                pages[0].fill('#name', 'Ada')
                pages[0].keyboard.press('Enter')
            else:
                pages[0].locator('#hand button.legal, #options button').first.click()
            while table.version == played:
                pages[0].wait_for_timeout(10)
            if tricks_taken(table) == tricks:
                continue
            trick = sorted(last_trick(table, 0)[-players:])
            for page, size in [(p, s) for p, s in zip(pages, SIZES)] + [(watcher, SIZES[0])]:
                # (a page a step behind may still hold the trick before: wait for this one)
                page.wait_for_function(SHOWS_TRICK, arg=[trick, players])
                found = boxes(page, '#trick .card.played')
                assert sorted(c.split(',')[0] for c, *_ in found) == trick
                assert not overlapping(found), (size, overlapping(found))
                assert all(0 <= left and right <= size[0] for _, left, _, right, _ in found), size
                assert page.evaluate('document.documentElement.scrollWidth') <= size[0]
                if seen == 0:
                    page.screenshot(path=str(tmp_path / ('trick-%d.png' % size[0])), full_page=True)
            seen += 1
        assert seen == 3
        # the spectator's page puts seat 1 at the bottom; at four seats, partners opposite
        expect(watcher.locator('.seat.at-b .name')).to_have_text('Ada')
        if players == 4:
            expect(watcher.locator('.seat.at-t')).to_have_attribute('data-seat', '2')
            expect(pages[0].locator('.seat.at-t')).to_have_attribute('data-seat', '2')
        for page in pages + [watcher]:
            assert page.errors == []


def test_a_trick_s_first_card_stands_before_the_seat_that_led_it(browser):
    """Rolling Stone's table holds a pile beside the trick: a trick's first
    card still stands on its leader's side of the table, at both sizes
    (left or right of the felt's middle; above or below the trick's)."""
    table = rolling_stone()
    with serving([table]) as base:
        urls = links(base, table)
        pages = [new_page(browser, urls[0], size) for size in SIZES]
        rng = random.Random(2)
        sides = set()
        while len(sides) < 3 and table.game.ending is None:
            played = table.version
            answer_at_random(urls, table, rng)
            while table.version == played:
                pages[0].wait_for_timeout(10)
            # each step shown before the next is played (a page many steps
            # behind on a loaded machine draws them all at once)
            caught_up(pages, table)
            trick = next((a for a in table.game.view(0)['areas'] if a['name'] == 'Trick'), None)
            if trick is None or len(trick['cards']) != 1 or trick['by'][0] == 0:
                continue
            at = pages[0].locator('.seat[data-seat="%d"]' % trick['by'][0]).get_attribute('class')
            at = next(c[3:] for c in at.split() if c.startswith('at-'))
            sides.add(at)
            for page, size in zip(pages, SIZES):
                want = '#trick .card.played[title^="%s,"]' % trick['cards'][0]
                page.wait_for_selector(want)
                (_, left, top, right, bottom), = boxes(page, want)
                felt = page.locator('#felt').bounding_box()
                grid = page.locator('#trick').bounding_box()
                x, y = (left + right) / 2, (top + bottom) / 2
                middle_x, middle_y = felt['x'] + felt['width'] / 2, grid['y'] + grid['height'] / 2
                assert {'l': x < middle_x, 'r': x > middle_x,
                        't': y < middle_y and abs(x - middle_x) < 5}[at], (at, size, x, middle_x)
        assert sides == {'l', 't', 'r'}
        for page in pages:
            assert page.errors == []


def test_a_trick_that_puts_each_card_on_top_is_not_taken_at_each_card(browser):
    """Rolling Stone's trick lists its cards newest first: while it grows,
    the page shows it as it is, never as a trick just taken."""
    table = rolling_stone()
    with serving([table]) as base:
        urls = links(base, table)
        page = new_page(browser, urls[0])
        rng = random.Random(2)
        grown = 0
        for _ in range(16):
            answer_at_random(urls, table, rng)
            caught_up([page], table)
            trick = next((a['cards'] for a in table.game.view(0)['areas'] if a['name'] == 'Trick'), [])
            # (a page shows a version whole: read at once)
            held, shown = page.evaluate(
                '() => [document.getElementById("trick").classList.contains("taken"),'
                ' [...document.querySelectorAll("#trick .card.played")].map((c) => c.title.split(",")[0])]')
            if len(trick) > 1:
                grown += 1
                assert not (held and sorted(shown) == sorted(trick)), trick
        assert grown >= 4


def test_a_page_told_of_a_trick_and_the_next_at_once_names_no_wrong_taker(browser):
    """Rolling Stone, seed 2: in step 16 everyone follows (no one takes the
    trick); in step 17 P4 cannot follow and picks up the next, one card.  A
    page that misses both live patches is told of them at once: it holds
    the trick just finished, and does not name P4, who picked up the next,
    as its taker."""
    table = rolling_stone()
    with serving([table]) as base:
        urls = links(base, table)
        dropping, dropped = [], []

        def live(ws):
            server = ws.connect_to_server()
            server.on_message(lambda m: dropped.append(m) if dropping else ws.send(m))
        page = new_page(browser, urls[0], live=live)
        rng = random.Random(2)
        for step in range(1, 19):
            if step == 16:
                dropping.append(True)
            if step == 18:          # its patch is from a view the page missed: it fetches the whole
                while len(dropped) < 2:     # (the route sees a message in a call to Playwright)
                    page.wait_for_timeout(10)
                dropping.clear()
            answer_at_random(urls, table, rng)
            if step < 16:
                caught_up([page], table)
        assert any(e.text == 'P4 cannot follow Diamonds and picks up the trick (1 in it).'
                   for e in table.game.events)
        caught_up([page], table)
        # (read at once while it is held: the hold ends after a moment)
        taker = page.wait_for_function(
            '() => document.querySelectorAll("#trick.taken .card.played").length === 4'
            ' && [(document.querySelector("#trick .taker") || {}).textContent || null]').json_value()
        assert taker == [None]
        expect(page.locator('#trick .card.played[title^="Eight of Hearts,"]')).to_be_visible()
        assert page.errors == []


def test_trump_and_the_card_turned_up_are_on_the_table_and_the_hand_is_not_in_the_log(browser):
    table = Table(loader.load_program(EUCHRE), seating(4), 3, path=EUCHRE)
    with serving([table]) as base:
        urls = links(base, table)
        page = new_page(browser, urls[0])

        def play_until(done):
            while not done():
                d = table.game.decision
                played = table.version
                answer_by_http(urls[d.seat], d)
                while table.version == played:
                    page.wait_for_timeout(10)
        play_until(lambda: table.game.decision.kind != 'name')
        expect(page.locator('#hand .card')).to_have_count(5)
        up = next(e.text for e in table.game.events if 'turns up' in e.text).split('turns up ')[1][:-1]
        expect(page.locator('#info .up .card')).to_have_attribute('title', up)
        # on to Ada's second card: the game has printed her hand to her twice
        play_until(lambda: sum(e.text.endswith(': Your hand:') for e in table.game.events) >= 2
                   and table.game.decision.seat == 0)
        trump = next(e.text for e in table.game.events if e.text.startswith('Trump is'))[9:-1]
        expect(page.locator('#info .trump')).to_contain_text(trump)
        expect(page.locator('#hand button.legal').first).to_be_visible()
        log = page.locator('#log').inner_text()
        assert 'Trump is' in log
        assert 'Your hand' not in log
        for c in page.locator('#hand .card').evaluate_all('cs => cs.map(c => c.title)'):
            assert ':   ' + c not in log
        assert page.errors == []


def test_the_end_of_a_game_is_a_result_panel(browser):
    table = served_table(HIGH_CARD, 3, 2, 0.0)
    with serving([table]) as base:
        page = new_page(browser, links(base, table)[0])
        page.fill('#name', 'Ada')
        page.keyboard.press('Enter')
        while table.game.ending is None:
            button = page.locator('#hand button.legal')
            if table.game.decision and table.game.decision.seat == 0 and button.count():
                button.first.click()
            page.wait_for_timeout(20)
        winner = table.game.ending.winner
        result = page.locator('#result')
        expect(result).to_be_visible()
        expect(page.locator('#result-title')).to_contain_text(winner + ' wins.')
        rows = result.locator('tbody tr')
        expect(rows).to_have_count(3)
        expect(rows.first).to_have_class('winner' if winner != 'Ada' else 'mine winner')
        expect(rows.first.locator('th')).to_have_text(winner)
        view = table.game.view(0)
        shown = {r.locator('th').inner_text(): r.locator('td').nth(1).inner_text()
                 for r in rows.all()}
        assert shown == {p['name']: str(p['score']) for p in view['players']}
        expect(page.locator('#link')).to_have_text('game over \u00b7 connected')
        expect(page.locator('#rematch')).to_be_hidden()        # not a lobby's table
        page.click('#see-table')
        expect(result).to_be_hidden()
        assert page.errors == []


@contextlib.contextmanager
def lobby_server(tmp_path, games=(HIGH_CARD,)):
    lobby = Lobby(list(games), str(tmp_path / 'lobby.sqlite'))
    with serving(app=make_lobby_app(lobby)) as base:
        yield lobby, base


def post_from(page, path, body):
    return page.evaluate('''async ([path, body]) => {
        const r = await fetch(path, {method: 'POST', headers: {'Content-Type': 'application/json'},
                                     body: JSON.stringify(body)});
        return [r.status, await r.json()]; }''', [path, body])


def test_the_lobby_refuses_a_name_without_leaving_a_table(browser, tmp_path):
    with lobby_server(tmp_path) as (lobby, base):
        page = new_page(browser, base + '/lobby/')
        page.fill('#name', '\u041e\u043b\u0435\u0433')
        page.click('text=New table for 2')
        expect(page.locator('#problem')).to_contain_text('Latin-1')
        page.wait_for_timeout(3500)                     # the list refreshed
        expect(page.locator('#tables li')).to_have_text(['No tables yet: start one.'])
        assert lobby.tables == {}
        assert post_from(page, '/lobby/join', {'table': 'x', 'name': 5}) == [
            400, {'error': '"name" must be a string'}]
        assert post_from(page, '/lobby/join', {'table': 'nope', 'name': 'Ada'}) == [
            404, {'error': 'no such table'}]
        page.fill('#name', 'Ada')
        page.click('text=New table for 2')
        page.wait_for_url('**/play/**')
        assert len(lobby.tables) == 1
        assert page.errors == []


def test_a_player_takes_their_seat_back_and_plays_on_to_a_rematch(browser, tmp_path):
    """Ada closes her tab mid-game; from the lobby in the same browser she
    is back at her seat, on the same link; Mallory, typing 'Ada' in another
    browser, is refused.  At the end the result panel offers a rematch."""
    with lobby_server(tmp_path) as (lobby, base):
        ada = new_page(browser, base + '/lobby/')
        ada.fill('#name', 'Ada')
        ada.click('text=New table for 2')
        ada.wait_for_url('**/play/**')
        link = ada.url
        ben = new_page(browser, base + '/lobby/')
        ben.fill('#name', 'Ben')
        ben.click('#tables button.join')
        ben.wait_for_url('**/play/**')
        expect(ada.locator('.seat .name')).to_have_count(2)
        context = ada.context
        ada.close()                                     # the tab is gone; the browser is not
        ada = context.new_page()
        ada.set_default_timeout(TIMEOUT)
        ada.errors = []
        ada.on('pageerror', lambda e: ada.errors.append(e))
        ada.goto(base + '/lobby/')
        back = ada.locator('#tables button.rejoin')
        expect(back).to_have_text('Back to your seat (Ada)')
        back.click()
        ada.wait_for_url(link)
        expect(ada.locator('.seat.me .name')).to_have_text('Ada')
        mallory = new_page(browser, base + '/lobby/')
        expect(mallory.locator('#tables li')).to_contain_text('playing')
        expect(mallory.locator('#tables button.rejoin')).to_have_count(0)
        (table,) = lobby.tables.values()
        tab = next(iter(lobby.tables))
        status, reply = post_from(mallory, '/lobby/join', {'table': tab, 'name': 'Ada'})
        assert status == 409 and 'name' in reply['error']
        seats = {0: link, 1: ben.url}
        while table.game.ending is None:                # both play on, by the API
            d = table.game.decision
            played = table.version
            answer_by_http(seats[d.seat], d)
            while table.version == played:
                time.sleep(0.005)
        for page in (ada, ben):
            expect(page.locator('#result')).to_be_visible()
            expect(page.locator('#back-to-lobby')).to_be_visible()
        ada.click('#rematch')
        ada.wait_for_url(lambda url: url != link and '/play/' in url)
        expect(ada.locator('.seat.me .name')).to_have_text('Ada')
        expect(ada.locator('#result')).to_be_hidden()
        assert ada.errors == [] and ben.errors == [] and mallory.errors == []


MOVES = '''Game "Moves" requires 1 players.
Deck deck = standard.
Area stacks[3] labeled "Stack" is faceup, spreadout.
Area hidden labeled "Hidden" is facedown, spreadout.

Action place_of(Card c) gives Area {
  for s in stacks {
    if c in s->cards { give s. }
  }
  give hidden.
}

Action main {
  let me be players->first.
  for s in stacks { deal 2 from deck to s. }
  deal 2 from deck to hidden.
  forever {
    let cs be [hidden->cards].
    for s in stacks { cs = [cs; s->cards]. }
    ask me {
      for c in cs "Move {c}" {
        let from be place_of(c).
        ask me {
          for s in stacks "{c} onto {s}" if not (c in s->cards) {
            deal c from from to s.
            message "{c} goes onto {s}.".
          }
        }
      }
      "Stop" { winner me. }
    }
  }
}
'''.replace('from be', 'src be').replace('from from', 'from src')


def test_a_move_is_its_card_then_where_it_goes(browser, tmp_path):
    """An ask whose options come from a list of cards, then one from a list
    of areas: the player clicks the card on the table, then the area; a
    hidden card is never clickable (its option is only a button)."""
    path = str(tmp_path / 'moves.pip')
    with open(path, 'w') as f:
        f.write(MOVES)
    table = served_table(path, 1, 1, 0.0)
    with serving([table]) as base:
        page = new_page(browser, links(base, table)[0])
        page.fill('#name', 'Ada')
        page.keyboard.press('Enter')
        expect(page.locator('#areas .card.target')).to_have_count(6)
        targets = table.game.view(0)['decision']['targets']
        hidden = [c for c in table.game.machine.globals[2].cards]
        assert targets[:2] == [None, None] and len(hidden) == 2    # the hidden cards: no target
        assert not any(str(c) in json.dumps(targets) for c in hidden)
        page.click('#areas .card.target[title="Two of Clubs"]')
        expect(page.locator('#areas .area.target')).to_have_count(2)
        expect(page.locator('#areas .card.target')).to_have_count(0)
        page.click('#areas .area.target:has(h2:text-is("Stack 3"))')
        expect(page.locator('#log')).to_contain_text('Two of Clubs goes onto Stack 3.')
        stack3 = next(a for a in table.game.view(0)['areas'] if a['name'] == 'Stack 3')
        assert stack3['cards'][0] == 'Two of Clubs'
        assert page.errors == []
