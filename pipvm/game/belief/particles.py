"""The particles: worlds, each a game and the deal that makes it.

A Deal is each shuffle's order of the cards (deck indexes), the order the
real shuffle's draws gave (drawn), and the card each unseen play played;
a Particle is a game, its Deal, the observer following it and the games
kept just before its shuffles (checkpoints).  A particle's game is exactly
what its deal makes: Particles.restart and fresh_particle replay the real
game's answers under the deal (Dealt routes every shuffle to
Particles.shuffle: the real draws, then the never-seen cards in the deal's
order, or a new random one noted in the deal).  check plays a particle on
to a history position and compares the seat's observations; its score
(how far it matched, then how close the first difference is) is what every
repair climbs.  Nothing here decides which particles live: worlds.py
and the repairs do."""
from pipvm.core.rng import OCamlRandom
from pipvm.engine.vm import Dealer
from pipvm.game.determinize import _Observer, _replay_game, deck_indexes
from pipvm.game.kinds import CARD

from . import clues
from .budgets import PLAYS
from .sight import give


class Particles:
    """Making, replaying and checking particles (a part of Belief: uses
    seat, rng, real, the Sight's records)."""

    def redealt(self, dead, k):
        """The k-th of the particles dead that got past a shuffle after the
        first (the game before it matched), with the last such shuffle dealt
        anew (and the cards played unseen since it chosen anew), replayed
        from just before it (not yet checked); None if none did.  A game
        that deals the same cards every hand (Euchre) tells where a hand's
        cards are by the cards played in it, which kills the particles: a
        fresh deal replays the earlier hands too, this only the last (their
        cards are all shuffled again, so the earlier hands' worlds serve as
        they are)."""
        past, real = [], self.shadow.machine.dealer.orders
        for p in dead:
            j = max((j for j in p.checkpoints
                     if j > 0 and p.matched > self.shuffled_at.get(j, -1)), default=None)
            # only where the shuffle had the cards in the real game's order
            # (a new deck each hand, as Euchre's): else the cards kept where
            # the real draws put them are not where the real game has them,
            # and a new deal of that shuffle seldom matches (Oh Hell gathers
            # the cards as the particle's hands held them)
            if j is not None and j < len(p.deal.drawn) and p.deal.drawn[j] == real[j]:
                past.append((p, j))
        if not past:
            return None
        p, j = past[k % len(past)]
        at = self.shuffled_at[j]
        deal = p.deal.copy()
        del deal.orders[j:], deal.drawn[j:]
        deal.plays = {h: c for h, c in deal.plays.items() if h < at}
        return self.restart(p, j, deal)

    def fresh_particle(self):
        """A particle dealt anew from the start (not yet checked)."""
        deal = Deal()
        p = Particle(_replay_game(self.real, Dealt(self, deal)), deal, 0)
        p.obs = _Observer(self.seat)
        return p

    def check(self, p, end, pinned=()):
        """Play particle p on to history position end, comparing the seat's
        observations; returns how many positions match (end + 1: all).
        p.score: how far it matched, then how close the first difference.
        pinned: unseen plays (positions) that must play the deal's card: p
        stops where the player does not hold it (p.short)."""
        g, trace, history, shuffled_at = p.game, self.trace, self.history, self.shuffled_at
        h = len(g.history)
        observed = p.observed       # (then it matched here: it is not compared again)
        p.short = None
        while True:
            if not observed:
                seen = p.obs(g)
                if seen != trace[h]:
                    p.score = (h, clues.closeness(seen, trace[h]))
                    p.diff = (seen, trace[h])
                    p.matched = h
                    return h
            observed = False
            if h == end:
                p.score = (h + 1, 0)
                p.matched = h + 1
                p.observed = True
                return h + 1
            nxt = len(g.machine.shuffles)
            if shuffled_at.get(nxt) == h and p.keeps:   # the real game shuffled answering this
                p.checkpoints[nxt] = (g.fork(), p.obs.shown)
            free = self.freed(p.deal.plays, h)
            if h in pinned and (g.decision is None or g.decision.kind is not CARD
                                or p.deal.plays[h] not in g.decision.options):
                # a play shown fixed to a card the player does not hold here:
                # not played at random, the repair moves the card to it
                p.short = (h, p.deal.plays[h])
                p.score, p.matched, p.diff = (h, -2), h, None
                return h
            if not give(g, history[h], free):
                # the real answer was not an option here (a card played that
                # this world put elsewhere): a repair swaps it with one of
                # the player's cards
                pending = g.machine.pending
                p.diff = ([str(c) for c in pending.player.hand]
                          if g.decision is not None and g.decision.kind in PLAYS else None,
                          history[h][1])
                p.score = (h + 1, -1)
                p.matched = h + 1
                return h + 1
            h += 1

    def particle(self, game, deal, like, shown):
        """A trial particle of game and deal, its observer at shown, its
        checkpoints those of particle like.  A trial is only checked, never
        kept (what matches is replayed from its shuffle, restart): it keeps
        no game at the shuffles it passes (a fork each)."""
        q = Particle(game, deal, 0)
        q.keeps = False
        q.observed = True
        deal_with(game, Dealt(self, deal))
        q.obs = _Observer(self.seat)
        q.obs.shown = shown
        q.checkpoints = dict(like.checkpoints)
        return q

    def restart(self, p, j, deal):
        """A particle with deal, replayed from just before shuffle j."""
        q = Particle(None, deal, 0)
        q.checkpoints = {k: v for k, v in p.checkpoints.items() if k <= j}
        if j in p.checkpoints:
            g, shown = p.checkpoints[j]
            q.game = g.fork()
            q.obs = _Observer(self.seat)
            q.obs.shown = shown
            q.observed = True
            deal_with(q.game, Dealt(self, deal))
        else:
            q.game = _replay_game(self.real, Dealt(self, deal))
            q.obs = _Observer(self.seat)
            q.checkpoints = {}
        return q

    def copy_particle(self, p):
        q = Particle(p.game.fork(), p.deal.copy(), p.matched)
        deal_with(q.game, Dealt(self, q.deal))
        q.score, q.observed = p.score, p.observed
        q.obs = _Observer(self.seat)
        q.obs.shown = p.obs.shown
        q.checkpoints = dict(p.checkpoints)
        q.base = p.base
        return q

    def shuffle(self, deal, machine, items):
        # (called by the particle's dealer, Dealt)
        """Shuffle number j as the real one drew, the never-seen cards then in
        deal[j]'s order if deal has one for these cards, else in a new random
        order (noted in deal)."""
        j = len(machine.shuffles)
        if j < len(self.states):
            state, idx = self.states[j]
            machine.rng = OCamlRandom.at(state, idx)
            machine.shuffles.append((state, idx))
        else:
            machine.shuffles.append((machine.rng.state[:], machine.rng.idx))
        machine.rng.shuffle(items)
        index = deck_indexes(machine)
        orders = deal.orders
        if any(id(c) not in index for c in items):
            # the players shuffled: the order the real draws give them is the
            # one every seat sees (nothing to deal anew, no cards to note)
            del deal.drawn[j:], orders[j:]
            deal.drawn.append([])
            orders.append([])
            return
        now = [index[id(c)] for c in items]
        real = self.shadow.machine.dealer.orders
        if j < len(real) and now != real[j] and sorted(now) == sorted(real[j]):
            # the same cards gathered in another order (Oh Hell collects them
            # as this world's hands held them): a shuffle's result does not
            # depend on its input order, so start from the real result, whose
            # never-seen cards then trade places below as in any deal (the
            # real draws on this order would misplace the cards the seat
            # sees, killing every particle at each new hand)
            now = list(real[j])
        del deal.drawn[j:]
        deal.drawn.append(list(now))
        if j < len(orders) and sorted(orders[j]) == sorted(now):
            items[:] = [machine.deck[i] for i in orders[j]]
            return
        seen = self.seen(j)
        places = [k for k, i in enumerate(now) if i not in seen]
        hidden = [now[k] for k in places]
        self.rng.shuffle(hidden)
        for k, i in zip(places, hidden):
            now[k] = i
        items[:] = [machine.deck[i] for i in now]
        del orders[j:]
        orders.append(now)


