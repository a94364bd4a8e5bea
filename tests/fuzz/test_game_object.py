"""Fuzzing the game object (pipvm/game/game.py) on generated programs: a fork
taken at any decision plays exactly as the original, and a determinization
keeps everything its seat has observed."""
import random

from hypothesis import event, given, strategies as st

from compiler import frontend
from pipvm.game.determinize import NoSample, real_trace
from pipvm.game.game import NAME, Game
from pipvm.core.rng import OCamlRandom

from . import harness
from .budget import fuzz
from .programs import cases
from .test_fuzz import REPLAY


def start(case):
    program = harness.compile_checked(frontend.check_text(case.source))
    return Game(program, rng=OCamlRandom(case.seed), max_steps=harness.MAX_STEPS)


def feed(game, answers):
    """Give the game the case's answers as the terminal would (an int picks an
    option, a string must equal one, else it is refused) until they run
    out or the game ends; the answers left."""
    answers = list(answers)
    while answers and game.decision is not None:
        a, d = answers.pop(0), game.decision
        if d.kind is NAME:
            game.answer(a if isinstance(a, str) else 'P%d' % a)
        elif isinstance(a, int):
            game.answer(a % len(d.options))
        elif a in d.options:
            game.answer(d.options.index(a))
    return answers


def decisions_in(case):
    game = start(case)
    return len(case.answers) - len(feed(game, case.answers))


@fuzz
@given(cases(), st.integers(min_value=0))
def test_a_fork_at_any_decision_plays_as_the_original(case, where):
    n = decisions_in(case)
    answers = list(case.answers)
    game = start(case)
    # answer up to a random decision, fork there, and go on in both
    rest = feed(game, answers[:where % (n + 1)]) + answers[where % (n + 1):]
    copy = game.fork()
    feed(game, rest)
    feed(copy, rest)
    assert copy.events == game.events, REPLAY
    assert copy.ending == game.ending or copy.ending.to_json() == game.ending.to_json(), REPLAY
    assert copy.decision == game.decision, REPLAY
    assert harness.snapshot(copy.machine) == harness.snapshot(game.machine), REPLAY


@fuzz
@given(cases(), st.integers(min_value=0), st.integers(min_value=0, max_value=2 ** 32))
def test_a_determinization_keeps_what_its_seat_observed(case, where, seed):
    n = decisions_in(case)
    game = start(case)
    feed(game, list(case.answers)[:where % (n + 1)])
    if game.seats is None:
        return                          # still setting up: nothing dealt to anyone yet
    rng = random.Random(seed)
    for seat in range(game.seats):
        try:
            sample = game.determinize(seat, rng, tries=20)
        except NoSample:
            event('no sample')          # the seat was told too much for 20 tries
            continue
        event('dealt anew' if game.machine.shuffles else 'nothing shuffled')
        assert sample.view(seat) == game.view(seat), REPLAY
        # an answer that played a card the seat did not see may play any card in a sample
        unseen = real_trace(game, seat)[2]
        assert [label for i, (_, label) in enumerate(sample.history) if i not in unseen] \
            == [label for i, (_, label) in enumerate(game.history) if i not in unseen], REPLAY


@fuzz
@given(cases())
def test_a_quiet_game_plays_as_a_watched_one(case):
    """A game nobody watches runs the quiet variant of the code (pipvm/engine/quiet.py):
    the same decisions, ending (an error at the same place) and state."""
    program = harness.compile_checked(frontend.check_text(case.source))
    loud = Game(program, rng=OCamlRandom(case.seed), max_steps=harness.MAX_STEPS)
    quiet = Game(program, rng=OCamlRandom(case.seed), max_steps=harness.MAX_STEPS, quiet=True)
    assert quiet.machine.events is None
    for answer in case.answers:
        assert quiet.decision == loud.decision, REPLAY
        feed(loud, [answer])
        feed(quiet, [answer])
    assert quiet.decision == loud.decision, REPLAY
    assert quiet.ending == loud.ending or quiet.ending.to_json() == loud.ending.to_json(), REPLAY
    assert harness.snapshot(quiet.machine) == harness.snapshot(loud.machine), REPLAY
    assert quiet.machine.steps_left == loud.machine.steps_left, REPLAY
    event('ending: %s' % (loud.ending.kind if loud.ending else 'still playing'))
