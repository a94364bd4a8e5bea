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
- an area's label is the author's text, known to all.
A card played to a `facedown` area, a hand or a stash is known by none of
the others: the oracle looks where it landed, and ignores how the engine
announced it.

It builds on tests/privacy.py's Witness (the same rules, for the examples
of tests/test_privacy.py), adding the moment of each play: the Witness
looks only when an event is appended, after the card has left the hand.
"""
from pipvm.core.runtime import Area

from ..privacy import CARD_NAMES, SPECTATOR, Witness, named

__all__ = ('Oracle', 'watch', 'named', 'CARD_NAMES', 'SPECTATOR')


class Oracle(Witness):
    """A Witness that also looks at every card played, before it moves."""

    def __init__(self, game):
        super().__init__(game)
        machine = game.machine
        play_card = machine.play_card

        def noted(player, card, dest):
            self.own[player.seat].add(str(card))       # it was in the player's hand
            play_card(player, card, dest)
            self.landed(dest)
        machine.play_card = noted              # (on this machine only)

    def look(self):
        super().look()
        for v in declared_areas(self.game.machine):
            if type(v) is Area:         # its label is the author's text, shown to all
                self.public.update(named(v.name))

    def landed(self, dest):
        """A card played to dest is public where dest is a faceup area's
        cards (in sight: all of them, or a squared-up area's top)."""
        for v in declared_areas(self.game.machine):
            if type(v) is Area and v.cards is dest and not v.is_facedown:
                self.public.update(map(str, v.cards[:1] if v.is_squaredup else v.cards))

    def may_know(self, seat):
        """The card names seat (None: a spectator) may know by now."""
        self.look()
        return self.public | (self.own[seat] if seat is not SPECTATOR else set())

    def in_sight(self, seat):
        """The card names seat may see now, in a view's hands and areas."""
        m = self.game.machine
        out = set()
        for v in declared_areas(m):
            if type(v) is Area and not v.is_facedown:
                out.update(map(str, v.cards[:1] if v.is_squaredup else v.cards))
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
