"""Playing one game at a table: an engine, a table of seats and a seed.

An engine is anything with `play()` returning the winner's name (or None
when main returns): the VM here, or the reference interpreter
(compiler/reference.py) for `pipvm run --engine reference`.
"""
import os

from .deepstack import deep
from .rng import OCamlRandom
from .table import Console, Table
from .vm import Image, Machine


def vm_engine(program, max_steps=None):
    """An engine factory for a validated pipc.Program."""
    image = Image(program)
    return lambda table, rng: Machine(image, table, rng, max_steps)


def play(program, seed=None, console=None, seats=None, max_steps=None, engine=None):
    """Play at the console; returns the exit status (errors are raised).

    engine(table, rng) makes the engine; by default the VM runs program."""
    if seed is None:
        seed = int.from_bytes(os.urandom(4), 'little') & 0x3FFFFFFF
    console = console or Console()
    table = Table(console, seats)
    machine = (engine or vm_engine(program, max_steps))(table, OCamlRandom(seed))
    try:
        winner = deep(machine.play)
        table.show('No winner has been declared.' if winner is None
                   else 'The game was won by ' + winner)
    finally:
        console.flush()
    return 0
