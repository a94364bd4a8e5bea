"""The table: the terminal dialogue of a game, byte for byte the reference's.

Seats answer decisions: a seat is whatever answers for one player (and the
first seat also for the table, e.g. how many are playing): `HumanSeat` asks
at the terminal; bots are other Seat implementations (seats.py).  The VM's
game object stops at each decision and `TableGame` asks the seat; the
reference interpreter, a blocking tree walker, asks through `Table` itself.
"""
import sys

from pipvm.play import answers
from pipvm.core import dialogue
from pipvm.core.dialogue import SORRY, check_seats, fixed_count, menu
from pipvm.core.errors import InputEnded
from pipvm.game.game import COUNT, NAME, Game
from pipvm.core.runtime import Player, Team


class Console:
    """Line-based terminal I/O.  Text is Latin-1 both ways, so every byte a
    user types comes back out unchanged; output is flushed before each read."""
    silent = False             # True when nothing written is ever seen (pipvm sim)
    easy = False               # accept more than exact answers (answers.match)
    numbered = False           # number the options of a choice

    def __init__(self, stdin=None, stdout=None):
        self.stdin = stdin or sys.stdin.buffer
        self.stdout = stdout or sys.stdout.buffer

    def write(self, text):
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


class Table:
    """The seats of a game at a console, and the dialogue of the reference
    interpreter: announcements and questions to seats."""

    def __init__(self, console, seats=None, default=None, players=None):
        """seats: seat number (from 0) -> Seat; default(number) makes the Seat
        of any other number (by default, a human at the console).  players,
        when given, answers the question of how many play."""
        self.console = console
        self.seats = dict(seats or {})
        human = HumanSeat(console)
        self.default = default or (lambda number: human)
        self.players = players

    def seat(self, number):
        if number not in self.seats:
            self.seats[number] = self.default(number)
        return self.seats[number]

    def show(self, text):
        self.console.write(text + '\n')

    def show_event(self, event):
        """One of the game's events (dialogue.Event); a table showing one
        seat's view shows only what that seat may see."""
        self.show(event.text)

    def tell(self, player, text):
        self.show('%s: %s' % (player.name, text))

    def banner(self, name):
        for line in dialogue.banner(name):
            self.show(line)

    def choose(self, seat, heading, options, waiting_for, game=None, decision=None):
        """A player's choice of a card or an action; game and decision when
        the VM's Game asks (TableGame), for seats that think."""
        answerer = self.seat(seat)
        decide = getattr(answerer, 'decide', None)     # a seat may be any object with choose
        if game is not None and decide is not None:
            return decide(game, decision)
        return answerer.choose(heading, options, waiting_for)

    def choose_count(self, counts, team_size):
        """How many players (or teams of team_size) play."""
        size = team_size or 1
        if self.players is None:
            i = self.seat(0).choose(dialogue.count_question(team_size), [str(n) for n in counts],
                                    dialogue.count_waiting_for(team_size))
            n = counts[i]
        else:
            n = fixed_count(self.players, counts, size)
        check_seats(self.seats, n * size)
        return n

    def new_player(self, seat, who):
        return Player(self.seat(seat).name(dialogue.name_question(who), 'the name of ' + who),
                      seat=seat)

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
                         quiet=table.console.silent)

    def play(self):
        """Play to the end: the winner's name, or None; errors are raised."""
        game, table = self.game, self.table
        shown = 0
        while True:
            if game.events is not None:
                for event in game.events[shown:]:
                    table.show_event(event)
                shown = len(game.events)
            d = game.decision
            if d is None:
                break
            if d.kind == NAME:
                game.answer(table.seat(d.seat).name(d.prompt, d.waiting_for))
            elif d.kind == COUNT:
                game.answer(table.seat(0).choose(d.prompt, d.options, d.waiting_for))
                check_seats(table.seats, game.seats)
            else:
                game.answer(table.choose(d.seat, d.prompt, d.options, d.waiting_for, game, d))
        if game.ending.error is not None:
            raise game.ending.error
        return game.ending.winner

    def __getattr__(self, name):
        # players, teams, deck, globals: the state of the game being played
        return getattr(self.game.machine, name)
