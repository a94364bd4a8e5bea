"""Who sits at each seat: a human, a script, or a bot.

A seat is given on the command line as `random`, `first`, `mc[:N][:cut]`,
`ismcts[:N][:cut]`, `human` or `script:FILE` (`:cut`: playouts end at the
next shuffle, pipvm/game/standing.py; `:deep`: also at a depth in a game
dealt once).  Bots answer at once and echo their
answers as if typed, so a game watched at the terminal reads the same whoever
plays.  A random bot draws from the game's own seeded generator (as the
reference's do), or with `--random-bots apart` (as a pipvm sim report of
several series plays) from one of its own seeded from it, so that the cards
dealt do not depend on what the bots chose; a thinking bot
(pipvm/play/bots.py) draws from a generator seeded from the game's.  Either
way a seed fixes the whole game.
"""
import random

from pipvm.core import plain
from pipvm.engine import engines
from pipvm.core.errors import PipError
from pipvm.core.rng import OCamlRandom
from pipvm.isa.pipc import read_file
from pipvm.core.dialogue import check_seats, fixed_count, menu
from pipvm.play.table import Console, HumanSeat, Seat

RANDOM_BOTS = ('game', 'apart')    # --random-bots: whose generator a random bot draws from
BOT_KINDS = ('random', 'first', 'mc[:N]', 'ismcts[:N]')   # each thinking kind also takes :cut or :deep
CUTS = {'cut': True, 'deep': 'deep'}       # a thinking seat's suffix -> its bot's cut
# A thinking kind given bare: `ismcts` is ismcts:80:cut, the default bot, which
# won 50.7% (45.5-55.9%) of 355 Euchre games against ismcts:200 at 0.21 of its
# CPU a decision (docs/metrics.md); `mc` is mc:50.
BARE = {'mc': False, 'ismcts': True}      # a bare thinking kind -> its bot's cut
_SUFFIXES = {cut: ':' + name for name, cut in CUTS.items()}
KINDS = BOT_KINDS + ('human', 'script:FILE')
BOTS = tuple(k.partition('[')[0] for k in BOT_KINDS)
THINKING = ('mc', 'ismcts')
SKILL = 'ismcts:100'    # seat 1 for sim's --skill or --depth when no thinking bot is seated
NAMES = ('Ada', 'Ben', 'Cleo', 'Dev', 'Eve', 'Finn', 'Gia', 'Hugo', 'Ivy', 'Jon', 'Kai', 'Lea')


def bot_name(number):
    """The generated name of the bot at seat number (from 0)."""
    return NAMES[number] if number < len(NAMES) else 'Bot %d' % (number + 1)


class Bot(Seat):
    lead = ()                      # a thinking bot's estimates (ThinkingBot); a sim notes them
    thinker = None                 # (ThinkingBot's)

    def __init__(self, console, number):
        self.console = console
        self.bot_name = bot_name(number)

    def name(self, prompt, waiting_for):
        if not self.console.silent:
            self.console.write('%s %s\n' % (prompt, self.bot_name))
        return self.bot_name

    def choose(self, heading, options, waiting_for):
        return self.echo(heading, options, self.pick(len(options)))

    def decide(self, game, decision):
        # choose, one call less: a simulation is made of these
        options = decision.options
        return self.echo(decision.prompt, options, self.pick(len(options)))

    def echo(self, heading, options, i):
        if not self.console.silent:
            self.console.write(menu(heading, options) + options[i] + '\n')
        return i

    def pick(self, n):
        raise NotImplementedError


class RandomBot(Bot):
    """Uniform over the legal options."""

    def __init__(self, console, number, rng):
        super().__init__(console, number)
        self.rng = rng
        # pick(n): Random.int n, as the reference's bots draw (the bound
        # method itself: a simulation in play-out mode calls it directly)
        self.pick = rng.int


class FirstBot(Bot):
    """Always the first option: a fixed, predictable opponent."""

    def pick(self, n):
        return 0


