"""The compiled tier's regions (pipvm/engine/regions.py): a loop whose
every instruction a block can hold runs as one function once a block in
it is hot.  A region must play exactly as the loop: the same messages,
state, step count, and errors at the same positions."""
import os
import re
import subprocess
import sys
import types

import pytest

from compiler.pip import frontend
from pipvm.core.errors import StepLimit
from pipvm.engine import compiled, local_names, reads, regions, vm
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
    # the `for s` loop inside the `for c` loop: written in the outer region,
    # a Python `for` in the outer's (no function of its own, no call a round)
    assert (9, 38) in {fn.loop for fn in made} and (12, 37) not in {fn.loop for fn in made}
    outer = next(fn for fn in made if fn.loop == (9, 38))
    assert outer.head_only     # (a `for`: entered at its head)
    assert '<= pc <=' not in outer.source      # (and called there only)
    lines = outer.source.split('\n')
    # (the outer's rounds one pass too: its runs, then the inner `for`'s,
    # each run fallen through to from the one before alone: no test of pc,
    # and pc set for nothing)
    inner = lines.index('            for l_2 in stack[-1]:')     # (its slot a local: _slots_named)
    assert lines[inner - 1] == '            push(it)'
    assert 'pc ==' not in outer.source and 'pc = ' not in outer.source
    # nothing that can raise no Fault in a `try` of its own (ADD's `int(a)
    # + b`, FOR_ITER's `iter(list(lst))`)
    assert outer.source.count('except Fault as e:') == 1       # (MUL's: its Fault has no part)
    assert outer.source.count('def ') == 1 and 'arg[2](' not in outer.source
    # a stored property read as an attribute (its name the runtime's own)
    assert '.rank' in outer.source and 'getattr(' not in outer.source
    # a constant read once, when the region is entered, not at each round
    assert '    k_5 = consts[5]' in lines and outer.source.count('consts[5]') == 1
    # (read in `c->rank == 1` and twice in `total -= 1`, written out: sums.py)
    assert outer.source.count('k_5') == 4
    assert '(value0 - k_5 if isinstance(value0, int) else int(value0) - k_5)' in outer.source
    # `elseif c->rank == 1 or c->rank == 13`: the `or`'s value tested where
    # it is made, not pushed for the `if`'s JUMP_IF_FALSE, whose run, and
    # the back JUMPs', no jump goes to any more: left out
    assert 'push(res' not in outer.source and 'cond = pop()' not in outer.source
    # (and under `if res3:` it is known true: no `if not res3:` there)
    assert not any(a.strip().startswith('if res') and b.strip() == 'if not %s' % a.strip()[3:]
                   for a, b in zip(lines, lines[1:]))
    assert any(line.strip() == 'if res3:' for line in lines)
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


# (an empty `else`: the `if`'s JUMP goes to the next instruction, forward:
# no step counted)
EMPTY_ELSE = '''Game "E" requires 2 players.
Number total = 0.
Number other = 0.
Action main {
  forever {
    if total >= 30 { skip to done. }
    if total > 3 { other += 1. } else { }
    total += 1.
  }
  label done.
  message "total {total}".
}
'''


@pytest.mark.parametrize('program', [FAULT % 100, LOOPS_TEXT, EMPTY_ELSE],
                         ids=['fault', 'loops', 'empty_else'])
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
    lazy = [compiled.lazy_of(fn) for loaded in image.codes for _, _, fn in loaded.instrs
            if compiled.lazy_of(fn)]
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
    lazy = [compiled.lazy_of(fn) for loaded in image.codes for _, _, fn in loaded.instrs
            if compiled.lazy_of(fn)]
    for fn in lazy:
        regions.enter(fn.site, fn.index)
    sources = [f.source for f in _regions(image).values()]
    assert len(sources) >= 2
    for source in sources:
        assert '__import__' not in source and "'''" not in source and 'q' not in source.replace(
            'eq', '')


CANPLAY = '''Game "C" requires 2 players.
Deck deck = standard.
Area pile labeled "Pile" is faceup.
Number n = 0.
Suit s = H.
Rule fits(p, c, top) = c->suit == s or c->rank == top->first->rank.
Action main {
  shuffle deck.
  deal 1 from deck to pile.
  deal 5 from deck to players.
  for k in [1; 2; 3; 4; 5; 6] {
    if k == %d { deal all from pile to deck. }
    for p in players { if canplay fits from p to pile { n += 1. } }
  }
  message "{n}".
}
'''


@pytest.mark.parametrize('empty', [0, 5])
def test_a_region_calls_a_rule_s_filter_of_a_hand_directly(hot, empty):
    # CANPLAY's `self.playable(rule, ...)` is the rule's generated filter's
    # any-variant (no PLAY_AGAIN reads its cards), an operand, called where
    # it stands (Machine.playable where it fails: the pile emptied in round
    # 5, the same error at the same place as the loop's)
    program = _program(CANPLAY % empty)
    image = vm.Image(program, compiled=True)
    assert _play(image) == _play(vm.Image(program))
    (fn,) = [f for f in _regions(image).values() if 'self.playable(' in f.source]
    lines = [line.strip() for line in fn.source.split('\n')]
    call = lines.index('except Exception:') - 1
    assert re.match(r'res\d* = arg\[\d+\]\(self, ', lines[call]), lines[call]
    assert re.match(r'res\d* = bool\(self\.playable\(', lines[call + 2]), lines[call + 2]
    played = _play(image)
    assert played == _play(vm.Image(program))
    assert ('empty list' in played[1][2]) == (empty == 5), played[1]


