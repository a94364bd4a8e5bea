"""The table: the terminal dialogue of a game, byte for byte the reference's.

The VM talks to a Table; the Table asks Seats.  A seat is whatever answers
for one player (and the first seat also for the table, e.g. how many are
playing): `HumanSeat` asks at the terminal.  Bots and network players are
other Seat implementations; the VM never knows which it is talking to.
"""
import sys

from .errors import InputEnded, PipError
from .runtime import Player, Team

RULE = '-' * 42


class Console:
    """Line-based terminal I/O.  Text is Latin-1 both ways, so every byte a
    user types comes back out unchanged; output is flushed before each read."""
    silent = False             # True when nothing written is ever seen (pipvm sim)

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

    def flush(self):
        self.stdout.flush()


class Seat:
    """What answers for one player.  `waiting_for` names the question, for
    messages like `input ended while waiting for Frank's choice`."""

    def name(self, prompt, waiting_for):
        raise NotImplementedError

    def choose(self, heading, options, waiting_for):
        """The index of the chosen option."""
        raise NotImplementedError


def menu(heading, options):
    """A question as the terminal shows it, up to the answer."""
    return heading + '\n' + ''.join('  %s\n' % o for o in options) + 'Your choice? '


class HumanSeat(Seat):
    def __init__(self, console):
        self.console = console

    def name(self, prompt, waiting_for):
        line = self.console.read_line(prompt + ' ')
        if line is None:
            raise InputEnded(waiting_for)
        return line

    def choose(self, heading, options, waiting_for):
        out = self.console
        while True:
            answer = out.read_line(menu(heading, options))
            if answer is None:
                raise InputEnded(waiting_for)
            if answer in options:
                return options.index(answer)     # the first equal option, as the reference
            out.write("I'm sorry, I didn't understand.\n")


class Table:
    """The game's side of the dialogue: announcements and questions to seats."""

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

    def tell(self, player, text):
        self.show('%s: %s' % (player.name, text))

    def banner(self, name):
        self.show(RULE)
        self.show('Welcome to ' + name)
        self.show(RULE)

    def choose(self, player, heading, options):
        return self.seat(player.seat).choose(heading, options, "%s's choice" % player.name)

    def choose_count(self, heading, counts, what, size=1):
        """How many players (size 1) or teams of size play."""
        if self.players is None:
            i = self.seat(0).choose(heading, [str(n) for n in counts], 'the number of ' + what)
            n = counts[i]
        else:
            n = fixed_count(self.players, counts, size)
        check_seats(self.seats, n * size)
        return n

    def new_player(self, seat, prompt, who):
        return Player(self.seat(seat).name(prompt, 'the name of ' + who), seat=seat)

    def seat_players(self, counts):
        n = self.choose_count('How many players are playing?', counts, 'players')
        self.show('This game has %d players.' % n)
        return [self.new_player(i, 'Enter a name for Player %d:' % (i + 1), 'Player %d' % (i + 1))
                for i in range(n)]

    def seat_teams(self, counts, size):
        """(players, teams): the players list interleaves the teams' members."""
        self.show('This game has %d players per team.' % size)
        n = self.choose_count('How many teams are playing?', counts, 'teams', size)
        self.show('This game has %d teams.' % n)
        players, teams = [None] * (n * size), []
        for t, seats in enumerate(team_seats(n, size)):
            members = []
            for m, seat in enumerate(seats):
                who = 'Player %d on team %d' % (m + 1, t + 1)
                players[seat] = self.new_player(seat, 'Enter a name for %s:' % who, who)
                members.append(players[seat])
            team = Team(members)
            for p in members:
                p.team = team
            teams.append(team)
        return players, teams


def fixed_count(players, counts, size):
    """How many players (size 1) or teams of size `--players N` means."""
    if players % size or players // size not in counts:
        raise PipError(None, '--players %d: this game is for %s players' % (
            players, _alternatives([n * size for n in counts])))
    return players // size


def check_seats(numbers, players, at_most=False):
    """An error if `--seat` names a seat (from 0) beyond the players (or
    beyond the most the game allows, while how many play is not known)."""
    extra = [s + 1 for s in numbers if s >= players]
    if extra:
        raise PipError(None, '--seat %d: this game has %s%d players' % (
            min(extra), 'at most ' if at_most else '', players))


def team_seats(n, size):
    """The seats of each of n teams: the players list interleaves the teams."""
    return [[m * n + t for m in range(size)] for t in range(n)]


def _alternatives(numbers):
    """2, 3 or 4"""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ', '.join(words[:-1]) + ' or ' + words[-1]
