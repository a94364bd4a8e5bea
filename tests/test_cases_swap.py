"""A superinstruction (a compiled block's run) whose part takes the values
the part before left, in another order than it left them: SWAP then a
binary operation, as a hand-made .pipc may hold it (tests/fuzz/hand_made.py
swaps a comparison's operands and mirrors it)."""
from types import SimpleNamespace

import pytest

from pipvm.engine import cases, generated_cases
from pipvm.isa import opcodes


@pytest.mark.parametrize('name, expected', [('SUB', 3 - 10), ('ADD', 3 + 10), ('LT', 3 < 10)])
def test_swap_then_a_binary_operation_composed_as_one_block(name, expected):
    # the loop: [10, 3] SWAP -> [3, 10]; SUB -> 3 - 10.  compose renamed the
    # inputs one after the other (`b = a` then `a = b`), so both became the
    # old a: SUB gave 0, ADD 20, LT False; now one assignment renames them
    parts = (opcodes.BY_NAME['SWAP'], opcodes.BY_NAME[name])
    text = cases.compose(SimpleNamespace(parts=parts), cases.CONTEXTS['handler'], [],
                         forwarded=False)
    space = dict(vars(generated_cases))
    exec('def block(self, stack, frame, arg):\n    ' + text.replace('\n', '\n    '), space)
    stack = [10, 3]
    space['block'](None, stack, [], None)
    assert stack == [expected], text


def test_the_compiled_tier_s_block_of_swap_and_sub():
    # compiled.function, the block a cold run of SWAP SUB becomes: [10, 3] -> [-7]
    from pipvm.engine import compiled
    codes = (opcodes.BY_NAME['SWAP'].code, opcodes.BY_NAME['SUB'].code)
    stack = [10, 3]
    compiled.function(codes)(None, stack, [], (None,))
    assert stack == [3 - 10]
