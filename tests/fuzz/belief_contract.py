"""A Belief's particles checked from outside (property 11): each is the
game its deal makes, and the worlds handed out are its particles.

A particle carries a game and a deal: each shuffle's cards in the order
the particle put them (deck indexes), and the card each play the seat did
not see laid.  Every repair and Metropolis step replays from the deal
(Belief.restart) or trades cards in the game and the deal together
(Swapped), so a step that changes one and not the other leaves a particle
whose next repair starts from a game it is not, and whose moves the chain
no longer weighs as its docstring says.  Its worlds still show the seat
what it saw, which is all property 11 compared, so only this sees it.

The deal is replayed here from the start by a dealer of this file's own
(the real game's draws for each shuffle, then the deal's order of its
cards), the unseen plays answered with the deal's cards and every other
answer as the real game was answered (its choice, where another option
has the same label); the game it makes must be
the particle's, state for state (harness.snapshot).  Nothing here calls
the belief's code.
"""
from pipvm.core.rng import OCamlRandom
from pipvm.engine.vm import Dealer
from pipvm.game.determinize import deck_indexes
from pipvm.game.kinds import NAME

from . import harness


class DealtAs(Dealer):
    """Shuffle j: drawn from the real game's generator state before its
    shuffle j, as the real game drew it (or from the generator as it
    stands, past the real game's shuffles), then its cards put in the
    deal's order j (an empty order: players, left as drawn)."""

    def __init__(self, states, orders):
        self.states, self.orders = states, orders

    def shuffle(self, machine, items):
        j = len(machine.shuffles)
        if j < len(self.states):
            machine.rng = OCamlRandom.at(*self.states[j])
        super().shuffle(machine, items)
        order = self.orders[j] if j < len(self.orders) else None
        assert order is not None, 'a particle shuffled more often than its deal says'
        if order:
            index = deck_indexes(machine)
            assert sorted(order) == sorted(index[id(c)] for c in items), \
                "a particle's deal orders other cards than its shuffle has"
            items[:] = [machine.deck[i] for i in order]


def replayed(real, deal, unseen, end):
    """The game deal makes: real's set-up, shuffles by DealtAs, its first
    end answers as real's (by label), the unseen plays (positions) laying
    the deal's cards."""
    g = real.replayed(OCamlRandom.at([0] * 55, 0), DealtAs(real.machine.shuffles, deal.orders))
    for h, (choice, label) in enumerate(real.history[:end]):
        d = g.decision
        assert d is not None, "a particle's deal ends its game early"
        if d.kind is NAME:
            g.answer(label)
            continue
        want = deal.plays.get(h) if h in unseen else label
        assert want in d.options, ("a particle's deal does not make its game", h, want)
        # two options may share a label (an ask's `for` with a constant
        # text): the real game's own choice, as the real game answered
        same = h not in unseen and choice < len(d.options) and d.options[choice] == want
        g.answer(choice if same else d.options.index(want))
    return g


def check(belief, worlds, n):
    """After belief.worlds(game, n): the worlds are its first particles (or
    none when it lost them all), and every particle is the game its deal
    makes, at the real game's position."""
    want = 0 if belief.lost else min(n, len(belief.particles))
    assert len(worlds) == want, ('worlds handed out', len(worlds), want)
    if belief.lost:
        return
    real, end = belief.real, len(belief.real.history)
    states = [harness.snapshot(p.game.machine) for p in belief.particles]
    for w, state in zip(worlds, states):
        assert harness.snapshot(w.machine) == state
    if len(belief.particles) == 1 and belief.particles[0].obs is None:
        # nothing hidden from the seat: its one world is the real game
        assert states[0] == harness.snapshot(real.machine)
        return
    assert len(belief.particles) == belief.size, ('particles kept', len(belief.particles))
    for p, state in zip(belief.particles, states):
        assert len(p.game.history) == end, 'a particle behind the game'
        g = replayed(real, p.deal, belief.unseen_plays, end)
        assert g.decision == p.game.decision, "a particle is not its deal's game"
        assert harness.snapshot(g.machine) == state, "a particle is not its deal's game"
