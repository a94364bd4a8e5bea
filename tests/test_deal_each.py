"""DEAL_EACH (pipvm/isa/instructions.py, found by fusion.rewrites): a loop
that deals all of each item's cards (`p` or `p->PROP`) to one global runs
at its FOR_ITER all at once where no round could fail or reach the step
limit, and as written where one could: the same cards, the same faults,
the same stopping step, in every engine."""
import types

import pytest

from compiler.pip import frontend
from pipvm.core import runtime
from pipvm.core.errors import Fault, StepLimit
from pipvm.core.rng import OCamlRandom
from pipvm.engine import compiled, generated_cases, vm
from pipvm.isa.opcodes import DEAL_ALL, OP
from tests.fuzz import harness

# both forms, to an Area, to a Deck, and to a player (the pile one of the hands)
EACH = '''Game "Each" requires 3 players.
Deck deck = standard.
Area stock labeled "Stock" is facedown.
Player q.
Action main {
  deal 4 from deck to players.
  for p in players { deal all from p to deck. }
  deal 5 from deck to players.
  for p in players { deal all from p->hand to stock. }
  deal 3 from stock to players.
  q = players->last.
  for p in players { deal all from p to q. }
  for p in players { deal all from p->hand to q. }
  let n be q->hand->size.
  message "{n}".
}
'''


def _program():
    return harness.compile_checked(frontend.check_text(EACH))


def test_both_forms_of_a_dealing_loop_load_as_deal_each():
    image = vm.Image(_program())
    main = image.codes[image.program.main]
    each = [(i, arg) for i, (op, arg, _) in enumerate(main.instrs) if op == OP.DEAL_EACH]
    # (its operands: FOR_NEXT's slot, the global, the loop's end, the property read or None)
    assert [arg[3] for _, arg in each] == [None, 'hand', None, 'hand']
    for i, (slot, g, end, _) in each:
        assert main.instrs[i + 1][:2] == (OP.FOR_NEXT, (slot, end))
        assert main.instrs[end - 1][:2] == (OP.JUMP, i + 1)
        assert main.instrs[i + 3][:2] == (OP.LOAD_GLOBAL, g)
    # fuse False: every instruction alone, no rewrite
    unfused = vm.Image(_program(), fuse=False).codes[image.program.main]
    assert OP.DEAL_EACH not in [op for op, _, _ in unfused.instrs]
    # a DEAL with a count, or to players, is no such loop
    other = harness.compile_checked(frontend.check_text(
        EACH.replace('deal all from p to deck.', 'deal 1 from p to deck.')))
    assert [op for op, _, _ in vm.Image(other).codes[image.program.main].instrs].count(
        OP.DEAL_EACH) == 3


def _state(image, steps, monkeypatch, hot=None):
    """(the cards of every hand and global, the locals, the messages, the
    steps left, how it stopped) of EACH's game run to its end or to the
    step limit."""
    if hot is not None:
        monkeypatch.setattr(compiled, 'HOT', hot)
        compiled._MADE.clear()
    m = vm.Machine(image, OCamlRandom(1), max_steps=steps, events=[])
    players = [runtime.Player(name) for name in ('Ada', 'Ben', 'Cleo')]
    try:
        m.start(players)
        how = 'end'
    except StepLimit:
        how = 'limit'
    cards = [v and [c.name for c in runtime.cards_of(v)] for v in m.globals] + [
        [c.name for c in p.hand] for p in players]
    local = [getattr(v, 'name', v) for v in m.frames[0][3]] if m.frames else None
    compiled._MADE.clear()
    return cards, local, [e.text for e in m.events], m.steps_left, how


