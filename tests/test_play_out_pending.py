"""Game.play_out from a decision already pending (a bot's playout from a
fork): the machine answers that decision first (Machine._answer_auto),
then every later one where it stands; the same game, and the same draws,
as answering rng.randrange(len(options)) at each decision, whatever the
pending decision's kind (a card, a question, a set), on every engine."""
import os
import random

import pytest

from pipvm.game.game import Game
from pipvm.engine.vm import Image
from pipvm.game.kinds import ACTION, CARD, SETS
from pipvm.play import loader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# (a game whose decisions include each kind)
GAMES = {CARD: 'oh_hell.pip', ACTION: 'oh_hell.pip', SETS: 'president_sets.pip'}


def _pending(path, engine, kind, seed):
    """A fork of a game at its first decision of kind with more than one option."""
    program = loader.load_program(path)
    image = Image(program, compiled=engine == 'compiled')
    players = program.counts[0] * (program.team_size or 1)
    g = Game(image, seed=seed, players=players, names=['P%d' % i for i in range(players)],
             quiet=True)
    rng = random.Random(seed)
    while g.decision is not None:
        d = g.decision
        if d.kind is kind and len(d.options) > 1:
            return g.fork(quiet=True)
        g.answer(rng.randrange(len(d.options)))
    raise AssertionError('no %s decision' % kind)


def _one_at_a_time(g, rng):
    while g.decision is not None:
        g.answer(rng.randrange(len(g.decision.options)))
    return g


@pytest.mark.parametrize('engine', ['compiled', 'loop'])
@pytest.mark.parametrize('kind', [CARD, ACTION, SETS], ids=['card', 'action', 'sets'])
def test_a_playout_from_a_pending_decision_is_the_game_answered_one_at_a_time(kind, engine):
    path = os.path.join(ROOT, 'examples', GAMES[kind])
    for seed in (1, 2, 3):
        start = _pending(path, engine, kind, seed)
        fast = start.fork(quiet=True).play_out(random.Random(seed + 10))
        slow = _one_at_a_time(start.fork(quiet=True), random.Random(seed + 10))
        assert fast.history == slow.history, (kind, seed)
        assert len(fast.history) > len(start.history)
        assert (fast.ending.kind, fast.ending.winner) == (slow.ending.kind, slow.ending.winner)
        assert fast.returns() == slow.returns()
