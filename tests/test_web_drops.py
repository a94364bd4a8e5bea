"""Where the web table lets a card be dragged (pipvm/web/drops.py): each
drop the server offers is exactly the answers the clicks give, a move that
shuffles on the way offers none, a place that hangs on a card the seat
cannot see is not told, and a drop is checked as any answer is."""
import os
import random

from pipvm.game.game import Game
from pipvm.play import loader
from pipvm.web import drops as web_drops
from pipvm.web.drops import served_decision

from .web_util import post, seating, served

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KLONDIKE = os.path.join(ROOT, 'examples', 'klondike_full.pip')
HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')

MOVES = '''Game "Moves" requires 1 players.
Deck deck = standard.
Area stacks[3] labeled "Stack" is faceup, spreadout.
Area bin labeled "Bin" is faceup, squaredup.
CardList cs.

Action main {
  let me be players->first.
  for s in stacks { deal 2 from deck to s. }
  forever {
    cs = [].
    for s in stacks { cs = [cs; s->cards]. }
    ask me {
      for c in cs "Move {c}" {
        let src be stacks->first.
        for s in stacks { if c in s->cards { src = s. } }
        SHUFFLE
        ask me {
          for s in stacks "{c} onto {s}" if not (c in s->cards) { deal c from src to s. }
          "{c} away" { deal c from src to bin. }
          "Leave {c}" { message "Left.". }
        }
      }
      "Stop" { winner me. }
    }
  }
}
'''


# A card put away goes to the bin of a face-down card's rank: where it may
# be dropped would tell that rank.
HIDDEN = '''Game "Hidden" requires 1 players.
Deck deck = standard.
Area stacks[3] labeled "Stack" is faceup, spreadout.
Area bins[13] labeled "Bin" is faceup, squaredup.
Area secret labeled "Secret" is facedown, squaredup.
CardList cs.

Action bin_for(Card c) gives Area {
  let k be 0.
  for b in bins {
    k += 1.
    if k == secret->cards->top->rank { give b. }
  }
  give bins->first.
}

Action main {
  let me be players->first.
  shuffle deck.
  deal 1 from deck to secret.
  for s in stacks { deal 2 from deck to s. }
  forever {
    cs = [].
    for s in stacks { cs = [cs; s->cards]. }
    ask me {
      for c in cs "Move {c}" {
        let src be stacks->first.
        for s in stacks { if c in s->cards { src = s. } }
        ask me {
          for s in stacks "{c} onto {s}" if not (c in s->cards) { deal c from src to s. }
          "{c} away" {
            let b be bin_for(c).
            deal c from src to b.
          }
        }
      }
      "Stop" { winner me. }
    }
  }
}
'''


def game_of(text, tmp_path):
    path = tmp_path / 'moves.pip'
    path.write_text(text)
    return str(path), Game(loader.load_program(str(path)), seed=4, players=1, names=['Ada'])


def place(game, name):
    """The area holding the card of this name, or None."""
    return next((a['name'] for a in game.view(0)['areas'] if name in a.get('cards', ())), None)


def check_drops(game, seat):
    """Every drop the decision offers, given as answers to a copy: the card
    ends in the drop's area.  How many drops there were."""
    d = served_decision(game, seat)
    count = 0
    for i, drops in enumerate(d.get('drops') or ()):
        for drop in drops or ():
            name = d['targets'][i]['card']
            copy = game.fork()
            copy.answer(i)
            if drop['then'] is not None:
                copy.answer(drop['then'])
            assert place(copy, name) == drop['area'], (name, drop)
            count += 1
    return count


def test_a_drop_on_an_area_is_the_card_then_that_area(tmp_path):
    """The nested ask: the card's option, then each option naming an area is
    a drop there; "away" (no area named) a drop where the card lands; the
    option that leaves the card where it is, none."""
    _, game = game_of(MOVES.replace('SHUFFLE', ''), tmp_path)
    d = served_decision(game, 0)
    first = d['targets'][0]['card']
    assert place(game, first) == 'Stack 1'
    assert d['drops'][0] == [{'area': 'Stack 2', 'then': 0}, {'area': 'Stack 3', 'then': 1},
                             {'area': 'Bin', 'then': 2}]
    assert d['drops'][-1] is None                         # "Stop" names no card
    assert check_drops(game, 0) == 6 * 3


