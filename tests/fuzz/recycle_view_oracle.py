"""What each seat may know of a RECYCLE game, by seed 001's visibility
modifiers alone (issue 58), read from RECYCLE's reference interpreter
(compiler/reference/recycle.py), which keeps each location as RECYCLE
names it, never from the program the RECYCLE checker lowers it to (which
decides what the VM shows), nor from what the engine tells:

- `vloc`: visible to everyone;
- `iloc`: visible to its owner (a player; a team's members), to no seat
  when the owner is the game (the game is no seat);
- `hloc`: visible to no one, its owner included;
- `mem`: copies of cards, visible to all.

A seat may know a card from the moment it is so visible to it, at any
moment of the game (the oracle looks before and after every action); the
options of a decision are known to the seat asked.  A spectator knows
what everyone knows.
"""
import collections

from pipvm.core.errors import InputEnded, PipError, StepLimit
from pipvm.core.rng import OCamlRandom
from pipvm.play.table import Seat, SilentConsole, Table

from ..privacy import SPECTATOR, named

EVERYONE = ('vloc', 'mem')


class Knowing:
    """Attached to a reference Interpreter before it plays: what each seat
    may know (known) and sees now (sight), by the seed's rules."""

    def __init__(self, interp):
        self.interp = interp
        self.public = set()
        self.own = collections.defaultdict(set)
        do = interp.do

        def looked(action):
            self.look()
            do(action)
            self.look()
        interp.do = looked

    def audience(self, key):
        """The seats a location is visible to: 'all', or a set of seats."""
        owner_id, vis, _ = key
        if vis in EVERYONE:
            return 'all'
        if vis != 'iloc' or owner_id is None:
            return set()
        for p in getattr(self.interp, 'players', ()) or ():
            if id(p) == owner_id:
                return {p.seat}
        for t in getattr(self.interp, 'teams', ()) or ():
            if id(t) == owner_id:
                return {p.seat for p in t.members}
        raise AssertionError('a location owned by no player or team')

    def sight(self, seat):
        """The card names seat (None: a spectator) sees now."""
        out = set()
        for key, cards in self.interp.locs.items():
            who = self.audience(key)
            if who == 'all' or seat is not SPECTATOR and seat in who:
                out.update(map(str, cards))
        return out

    def look(self):
        for key, cards in self.interp.locs.items():
            if cards:
                who = self.audience(key)
                names = map(str, cards)
                if who == 'all':
                    self.public.update(names)
                else:
                    names = set(names)
                    for s in who:
                        self.own[s].update(names)

    def asked(self, seat, options):
        self.own[seat].update(named(' '.join(options)))

    def known(self, seat):
        """The card names seat (None: a spectator) may know by now."""
        self.look()
        return self.public | (self.own[seat] if seat is not SPECTATOR else set())


class _HistorySeat(Seat):
    """Answers the reference as the VM game was answered (its history),
    noting the oracle at each question."""

    def __init__(self, history, note):
        self.history, self.note = list(history), note

    def name(self, prompt, waiting_for):
        self.note(None, ())
        if not self.history:
            raise InputEnded(waiting_for)
        return self.history.pop(0)[1]

    def choose(self, heading, options, waiting_for):
        if not self.history:
            raise InputEnded(waiting_for)
        return self.history.pop(0)[0]


class _Table(Table):
    def choose(self, seat, heading, options, waiting_for, game=None, decision=None):
        self.note(seat, options)
        return super().choose(seat, heading, options, waiting_for)


def knowledge(recycled, seed, history, seats):
    """The oracle at each decision of the game history answered, and at its
    end if it ended: [(known, sight)], each {seat or None: card names};
    recycled: compiler/recycle/language.Recycled."""
    from compiler.reference.recycle import Interpreter
    notes = []
    table = _Table(SilentConsole(), players=seats)
    interp = Interpreter(recycled, table, OCamlRandom(seed), None)
    oracle = Knowing(interp)

    def note(seat, options):
        if seat is not None:
            oracle.asked(seat, options)
        everyone = list(range(seats)) + [SPECTATOR]
        notes.append(({s: oracle.known(s) for s in everyone},
                      {s: oracle.sight(s) for s in everyone}))
    table.note = note
    seat = _HistorySeat(history, note)
    table.default = lambda number: seat
    try:
        interp.play()
    except InputEnded:
        return notes
    except (PipError, StepLimit):       # an error ends the game, as the VM's
        pass
    note(None, ())
    return notes