LEAVING = '''Game "L" requires 2 players.
Number total = 0.
Action main {
  let i be 0.
  forever {
    if i >= 30 { skip to done. }
    for c in standard {
      for s in [C; D; H; S] {
        if c->suit == s and c->rank > 6 { total += c->rank. }
        if total > %d { skip to late. }
      }
    }
    label late.
    i += 1.
  }
  label done.
  message "total {total}".
}
'''


@pytest.mark.parametrize('limit', [10 ** 6, 5000])
def test_an_inner_for_left_but_at_its_end_is_its_own_region(hot, limit):
    # `for s` may leave by a skip (taken when the total passes the limit):
    # its region returns where it goes to the outer's tests, so it stays a
    # function of its own, called from `for c`'s (made first: the nest's
    # outermost `for`), which the `forever` loop's calls in turn
    program = _program(LEAVING % limit)
    image = vm.Image(program, compiled=True)
    assert _play(image) == _play(vm.Image(program))
    made = sorted(_regions(image).values(), key=lambda fn: fn.loop[1] - fn.loop[0])
    assert len(made) == 3 and made[0].source.startswith('def region')
    assert all('for frame[2] in stack[-1]:' not in fn.source and 'for l_2 in' not in fn.source
               for fn in made[1:])
    assert 'pc = arg[' in made[1].source        # (its call of `for s`'s)
    # (whose function returns the index after it, where the back JUMP's
    # run, reached by no jump in `for c`'s own code, is kept)
    assert 'elif pc == %d:' % (made[0].loop[1] + 1) in made[1].source
    for steps in (77, 1000, 12345):
        assert _steps_left(image, steps) == _steps_left(vm.Image(program), steps), steps
    assert _play(image) == _play(vm.Image(program))


def test_reads_reused_reads_a_local_or_its_property_once_where_nothing_can_change_it():
    # (an action's runs: a region's no longer go through it, regions.py says why)
    def checked(name, expr, part):
        return ['if (%s := %s) is None:' % (name, expr),
                "    raise Fault('Undefined value', %d)" % part]
    text = '\n'.join(checked('value0', 'frame[1]', 0) + checked('value1', 'value0.rank', 1)
                     + ['if not value1:', '    pc = 9', '    continue']
                     + checked('value3', 'frame[1]', 3) + checked('value4', 'value3.rank', 4)
                     + ['if value4:'] + ['    ' + x for x in checked('value6', 'frame[2]', 6)]
                     + ['else:'] + ['    ' + x for x in checked('value7', 'frame[2]', 7)]
                     + ['    setattr(value0, arg[2], value7)'] + checked('value8', 'value3.rank', 8)
                     + ['frame[1] = value8'] + checked('value9', 'frame[1]', 9))
    out = [line for line, _ in reads.reused([(line, None) for line in text.split('\n')])]
    # the same local, and its property, again: copies (their tests could not fail)
    assert 'value3 = value0' in out and 'value4 = value1' in out
    # read in one branch, not the other (its block ended): read again there
    assert '    if (value7 := frame[2]) is None:' in out
    # after a property is stored, or the local, each is read (and tested) again
    assert 'if (value8 := value3.rank) is None:' in out
    assert 'if (value9 := frame[1]) is None:' in out
    assert len(out) == len(text.split('\n')) - 2


