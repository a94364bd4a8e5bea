"""Dragging cards on the web table, in Debian's chromium (Playwright): a
Klondike card dragged onto a stack or the top makes the move the two clicks
make; dropped on an area it may not go to, or off every area, it changes
nothing and the page says nothing wrong; a card of the hand dragged onto
the area a play puts it in is played."""
import os

from playwright.sync_api import expect

from .browser import TIMEOUT
from .test_web_table_browser import new_page, served_table
from .util import serving
from .web_util import links

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KLONDIKE = os.path.join(ROOT, 'examples', 'klondike_full.pip')
HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')
expect.set_options(timeout=TIMEOUT)
TALL = (1280, 1400)             # Klondike's table whole, without scrolling


def drag(page, source, target):
    """Drag with the mouse, in steps, from the middle of source to the middle of target."""
    a, b = page.locator(source).bounding_box(), page.locator(target).bounding_box()
    page.mouse.move(a['x'] + a['width'] / 2, a['y'] + a['height'] / 2)
    page.mouse.down()
    page.mouse.move(b['x'] + b['width'] / 2, b['y'] + b['height'] / 2, steps=8)
    page.mouse.up()


def area_of(table, name):
    return next((a['name'] for a in table.game.view(0)['areas'] if name in a.get('cards', ())), None)


def seated(browser, table, base):
    page = new_page(browser, links(base, table)[0], TALL)
    page.fill('#name', 'Ada')
    page.keyboard.press('Enter')
    expect(page.locator('#prompt')).to_have_text('Ada: Choose an action:')
    return page


def test_a_card_dragged_onto_a_stack_moves_there(browser):
    """Seed 3 deals the Ace of Spades where it may go to the top or onto
    Stack 1: dragged onto Stack 1 it goes there (its option, then Stack 1's,
    as the two clicks answer); Stack 2, where it may not go, is not marked
    while it is dragged."""
    table = served_table(KLONDIKE, 1, 3, 0.0)
    with serving([table]) as base:
        page = seated(browser, table, base)
        ace = '#areas .card.draggable[title="Ace of Spades"]'
        was = area_of(table, 'Ace of Spades')
        a = page.locator(ace).bounding_box()
        page.mouse.move(a['x'] + a['width'] / 2, a['y'] + a['height'] / 2)
        page.mouse.down()
        page.mouse.move(a['x'] + 40, a['y'] + 40, steps=4)
        expect(page.locator('.card.ghost')).to_have_count(1)
        expect(page.locator('#areas .area.drop-ok')).to_have_count(2)
        expect(page.locator('#areas .area.drop-ok[data-area="Stack 1"]')).to_have_count(1)
        expect(page.locator('#areas .area.drop-ok[data-area="Top 1"]')).to_have_count(1)
        b = page.locator('#areas .area[data-area="Stack 1"]').bounding_box()
        page.mouse.move(b['x'] + b['width'] / 2, b['y'] + b['height'] / 2, steps=6)
        page.mouse.up()
        expect(page.locator('#log')).to_contain_text('Ace of Spades goes onto Stack 1.')
        assert area_of(table, 'Ace of Spades') == 'Stack 1' != was
        assert [a.text for a in table.history[1:]] == ['Play Ace of Spades',
                                                        'Ace of Spades onto Stack 1']
        expect(page.locator('.card.ghost')).to_have_count(0)
        expect(page.locator('.drop-ok')).to_have_count(0)
        assert page.errors == []


def test_a_card_dragged_to_the_top_goes_there(browser):
    table = served_table(KLONDIKE, 1, 3, 0.0)
    with serving([table]) as base:
        page = seated(browser, table, base)
        drag(page, '#areas .card.draggable[title="Ace of Spades"]', '#areas .area[data-area="Top 1"]')
        expect(page.locator('#log')).to_contain_text('Ace of Spades goes to the top.')
        assert area_of(table, 'Ace of Spades') == 'Top 1'
        assert page.errors == []


def test_a_drop_where_the_card_may_not_go_changes_nothing(browser):
    """Onto Stack 2 (no move takes it there), onto the hand's pile, off every
    area: no answer is sent, no refusal shown; a click still plays after."""
    table = served_table(KLONDIKE, 1, 3, 0.0)
    with serving([table]) as base:
        page = seated(browser, table, base)
        ace = '#areas .card.draggable[title="Ace of Spades"]'
        was, version = area_of(table, 'Ace of Spades'), table.version
        for target in ('#areas .area[data-area="Stack 2"]', '#areas .area[data-area="Hand"]',
                       '#scores', '#messages'):
            drag(page, ace, target)
            expect(page.locator('.card.ghost')).to_have_count(0)
        page.wait_for_timeout(300)             # (an answer sent would be back by now)
        assert table.version == version and area_of(table, 'Ace of Spades') == was
        expect(page.locator('#problem')).to_be_hidden()
        expect(page.locator('#prompt')).to_have_text('Ada: Choose an action:')
        page.click(ace)                        # clicking works as before
        expect(page.locator('#areas .area.target')).to_have_count(1)
        page.click('#areas .area.target[data-area="Stack 1"]')
        expect(page.locator('#log')).to_contain_text('Ace of Spades goes onto Stack 1.')
        assert page.errors == []


def test_a_card_of_the_hand_dragged_onto_the_table_is_played(browser):
    """High Card plays to its table: a raised card of the hand dragged there
    is played; dropped on the hand again, it is not."""
    table = served_table(HIGH_CARD, 2, 1, 0.0)
    with serving([table]) as base:
        page = new_page(browser, links(base, table)[0], TALL)
        page.fill('#name', 'Ada')
        page.keyboard.press('Enter')
        expect(page.locator('#hand .card.legal.draggable')).not_to_have_count(0)
        card = page.locator('#hand .card.legal').first.get_attribute('title')
        source = '#hand .card.legal[title="%s"]' % card
        version = table.version
        drag(page, source, '#hand')
        page.wait_for_timeout(300)
        assert table.version == version
        assert table.view(0)['decision']['to'] == 'Table'
        drag(page, source, '#areas .area[data-area="Table"], #trick[data-area="Table"]')
        expect(page.locator('#log')).to_contain_text('played ' + card)
        assert [a.text for a in table.history if a.seat == 0][1:] == [card]   # (after the name)
        assert page.errors == []
