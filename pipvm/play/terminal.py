"""Playing one game at the terminal: an engine, a table of seats and a seed."""
import os

from pipvm.core.deepstack import deep
from pipvm.core.rng import OCamlRandom
from pipvm.play.seats import Seating
from pipvm.play.table import Console, Table


def random_seed():
    return int.from_bytes(os.urandom(4), 'little') & 0x3FFFFFFF


def start(engine, seed, console, seating, table_class=Table):
    """(table, engine) of a new game: one seeded generator deals the cards
    and drives the random bots, so the seed fixes the whole game."""
    rng = OCamlRandom(seed)
    table = table_class(console, **seating.table_args(console, rng))
    return table, engine(table, rng)


def play(engine, seed=None, console=None, seating=None, table_class=Table):
    """Play one game at the console; returns the exit status (errors are raised).

    engine(table, rng) makes the engine (see loader.load_engine)."""
    console = console or Console()
    _, machine = start(engine, random_seed() if seed is None else seed, console,
                       seating or Seating(), table_class)
    try:
        deep(machine.play)
    finally:
        console.flush()
    return 0
