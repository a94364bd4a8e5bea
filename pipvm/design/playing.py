"""Playing one game of a simulation between bots, and what it notes (a
Result): what `pipvm sim` (sim.py) plays in its processes and cluster.py on
its workers."""
import operator

import attrs

from pipvm.core import plain
from pipvm.core import endings
from pipvm.core.dialogue import fitting
from pipvm.core.errors import InputEnded, PipError, StepLimit
from pipvm.core.outcome import places
from pipvm.play import terminal
from pipvm.play.seats import BOT_KINDS, BOTS, RandomBot
from pipvm.play.table import SilentConsole, Table, TableGame


@attrs.frozen
class Result:
    """How one game went."""
    seed: int
    ending: str                # 'winner', 'no winner', 'step limit' or 'error'
    winner: str = None         # the winner's name as announced
    seat: int = None           # the winning player's seat (from 0), if a player won
    team: int = None           # the winning team, or the winning player's team
    decisions: int = 0         # choices the players made
    options: int = 0           # options offered, over all those choices
    error: str = None          # the error line
    # Lists, not tuples: a Result crosses to and from cluster workers as JSON.
    branch: list = ()          # the number of options of each choice, in order
    turns: int = 0             # runs of choices by one seat
    lead: list = ()            # [position 0..1, each seat's chance] as thinking bots saw it
    turn: int = 0              # how far the seating was turned (--rotate): seat s sat at s+turn
    thinking: list = ()        # [seat as given, decisions, no world, seconds] per thinking bot
    # extension (pipvm/core/endings.py): each seat's place, 0 best, after
    # `winners`, `loser` or `ranking`; ending 'loser' when only a loser was named
    places: list = None
    steps: int = None          # loop rounds and action calls (what --max-steps counts)
    scores: list = None        # each seat's score at the end (None: not a Number)


class CountingTable(Table):
    """A table that notes the players' choices: their options, whose turn,
    and the Decision id where the choices begin (lead positions count from it).

    When every seat is a random bot (the report's baseline series), the game
    is a playout: from its start it runs in the machine's play-out mode
    (Game's playing_out: decisions answered where they stand, whole
    actions as functions on the compiled tier), each answered by
    _Drawing.randrange below, which draws what the seat's bot would draw,
    from the same generator in the same order; the machine notes each
    answer's options and seat (noted), which settle() adds to what choose
    notes: the same game, the same Result."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.branch = []
        self.turns = 0
        self.last_seat = self.first_id = None
        self.noted = None           # the play-out's [options, seat, options, seat, ...]

    def playing_out(self, game):
        if not self.console.silent or game.seats is None:
            return None
        bots = [self.seat(s) for s in range(game.seats)]
        if not all(type(bot) is RandomBot for bot in bots):
            return None                 # a thinking seat decides in its Game, one at a time
        return _Drawing(self, [bot.pick for bot in bots])

    def choose(self, seat, heading, options, waiting_for, game=None, decision=None):
        self._note(seat, len(options))
        if decision is not None and self.first_id is None:
            self.first_id = decision.id
        return super().choose(seat, heading, options, waiting_for, game, decision)

    def _note(self, seat, n):
        """Note a choice among n options by seat (a new turn when the seat changes)."""
        self.branch.append(n)
        if seat != self.last_seat:
            self.turns, self.last_seat = self.turns + 1, seat

    def settle(self):
        """Note the play-out's choices (noted) as _note would have, once the
        game is over (they follow any that choose noted)."""
        noted, self.noted = self.noted, None
        if noted:
            seats = noted[1::2]
            self.branch += noted[0::2]
            self.turns += (seats[0] != self.last_seat) + sum(map(operator.ne, seats, seats[1:]))
            self.last_seat = seats[-1]

    def lead(self):
        """The thinking seats' estimates, in game order, at positions 0..1."""
        notes = sorted(note for s in self.seats.values() for note in getattr(s, 'lead', ()))
        n = len(self.branch)
        return [[round((i - self.first_id) / n, 4), list(est)] for i, est in notes]

    def thinking(self, turn):
        """[seat as given (the seating turned back by turn), decisions, no
        world, seconds] of each thinking bot, from its ThinkingStats."""
        out = []
        n = len(self.seats)
        for at, bot in sorted(self.seats.items()):
            thinker = getattr(bot, 'thinker', None)
            stats = None if thinker is None else getattr(thinker, 'stats', None)  # bots.ThinkingStats
            if stats is not None:
                out.append([(at - turn) % n, stats.decisions, stats.no_world, stats.seconds])
        return sorted(out)


