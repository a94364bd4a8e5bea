"""Property-based fuzzing: random well-typed programs through the whole
toolchain, the VM checked against the reference interpreter (and the
compiled tier against the VM).

The budget and seed come from the environment (see tests/fuzz/budget.py);
CI uses a fresh seed each run and prints it in the session header.
"""
import os
import random
import tempfile

import attrs
from hypothesis import given

from compiler.pip import frontend, parser
from pipvm.engine import actions
from pipvm.engine.vm import Image
from pipvm.game.game import NAME, Game

from ..util import run_cli
from . import fusion_contract, harness, quiet_contract
from .budget import SEED, fuzz
from .programs import broken_sources, cases, sources

REPLAY = 'replay with: PIPVM_FUZZ_SEED=%d python -m pytest tests/fuzz' % SEED


@fuzz
@given(sources())
def test_generated_programs_check(source):
    frontend.check_text(source)          # a PipError here is a generator bug


@fuzz
@given(cases())
def test_vm_matches_reference(case):
    checked = frontend.check_text(case.source)
    image = harness.vm_image(checked)
    # What the VM runs is the file's code fused and rewritten as fusion.py's
    # contract says: the games below cannot show a fusion or a rewrite lost.
    broken = fusion_contract.violations(image)
    assert not broken, (broken[:5], REPLAY)
    # and its quiet variant as quiet.py's: a statement left loud shows nothing either
    broken = quiet_contract.violations(image)
    assert not broken, (broken[:5], REPLAY)
    vm_run = harness.run(harness.image_engine(image), case.seed, case.answers)
    ref_run = harness.run(harness.reference_engine(checked), case.seed, case.answers)
    assert vm_run.transcript == ref_run.transcript, REPLAY
    assert vm_run.told == ref_run.told, ('who is told what', REPLAY)
    assert vm_run.ending == ref_run.ending, REPLAY
    assert vm_run.state == ref_run.state, REPLAY
    assert vm_run.steps == ref_run.steps, REPLAY
    # the compiled tier (--engine compiled) plays the same game as the loop
    compiled = harness.image_engine(harness.Image(image.program, compiled=True))
    assert harness.run(compiled, case.seed, case.answers) == vm_run, REPLAY
    used = harness.MAX_STEPS - vm_run.steps
    if case.seed % 4 == 0 and vm_run.ending != 'step limit' and used > 0:
        # the limit's edge: a game given exactly the steps it takes ends as
        # it did; one step fewer, at the limit
        exact = harness.run(harness.image_engine(image, used), case.seed, case.answers)
        assert exact == attrs.evolve(vm_run, steps=0), REPLAY
        cut = harness.run(harness.image_engine(image, used - 1), case.seed, case.answers)
        assert cut.ending == 'step limit', REPLAY


@fuzz
@given(cases())
def test_playouts_on_the_compiled_tier_are_the_loop_s(case):
    # play-out mode (Machine.play_out: a bot's playouts), where the compiled
    # tier runs each called action as one function (pipvm/engine/actions.py):
    # the same answers, draws, ending, state and steps as the loop's
    program = harness.compile_checked(frontend.check_text(case.source))
    players = program.counts[0] * (program.team_size or 1)
    outs = []
    for compiled in (False, True):
        image = Image(program, compiled=compiled)
        if compiled:
            # (a pc its tree does not hold loops for good: say so, not run out of memory)
            actions.prepare(image)
            assert not [harness.unheld(c.action) for c in image.codes
                        if c.action and harness.unheld(c.action)], REPLAY
        g = Game(image, seed=case.seed, players=players,
                 names=['P%d' % i for i in range(players)], max_steps=harness.MAX_STEPS,
                 quiet=True)
        rng = random.Random(case.seed)
        if g.decision is not None and g.decision.kind is not NAME:
            g.play_out(rng)
        e = g.ending
        outs.append((g.history, e and (e.kind, e.winner, str(e.error)), rng.getstate(),
                     harness.snapshot(g.machine), g.machine.steps_left))
    assert outs[1] == outs[0], REPLAY


@fuzz
@given(sources())
def test_parse_output_parses_back_to_the_same_tree(source):
    printed = frontend.print_text(source)
    assert parser.parse(printed) == parser.parse(source), REPLAY
    assert frontend.print_text(printed) == printed, REPLAY


@fuzz
@given(broken_sources())
def test_broken_programs_get_one_error_line(source):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'broken.pip')
        with open(path, 'w', encoding='latin-1') as f:
            f.write(source)
        status, out = run_cli(['check', path])
    assert status == 1, REPLAY
    assert out.startswith(b'Error: ') and out.count(b'\n') == 1, (out, REPLAY)
