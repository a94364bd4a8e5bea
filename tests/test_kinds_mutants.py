"""kinds.items_shown, instruction by instruction: each of _KEEP's alone
keeps a program's answer yes, any other instruction makes it no but a list
literal of the builtins' items and a list constant of shown items or only
iterated, and a list constant (tuple or list) a CONST pushes makes it no;
a code that does not decode, or a list constant of Numbers last in its
code, is no (tools/mutation-results/kinds.tsv)."""
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
    'CANPLAY', 'ROTATE', 'SHUFFLE', 'ADD', 'SUB', 'MUL', 'DIV', 'LT', 'LE', 'GT', 'GE', 'IN',
    'ORDER', 'FOR_ITER_FROM', 'WILD_SUIT', 'WILD_RANK', 'STORE_PROP'}
# (yes or no by their operands and neighbours: the tests below)
CHECKED = {'BUILD_LIST', 'LIST_CONST'}


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
    for n, name in enumerate(sorted(in_file - KEEP - CHECKED)):
        assert not kinds.items_shown(_with(program, name, n=n)), name
    # (all of them at once: the program's instructions may be the whole set)
    assert kinds.items_shown(_with(program, *sorted(KEEP)))


def _prefixed(program, instrs, extra=()):
    """program with instrs ((name, args) each) put first in its last code
    object, and the constants extra after its own."""
    code = b''.join(pipc.encode_instr(BY_NAME[name], args) for name, args in instrs)
    last = program.codes[-1]
    return plain.evolve(program, consts=type(program.consts)(list(program.consts) + list(extra)),
                        codes=tuple(program.codes[:-1]) + (plain.evolve(last, code=code
                                                                        + last.code),))


def test_a_list_constant_of_either_kind_pushed_by_const_makes_it_no():
    program = _program()
    k = len(program.consts)
    for extra in ((1, 2), [1, 2], ('a', 'b')):
        assert not kinds.items_shown(_prefixed(program, [('CONST', (k,)), ('POP', ())], [extra]))
        # (unused, or a constant of another kind pushed, keeps it yes)
        assert kinds.items_shown(_prefixed(program, [('CONST', (k - 1,)), ('POP', ())], [extra]))
    assert not kinds.items_shown(_prefixed(program, [('CONST', (k + 1,)), ('POP', ())], [7]))
    consts = type(program.consts)(list(program.consts) + ['text', 7])
    assert kinds.items_shown(plain.evolve(program, consts=consts))


def test_a_list_constant_of_numbers_or_of_lists_makes_it_no_but_for_a_for_over_it():
    program = _program()
    k = len(program.consts)
    cards = ('a', 'b', True)
    for extra, yes, iterated in ((cards, True, True), ((1, 'a'), False, True),
                                 ((None,), False, True), (((1,), 'a'), False, False),
                                 ([['a']], False, False), ('text', True, True)):
        pushed = _prefixed(program, [('LIST_CONST', (k,)), ('POP', ())], [extra])
        assert kinds.items_shown(pushed) == yes, extra
        looped = _prefixed(program, [('LIST_CONST', (k,)), ('FOR_ITER', ()), ('POP', ())],
                           [extra])
        assert kinds.items_shown(looped) == iterated, extra
    assert not kinds.items_shown(_prefixed(program, [('LIST_CONST', (k,))], [(1,)]))
    assert not kinds.items_shown(_prefixed(program, [('LIST_CONST', (k + 1,)), ('POP', ())],
                                           [cards]))
    assert not kinds.items_shown(_prefixed(program, [('LIST_CONST', (k,)), ('DUP', ()),
                                                     ('FOR_ITER', ()), ('POP', ())], [(1,)]))


def test_a_list_literal_only_of_the_builtins_keeps_it_yes():
    program = _program()
    k = len(program.consts)
    builtins = [('LOAD_BUILTIN', (0,)), ('LOAD_BUILTIN', (2,))]
    assert kinds.items_shown(_prefixed(program, builtins + [('BUILD_LIST', (2,)), ('POP', ())]))
    assert kinds.items_shown(_prefixed(program, [('BUILD_LIST', (0,)), ('POP', ())]))
    for instrs in ([('CONST', (1,))] + builtins[1:], builtins[:1] + [('LOAD_LOCAL', (0,))]):
        assert not kinds.items_shown(_prefixed(program, instrs + [('BUILD_LIST', (2,)),
                                                                  ('POP', ())])), instrs
    # (more items than the code holds before it; a list constant's items)
    assert not kinds.items_shown(_prefixed(program, builtins + [('BUILD_LIST', (3,)),
                                                                ('POP', ())]))
    assert not kinds.items_shown(_prefixed(program, [('LIST_CONST', (k,)), ('BUILD_LIST', (1,)),
                                                     ('POP', ())], [('a',)]))
    # a jump into the literal's pushes or to it: other values may stand there
    # (offsets: the JUMP_IF_FALSE 5 bytes, each LOAD_BUILTIN 2)
    for target, yes in ((5, True), (7, False), (9, False), (11, True)):
        jumped = _prefixed(program, [('JUMP_IF_FALSE', (target,))] + builtins
                           + [('BUILD_LIST', (2,)), ('POP', ())])
        assert kinds.items_shown(jumped) == yes, target


def test_an_answer_is_kept_for_the_same_codes_and_kinds_of_constants():
    program = _program()
    kinds._SHOWN.clear()
    assert kinds.items_shown(program)
    key = (tuple(code.code for code in program.codes),
           tuple(map(kinds._kind, program.consts)))
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


def _coded(program, instrs, extra=()):
    """program with its last code object's code instrs alone ((name, args)
    each: no RETURN after them), and the constants extra after its own."""
    code = b''.join(pipc.encode_instr(BY_NAME[name], args) for name, args in instrs)
    return plain.evolve(_prefixed(program, [], extra), codes=tuple(program.codes[:-1]) + (
        plain.evolve(program.codes[-1], code=code),))


def test_a_list_constant_of_numbers_last_in_its_code_is_no_and_a_for_over_it_yes():
    # (the last instruction has no next one to read: the answer, not an
    # IndexError; a FOR_ITER last of all is read as the next one)
    program = _program()
    k = len(program.consts)
    assert kinds.items_shown(_coded(program, [('LIST_CONST', (k,))], [(1,)])) is False
    assert kinds.items_shown(_coded(program, [('LIST_CONST', (k,)), ('FOR_ITER', ())], [(1,)]))
    assert kinds.items_shown(_coded(program, [('LIST_CONST', (k,)), ('FOR_ITER', ()),
                                              ('POP', ())], [(1,)]))


def test_a_code_that_does_not_decode_is_answered_no():
    # (opcode 0 is none; LOAD_LOCAL_PROP is made only at load)
    program = _program()
    for code in (b'\x00', bytes([BY_NAME['LOAD_LOCAL_PROP'].code, 0, 0]),
                 bytes([BY_NAME['CONST'].code])):
        bad = plain.evolve(program, codes=tuple(program.codes[:-1]) + (
            plain.evolve(program.codes[-1], code=code),))
        assert kinds.items_shown(bad) is False, code
        assert kinds.items_shown(bad) is False, code       # (the cached answer)