class _Drawing:
    """What answers a CountingTable's decisions in play-out mode: its
    randrange(n) is the index the random bot whose decision is pending
    picks among n options; its noted, the table's, receives from the
    machine each decision's options and seat (vm.Machine._answer_auto),
    before the draw: its last item is the deciding seat (the machine makes
    no pending decision where it answers).  When one generator draws for
    every seat (unless --random-bots apart), randrange is its draw itself:
    no call of this module's at a decision."""
    __slots__ = ('randrange', 'noted')

    def __init__(self, table, picks):
        self.noted = noted = table.noted = []
        if all(pick == picks[0] for pick in picks):
            self.randrange = picks[0]
        else:
            self.randrange = lambda n: picks[noted[-1]](n)


def turned(seating, turn):
    """The seating with every seat given by --seat moved turn places on."""
    if not turn:
        return seating
    n = seating.players
    return plain.evolve(seating, specs={(s + turn) % n: spec for s, spec in seating.specs.items()})


def played_as(seating, seed, rotate=False):
    """(turn, the seating the game of seed is played with): with rotate, the
    seats given by --seat sit seed mod players places on (every seat in
    turn, over a run)."""
    turn = seed % seating.players if rotate else 0
    return turn, turned(seating, turn)


def play_one(engine, seating, seed, rotate=False, table_class=None):
    """The Result of the game of seed, played_as(seating, seed, rotate);
    table_class: a CountingTable's (tests compare the two ways of playing)."""
    turn, seats = played_as(seating, seed, rotate)
    console = SilentConsole()
    table, machine = terminal.start(engine, seed, console, seats, table_class or CountingTable)
    ending, winner, error, placed = 'no winner', None, None, None
    try:
        winner = machine.play()
        if winner is not None:
            ending = 'winner'
        placed, lost = _placed(machine)
        if lost:
            ending = 'loser'
    except StepLimit:
        ending = 'step limit'
    except (PipError, InputEnded) as e:
        ending, error = 'error', str(e)
    table.settle()
    if placed is None:
        seat, team = places(winner, machine.seated, machine.teams or [])
    else:           # several winners are no one seat's win (the places count them)
        firsts = [s for s, p in enumerate(placed) if p == 0]
        seat, team = (firsts[0] if len(firsts) == 1 and ending == 'winner' else None), None
        placed = list(placed)
    return Result(seed, ending, winner, seat, team, len(table.branch), sum(table.branch), error,
                  list(table.branch), table.turns, table.lead(), turn, table.thinking(turn),
                  placed, steps_taken(machine), final_scores(machine))


def final_scores(machine):
    """Each seated player's score at the end of the game, by seat (None where
    a program left it other than a Number)."""
    return [p.score if type(p.score) is int else None for p in machine.seated]


def steps_taken(engine):
    """The steps a game took, as its step limit counts them (at most the
    limit): the VM's Machine (in a TableGame) or a reference interpreter."""
    counter = engine.game.machine if isinstance(engine, TableGame) else engine
    if counter.max_steps is None:
        return None
    return min(counter.max_steps, counter.max_steps - counter.steps_left)


def _placed(machine):
    """(each seat's place or None, whether only a loser was named) of a
    finished game: the VM's Game, or a reference interpreter (Pip's or
    RECYCLE's, whose own `game` is its checked program)."""
    if isinstance(machine, TableGame):
        return machine.game.ending.places, machine.game.ending.kind == 'loser'
    over = machine.over
    if over is None:
        return None, False
    return endings.places(over, len(machine.seated)), over.line is not None and over.winner is None


def chunked(seeds, jobs, most=25):
    """Seeds in runs for `jobs` workers.  Small runs: the progress bar moves,
    and Ctrl-C waits for little."""
    chunk = max(1, min(most, len(seeds) // (jobs * 20)))
    return [seeds[i:i + chunk] for i in range(0, len(seeds), chunk)]


def sim_seating(program, seating):
    """Every seat a bot, and the player count fixed (by default the smallest
    the game allows that seats every --seat), so that wins per seat compare
    like with like."""
    kinds = [seating.default] + list(seating.specs.values())
    for kind in kinds:
        if kind.kind not in BOTS:
            raise PipError(None, "sim seats must be bots (%s), not '%s'" % (
                ', '.join(BOT_KINDS[:-1]) + ' or ' + BOT_KINDS[-1], kind))
    if seating.players is None:
        seating.check(program)          # (a seat beyond the most the game seats)
        size = program.team_size or 1
        fits = fitting(program.counts, size, seating.specs)
        seating = plain.evolve(seating, players=program.counts[fits[0]] * size)
    return seating
