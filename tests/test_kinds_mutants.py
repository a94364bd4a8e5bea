"""kinds.items_shown, instruction by instruction: each of _KEEP's alone
keeps a program's answer yes, any other instruction makes it no, and a
list constant (tuple or list) makes it no (tools/mutation-results/kinds.tsv)."""
from compiler.pip import frontend
from pipvm.core import plain
from pipvm.engine import kinds
from pipvm.isa import pipc
from pipvm.isa.opcodes import BY_NAME, OPCODES
from tests.fuzz import harness
from tests.test_kinds import HAND

# every name _KEEP must hold (written out: a mutant of the set shows here)
KEEP = {
    'CONST', 'LOAD_GLOBAL', 'STORE_GLOBAL', 'LOAD_LOCAL', 'STORE_LOCAL', 'LOAD_BUILTIN',
    'LOAD_PROP', 'LIST_PROP', 'DEFINED_GLOBAL', 'DEFINED_LOCAL', 'DEFINED_PROP', 'POP', 'DUP',
    'SWAP', 'DROP', 'EQ', 'NE', 'NOT', 'FORMAT', 'NEW_AREA', 'JUMP', 'JUMP_IF_FALSE',
    'JUMP_IF_FALSE_OR_POP', 'JUMP_IF_TRUE_OR_POP', 'FOR_ITER', 'FOR_NEXT', 'CALL', 'RETURN',
    'RETURN_VALUE', 'ASK', 'MESSAGE', 'MESSAGE_ALL', 'WINNER', 'DEAL', 'DEAL_CARD', 'PLAY',
    'CANPLAY', 'ROTATE', 'SHUFFLE'}


def _program():
    return harness.compile_checked(frontend.check_text(HAND))


def _with(program, *names, n=0):
    """program with the instructions `names` (zero operands) put first in its
    last code object (n: a distinct code so that no cached answer serves)."""
    extra = b''.join(pipc.encode_instr(BY_NAME[name], (0,) * len(BY_NAME[name].operands))
                     for name in names)
    last = program.codes[-1]
    codes = tuple(program.codes[:-1]) + (plain.evolve(last, code=extra + last.code
                                                      + bytes([BY_NAME['POP'].code]) * n),)
    return plain.evolve(program, codes=codes)


def test_each_kept_instruction_keeps_the_answer_and_no_other_does():
    program = _program()
    assert kinds.items_shown(program)
    in_file = {op.name for op in OPCODES}
    assert KEEP <= in_file
    for n, name in enumerate(sorted(KEEP)):
        assert kinds.items_shown(_with(program, name, n=n)), name
    for n, name in enumerate(sorted(in_file - KEEP)):
        assert not kinds.items_shown(_with(program, name, n=n)), name
    # (all of them at once: the program's instructions may be the whole set)
    assert kinds.items_shown(_with(program, *sorted(KEEP)))


def test_a_list_constant_of_either_kind_makes_it_no():
    program = _program()
    for extra in ((1, 2), [1, 2]):
        consts = type(program.consts)(list(program.consts) + [extra])
        assert not kinds.items_shown(plain.evolve(program, consts=consts))
    # (a constant of another kind keeps it yes)
    consts = type(program.consts)(list(program.consts) + ['text', 7])
    assert kinds.items_shown(plain.evolve(program, consts=consts))


def test_an_answer_is_kept_for_the_same_codes_and_kinds_of_constants():
    program = _program()
    kinds._SHOWN.clear()
    assert kinds.items_shown(program)
    key = (tuple(code.code for code in program.codes), tuple(map(type, program.consts)))
    assert kinds._SHOWN == {key: True}
    # (a wrong answer planted under the key is what a second call gives)
    kinds._SHOWN[key] = 'planted'
    assert kinds.items_shown(program) == 'planted'
    kinds._SHOWN.clear()


def test_the_cache_is_emptied_past_64_answers_only():
    program = _program()
    kinds._SHOWN.clear()
    for n in range(65):
        kinds.items_shown(_with(program, 'POP', n=n))
    assert len(kinds._SHOWN) == 65
    kinds.items_shown(_with(program, 'POP', n=65))
    assert len(kinds._SHOWN) == 1
    kinds._SHOWN.clear()
