"""Recording a game as it is played, replaying a record, resuming one.

Every seat of a RecordTable is wrapped.  While the record holds answers
not yet given, a seat gives the next one instead of asking: a person's
(human or script) is echoed after its prompt, as a terminal shows what is
typed, refused lines included; a bot is run as before (a random bot must
draw from the game's generator again, or the game would diverge) and must
choose what the record says.  Once the record is used up, seats are asked
as in `pipvm run` and each line they give is appended to the record.

The file (record.write: atomic) is rewritten after every line a person
gives, before a person is asked anything, and when the game ends.  Bots'
answers in between wait for the next of these: rewriting the whole record
after each would make a long bot game quadratic, and were the program
killed among them, `--resume` would make the bots give them again (the
seed and the answers before fix them).

A record is checked against its game before anything is shown: a silent
replay must give every answer to the seat and question it was recorded for.
"""
import functools

from pipvm.core.deepstack import deep
from pipvm.core.dialogue import check_seats
from pipvm.core.errors import PipError, StepLimit
from pipvm.engine import engines
from pipvm.play.loader import fingerprint, load_engine
from pipvm.records.record import CHOICE, NAME, REFUSED, Answer, Record, RecordError, read, relative, \
    resolve, write
from pipvm.play.seats import HUMAN, Bot, ScriptConsole, Seating, parse_kind
from pipvm.play.table import REFUSED as REFUSED_LINE, Console, HumanSeat, SilentConsole, Table
from pipvm.play import answers, terminal


class RecordEnd(Exception):
    """A replay used up its record: nobody is asked anything."""


class Log:
    """A record being given again and extended: a cursor over its answers."""

    def __init__(self, record, path, live):
        self.record, self.path = record, path
        self.live = live               # False: stop (RecordEnd) where the record ends
        self.given = 0                 # answers given so far
        self.unsaved = False           # answers added since the file was written

    @property
    def replaying(self):
        return self.given < len(self.record.answers)

    def next(self, seat, kinds):
        """The recorded answer that comes now: it must be seat's and of one of kinds."""
        a = self.record.answers[self.given]
        self.given += 1
        if a.seat != seat:
            raise self.error('it is seat %d\'s, but the game asks seat %d' % (a.seat + 1, seat + 1))
        if a.kind not in kinds:
            raise self.error('it is a %s, but the game asks seat %d for a %s'
                             % (a.kind, seat + 1, 'name' if kinds == (NAME,) else 'choice'))
        return a

    def check_range(self, answer, options):
        if answer.option >= len(options):
            raise self.error('option %d is out of range (%d options)'
                             % (answer.option + 1, len(options)))

    def end(self):
        """Where the record ends: stop a replay, go on live otherwise."""
        if not self.live:
            raise RecordEnd

    def add(self, answer, save=True):
        self.record.answers.append(answer)
        self.given += 1
        self.unsaved = True
        if save:
            self.save()

    def save(self):
        if self.unsaved:
            write(self.path, self.record)
            self.unsaved = False

    def error(self, problem):
        return RecordError(self.path, 'answer %d: %s' % (self.given, problem))


