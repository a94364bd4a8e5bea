"""The served table's page in a real headless browser: Debian's chromium
driven by Playwright (.ci/run installs both; nothing here skips).  Two
people play High Card by clicking, each seeing only their own hand; program
text shows as text; a reload restores the game; the keyboard plays."""
import contextlib
import os

from playwright.sync_api import expect

from pipvm.play import loader
from pipvm.web.table import Table

from .browser import TIMEOUT
from .util import serving
from .web_util import links, seating

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')
expect.set_options(timeout=TIMEOUT)     # (expect's own default, 5 s, fails on a loaded machine)


def table_of(path, seats, seed=1):
    return Table(loader.load_program(path), seats, seed, path=path)


def open_page(browser, url):
    page = browser.new_context(viewport={'width': 1100, 'height': 760}).new_page()
    page.set_default_timeout(TIMEOUT)
    errors = []
    page.on('pageerror', lambda e: errors.append(e))
    page.goto(url)
    page.errors = errors
    return page


@contextlib.contextmanager
def named_page(browser, path, seats, name, seed=1):
    """(table, page) of a served table, bots answering at once, whose seat 1
    has typed its name in a browser page."""
    table = table_of(path, seats, seed)
    table.pause = 0.0
    with serving([table]) as base:
        page = open_page(browser, links(base, table)[0])
        page.fill('#name', name)
        page.keyboard.press('Enter')
        yield table, page


def hand_on_page(page):
    return page.locator('#hand .card').evaluate_all('cs => cs.map(c => c.title)')


def test_two_people_play_high_card_by_clicking(browser, tmp_path):
    table = table_of(HIGH_CARD, seating(2))
    with serving([table]) as base:
        urls = links(base, table)
        pages = {seat: open_page(browser, urls[seat]) for seat in (0, 1)}
        for seat, name in ((0, 'Ada'), (1, 'Bob')):
            page = pages[seat]
            expect(page.locator('#prompt')).to_have_text('Enter a name for Player %d:' % (seat + 1))
            page.fill('#name', name)
            page.click('#name-form button')
            # answered (the loop below reads the table's next decision)
            expect(page.locator('#name-form')).to_be_hidden()
        shots = 0
        while table.game.ending is None:
            d = table.game.decision
            page = pages[d.seat]
            button = page.locator('#hand button.legal').first
            expect(button).to_be_enabled()
            if shots < 2 and d.kind == 'card':
                # Each seat's page, as it looks: its own hand, never the other's.
                hands = {p.seat: [str(c) for c in p.hand] for p in table.game.players}
                for seat, other in ((0, 1), (1, 0)):
                    expect(pages[seat].locator('#hand .card')).to_have_count(len(hands[seat]))
                    pages[seat].screenshot(path=str(tmp_path / ('seat%d.png' % (seat + 1))))
                    assert hand_on_page(pages[seat]) == hands[seat]
                    html = pages[seat].content()
                    assert not [c for c in hands[other] if c in html]
                    assert os.path.getsize(tmp_path / ('seat%d.png' % (seat + 1))) > 10_000
                shots = 2
            played = table.version
            button.click()
            waited = 0
            while table.version == played:
                assert waited < TIMEOUT, 'the click was not answered'
                page.wait_for_timeout(10)
                waited += 10
        winner = table.game.ending.winner
        pages[None] = open_page(browser, urls[None])          # a spectator: no hand
        expect(pages[None].locator('#turn')).to_contain_text('(watching)')
        expect(pages[None].locator('#you')).to_be_hidden()
        assert pages[None].locator('#hand .card').count() == 0
        for page in pages.values():
            expect(page.locator('#turn')).to_contain_text('The game was won by ' + winner)
            assert page.errors == []
        assert shots == 2


XSS = '''Game "X<b>ss</b>" requires 2 players.
Action main {
  message "<script>window.pwned = 1</script><img src=x onerror=window.pwned=2>".
  ask players->first {
    "<i>Choose</i> me" if True { winner players->first. }
  }
}
'''


