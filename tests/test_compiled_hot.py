"""Which of the compiled tier's blocks are hot sooner (pipvm/engine/compiled.py,
in_for_nests): a `for` loop's instructions from its head to its JUMP back,
each one."""
import os

from pipvm.engine import compiled, vm
from pipvm.isa.opcodes import OP
from pipvm.play import loader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_a_for_inside_another_loop_is_hot_sooner_from_its_head_to_its_jump_back():
    # rules.pip's `for c in p->hand` inside `for p in players`
    program = loader.load_program(os.path.join(ROOT, 'benchmarks', 'programs', 'rules.pip'))
    instrs = vm.Image(program, compiled=True).codes[program.main].plain[0]
    inner = sorted(k for k, n in compiled.in_for_nests(instrs).items() if n == compiled.NESTED_HOT)
    runs = []                   # (the loops: each a run of indexes)
    for k in inner:
        if runs and k == runs[-1][-1] + 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    assert len(runs) == 2       # (and its `for p in players { deal all from p to deck. }`)
    for run in runs:
        head, end = run[0], run[-1]
        assert compiled.for_operands(instrs[head]) is not None
        assert instrs[end][:2] == (OP.JUMP, head)


def _for(slot, target):
    return (OP.FOR_NEXT, (slot, target), None)


_L = (OP.LOAD_LOCAL, 0, None)


def _jump(target):
    return (OP.JUMP, target, None)


def test_a_for_inside_a_loop_headed_at_the_code_s_first_index_is_hot_sooner():
    # pins in_for_nests' back jumps: one to index 0 heads a loop, and its head is the jump's target
    instrs = [_L, _for(1, 4), _L, _jump(1), _jump(0)]
    assert compiled.in_for_nests(instrs) == dict.fromkeys((1, 2, 3), compiled.NESTED_HOT)
    # (a lone `for`: not hot sooner)
    assert compiled.in_for_nests([_for(1, 3), _L, _jump(0)]) == {}


def test_a_jump_to_no_index_heads_no_loop():
    # pins in_for_nests' `0 <= arg`: a JUMP's -1 (no instruction) is no loop around a `for`
    assert compiled.in_for_nests([_for(1, 3), _L, _jump(0), _jump(-1)]) == {}


def test_a_for_is_hot_sooner_whatever_follows_its_jump_back():
    # pins in_for_nests' instrs[h:e + 1]: the loop's own instructions, not the one after its JUMP
    instrs = [_L, _for(1, 4), _L, _jump(1), (OP.CALL, 0, None), _jump(0)]
    assert compiled._parts(instrs[4]) is None       # (no block holds a CALL)
    assert compiled.in_for_nests(instrs) == dict.fromkeys((1, 2, 3), compiled.NESTED_HOT)


def test_a_body_block_handed_back_by_its_head_only_region_counts_anew(monkeypatch):
    # pins _Lazy.warm's calls = 0: a body block of a `for` region, hot before its head, counts anew
    from compiler.pip import frontend
    from tests.fuzz import harness
    from tests.test_regions import FOR_WITH_AN_IF, _play
    monkeypatch.setattr(compiled, 'HOT', 3)
    program = harness.compile_checked(frontend.check_text(FOR_WITH_AN_IF))
    image = vm.Image(program, compiled=True)
    main = image.codes[program.main]
    lazy = {k: compiled.lazy_of(fn) for k, (op, _, fn) in enumerate(main.instrs)
            if compiled.lazy_of(fn)}
    head = next(k for k, fn in lazy.items() if compiled.for_operands(main.plain[0][k]))
    # (the block after the `if`, entered at every round the `if` jumps over: hot
    # before the head, at its second call, it runs cold again until the head is hot)
    after = min(k for k in lazy if k > head)
    lazy[after].hot = 2
    assert _play(image) == _play(vm.Image(program))
    assert main.instrs[head][2] is not lazy[head].cold and lazy[after].calls == 0
