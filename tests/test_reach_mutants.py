"""pipvm/engine/reach.py's edge cases that the examples never build
(tools/mutation-results/reach.tsv: the mutants these kill): an operand of a
shape the verifier never lets through, and a threaded jump's target that a
fused instruction's constant index also names; a quiet instruction going
on past the code, an action whose first instruction jumps."""
from pipvm.engine import actions, reach
from pipvm.engine.vm import Image
from pipvm.isa.opcodes import BY_CODE, OP
from tests.test_actions import _hand_made, _play_outs

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


def test_a_place_past_the_code_or_before_it_reaches_nothing():
    # (a quiet instruction going on at its operand's last int: here past the
    # end, exactly at it, or before the start, where -1 would be the JUMP)
    quiet = next(iter(actions.QUIET))
    jump = (OP.JUMP, 1, None)
    for after in (3, 10 ** 9, -1):
        assert reach.jumped_to([(quiet, (1, after), None), RET, jump], {0}) == set(), after
    assert reach.jumped_to([(quiet, (1, 1), None), RET, jump], {0}) == set()
    assert reach.jumped_to([(quiet, (1, 2), None), RET, jump], {0}) == {1}


def test_an_action_entered_at_a_jump_has_its_target_for_a_start():
    # helper: 0 JUMP 2, 1 RETURN (never run), 2.. n += 1: the jump at the
    # call's entry is one the function can reach, so 2 is a start
    program = _hand_made([('JUMP', 6), ('RETURN',), ('LOAD_GLOBAL', 1), ('CONST', 2), ('ADD',),
                          ('STORE_GLOBAL', 1), ('RETURN',)])
    image = Image(program, compiled=True)
    actions.prepare(image)
    helper = next(l for l in image.codes if l.code.name == 'helper')
    assert [BY_CODE[op].name for op, _, _ in helper.plain[1][:3]] == ['JUMP', 'RETURN', 'LOAD_GLOBAL']
    assert helper.action.entries == {0, 2}
    (loop, _), (tier, functions) = _play_outs(program)
    assert functions and tier == loop


def test_the_loop_enters_where_each_quiet_instruction_s_statement_ends():
    # (what a function keeps where an instruction's successors are not
    # known: the loop's entries, a quiet instruction's end among them)
    from pipvm.play import loader
    from tests.test_compiled_playouts import ROOT
    ends = {}
    for name in ('agram', 'crazy_eights'):
        image = Image(loader.load_program('%s/examples/%s.pip' % (ROOT, name)))
        for loaded in image.codes:
            quiet = {OP.QUIET_LOCALS: 1, OP.QUIET_MESSAGE: -1, OP.QUIET_LOOP: -1, OP.QUIET_FOR: -1}
            at = {arg[quiet[op]] for op, arg, _ in loaded.quiet if op in quiet}
            if at:
                entered = reach._entered(loaded, loaded.quiet)
                assert at <= entered, (name, loaded.code.name)
                ends.update((op, name) for op, _, _ in loaded.quiet if op in quiet)
    assert set(ends) == {OP.QUIET_LOCALS, OP.QUIET_MESSAGE, OP.QUIET_LOOP, OP.QUIET_FOR}