def test_program_text_shows_as_text(browser, tmp_path):
    source = tmp_path / 'xss.pip'
    source.write_text(XSS)
    table = table_of(str(source), seating(2, s2='first'))
    with serving([table]) as base:
        page = open_page(browser, links(base, table)[0])
        page.fill('#name', '<b>Al</b>')
        page.keyboard.press('Enter')
        button = page.locator('#options button')
        expect(button).to_have_text('<i>Choose</i> me1')
        expect(page.locator('#log')).to_contain_text(
            '<script>window.pwned = 1</script><img src=x onerror=window.pwned=2>')
        expect(page.locator('#game')).to_have_text('X<b>ss</b>')
        assert page.locator('#log script, #log img, #options i, #game b, #players b').count() == 0
        assert page.evaluate('window.pwned') is None
        assert page.errors == []


def test_a_reload_restores_the_game_and_the_keyboard_plays(browser):
    table = table_of(HIGH_CARD, seating(2, s2='random'), seed=4)
    table.pause = 0.0
    with serving([table]) as base:
        page = open_page(browser, links(base, table)[0])
        page.fill('#name', 'Kay')
        page.keyboard.press('Enter')
        expect(page.locator('#hand button.legal')).to_have_count(5)
        page.keyboard.press('3')                       # a number key chooses option 3
        expect(page.locator('#hand button.legal')).to_have_count(4)   # the bot played: my turn
        expect(page.locator('#decision')).to_be_visible()
        hand = hand_on_page(page)
        log = page.locator('#log li').all_text_contents()
        page.reload()
        expect(page.locator('#hand .card')).to_have_count(4)
        assert hand_on_page(page) == hand
        expect(page.locator('#log li')).to_have_count(len(log))
        assert page.locator('#log li').all_text_contents() == log
        page.keyboard.press('Tab')                     # Tab to an option, Enter plays it
        focused = page.evaluate('document.activeElement.title')
        assert focused in hand
        page.keyboard.press('Enter')
        expect(page.locator('#hand .card')).to_have_count(3)
        assert focused not in hand_on_page(page)
        expect(page.locator('#hand button.legal')).to_have_count(3)    # my turn again
        page.keyboard.press('ArrowLeft')              # from the first option round to the last
        last = page.evaluate('document.activeElement.title')
        assert last == hand_on_page(page)[-1]
        page.keyboard.press('Enter')
        expect(page.locator('#hand .card')).to_have_count(2)
        assert last not in hand_on_page(page)
        assert page.errors == []


def test_a_key_pressed_while_the_last_answer_is_in_flight_is_not_lost(browser):
    # The live patch can show the next decision before the reply to the last
    # answer arrives: the reply to the name is held here until then.  A key
    # pressed for the decision on the page must still play.
    table = table_of(HIGH_CARD, seating(2, s2='random'), seed=4)
    table.pause = 0.0
    with serving([table]) as base:
        page = open_page(browser, links(base, table)[0])
        held = []
        page.route('**/answer', lambda route: held.append((route, route.fetch())))
        page.fill('#name', 'Kay')
        page.keyboard.press('Enter')
        expect(page.locator('#hand button.legal')).to_have_count(5)
        assert len(held) == 1                          # the name's reply is still held
        page.keyboard.press('3')
        route, response = held[0]
        route.fulfill(response=response)
        expect(page.locator('#hand button.legal')).to_have_count(4)   # the bot played: my turn
        for route, response in held[1:]:
            route.fulfill(response=response)
        assert page.errors == []


def test_the_page_reconnects_to_a_restarted_server(browser):
    table = table_of(HIGH_CARD, seating(2, s2='random'), seed=5)
    with serving([table]) as base:
        page = open_page(browser, links(base, table)[0])
        page.fill('#name', 'Lou')
        page.keyboard.press('Enter')
        expect(page.locator('#hand button.legal')).to_have_count(5)
    expect(page.locator('#link')).to_have_text('disconnected: reconnecting\u2026')
    d = table.game.decision                    # answered while the page cannot see it
    table.answer(0, ('{"decision": %d, "choice": 0}' % d.id).encode())
    with serving([table], port=int(base.rsplit(':', 1)[1])):
        expect(page.locator('#link')).to_have_text('connected')
        expect(page.locator('#hand button.legal')).to_have_count(4)   # the bot played on
        assert hand_on_page(page) == [str(c) for p in table.game.players if p.seat == 0
                                       for c in p.hand]
        assert page.errors == []


