"""pipvm/engine/reach.py's edge cases that the examples never build
(tools/mutation-results/reach.tsv: the mutants these kill): an operand of a
shape the verifier never lets through, and a threaded jump's target that a
fused instruction's constant index also names."""
from pipvm.engine import reach
from pipvm.isa.opcodes import BY_CODE, OP

RET = (OP.RETURN, (), None)


def test_an_opcode_not_in_the_table_leaves_its_successors_unknown():
    unknown = next(code for code in range(256) if code not in BY_CODE)
    assert reach.jumped_to([(unknown, None, None), RET], {0}) is None


def test_an_ask_whose_operand_is_not_n_and_first_leaves_its_successors_unknown():
    # (n, first, and one more: where its answers go on is not known)
    assert reach.jumped_to([(OP.ASK, (1, 1, 0), None), RET], {0}) is None
    assert reach.jumped_to([(OP.ASK_FROM, (1, None), None), RET], {0}) is None
    assert reach.jumped_to([(OP.ASK, (1, 1), None), RET], {0}) == {1}


def test_a_fused_and_s_constant_index_keeps_a_threaded_target_entered():
    # EQ_CONST_AND (k, target): its target 2 is a JUMP_IF_FALSE (threaded),
    # and k names 2 too: 2 stays entered; with another k it does not
    jif = (OP.JUMP_IF_FALSE, 3, None)
    assert reach._threaded_only([(OP.EQ_CONST_AND, (2, 2), None), RET, jif, RET]) == set()
    assert reach._threaded_only([(OP.EQ_CONST_AND, (0, 2), None), RET, jif, RET]) == {2}
    assert reach._threaded_only([(OP.JUMP_IF_FALSE_OR_POP, 2, None), RET, jif, RET]) == {2}
