"""What tools/mutation.py's campaign on pipvm/engine/pure.py left alive
(tools/mutation-results/pure.tsv): the compiled tier's side of a Pure
(translate's generate, _made's rule, _Unwritten: each generated function
written once, at its first call or by written/hand_written, the closures
where the writer gives up), Pure.filter called on it directly, and
translate's default (the closures alone)."""
import pytest

from compiler.pip import frontend
from pipvm.core.runtime import SUITS
from pipvm.engine import pure, rules, vm
from pipvm.game.game import Game
from pipvm.isa import pipc

SOURCE = '''Game "g" requires 2 players.
Deck d = standard.
Area pile labeled "Pile".
Boolean must.
Suit led.
Rule follows(p, c, cl) = not must or c->suit == led.
Rule same(p, c, cl) = c->rank == cl->top->rank or c->suit == led.
Ordering suits(h) = [%~C; %~H; %~S; %~D].
Action main { shuffle d. deal 8 from d to players. }
'''


def _machine(compiled):
    program = pipc.load(pipc.dump(frontend.compile_text(SOURCE)), 'x')
    return Game(vm.Image(program, compiled=compiled), seed=3, players=2, names=['A', 'B']).machine


def _index(m, name):
    return next(i for i, c in enumerate(m.image.program.codes) if c.name == name)


def _by_loop(m, rule, player, dest):
    code = m.image.codes[rule]
    pad = [None] * (code.frame_size - 3)
    return [c for c in list(player.hand) if m._run(code, 0, [], [player, c, dest] + pad, None)]


def _unwritten(fn):
    return type(getattr(fn, '__self__', None)) is pure._Unwritten


def _settings(m):
    """Each setting of the globals follows reads (must, led), as (True, led)
    leaves some but not all of the first player's cards."""
    must, led = m.image.program.global_names.index('must'), m.image.program.global_names.index('led')
    for values in ((True, SUITS[0]), (True, SUITS[2]), (False, SUITS[1])):
        m.globals[must], m.globals[led] = values
        yield values


def test_translate_makes_the_closures_alone_unless_asked_to_generate():
    # translate's default generate=False: the closure itself, no filter of a hand
    m = _machine(False)
    program, k = m.image.program, _index(m, 'follows')
    fast = pure.translate(program.codes[k], program, ())
    assert fast.hand is None and not _unwritten(fast.fn)
    generated = pure.translate(program.codes[k], program, (), generate=True)
    assert _unwritten(generated.fn) and _unwritten(generated.hand)


def test_written_gives_a_rule_both_generated_functions_an_ordering_its_value_alone():
    # written: a rule's value and hand filter as source (rules.py), an
    # ordering's value (no filter: _made's rule is the code's kind); the
    # loop's Pure and None come back as they were
    m = _machine(True)
    next(_settings(m))
    player, dest = m.players[0], [m.players[1].hand[0]]
    m.image.pure[_index(m, 'same')].call(m, [player, player.hand[0], dest])    # (its value written)
    for name in ('follows', 'same'):
        fast = pure.written(m.image.pure[_index(m, name)])
        assert hasattr(fast.fn, 'source') and hasattr(fast.hand, 'source'), name
    ordering = pure.written(m.image.pure[_index(m, 'suits')])
    assert hasattr(ordering.fn, 'source') and ordering.hand is None
    code, cards = m.image.codes[_index(m, 'suits')], list(m.players[0].hand)
    loop_value = m._run(code, 0, [], [cards] + [None] * (code.frame_size - 1), None)
    assert ordering.call(m, [cards]) == loop_value
    loop = _machine(False).image.pure[_index(m, 'follows')]
    fn = loop.fn
    assert pure.written(loop) is loop and loop.fn is fn and loop.hand is None
    assert pure.written(None) is None


def test_a_compiled_rule_s_filter_called_directly_gives_the_loop_s_cards():
    # Pure.filter on the compiled tier (its generated filter, written at this
    # first call) takes (machine, player, dest) in that order
    m = _machine(True)
    rule = _index(m, 'follows')
    player, dest = m.players[0], [m.players[1].hand[0]]
    assert _unwritten(m.image.pure[rule].hand)      # (nothing has filtered by it yet)
    for values in _settings(m):
        fast = m.image.pure[rule]
        want = _by_loop(m, rule, player, dest)
        assert fast.filter(m, player, dest) == want, values
        assert not _unwritten(fast.hand)
    assert 0 < len(_by_loop(m, rule, player, dest))


def test_a_written_filter_is_kept_however_often_it_is_asked_for():
    # the filter is written once: its first caller's handle (the unwritten
    # one), written() and hand_written() afterwards leave the same function
    m = _machine(True)
    fast = m.image.pure[_index(m, 'follows')]
    first_call = fast.hand
    assert _unwritten(first_call)
    player, dest = m.players[0], []
    next(_settings(m))
    first_call(m, player, dest)
    hand = fast.hand
    assert hasattr(hand, 'source')
    first_call(m, player, dest)
    pure.hand_written(fast)
    pure.written(fast)
    assert fast.hand is hand