def test_a_loop_that_is_one_block_runs_as_that_block_s_own_while(hot):
    # `for p in players { deal 2 from p to deck. }`, twice (in a loop that
    # calls an action: no region around them): no region is written for
    # either (their rounds are the block's own Python `while`), and the one
    # function serves both, made once.  (With `deal all` each loop runs at
    # once at its FOR_ITER, DEAL_EACH: its rounds' block never runs)
    program = _program('''Game "D" requires 2 players.
Deck deck = standard.
Action tick { }
Action main {
  let round be 0.
  forever {
    if round == 30 { skip to done. }
    shuffle deck.
    deal 5 from deck to players.
    for p in players { deal 2 from p to deck. }
    deal 3 from deck to players.
    for q in players { deal 2 from q to deck. }
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
             if op == compiled.BLOCK and not compiled.lazy_of(fn)
             and 'for frame[arg[1]] in stack[-1]:' in fn.source]     # (its `for`)
    assert len(loops) == 2 and loops[0] is loops[1]
    assert 'deal(' in loops[0].source


# A hand-made file (tests/test_vm.py's assembler and validation) whose loop
# holds two loops that cross (A = hA..eA, B = hB..eB, hA < hB <= eA < eB),
# which no compiler writes: inside `outer`, within `outermost`.  Each inner
# loop is a region; `outer` cannot be one (its loops cross), so `outermost`,
# around it, cannot either: their blocks run them, as the loop would.
CROSSING = [
    ('CONST', 'zero'), ('STORE_GLOBAL', 0), ('CONST', 'zero'), ('STORE_GLOBAL', 1),
    ('CONST', 'zero'), ('STORE_GLOBAL', 2),
    ('LABEL', 'outermost'),
    ('CONST', 'zero'), ('STORE_GLOBAL', 1),
    ('LABEL', 'outer'),
    ('CONST', 'zero'), ('STORE_LOCAL', 0), ('CONST', 'zero'), ('STORE_LOCAL', 1),
    ('LABEL', 'hA'),
    ('LOAD_LOCAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_LOCAL', 0),
    ('LABEL', 'hB'),
    ('LOAD_LOCAL', 1), ('CONST', 'one'), ('ADD',), ('STORE_LOCAL', 1),
    ('LOAD_LOCAL', 0), ('CONST', 'three'), ('LT',), ('JUMP_IF_FALSE', 'nA'),
    ('JUMP', 'hA'),                                             # (eA)
    ('LABEL', 'nA'),
    ('LOAD_LOCAL', 1), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'nB'),
    ('JUMP', 'hB'),                                             # (eB)
    ('LABEL', 'nB'),
    ('LOAD_GLOBAL', 0), ('LOAD_LOCAL', 1), ('ADD',), ('STORE_GLOBAL', 0),
    ('LOAD_GLOBAL', 1), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 1),
    ('LOAD_GLOBAL', 1), ('CONST', 'five'), ('LT',), ('JUMP_IF_FALSE', 'next'),
    ('JUMP', 'outer'),
    ('LABEL', 'next'),
    ('LOAD_GLOBAL', 2), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 2),
    ('LOAD_GLOBAL', 2), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'end'),
    ('JUMP', 'outermost'),
    ('LABEL', 'end'),
]


def _hand_made(instrs, extra=()):
    """A program whose main runs instrs, made with tests/test_vm.py's
    assembler and validated as any file is (a constant by its name:
    ('CONST', 'seven'); 'last': the last of extra, constants added past
    test_vm's)."""
    from pipvm.isa import pipc
    from tests import test_vm
    names = {'zero': '0', 'one': '1', 'two': '2', 'three': '3', 'five': '5', 'seven': '7'}
    at = {name: test_vm.K[k] for name, k in names.items()}
    at['last'] = len(test_vm.CONSTS) + len(extra) - 1
    main = test_vm.code('action', 'main', ['x', 'y'],
                        [(op, *(at[a] if op == 'CONST' else a for a in args))
                         for op, *args in instrs] + [('RETURN',)])
    init = test_vm.code('init', 'globals', [], [('RETURN',)])
    program = pipc.Program('T', [2], 0, list(test_vm.GLOBALS), test_vm.CONSTS + list(extra),
                           [init, main], 1)
    return pipc.load(pipc.dump(program), '<test>')


def _run_main(image):
    """(What main's start returns, the globals, the steps left), main run
    with no decision to answer."""
    from pipvm.core.rng import OCamlRandom
    from tests import test_vm
    m = vm.Machine(image, OCamlRandom(1), max_steps=10 ** 6, events=[])
    return m.start(test_vm.seated()), list(m.globals), m.steps_left


def test_loops_that_cross_run_as_their_blocks_and_regions_as_in_the_loop(hot):
    program = _hand_made(CROSSING)
    image = vm.Image(program, compiled=True)
    played = _run_main(image)
    assert played == _run_main(vm.Image(program))
    # (35 rounds of `outer`, y reaching 7 in each; the steps counted as in the loop)
    assert played[1][:3] == [35 * 7, 5, 7] and played[2] < 10 ** 6
    made = {fn.loop for fn in _regions(image).values()}
    assert len(made) == 2 and all(b - a < 12 for a, b in made), made
    assert played == _run_main(image)       # (again, the regions in place)


# A hand-made loop (`outer`) that jumps into the loop inside it (h..e) past
# its head, which no compiler writes: at its head in the first rounds, at
# `mid` in the next, at its last instruction (e, the JUMP back) in the last.
INTO = [
    ('CONST', 'zero'), ('STORE_GLOBAL', 0), ('CONST', 'zero'), ('STORE_GLOBAL', 1),
    ('LABEL', 'outer'),
    ('CONST', 'zero'), ('STORE_LOCAL', 0),
    ('LOAD_GLOBAL', 1), ('CONST', 'five'), ('LT',), ('JUMP_IF_FALSE', 'e'),
    ('LOAD_GLOBAL', 1), ('CONST', 'two'), ('LT',), ('JUMP_IF_FALSE', 'mid'),
    ('LABEL', 'h'),
    ('LOAD_LOCAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_LOCAL', 0),
    ('LABEL', 'mid'),
    ('LOAD_GLOBAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 0),
    ('LOAD_LOCAL', 0), ('CONST', 'three'), ('LT',), ('JUMP_IF_FALSE', 'after'),
    ('LABEL', 'e'),
    ('JUMP', 'h'),
    ('LABEL', 'after'),
    ('LOAD_GLOBAL', 1), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 1),
    ('LOAD_GLOBAL', 1), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'end'),
    ('JUMP', 'outer'),
    ('LABEL', 'end'),
]


def test_a_region_entering_the_loop_inside_it_past_its_head_runs_as_the_loop(hot):
    # the outer region calls the inner one with its operand tuple for the
    # index it enters at (the head, mid, or the last instruction)
    program = _hand_made(INTO)
    image = vm.Image(program, compiled=True)
    played = _run_main(image)
    assert played == _run_main(vm.Image(program))
    # (g0 counts mid's runs: 3 a round entered at h or e, 4 entered at mid)
    assert played[1][:2] == [2 * 3 + 3 * 4 + 2 * 3, 7], played
    made = {fn.loop: fn for fn in _regions(image).values()}
    assert len(made) == 2
    outer = max(made.values(), key=lambda fn: fn.loop[1] - fn.loop[0])
    assert 'elif %d <= pc <= %d:' % min(made, key=lambda l: l[1] - l[0]) in outer.source
    assert played == _run_main(image)


# Loops that cross where one's head is the other's last instruction (B
# jumps back to A's JUMP back), inside `outer`, which cannot be a region.
CROSSING_AT_THE_END = [
    ('CONST', 'zero'), ('STORE_GLOBAL', 0), ('CONST', 'zero'), ('STORE_GLOBAL', 1),
    ('LABEL', 'outer'),
    ('CONST', 'zero'), ('STORE_LOCAL', 0), ('CONST', 'zero'), ('STORE_LOCAL', 1),
    ('LABEL', 'hA'),
    ('LOAD_LOCAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_LOCAL', 0),
    ('LOAD_LOCAL', 0), ('CONST', 'three'), ('LT',), ('JUMP_IF_FALSE', 'nA'),
    ('LABEL', 'eA'),
    ('JUMP', 'hA'),
    ('LABEL', 'nA'),
    ('LOAD_LOCAL', 1), ('CONST', 'one'), ('ADD',), ('STORE_LOCAL', 1),
    ('LOAD_GLOBAL', 0), ('LOAD_LOCAL', 0), ('ADD',), ('STORE_GLOBAL', 0),
    ('LOAD_LOCAL', 1), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'nB'),
    ('JUMP', 'eA'),                                             # (eB, back to A's end)
    ('LABEL', 'nB'),
    ('LOAD_GLOBAL', 1), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 1),
    ('LOAD_GLOBAL', 1), ('CONST', 'five'), ('LT',), ('JUMP_IF_FALSE', 'end'),
    ('JUMP', 'outer'),
    ('LABEL', 'end'),
]


def test_loops_that_cross_at_one_s_last_instruction_run_as_in_the_loop(hot):
    program = _hand_made(CROSSING_AT_THE_END)
    image = vm.Image(program, compiled=True)
    played = _run_main(image)
    assert played == _run_main(vm.Image(program))
    # (x: 3, then one more a round of y's 7: g0 adds 3, 4, ..., 9 each time)
    assert played[1][:2] == [5 * sum(range(3, 10)), 5], played
    assert played == _run_main(image)


def test_a_region_reads_a_constant_past_the_thousandth_by_its_operand(hot):
    # (its index is no text of the source: an operand of the region, arg[k])
    program = _hand_made([
        ('CONST', 'zero'), ('STORE_GLOBAL', 0), ('CONST', 'zero'), ('STORE_GLOBAL', 1),
        ('LABEL', 'loop'),
        ('LOAD_GLOBAL', 0), ('CONST', 'last'), ('ADD',), ('STORE_GLOBAL', 0),
        ('LOAD_GLOBAL', 1), ('CONST', 'three'), ('LT',), ('JUMP_IF_FALSE', 'skip'),
        ('LOAD_GLOBAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 0),
        ('LABEL', 'skip'),               # (two blocks: the loop is no block by itself)
        ('LOAD_GLOBAL', 1), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 1),
        ('LOAD_GLOBAL', 1), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'end'),
        ('JUMP', 'loop'),
        ('LABEL', 'end'),
    ], extra=[1000 + k for k in range(1000)])
    image = vm.Image(program, compiled=True)
    played = _run_main(image)
    assert played == _run_main(vm.Image(program))
    assert played[1][:2] == [7 * 1999 + 3, 7], played
    (fn,) = _regions(image).values()
    assert '1017' not in fn.source and 'arg[' in fn.source


def test_a_nest_of_for_loops_is_hot_sooner_and_made_at_once():
    # loops.pip's `for s` inside `for c`: their blocks are hot at FOR_HOT
    # calls (HOT as it is), and the first hot one makes the outer region
    # with the inner one in it; its `for p` loop with a message, no nest,
    # keeps HOT
    program = loader.load_program(os.path.join(ROOT, 'benchmarks', 'programs', 'loops.pip'))
    image = vm.Image(program, compiled=True)
    main = image.codes[program.main]
    lazy = {k: compiled.lazy_of(fn) for k, (op, _, fn) in enumerate(main.instrs)
            if op == compiled.BLOCK and compiled.lazy_of(fn)}
    hot = compiled.in_for_nests(main.plain[0])
    nest = {k for k, n in hot.items() if n == compiled.FOR_HOT}
    assert set(range(9, 39)) <= nest and not nest & set(range(41, 59))
    assert {fn.hot for k, fn in lazy.items() if 9 <= k <= 38} == {compiled.FOR_HOT}
    assert {fn.hot for k, fn in lazy.items() if not 9 <= k <= 38} == {compiled.HOT}
    made = []
    real = regions.region

    def region(site, loop, index=None):
        made.append(loop)
        return real(site, loop, index)
    try:
        regions.region = region
        assert _play(image) == _play(vm.Image(program))
    finally:
        regions.region = real
    assert made == [(9, 38)]        # (the outer first: the inner written in it)


def test_a_for_loop_of_several_blocks_inside_another_loop_is_hot_sooner():
    # rules.pip's `for c in p->hand` (two `if canplay`s) inside `for p in
    # players` (which plays: no region holds it) is hot at NESTED_HOT;
    # loops.pip's `for p in players` inside `forever`, one whole block,
    # keeps HOT (the test above)
    program = loader.load_program(os.path.join(ROOT, 'benchmarks', 'programs', 'rules.pip'))
    image = vm.Image(program, compiled=True)
    main = image.codes[program.main]
    hot = compiled.in_for_nests(main.plain[0])
    inner = {k for k, n in hot.items() if n == compiled.NESTED_HOT}
    lazy = {k: compiled.lazy_of(fn) for k, (op, _, fn) in enumerate(main.instrs)
            if op == compiled.BLOCK and compiled.lazy_of(fn)}
    # (its `for p in players { deal all from p to deck. }`, a small whole loop: FOR_HOT)
    assert {fn.hot for k, fn in lazy.items() if k in inner and not fn.whole_loop} == \
        {compiled.NESTED_HOT}
    assert {fn.hot for k, fn in lazy.items() if k not in inner or fn.whole_loop} == \
        {compiled.HOT, compiled.FOR_HOT}
    assert compiled.FOR_HOT < compiled.NESTED_HOT < compiled.HOT


def test_a_small_whole_for_loop_is_hot_sooner():
    # deal.pip's `for p in players { deal all from p to deck. }` (a whole
    # loop of 4 parts) is hot at FOR_HOT; loops.pip's `for p in players`
    # with its message (17 parts) keeps HOT
    def hots(name):
        program = loader.load_program(os.path.join(ROOT, 'benchmarks', 'programs', name))
        main = vm.Image(program, compiled=True).codes[program.main]
        return {k: (compiled.lazy_of(fn).whole_loop, compiled.lazy_of(fn).hot)
                for k, (op, _, fn) in enumerate(main.instrs)
                if op == compiled.BLOCK and compiled.lazy_of(fn)}
    deal = hots('deal.pip')
    assert [k for k, (whole, hot) in deal.items() if hot == compiled.FOR_HOT] == \
        [k for k, (whole, _) in deal.items() if whole] and len(deal) > 3
    after = [(whole, hot) for k, (whole, hot) in hots('loops.pip').items() if k > 38]
    assert [whole for whole, _ in after].count(True) == 1
    assert {hot for _, hot in after} == {compiled.HOT}


def _counted(monkeypatch):
    """{loop: calls} of the region functions made from now on, each wrapped
    to count its calls (from the loop or from the region around it)."""
    calls, real = {}, regions.make

    class Counted:
        __name__ = 'region'

        def __init__(self, fn):
            self.fn, self.loop, self.head_only, self.source = fn, fn.loop, fn.head_only, fn.source

        def __call__(self, *args):
            calls[self.loop] = calls.get(self.loop, 0) + 1
            return self.fn(*args)

    def make(site, loop, entered):
        fn, args = real(site, loop, entered)
        return Counted(fn), args
    monkeypatch.setattr(regions, 'make', make)
    return calls


def test_a_region_keeps_control_inside_until_its_loop_ends(hot, monkeypatch):
    # a jump within the region, or into the loop inside it, is `pc = k`
    # then `continue`, not a return to the loop: the outer `forever`, hot
    # in its third round, is called once and runs the other rounds itself,
    # calling the inner `for c` region once a round
    calls = _counted(monkeypatch)
    program = _program(FAULT % 100)
    image = vm.Image(program, compiled=True)
    assert _play(image) == _play(vm.Image(program))
    (outer, inner) = sorted(calls, key=lambda loop: loop[0])
    assert outer[0] < inner[0] and inner[1] < outer[1]
    assert calls[outer] == 1 and calls[inner] <= 10, calls


def test_a_chain_of_jumps_is_threaded_once_a_jump(hot):
    # a hand-made loop of two JUMPs (a -> b -> a), inside a loop that a
    # hot block makes a region, which no compiler writes and no round
    # runs: the inner region threads a's jump to b once (b's own run goes
    # back to a), not round the cycle forever (a RecursionError in make)
    program = _hand_made([
        ('CONST', 'zero'), ('STORE_GLOBAL', 0),
        ('LABEL', 'loop'),
        ('LOAD_GLOBAL', 0), ('CONST', 'one'), ('ADD',), ('STORE_GLOBAL', 0),
        ('LOAD_GLOBAL', 0), ('CONST', 'seven'), ('LT',), ('JUMP_IF_FALSE', 'end'),
        ('LOAD_GLOBAL', 0), ('CONST', 'zero'), ('LT',), ('JUMP_IF_FALSE', 'next'),
        ('LABEL', 'a'), ('JUMP', 'b'),
        ('LABEL', 'b'), ('JUMP', 'a'),
        ('LABEL', 'next'), ('JUMP', 'loop'),
        ('LABEL', 'end'),
    ])
    image = vm.Image(program, compiled=True)
    played = _run_main(image)
    assert played == _run_main(vm.Image(program))
    assert played[1][0] == 7
    made = {fn.loop for fn in _regions(image).values()}
    # (the cycle's own region, a..b, and the one around it that calls it)
    assert len(made) == 2 and any(b == a + 1 for a, b in made), made


def test_a_for_whose_body_begins_with_a_loop_is_a_region_entered_anywhere(hot):
    # (its body's first index is the inner loop's head, where no run of
    # its own starts: no Python `for` over it, a `while` region as any
    # loop's; as a `for` its first run would be `pc = k` forever)
    program = _program('''Game "W" requires 2 players.
Number total = 0.
Action main {
  for c in standard {
    forever {
      if total >= c->rank * 3 { break. }
      total += 1.
    }
    total -= c->rank.
  }
  message "total {total}".
}
''')
    image = vm.Image(program, compiled=True)
    for fn in [compiled.lazy_of(fn) for loaded in image.codes for _, _, fn in loaded.instrs
               if compiled.lazy_of(fn)]:
        regions.enter(fn.site, fn.index)
    made = {fn.loop: fn for fn in _regions(image).values()}
    (outer, inner) = sorted(made)
    assert outer[0] + 1 == inner[0] and not made[outer].head_only
    assert _play(image) == _play(vm.Image(program))


# a `for` whose body's second block is entered past an `if` at every round
FOR_WITH_AN_IF = '''Game "H" requires 2 players.
Number total = 0.
Action main {
  for c in standard {
    if c->rank > 5 { total += 1. }
    total += 2.
  }
  message "total {total}".
}
'''


def test_a_for_region_is_entered_at_its_head_only(hot):
    # (a hot block in its body gets (the function, None): it runs cold
    # until the loop is back at its head, where the function stands)
    program = _program(FOR_WITH_AN_IF)
    image = vm.Image(program, compiled=True)
    lazy = [compiled.lazy_of(fn) for loaded in image.codes for _, _, fn in loaded.instrs
            if compiled.lazy_of(fn)]
    (head,) = [fn for fn in lazy if compiled.for_operands(fn.site.instrs[fn.index])]
    region = regions.enter(head.site, head.index)
    body = [fn for fn in lazy if head.index < fn.index <= region[0].loop[1]]
    assert region[0].head_only and region[1][0] == head.index
    assert body and all(regions.enter(fn.site, fn.index) == (region[0], None) for fn in body)
    assert _play(image) == _play(vm.Image(program))


def test_a_region_counts_in_a_local_only_where_it_reads_nothing_else_of_the_machine(hot):
    # FAULT's `for c` reads globals and constants only: its steps in a
    # local; the `forever` around it reads the deck (`standard`): on the
    # machine, as a call that may run code would need
    program = _program(FAULT % 100)
    image = vm.Image(program, compiled=True)
    assert _play(image) == _play(vm.Image(program))
    made = {fn.loop: fn.source for fn in _regions(image).values()}
    (outer, inner) = sorted(made)
    assert 'list(self.deck)' in made[outer] and 'steps -= 1' not in made[outer]
    assert 'self.' not in made[inner].replace('self.steps_left', '').replace(
        'self.max_steps', '').replace('self.consts', '').replace('self.globals', '')
    assert '    steps = self.steps_left' in made[inner] and 'steps -= 1' in made[inner]


def test_a_for_with_an_empty_body_inside_a_region_is_a_python_for(hot):
    # (its body is its JUMP back alone: the `for`'s next item)
    program = _program('''Game "E" requires 2 players.
Number total = 0.
Action main {
  forever {
    if total >= 30 { skip to done. }
    for c in players { }
    total += 1.
  }
  label done.
  message "total {total}".
}
''')
    image = vm.Image(program, compiled=True)
    assert _play(image) == _play(vm.Image(program))
    made = {fn.loop: fn for fn in _regions(image).values()}
    # (the inner `for`, not made yet and left only at its end, is written
    # in the outer's region: a Python `for` whose body is its step alone)
    [outer] = made
    assert outer[0] == 0 and not made[outer].head_only  # (a loop at main's first instruction)
    lines = made[outer].source.split('\n')
    at = next(k for k, line in enumerate(lines) if line.strip().startswith('for l_'))
    assert lines[at].strip() == 'for l_0 in stack[-1]:'
    # (one pass a round, no `while` over pc: its step, then the next item)
    assert 'steps_left -= 1' in lines[at + 1] and lines[at + 4].strip() == 'continue'
    assert 'pop()' in lines[at + 5] and 'while' not in ''.join(lines[at:at + 5]), lines[at:at + 6]


def test_a_nest_of_two_fors_alone_is_made_from_the_outer(monkeypatch):
    # (no loop around the nest: the outer `for` is the last loop around a
    # hot block of the inner one, and is made first, the inner from it)
    made, real = [], regions.region

    def region(site, loop, index=None):
        made.append(loop)
        return real(site, loop, index)
    monkeypatch.setattr(regions, 'region', region)
    program = _program('''Game "N" requires 2 players.
Number total = 0.
Action main {
  for c in standard {
    for p in players {
      if c->rank > 5 { total += 1. } else { total += 2. }
    }
  }
  message "total {total}".
}
''')
    image = vm.Image(program, compiled=True)
    assert _play(image) == _play(vm.Image(program))
    # (the inner written in it: a Python `for` in the outer's)
    assert made and made[0] == (2, 17), made
    [fn] = _regions(image).values()
    assert fn.loop == (2, 17) and fn.head_only
    assert [line.strip() for line in fn.source.split('\n') if 'for l_' in line] == [
        'for l_0 in stack[-1]:', 'for l_1 in stack[-1]:']


def test_a_region_without_a_filter_does_not_import_the_filters():
    # (a fresh process: loops.pip's region, made in its game, has no
    # `self.playable(`, so regions.py leaves filters.py and its patterns
    # unimported, a twentieth of that game's CPU)
    code = '\n'.join([
        'import sys', 'from pipvm.engine import vm', 'from pipvm.play import loader',
        'from tests.test_regions import _play, _regions',
        "image = vm.Image(loader.load_program(%r), compiled=True)"
        % os.path.join(ROOT, 'benchmarks', 'programs', 'loops.pip'),
        '_play(image)', 'assert _regions(image)',
        "print('pipvm.engine.regions' in sys.modules, 'pipvm.engine.filters' in sys.modules)"])
    out = subprocess.run([sys.executable, '-c', code], cwd=ROOT, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=ROOT), check=True).stdout
    assert out.split() == ['True', 'False']


def test_a_for_s_runs_fall_through_to_later_runs_without_a_while():
    # (regions._fallen: a jump to a later run sets pc and falls through to
    # the runs' tests, what followed it in its block under an `else:`; the
    # for's next item, `break` out of the `while`, a `continue` of the for)
    runs = [(5, ['x = 1', 'if not x:', '    pc = 9', '    continue', 'y = 2', 'pc = 12',
                 'continue']),
            (9, ['z = 3', 'break']), (12, ['w = 4', 'break'])]
    # (run 12 is reached only where run 9 was not taken: pc is 12, untested)
    assert regions._fallen(runs, 5) == [
        'x = 1', 'if not x:', '    pc = 9', 'else:', '    y = 2', '    pc = 12',
        'if pc == 9:', '    z = 3', '    continue', 'w = 4', 'continue']
    # where every run is reached from the one before alone, none is tested
    # and pc is set for nothing
    alone = [(5, ['x = 1', 'if not x:', '    pc = 9', '    continue', 'y = 2', 'break']),
             (9, ['z = 3', 'pc = 12', 'continue']), (12, ['w = 4', 'break'])]
    assert regions._fallen(alone, 5) == [
        'x = 1', 'if not x:', '    pass', 'else:', '    y = 2', '    continue',
        'z = 3', 'w = 4', 'continue']
    # a jump back, or what follows needed in two branches: the `while` stays
    assert regions._fallen([(5, ['x = 1', 'pc = 5', 'continue'])], 5) is None
    two = [(5, ['if a:', '    pc = 9', '    continue', 'elif b:', '    c()', 'd()', 'break']),
           (9, ['break'])]
    assert regions._fallen(two, 5) is None
    # loops.pip's `for s`: one pass a round, its runs tested in order
    program = loader.load_program(os.path.join(ROOT, 'benchmarks', 'programs', 'loops.pip'))
    image = vm.Image(program, compiled=True)
    assert _play(image) == _play(vm.Image(program))
    [outer] = [fn for fn in _regions(image).values() if fn.loop == (9, 38)]
    lines = outer.source.split('\n')
    inner = lines.index('            for l_2 in stack[-1]:')
    assert lines[inner + 1].strip() == 'value1 = l_1.suit'     # (untested, read in place)
    assert 'if pc == ' not in outer.source
    assert 'while True:' not in outer.source      # (nor the outer `for c`'s: `for s` in it)


def test_a_region_with_no_step_limit_counts_its_steps_in_an_int():
    # (the machine's count is inf, a float, with no limit: a region counts
    # down from regions.ROUNDS instead, begun again where it runs out, and
    # leaves the machine's inf; with a limit, its own count as before)
    program = loader.load_program(os.path.join(ROOT, 'benchmarks', 'programs', 'loops.pip'))
    image = vm.Image(program, compiled=True)
    assert _play(image) == _play(vm.Image(program))
    [fn] = [fn for fn in _regions(image).values() if fn.loop == (9, 38)]
    assert '    if endless_ := steps == INF:' in fn.source
    assert 'raise StepLimit' not in fn.source and 'steps = _rounds(self, endless_)' in fn.source
    assert regions._rounds(None, True) == regions.ROUNDS and regions.ROUNDS < 2 ** 30
    with pytest.raises(StepLimit):
        regions._rounds(types.SimpleNamespace(max_steps=5), False)
    machine = types.SimpleNamespace(steps_left=regions.INF, max_steps=None, consts=[0] * 9,
                                    globals=[])
    fn(machine, [iter([])], [None] * 4, (None, ()))      # (no card: the loop ends at once)
    assert machine.steps_left == regions.INF
    for steps in (0, 3, 500):
        assert _steps_left(image, steps) == _steps_left(vm.Image(program), steps), steps


LOCALS = '''Game "L" requires 2 players.
Number total = 0.
Action main {
  let last be 0.
  let i be 0.
  forever {
    if i >= %d { skip to done. }
    for c in standard {
      if c->rank > 5 { last = c->rank. } else { total += c->rank. }
    }
    message "{i}: {last}".
    i += 1.
  }
  label done.
  message "total {total} {last}".
}
'''


@pytest.mark.parametrize('max_steps', [None, 400, 3000])
def test_a_region_s_locals_are_python_locals_written_back_on_every_way_out(hot, max_steps):
    # (a region whose frame is read nowhere but by its verified slots reads
    # them into locals on entry and writes them back when it returns, fails
    # or meets its step limit: the messages after it show what it stored)
    program = _program(LOCALS % 5)
    image = vm.Image(program, compiled=True)
    assert _play(image, max_steps=max_steps) == _play(vm.Image(program), max_steps=max_steps)
    [fn] = [fn for fn in _regions(image).values() if fn.head_only]     # (the `for c`)
    lines = [line.strip() for line in fn.source.split('\n')]
    assert 'for l_2 in stack[-1]:' in lines and 'l_0 = frame[0]' in lines
    assert {'frame[0] = l_0', 'frame[2] = l_2'} <= set(lines[lines.index('finally:'):])
    # (`c`, a `for`'s local over a list, never tested; its copies read in place)
    assert ':= l_2) is None:' not in fn.source and 'value5 = l_2' not in lines
    assert 'value1 = l_2.rank' in lines and 'value6 = l_2.rank' in lines
    assert fn.source.count('frame[') == 2 * fn.source.count(' = frame[')


def test_a_region_s_slots_stay_in_the_frame_where_anything_else_may_read_it():
    # (_slots_named: only a text whose every use of the frame is a slot
    # the verifier checked, `frame[N]`, and with no name l_N of its own)
    text = 'if (value0 := frame[1]) is None:\n    raise Fault(0)\nframe[12] = value0'
    assert local_names.slots_named(text, lambda: False) == (
        'if (value0 := l_1) is None:\n    raise Fault(0)\nl_12 = value0', ['1', '12'])
    # (a check that one before it in its block, or a block around it, made
    # with no store of the slot between: a plain read; one in a block
    # that has ended, or after a store, stays)
    def check(name, slot, part):
        return ['if (%s := frame[%s]) is None:' % (name, slot),
                "    raise Fault('Undefined value', %d)" % part]
    text = '\n'.join(check('value0', 1, 0) + ['if x:'] + ['    ' + y for y in check('value1', 1, 1)]
                     + ['    ' + y for y in check('value2', 2, 2)] + ['else:', '    frame[1] = x']
                     + check('value3', 2, 3) + check('value4', 1, 4)
                     + ['for frame[2] in y:'] + ['    ' + y for y in check('value5', 2, 5)
                                                 + check('value6', 1, 6) + check('value7', 1, 7)])
    out, slots = local_names.slots_named(text, lambda: False)
    assert slots == ['1', '2'] and out.split('\n') == [
        'if (value0 := l_1) is None:', "    raise Fault('Undefined value', 0)", 'if x:',
        '    value1 = l_1', '    if (value2 := l_2) is None:',
        "        raise Fault('Undefined value', 2)", 'else:', '    l_1 = x',
        'if (value3 := l_2) is None:', "    raise Fault('Undefined value', 3)",
        'if (value4 := l_1) is None:', "    raise Fault('Undefined value', 4)",
        'for l_2 in y:', '    if (value5 := l_2) is None:', "        raise Fault('Undefined value', 5)",
        # (inside a loop: a check before it holds not in its later rounds)
        '    if (value6 := l_1) is None:', "        raise Fault('Undefined value', 6)",
        '    value7 = l_1']
    text = 'if (value0 := frame[1]) is None:\n    raise Fault(0)\nframe[12] = value0'
    for kept in [text + '\nquiet_rounds(self, frame, arg[2], x)', text + '\nframe[arg[3]] = 1',
                 text + '\nsubframe[1] = 2', text + '\nl_1 = 5', 'x = frame[1]\ny = frame']:
        assert local_names.slots_named(kept, lambda: False) == (kept, ())