class _Person(Console):
    """A human or script seat: the console its HumanSeat reads gives the
    recorded lines first, then the seat's own console's."""

    def __init__(self, log, number, live, out):
        self.log, self.number = log, number
        self.live = live               # the seat's own console
        self.out = out                 # where prompts and echoes go
        self.human = HumanSeat(self, heard=self.heard)
        self.recorded = False          # whether the last line came from the record

    def name(self, prompt, waiting_for):
        return self.human.name(prompt, waiting_for)

    def choose(self, heading, options, waiting_for):
        return self.human.choose(heading, options, waiting_for)

    @property
    def numbered(self):
        return self.live.numbered

    def read_line(self, prompt):
        return self.read_choice(prompt, None)

    def read_choice(self, prompt, options):
        """The next line; self.easy then says how HumanSeat must read it."""
        log = self.log
        self.recorded = log.replaying
        if not self.recorded:
            if not log.live:
                self.out.write(prompt)        # the question left waiting, as it was shown
                log.end()
            log.save()
            self.easy = self.live.easy
            return (self.live.read_line(prompt) if options is None
                    else self.live.read_choice(prompt, options))
        if options is None:
            a = log.next(self.number, (NAME,))
        else:
            a = log.next(self.number, (CHOICE, REFUSED))
            # The line means what it meant then: an easy answer (`q`, `2`) if
            # it chose, only an exact one if it was refused.
            self.easy = a.kind == CHOICE
            if a.kind == REFUSED and a.text in options:
                raise log.error('"%s" was refused, but it is an option' % a.text)
            if a.kind == CHOICE:
                log.check_range(a, options)
                if answers.match(a.text, options, True) != a.option:
                    raise log.error('"%s" does not choose option %d' % (a.text, a.option + 1))
        if isinstance(self.live, ScriptConsole):
            self.live.skip_line()
        self.out.write(prompt + a.text + '\n')
        return a.text

    def heard(self, line, option):
        if not self.recorded:
            kind = NAME if option is None else REFUSED if option == REFUSED_LINE else CHOICE
            self.log.add(Answer(self.number, kind, line, None if kind != CHOICE else option))

    def write(self, text):
        self.out.write(text)

    def flush(self):
        self.out.flush()


class _Bot:
    """A bot seat: it answers as it did (drawing from the generator again)
    and must give the recorded answer."""

    def __init__(self, log, number, bot):
        self.log, self.number, self.bot = log, number, bot

    def name(self, prompt, waiting_for):
        log = self.log
        if not log.replaying:
            log.end()
            name = self.bot.name(prompt, waiting_for)
            log.add(Answer(self.number, NAME, name), save=False)
            return name
        a = log.next(self.number, (NAME,))
        name = self.bot.name(prompt, waiting_for)
        if name != a.text:
            raise log.error('the bot at seat %d is named %s, not %s'
                            % (self.number + 1, name, a.text))
        return name

    def choose(self, heading, options, waiting_for):
        return self._chosen(options, lambda: self.bot.choose(heading, options, waiting_for))

    def decide(self, game, decision):
        # a thinking bot thinks in the game (seats.ThinkingBot); others choose
        return self._chosen(decision.options, lambda: self.bot.decide(game, decision))

    def _chosen(self, options, ask):
        log = self.log
        if not log.replaying:
            log.end()
            i = ask()
            log.add(Answer(self.number, CHOICE, options[i], i), save=False)
            return i
        a = log.next(self.number, (CHOICE,))
        log.check_range(a, options)
        if options[a.option] != a.text:
            raise log.error('option %d is "%s", not "%s"'
                            % (a.option + 1, options[a.option], a.text))
        i = ask()
        if i != a.option:
            raise log.error('the bot at seat %d chose option %d, not %d'
                            % (self.number + 1, i + 1, a.option + 1))
        return i


class RecordTable(Table):
    """A Table whose seats give a record's answers, then record new ones.
    viewer: show the game as that seat (from 0) saw it, see `replay`."""

    def __init__(self, console, log, viewer=None, seats=None, default=None, players=None,
                 human=None):
        # `pipvm replay` shows the whole dialogue, or seat viewer's; a game
        # played on (`run --record`, `--resume`) shows its people what they may see
        super().__init__(console, seats, default, players, human if log.live else None)
        self.log, self.viewer = log, viewer
        self.seats = {n: self._wrap(n, s) for n, s in self.seats.items()}

    def seat(self, number):
        if number not in self.seats:
            self.seats[number] = self._wrap(number, self.default(number))
        return self.seats[number]

    def _wrap(self, number, seat):
        out = SilentConsole() if self.hidden(number) else self.console
        if isinstance(seat, Bot):
            seat.console = out
            return _Bot(self.log, number, seat)
        return _Person(self.log, number, seat.console, out)

    def wait_for(self, name):
        if not self.log.replaying:         # the answers given again need no hand-off
            super().wait_for(name)


# --- the commands ------------------------------------------------------------------

