"""A quick sweep of the compiled tier's generators (pipvm/engine/actions.py,
fors.py, answers.py, regions.py) over every example: each program's whole
actions (quiet and loud) and every loop's region made up front, then a
watched game and play-outs from a few decisions on the compiled tier, each
the loop's exactly (events or history, ending, the policy's draws, the final
state).  Mutation testing runs it first on these modules' mutants
(tools/mutation_plan.py's QUICK): one example takes a fraction of a second,
and a fault in what they write shows in most examples."""
import glob
import os
import random

import pytest

from pipvm.engine import actions, compiled, regions
from pipvm.engine.vm import Image
from pipvm.game.game import Game
from pipvm.play import loader
from tests.fuzz import harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGRAMS = sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip'))
                  + glob.glob(os.path.join(ROOT, 'examples', 'recycle', '*.recycle')))


def _players(program):
    return program.counts[0] * (program.team_size or 1)


def _all_made(image):
    """Every action's functions (quiet and loud) and every loop's region,
    made now and put in place."""
    actions.prepare(image)
    for loaded in image.codes:
        if loaded.action is not None and loaded.loud_action is None:
            loaded.loud_action = actions.function(loaded, loud=True, pures=image.pure)
    lazy = [compiled.lazy_of(fn) for loaded in image.codes
            for op, _, fn in loaded.instrs + loaded.quiet if compiled.lazy_of(fn)]
    for fn in lazy:
        fn.made()
    for fn in lazy:
        regions.enter(fn.site, fn.index)
    return image


def _ending(g):
    e = g.ending
    return e and (e.kind, e.winner, str(e.error))


def _watched(image, players, seed):
    """A game answered at random (seeded), every message shown, and the
    quiet forks of its first decisions with a choice."""
    g = Game(image, seed=seed, players=players, names=['p%d' % i for i in range(players)])
    rng, forks = random.Random(seed), []
    while g.decision is not None:
        if len(g.decision.options) > 1 and len(forks) < 3:
            forks.append(g.fork(quiet=True))
        g.answer(rng.randrange(len(g.decision.options)))
    return (g.events, _ending(g), harness.snapshot(g.machine)), forks


def _play_outs(forks):
    out, rng = [], random.Random(7)
    for s in forks:
        for steps in (None, 60):
            g = s.fork(quiet=True)
            if steps:
                g.limit_steps(steps)
            g.play_out(rng)
            out.append((g.history, _ending(g), rng.getstate(), harness.snapshot(g.machine),
                        g.machine.steps_left))
    return out


def _run(image, players):
    games, plays = [], []
    for seed in (1, 2):
        game, forks = _watched(image, players, seed)
        games.append(game)
        plays += _play_outs(forks)
    return games, plays


@pytest.mark.parametrize('path', PROGRAMS, ids=lambda p: os.path.basename(p).replace('.', '_'))
def test_every_example_plays_on_the_whole_compiled_tier_as_on_the_loop(path):
    program = loader.load_program(path)
    players = _players(program)
    image = _all_made(Image(program, compiled=True))
    assert any(loaded.action is not None for loaded in image.codes)
    assert not [(loaded.code.name, harness.unheld(fn)) for loaded in image.codes
                for fn in (loaded.action, loaded.loud_action) if fn and harness.unheld(fn)]
    assert _run(image, players) == _run(Image(program), players)
