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


def _cold_block():
    """A cold block of LOAD_LOCAL 0, STORE_LOCAL 1: (its cold function, its operand tuple)."""
    import types
    instrs = [(OP.LOAD_LOCAL, 0, None), (OP.STORE_LOCAL, 1, None)]
    loaded = types.SimpleNamespace(positions=[((1, 1),), ((2, 2),)])
    _, arg, cold = compiled.variant(loaded, instrs, set(), list(loaded.positions))[0]
    return cold, arg


def test_a_cold_block_s_lazy_object_called_runs_as_its_cold_function():
    # pins _Lazy.__call__: the object hands its arguments to its cold function unchanged
    import types
    cold, arg = _cold_block()
    lazy = compiled.lazy_of(cold)
    stack, frame = [], [4, None]
    machine = types.SimpleNamespace(steps_left=5, max_steps=5, consts=[1])
    assert lazy(machine, stack, frame, arg) == 1 and stack == [4] and frame == [4, None]
    assert lazy.calls == 1


def test_threads_to_reads_no_instruction_before_the_code():
    # pins threads_to's `0 <= target`: -1 names no instruction, though the last is a JUMP_IF_FALSE
    assert not compiled.threads_to(-1, [(OP.JUMP, 0, None), (OP.JUMP_IF_FALSE, 0, None)])


def test_modes_are_the_deals_small_int_modes_else_none():
    # pins _modes: each DEAL's operand after the others' (an int in 0..SMALL-1), or () for any other
    from pipvm.isa.opcodes import BY_CODE
    load, deal = BY_CODE[OP.LOAD_LOCAL], BY_CODE[OP.DEAL]
    assert compiled._modes([load, deal, load, deal], [5, 2, 7, 0]) == (2, 0)
    assert compiled._modes([load, load], [5, 2]) == ()
    for mode in (compiled.SMALL, -1, '2', None, 2.0):
        assert compiled._modes([load, deal], [5, mode]) == (), mode
        assert compiled._modes([deal, load, deal], [1, 5, mode]) == (), mode


def test_a_block_s_source_keeps_its_locals_as_composed():
    # pins function's forwarded=False: a block composed while a game runs skips forward's rewriting
    source = compiled.function((OP.CONST, OP.STORE_LOCAL)).source
    assert '    value0 = self.consts[arg[1]]\n    frame[arg[2]] = value0\n' in source


def test_a_loop_block_s_body_is_indented_by_four():
    # pins function's _indent(..., 4): `pipvm dis --compiled` shows a loop's body one level in
    for codes in [(OP.LOAD_LOCAL, OP.STORE_LOCAL), (OP.FOR_NEXT, OP.LOAD_LOCAL, OP.STORE_LOCAL)]:
        lines = compiled.function(codes, 'loop').source.rstrip().split('\n')
        assert lines[1] in ('    while True:', '    for frame[arg[1]] in stack[-1]:')
        assert lines[2].startswith(' ' * 8) and not lines[2].startswith(' ' * 9)
        assert all((len(line) - len(line.lstrip())) % 4 == 0 for line in lines)


def test_a_loop_block_entered_inside_is_no_whole_loop():
    # pins variant's `whole`: a loop block is a whole loop only if no jump enters past its start
    import types
    instrs = [(OP.LOAD_LOCAL, 0, None), (OP.STORE_LOCAL, 1, None), (OP.JUMP, 0, None)]
    for entered, whole in [(set(), True), ({1}, False), ({2}, False)]:
        loaded = types.SimpleNamespace(positions=[((1, 1),), ((2, 2),), ((3, 3),)])
        out = compiled.variant(loaded, instrs, entered, list(loaded.positions))
        assert compiled.lazy_of(out[0][2]).whole_loop is whole, entered


def test_dis_shows_a_region_that_calls_a_rule_before_any_game_warmed_it():
    # pins _Site's pures = (): `pipvm dis --compiled` makes regions before any game sets them
    from disasm import listing
    from compiler.pip import frontend
    from tests.fuzz import harness
    program = harness.compile_checked(frontend.check_text('''Game "C" requires 2 players.
Deck deck = standard.
Area pile labeled "Pile" is faceup.
Number n = 0.
Rule fits(p, c, top) = c->rank == top->first->rank.
Action main {
  deal 1 from deck to pile.
  deal 5 from deck to players.
  for k in [1; 2; 3] {
    for p in players { if canplay fits from p to pile { n += 1. } }
  }
  message "{n}".
}
'''))
    text = listing.compiled_listing(program)
    assert 'region of the loop' in text and 'self.playable(' in text


def test_a_block_threads_an_and_s_jump_through_the_jump_if_false_it_targets():
    # pins variant's threaded(...): the block's key and operands have the `and`'s jump threaded
    import types
    from pipvm.isa.opcodes import BY_CODE
    instrs = [(OP.LOAD_LOCAL, 0, None), (OP.EQ_CONST_AND, (0, 3), None),
              (OP.LOAD_LOCAL, 1, None), (OP.JUMP_IF_FALSE, 7, None),
              (OP.LOAD_LOCAL, 2, None), (OP.STORE_LOCAL, 3, None)]
    loaded = types.SimpleNamespace(positions=[((k, k),) for k in range(6)])
    out = compiled.variant(loaded, instrs, {3}, list(loaded.positions))
    op, arg, fn = out[0]
    codes = compiled.lazy_of(fn).key[0]
    parts = [p.code for p in BY_CODE[OP.EQ_CONST_AND].parts]
    assert codes[:4] == (OP.LOAD_LOCAL, OP.CONST, OP.EQ, OP.JUMP_IF_FALSE), codes
    assert parts[-1] == OP.JUMP_IF_FALSE_OR_POP and arg[1:4] == (0, 0, 7)
