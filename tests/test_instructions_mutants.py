"""The instruction table's own code (pipvm/isa/instructions.py), where the
generated code, the effects and the games do not show a fault: the names a
body is written over, the flags written out, _op's and _fused's checks, a
counted input's pops and _effect's operand of a fused DEAL
(tools/mutation-results/instructions.tsv)."""
import pytest

from pipvm.isa.instructions import BODY_FLAGS, FLAGS, READS, _effect, _fused, _made, _op
from pipvm.isa.opcodes import BY_NAME, DEAL_ALL, INSTRUCTIONS

# every instruction with each flag (written out: a default or a flag word
# changed shows here; pure.py, fusion.py and quiet.py read them)
PURE = {
    'ACE_HIGH', 'ADD', 'ADD_CONST', 'AGG_END', 'BUILD_LIST', 'CANPLAY', 'CANPLAY_SET', 'CONST',
    'DEFINED_BUILTIN', 'DEFINED_GLOBAL', 'DEFINED_LOCAL', 'DEFINED_OWN', 'DEFINED_PROP', 'DIV',
    'DROP', 'DUP', 'EQ', 'EQ_CONST', 'EQ_GLOBAL', 'FORMAT', 'GE', 'GT', 'IN', 'LE', 'LIST_CONST',
    'LIST_ITEM', 'LIST_PROP', 'LOAD_BUILTIN', 'LOAD_BUILTIN_LIST_PROP', 'LOAD_GLOBAL',
    'LOAD_GLOBAL_PROP', 'LOAD_GLOBAL_PROP_LIST_PROP', 'LOAD_LOCAL', 'LOAD_LOCAL_ITEM_PROP',
    'LOAD_LOCAL_LIST_PROP', 'LOAD_LOCAL_PROP', 'LOAD_OWN', 'LOAD_PROP', 'LT', 'MAKE_CARD',
    'MAKE_CARDS', 'MUL', 'NE', 'NOT', 'PICK_BY', 'POP', 'RANGE', 'SEQ', 'SUB', 'SWAP',
    'WILD_RANK', 'WILD_SUIT'}
FAILS = {
    'AGG_END', 'ASK', 'ASK_FROM', 'CALL_FOR', 'CALL_WITH', 'CANPLAY', 'CANPLAY_JUMP_IF_FALSE',
    'CANPLAY_SET', 'DEAL_ALL_GLOBAL_BUILTIN', 'DEAL_CARD', 'DEAL_GLOBAL_BUILTIN_CONST', 'DIV',
    'EQ_GLOBAL', 'EQ_GLOBAL_JUMP_IF_FALSE', 'FINISH', 'FOR_ITER_FROM', 'LIST_ITEM', 'LIST_PROP',
    'LOAD_BUILTIN', 'LOAD_BUILTIN_LIST_PROP', 'LOAD_GLOBAL', 'LOAD_GLOBAL_PROP',
    'LOAD_GLOBAL_PROP_LIST_PROP', 'LOAD_LOCAL', 'LOAD_LOCAL_ITEM_PROP', 'LOAD_LOCAL_LIST_PROP',
    'LOAD_LOCAL_PROP', 'LOAD_OWN', 'LOAD_PROP', 'ORDER', 'PICK_BY', 'PLAY', 'PLAY_AGAIN',
    'PLAY_CARD_OR', 'PLAY_SET', 'PLAY_SET_OR', 'QUIET_FOR', 'QUIET_LOCALS', 'QUIET_LOOP',
    'QUIET_MESSAGE', 'SHUFFLE_GLOBAL', 'STORE_LOCAL_ADD_CONST', 'TURN_BACK', 'TURN_OUT'}
MAKES = {'BUILD_LIST', 'DEAL_EACH', 'FOR_ITER', 'FOR_ITER_FROM', 'LIST_CONST', 'MAKE_CARDS',
         'NEW_AREA', 'NEW_GROUP', 'RANGE', 'SEQ', 'WILD_RANK', 'WILD_SUIT'}
