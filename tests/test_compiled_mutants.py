"""Direct tests of compiled.py's small helpers whose edge cases no
example's code reaches (tools/mutation.py's survivors of 2026-11-30)."""
from pipvm.engine import compiled
from pipvm.isa.opcodes import OP


def test_ints_in_finds_every_int_of_an_operand_and_nothing_else():
    assert compiled.ints_in(5) == {5}
    assert compiled.ints_in((1, (2, [3, 'x']), 4)) == {1, 2, 3, 4}
    assert compiled.ints_in([]) == set()
    assert compiled.ints_in('xy') == set()      # (a text is no list of ints)
    assert compiled.ints_in(None) == set()


def test_threads_to_reads_only_a_target_inside_the_code():
    code = [(OP.JUMP_IF_FALSE, 1, None), (OP.JUMP, 0, None)]
    assert compiled.threads_to(0, code)         # (the first instruction is one)
    assert not compiled.threads_to(1, code)
    assert not compiled.threads_to(2, code)     # (past the end: no instruction to read)
    assert not compiled.threads_to(-1, code)
    assert not compiled.threads_to((0,), code)


def test_for_operands_takes_only_a_small_int_slot_and_an_int_target():
    assert compiled.for_operands((OP.FOR_NEXT, (3, 7), None)) == (3, 7)
    assert compiled.for_operands((OP.FOR_NEXT, (compiled.SMALL, 7), None)) is None
    assert compiled.for_operands((OP.FOR_NEXT, (-1, 7), None)) is None
    assert compiled.for_operands((OP.FOR_NEXT, ('3', 7), None)) is None
    assert compiled.for_operands((OP.FOR_NEXT, (3, '7'), None)) is None
    assert compiled.for_operands((OP.JUMP, (3, 7), None)) is None


def test_threaded_reads_each_and_s_own_target_among_the_operands():
    # EQ_CONST_AND's parts: CONST (k), EQ, JUMP_IF_FALSE_OR_POP (target):
    # the jump's target is the second operand, not the constant's index
    from pipvm.isa.opcodes import BY_CODE
    parts = BY_CODE[OP.EQ_CONST_AND].parts
    code = [(OP.LOAD_LOCAL, 0, None), (OP.EQ_CONST_AND, (0, 2), None),
            (OP.JUMP_IF_FALSE, 7, None)]
    out, operands = compiled.threaded(parts, [0, 2], code)
    assert [p.code for p in out] == [OP.CONST, OP.EQ, OP.JUMP_IF_FALSE] and operands == [0, 7]
    # (a constant's index that names a JUMP_IF_FALSE threads nothing)
    out, operands = compiled.threaded(parts, [2, 0], code)
    assert [p.code for p in out] == [p.code for p in parts] and operands == [2, 0]


def test_indexes_are_the_kinds_whose_loaded_operand_is_the_file_s_number():
    # compiled.INDEXES comes from pipvm/isa/operands.py: the kinds the
    # verifier checks and the loader leaves as the number.  A `prop` loads
    # as its name and a `jump` as an index the loader made, so neither may
    # be written into a source as the file's integer
    assert {'const', 'global', 'local', 'count', 'action', 'rule', 'ordering'} <= compiled.INDEXES
    assert not {'prop', 'jump'} & compiled.INDEXES