def test_where_the_writer_gives_up_the_filter_runs_the_closures(monkeypatch):
    # rules.hand_function's None (code it cannot write): the hand filtered by
    # the rule's value card by card, at the first call and, once written,
    # through Pure.filter's settled rules (Shapes), each of them unwritten too
    monkeypatch.setattr(rules, 'hand_function', lambda *args: None)
    m = _machine(True)
    rule = _index(m, 'follows')
    player, dest = m.players[0], [m.players[1].hand[0]]
    fast = m.image.pure[rule]
    assert fast.shapes is not None
    for values in _settings(m):
        want = _by_loop(m, rule, player, dest)
        assert fast.filter(m, player, dest) == want, values     # (the first: unwritten)
        assert fast.hand is None
        assert fast.filter(m, player, dest) == want, values     # (settled rules)


def test_hand_written_writes_the_filter_alone():
    # hand_written (regions' and actions' direct filters): the filter written
    # as at its first call, the value's function left for its own first call
    m = _machine(True)
    fast = m.image.pure[_index(m, 'same')]
    assert pure.hand_written(fast) is fast
    assert hasattr(fast.hand, 'source') and _unwritten(fast.fn)
    hand = fast.hand
    assert pure.hand_written(fast).hand is hand
    loop = _machine(False).image.pure[_index(m, 'same')]
    assert pure.hand_written(loop) is loop and loop.hand is None


def test_the_settled_rules_of_a_compiled_rule_have_generated_filters(monkeypatch):
    # where the writer gives up on the whole rule but not on its settled
    # rules (Shapes), each settled rule that is not a constant is made for
    # the compiled tier as the rule is (_made's rule): filtered by its own
    # generated filter, the loop's cards
    write = rules.hand_function
    m = _machine(True)
    rule = _index(m, 'follows')
    fast = m.image.pure[rule]
    whole = fast.hand.__self__.tree
    monkeypatch.setattr(rules, 'hand_function',
                        lambda tree, *args: None if tree is whole else write(tree, *args))
    pure.hand_written(fast)
    assert fast.hand is None
    player, dest = m.players[0], [m.players[1].hand[0]]
    for values in _settings(m):
        assert fast.filter(m, player, dest) == _by_loop(m, rule, player, dest), values
    settled = [r for r in fast.shapes.by_tests.values() if r.always is None]
    assert settled and all(hasattr(r.hand, 'source') for r in settled)


def test_where_the_writer_gives_up_the_value_runs_the_closure(monkeypatch):
    # rules.value_function's None: the value's function is the translation's
    # closure (kept by _Unwritten), the loop's value
    monkeypatch.setattr(rules, 'value_function', lambda *args: None)
    m = _machine(True)
    next(_settings(m))
    rule = _index(m, 'same')
    fast = m.image.pure[rule]
    player, dest = m.players[0], [m.players[1].hand[0]]
    values = [fast.call(m, [player, card, dest]) for card in player.hand]
    assert callable(fast.fn) and not _unwritten(fast.fn) and not hasattr(fast.fn, 'source')
    assert [c for c, v in zip(player.hand, values) if v] == _by_loop(m, rule, player, dest)


def test_a_written_value_is_kept_however_often_it_is_asked_for():
    # the value's function is written once: its first caller's handle, called
    # again, and written() leave the same function
    m = _machine(True)
    next(_settings(m))
    fast = m.image.pure[_index(m, 'same')]
    first_call = fast.fn
    assert _unwritten(first_call)
    player, dest = m.players[0], [m.players[1].hand[0]]
    env = [player, player.hand[0], dest] + fast.pad + [m]
    first_call(env)
    fn = fast.fn
    assert hasattr(fn, 'source')
    first_call(env)
    pure.written(fast)
    assert fast.fn is fn


def test_a_hand_settled_to_a_constant_runs_no_card_through_the_rule():
    # `not must or ...` with must False: the settled rule allows every card
    # (always), found by the globals' values, without the rule's closure
    m = _machine(False)
    rule = _index(m, 'follows')
    fast = m.image.pure[rule]
    player = m.players[0]
    must = m.image.program.global_names.index('must')
    m.globals[must] = False

    def card_by_card(env):
        raise AssertionError('the rule run card by card')
    fast.fn = card_by_card
    for _ in range(2):      # (settled, then found in by_globals)
        assert fast.filter(m, player, []) == list(player.hand)


def test_filtering_a_hand_writes_the_filter_not_the_value():
    # a rule only PLAY and CANPLAY use never has its value's function
    # written: its first filter is by the generated filter, not card by card
    m = _machine(True)
    next(_settings(m))
    rule = _index(m, 'same')
    fast = m.image.pure[rule]
    player, dest = m.players[0], [m.players[1].hand[0]]
    assert fast.filter(m, player, dest) == _by_loop(m, rule, player, dest)
    assert hasattr(fast.hand, 'source') and _unwritten(fast.fn)


def test_code_that_does_not_decode_is_not_translated():
    # pipc.BadCode (bytes no loader would pass: opcode 255): None, the loop's
    m = _machine(False)
    program, k = m.image.program, _index(m, 'same')
    bad = pipc.Code(program.codes[k].kind, 'bad', program.codes[k].local_names, b'\xff', [])
    with pytest.raises(pipc.BadCode):
        pipc.decoded(bad.code)
    assert pure.translate(bad, program, ()) is None


def test_only_rules_and_orderings_are_translated():
    # an action's code object holding an expression (no loader passes one:
    # it must end in RETURN) is still not translated: None, the loop's
    m = _machine(False)
    program, k = m.image.program, _index(m, 'same')
    same = program.codes[k]
    assert pure.translate(same, program, ()) is not None
    for kind in ('action', 'init'):
        code = pipc.Code(kind, 'x', same.local_names, same.code, same.lines)
        assert pure.translate(code, program, ()) is None, kind
