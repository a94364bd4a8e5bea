"""The real game as the seat saw it (Belief's first part).

Takes the real game at each of the seat's decisions (follow_real) and
keeps, by playing a shadow of it on (its shuffles replayed as they were):
the seat's observation at every history position (trace), when each
shuffle happened (shuffled_at), which positions played a card the seat did
not see and who played it (unseen_plays, played_by), and the cards seen
since each shuffle (seen, as of this decision; seen_before, as of the
one before).  A new game, or a history that is not the old one's sequel,
starts it all again and drops the particles.  give answers a game as the
real one was answered (by label), the one way every part replays it."""
from pipvm.game.determinize import Blind, Sightings, _Observer, _replay_game, _same_option
from pipvm.game.kinds import NAME

from .budgets import PLAYS


class Sight:
    """The seat's view of the real game (a part of Belief: uses seat and
    sets the attributes Belief.__init__ declares for it)."""

    def follow_real(self, game):
        """The seat's observations at each decision of game so far (trace),
        the cards it has seen (deck indexes), kept up to date by playing a
        shadow of the real game on (its shuffles replayed as they were)."""
        history = game.history
        if (self.real is not game or len(self.shadow.history) > len(history)
                or self.shadow.history != history[:len(self.shadow.history)]):
            self.real = game
            self.states = game.machine.shuffles
            self.shadow = _replay_game(game, None)
            self.observe = _Observer(self.seat)
            self.trace, self.sightings = [], Sightings(self.seat, self.shadow)
            self.pins = []
            self.shuffled_at = {}
            self.unseen_plays = set()
            self.played_by = {}
            self.blind = Blind(self.seat)
            self.particles = []
            self.lost = False
            self.checked = 0
            self._note(self.shadow)
        self.states = game.machine.shuffles
        g = self.shadow
        while len(g.history) < len(history):
            h = len(g.history)
            before, shown = len(g.machine.shuffles), len(g.events)
            who = g.machine.pending.player.name if g.decision is not None \
                and g.decision.kind in PLAYS else None
            self.blind.note(g, h, history[h])
            give(g, history[h])
            for j in range(before, len(g.machine.shuffles)):
                self.shuffled_at[j] = h
            # a card played where the seat could not see it: a world plays any
            # of its own there (as determinize does), or the label would tell
            if any(e.kind == 'played' and e.seen_by(self.seat).card is None
                   for e in g.events[shown:]):
                self.unseen_plays.add(h)
                self.played_by[h] = who
            self._note(g)
        # the cards seen since each shuffle (as of the last decision, and before)
        self.pins_before, self.pins = self.pins, self.sightings.pinned()
        self.history = history

    def _note(self, g):
        self.sightings.note(g)
        self.trace.append(self.observe(g))

    def freed(self, plays, h):
        """give's free for history position h, or None: a card played unseen,
        or another seat's ask naming a card the seat did not see (Blind)."""
        if h in self.unseen_plays:
            return (self.rng, plays, h)
        if self.blind is not None and h in self.blind.at:
            return (self.rng, plays, h, self.blind)
        return None

    def seen(self, j):
        """The cards the seat has seen since shuffle j: a deal keeps them where
        the real shuffle's draws put them (the others are hidden, even those
        it saw before the shuffle; determinize.Sightings).  j = -1: no shuffle
        (the deal is the game's own order), so none."""
        return self.pins[j] if 0 <= j < len(self.pins) else frozenset()

    def seen_before(self, j):
        """seen(j) as it was at the seat's decision before."""
        return self.pins_before[j] if 0 <= j < len(self.pins_before) else frozenset()

    def last_shuffle(self, orders, h, default=0):
        """The last of the shuffles (orders) made before history position h,
        or default if none was."""
        return max((j for j in range(len(orders)) if self.shuffled_at.get(j, -1) < h),
                   default=default)


def give(g, entry, free=None):
    """Answer g's decision as the real game was answered (by label); False
    if g offers no such option (or waits for nothing).  free = (rng, plays,
    position): a card played unseen, answered as the world played it before
    (plays: position -> label) or else at random (then noted in plays); with
    a Blind after them, an ask answered blind: at random among the options
    alike (False if there is none)."""
    choice, label = entry
    d = g.decision
    if d is None:
        return False
    if d.kind is NAME:
        g.answer(label)
        return True
    if free is not None:
        rng, plays, h = free[:3]
        i = d.options.index(plays[h]) if plays.get(h) in d.options else None
        if i is None:
            i = rng.randrange(len(d.options)) if len(free) == 3 else free[3].answer(g, h, rng)
            if i is None:
                return False
            plays[h] = d.options[i]
        g.answer(i)
        return True
    i = _same_option(d.options, label, choice)
    if i is None:
        return False
    g.answer(i)
    return True