EUCHRE = os.path.join(ROOT, 'examples', 'euchre.pip')


def click_answer(page, table, rng):
    """Answer the page's decision as a person would: a card of the hand (a
    legal one, raised) or an option button; wait until the table takes it."""
    d = table.game.decision
    played = table.version
    if d.kind == 'card':
        legal = page.locator('#hand button.legal')
        expect(legal).to_have_count(len(d.options))
        # the rest of the hand is there too, dimmed and not clickable
        hand = [str(c) for p in table.game.players if p.seat == d.seat for c in p.hand]
        expect(page.locator('#hand .card')).to_have_count(len(hand))
        assert page.locator('#hand button.dim:disabled').count() == len(hand) - len(d.options)
        legal.nth(rng.randrange(len(d.options))).click()
    else:
        options = page.locator('#options button')
        expect(options).to_have_count(len(d.options))
        options.nth(rng.randrange(len(d.options))).click()
    waited = 0
    while table.version == played:
        assert waited < TIMEOUT, 'the click was not answered'
        page.wait_for_timeout(10)
        waited += 10


def test_a_whole_game_of_euchre_by_clicking_cards_in_the_hand(browser):
    """One person and three bots play Euchre to the end: every card by a
    click in the hand.  The page marks the bots, shows the team scores the
    game keeps, and says in the tab title when it is the person's turn."""
    import random
    table = table_of(EUCHRE, seating(4, s2='random', s3='random', s4='random'), seed=3)
    table.pause = 0.0
    rng = random.Random(1)
    with serving([table]) as base:
        page = open_page(browser, links(base, table)[0])
        expect(page).to_have_title('\u25b6 Your turn \u2014 Euchre \u2014 Pip')
        page.fill('#name', '  Ada  ')
        page.keyboard.press('Enter')
        expect(page.locator('.seat.me .name')).to_have_text('Ada')      # trimmed
        expect(page.locator('.seat .tag.bot')).to_have_count(3)
        clicks = 0
        while table.game.ending is None:
            d = table.game.decision       # None if the server ended the game just now
            if d is None or d.seat != 0:
                page.wait_for_timeout(10)
                continue
            expect(page).to_have_title('\u25b6 Your turn \u2014 Euchre \u2014 Pip')
            click_answer(page, table, rng)
            clicks += 1
            if clicks % 7 == 0:           # the scores shown are the game's
                expect(page.locator('#scores tbody tr td:nth-child(2)')).to_have_text(
                    [str(t.score) for t in table.game.machine.teams])
        expect(page.locator('#turn')).to_contain_text('The game was won by')
        expect(page).to_have_title('Euchre \u2014 Pip')
        scores = [str(t.score) for t in table.game.machine.teams]
        expect(page.locator('#scores tbody tr td:nth-child(2)')).to_have_text(scores)
        assert max(map(int, scores)) >= 5
        assert clicks > 10 and page.errors == []


def test_a_phone_shows_the_hand_once(browser):
    table = table_of(os.path.join(ROOT, 'examples', 'crazy_eights.pip'),
                     seating(2, s2='random'), seed=2)
    table.pause = 0.0
    with serving([table]) as base:
        page = browser.new_context(viewport={'width': 390, 'height': 844}).new_page()
        page.set_default_timeout(TIMEOUT)
        page.goto(links(base, table)[0])
        page.fill('#name', 'Pia')
        page.keyboard.press('Enter')
        expect(page.locator('#options button')).to_have_count(2)       # Play a card, Draw a card
        page.locator('#options button').first.click()
        expect(page.locator('#hand button.legal').first).to_be_visible()
        hand = [str(c) for p in table.game.players if p.seat == 0 for c in p.hand]
        named = page.locator('.card[title]').evaluate_all('cs => cs.map(c => c.title)')
        for c in hand:
            assert named.count(c) == 1, c                  # once: in the hand, nowhere else
        assert page.locator('#options button').count() == 0
        width = page.evaluate('document.documentElement.scrollWidth')
        assert width <= 390, 'the page is wider than the phone'


