"""No seat is told a card it has not seen (issue 22): on every example, at
every decision of seeded random games, each seat's view and what the web
table sends it name only cards the seat has seen face up or in its own
hand, and the spectators' only cards that were face up.  What a seat has
seen is worked out apart from the view code (tests/privacy.py)."""
import glob
import os
import random

import pytest

from pipvm.game.game import NAME, Game
from pipvm.play import loader
from pipvm.play.seats import Seating
from pipvm.web.table import Table

from .privacy import SPECTATOR, watch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip')))
EUCHRE = os.path.join(ROOT, 'examples', 'euchre.pip')
DECISIONS = 400                # random Crazy Eights can go on for thousands


def seats_of(program):
    return program.counts[0] * (program.team_size or 1)


def new_game(path, seed):
    """A game of path with its names still to ask, and its Witness."""
    program = loader.load_program(path)
    game = Game(program, seed=seed, players=seats_of(program), max_steps=100_000)
    return game, watch(game)


def leaks(game, witness, look):
    """{seat: unseen card names} over every seat and the spectators, of
    what look(seat) gives that seat."""
    found = {}
    for seat in [SPECTATOR] + list(range(game.seats)):
        unseen = witness.unseen(seat, look(seat))
        if unseen:
            found[seat] = unseen
    return found


def answer_randomly(game, rng):
    d = game.decision
    game.answer('P%d' % (d.seat + 1) if d.kind is NAME else rng.randrange(len(d.options)))


@pytest.mark.parametrize('path', EXAMPLES, ids=os.path.basename)
def test_no_view_names_a_card_its_seat_has_not_seen(path):
    for seed in (1, 2, 3):
        game, witness = new_game(path, seed)
        rng = random.Random(seed)
        for decisions in range(DECISIONS):
            found = leaks(game, witness, game.view)
            assert not found, 'decision %d: %r' % (decisions, found)
            if game.decision is None:
                break
            answer_randomly(game, rng)
        assert game.ending is not None or decisions == DECISIONS - 1


def test_a_card_played_face_down_is_named_to_its_player_only():
    """Euchre's dealer discards to the face-down Kitty: the dealer reads the
    card, every other seat and the spectators read that a card went face down."""
    game, witness = new_game(EUCHRE, 1)
    rng = random.Random(1)
    while game.decision is not None:
        d = game.decision
        if d.kind == 'card' and _discarding(game):
            card = d.options[-1]          # not the turned-up card: only the dealer saw it
            game.answer(len(d.options) - 1)
            break
        answer_randomly(game, rng)
    else:
        pytest.fail('no discard to the Kitty')
    dealer = d.seat
    for seat in [SPECTATOR] + list(range(game.seats)):
        log = [e for e in game.view(seat)['log'] if e['kind'] == 'played'][-1]
        if seat == dealer:
            assert log['text'] == '%s played %s.' % (d.player, card) and log['card'] == card
        else:
            assert log == {'kind': 'played', 'text': '%s played a card face down.' % d.player,
                           'to': None, 'card': None, 'by': dealer}
    # the whole table's transcript (every seat human at one terminal) is unchanged
    assert [e.text for e in game.events if e.kind == 'played'][-1] == \
        '%s played %s.' % (d.player, card)


def _discarding(game):
    """Whether the card decision pending goes to the Kitty."""
    m = game.machine
    return any(v.cards is m.pending.dest for v in m.globals
               if getattr(v, 'name', None) == 'Kitty')


@pytest.mark.parametrize('path', [EUCHRE, os.path.join(ROOT, 'examples', 'crazy_eights.pip')],
                         ids=os.path.basename)
def test_the_web_table_sends_no_seat_a_card_it_has_not_seen(path):
    """What the served table gives each seat and the spectators' link (the
    web API's /state and live channel are made of Table.view)."""
    program = loader.load_program(path)
    table = Table(program, Seating(players=seats_of(program)), seed=5)
    witness = watch(table.game)
    rng = random.Random(5)
    for decisions in range(DECISIONS):
        found = leaks(table.game, witness, table.view)
        assert not found, 'decision %d: %r' % (decisions, found)
        d = table.game.decision
        if d is None:
            break
        seat_token = next(t for t, s in table.tokens.items() if s == d.seat)
        body = ('{"decision": %d, "text": "P%d"}' % (d.id, d.seat + 1) if d.kind == NAME
                else '{"decision": %d, "choice": %d}' % (d.id, rng.randrange(len(d.options))))
        table.answer(table.seat_of(seat_token), body.encode())
    assert table.game.ending is not None or decisions == DECISIONS - 1


