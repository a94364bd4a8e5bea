"""The table: the terminal dialogue of a game, byte for byte the reference's.

Seats answer decisions: a seat is whatever answers for one player (and the
first seat also for the table, e.g. how many are playing): `HumanSeat` asks
at the terminal; bots are other Seat implementations (seats.py).  The VM's
game object stops at each decision and `TableGame` asks the seat; the
reference interpreter, a blocking tree walker, asks through `Table` itself.

Who watches the terminal (README, "Playing at the terminal"): with every
seat a person (or none) it shows the whole dialogue, the original's; with
one person among bots, only what that seat sees (dialogue.Event.seen_by):
the bots' menus and the lines addressed to them are not shown.  Several
people at one interactive terminal pass it between them: before a
person's turn the screen is cleared, the next one is asked to take it,
and sees what was said to them since their last turn.
"""
import sys

from pipvm.play import answers
from pipvm.core import dialogue
from pipvm.core.dialogue import SORRY, Event, check_seats, fitting, fixed_count, menu
from pipvm.core.errors import InputEnded
from pipvm.game.game import COUNT, NAME, Game
from pipvm.core.runtime import Player, Team


class Console:
    """Line-based terminal I/O.  Text is Latin-1 both ways, so every byte a
    user types comes back out unchanged; output is flushed before each read."""
    silent = False             # True when nothing written is ever seen (pipvm sim)
    easy = False               # accept more than exact answers (answers.match)
    numbered = False           # number the options of a choice
    screen = False             # an interactive terminal that can be cleared (a hand-off)
    muted = False              # while a seat the watcher may not see answers (a bot's echo)

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin.buffer
        self.stdout = stdout or sys.stdout.buffer

    def write(self, text):
        if not self.muted:
            self.stdout.write(text.encode('latin-1', 'replace'))

    def read_line(self, prompt):
        """Show prompt, read one line without its newline; None at end of input."""
        self.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            return None
        if line.endswith(b'\n'):
            line = line[:-1]
        return line.decode('latin-1')

    def read_choice(self, prompt, options):
        """read_line, for an answer that should name one of options."""
        return self.read_line(prompt)

    def flush(self):
        self.stdout.flush()

    def hand_over(self, seat):
        """The terminal passes to another person (a hand-off)."""


class SilentConsole(Console):
    """A console nobody watches (pipvm sim, a check before a replay): writes
    nothing, reads nothing."""
    silent = True

    def __init__(self):
        super().__init__(stdin=None, stdout=None)

    def write(self, text):
        pass

    def read_line(self, prompt):
        return None

    def flush(self):
        pass


REFUSED = -1                   # what HumanSeat.heard is told of a line that is no option
CLEAR = '\x1b[H\x1b[2J\x1b[3J'    # ANSI: cursor home, clear the screen and its scrollback


class Seat:
    """What answers for one player.  `waiting_for` names the question, for
    messages like `input ended while waiting for Frank's choice`."""

    def name(self, prompt, waiting_for):
        raise NotImplementedError

    def choose(self, heading, options, waiting_for):
        """The index of the chosen option."""
        raise NotImplementedError

    def decide(self, game, decision):
        """The index of the chosen option, for a seat that may look at the
        Game (through its view and determinize only) at its Decision; by
        default, choose."""
        return self.choose(decision.prompt, decision.options, decision.waiting_for)


class HumanSeat(Seat):
    def __init__(self, console, heard=None):
        """heard(line, option), if given, is told of every line read: option is
        the index of the option the line chose, REFUSED for a line that is no
        option, None for a name.  A record keeps them (pipvm/records/replay.py)."""
        self.console = console
        self.heard = heard

    def name(self, prompt, waiting_for):
        line = self.console.read_line(prompt + ' ')
        if line is None:
            raise InputEnded(waiting_for)
        if self.heard:
            self.heard(line, None)
        return line

    def choose(self, heading, options, waiting_for):
        out = self.console
        question = menu(heading, options, out.numbered and answers.by_number(options))
        while True:
            answer = out.read_choice(question, options)
            if answer is None:
                raise InputEnded(waiting_for)
            chosen = answers.match(answer, options, out.easy)
            if self.heard:
                self.heard(answer, REFUSED if chosen is None else chosen)
            if chosen is not None:
                return chosen
            out.write(SORRY + '\n')


