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

def is_bytecode(path, data):
    return path.endswith('.pipc') or data.startswith(pipc.MAGIC)


def load_program(path):
    """A validated program from a .pipc file, or compiled in memory from source."""
    return _load(path)[0]


def _load(path):
    """(validated program, its checked AST, or None for a .pipc)."""
    data = pipc.read_file(path)
    if is_bytecode(path, data):
        return pipc.load(data, path), None
    from compiler import codegen, frontend
    checked = frontend.check_text(data.decode('latin-1'))
    # Through the file format, so a .pip runs exactly as its .pipc would.
    return pipc.load(pipc.dump(deep(codegen.generate, checked)), path), checked


def vm_engine(program, max_steps=None, fuse=True):
    """An engine factory, (table, rng) -> engine, for a validated pipc.Program
    (fuse=False: without superinstructions, to measure what they buy)."""
    image = Image(program, fuse)
    return lambda table, rng: Machine(image, table, rng, max_steps)


def load_engine(path, engine='vm', max_steps=None, fuse=True):
    """(program, engine factory) for the game in path.  The program is the
    compiled one whichever engine runs it (it knows the player counts)."""
    program, checked = _load(path)
    if engine != 'reference':
        return program, vm_engine(program, max_steps, fuse)
    if checked is None:             # the reference walks the checked AST
        raise PipError(None, '%s: the reference engine runs .pip sources, not bytecode' % path)
    from compiler import reference
    return program, lambda table, rng: reference.Interpreter(checked, table, rng, max_steps)


def random_seed():
    return int.from_bytes(os.urandom(4), 'little') & 0x3FFFFFFF


def start(engine, seed, console, seating, table_class=Table):
    """(table, engine) of a new game: one seeded generator deals the cards
    and drives the random bots, so the seed fixes the whole game."""
    rng = OCamlRandom(seed)
    table = table_class(console, **seating.table_args(console, rng))
    return table, engine(table, rng)


def play(engine, seed=None, console=None, seating=None):
    """Play one game at the console; returns the exit status (errors are raised).

    engine(table, rng) makes the engine (see load_engine)."""
    console = console or Console()
    table, machine = start(engine, random_seed() if seed is None else seed, console,
                           seating or Seating())
    try:
        winner = deep(machine.play)
        table.show('No winner has been declared.' if winner is None
                   else 'The game was won by ' + winner)
    finally:
        console.flush()
    return 0