class ThinkingBot(Bot):
    """mc or ismcts: thinks in the game it is given (through its seat's view
    and determinizations only; see pipvm/play/bots.py)."""

    def __init__(self, console, number, thinker):
        super().__init__(console, number)
        self.thinker = thinker

    @property
    def lead(self):
        return self.thinker.lead

    def decide(self, game, decision):
        return self.echo(decision.prompt, decision.options, self.thinker.choose(game, decision))

    def pick(self, n):
        # Questions asked without a Game (how many play): uniform, from the
        # bot's own generator.  (cli refuses thinking bots on the reference.)
        return self.thinker.rng.randrange(n)


def seed_words(rng, number):
    """A seat's own seed: the game's generator as it began, and the seat."""
    return '%s:%d:%d' % (','.join(map(str, rng.state)), rng.idx, number)


def thinker(kind, iterations, number, rng, cut=False):
    """A fresh bots.Thinker for seat number, its generator seeded from the
    game's generator before the game has drawn from it (rng: the same state
    on the terminal, in pipvm sim and on the server, so that a record made on
    one replays on another)."""
    from pipvm.play.bots import make
    return make(kind, iterations, random.Random(seed_words(rng, number)), cut)


class ScriptConsole(Console):
    """Input from a script's lines, echoed as typed; output to the terminal."""

    def __init__(self, lines, console):
        super().__init__(console.stdin, console.stdout)
        self.lines = list(reversed(lines))
        self.terminal = console

    def write(self, text):
        self.terminal.write(text)      # muted with it (Table.choose)

    def read_line(self, prompt):
        self.write(prompt)
        if not self.lines:
            return None
        line = self.lines.pop()
        self.write(line + '\n')
        return line

    def skip_line(self):
        """Pass over the next line (a resumed game gave it from its record)."""
        if self.lines:
            self.lines.pop()


@plain.frozen
class SeatSpec:
    kind: str                      # 'random', 'first', 'mc', 'ismcts', 'human' or 'script'
    path: str = None
    lines: tuple = ()              # a script's answers, read when it is given
    iterations: int = None         # mc's playouts per option, ismcts's iterations (None: default)
    cut: bool = False              # playouts end at the next shuffle (`:cut`), or 'deep' (`:deep`)

    def build(self, number, console, rng, start=None, apart=False):
        """The Seat; rng: the game's generator, start: a copy of it before
        the game drew from it (a thinking bot's seed, and with apart a
        random bot's; default rng)."""
        if self.kind == 'random':
            if apart:
                rng = OCamlRandom('random:' + seed_words(start or rng, number))
            return RandomBot(console, number, rng)
        if self.kind == 'first':
            return FirstBot(console, number)
        if self.kind in THINKING:
            return ThinkingBot(console, number,
                               thinker(self.kind, self.iterations, number, start or rng,
                                       self.cut))
        if self.kind == 'script':
            return HumanSeat(ScriptConsole(self.lines, console))
        return HumanSeat(console)

    def __str__(self):
        if self.kind == 'script':
            return 'script:' + self.path
        text = self.kind if self.iterations is None else '%s:%d' % (self.kind, self.iterations)
        return text + _SUFFIXES.get(self.cut, '')

    @property
    def thinks(self):
        return self.kind in THINKING


HUMAN = SeatSpec('human')


def parse_kind(text):
    """A SeatSpec from `random`, `first`, `mc[:N][:cut|:deep]`, `ismcts[:N][:cut|:deep]`,
    `human` or `script:FILE`."""
    if text in BARE:
        return SeatSpec(text, cut=BARE[text])
    if text in ('random', 'first', 'human'):
        return SeatSpec(text)
    kind, colon, n = text.partition(':')
    if kind in THINKING:
        cut = CUTS.get(n)
        if cut:
            return SeatSpec(kind, cut=cut)
        n, colon, suffix = n.partition(':')
        cut = CUTS.get(suffix) if colon else False
        if cut is None:
            raise PipError(None, "seat '%s': after N, only :cut or :deep, e.g. %s:100:cut"
                           % (text, kind))
        if not (n.isascii() and n.isdigit() and len(n) < 10 and int(n) > 0):
            raise PipError(None, "seat '%s': N must be a whole number above 0, e.g. %s:100"
                           % (text, kind))
        return SeatSpec(kind, iterations=int(n), cut=cut)
    if text.startswith('script:') and len(text) > len('script:'):
        path = text[len('script:'):]
        lines = read_file(path).decode('latin-1').splitlines()
        return SeatSpec('script', path, tuple(lines))
    raise PipError(None, "unknown seat '%s' (use %s)" % (text, ', '.join(KINDS)))


