"""What each seat has seen of a game, worked out apart from the code that
decides what a seat is shown (pipvm/game/view.py, dialogue.Event.seen_by),
so that a bug there cannot hide itself.

A Witness takes the place of a game's event list before its first card is
dealt.  Each time the game says anything, and at each decision, it looks
at the machine itself and notes, by the rules of docs/api.md: every seat
sees the cards of its own hand and the face-up cards of the table (a
face-up, squared-up area's top card).  A seat has seen a card if it was
ever so in sight, even between two decisions (a trick gathered at once).

A game's own text is the author's (docs/api.md): a card named in a
`message` (to everyone, or to the seat) or in the labels of an action the
seat is asked counts as shown to whom the program addressed it.  What the
engine itself says, that a card was played, counts for nothing here: the
card is seen where it lands, or not at all.
"""
import collections
import json

from pipvm.core.runtime import Area, new_deck

CARD_NAMES = [str(c) for c in new_deck()]
SPECTATOR = None


class Witness(list):
    """A game's event list that notes, at every event, what each seat sees."""

    def __init__(self, game):
        super().__init__(game.events)
        self.game = game
        self.public = set()                        # what every seat has seen
        self.own = collections.defaultdict(set)    # what one seat has seen
        game.events = game.machine.events = self
        self.look()

    def append(self, event):
        super().append(event)
        if event.kind == 'message':
            (self.public if event.to is None else self.own[event.to]).update(named(event.text))
        self.look()

    def look(self):
        m = self.game.machine
        d = self.game.decision
        if d is not None and d.kind == 'action':
            self.own[d.seat].update(named(' '.join(d.options)))
        for g in m.globals:
            # an area, or a list of areas declared at once (each face up or down as declared)
            for v in g if type(g) is list else [g]:
                if type(v) is Area and not v.is_facedown:
                    self.public.update(map(str, v.cards[:1] if v.is_squaredup else v.cards))
        # (every seated player's: one taken out of `players` still holds its hand)
        for p in m.seated:
            self.own[p.seat].update(map(str, p.hand))

    def unseen(self, seat, data):
        """The card names in data (a view, a frame: anything JSON) that seat
        has never seen."""
        self.look()            # the decision the game stopped at
        return named(json.dumps(data)) - self.public - (self.own[seat] if seat is not None
                                                       else set())


def named(text):
    """The names of the cards text names."""
    return {name for name in CARD_NAMES if name in text}


def watch(game):
    """A Witness for game, which must not have started (its names still to ask)."""
    assert not game.machine.frames, 'watch a game before it starts'
    return Witness(game)