@pytest.mark.parametrize('steps', list(range(1, 14)) + [None])
def test_every_engine_stops_where_the_loops_as_written_do(steps, monkeypatch):
    # the step limit before, inside and after each of the four loops
    # (3 rounds each): the same cards, locals and step as with no DEAL_EACH
    # (fuse False), on the loop, on cold blocks and on hot ones (HOT 1)
    written = _state(vm.Image(_program(), fuse=False), steps, monkeypatch)
    assert _state(vm.Image(_program()), steps, monkeypatch) == written
    assert _state(vm.Image(_program(), compiled=True), steps, monkeypatch) == written
    assert _state(vm.Image(_program(), compiled=True), steps, monkeypatch, hot=1) == written
    assert written[-1] == ('end' if steps is None or steps >= 12 else 'limit')


def _rounds(items, prop, dest, m, frame, slot):
    """The loop as written: each round's reads, DEAL all and step."""
    for p in items:
        frame[slot] = p
        if p is None:
            raise Fault('Undefined value')
        source = p if prop is None else getattr(p, prop)
        generated_cases.op_DEAL(m, [source, dest], frame, DEAL_ALL)
        m.steps_left -= 1
        if m.steps_left < 0:
            raise StepLimit(m.max_steps)


def _table():
    players = [runtime.Player('p%d' % i) for i in range(3)]
    for i, p in enumerate(players):
        p.hand[:] = range(10 * i, 10 * i + 3)
        p.stash[:] = range(100 + 10 * i, 100 + 10 * i + 2)
    return players, runtime.Area('deck', [1], False, False)


@pytest.mark.parametrize('steps', range(10))
@pytest.mark.parametrize('prop', [None, 'hand', 'stash', 'name'])
@pytest.mark.parametrize('shape', ['players', 'mixed', 'card', 'none', 'own', 'undefined'])
def test_deal_each_deals_at_once_only_where_the_rounds_would_all_deal(shape, prop, steps):
    # at once: the same cards, item, steps as the rounds as written, and a
    # jump past the loop; where a round would fail, stop at the limit or
    # deal onto an item's own cards: nothing done, the iteration state
    # left for the loop (FOR_ITER's)
    def run(how):
        players, deck = _table()
        items = {'players': players, 'mixed': [players[0], deck, [7, 8], players[2]],
                 'card': [players[0], 5, players[2]], 'none': [players[0], None],
                 'own': players, 'undefined': players}[shape]
        dest = players[1] if shape == 'own' else None if shape == 'undefined' else deck
        if shape == 'mixed' and prop is not None:
            items = [players[0], players[2]]
        m = types.SimpleNamespace(globals=[dest], steps_left=steps, max_steps=steps)
        frame, stack, out = [None, None], [list(items)], None
        try:
            if how == 'at once':
                out = generated_cases.op_DEAL_EACH(m, stack, frame, (1, 0, 99, prop))
            elif how == 'written':
                _rounds(items, prop, dest, m, frame, 1)
        except (Fault, StepLimit, AttributeError) as e:      # (a property no item has)
            out = type(e)
        state = ([list(p.hand) for p in players], [list(p.stash) for p in players],
                 runtime.cards_of(dest) if dest is not None else None, m.steps_left,
                 repr(frame[1]))
        return out, state, stack, items
    out, state, stack, items = run('at once')
    written_out, written, _, _ = run('written')
    if out == 99:
        assert stack == [] and state == written and written_out is None
    else:       # (declined: as it was, FOR_ITER's state of the items on the stack)
        assert out is None and list(stack[-1]) == items and state == run('nothing')[1]
    # players dealing their own cards to an Area, a step a round: always at once
    if shape == 'players' and prop in (None, 'hand', 'stash') and steps >= 3:
        assert out == 99
    # a round that fails or stops at the limit: never
    if written_out is not None:
        assert out is None


def test_deal_each_writes_out_cards_of_s_lookup_once():
    # (the items' card lists written out, once; the pile's by
    # runtime.cards_of itself: one text of the lookup besides cards_of's)
    import inspect
    from pipvm.engine import bodies
    text = inspect.getsource(bodies.deal_each)
    assert text.count('.hand if kind is Player') == 1 and 'runtime.cards_of(dest)' in text
