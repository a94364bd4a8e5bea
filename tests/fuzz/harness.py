"""Running one program on an engine, with scripted answers, and recording
everything observable: the transcript, how the game ended, and its final state.

The seats are the real HumanSeat (so the dialogue, re-asking included, is
the one a terminal shows); only the console is scripted: each line a seat
reads comes from the case's answers, an int choosing the option at that
index (mod the number of options) and a string typed as it is.
"""
import io
import re

import attrs

from compiler.codegen import generator as codegen
from compiler.pip import frontend
from compiler.reference import pip as reference
from pipvm.play import loader
from pipvm.isa import pipc
from pipvm.core.errors import InputEnded, PipError, StepLimit
from pipvm.core.rng import OCamlRandom
from pipvm.core.runtime import Area, Card, Player, Rank, Suit, Team, Text
from pipvm.engine import compiled as compiled_tier, engines
from pipvm.engine.vm import Dealer, Image
from pipvm.play.table import Console, HumanSeat, Table, TableGame

MAX_STEPS = 3000


class ScriptConsole(Console):
    """A console whose input is the answer script; it echoes what it 'types'."""

    def __init__(self, answers, echo=True):
        super().__init__(io.BytesIO(), io.BytesIO())
        self.answers = list(answers)
        self.options = None            # the options of the choice being read
        self.echo = echo
        self.typed = []                # every line read, as a terminal would send it

    def read_line(self, prompt):
        self.write(prompt)
        if not self.answers:
            return None
        answer = self.answers.pop(0)
        if isinstance(answer, int):
            answer = (self.options[answer % len(self.options)] if self.options
                      else 'P%d' % answer)
        self.typed.append(answer)
        if self.echo:
            self.write(answer + '\n')
        return answer

    def output(self):
        return self.stdout.getvalue()


class ScriptSeat(HumanSeat):
    def name(self, prompt, waiting_for):
        self.console.options = None
        return super().name(prompt, waiting_for)

    def choose(self, heading, options, waiting_for):
        self.console.options = options
        try:
            return super().choose(heading, options, waiting_for)
        finally:
            self.console.options = None


@attrs.frozen
class Outcome:
    transcript: str
    ending: str                # `winner NAME`, `no winner`, the error line, or `step limit`
    state: object              # snapshot() of the game at the end
    steps: int                 # steps left of MAX_STEPS: both engines count the same steps
    told: tuple = ()           # every event the table was told, with its audience (TellingTable)


class TellingTable(Table):
    """A Table noting each event it is told with who may read it: (text,
    to, card, by, others), so that the engines' decisions of an audience
    are compared too (the reference makes its own:
    compiler/reference/told.py).  Not its kind: the reference's table says
    a message to all as a 'show'."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.told = []

    def show_event(self, event):
        self.told.append(tuple(event[1:6]))
        super().show_event(event)


def compile_checked(checked):
    """The VM's program for a checked AST, through the file format as `pipvm run` does."""
    return pipc.load(pipc.dump(codegen.generate(checked)), '<fuzz>')


def vm_engine(checked, max_steps=None, engine=engines.DEFAULT):
    # MAX_STEPS read at the call: a test may raise it (monkeypatch)
    return loader.vm_engine(compile_checked(checked), MAX_STEPS if max_steps is None else max_steps,
                            engine=engine)


def vm_image(checked):
    """The program as the VM loads it (vm.Image): fused, rewritten, decoded."""
    return Image(compile_checked(checked))


def image_engine(image, max_steps=None):
    """vm_engine for an Image already loaded (any number of games run from one)."""
    steps = MAX_STEPS if max_steps is None else max_steps
    return lambda table, rng: TableGame(image, table, rng, steps)


def reference_engine(checked):
    return lambda table, rng: reference.Interpreter(checked, table, rng, MAX_STEPS)


def run(make_engine, seed, answers, console=None):
    """Play one game: its Outcome.  Python exceptions (engine crashes) propagate."""
    console = console or ScriptConsole(answers)
    seat = ScriptSeat(console)
    table = TellingTable(console, default=lambda number: seat)
    engine = make_engine(table, OCamlRandom(seed))
    try:
        winner = engine.play()
        ending = 'no winner' if winner is None else 'winner ' + winner
    except (PipError, InputEnded) as e:
        ending = str(e)
    except StepLimit:
        ending = 'step limit'
    return Outcome(console.output().decode('latin-1'), ending, snapshot(engine), engine.steps_left,
                   tuple(table.told))


