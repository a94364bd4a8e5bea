"""A whole action's function holds only the starts control can enter
(pipvm/engine/reach.py): its entries and the targets of the jumps it can
reach, not the loud code its quiet instructions skip, nor where their
statements end (the run goes on there); and it plays as the loop does."""
import os

from pipvm.engine import actions, reach
from pipvm.engine.vm import Image
from pipvm.isa.opcodes import BY_CODE, OP
from pipvm.play import loader
from tests.test_actions import _play_outs
from tests.test_compiled_playouts import ROOT

GAME = os.path.join(ROOT, 'tests', 'data', 'full', 'crazy_eights.pip')


def _turn():
    program = loader.load_program(GAME)
    image = Image(program, compiled=True)
    actions.prepare(image)
    loaded = next(l for l in image.codes if l.code.name == 'turn')
    return program, loaded


def test_a_function_s_starts_are_its_entries_and_the_jumps_it_can_reach():
    _, loaded = _turn()
    quiet = loaded.plain[1]
    names = [BY_CODE[op].name for op, _, _ in quiet]
    skipped = {i for i, (op, arg, _) in enumerate(quiet) if names[i] == 'QUIET_FOR'}
    (k,) = skipped
    after = quiet[k][1][-1]
    # the hand's loop in the loud code (its head and its JUMP back) and
    # where the quiet loop goes on: none is a start any more
    loop = {i for i in range(k + 1, after) if names[i] in ('QUIET_LOOP', 'JUMP')}
    assert loop and not (loop | {after}) & loaded.action.entries
    # the loop's head, the calls' entry, and after the ASK (a frame paused
    # there before a playout goes on there) are
    assert {0, 8, 41} <= loaded.action.entries
    assert names[40] == 'ASK'


def test_what_is_left_out_plays_as_in_the_loop():
    program, _ = _turn()
    (loop, loop_ran), (tier, tier_ran) = _play_outs(program, seeds=(1, 2, 3))
    assert tier_ran and tier == loop


def test_successors_unknown_leave_every_start():
    jump = (OP.JUMP, 2, None)
    ret = (OP.RETURN, (), None)
    # a JUMP's target is a start; the code after it is not reached
    assert reach.jumped_to([jump, ret, ret], {0}) == {2}
    # a quiet instruction going on where the handler says: unknown
    quiet = (next(iter(actions.QUIET)), (1, None), None)
    assert reach.jumped_to([quiet, ret], {0}) is None
    # an ASK's answer goes on at its JUMPs: each one is a start
    ask = (OP.ASK, (2, 1), None)
    assert reach.jumped_to([ask, (OP.JUMP, 3, None), (OP.JUMP, 4, None), ret, ret], {0}) == {
        1, 2, 3, 4}


def test_a_run_written_again_is_composed_once(monkeypatch):
    # a jump's run written where it jumps takes its text from the first
    # writing, its operands renumbered (the playouts above: the same game)
    from pipvm.engine import answers
    composed, grouped = [], []
    jumped, group = answers.jumped, actions._Writer.group
    monkeypatch.setattr(answers, 'jumped', lambda text, writer, indexes: (
        composed.append((id(writer), tuple(indexes))), jumped(text, writer, indexes))[1])
    monkeypatch.setattr(actions._Writer, 'group', lambda self, indexes, indent: (
        grouped.append((id(self), tuple(indexes))), group(self, indexes, indent))[1])
    _, loaded = _turn()
    assert len(grouped) > len(set(grouped)) and len(composed) == len(set(composed))
    assert set(composed) == set(grouped)