# the counted inputs: the operand counting them, and the inputs' names
COUNTED = {'DROP': ('n', ('values',)), 'FORMAT': ('n', ('values',)),
           'BUILD_LIST': ('n', ('values',)), 'ASK': ('n', ('player', 'values')),
           'CALL_WITH': ('n', ('values',)), 'CALL_FOR': ('n', ('values',))}


def test_the_flags_are_those_written():
    for flag, names in (('pure', PURE), ('fails', FAILS), ('makes', MAKES)):
        assert {op.name for op in INSTRUCTIONS if getattr(op, flag)} == names, flag


def test_control_never_falls_through_the_returns_the_jump_and_agg_step():
    # (the validator, the compiled tier's blocks and fors.py read `ends`)
    assert {op.name for op in INSTRUCTIONS if op.ends} == {
        'JUMP', 'RETURN', 'RETURN_VALUE', 'EQ_RETURN', 'GIVE', 'AGG_STEP'}


def test_every_operand_input_and_output_is_named_by_a_python_name():
    # a body is Python over these names (cases.substitute replaces them as
    # tokens): a name `!` or `it!` could never be substituted
    for op in INSTRUCTIONS:
        for name in op.names + op.inputs + op.outputs:
            assert name.isidentifier(), (op.name, name)


def test_a_counted_input_is_named_without_its_star_below_the_others():
    assert {op.name: (op.counted, op.inputs) for op in INSTRUCTIONS if op.counted} == COUNTED
    assert BY_NAME['ASK'].stack_pops((2,)) == 5         # (its own pops: two values a question)


def test_a_counted_input_pops_n_and_the_inputs_under_it():
    op = _op('X', 'n:count', 'a b *values -- res', 'x', 'res = 0')
    assert op.counted == 'n' and op.inputs == ('a', 'b', 'values')
    assert op.stack_pops((3,)) == 5 and op.stack_pops((0,)) == 2


def test_op_refuses_a_word_it_does_not_know_and_takes_every_one_it_does():
    with pytest.raises(AssertionError):
        _op('X', '', '--', 'x', 'pass', reads='hand cards')
    with pytest.raises(AssertionError):
        _op('X', '', '--', 'x', 'pass', flags='pure loud')
    op = _op('X', '', '--', 'x', 'pass', reads=' '.join(READS), flags=' '.join(FLAGS + BODY_FLAGS))
    assert op.reads == READS and all(getattr(op, f) for f in FLAGS + BODY_FLAGS)


def test_a_body_loses_only_the_newlines_around_it():
    op = _op('X', '', '--', 'x', '\nx = 1  # done!\n', quiet='\npass  # quiet!\n')
    assert op.body == 'x = 1  # done!' and op.quiet == 'pass  # quiet!'


def test_a_load_time_instruction_reads_and_is_nothing_unless_told():
    op = _made('X', 'loop', '--', 'x', 'pass')
    assert op.reads == () and not op.in_file
    assert not any(getattr(op, f) for f in FLAGS + BODY_FLAGS)


def test_fused_refuses_a_counted_part_after_the_first_and_a_deal_s_mode_unsaid():
    with pytest.raises(AssertionError):
        _fused('X', 'CONST FORMAT', 'x')
    with pytest.raises(AssertionError):
        _fused('X', 'LOAD_GLOBAL DEAL', 'x')        # (DEAL_ALL or not: deals_all says)
    with pytest.raises(AssertionError):
        _fused('X', 'LOAD_GLOBAL CONST', 'x', deals_all=True)
    # a last DEAL after one part or more takes deals_all; a DEAL alone, its own operand
    assert _fused('X', 'LOAD_GLOBAL DEAL', 'x', deals_all=True).stack_pops((0, 0)) == 1
    assert _fused('X', 'DEAL', 'x').stack_pops((DEAL_ALL,)) == 2


def test_effect_gives_the_first_part_first_and_a_last_deal_its_mode():
    # FORMAT takes `first` values; the DEAL after it, all (DEAL_ALL: two inputs)
    fmt, deal = BY_NAME['FORMAT'], BY_NAME['DEAL']
    assert _effect((fmt, deal), 3, True) == (4, 0, -2)
    assert _effect((fmt, deal), 3, False) == (5, 0, -2)
    assert _effect((fmt,), 3) == (3, 1, 0)