def both(source, seed, answers):
    """(VM outcome, reference outcome) for a program that must check.  The VM
    plays it on the compiled tier and on the loop, which must give the same
    outcome (asserted here, so that every caller compares all three engines)."""
    checked = frontend.check_text(source)
    program = compile_checked(checked)
    # the tier's blocks made at their first call for half the examples (a
    # short program's blocks are rarely hot: compiled.HOT), as in a game
    # otherwise (their first instructions alone, the loop the rest)
    hot = compiled_tier.HOT
    compiled_tier.HOT = 1 if seed % 2 else hot
    try:
        compiled = run(loader.vm_engine(program, MAX_STEPS, engine=engines.COMPILED), seed, answers)
    finally:
        compiled_tier.HOT = hot
    loop = run(loader.vm_engine(program, MAX_STEPS, engine=engines.LOOP), seed, answers)
    assert compiled == loop, 'the compiled tier and the loop differ'
    return compiled, run(reference_engine(checked), seed, answers)


class NotingDealer(Dealer):
    """The plain dealer, noting for each shuffle how many events came before
    it (clocks) and the deck indexes of the cards it leaves, in order
    (orders; None for a player)."""

    def __init__(self):
        self.clocks, self.orders = [], []

    def shuffle(self, machine, items):
        self.clocks.append(len(machine.events))
        super().shuffle(machine, items)
        index = {id(c): i for i, c in enumerate(machine.deck)}
        self.orders.append([index.get(id(c)) for c in items])


def snapshot(engine):
    """The game's state as plain data: globals, players, teams and every
    card, with objects named by their place (card i of the deck, player i)
    and, for each list, which earlier list it is the same object as."""
    deck, players = engine.deck, list(engine.players)
    teams = [] if engine.teams is None else list(engine.teams)
    place = {id(c): ('card', i) for i, c in enumerate(deck)}
    place.update({id(p): ('player', i) for i, p in enumerate(players)})
    place.update({id(t): ('team', i) for i, t in enumerate(teams)})
    lists = {}

    def value(v):
        kind = type(v)
        if v is None or kind in (bool, int, str, Text):
            return v
        if kind is Rank:
            return ('rank', int(v))
        if kind is Suit:
            return ('suit', v.letter)
        if kind is list:
            alias = lists.setdefault(id(v), len(lists))
            return ('list', alias, tuple(value(x) for x in v))
        if kind is Area:
            return ('area', v.name, value(v.cards), v.is_facedown, v.is_squaredup)
        if kind in (Card, Player, Team):
            return place.get(id(v), ('stranger', kind.__name__))
        raise AssertionError('unexpected value %r' % (v,))

    return (
        tuple(value(g) for g in engine.globals),
        value(engine.players),
        value(engine.teams),
        tuple((p.name, value(p.hand), value(p.stash), value(p.score), value(p.team),
               tuple(sorted((k, value(x)) for k, x in p.own.items()))) for p in players),
        tuple((value(t.members), value(t.stash), value(t.score),
               tuple(sorted((k, value(x)) for k, x in t.own.items()))) for t in teams),
        tuple((value(c.rank), value(c.suit), value(c.last_played_by)) for c in deck),
    )


def played_out(program, seeds=(1, 2), max_steps=None):
    """For the loop, then the compiled tier: (the image, [(the game played
    out, its policy's generator)] a seed) of a 2-player game forked at its
    first decision and played out by random.Random(seed)."""
    import random
    from pipvm.game.game import Game
    from pipvm.play.bots import playout
    out = []
    for compiled in (False, True):
        image = Image(program, compiled=compiled)
        runs = []
        for seed in seeds:
            g = Game(image, seed=seed, players=2, names=['a', 'b'], quiet=True,
                     max_steps=max_steps)
            rng = random.Random(seed)
            runs.append((playout(g.fork(quiet=True), rng), rng))
        out.append((image, runs))
    return out


def unheld(fn):
    """The pcs fn's runs go on at by its test tree (`pc = N` then
    `continue`) that the tree has no start for: a pc the tree does not hold
    runs the nearest start below it (a run written before, again: no step
    counted, the stack growing for good)."""
    lines = fn.source.split('\n')
    gone = {int(m.group(1)) for line, after in zip(lines, lines[1:])
            if (m := re.fullmatch(r' *pc = (\d+)', line)) and after.strip() == 'continue'}
    return gone - fn.entries