def test_a_refusal_stays_until_the_next_action(browser):
    table = table_of(HIGH_CARD, seating(2))
    with serving([table]) as base:
        page = open_page(browser, links(base, table)[0])
        page.fill('#name', '\u674e\u96f7')                # not Latin-1: the game cannot print it
        page.keyboard.press('Enter')
        problem = page.locator('#problem')
        expect(problem).to_contain_text('Latin-1')
        page.wait_for_timeout(600)                      # refreshes came and went
        expect(problem).to_contain_text('Latin-1')
        page.fill('#name', '   ')                       # blank: refused on the page
        page.keyboard.press('Enter')
        expect(problem).to_have_text('Please type a name.')
        page.fill('#name', 'Li')
        page.keyboard.press('Enter')
        expect(problem).to_be_hidden()
        expect(page.locator('#decision')).to_be_hidden()       # Ben's turn to name himself
        assert table.version == 1 and table.game.names[0] == 'Li'


def test_a_seat_left_out_is_told_it_is_not_playing(browser):
    table = table_of(HIGH_CARD, seating(None))          # seat 1 is asked how many play
    with serving([table]) as base:
        urls = links(base, table)
        table.answer(0, b'{"decision": 0, "choice": 0}')         # 2 of 4 seats play
        table.answer(0, b'{"decision": 1, "text": "Ada"}')
        table.answer(1, b'{"decision": 2, "text": "Ben"}')
        page = open_page(browser, urls[3])
        expect(page.locator('#notice')).to_have_text(
            'You are not playing in this game: it was started with 2 players. '
            'You can watch it from here.')
        expect(page.locator('#you')).to_be_hidden()
        assert page.errors == []


def test_euchre_face_down_discard_is_named_in_no_frame_of_any_other_seat(browser):
    """Four people and a spectator, each page in its own browser context:
    the dealer orders up... and discards face down to the Kitty.  No frame
    the live channel brings to another seat or to the spectator, and no
    page's text, names the discarded card."""
    import json
    import urllib.request
    table = table_of(EUCHRE, seating(4), seed=3)
    with serving([table]) as base:
        urls = links(base, table)
        frames = {seat: [] for seat in urls}
        pages = {}
        for seat, url in urls.items():
            page = browser.new_context(viewport={'width': 900, 'height': 700}).new_page()
            page.set_default_timeout(TIMEOUT)
            page.on('websocket', lambda ws, seat=seat: ws.on(
                'framereceived', lambda payload, seat=seat: frames[seat].append(payload)))
            page.goto(url)
            pages[seat] = page

        def answer(d, value):
            body = {'decision': d.id, ('text' if d.kind == 'name' else 'choice'): value}
            req = urllib.request.Request(urls[d.seat] + 'answer', json.dumps(body).encode(),
                                         {'Content-Type': 'application/json'})
            urllib.request.urlopen(req, timeout=10).close()

        from pipvm.core.runtime import Area
        discarded = []
        after = 0
        while after < 3:
            d = table.game.decision
            up = [e.text for e in table.game.events if 'turns up' in e.text]
            # order up at once; discard a card the table has not seen turned up
            choice = next((i for i, o in enumerate(d.options) if not any(o in t for t in up)), 0)
            answer(d, 'P%d' % (d.seat + 1) if d.kind == 'name' else choice)
            kitty = [v for v in table.game.machine.globals if type(v) is Area and v.is_facedown]
            # in the first hand, the one card of the Kitty ever played is the discard
            discarded = discarded or [str(c) for a in kitty for c in a.cards if c.last_played_by]
            after += bool(discarded)
        dealer = table.game.machine.players[-1].seat
        for page in pages.values():
            page.wait_for_timeout(300)                  # the last frames arrive
        card = discarded[0]
        for seat in urls:
            assert frames[seat], seat
            if seat == dealer:
                continue
            named = [f[max(0, f.index(card) - 60):f.index(card) + 20]
                     for f in frames[seat] if card in f]
            assert not named, 'seat %s was told %r' % (seat, named[0])
            assert card not in pages[seat].locator('body').inner_text(), (seat, card)


