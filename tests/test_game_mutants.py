"""What pipvm/game/game.py's mutants showed its suite (test_game, test_bots,
test_seats) did not pin: the endings of the extension (loser, winners,
places) as Ending and its to_json give them, a game played out from its
first instruction (playing_out, its `noted`), and a fork made before the
seats are known."""
import os
import random

from pipvm.game.game import Ending, Game
from pipvm.play import loader
from tests.test_ext_endings import HEAD, frontend_program

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRAZY_EIGHTS = os.path.join(ROOT, 'examples', 'crazy_eights.pip')
NAMES = ['Ada', 'Ben', 'Cleo']


def ended(main):
    game = Game(frontend_program(HEAD + 'Action main {\n  %s\n}\n' % main), seed=1, players=3,
                names=NAMES)
    assert game.decision is None
    return game


def test_a_loser_ends_the_game_with_no_winner_and_every_place():
    # pins _go's extension ending: kind 'loser', the loser's name, each seat's place, and to_json of it
    game = ended('loser players->last.')
    e = game.ending
    assert (e.kind, e.winner, e.error, e.places) == ('loser', None, None, (0, 0, 1))
    assert 'Cleo' in e.loser and 'Ada' not in e.loser
    assert e.to_json() == {'kind': 'loser', 'winner': None, 'error': None, 'loser': e.loser,
                           'places': [0, 0, 1]}


def test_winners_end_the_game_with_their_names_and_places():
    # pins _go's extension ending for winners: kind 'winner', no loser, the winners named
    game = ended('let w be [players->first; players->last].\n  winners w.')
    e = game.ending
    assert (e.kind, e.loser, e.places) == ('winner', None, (0, 1, 0))
    assert 'Ada' in e.winner and 'Cleo' in e.winner and 'Ben' not in e.winner
    assert e.to_json() == {'kind': 'winner', 'winner': e.winner, 'error': None, 'loser': None,
                           'places': [0, 1, 0]}


def test_an_endings_json_names_its_kind_winner_and_error():
    # pins Ending.to_json's keys: no places (a 2008 ending), an error as its Error: line
    assert ended('winner players->last.').ending.to_json() == \
        {'kind': 'winner', 'winner': 'Cleo', 'error': None}
    error = ValueError('Error: it broke')
    assert Ending('error', error=error).to_json() == \
        {'kind': 'error', 'winner': None, 'error': 'Error: it broke'}


class _Noting(random.Random):
    """A generator for playing_out with a `noted` list."""
    def __init__(self, seed):
        super().__init__(seed)
        self.noted = []


def test_a_game_played_out_from_the_start_notes_each_decision():
    # pins _seat_players' playing_out: answers from the first instruction, noted as (options, seat)
    program = loader.load_program(CRAZY_EIGHTS)
    made = []

    def playing_out(game):
        made.append(_Noting(5))
        return made[-1]
    game = Game(program, seed=3, players=2, names=['a', 'b'], playing_out=playing_out)
    assert game.decision is None and game.ending is not None and len(made) == 1
    same = Game(program, seed=3, players=2, names=['a', 'b']).play_out(random.Random(5))
    assert game.history == same.history and game.events == same.events
    noted = made[0].noted
    assert len(noted) == 2 * len(game.history) > 20
    assert set(noted[1::2]) == {0, 1} and all(n > 0 for n in noted[::2])


def test_a_fork_made_before_the_seats_are_known_does_not_play_out():
    # pins fork()'s dropping playing_out: only the original asks it, once its seats are known
    program = loader.load_program(CRAZY_EIGHTS)
    asked = []
    game = Game(program, seed=3, players=2, playing_out=lambda g: asked.append(g) or random.Random(5))
    assert game.decision.kind == 'name'
    other = game.fork()
    for g in (game, other):
        g.answer('a')
        g.answer('b')
    assert asked == [game] and game.decision is None and game.ending is not None
    assert other.decision is not None and other.decision.kind in ('card', 'action')
