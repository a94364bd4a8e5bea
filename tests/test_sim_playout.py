"""A simulation whose seats are all random bots plays each game in the
machine's play-out mode (playing.CountingTable.playing_out): the same game,
and the same Result, as asking the seats one decision at a time."""
import glob
import os

import attrs
import pytest

from pipvm.core.errors import PipError
from pipvm.design import playing
from pipvm.play import loader
from pipvm.play.seats import Seating, parse_kind, seating

from .util import CHOICELESS, DATA

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip'))
                  + glob.glob(os.path.join(ROOT, 'examples', 'recycle', '*.recycle'))
                  + glob.glob(os.path.join(DATA, 'full', '*.pip')))
# the corpus' semantic programs, and the tests' other games (not syntax errors)
CORPUS = sorted(p for p in glob.glob(os.path.join(DATA, '*', '*.pip'))
                + glob.glob(os.path.join(DATA, '*.pip'))
                if os.path.basename(os.path.dirname(p)) not in ('syntax', 'full'))
STEPS = 20000


class OneAtATime(playing.CountingTable):
    """Today's path: every decision asked of its seat through choose."""

    def playing_out(self, game):
        return None


class Noted(playing.CountingTable):
    """The play-out path, noting that the game took it."""
    taken = []

    def playing_out(self, game):
        auto = super().playing_out(game)
        Noted.taken.append(auto is not None)
        return auto


def both(engine, seats, seed, rotate=False):
    Noted.taken = []
    fast = playing.play_one(engine, seats, seed, rotate, Noted)
    slow = playing.play_one(engine, seats, seed, rotate, OneAtATime)
    return fast, slow, Noted.taken


def loaded(path, engine='compiled'):
    try:
        return loader.load_engine(path, engine, STEPS)
    except PipError:
        return None, None           # (a corpus program that does not compile)


def name(path):
    return os.path.relpath(path, ROOT)


@pytest.mark.parametrize('path', EXAMPLES, ids=name)
def test_examples_play_the_same_games_in_play_out_mode(path):
    program, engine = loaded(path)
    random = playing.sim_seating(program, seating(bots='random'))
    apart = playing.sim_seating(program, seating(bots='random', random_bots='apart'))
    decided = False
    for seed in range(1, 6):
        for seats, rotate in ((random, False), (apart, seed % 2 == 0)):
            fast, slow, taken = both(engine, seats, seed, rotate)
            assert fast == slow, (seed, seats)
            decided = decided or fast.decisions > 0
            # the play-out path was taken, from the start
            assert taken == [True]
    assert decided or os.path.basename(path) in CHOICELESS


@pytest.mark.parametrize('path', EXAMPLES[::4], ids=name)
def test_the_loop_plays_the_same_games_in_play_out_mode(path):
    program, engine = loaded(path, 'loop')
    seats = playing.sim_seating(program, seating(bots='random'))
    for seed in (3, 4):
        fast, slow, _ = both(engine, seats, seed)
        assert fast == slow


def test_the_corpus_plays_the_same_games_in_play_out_mode():
    decided = 0
    for path in CORPUS:
        program, engine = loaded(path)
        if program is None:
            continue
        seats = playing.sim_seating(program, seating(bots='random'))
        for seed in (1, 2):
            fast, slow, _ = both(engine, seats, seed)
            assert fast == slow, (path, seed)
            decided += fast.decisions > 0
    assert decided >= 10            # (programs with a decision among them)


def test_a_seat_that_is_not_random_keeps_asking_one_at_a_time():
    path = os.path.join(DATA, 'bots', 'three_of_six.pip')
    program, engine = loaded(path)
    for spec in ('first', 'ismcts:4'):
        seats = playing.sim_seating(program, Seating(default=parse_kind('random'),
                                                     specs={1: parse_kind(spec)}))
        fast, slow, taken = both(engine, seats, 5)
        assert taken == [False] and fast.decisions > 0
        # (a thinking seat's seconds are the clock's)
        assert (attrs.evolve(fast, thinking=[t[:3] for t in fast.thinking])
                == attrs.evolve(slow, thinking=[t[:3] for t in slow.thinking]))


def test_the_reference_keeps_its_own_path():
    path = os.path.join(ROOT, 'examples', 'crazy_eights.pip')
    program, reference = loaded(path, 'reference')
    _, compiled = loaded(path)
    seats = playing.sim_seating(program, seating(bots='random'))
    for seed in (1, 2):
        assert (playing.play_one(reference, seats, seed)
                == playing.play_one(compiled, seats, seed))


@pytest.mark.parametrize('compiled', [True, False], ids=['compiled', 'loop'])
def test_the_policy_reads_the_deciding_seat_from_noted(compiled):
    # the interface playing._Drawing.randrange relies on (vm.Machine.start's
    # auto): noted's last two are the decision's options and seat when the
    # policy draws; on the compiled tier a decision answered where it stands
    # makes no pending one (answers.py: making it was a twentieth of an answer)
    from pipvm.engine.vm import Image
    from pipvm.game.game import Game
    program = loader.load_program(os.path.join(ROOT, 'examples', 'crazy_eights.pip'))
    seen = []

    class Policy:
        def __init__(self, machine):
            self.machine, self.noted = machine, []

        def randrange(self, n):
            seen.append((n, self.noted[-2], self.noted[-1], self.machine.pending))
            return n - 1

    game = Game(Image(program, compiled=compiled), seed=3, players=2, names=['a', 'b'],
                quiet=True, max_steps=20000, playing_out=lambda g: Policy(g.machine))
    assert len(seen) == len(game.history) > 10
    assert all(n == options for n, options, _, _ in seen)
    assert {seat for _, _, seat, _ in seen} == {0, 1}
    if compiled:
        assert all(p is None for *_, p in seen)