def test_two_people_meet_in_the_lobby_and_play(browser, tmp_path):
    """Ada starts a High Card table from the lobby, Ben joins it there; each
    lands on their own seat's page, named, and the game begins."""
    from pipvm.web.lobby import Lobby
    from pipvm.web.lobby_app import make_lobby_app
    lobby = Lobby([HIGH_CARD], str(tmp_path / 'lobby.sqlite'))
    with serving(app=make_lobby_app(lobby)) as base:
        ada = open_page(browser, base + '/')
        ada.fill('#name', 'Ada')
        ada.click('text=New table for 2')
        ada.wait_for_url('**/play/**')
        expect(ada.locator('#turn')).to_have_text('Waiting for seat 2 to be taken (from the lobby)')
        ben = open_page(browser, base + '/lobby/')
        expect(ben.locator('#tables li')).to_contain_text('open: 1 of 2 seated')
        ben.click('#tables button.join')
        expect(ben.locator('#problem')).to_have_text('Type your name first.')
        ben.fill('#name', 'Ben')
        ben.click('#tables button.join')
        ben.wait_for_url('**/play/**')
        for page, me in ((ada, 'Ada'), (ben, 'Ben')):
            expect(page.locator('.seat.me .name')).to_have_text(me)
            expect(page.locator('.seat .name')).to_have_count(2)
        mover = ada if table_turn(lobby) == 0 else ben
        expect(mover.locator('#hand button.legal')).to_have_count(5)
        # Zoe watches under her name; the lobby lists her
        zoe = open_page(browser, base + '/lobby/')
        zoe.fill('#name', 'Zoe')
        zoe.click('#tables a.watch')
        zoe.wait_for_url('**/play/watch-*/?name=Zoe')
        expect(zoe.locator('.seat .name')).to_have_count(2)
        expect(ben.locator('#turn')).not_to_have_text('')
        lobby_page = open_page(browser, base + '/lobby/')
        expect(lobby_page.locator('#tables .spectators')).to_have_text('watching: Zoe')
        assert ada.errors == [] and ben.errors == [] and zoe.errors == []


def table_turn(lobby):
    (table,) = lobby.tables.values()
    return table.game.decision.seat


def test_every_option_has_a_key(browser, tmp_path):
    """Past the ninth: 0 is the tenth, then a, b, ... (shown on each button)."""
    options = ' '.join('"Option %d" { message "chose %d". }' % (i, i) for i in range(1, 13))
    source = tmp_path / 'many.pip'
    source.write_text('Game "Many" requires 2 players.\nAction main {\n'
                      '  ask players->first { %s }\n  winner players->first.\n}\n' % options)
    with named_page(browser, str(source), seating(2, s2='first'), 'Al') as (table, page):
        keys = page.locator('#options button .key')
        expect(keys).to_have_count(12)
        assert keys.all_text_contents() == list('1234567890ab')
        page.keyboard.press('b')
        expect(page.locator('#log')).to_contain_text('chose 12')
        assert page.errors == []


def test_a_long_spread_area_wraps_inside_the_felt(browser, tmp_path):
    """A layout of 30 face-up cards (Sevens builds one of up to 52) once ran
    in one row past the felt, over the seats and the scores."""
    source = tmp_path / 'layout.pip'
    source.write_text('Game "Layout" requires 2 players.\n'
                      'Area layout labeled "Layout" is faceup, spreadout.\n'
                      'Action main {\n  deal 30 from standard to layout.\n'
                      '  ask players->first { "Done" { } }\n  winner players->first.\n}\n')
    with named_page(browser, str(source), seating(2, s2='first'), 'Al') as (table, page):
        expect(page.locator('.area.spreadout .card')).to_have_count(30)
        felt = page.locator('#felt').bounding_box()
        boxes = page.locator('.area.spreadout .card').evaluate_all(
            'cs => cs.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.right]; })')
        assert all(felt['x'] <= left and right <= felt['x'] + felt['width'] for left, right in boxes)
        rows = page.locator('.area.spreadout .card').evaluate_all(
            'cs => new Set(cs.map(c => c.getBoundingClientRect().top)).size')
        assert rows > 1
        assert page.errors == []


