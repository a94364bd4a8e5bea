"""What each seat may know of a game, decided from the declared areas alone
(issue 58): the rules of docs/language.md and docs/api.md ("What a seat may
see"), written apart from the code that decides what a seat is shown
(pipvm/game/view.py, dialogue.Event.seen_by, dialogue.played), as the
reference interpreter is written apart from the VM.

The rules, by where a card is, never by what the engine says of it:
- a seat may know the cards of its own hand, at every moment it holds them
  (also between two decisions: a card dealt and played at once);
- every seat, and a spectator, may know the cards in sight in a `faceup`
  area (a `squaredup` one: its top card), at every moment they are;
- a seat that plays a card knows it (it was in its hand);
- a `message` is the author's: the cards its text names are known to
  whom the program addressed it (everyone, or the seat the event is for);
- the options of a decision are known to the seat asked;
- an area's label is the author's text, known to all;
- so is a String the program holds `for each player` or team (an
  extension): the table shows those values to all (docs/api.md, `values`),
  so the cards its text names, at any moment, are known to every seat.
A card played to a `facedown` area, a hand or a stash is known by none of
the others: the oracle looks where it landed, and ignores how the engine
announced it.

It builds on tests/privacy.py's Witness (the same rules, for the examples
of tests/test_privacy.py), adding the moment of each play: the Witness
looks only when an event is appended, after the card has left the hand.
"""
from typing import NamedTuple

from pipvm.core.runtime import Area

from ..privacy import CARD_NAMES, SPECTATOR, Witness, named

__all__ = ('Oracle', 'Play', 'note_plays', 'watch', 'named', 'CARD_NAMES', 'SPECTATOR')


class Play(NamedTuple):
    """A card played, as the oracle reads it."""
    at: int             # how many events the game had said before it
    card: str           # its name
    by: int             # the seat that played it
    public: bool        # it landed in sight in a faceup area: every seat may know it

    def read_by(self, seat):
        """Whether seat (None: a spectator) may know which card it was."""
        return self.public or seat is not SPECTATOR and seat == self.by


def in_sight(area):
    """The cards of a faceup area in sight (a squared-up one: its top)."""
    return [] if area.is_facedown else area.cards[:1] if area.is_squaredup else area.cards


def note_plays(game, then=None):
    """A list, growing as game plays, of its plays (Play), each decided by
    where the card lands, whatever the engine says of it; then(player,
    card, dest) is called after each.  A fork of the game is not watched."""
    machine = game.machine
    assert not machine.frames, 'note the plays of a game before it starts'
    plays, play_card, fork = [], machine.play_card, machine.fork

    def noted(player, card, dest):
        at = None if machine.events is None else len(machine.events)
        play_card(player, card, dest)
        public = any(type(v) is Area and v.cards is dest
                     and any(c is card for c in in_sight(v))
                     for v in declared_areas(machine))
        plays.append(Play(at, str(card), player.seat, public))
        if then is not None:
            then(player, card, dest)

    def unwatched(*args, **kwargs):
        other = fork(*args, **kwargs)
        for name in ('play_card', 'fork'):
            other.__dict__.pop(name, None)
        return other
    machine.play_card, machine.fork = noted, unwatched        # (on this machine only)
    return plays


class Oracle(Witness):
    """A Witness that also looks at every card played, before it moves."""

    def __init__(self, game):
        super().__init__(game)

        def landed(player, card, dest):
            self.own[player.seat].add(str(card))       # it was in the player's hand
            for v in declared_areas(self.game.machine):
                if type(v) is Area and v.cards is dest:
                    self.public.update(map(str, in_sight(v)))
        self.plays = note_plays(game, landed)

    def look(self):
        super().look()
        for v in declared_areas(self.game.machine):
            if type(v) is Area:         # its label is the author's text, shown to all
                self.public.update(named(v.name))
        m = self.game.machine
        for k, (owner, _, kind) in enumerate(m.program.owns):
            if kind == 'String':        # a String held for each player or team: shown to all
                for obj in m.players if owner == 'Player' else m.teams or ():
                    self.public.update(named(str(obj.own.get(k, ''))))

    def may_know(self, seat):
        """The card names seat (None: a spectator) may know by now."""
        self.look()
        return self.public | (self.own[seat] if seat is not SPECTATOR else set())

    def in_sight(self, seat):
        """The card names seat may see now, in a view's hands and areas."""
        m = self.game.machine
        out = set()
        for v in declared_areas(m):
            if type(v) is Area:
                out.update(map(str, in_sight(v)))
        for p in m.seated:
            if seat is not SPECTATOR and p.seat == seat:
                out.update(map(str, p.hand))
        return out


def declared_areas(machine):
    """The globals, each list of areas declared at once (an extension) as its
    areas: every area the program declared, each with its own options."""
    out = []
    for v in machine.globals:
        out += v if type(v) is list and v and all(type(a) is Area for a in v) else [v]
    return out


def watch(game):
    """An Oracle for game, which must not have started (its names still to ask)."""
    assert not game.machine.frames, 'watch a game before it starts'
    return Oracle(game)