def run(path, game, program, engine, seating, seed, max_steps, console, sets=()):
    """`pipvm run GAME --record PATH`: play, recording every answer (sets:
    the --set variant played, [(NAME, VALUE)])."""
    seed = terminal.random_seed() if seed is None else seed

    def stored(spec):
        return 'script:' + relative(spec.path, path) if spec.kind == 'script' else str(spec)
    record = Record(relative(game, path), fingerprint(program), seed, seating.players,
                    max_steps, console.numbered, stored(seating.default),
                    {n: stored(s) for n, s in seating.specs.items()})
    record.sets = dict(sets)
    write(path, record)
    return _play(Log(record, path, live=True), engine, seating, console)


def resume(path, engine=engines.DEFAULT, easy=False):
    """`pipvm run --resume PATH`: the dialogue so far, then the game goes on
    with the same seats, its answers added to the record.  easy: accept easy
    answers from now on (`--easy-answers`)."""
    from pipvm.play.terminal_input import console
    record, engine, seating = _open(path, engine, scripts=True)
    _check(record, path, engine, seating)
    return _play(Log(record, path, live=True), engine, seating,
                 console(easy, record.numbered))


def replay(path, viewer=None):
    """`pipvm replay PATH [--seat N]`: the recorded dialogue, asking nothing.
    viewer (from 0): only what that seat saw."""
    record, engine, seating = _open(path, engines.DEFAULT, scripts=False)
    game = _check(record, path, engine, seating).game
    if viewer is not None:
        p = game.program
        try:
            check_seats([viewer], game.seats or max(p.counts) * (p.team_size or 1),
                        at_most=game.seats is None)
        except PipError as e:
            raise _problem(path, e) from None
    console = Console()
    console.numbered = record.numbered
    try:
        return _play(Log(record, path, live=False), engine, seating, console, viewer)
    except RecordEnd:
        return 0


def _play(log, engine, seating, console, viewer=None):
    try:
        status = terminal.play(engine, log.record.seed, console, seating,
                               functools.partial(RecordTable, log=log, viewer=viewer))
    except KeyboardInterrupt:
        raise            # the game's thread may still be running: leave the file to it
    except BaseException:
        log.save()       # the game is over: an error, or input ended
        raise
    log.save()
    return status


def _open(path, engine, scripts):
    """(record, engine factory, seating) of the record in path, its game
    loaded and found unchanged.  scripts: read script seats' files (to go on
    live); otherwise they are people whose lines are all in the record."""
    record = read(path)
    kind = engine
    try:
        program, engine = load_engine(resolve(record.game, path), engine, record.max_steps,
                                      sets=list(record.sets.items()))
    except PipError as e:
        raise _problem(path, e, 'cannot load the game %s (%%s)' % record.game) from None
    if fingerprint(program) != record.fingerprint:
        raise RecordError(path, 'the game %s has changed since it was recorded '
                                '(its fingerprint differs)' % record.game)

    def spec(kind):
        if not kind.startswith('script:'):
            return parse_kind(kind)          # a bot's kind with its budget (`ismcts:10`)
        return parse_kind('script:' + resolve(kind[7:], path)) if scripts else HUMAN
    try:
        seating = Seating({n: spec(k) for n, k in record.seats.items()}, spec(record.bots),
                          record.players)
        seating.check(program)
    except PipError as e:
        raise _problem(path, e) from None
    seating.check_engine(kind)           # (a fault of --engine, not of the record)
    return record, engine, seating


def _problem(path, error, form='%s'):
    """The RecordError that says error (a PipError) happened with this record."""
    return RecordError(path, form % str(error)[len('Error: '):])


def _check(record, path, engine, seating):
    """Replay the record silently: a RecordError unless each answer goes to
    the seat and question it was recorded for.  Returns the engine, played."""
    log = Log(record, path, live=False)
    console = SilentConsole()
    console.numbered = record.numbered
    _, machine = terminal.start(engine, record.seed, console, seating,
                                functools.partial(RecordTable, log=log))
    try:
        deep(machine.play)
    except RecordEnd:
        pass
    except RecordError:
        raise
    except (PipError, StepLimit):       # the game ended in an error, as it did then
        pass
    if log.replaying:
        raise RecordError(path, 'answer %d comes after the end of the game' % (log.given + 1))
    return machine
