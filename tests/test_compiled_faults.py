"""An error raised inside a hot block of the compiled tier
(pipvm/engine/compiled.py) is where the loop says: the block's function
names the part that failed, not the block's first instruction."""
import pytest

from pipvm.engine import compiled, vm
from tests.test_regions import _play, _program

# (step's code is one block, called from main's loop: no region holds a
# CALL, so the block runs as its own function once hot)
DIVIDES = '''Game "F" requires 2 players.
Number total = 0.
Number n = 6.
Action step {
  total += 1.
  total += 10 / n.
}
Action main {
  forever {
    n -= 1.
    step().
  }
}
'''


@pytest.fixture
def hot(monkeypatch):
    monkeypatch.setattr(compiled, 'HOT', 3)


def test_an_error_in_a_hot_block_s_later_part_is_where_the_loop_says(hot):
    program = _program(DIVIDES)
    image = vm.Image(program, compiled=True)
    played = _play(image)
    assert played == _play(vm.Image(program))
    assert 'Line 6, Col 15: Division by zero' in played[1][2], played[1]
    step = next(loaded for loaded in image.codes if loaded.code.name == 'step')
    assert step.instrs[0][0] == compiled.BLOCK and 'def block(' in step.instrs[0][2].source