class Deal:
    """A particle's deal: each shuffle's order (deck indexes), and the order
    the real shuffle's draws gave before the never-seen cards moved."""

    def __init__(self, orders=(), drawn=(), plays=None):
        self.orders = [list(o) for o in orders]
        self.drawn = [list(o) for o in drawn]
        self.plays = dict(plays or {})   # history position -> the card it played unseen

    def copy(self):
        return Deal(self.orders, self.drawn, self.plays)


class Particle:
    """A world: its game, its deal, the observer following it, and games
    kept just before the shuffles (to replay from there after a move)."""

    def __init__(self, game, deal, matched):
        self.game, self.deal, self.matched = game, deal, matched
        self.score = (matched, 0)
        self.obs = None
        self.checkpoints = {}
        self.observed = False  # whether obs has seen the game where it is now
        self.diff = None       # (its observation, the seat's) where they first differ
        self.short = None      # (position, card) of a pinned play it could not make (Replay.shown)
        self.base = None       # (game, observer's place, shuffles) at the last decision matched
        self.keeps = True      # whether check keeps a game at each shuffle (checkpoints; not a trial's)

    def take(self, other):
        self.game, self.deal, self.matched = other.game, other.deal, other.matched
        self.score, self.obs, self.checkpoints = other.score, other.obs, other.checkpoints
        self.diff, self.observed, self.short = other.diff, other.observed, other.short


def distinct(particles):
    """particles without those dealt as one before them (copies of one
    world, not yet moved apart, fail alike: one repair serves them all)."""
    out, deals = [], set()
    for p in particles:
        key = (tuple(map(tuple, p.deal.orders)), tuple(sorted(p.deal.plays.items())))
        if key not in deals:
            deals.add(key)
            out.append(p)
    return out


class Dealt(Dealer):
    """A particle's dealer: its deal, through the belief (Particles.shuffle)."""

    def __init__(self, belief, deal):
        self.belief, self.deal = belief, deal

    def shuffle(self, machine, items):
        self.belief.shuffle(self.deal, machine, items)


def deal_with(g, dealer):
    """Make g's shuffles go through dealer (a fork deals plainly)."""
    g.machine.dealer = dealer
