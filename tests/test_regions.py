"""The compiled tier's regions (pipvm/engine/regions.py): a loop whose
every instruction a block can hold runs as one function once a block in
it is hot.  A region must play exactly as the loop: the same messages,
state, step count, and errors at the same positions."""
import os

import pytest

from compiler.pip import frontend
from pipvm.engine import compiled, regions, vm
from pipvm.game.game import Game
from pipvm.play import loader
from tests.fuzz import harness

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _program(text):
    return harness.compile_checked(frontend.check_text(text))


def _play(image, players=2, max_steps=None):
    g = Game(image, seed=3, players=players, names=['p%d' % i for i in range(players)],
             max_steps=max_steps)
    while g.decision is not None:
        g.answer(0)
    e = g.ending
    return g.events, e and (e.kind, e.winner, str(e.error)), harness.snapshot(g.machine)


def _regions(image):
    """The region functions in image's instruction lists."""
    return {id(fn): fn for loaded in image.codes for op, _, fn in loaded.instrs + loaded.quiet
            if op == compiled.BLOCK and getattr(fn, '__name__', '') == 'region'}


@pytest.fixture
def hot(monkeypatch):
    monkeypatch.setattr(compiled, 'HOT', 3)


def test_the_benchmarks_loops_play_as_on_the_loop_as_nested_regions(hot):
    program = loader.load_program(os.path.join(ROOT, 'benchmarks', 'programs', 'loops.pip'))
    image = vm.Image(program, compiled=True)
    assert not _regions(image)                  # (none until a block is hot)
    assert _play(image) == _play(vm.Image(program))
    made = list(_regions(image).values())
    # the `for s` loop inside the `for c` loop: the outer region calls the inner
    assert {(9, 38), (12, 37)} <= {fn.loop for fn in made}
    outer = next(fn for fn in made if fn.loop == (9, 38))
    assert 'elif pc == 12:' in outer.source and outer.head_only     # (a `for`: entered at its head)
    # a stored property read as an attribute (its name the runtime's own)
    inner = next(fn for fn in made if fn.loop == (12, 37))
    assert '.rank' in inner.source and 'getattr(' not in inner.source
    # (its messages came from the loop outside: the regions ran the rest)
    assert _play(image) == _play(vm.Image(program))


LOOPS_TEXT = open(os.path.join(ROOT, 'benchmarks', 'programs', 'loops.pip')).read()
FAULT = '''Game "F" requires 2 players.
Number total = 0.
Action main {
  let i be 0.
  forever {
    if i >= 10 { skip to done. }
    for c in standard {
      if c->rank > 5 { total += 1. } else { total += c->rank / (%s - i). }
    }
    i += 1.
  }
  label done.
  message "total {total}".
}
'''


@pytest.mark.parametrize('at', [2, 7])
def test_an_error_in_a_region_is_where_the_loop_says(hot, at):
    # the division's part, late in the region's parts: its own position
    program = _program(FAULT % at)
    image = vm.Image(program, compiled=True)
    played = _play(image)
    assert played == _play(vm.Image(program))
    assert 'Division by zero' in played[1][2] and 'Line 8' in played[1][2], played[1]
    assert _regions(image)


def test_a_step_limit_in_a_region_falls_where_the_loop_s_does(hot):
    program = _program(FAULT % 100)
    stopped = 0
    for steps in (50, 333, 501, 5000):
        image = vm.Image(program, compiled=True)
        played = _play(image, max_steps=steps)
        assert played == _play(vm.Image(program), max_steps=steps), steps
        stopped += played[1][0] == 'step limit'
    assert stopped == 3


def _steps_left(image, max_steps):
    g = Game(image, seed=3, players=2, names=['p0', 'p1'], max_steps=max_steps)
    while g.decision is not None:
        g.answer(0)
    return g.machine.steps_left


@pytest.mark.parametrize('program', [FAULT % 100, LOOPS_TEXT], ids=['fault', 'loops'])
def test_a_region_counts_its_steps_as_the_loop_does(hot, program):
    # (a region counts in a local, written back when it ends or calls an
    # inner region: the machine's count is the loop's after a game, and
    # after a step limit raised in an inner region inside an outer one)
    program = _program(program)
    image = vm.Image(program, compiled=True)
    for steps in (50, 333, 501, 5000, 10 ** 6):
        assert _steps_left(image, steps) == _steps_left(vm.Image(program), steps), steps
    sources = [fn.source for fn in _regions(image).values()]
    assert any('steps -= 1' in s for s in sources), sources


def test_a_loop_with_a_decision_or_a_call_is_no_region():
    # (a region holds only what a block can: the loop must pause and call)
    program = _program('''Game "D" requires 2 players.
Area pile labeled "Pile" is faceup.
Rule any(p, c, pile) = True.
Action give { message "given". }
Action main {
  deal 3 from standard to players.
  for p in players { play any from p to pile. }
  for p in players { give(). }
  for p in players { message "hi". }
}
''')
    image = vm.Image(program, compiled=True)
    lazy = [fn for loaded in image.codes for _, _, fn in loaded.instrs
            if isinstance(fn, compiled._Lazy)]
    made = {}
    for fn in lazy:
        region = regions.enter(fn.site, fn.index)
        if region is not None:
            made[id(region[0])] = region[0]
    assert len(made) == 1           # (the loop of messages alone)
    (fn,) = made.values()
    assert 'events' in fn.source and 'PAUSE' not in fn.source


def test_a_region_s_source_holds_the_table_s_text_and_integers_only(hot):
    program = _program(FAULT % 3 + '''Action other {
  for k in [1; 2] { if total != 7 { message "q''' + "'''\\\\ \\\" __import__('os')" + '''". } }
}
''')
    image = vm.Image(program, compiled=True)
    lazy = [fn for loaded in image.codes for _, _, fn in loaded.instrs
            if isinstance(fn, compiled._Lazy)]
    for fn in lazy:
        regions.enter(fn.site, fn.index)
    sources = [f.source for f in _regions(image).values()]
    assert len(sources) >= 2
    for source in sources:
        assert '__import__' not in source and "'''" not in source and 'q' not in source.replace(
            'eq', '')


def test_a_loop_that_is_one_block_runs_as_that_block_s_own_while(hot):
    # deal.pip's `for p in players { deal all from p to deck. }`, twice
    # (in a loop that calls an action: no region around them): no region
    # is written for either (their rounds are the block's own Python
    # `while`), and the one function serves both, made once
    program = _program('''Game "D" requires 2 players.
Deck deck = standard.
Action tick { }
Action main {
  let round be 0.
  forever {
    if round == 30 { skip to done. }
    shuffle deck.
    deal 5 from deck to players.
    for p in players { deal all from p to deck. }
    deal 3 from deck to players.
    for q in players { deal all from q to deck. }
    tick().
    round += 1.
  }
  label done.
  message "{round}".
}
''')
    image = vm.Image(program, compiled=True)
    assert _play(image) == _play(vm.Image(program))
    assert not _regions(image)
    loops = [fn for loaded in image.codes for op, _, fn in loaded.instrs
             if op == compiled.BLOCK and not isinstance(fn, compiled._Lazy)
             and 'while True:' in fn.source]
    assert len(loops) == 2 and loops[0] is loops[1]
    assert 'deal(' in loops[0].source
