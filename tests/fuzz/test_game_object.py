"""Fuzzing the game object (pipvm/game/game.py) on generated programs: a fork
taken at any decision plays exactly as the original, and a game nobody
watches plays as a watched one.  Views and determinization: test_views.py."""
from hypothesis import event, given, strategies as st

from compiler import frontend
from pipvm.core.dialogue import KINDS
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
    # (the kind is what the views and beliefs read; the transcript never shows it)
    assert {e.kind for e in game.events} <= set(KINDS), REPLAY
    assert copy.ending == game.ending or copy.ending.to_json() == game.ending.to_json(), REPLAY
    assert copy.decision == game.decision, REPLAY
    assert harness.snapshot(copy.machine) == harness.snapshot(game.machine), REPLAY


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