def choosing(name):
    """What a watcher reads while a seat it may not see decides."""
    return '%s is choosing.' % name


def hand_off(name):
    return 'Pass to %s - press Enter. ' % name


class Table:
    """The seats of a game at a console, and the dialogue of the reference
    interpreter: announcements and questions to seats."""

    def __init__(self, console, seats=None, default=None, players=None, human=None):
        """seats: seat number (from 0) -> Seat; default(number) makes the Seat
        of any other number (by default, a human at the console).  players,
        when given, answers the question of how many play.  human(number):
        whether a person at this terminal sits there; when given, the
        terminal shows the people only what they may see (see the module's
        docstring), otherwise the whole dialogue."""
        self.console = console
        self.seats = dict(seats or {})
        human_seat = HumanSeat(console)
        self.default = default or (lambda number: human_seat)
        self.players = players
        self.human = human
        self.count = None              # how many seats, once known (seated)
        self.names = {}                # the players' names by seat, as given
        self.viewer = None             # the one seat the terminal shows, or None: all
        self.handoff = False           # several people pass the terminal between them
        self.holder = None             # who holds it now (a hand-off)
        self.told = []                 # the events so far (a hand-off)
        self.cursor = {}               # seat -> how many of them it was shown
        self.common = 0                # how many were shown before anyone held it
        self.choosing = None           # the hidden seat said to be choosing, nothing shown since

    def seat(self, number):
        if number not in self.seats:
            self.seats[number] = self.default(number)
        return self.seats[number]

    def seated(self, count):
        """The game has count seats: who watches the terminal."""
        self.count = count
        if self.human is None or self.console.silent or self.viewer is not None:
            return
        people = [n for n in range(count) if self.human(n)]
        if len(people) == 1:
            self.viewer = people[0]
        elif len(people) > 1 and self.console.screen:
            self.handoff = True

    def show(self, text):
        self.show_event(Event('show', text))

    def show_event(self, event):
        """One of the game's events (dialogue.Event), as the seat watching
        the terminal may read it."""
        if self.handoff:
            self.told.append(event)
            self._catch_up()
            return
        if self.viewer is not None:
            event = event.seen_by(self.viewer)
            if event is None:
                return
        self._line(event.text)

    def tell(self, player, text):
        self.show_event(Event('message', '%s: %s' % (player.name, text), player.seat))

    def _line(self, text):
        self.console.write(text + '\n')
        self.choosing = None

    def name_of(self, seat):
        return self.names.get(seat, 'Player %d' % (seat + 1))

    def hidden(self, seat):
        """Whether seat's questions are hidden from whoever watches."""
        if self.handoff:
            return seat != self.holder
        return self.viewer is not None and seat != self.viewer

    def _catch_up(self):
        """Show the holder what was said since it last held the terminal;
        before anyone holds it, what is said to all until the first secret."""
        told = self.told
        if self.holder is None:
            while self.common < len(told) and told[self.common].to is None:
                self._line(told[self.common].text)
                self.common += 1
            return
        for event in told[self.cursor.get(self.holder, self.common):]:
            seen = event.seen_by(self.holder)
            if seen is not None:
                self._line(seen.text)
        self.cursor[self.holder] = len(told)

    def hand_to(self, seat):
        """Before a person's turn: clear the last holder's screen, and wait
        until the next one has the terminal."""
        if seat == self.holder:
            return
        name = self.name_of(seat)
        if self.holder is not None:
            self.console.write(CLEAR)
        self.wait_for(name)
        self.console.hand_over(seat)
        self.holder = seat
        self._catch_up()

    def wait_for(self, name):
        line = self.console.read_line(hand_off(name))
        if line is None:
            raise InputEnded('%s to take the terminal' % name)

    def banner(self, name):
        for line in dialogue.banner(name):
            self.show(line)

    def choose(self, seat, heading, options, waiting_for, game=None, decision=None):
        """A player's choice of a card or an action; game and decision when
        the VM's Game asks (TableGame), for seats that think."""
        answerer = self.seat(seat)
        if self.handoff:
            if self.human(seat):
                self.hand_to(seat)
        elif self.viewer is None:          # nobody watches from a seat (sim): nothing to hide
            self.choosing = None
            return self._choose(answerer, heading, options, waiting_for, game, decision)
        if not self.hidden(seat):
            self.choosing = None
            return self._choose(answerer, heading, options, waiting_for, game, decision)
        # Its menu lists cards the watcher may not see: only say who decides.
        if self.choosing != seat:          # once for a run of its questions
            self._line(choosing(self.name_of(seat)))
            self.choosing = seat
        console, muted = self.console, self.console.muted
        console.muted = True
        try:
            return self._choose(answerer, heading, options, waiting_for, game, decision)
        finally:
            console.muted = muted

    @staticmethod
    def _choose(answerer, heading, options, waiting_for, game, decision):
        decide = getattr(answerer, 'decide', None)     # a seat may be any object with choose
        if game is not None and decide is not None:
            return decide(game, decision)
        return answerer.choose(heading, options, waiting_for)

    def playing_out(self, game):
        """What answers every card, set and action decision of game, asked
        once its seats are known, before it starts (Game's playing_out: an
        object whose randrange(n) draws an option's index below n, as
        Game.play_out's rng), or None: the seats answer them one at a time,
        through choose.  Here always None; a simulation's table of random
        bots answers them in play-out mode (pipvm/design/playing.py)."""
        return None

    def choose_count(self, counts, team_size):
        """How many players (or teams of team_size) play."""
        size = team_size or 1
        if self.players is None:
            n = counts[self.count_asked(counts, team_size)]
        else:
            n = fixed_count(self.players, counts, size)
        check_seats(self.seats, n * size)
        self.seated(n * size)
        return n

    def new_player(self, seat, who):
        name = self.seat(seat).name(dialogue.name_question(who), 'the name of ' + who)
        self.names[seat] = name
        return Player(name, seat=seat)

    def count_asked(self, counts, team_size):
        """The index in counts of the count seat 0 chooses: only those that
        seat every seat --seat names are offered (a bot at seat 0 could
        pick too few)."""
        fits = fitting(counts, team_size, self.seats)
        return fits[self.seat(0).choose(dialogue.count_question(team_size),
                                        [str(counts[i]) for i in fits],
                                        dialogue.count_waiting_for(team_size))]

    def seat_players(self, counts):
        n = self.choose_count(counts, 0)
        self.show(dialogue.count_line(n, 0))
        return [self.new_player(seat, who) for seat, who in dialogue.name_order(n, 0)]

    def seat_teams(self, counts, size):
        """(players, teams): the players list interleaves the teams' members."""
        self.show(dialogue.team_size_line(size))
        n = self.choose_count(counts, size)
        self.show(dialogue.count_line(n, size))
        players = [None] * (n * size)
        for seat, who in dialogue.name_order(n, size):
            players[seat] = self.new_player(seat, who)
        teams = []
        for seats in dialogue.team_seats(n, size):
            team = Team([players[s] for s in seats])
            for p in team.members:
                p.team = team
            teams.append(team)
        return players, teams


