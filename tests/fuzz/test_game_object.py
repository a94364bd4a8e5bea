"""Fuzzing the game object (pipvm/game/game.py) on generated programs: a fork
taken at any decision plays exactly as the original, a game nobody
watches plays as a watched one, and the object keeps its contract with
drivers (refusals, seats, rewards, play_out).  Views and determinization:
test_views.py."""
import random

from hypothesis import event, given, strategies as st

from compiler.pip import frontend
from pipvm.core import plain
from pipvm.core.dialogue import KINDS
from pipvm.engine import fusion
from pipvm.engine.bodies import LOUD
from pipvm.engine.vm import Image
from pipvm.game.game import COUNT, NAME, Game
from pipvm.game.kinds import ACTION
from pipvm.isa import pipc
from pipvm.isa.opcodes import OP
from pipvm.core.rng import OCamlRandom
from pipvm.core.runtime import PROPERTY_NAMES, to_str

from . import harness
from .budget import fuzz
from .programs import cases
from .test_fuzz import REPLAY

QUIET_OPS = {OP.QUIET_MESSAGE, OP.QUIET_LOOP, OP.QUIET_FOR}


def start(case, image):
    """A game of the case, from its program loaded once (harness.vm_image:
    loading costs as much as playing)."""
    return Game(image, rng=OCamlRandom(case.seed), max_steps=harness.MAX_STEPS)


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


def decisions_in(case, image):
    game = start(case, image)
    return len(case.answers) - len(feed(game, case.answers))


@fuzz
@given(cases(), st.integers(min_value=0))
def test_a_fork_at_any_decision_plays_as_the_original(case, where):
    image = harness.vm_image(frontend.check_text(case.source))
    n = decisions_in(case, image)
    answers = list(case.answers)
    game = start(case, image)
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
    sites, shown, fused = [], set(), set()
    for k, code in enumerate(program.codes):
        if code.kind != 'action':
            continue
        decoded = pipc.decode(code.code)
        sites += [(k, ins) for ins in decoded if ins.op.name in ('STORE_LOCAL', 'FOR_NEXT')]
        # the locals a superinstruction reads (x += 1, x->hand->size...)
        fused |= {(k, ins.args[0]) for _, parts in fusion.fuse_runs(decoded) if len(parts) > 1
                  for ins in parts if ins.op.name == 'LOAD_LOCAL'}
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
    # nearly half the time a local some message shows (the quiet checks),
    # else mostly one a superinstruction reads (its parts' failures: the
    # fused and plain runs below); hypothesis favours small picks, so a
    # generator of its own spreads them
    rng = random.Random(pick)
    preferred = [(k, ins) for k, ins in sites if (k, ins.args[0]) in shown]
    read = [(k, ins) for k, ins in sites if (k, ins.args[0]) in fused]
    draw = rng.random()
    k, ins = rng.choice(preferred if preferred and draw < 0.45 else
                        read if read and draw < 0.85 else sites)
    code = program.codes[k]
    spare, old = pipc.varint(len(code.local_names)), pipc.varint(ins.args[0])
    if len(spare) != len(old):
        return None
    at = ins.offset + 1
    edited = plain.evolve(code, local_names=list(code.local_names) + ['unset'],
                          code=code.code[:at] + spare + code.code[at + len(old):])
    codes = list(program.codes)
    codes[k] = edited
    return pipc.load(pipc.dump(plain.evolve(program, codes=codes)), '<hand-made>')


@fuzz
@given(cases(), st.integers(min_value=0))
def test_a_quiet_game_plays_as_a_watched_one_with_a_local_left_unset(case, pick):
    """Property 5 on hand-made code: a message or a message-only loop that
    shows a local nobody set (the compiler never leaves one unset) must fail
    quiet where it fails loud, and fused where it fails unfused, and nothing
    else may change."""
    program = unset_local(harness.compile_checked(frontend.check_text(case.source)), pick)
    if program is not None:
        loud, _, _ = play_both(program, case, harness.MAX_STEPS)
        # and loud, the superinstructions against their parts one by one: the
        # same failure at the same part's position (no reference reads a
        # hand-made file, so the plain instructions are the oracle)
        plain = Game(Image(program, fuse=False), rng=OCamlRandom(case.seed),
                     max_steps=harness.MAX_STEPS)
        feed(plain, case.answers)
        assert plain.events == loud.events and plain.decision == loud.decision, REPLAY
        assert plain.ending == loud.ending or plain.ending.to_json() == loud.ending.to_json(), \
            REPLAY
        assert harness.snapshot(plain.machine) == harness.snapshot(loud.machine), REPLAY
        assert plain.machine.steps_left == loud.machine.steps_left, REPLAY
        event('ending: %s' % (loud.ending.kind if loud.ending else 'still playing'))