def test_a_set_of_cards_is_one_option_drawn_as_its_cards(browser):
    """President written with the extension 'several cards at once': each
    set is one button showing its cards; a click plays the whole set."""
    table = table_of(os.path.join(ROOT, 'examples', 'president_sets.pip'),
                     seating(3, s2='random', s3='random'), seed=2)
    table.pause = 0.0
    with serving([table]) as base:
        page = open_page(browser, links(base, table)[0])
        page.fill('#name', 'Ada')
        page.keyboard.press('Enter')
        played = []
        while table.game.ending is None and len(played) < 4:
            d = table.game.decision
            if d is None or d.seat != 0 or d.kind != 'cards':
                page.wait_for_timeout(10)
                continue
            # the biggest set offered (a pair or more when there is one)
            pick = max(range(len(d.options)), key=lambda i: d.options[i].count(' of '))
            label = d.options[pick]
            button = page.locator('#options button[data-choice="%d"]' % pick)
            expect(button).to_have_attribute('title', label)
            expect(button.locator('.card')).to_have_count(label.count(' of '))
            n = len(table.game.history)
            button.click()
            for _ in range(500):
                if len(table.game.history) > n:
                    break
                page.wait_for_timeout(10)
            assert table.game.history[n][1] == label
            played.append(label)
        assert len(played) == 4 and page.errors == []
        assert any(' and ' in label for label in played), played


VALUES = '''Game "Values" requires 3 players.
Number bid for each player.
Boolean passed for each player = False.
Rank best for each player = Queen.
Action main {
  for p in players {
    if p == players->last { p->passed = True. }
    else {
      ask p {
        "Bid 2" { p->bid = 2. }
        "Pass" { p->passed = True. }
      }
    }
  }
  ask players->first { "Done" { } }
  winner players->first.
}
'''


def test_values_for_each_player_show_on_the_seats_like_score(browser, tmp_path):
    """The extension 'values for each player': each seat shows its player's
    values after the score, as the game prints them (a Boolean as True or
    False, a Rank as its word), an undefined one left out, and follows them
    as the game sets them."""
    source = tmp_path / 'values.pip'
    source.write_text(VALUES)
    with named_page(browser, str(source), seating(3, s2='first', s3='first'), 'Ada') as (table, page):
        facts = page.locator('.seat .facts')
        expect(page.locator('#options button')).to_have_count(2)
        # nobody has bid: `bid` is undefined everywhere
        expect(facts).to_have_text(['0 cards \u00b7 score 0 \u00b7 passed False \u00b7 best Queen'] * 3)
        page.locator('#options button', has_text='Bid 2').click()
        expect(page.locator('#options button', has_text='Done')).to_have_count(1)
        # Ada (this page's seat, shown first) and the first bot bid 2; the last passed
        expect(facts).to_have_text(['0 cards \u00b7 score 0 \u00b7 bid 2 \u00b7 passed False \u00b7 best Queen'] * 2
                                   + ['0 cards \u00b7 score 0 \u00b7 passed True \u00b7 best Queen'])
        view = table.game.view(0)
        assert [p['values'] for p in view['players']] == [
            {'bid': 2, 'passed': False, 'best': 'Queen'}] * 2 + [
            {'bid': None, 'passed': True, 'best': 'Queen'}]
        assert page.errors == []


def test_values_for_each_team_show_in_the_scores(browser, tmp_path):
    source = tmp_path / 'teams.pip'
    source.write_text('Game "Team values" requires 2 teams of 2.\n'
                      'Number tricks for each team = 0.\nBoolean doubled for each team.\n'
                      'Action main {\n  teams->last->tricks += 3.\n  teams->first->doubled = True.\n'
                      '  ask players->first { "Done" { } }\n  winner players->first.\n}\n')
    seats = seating(4, s2='first', s3='first', s4='first')
    with named_page(browser, str(source), seats, 'Ada') as (table, page):
        expect(page.locator('#options button', has_text='Done')).to_have_count(1)
        rows = page.locator('#scores tbody tr th')
        expect(rows).to_have_count(2)
        first, second = (rows.nth(i).inner_text() for i in (0, 1))
        assert first.startswith('Team 1 (Ada') and first.endswith(') \u00b7 tricks 0 \u00b7 doubled True')
        assert second.startswith('Team 2 (') and second.endswith(') \u00b7 tricks 3')
        assert page.errors == []
