"""The .pipc file: round trips, validation, and corrupted files."""
import os
import subprocess
import sys
import zlib

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from compiler.pip import frontend
from disasm.listing import listing
from pipvm.isa import opcodes, pipc
from pipvm.engine import vm
from pipvm.core.errors import InputEnded, PipError, StepLimit
from pipvm.play.loader import vm_engine
from pipvm.play.terminal import play
from pipvm.play.table import Console

from .util import run_cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, 'examples')
GAMES = sorted(os.path.join(EXAMPLES, f) for f in os.listdir(EXAMPLES) if f.endswith('.pip'))


def compiled(path):
    return frontend.compile_text(frontend.read_source(path))


def test_opcode_table_is_consistent():
    every = opcodes.INSTRUCTIONS
    codes = [op.code for op in every]
    names = [op.name for op in every]
    assert len(set(codes)) == len(codes) and len(set(names)) == len(names)
    assert all(0 < c < 256 for c in codes)
    # one table, three kinds; only the file's opcodes may be in a file
    assert set(every) == set(opcodes.OPCODES) | set(opcodes.FUSED) | set(opcodes.LOAD_TIME)
    assert all(op.in_file for op in opcodes.OPCODES)
    assert not any(op.in_file for op in opcodes.FUSED + opcodes.LOAD_TIME)
    assert {op.name for op in opcodes.LOAD_TIME} == {
        'PLAY_AGAIN', 'QUIET_MESSAGE', 'QUIET_LOOP', 'QUIET_LOCALS', 'QUIET_FOR', 'DEAL_EACH'}
    for op in every:       # the VM runs every instruction, inline or by handler
        assert (op.name in vm.INLINE) != (vm.HANDLERS.get(op.code) is not None), op.name
        assert op.doc


def test_a_load_time_opcode_in_a_file_is_refused_in_one_line():
    for op in opcodes.FUSED + opcodes.LOAD_TIME:
        error = load_error(pipc.dump(program_with(bytes([op.code]))))
        assert error == ('Error: g.pipc: invalid bytecode at offset 0 of action main (opcode %d '
                         '(%s) is made when the VM loads a program, never in a file)'
                         % (op.code, op.name)), error


def test_round_trip_compile_write_load_dis(tmp_path):
    for path in GAMES:
        program = compiled(path)
        out = tmp_path / 'game.pipc'
        pipc.write_file(str(out), pipc.dump(program))
        loaded = pipc.load(out.read_bytes(), str(out))
        assert loaded == program
        assert pipc.dump(loaded) == out.read_bytes()
        text = listing(loaded)
        # every instruction of every code object is listed, by its table name
        for code in loaded.codes:
            for ins in pipc.decode(code.code):
                assert any(line.split()[-1:] == [ins.op.name] or
                           (' %d  %s' % (ins.offset, ins.op.name)) in line
                           for line in text.splitlines()), (code.name, ins)
        status, dis_out = run_cli(['dis', str(out)])
        assert status == 0 and dis_out.decode('latin-1') == text


def test_dis_lists_every_opcode_the_compiler_emitted():
    emitted = set()
    for path in GAMES:
        program = compiled(path)
        text = listing(program)
        for code in program.codes:
            names = [ins.op.name for ins in pipc.decode(code.code)]
            emitted.update(names)
            assert sum(text.count('  %s' % n) > 0 for n in set(names)) == len(set(names))
    # the examples between them exercise most of the instruction set
    assert len(emitted) >= 45, sorted(set(op.name for op in opcodes.OPCODES) - emitted)


def test_constant_folding():
    text = listing(compiled_text('Game "F" requires 2 players.\nDeck d = 2..5~H.\n'
                                 'Number n = 2 + 3 * 4.\nAction main { }\n'))
    assert 'LIST_CONST' in text and 'Five of Hearts' in text and '(14)' in text
    assert 'RANGE' not in text and 'MAKE_CARDS' not in text and 'MUL' not in text


def compiled_text(text):
    return frontend.compile_text(text)


def load_error(data):
    try:
        pipc.load(data, 'g.pipc')
    except PipError as e:
        return str(e)
    return ''


def valid_bytes():
    return pipc.dump(compiled(os.path.join(EXAMPLES, 'high_card.pip')))


def with_checksum(payload):
    """A file whose header and checksum are right for payload."""
    return pipc.MAGIC + bytes([pipc.VERSION]) + zlib.crc32(payload).to_bytes(4, 'little') + payload


def test_header_errors():
    data = valid_bytes()
    assert load_error(b'Game "x"') == 'Error: g.pipc: not a pipvm bytecode file'
    assert load_error(data[:4] + b'\x07' + data[5:]) == 'Error: g.pipc: unsupported format version 7'
    flipped = data[:-1] + bytes([data[-1] ^ 1])
    assert load_error(flipped) == 'Error: g.pipc: corrupt (checksum mismatch)'
    assert load_error(with_checksum(data[9:-3])).startswith('Error: g.pipc: corrupt (')


def program_with(code_bytes, kind='action'):
    """A minimal program whose main action is code_bytes."""
    init = pipc.Code('init', 'globals', [], bytes([opcodes.OP.RETURN]), [])
    main = pipc.Code(kind, 'main', ['x'], code_bytes, [])
    return pipc.Program('T', [2], 0, ['g'], [7, (8,)], [init, main], 1)


