"""A superinstruction (a compiled block's run) whose part takes the values
the part before left, in another order than it left them: SWAP then a
binary operation, as a hand-made .pipc may hold it (tests/fuzz/hand_made.py
swaps a comparison's operands and mirrors it)."""
import pytest

from pipvm.isa import opcodes
from tests.test_cases_mutants import _composed_run


@pytest.mark.parametrize('name, expected', [('SUB', 3 - 10), ('ADD', 3 + 10), ('LT', 3 < 10)])
def test_swap_then_a_binary_operation_composed_as_one_block(name, expected):
    # the loop: [10, 3] SWAP -> [3, 10]; SUB -> 3 - 10.  compose renamed the
    # inputs one after the other (`b = a` then `a = b`), so both became the
    # old a: SUB gave 0, ADD 20, LT False; now one assignment renames them
    stack, text = _composed_run(('SWAP', name), [10, 3])
    assert stack == [expected], text


def test_the_compiled_tier_s_block_of_swap_and_sub():
    # compiled.function, the block a cold run of SWAP SUB becomes: [10, 3] -> [-7]
    from pipvm.engine import compiled
    codes = (opcodes.BY_NAME['SWAP'].code, opcodes.BY_NAME['SUB'].code)
    stack = [10, 3]
    compiled.function(codes)(None, stack, [], (None,))
    assert stack == [3 - 10]
