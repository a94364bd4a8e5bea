"""Fuzzing the game object (pipvm/game/game.py) on generated programs: a fork
taken at any decision plays exactly as the original, and a game nobody
watches plays as a watched one.  Views and determinization: test_views.py."""
import random

import attrs
from hypothesis import event, given, strategies as st

from compiler import frontend
from pipvm.core.dialogue import KINDS
from pipvm.engine.bodies import LOUD
from pipvm.engine.vm import Image
from pipvm.game.game import NAME, Game
from pipvm.isa import pipc
from pipvm.isa.opcodes import OP
from pipvm.core.rng import OCamlRandom

from . import harness
from .budget import fuzz
from .programs import cases
from .test_fuzz import REPLAY

QUIET_OPS = {OP.QUIET_MESSAGE, OP.QUIET_LOOP, OP.QUIET_FOR}


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


def handbacks(image):
    """Wrap the quiet instructions' handlers of image (pipvm/engine/quiet.py)
    so that each time one hands its statement back to the loud code (LOUD)
    is counted: [count]."""
    count = [0]
    for loaded in image.codes:
        if loaded.quiet is loaded.instrs:
            continue
        for i, (op, arg, handler) in enumerate(loaded.quiet):
            if op in QUIET_OPS and handler is not None:
                def spy(machine, stack, frame, arg, handler=handler):
                    target = handler(machine, stack, frame, arg)
                    count[0] += target is LOUD
                    return target
                loaded.quiet[i] = (op, arg, spy)
    return count


def play_both(program, case, max_steps):
    """A watched game and one nobody watches, fed the case's answers one by
    one; they must wait for the same decisions.  (loud, quiet, the quiet
    one's hand-backs to the loud code)"""
    image = Image(program)
    back = handbacks(image)
    loud = Game(program, rng=OCamlRandom(case.seed), max_steps=max_steps)
    quiet = Game(image, rng=OCamlRandom(case.seed), max_steps=max_steps, quiet=True)
    assert quiet.machine.events is None
    for answer in case.answers:
        assert quiet.decision == loud.decision, REPLAY
        feed(loud, [answer])
        feed(quiet, [answer])
    assert quiet.decision == loud.decision, REPLAY
    assert quiet.ending == loud.ending or quiet.ending.to_json() == loud.ending.to_json(), REPLAY
    assert harness.snapshot(quiet.machine) == harness.snapshot(loud.machine), REPLAY
    assert quiet.machine.steps_left == loud.machine.steps_left, REPLAY
    # a quiet instruction hands back only what fails or meets the step limit
    # in the loud code, which ends the game there: handing back more is no
    # error, but the quiet code was not taken where it should have been
    assert back[0] == 0 or back[0] == 1 and quiet.ending is not None and \
        quiet.ending.kind in ('error', 'step limit'), REPLAY
    return loud, quiet, back[0]


@fuzz
@given(cases())
def test_a_quiet_game_plays_as_a_watched_one(case):
    """A game nobody watches runs the quiet variant of the code (pipvm/engine/quiet.py):
    the same decisions, ending (an error at the same place) and state."""
    program = harness.compile_checked(frontend.check_text(case.source))
    loud, _, _ = play_both(program, case, harness.MAX_STEPS)
    used = harness.MAX_STEPS - loud.machine.steps_left
    if case.seed % 4 == 1 and used > 1:
        # a step limit somewhere in the game (in a quiet loop, which must
        # stop where the loud one does); property 2 tries the exact edge
        play_both(program, case, case.seed % used)
    event('ending: %s' % (loud.ending.kind if loud.ending else 'still playing'))


def unset_local(program, pick):
    """program as a file the compiler would not write (a .pipc may come from
    anyone): one of its actions' STORE_LOCAL or FOR_NEXT (pick: an index
    among them) stores into a new slot of its frame instead, so the local it
    set is left undefined (None); through the file format, so the validator
    accepts it.  None if no action has one."""
    sites, shown = [], set()
    for k, code in enumerate(program.codes):
        if code.kind != 'action':
            continue
        decoded = pipc.decode(code.code)
        sites += [(k, ins) for ins in decoded if ins.op.name in ('STORE_LOCAL', 'FOR_NEXT')]
        # the locals a message shows: loaded with only expression parts before the message
        for i, ins in enumerate(decoded):
            if ins.op.name == 'LOAD_LOCAL':
                j = i + 1
                while j < len(decoded) and decoded[j].op.pure:
                    j += 1
                if j < len(decoded) and decoded[j].op.shows:
                    shown.add((k, ins.args[0]))
    if not sites:
        return None
    # mostly a local some message shows (hypothesis favours small picks: a
    # generator of its own spreads them)
    rng = random.Random(pick)
    preferred = [(k, ins) for k, ins in sites if (k, ins.args[0]) in shown]
    k, ins = rng.choice(preferred if preferred and rng.random() < 0.75 else sites)
    code = program.codes[k]
    spare, old = pipc.varint(len(code.local_names)), pipc.varint(ins.args[0])
    if len(spare) != len(old):
        return None
    at = ins.offset + 1
    edited = attrs.evolve(code, local_names=list(code.local_names) + ['unset'],
                          code=code.code[:at] + spare + code.code[at + len(old):])
    codes = list(program.codes)
    codes[k] = edited
    return pipc.load(pipc.dump(attrs.evolve(program, codes=codes)), '<hand-made>')


@fuzz
@given(cases(), st.integers(min_value=0))
def test_a_quiet_game_plays_as_a_watched_one_with_a_local_left_unset(case, pick):
    """Property 5 on hand-made code: a message or a message-only loop that
    shows a local nobody set (the compiler never leaves one unset) must fail
    quiet where it fails loud, and nothing else may change."""
    program = unset_local(harness.compile_checked(frontend.check_text(case.source)), pick)
    if program is not None:
        loud, _, _ = play_both(program, case, harness.MAX_STEPS)
        event('ending: %s' % (loud.ending.kind if loud.ending else 'still playing'))