def test_a_move_that_shuffles_on_the_way_offers_no_drop(tmp_path):
    _, game = game_of(MOVES.replace('SHUFFLE', 'shuffle deck.'), tmp_path)
    d = served_decision(game, 0)
    assert d['targets'][0] is not None and 'drops' not in d
    game.answer(0)                 # clicking still works: the card, then the area
    assert served_decision(game, 0)['targets'][0] == {'area': 'Stack 2'}


def test_klondikes_drops_are_the_moves_the_clicks_make(monkeypatch):
    """Through a game of Klondike, every drop offered (to a stack, to the
    top, a move with one place) puts its card where it says; and as they
    hang on shown cards only, the worlds with the hidden cards dealt anew
    withhold none of them."""
    program = loader.load_program(KLONDIKE)
    game = Game(program, seed=3, players=1, names=['Ada'])
    rng = random.Random(2)
    drops = auto = 0
    for _ in range(150):
        d = game.decision
        if d is None:
            break
        drops += check_drops(game, 0)
        served = served_decision(game, 0)
        auto += sum(1 for ds in served.get('drops') or () for x in ds or () if x['then'] is None)
        with monkeypatch.context() as m:
            m.setattr(web_drops, 'WORLDS', 0)       # the real game's alone
            assert served_decision(game, 0) == served
        game.answer(rng.choice([i for i, o in enumerate(d.options) if o != 'Give up']))
    assert drops > 50 and auto > 5


def test_a_place_that_hangs_on_a_hidden_card_is_not_told(tmp_path):
    """Put away, a card goes to the bin of the face-down card's rank: the
    clicks say which only after the card is chosen, so no drop may say it
    before (each drop must also be found in worlds where the cards the seat
    cannot see are dealt anew).  The stacks, which hang on shown cards
    only, are still offered; with the card face up, so is its bin."""
    for secret in ('facedown', 'faceup'):
        _, game = game_of(HIDDEN.replace('is facedown', 'is ' + secret), tmp_path)
        for seed in range(1, 9):
            game = Game(game.program, seed=seed, players=1, names=['Ada'])
            d = served_decision(game, 0)
            bins = stacks = 0
            for i, drops in enumerate(d['drops'][:-1]):
                name = d['targets'][i]['card']
                copy = game.fork()
                copy.answer(i)
                copy.answer(len(copy.decision.options) - 1)        # put away
                areas = [x['area'] for x in drops]
                stacks += sum(a.startswith('Stack') for a in areas)
                bins += place(copy, name) in areas
                assert all(a.startswith('Stack') or a == place(copy, name) for a in areas)
            assert stacks == 6 * 2 and bins == (0 if secret == 'facedown' else 6), (secret, seed)
        assert check_drops(game, 0) == 6 * 2 + bins


def test_a_card_decision_says_where_the_card_is_played():
    program = loader.load_program(HIGH_CARD)
    game = Game(program, seed=1, players=2, names=['Ada', 'Ben'])
    d = served_decision(game, game.decision.seat)
    assert d['kind'] == 'card' and d['to'] == 'Table'
    name = d['options'][0]
    game.answer(0)
    assert place(game, name) == 'Table'


def test_a_drop_is_checked_as_any_answer_is(tmp_path):
    """The server trusts no page: after the card's half of a drop, a choice
    that is no option of the next ask is refused (400), the first half's
    decision again is stale (409), and nothing changes; the right one moves
    the card."""
    path, _ = game_of(MOVES.replace('SHUFFLE', ''), tmp_path)
    with served(path, seating(1), 4) as (table, client, urls):
        url = urls[0]
        assert post(client, url, {'decision': 0, 'text': 'Ada'}).status_code == 200
        state = client.get(url + 'state').json()
        d = state['decision']
        name, drop = d['targets'][0]['card'], d['drops'][0][1]
        assert post(client, url, {'decision': d['id'], 'choice': len(d['options'])}).status_code == 400
        assert post(client, url, {'decision': d['id'], 'choice': 0}).status_code == 200
        version, follow = table.version, client.get(url + 'state').json()['decision']
        assert follow['options'][drop['then']] == name + ' onto Stack 3'
        for bad, status in (({'decision': d['id'], 'choice': drop['then']}, 409),
                            ({'decision': d['id'] + 1, 'choice': len(follow['options'])}, 400),
                            ({'decision': d['id'] + 1, 'choice': -1}, 400)):
            r = post(client, url, bad)
            assert r.status_code == status and list(r.json()) == ['error'], bad
        assert table.version == version and place(table.game, name) == 'Stack 1'
        assert post(client, url, {'decision': d['id'] + 1, 'choice': drop['then']}).status_code == 200
        assert place(table.game, name) == drop['area'] == 'Stack 3'
