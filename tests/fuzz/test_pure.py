"""Fuzzing the closures rules and orderings run as (pipvm/engine/pure.py) against
the dispatch loop: every rule and ordering the compiler makes is
translated (an aggregate, an extension, too: its loop is one closure), and
at every evaluation in a generated game the closures give what the loop
gives, or fail where the loop raises an error.  The translation keeps its
contract on shapes (pure_contract.py): the rules settled, by card or as one
closure exactly where pure.py says, and a hand filtered by their shortcuts."""
import contextlib
import random
from unittest import mock

from hypothesis import event, given

from compiler.pip import frontend
from pipvm.engine import pure, vm
from pipvm.isa import pipc
from pipvm.core.errors import Fault, PipError
from pipvm.game.game import Game

from . import hand_made, harness, pure_contract
from .budget import fuzz
from .programs import probed_cases
from .test_fuzz import REPLAY


class Mismatch(AssertionError):
    pass


def both_ways(fast, slow, same_error=False):
    """Run the closures, then the loop; they must agree (a value, or a
    failure where the loop's is a PipError; same_error: the closures'
    failure a Fault or PipError with the loop's message).  The loop's result is used."""
    fault = None
    try:
        got = ('value', fast())
    except Exception as e:
        got = ('failed', type(e).__name__)
        # (a PipError: a rule the closure asked the machine to filter by, on the loop)
        fault = e if isinstance(e, (Fault, PipError)) else None
    try:
        want = ('value', slow())
    except PipError as e:
        if got[0] != 'failed':
            raise Mismatch('closures gave %r where the loop raised an error' % (got,))
        if same_error and (fault is None or fault.message != e.message):
            raise Mismatch('closures failed with %s, the loop with %r' % (
                got[1] if fault is None else repr(fault.message), e.message))
        raise
    if got != want:
        raise Mismatch('closures gave %r, the loop %r' % (got, want))
    return want[1]


class Contract:
    """The contract of the image being played: its pure_contract.Expected
    for each code object, and Shapes.settle's calls."""
    image, expected, settles = None, {}, 0


def counted_settle(self, env):
    Contract.settles += 1
    return SETTLE(self, env)


def checked_playable(self, rule, player, dest):
    if self.image.pure[rule] is None:
        return PLAYABLE(self, rule, player, dest)
    code, fast = self.image.codes[rule], self.image.pure[rule]
    pad = [None] * (code.frame_size - 3)        # (an aggregate's item)
    expected = Contract.expected.get(rule) if self.image is Contract.image else None
    counted, shortcut = None, False
    # (paths None: code the contract does not read, Unchecked; e.g. `defined X`
    # of an X always defined, compiled as X, POP, True: no count is expected)
    if expected is not None and expected.paths is not None:
        env = [player, None, dest] + fast.pad + [self]
        filters, wrong, terms = expected.settle(code.code, fast, self, env, lambda: Contract.settles)
        assert not wrong, (wrong, REPLAY)
        shortcut = filters.always is not None
        if terms is not None and not shortcut:
            # the Xs once for the hand (unless one fails: then card by card)
            want = pure_contract.card_tests(terms, env)
            try:
                got = filters.by_card(env)
            except Exception:
                got = None
            assert got == want, ('%s: by card %r, expected %r' % (code.code.name, got, want), REPLAY)
            shortcut = want is not None
        counted = pure_contract.Counted(filters)
    try:
        cards = both_ways(lambda: fast.filter(self, player, dest),
                          lambda: [c for c in list(player.hand)
                                   if self._run(code, 0, [], [player, c, dest] + pad, None)])
    finally:
        if counted is not None:
            counted.restore()
    if counted is not None:
        want = 0 if shortcut else len(player.hand)
        assert counted.calls == want, ('%s %s: its closure ran %d times, expected %d'
                                       % (code.code.kind, code.code.name, counted.calls, want), REPLAY)
    return cards


def checked_evaluate(self, index, args):
    fast = self.image.pure[index]
    if fast is None:
        return EVALUATE(self, index, args)
    code = self.image.codes[index]
    pad = [None] * (code.frame_size - len(args))
    return both_ways(lambda: fast.call(self, list(args)),
                     lambda: self._run(code, 0, [], list(args) + pad, None))


PLAYABLE, EVALUATE = vm.Machine.playable, vm.Machine.evaluate


@contextlib.contextmanager
def closures_checked(wrap=lambda check: check):
    """Every rule and ordering run by its closures and checked against the
    loop where it is evaluated (a failed check ends the game as invalid
    bytecode); wrap: what each check is wrapped in (a counter)."""
    with mock.patch.object(vm.Machine, 'playable', wrap(checked_playable)), \
            mock.patch.object(vm.Machine, 'evaluate', wrap(checked_evaluate)):
        yield

