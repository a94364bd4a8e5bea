"""No seat is shown a card the view oracle (view_oracle.py, written from the
declared areas alone) says it cannot know (issue 58): at every decision of
a generated game and at its end, for every seat and a spectator, the cards
of view(seat)'s hands and areas are in sight of the seat now, and every
card its view names (its log included), its web table's frame (the whole
view a browser is sent, pipvm/web/table.py) and every card determinization
takes as seen by it (determinize.real_trace, a belief's input, at the end)
is one it may know by then.  The game is played through a web table's own
Game, answered as the table applies an answer."""
import json
from unittest import mock

from hypothesis import given

from compiler.pip import frontend
from pipvm.game import determinize, view
from pipvm.game.game import Game
from pipvm.web import table as web_table

from . import harness, view_oracle
from .budget import fuzz
from .programs import cases
from .test_fuzz import REPLAY


def shown_now(data):
    """The card names a view shows as in sight: hands and areas."""
    return ({c for p in data['players'] for c in p.get('hand', ())}
            | {c for a in data['areas'] for c in a.get('cards', ())})


def judge(table, oracle, beliefs=False):
    game = table.game
    seats = list(range(game.seats or 0)) + [view_oracle.SPECTATOR]
    for seat in seats:
        data = view.view(game, seat)
        leaked = shown_now(data) - oracle.in_sight(seat)
        assert not leaked, ('seat %r sees %s, not in sight' % (seat, sorted(leaked)), REPLAY)
        leaked = oracle.unseen(seat, data)
        assert not leaked, ('seat %r is told %s, which it cannot know' % (seat, sorted(leaked)),
                            REPLAY)
        frame = json.loads(table.frame(seat, None)[0])
        leaked = oracle.unseen(seat, frame)
        assert not leaked, ('the web frame of seat %r names %s, which it cannot know'
                            % (seat, sorted(leaked)), REPLAY)
        if beliefs and seat is not None and game.history:
            seen = {view_oracle.CARD_NAMES[i] for i in determinize.real_trace(game, seat)[1]}
            leaked = seen - oracle.may_know(seat)
            assert not leaked, ('a belief of seat %r takes %s as seen' % (seat, sorted(leaked)),
                                REPLAY)


@fuzz
@given(cases())
def test_no_seat_is_shown_a_card_the_view_oracle_says_it_cannot_know(case):
    image = harness.vm_image(frontend.check_text(case.source))
    # the table's game from the program loaded once (loading costs as much as playing)
    with mock.patch.object(web_table, 'Game', lambda program, **kw: Game(image, **kw)):
        table = web_table.Table(image.program, seed=case.seed, max_steps=harness.MAX_STEPS)
    game = table.game
    oracle = view_oracle.watch(game)
    answers = list(case.answers)
    while answers and game.decision is not None:
        judge(table, oracle)
        a, d = answers.pop(0), game.decision
        if d.kind == 'name':
            table._apply(d, a if isinstance(a, str) else 'P%d' % a, save=False)
        elif isinstance(a, int):
            table._apply(d, a % len(d.options), save=False)
        elif a in d.options:
            table._apply(d, d.options.index(a), save=False)
    judge(table, oracle, beliefs=True)