def parse_seat(text):
    """(seat number from 0, SeatSpec) from `N=KIND`, N counting from 1."""
    number, eq, kind = text.partition('=')
    if not eq or not number.isdigit() or int(number) < 1:
        raise PipError(None, "--seat %s: expected N=KIND, e.g. --seat 2=random" % text)
    return int(number) - 1, parse_kind(kind)


def seating(bots=None, seats=(), players=None, random_bots='game'):
    """The Seating that --bots KIND, --seat N=KIND..., --players N and
    --random-bots ask for."""
    specs = dict(parse_seat(text) for text in seats)
    return Seating(specs, parse_kind(bots) if bots else HUMAN, players, random_bots == 'apart')


def from_options(words):
    """The Seating whose options() are words: the inverse of Seating.options."""
    pairs = dict(zip(words[::2], words[1::2]))
    seat_words = [value for flag, value in zip(words[::2], words[1::2]) if flag == '--seat']
    players = pairs.get('--players')
    made = seating(pairs.get('--bots'), seat_words, None if players is None else int(players))
    return plain.evolve(made, apart=pairs.get('--random-bots') == 'apart')


@plain.frozen
class Seating:
    """Who plays: specs by seat number, a default for the rest, and perhaps
    a fixed number of players."""
    specs: dict = plain.field(factory=dict)
    default: SeatSpec = HUMAN
    players: int = None
    apart: bool = False            # random bots draw from generators of their own

    def table_args(self, console, rng):
        """Table(console, **these) seats this game."""
        # A seat is built when first asked (default): a thinking bot's seed is
        # the generator as the game began, whatever was drawn before that.
        start = rng.copy()
        return dict(seats={n: s.build(n, console, rng, start, self.apart)
                           for n, s in self.specs.items()},
                    default=lambda n: self.default.build(n, console, rng, start, self.apart),
                    players=self.players, human=self.human)

    def human(self, number):
        """Whether a person at the terminal sits at seat number."""
        return self.spec(number) == HUMAN

    def check(self, program):
        """The number of players, when --players fixes it (else None).  An error
        now, before the game starts, if --players or --seat cannot fit it."""
        size = program.team_size or 1
        if self.players is None:
            check_seats(self.specs, max(program.counts) * size, at_most=True)
            return None
        players = fixed_count(self.players, program.counts, size) * size
        check_seats(self.specs, players)
        return players

    def spec(self, number):
        return self.specs.get(number, self.default)

    def thinks(self):
        """Whether a thinking bot may sit anywhere."""
        return any(s.thinks for s in (self.default, *self.specs.values()))

    def check_engine(self, engine):
        """An error if a thinking bot would play on the reference engine: it
        thinks in the VM's Game, which the reference has not."""
        if engines.named(engine) == engines.REFERENCE and self.thinks():
            raise PipError(None, 'thinking bots (mc, ismcts) need the VM (--engine %s or %s), '
                                 'not the reference' % (engines.COMPILED, engines.LOOP))

    def options(self):
        """The command-line options that give this seating."""
        words = [] if self.default == HUMAN else ['--bots', str(self.default)]
        if self.players is not None:
            words += ['--players', str(self.players)]
        for n, spec in sorted(self.specs.items()):
            words += ['--seat', '%d=%s' % (n + 1, spec)]
        if self.apart:
            words += ['--random-bots', 'apart']
        return words
