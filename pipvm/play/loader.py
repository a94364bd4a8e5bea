"""Loading a game: a validated program from a .pipc, or from a .pip compiled
in memory; and the engines that play it (the VM, or the reference
interpreter with `--engine reference`).

An engine factory is (table, rng) -> engine, an engine anything with
`play()` returning the winner's name (or None when main returns), and
`players`/`teams` for who played.
"""
import hashlib

from pipvm.isa import pipc
from pipvm.core.deepstack import deep
from pipvm.core.errors import PipError
from pipvm.play.table import TableGame
from pipvm.engine.vm import Image


def is_bytecode(path, data):
    return path.endswith('.pipc') or data.startswith(pipc.MAGIC)


def load_program(path):
    """A validated program from a .pipc file, or compiled in memory from source."""
    return load(path)[0]


def load(path):
    """(validated program, its checked AST, or None for a .pipc)."""
    data = pipc.read_file(path)
    if is_bytecode(path, data):
        return pipc.load(data, path), None
    from compiler.codegen import generator as codegen
    from compiler.pip import frontend
    checked = frontend.check_text(data.decode('latin-1'))
    # Through the file format, so a .pip runs exactly as its .pipc would.
    return pipc.load(pipc.dump(deep(codegen.generate, checked)), path), checked


def fingerprint(program):
    """A digest of the compiled program: a record names the game it was played with."""
    return hashlib.sha256(pipc.dump(program)).hexdigest()


def vm_engine(program, max_steps=None, fuse=True, compiled=False):
    """An engine factory for a validated pipc.Program (fuse=False: without
    superinstructions, to measure what they buy; compiled: with the
    compiled tier's blocks, pipvm/engine/compiled.py)."""
    image = Image(program, fuse, compiled)
    return lambda table, rng: TableGame(image, table, rng, max_steps)


def load_variant(path, sets=()):
    """(program, checked AST or None, overrides.Settings): the game in path
    with the initial values `--set NAME=VALUE` gives (sets: [(name, text)])."""
    program, checked = load(path)
    if not sets:
        return program, checked, []
    from pipvm.play import overrides
    return overrides.apply(program, checked, sets, path)


def load_engine(path, engine='vm', max_steps=None, fuse=True, sets=()):
    """(program, engine factory) for the game in path.  The program is the
    compiled one whichever engine runs it (it knows the player counts)."""
    program, checked, _ = load_variant(path, sets)
    return program, engine_for(program, checked, path, engine, max_steps, fuse)


def engine_for(program, checked, path, engine='vm', max_steps=None, fuse=True):
    """The engine factory that plays a loaded program (see load_variant)."""
    if engine != 'reference':
        return vm_engine(program, max_steps, fuse, compiled=engine == 'compiled')
    if checked is None:             # the reference walks the checked AST
        raise PipError(None, '%s: the reference engine runs .pip sources, not bytecode' % path)
    from compiler.reference import pip as reference
    return lambda table, rng: reference.Interpreter(checked, table, rng, max_steps)