SETTLE = pure.Shapes.settle
AGGREGATES = {'AGG_START', 'PICK_BY'}      # an aggregate's instructions (the extension)


def aggregates(code):
    return any(ins.op.name in AGGREGATES for ins in pipc.decode(code.code))


def probing(probes):
    """Game.answer that first evaluates each probe rule (Builder.probes: the
    indexes of rules no game plays) by its closures and on the loop, for the
    deciding player, a few cards and where the decision plays to: a card
    at a time and as a hand's filter.  What evaluating may change (the
    steps left, the last canplay's cards) is put back."""
    def answer(game, choice):
        m = game.machine
        if m.pending is not None:
            player = m.pending.player
            dest = getattr(m.pending, 'dest', None)
            dest = player.hand if dest is None else dest
            cards = player.hand[:1] + player.hand[-1:] + [m.deck[len(game.history) % len(m.deck)]]
            kept = m.steps_left, m.canplay_found
            for index in probes:
                code, fast = m.image.codes[index], m.image.pure[index]
                pad = [None] * (code.frame_size - 3)
                checks = [(lambda c=c: fast.call(m, [player, c, dest]),
                           lambda c=c: m._run(code, 0, [], [player, c, dest] + pad, None))
                          for c in cards]
                checks.append((lambda: fast.filter(m, player, dest),
                               lambda: [c for c in list(player.hand)
                                        if m._run(code, 0, [], [player, c, dest] + pad, None)]))
                for closures, loop in checks:
                    try:
                        both_ways(closures, loop, same_error=True)
                    except PipError:
                        pass
            m.steps_left, m.canplay_found = kept
        return ANSWER(game, choice)
    return answer


ANSWER = Game.answer


@fuzz
@given(probed_cases())
def test_closures_match_the_loop(case):
    checked = frontend.check_text(case.source)
    program = harness.compile_checked(checked)
    image = vm.Image(program)
    probe_codes = [i for i, c in enumerate(program.codes) if c.kind == 'rule' and c.name.startswith('z')]
    Contract.image, Contract.expected = image, {}
    for index, (code, fast) in enumerate(zip(program.codes, image.pure)):
        if code.kind in ('rule', 'ordering'):
            assert fast is not None, ('%s %s: not translated' % (code.kind, code.name), REPLAY)
            if aggregates(code):
                event('a %s with an aggregate' % code.kind)
            expected = Contract.expected[index] = pure_contract.Expected(code, program, image.card_consts)
            wrong = expected.violations(code, fast)
            assert not wrong, (wrong, REPLAY)
    with closures_checked(), mock.patch.object(pure.Shapes, 'settle', counted_settle), \
            mock.patch.object(Game, 'answer', probing(probe_codes)):
        outcome = harness.run(harness.image_engine(image), case.seed, case.answers)
    # (the loop turns a Python error into this ending: a check's own error, too)
    assert 'invalid bytecode' not in outcome.ending, (outcome.ending, REPLAY)
    # 1d: the rules and orderings as a hand-made file may hold them, other
    # code for the same values (hand_made.py): the same game, the closures
    # (where they translate) giving the loop's values
    rng = random.Random(case.seed)
    image = vm.Image(hand_made.rewritten(program, rng.randrange))
    Contract.image = None
    for code, fast in zip(image.program.codes, image.pure):
        if code.kind in ('rule', 'ordering'):
            assert fast is not None, ('hand-made %s %s: not translated' % (code.kind, code.name), REPLAY)
    with closures_checked():
        again = harness.run(harness.image_engine(image), case.seed, case.answers)
    assert again == outcome, ('the hand-made rules played otherwise', REPLAY)
    event('ending: %s' % outcome.ending.split(':')[0][:40])


def test_the_contract_reads_a_card_constant_as_no_condition():
    # `g1 == Four~D` compares a Card global with a card's constant: pure.py
    # settles no condition on a card (pure._on_globals), and the contract
    # once read the constant's index as a plain value (fuzz seed 24:
    # "1 conditions, not settled")
    source = ('Game "Z" requires 2 players.\nDeck stock = standard.\nCard g1 = A~C.\n'
              'Number n = 3.\n'
              'Rule z1(p, c, d) = (g1 == Four~D) and (c->rank == 3).\n'
              'Rule z2(p, c, d) = (n == 3) and (c->rank == 3).\n'
              'Action main {\n  shuffle stock.\n}\n')
    program = harness.compile_checked(frontend.check_text(source))
    image = vm.Image(program)
    got = {}
    for code, fast in zip(program.codes, image.pure):
        if code.kind == 'rule':
            expected = pure_contract.Expected(code, program, image.card_consts)
            assert expected.violations(code, fast) == [], code.name
            got[code.name] = (len(expected.conditions), fast.shapes is not None)
    assert got == {'z1': (0, False), 'z2': (1, True)}
