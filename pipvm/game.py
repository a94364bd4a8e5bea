"""Playing one game from a compiled program: the VM, a table and a seed."""
import os

from .deepstack import deep
from .rng import OCamlRandom
from .table import Console, Table
from .vm import Image, Machine


def play(program, seed=None, console=None, seats=None, max_steps=None):
    """Play at the console; returns the exit status (errors are raised)."""
    if seed is None:
        seed = int.from_bytes(os.urandom(4), 'little') & 0x3FFFFFFF
    console = console or Console()
    table = Table(console, seats)
    machine = Machine(Image(program), table, OCamlRandom(seed), max_steps)
    try:
        winner = deep(machine.play)
        table.show('No winner has been declared.' if winner is None
                   else 'The game was won by ' + winner)
    finally:
        console.flush()
    return 0