class _OwnRandrange(random.Random):
    """A generator with a randrange of its own (it draws the other way
    round), which play_out must call: random.Random's own it may bypass
    (game._below)."""

    def randrange(self, n):
        return n - 1 - super().randrange(n)


def _refused(game, choice, message):
    """Answering choice is refused with exactly message, and changes nothing."""
    d, told, answered = game.decision, len(game.events), len(game.history)
    try:
        game.answer(choice)
    except ValueError as e:
        assert str(e) == message, (str(e), message, REPLAY)
    else:
        raise AssertionError('%r was not refused at %r; %s' % (choice, d, REPLAY))
    assert (game.decision, len(game.events), len(game.history)) == (d, told, answered), REPLAY


def _refusals(game):
    """Answers a driver may send wrongly (a web client, a script)."""
    d = game.decision
    if d is None:
        _refused(game, 0, 'the game is not waiting for a decision')
    elif d.kind is NAME:
        _refused(game, 0, 'a name decision takes a string')
    else:
        for bad in (len(d.options), -1, True, '0', None):
            _refused(game, bad, 'choice %r is not one of the %d options' % (bad, len(d.options)))


def _rewards(game):
    """Each seat's reward, as docs/api.md says: 1 to the winner's seat and to
    every member of a winning team, 0 to the others; 1/seats each when
    nobody won, 0 in a one-player game (None: several players or teams of
    the winner's name).  An ending with places: the best 1, the worst 0,
    those between their share; all in one place, as nobody won."""
    n, ending = game.seats, game.ending
    nobody = [1.0 / n] * n if n > 1 else [0.0]
    if ending.places is not None and len(set(ending.places)) > 1:
        order = sorted(set(ending.places))      # the places held, best first
        return [1.0 - order.index(p) / (len(order) - 1) for p in ending.places]
    if ending.kind != 'winner':
        return nobody
    named = [p for p in game.players if p.name == ending.winner]
    if len(named) > 1 or len({to_str(t) for t in game.teams or ()}) < len(game.teams or ()):
        return None
    won = {p.seat for p in named}
    for team in game.teams or ():
        if to_str(team) == ending.winner or won & {p.seat for p in team.members}:
            won |= {p.seat for p in team.members}
    return [float(s in won) for s in range(n)] if won else nobody


def _finish_both(game, seed):
    """(game played out, a fork answered at random in a loop, a quiet fork
    played out): the same draws from generators of the same seed."""
    out, loop, quiet = game.fork(), game.fork(), game.fork(quiet=True)
    make = _OwnRandrange if seed % 2 else random.Random
    rng = make(seed)
    while loop.decision is not None:
        loop.answer(rng.randrange(len(loop.decision.options)))
    return out.play_out(make(seed)), loop, quiet.play_out(make(seed))


def _same_games(a, b):
    assert a.events == b.events and a.history == b.history, REPLAY
    assert a.ending == b.ending or a.ending.to_json() == b.ending.to_json(), REPLAY
    assert harness.snapshot(a.machine) == harness.snapshot(b.machine), REPLAY


def _played_out(game, where):
    """play_out against random answers in a loop, and a quiet fork's."""
    out, loop, quiet = _finish_both(game, where)
    _same_games(out, loop)
    assert quiet.events is None and quiet.machine.events is None, REPLAY
    assert quiet.history == out.history, REPLAY
    assert harness.snapshot(quiet.machine) == harness.snapshot(out.machine), REPLAY