class TableGame:
    """A VM game played at a Table: the game stops at each decision, the
    table's seat answers it, and the game's events are shown on the console
    as they come.  It has the engines' interface: play(), players, teams."""

    def __init__(self, image, table, rng, max_steps=None):
        self.table = table
        self.game = Game(image, rng=rng, players=table.players, max_steps=max_steps,
                         quiet=table.console.silent, playing_out=table.playing_out)

    def play(self):
        """Play to the end: the winner's name, or None; errors are raised."""
        game, table = self.game, self.table
        shown = 0
        while True:
            if table.count is None and game.seats is not None:
                table.seated(game.seats)
            if game.events is not None:
                for event in game.events[shown:]:
                    table.show_event(event)
                shown = len(game.events)
            d = game.decision
            if d is None:
                break
            if d.kind == NAME:
                table.names[d.seat] = name = table.seat(d.seat).name(d.prompt, d.waiting_for)
                game.answer(name)
            elif d.kind == COUNT:
                game.answer(table.count_asked(game.program.counts, game.program.team_size))
            else:
                game.answer(table.choose(d.seat, d.prompt, d.options, d.waiting_for, game, d))
        if game.ending.error is not None:
            raise game.ending.error
        return game.ending.winner

    # every player by seat, and the teams: what a finished game's places
    # are read from (sim's play_one; without __getattr__'s failed lookup first)
    seated = property(lambda self: self.game.machine.seated)
    teams = property(lambda self: self.game.machine.teams)

    def __getattr__(self, name):
        # players, deck, globals: the state of the game being played
        return getattr(self.game.machine, name)
