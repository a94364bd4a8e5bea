"""No seat of a RECYCLE game is shown a card seed 001's visibility says it
cannot know (issue 58; recycle_view_oracle.py, read from RECYCLE's
reference interpreter): at every decision of a game the VM plays from the
lowered program, for every seat and a spectator, the cards of view(seat)'s
hands and areas are ones it sees now, every card its view (log included)
and its web frame name is one it may know by then, and at the end so is
every card determinization takes as seen by it (determinize.real_trace, a
belief's input).  On generated programs (recycle_programs.py) and on every
example of examples/recycle/, answered at random."""
import json
import os
import random
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, seed, settings, strategies as st

from compiler.recycle import places
from compiler.recycle.language import check
from pipvm.core.errors import PipError
from pipvm.game import determinize, view
from pipvm.game.game import Game
from pipvm.web import table as web_table

from . import harness, recycle_view_oracle
from ..privacy import CARD_NAMES, named
from .budget import EXAMPLES, SEED
from .recycle_programs import recycle_programs
from .test_fuzz import REPLAY
from .test_view_oracle import shown_now

EXAMPLES_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), 'examples', 'recycle')
GAMES = sorted(f for f in os.listdir(EXAMPLES_DIR) if f.endswith('.recycle'))
DECISIONS = 120         # an example's decisions judged: its first (the longer games have hundreds)
# Generated programs: half the Pip properties' budget (each is a whole game, if small).
GENERATED = max(5, EXAMPLES // 2)
STEPS = 10 ** 6      # a game that runs away fails here rather than hang (the engines count steps apart)


def play(source, seed, answers_seed, decisions):
    """The VM's game of a RECYCLE source answered at random (at most
    `decisions` answers): at each decision and at the end, every seat's
    view and web frame; then the checks against the oracle."""
    try:
        recycled = check(source)
    except PipError:
        return                  # the checker refused it (test_recycle_fuzz.py): nothing to play
    image = harness.vm_image(recycled.program)
    with mock.patch.object(web_table, 'Game', lambda program, **kw: Game(image, **kw)):
        table = web_table.Table(image.program, seed=seed, max_steps=STEPS)
    game = table.game
    rng = random.Random(answers_seed)
    seen = []           # at each decision: {seat: (view, frame)}
    while True:
        seats = list(range(game.seats or 0)) + [None]
        seen.append({s: (view.view(game, s), json.loads(table.frame(s, None)[0])) for s in seats})
        d = game.decision
        if d is None or len(game.history) >= decisions:
            break
        table._apply(d, 'P%d' % len(game.history) if d.kind == 'name'
                     else rng.randrange(len(d.options)), save=False)
    notes = recycle_view_oracle.knowledge(recycled, seed, game.history, game.seats)
    assert len(notes) == len(seen), ('the reference asked otherwise', len(notes), len(seen))
    for k, (at, (known, sight)) in enumerate(zip(seen, notes)):
        for s, (v, frame) in at.items():
            leaked = shown_now(v) - sight[s]
            assert not leaked, ('decision %d: seat %r sees %s, which it cannot see'
                                % (k, s, sorted(leaked)), REPLAY)
            leaked = named(json.dumps(v)) - known[s]
            assert not leaked, ('decision %d: seat %r is told %s, which it cannot know'
                                % (k, s, sorted(leaked)), REPLAY)
            leaked = named(json.dumps(frame)) - known[s]
            assert not leaked, ('decision %d: the web frame of seat %r names %s, which it '
                                'cannot know' % (k, s, sorted(leaked)), REPLAY)
    known = notes[-1][0]
    for s in range(game.seats or 0):
        if game.history:
            leaked = {CARD_NAMES[i] for i in determinize.real_trace(game, s)[1]} - known[s]
            assert not leaked, ('a belief of seat %r takes %s as seen' % (s, sorted(leaked)), REPLAY)


@settings(max_examples=GENERATED, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@seed(SEED)
@given(source=recycle_programs(), seed=st.integers(1, 1000), answers=st.integers(0, 2 ** 32))
def test_no_seat_of_a_generated_recycle_game_is_shown_what_the_seed_hides(source, seed, answers):
    play(source, seed, answers, DECISIONS)


@pytest.mark.parametrize('name', GAMES)
def test_no_seat_of_a_recycle_example_is_shown_what_the_seed_hides(name):
    with open(os.path.join(EXAMPLES_DIR, name), encoding='latin-1') as f:
        source = f.read()
    for seed in (1, 2):
        play(source, seed, seed, DECISIONS)


def test_a_hidden_location_shown_is_caught(monkeypatch):
    """The lowering slipped: every location becomes a face-up area (a game
    iloc, a player's hloc...).  The oracle says so on the examples."""
    area = places.Layout.area
    monkeypatch.setattr(places.Layout, 'area', lambda self, name, label, facedown, pos:
                        area(self, name, label, False, pos))
    with pytest.raises(AssertionError, match='cannot see'):
        for name in GAMES:
            with open(os.path.join(EXAMPLES_DIR, name), encoding='latin-1') as f:
                play(f.read(), 1, 1, 10)