def asm(*instrs):
    return b''.join(pipc.encode_instr(opcodes.BY_CODE[getattr(opcodes.OP, name)], args)
                    for name, *args in instrs)


def test_bytecode_errors_name_the_offset():
    cases = {
        bytes([250]): 'at offset 0 of action main (unknown opcode 250)',
        asm(('POP',), ('RETURN',)): 'at offset 0 of action main (stack underflow)',
        asm(('CONST', 9), ('RETURN',)): 'at offset 0 of action main (no constant 9)',
        asm(('CONST', 1), ('RETURN',)): 'at offset 0 of action main (constant 1 has the wrong kind)',
        asm(('LOAD_LOCAL', 1), ('RETURN',)): 'at offset 0 of action main (no local 1)',
        asm(('LOAD_GLOBAL', 1), ('RETURN',)): 'at offset 0 of action main (no global 1)',
        asm(('JUMP', 1), ('RETURN',)): 'at offset 0 of action main (jump target is not an instruction)',
        asm(('CONST', 0), ('RETURN',)): 'at offset 2 of action main (bad return)',
        asm(('CONST', 0), ('POP',)): 'at offset 2 of action main (runs off the end of the code)',
        asm(('CALL', 0), ('RETURN',)): 'at offset 0 of action main (no action 0)',
        asm(('CONST', 0), ('JUMP_IF_FALSE', 9), ('CONST', 0), ('RETURN',)):
            'inconsistent stack depth',
        asm(('ASK', 1), ('RETURN',)): 'ASK must be followed by one JUMP per question',
        asm(('RETURN',))[:0] + bytes([opcodes.OP.CONST]): 'at offset 0 of action main (truncated)',
    }
    for code, message in cases.items():
        error = load_error(pipc.dump(program_with(code)))
        assert error.startswith('Error: g.pipc: invalid bytecode') and message in error, (code, error)
    assert load_error(pipc.dump(program_with(asm(('RETURN',))))) == ''


def run_quietly(program):
    """Run a loaded program on three scripted answers; the outcome's kind."""
    import io
    console = Console(io.BytesIO(b'2\nA\nB\n'), io.BytesIO())
    try:
        play(vm_engine(program, 2000), seed=1, console=console)
    except (PipError, InputEnded, StepLimit):
        pass


def check_corrupt(data):
    """A corrupted file is rejected with one line, or it runs normally."""
    try:
        program = pipc.load(data, 'g.pipc')
    except PipError as e:
        text = str(e)
        assert text.startswith('Error: g.pipc: ') and '\n' not in text
        return
    run_quietly(program)


VALID = valid_bytes()


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(VALID)))
def test_truncated_files(n):
    check_corrupt(VALID[:n])


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(VALID) - 1), st.integers(0, 7)), min_size=1, max_size=4),
       st.booleans())
def test_bit_flips(flips, fix_checksum):
    data = bytearray(VALID)
    for at, bit in flips:
        data[at] ^= 1 << bit
    if fix_checksum:       # get past the checksum to the validator itself
        data = bytearray(with_checksum(bytes(data[9:])))
    check_corrupt(bytes(data))


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300), st.booleans())
def test_random_bytes(data, with_header):
    check_corrupt(with_checksum(data) if with_header else data)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(9, len(VALID) - 1), st.binary(min_size=1, max_size=8))
def test_overwritten_bytes(at, junk):
    payload = bytearray(VALID[9:])
    payload[at - 9:at - 9 + len(junk)] = junk
    check_corrupt(with_checksum(bytes(payload)))


def test_running_a_pipc_imports_neither_sly_nor_the_compiler(tmp_path):
    """Nor the registry of front ends (nor importlib.metadata, which reading
    its entry points costs): `pipvm run GAME.pipc` starts as fast as it can."""
    out = tmp_path / 'high_card.pipc'
    pipc.write_file(str(out), VALID)
    script = ('import sys, io\n'
              'from pipvm import cli\n'
              'sys.stdin = io.TextIOWrapper(io.BytesIO(open(sys.argv[2], "rb").read()))\n'
              'status = cli.main(["run", "--seed", "1", sys.argv[1]])\n'
              'bad = sorted(m for m in sys.modules if m.split(".")[0] in ("sly", "compiler")\n'
              '             or m in ("importlib.metadata", "pipvm.play.languages"))\n'
              'sys.stderr.write("status=%d modules=%s\\n" % (status, bad))\n')
    p = subprocess.run([sys.executable, '-c', script, str(out),
                        os.path.join(EXAMPLES, 'high_card.answers')],
                       capture_output=True, cwd=ROOT)
    assert p.stderr.decode().splitlines()[-1] == 'status=0 modules=[]'
    assert b'The game was won by' in p.stdout


def test_recursion_is_rejected():
    program = program_with(asm(('CALL', 1), ('RETURN',)))
    assert load_error(pipc.dump(program)) == (
        'Error: g.pipc: corrupt (code objects call each other in a cycle)')


def test_a_negative_varint_is_refused_not_written_forever():
    # (a card index of -1 made dump loop forever: mutation run of runtime.py)
    assert pipc.varint(300) == bytes([0xAC, 0x02])
    with pytest.raises(ValueError, match='negative number -1'):
        pipc.varint(-1)