@fuzz
@given(cases(), st.integers(min_value=0))
def test_the_game_object_keeps_its_contract_with_drivers(case, where):
    """What a driver of pipvm/game/game.py relies on beyond the table's
    transcript (test_vm_matches_reference plays the table through it): the
    decision as plain data, a refused answer changes nothing and says why,
    an ended game takes no answer, the seats and the rewards follow the
    ending, `play_out` ends a game as random answers do (from the count
    question too), a quiet fork plays as the game, and a step limit, a
    count and names given when the game is made are those answered later."""
    source = case.source
    if where % 4 == 3:
        # generated games seldom get to a winner: one at once, a player or a team
        who = 'teams->last' if where % 8 == 7 and ' teams of ' in source else 'players->last'
        source = source.replace('Action main {', 'Action main {\n  winner %s.' % who, 1)
    program = harness.compile_checked(frontend.check_text(source))
    # no seed is seed 0; a limit given before the first step is the same limit
    seed = case.seed if case.seed % 3 else 0
    game = Game(program) if seed == 0 else Game(program, seed=seed)
    game.limit_steps(harness.MAX_STEPS)
    same = Game(program, rng=OCamlRandom(seed), max_steps=harness.MAX_STEPS)
    answers = list(case.answers)
    stop = where % (len(answers) + 1)
    if stop == 0:
        # from the count question (play_out answers no name: they are given)
        named = Game(program, seed=seed, names=['N%d' % i for i in range(12)],
                     max_steps=harness.MAX_STEPS)
        _played_out(named, where)
    asked = False
    for k in range(len(answers) + 1):
        _refusals(game)
        d = game.decision
        if d is not None:       # the decision as plain data (docs/api.md), as the web table sends it
            assert d.to_json() == {'id': d.id, 'seat': d.seat, 'kind': d.kind, 'prompt': d.prompt,
                                   'options': list(d.options), 'player': d.player}, REPLAY
            assert d.kind is not COUNT or d.seat == 0, REPLAY      # asked of "the table"
            if d.kind is NAME:      # ("Enter a name for WHO:", the transcript's)
                assert d.waiting_for == 'the name of ' + d.prompt[len('Enter a name for '):-1], \
                    REPLAY
        if k == stop and (d is None or d.kind not in (NAME, COUNT)):
            _played_out(game, where)
        elif d is not None and d.kind is ACTION and not asked:
            # asks are rare (each uses an answer): every game that has one is
            # played out from its first too, where the machine answers an ask
            # and jumps to the branch itself
            _played_out(game, where)
            asked = True
        if k == len(answers) or d is None:
            break
        feed(game, answers[k:k + 1])
        feed(same, answers[k:k + 1])
    _same_games(game, same)
    assert game.machine.steps_left == same.machine.steps_left, REPLAY
    if game.seats is not None and len(game.names) == game.seats:
        # the count and the names given when the game is made, as answered
        given = Game(program, seed=seed, players=game.seats,
                     names=[game.names[s] for s in range(game.seats)], max_steps=harness.MAX_STEPS)
        played = [choice for choice, _ in game.history[1:] if type(choice) is not str]
        for choice in played:
            given.answer(choice)
        d = game.decision           # (the set-up's answers fewer before it)
        assert given.events == game.events, REPLAY
        assert given.decision == (d and d._replace(id=len(played))), REPLAY
        assert harness.snapshot(given.machine) == harness.snapshot(game.machine), REPLAY
    if game.players:
        assert game.seats == len(game.players) == len({p.seat for p in game.players}), REPLAY
        # the teams as seated, unless the program gave a team other members
        # (`t->members = ...`: a player's `team` it may set, which changes none)
        if program.team_size and not _stores_members(program):
            assert sorted(p.seat for t in game.teams for p in t.members) == \
                list(range(game.seats)), REPLAY
    if game.ending is not None:
        expected = _rewards(game)
        assert expected is None or game.returns() == expected, REPLAY
        event('ending: %s' % game.ending.kind)
    else:
        event('ending: still playing')


MEMBERS = PROPERTY_NAMES.index('members')


def _stores_members(program):
    """Does any code of program store a team's members (STORE_PROP members)?"""
    return any(ins.op.name == 'STORE_PROP' and ins.args[0] == MEMBERS
               for code in program.codes for ins in pipc.decode(code.code))