def test_determinization_does_not_know_a_card_played_face_down():
    """A thinking bot's samples (pipvm/game/determinize.py) follow the same
    audience: for the seats that did not discard, the Kitty's card is any
    card they have not seen; for the dealer it is the card discarded."""
    game, _ = new_game(EUCHRE, 1)
    rng = random.Random(1)
    while not (game.decision.kind == 'card' and _discarding(game)):
        answer_randomly(game, rng)
    dealer = game.decision.seat
    game.answer(len(game.decision.options) - 1)       # not the card turned up
    kitty = next(v for v in game.machine.globals if getattr(v, 'name', None) == 'Kitty')

    def kitty_in_samples(seat):
        samples = [game.determinize(seat, random.Random(k)) for k in range(12)]
        return {str(next(v for v in s.machine.globals
                         if getattr(v, 'name', None) == 'Kitty').cards[0]) for s in samples}
    assert kitty_in_samples(dealer) == {str(kitty.cards[0])}
    assert len(kitty_in_samples((dealer + 1) % 4)) > 1


PLACES = '''Game "Places" requires 2 players.
Area up labeled "Up" is faceup, squaredup.
Area down labeled "Down" is facedown.
Deck deck = standard.
Rule any(p, c, pile) = True.
Action main {
  deal 3 from deck to players.
  let p be players->first.
  play any from p to up.
  play any from p to down.
  play any from p to p->stash.
}
'''


def test_who_reads_a_card_played_depends_on_where_it_lands():
    from .test_game import program_of
    game = Game(program_of(PLACES), seed=1, players=2, names=['Ada', 'Ben'])
    played = []
    while game.decision is not None:
        played.append(game.decision.options[0])
        game.answer(0)
    texts = {seat: [e['text'] for e in game.view(seat)['log'] if e['kind'] == 'played']
             for seat in (0, 1, SPECTATOR)}
    assert texts[0] == ['Ada played %s.' % card for card in played]
    assert texts[1] == texts[SPECTATOR] == ['Ada played %s.' % played[0],     # face up, on top
                                            'Ada played a card face down.',
                                            'Ada played a card.']            # to a stash
    # the whole table's transcript names every card, as the original does
    assert [e.text for e in game.events if e.kind == 'played'] == texts[0]


def test_a_player_taken_out_still_knows_its_own_hand(tmp_path):
    # the witness notes each seated player's hand, not only those `players`
    # still holds: dealt a card and taken out before any event, seat 1 is
    # shown its hand and nothing it has not seen (the fuzzer's seed 2811
    # found the witness blind to it)
    path = tmp_path / 'out.pip'
    path.write_text('Game "Out" requires 2 players.\nDeck stock = standard.\n'
                    'Action main {\n  shuffle stock.\n  deal 1 from stock to players.\n'
                    '  out players->first.\n  message "done".\n}\n')
    game, witness = new_game(str(path), 1)
    while game.decision is not None:
        game.answer('P%d' % (game.decision.seat + 1))
    assert game.ending is not None and len(game.machine.players) == 1
    mine = game.view(0)['players'][0]['hand']
    assert len(mine) == 1 and witness.unseen(0, game.view(0)) == set()
    assert witness.unseen(1, game.view(1)) == set() and mine[0] not in str(game.view(1))


def test_a_choice_made_in_secret_shows_nobody_until_the_showdown():
    # Guts: each player is asked "In" or "Out" in turn, and the program
    # keeps the answer in globals no seat is shown; at every decision of a
    # deal but its last (whose answer starts the showdown), either answer
    # leaves every other seat's view, and the spectators', the same
    for seed in (1, 2, 3):
        game, _ = new_game(os.path.join(ROOT, 'examples', 'guts.pip'), seed)
        while game.decision.kind is NAME:
            answer_randomly(game, random.Random(seed))
        rng = random.Random(seed)
        for _ in range(game.seats - 1):
            asked = game.decision.seat
            assert [str(o) for o in game.decision.options] == ['In', 'Out']
            views = []
            for answer in (0, 1):
                fork = game.fork()
                fork.answer(answer)
                views.append({seat: fork.view(seat) for seat in [SPECTATOR] + list(range(game.seats))
                              if seat != asked})
            assert views[0] == views[1]
            game.answer(rng.randrange(2))
