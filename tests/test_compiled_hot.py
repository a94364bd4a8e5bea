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
