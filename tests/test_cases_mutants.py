"""What pipvm/engine/cases.py does that the regenerated module
(tests/test_cases.py) and the tiers' sweeps do not show: the mutants of
tools/mutation-results/cases.tsv that lived through its SUITE."""
import pytest

from pipvm.engine import cases
from pipvm.isa import opcodes


def test_a_body_that_uses_the_stack_makes_no_closure():
    # a closure has no stack: DEAL's POP()s may not be written into one
    with pytest.raises(ValueError, match='DEAL uses the stack: no closure'):
        cases.compose(opcodes.BY_NAME['DEAL'], cases.CONTEXTS['closure'], ['o0'],
                      ['f0', 'f1', 'f2'])
