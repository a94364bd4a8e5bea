"""The fixed texts of the terminal dialogue, byte for byte the reference's,
and the shape of the game's output.  Both engines take them from here: the
VM's game object (pipvm/game/game.py) and the reference's table (table.py)."""
from pipvm.core.plain import NamedTuple
from pipvm.core.errors import PipError

RULE = '-' * 42
NO_WINNER = 'No winner has been declared.'
SORRY = "I'm sorry, I didn't understand."
YOUR_CHOICE = 'Your choice? '


KINDS = ('show', 'message', 'played')     # an Event's kind: what web views and beliefs read


class Event(NamedTuple):
    """One line of the game's output, and who it is for.  `text` is the line
    of the whole table's transcript (every seat human, one terminal: the
    original's dialogue); what one seat reads of it is seen_by(seat)."""
    kind: str                  # KINDS: 'show' (the table), 'message' (Pip's message), 'played'
    text: str                  # the line as the terminal shows it
    to: int = None             # the seat it is addressed to; None for everyone
    card: str = None           # 'played': the card's name
    by: int = None             # 'played': the seat that played it
    others: str = None         # what the seats other than `to` read instead; None: nothing
    shows: tuple = ()          # 'message': the names of the cards its text shows (Text.shows)

    def seen_by(self, seat):
        """The event as seat (from 0; None: a spectator) reads it, or None if
        it is not told.  The one place an event's audience is decided: views,
        determinization, the terminal and the web table all ask it."""
        if self.to is None or self.to == seat:
            return self
        if self.others is None:
            return None
        return Event(self.kind, self.others, None, None, self.by)


def played(player, card, area):
    """The event of player (a Player) playing card (its name) to a card list:
    `area` is the Area that list is the cards of, or None (a hand, a stash, a
    list in no area).  Everyone reads the card only if it lands face up;
    otherwise the player reads it and the others that a card was played."""
    text = '%s played %s.' % (player.name, card)
    if area is not None and not area.is_facedown:
        return Event('played', text, None, card, player.seat)
    hidden = '%s played a card%s.' % (player.name, ' face down' if area is not None else '')
    return Event('played', text, player.seat, card, player.seat, hidden)


def banner(name):
    return [RULE, 'Welcome to ' + name, RULE]


def won_by(winner):
    return 'The game was won by ' + winner


def team_size_line(size):
    return 'This game has %d players per team.' % size


def count_line(count, team_size):
    return 'This game has %d %s.' % (count, 'teams' if team_size else 'players')


def count_question(team_size):
    return 'How many %s are playing?' % ('teams' if team_size else 'players')


def count_waiting_for(team_size):
    return 'the number of ' + ('teams' if team_size else 'players')


def name_question(who):
    return 'Enter a name for %s:' % who


CHOOSE = {'card': 'a card', 'action': 'an action', 'cards': 'cards'}
PASS = 'Pass'                   # the option to pass of `play ... or pass` (extension)


def choice_question(player, kind):
    """The heading of a card ('card'), action ('action') or set of cards
    ('cards') choice."""
    return '%s: Choose %s:' % (player, CHOOSE[kind])


def set_label(names):
    """A set of cards as an option: "A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else '%s and %s' % (', '.join(names[:-1]), names[-1])


def menu(heading, options, numbered=False):
    """A question as the terminal shows it, up to the answer (with `pipvm run
    --numbered`, each option after its number)."""
    marks = ['%d. ' % n if numbered else '' for n in range(1, len(options) + 1)]
    return heading + '\n' + ''.join('  %s%s\n' % m for m in zip(marks, options)) + YOUR_CHOICE


def name_order(count, team_size):
    """[(seat, who)] in the order the names are asked: Player 1.. or, for
    teams, each team's members in turn."""
    if not team_size:
        return [(i, 'Player %d' % (i + 1)) for i in range(count)]
    return [(seat, 'Player %d on team %d' % (m + 1, t + 1))
            for t, seats in enumerate(team_seats(count, team_size))
            for m, seat in enumerate(seats)]


def team_seats(n, size):
    """The seats of each of n teams: the players list interleaves the teams."""
    return [[m * n + t for m in range(size)] for t in range(n)]


def fixed_count(players, counts, size):
    """How many players (size 1) or teams of size `--players N` means."""
    if players % size or players // size not in counts:
        raise PipError(None, '--players %d: this game is for %s players' % (
            players, _alternatives([n * size for n in counts])))
    return players // size


def fitting(counts, team_size, seats):
    """The indices of counts (of players, or of teams of team_size) that
    seat every one of seats (numbers from 0, as --seat names them)."""
    need = max(seats, default=0) + 1
    return [i for i, n in enumerate(counts) if n * (team_size or 1) >= need]


def check_unasked(counts, team_size, seats):
    """An error if a count seat 1 may answer leaves out a seat --seat names,
    where nothing narrows the question to the counts that seat them (the
    terminal does, fitting; a served table's seat 1 may answer any count)."""
    size = team_size or 1
    fits = fitting(counts, team_size, seats)
    if len(fits) < len(counts):
        raise PipError(None, '--seat %d: fewer players would leave it out; give --players %s' % (
            max(seats) + 1, _alternatives([counts[i] * size for i in fits])))


def check_seats(numbers, players, at_most=False):
    """An error if `--seat` names a seat (from 0) beyond the players (or
    beyond the most the game allows, while how many play is not known)."""
    extra = [s + 1 for s in numbers if s >= players]
    if extra:
        raise PipError(None, '--seat %d: this game has %s%d players' % (
            min(extra), 'at most ' if at_most else '', players))


def _alternatives(numbers):
    """2, 3 or 4"""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else ', '.join(words[:-1]) + ' or ' + words[-1]
