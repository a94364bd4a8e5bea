"""Playing one game at a table: an engine, a table of seats and a seed.

An engine is anything with `play()` returning the winner's name (or None
when main returns), and `players`/`teams` for who played: the VM here, or
the reference interpreter (compiler/reference.py) with `--engine reference`.
"""
import os

from . import pipc
from .deepstack import deep
from .errors import PipError
from .rng import OCamlRandom
from .seats import Seating
from .table import Console, Table
from .vm import Image, Machine

ENGINES = ('vm', 'reference')


def is_bytecode(path, data):
    return path.endswith('.pipc') or data.startswith(pipc.MAGIC)


def load_program(path):
    """A validated program from a .pipc file, or compiled in memory from source."""
    data = pipc.read_file(path)
    if is_bytecode(path, data):
        return pipc.load(data, path)
    from compiler import frontend
    program = frontend.compile_text(data.decode('latin-1'))
    # Through the file format, so a .pip runs exactly as its .pipc would.
    return pipc.load(pipc.dump(program), path)


def vm_engine(program, max_steps=None, fuse=True):
    """An engine factory, (table, rng) -> engine, for a validated pipc.Program
    (fuse=False: without superinstructions, to measure what they buy)."""
    image = Image(program, fuse)
    return lambda table, rng: Machine(image, table, rng, max_steps)


def reference_engine(path, max_steps=None):
    """The reference interpreter's factory for a .pip source (it walks the
    checked AST, so a compiled .pipc can't be run by it)."""
    data = pipc.read_file(path)
    if is_bytecode(path, data):
        raise PipError(None, '%s: the reference engine runs .pip sources, not bytecode' % path)
    from compiler import frontend, reference
    program = frontend.check_text(data.decode('latin-1'))
    return lambda table, rng: reference.Interpreter(program, table, rng, max_steps)


def load_engine(path, engine='vm', max_steps=None, fuse=True):
    """(program, engine factory) for the game in path; the program is the
    compiled one whichever engine runs it (it knows the player counts)."""
    if engine == 'reference':
        factory = reference_engine(path, max_steps)
        return load_program(path), factory
    program = load_program(path)
    return program, vm_engine(program, max_steps, fuse)


def random_seed():
    return int.from_bytes(os.urandom(4), 'little') & 0x3FFFFFFF


def play(engine, seed=None, console=None, seating=None):
    """Play one game at the console; returns the exit status (errors are raised).

    engine(table, rng) makes the engine (see load_engine)."""
    console = console or Console()
    rng = OCamlRandom(random_seed() if seed is None else seed)
    table = Table(console, **(seating or Seating()).table_args(console, rng))
    machine = engine(table, rng)
    try:
        winner = deep(machine.play)
        table.show('No winner has been declared.' if winner is None
                   else 'The game was won by ' + winner)
    finally:
        console.flush()
    return 0
