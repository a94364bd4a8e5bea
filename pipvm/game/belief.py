"""A seat's belief: worlds consistent with what it observed, carried from
decision to decision (a particle filter, as POMCP's; docs/metrics.md).

determinize.py draws a world by replaying the whole game with the hidden
cards dealt anew and rejects it at the first observation that differs: in
a long game with telling moves (Go Fish's questions) almost no fresh deal
survives.  A Belief keeps its worlds instead:

- each particle is a game replayed with its own deal (for every shuffle,
  the real shuffle's draws, then the cards the seat has never seen in an
  order of the particle's), already checked against every observation of
  the seat up to the last decision it thought about;
- at the seat's next decision each particle is played on through the
  answers given since (matched by label) and checked against the new
  observations only: a forward step, not a replay from the start;
- a particle that fails is repaired by local moves: two cards the seat has
  never seen trade places in one shuffle's deal and the game is replayed
  from just before that shuffle; the move is kept if the particle then
  matches at least as far as before (closer to the first difference), until
  it matches everywhere or a budget of replays is spent;
- a repair that the local moves do not make is directed: replayed to the
  decision before the first difference, the particle trades there a
  never-seen card of a player the difference concerns with another (a step
  of the game each), walking on while it matches as far, and a trade that
  gets past the difference is replayed from its shuffle to be kept
  (min-conflicts repair; docs/metrics.md); a card the difference names is
  moved into or out of the hands it concerns, and in the last walk a trade
  the replay undid earlier is walked on from there (an ejection chain);
  when that fails too, a walk that also gathers every never-seen card of a
  rank the difference names into the hands it names at once (a book laid
  down after a draw needs the whole rank there, one trade at a time each
  is undone); and last, a chain that makes every unseen play whose card
  the difference shows that card at once, bringing each card into its
  player's hand by another play or a trade in the deal (Cheat: a pile
  taken up shows several cards laid face down), kept only if it ends
  matching everywhere; and after it, a chain that brings a never-seen card
  the difference names into the hand it concerns by one of that player's
  draws, the latest first (Go Fish: the seven asked for must have come
  after the last "Go fish!" to sevens), or sends one out to the stock;
  and last of all, every unseen play up to the first difference solved
  for at once, so that each card the seat saw is where it saw it (a
  constraint search over which card each play was: pipvm/game/relabel.py);
  and after all, where a player played a card the world holds for it but
  forbids there (it showed out of the suit led), every card the world lets
  it play there traded away at once (_void);
- when no particle is left, fresh deals are tried first, then the repairs;
  if nothing is found the nearest miss is kept to be repaired further at
  the next decision, and no world is handed out;
- every particle, old or repaired, is moved on by Metropolis steps (the same
  swap, kept only if the observations all still hold): the chain's
  stationary distribution is uniform over the consistent deals it reaches.

Soundness is exactly determinize's: a world is handed out only if the seat
would have observed exactly what it did at every decision, and its future
(the generator) is drawn from the caller's rng.
"""
import itertools
import re

from pipvm.core.rng import OCamlRandom
from pipvm.engine.vm import Dealer
from pipvm.game.determinize import (DECK_INDEX, TRIES, Sightings, _Observer, _future,
                                    _replay_game, _same_option, deck_indexes, nothing_hidden)
from pipvm.game import relabel
from pipvm.game.kinds import CARD, NAME, SETS
from pipvm.game.view import areas, card_lists

PLAYS = (CARD, SETS)    # the decisions that play cards from the player's hand

REPAIRS = 400       # replays to repair one particle when no world is left (a tenth while some are)
LOCAL = 120         # local steps to repair one particle, at most
REPAIRED = 3        # dead particles repaired per decision, at most
FRESH = TRIES       # fresh deals tried when no particle is left, at most (as determinize)
WIDTH = 2           # replayed moves tried per step of a repair, the best kept
TRADES = 30         # trades (steps of the game) per replay in a directed repair
MOVES = 1           # Metropolis steps for a copy of a particle
STILL = 0.5         # share of the last walk's trades between cards still where the deal put them
ZONE = 0.3          # share of a walk's trades moving a card the difference names across its hands
NAMED = 8           # unseen plays a directed repair makes the cards turned over, one by one
CHAIN = 1           # how deep the last walk carries on a trade its replay undid earlier
CHAINED = 4         # replays for each such walk
GATHER = 0.4        # share of the gathering walk's proposals moving a whole rank at once
SHOWN = 8           # chains of _shown (unseen plays made the cards shown), when all else fails
SHOWN_DEPTH = 12    # replays a chain goes on without getting further
SHOWN_REPLAYS = 400  # replays of all the chains of one _shown, at most (scaled as repairs)
WINDOW_REPLAYS = 600  # replays of _window's chain, at most (scaled as repairs)
WINDOW_WALK = 40    # replays of the walk after each of _window's trades (its last round)
RELABEL = 6         # rounds of _relabel (each a solve and a replay), at most
VOID_ROUNDS = 4     # rounds of _void (each a player's cards traded away at once), at most
VOID_TRIES = 24     # random draws of the cards traded in, per round of _void
CYCLED = 4          # _window's first trades whose Z goes on to a third card's place


class Belief:
    """The worlds seat (from 0) believes in, for one game."""

    def __init__(self, seat, size, rng, repairs=REPAIRS, fresh=FRESH):
        self.seat, self.size, self.rng = seat, size, rng
        self.repairs = repairs      # the budget of replays for a repair (REPAIRS)
        self.fresh = fresh          # fresh deals tried when no particle is left (FRESH)
        self.real = None

    def worlds(self, game, n, quiet=True):
        """Up to n forks consistent with what the seat observed in game, each
        with its future drawn from rng (empty if none could be found);
        quiet: forks that keep no events (a playout's)."""
        self._follow_real(game)
        self._update()
        rng = self.rng
        out = []
        for i in range(0 if self.lost else min(n, len(self.particles))):
            out.append(_future(self.particles[i].game.fork(quiet=quiet), rng))
        return out

    # --- the real game, as the seat saw it ------------------------------------

    def _follow_real(self, game):
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
            self.shuffled_at = {}       # shuffle number -> history position it happened at
            self.unseen_plays = set()   # history positions that played a card the seat did not see
            self.played_by = {}         # such a position -> the name of the player who played
            self.particles = []
            self.lost = False           # whether particles holds only the nearest miss
            self.checked = 0            # history position the particles are checked to
            self._note(self.shadow)
        self.states = game.machine.shuffles
        g = self.shadow
        while len(g.history) < len(history):
            h = len(g.history)
            before, shown = len(g.machine.shuffles), len(g.events)
            who = g.machine.pending.player.name if g.decision is not None \
                and g.decision.kind in PLAYS else None
            _give(g, history[h])
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

    def _seen(self, j):
        """The cards the seat has seen since shuffle j: a deal keeps them where
        the real shuffle's draws put them (the others are hidden, even those
        it saw before the shuffle; determinize.Sightings).  j = -1: no shuffle
        (the deal is the game's own order), so none."""
        return self.pins[j] if 0 <= j < len(self.pins) else frozenset()

    def _seen_before(self, j):
        """_seen(j) as it was at the seat's decision before."""
        return self.pins_before[j] if 0 <= j < len(self.pins_before) else frozenset()

    # --- the particles ----------------------------------------------------------

    def _update(self):
        end = len(self.history)
        if nothing_hidden(self.real, self.unseen_plays):
            self.particles = [_Particle(self.real.fork(), [], 0)]
            self.checked = end
            return
        alive, dead = [], []
        # The real game's copy taken while nothing was hidden is no particle:
        # it has no deal to replay nor observer (a game dealt without a
        # shuffle hides cards only later): fresh deals take its place.
        self.particles = [p for p in self.particles if p.obs is not None]
        if self.lost:       # the world that got furthest last time, replayed in full
            self.particles = [self._restart(p, 0, p.deal.copy()) for p in self.particles]
        for p in self.particles:
            p.base = None if self.lost else (p.game.fork(), p.obs.shown, len(p.deal.orders))
            (alive if self._check(p, end) == end + 1 else dead).append(p)
        self.lost = False
        fresh = []
        if not alive:
            # the last shuffle dealt anew in the dead particles that got past
            # it (their games before it match), then fresh deals from the
            # start, as determinize draws them: most fail within a few
            # decisions, so they cost little beside a repair
            for k in range(self.fresh):
                p = self._redealt(dead, k) or self._fresh()
                (alive if self._check(p, end) == end + 1 else fresh).append(p)
                if len(alive) >= self.size:
                    break
        # repair the particles that got furthest, until half are alive (briefly
        # while some are: copies of those will do; the first at length when
        # none is)
        dead.sort(key=lambda p: p.score, reverse=True)
        for k, p in enumerate(_distinct(dead)[:REPAIRED]):
            if len(alive) * 2 >= self.size:
                break
            if self._repair(p, end, self.repairs // 10 if alive or k else self.repairs):
                alive.append(p)
        if not alive and fresh:
            # else the fresh deal that got furthest, repaired as well
            p = max(fresh, key=lambda p: p.score)
            if self._directed(p, end, self.repairs // 2) or self._replayed(p, end, self.repairs // WIDTH // 2):
                alive.append(p)
            dead.append(p)
        if not alive and dead:
            # the last resort, only where no world is found otherwise: a walk
            # half of whose trades are between cards still where the deal put
            # them (as the only walk it lost worlds the plain one finds)
            p = max(dead, key=lambda p: p.score)
            q, r = self._copy(p), self._copy(p)
            q.diff = r.diff = p.diff
            if self._walk(p, end, self.repairs // 2, STILL, chain=CHAIN):
                alive.append(p)
            # and after it, from the same nearest miss, a walk that also
            # gathers a whole rank at once (instead of the last walk, it lost
            # one of the worlds that walk finds: random seats, Go Fish seed
            # 1's 27th decision)
            elif self._walk(q, end, self.repairs, STILL, chain=CHAIN, gathers=GATHER):
                alive.append(q)
            # and last, from the same nearest miss again, the unseen plays made
            # the cards the seat was shown, several at once (Cheat); only here,
            # so that until then the belief draws as before
            elif self._shown(r, end):
                alive.append(r)
            # and then a card the difference names brought into the hand it
            # concerns by a draw in the window where it must come (Go Fish),
            # from the furthest of them
            else:
                s = max((p, q, r), key=lambda x: x.score)
                if self._window(s, end):
                    alive.append(s)
                # and last, every unseen play up to the difference solved for
                # at once (Cheat: a card turned over that the world sent
                # elsewhere long before)
                elif self._relabel(s, end):
                    alive.append(s)
                # and after all, a player who played a card the world
                # forbids it (Spades: it showed out of the suit led) made
                # void of every card the world lets it play there, at once
                elif self._void(s, end):
                    alive.append(s)
                else:
                    dead.extend((q, r))
        if not alive:
            # no world: the one that got furthest is kept, not handed out, and
            # its repair goes on from there at the next decision
            self.particles = [max(dead, key=lambda p: p.score)] if dead else []
            self.lost = True
            return
        # the dead are replaced by copies of the living, which Metropolis
        # steps then move apart (MOVES replays per copy, at most)
        copies = []
        while len(alive) + len(copies) < self.size:
            copies.append(self._copy(alive[self.rng.randrange(len(alive))]))
        for _ in range(MOVES):
            for p in copies:
                self._nudge(p, end)
        self.particles = alive + copies
        self.checked = end

    def _redealt(self, dead, k):
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
        return self._restart(p, j, deal)

    def _fresh(self):
        """A particle dealt anew from the start (not yet checked)."""
        deal = _Deal()
        p = _Particle(_replay_game(self.real, _Dealt(self, deal)), deal, 0)
        p.obs = _Observer(self.seat)
        return p

    def _check(self, p, end, pinned=()):
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
                    p.score = (h, _closeness(seen, trace[h]))
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
            if shuffled_at.get(nxt) == h:       # the real game shuffled answering this
                p.checkpoints[nxt] = (g.fork(), p.obs.shown)
            free = (self.rng, p.deal.plays, h) if h in self.unseen_plays else None
            if h in pinned and (g.decision is None or g.decision.kind is not CARD
                                or p.deal.plays[h] not in g.decision.options):
                # a play _shown fixed to a card the player does not hold here:
                # not played at random, the repair moves the card to it
                p.short = (h, p.deal.plays[h])
                p.score, p.matched, p.diff = (h, -2), h, None
                return h
            if not _give(g, history[h], free):
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

    def _move(self, p, end, metropolis):
        """Two never-seen cards of one shuffle's deal trade places; the game is
        replayed from before that shuffle.  Kept if it matches everywhere
        (metropolis) or at least as well as before (a repair).  True if kept."""
        orders = p.deal.orders
        if not orders:
            return False
        rng = self.rng
        # the last shuffle before the first difference: the deal it made decides it
        limit = p.matched if not metropolis else end + 1
        j = self._last_shuffle(orders, limit)
        if rng.random() < 0.25:
            j = rng.randrange(j + 1)
        deal = p.deal.copy()
        order, seen = deal.orders[j], self._seen(j)
        # a repair may also put a card the seat has seen since p was dealt
        # where the real shuffle's draws put it, as a fresh deal would
        drawn = deal.drawn[j] if j < len(deal.drawn) else order
        misplaced = [] if metropolis else [
            k for k, i in enumerate(order) if i in seen and drawn[k] != i]
        if misplaced and rng.random() < 0.5:
            a = rng.choice(misplaced)
            b = order.index(drawn[a])
        else:
            hidden = [k for k, i in enumerate(order) if i not in seen]
            if len(hidden) < 2:
                return False
            a, b = rng.sample(hidden, 2)
        order[a], order[b] = order[b], order[a]
        q = self._restart(p, j, deal)
        self._check(q, end)
        if (q.matched == end + 1) if metropolis else (q.score >= p.score):
            p.take(q)
            return True
        return False

    def _nudge(self, p, end):
        """A Metropolis step: two cards the seat has not seen trade places,
        kept only if every observation still holds.  Tried first in the game
        at the last decision (cheap to refuse), then replayed."""
        if p.base is None or p.base[2] != len(p.deal.orders):
            self._move(p, end, metropolis=True)
            return
        base, shown, shuffles = p.base
        if not shuffles:            # dealt without a shuffle: no cards to trade
            return
        j = shuffles - 1
        seen = self._seen(j)
        movable = [i for i in p.deal.orders[j] if i not in seen]
        if len(movable) < 2:
            return
        trial = _Swapped(p.deal, j, base, self.shuffled_at).then([tuple(self.rng.sample(movable, 2))])
        q = self._particle(trial.game.fork(), trial.deal, p, shown)
        if self._check(q, end) == end + 1:
            q = self._restart(p, j, trial.deal.copy())
            if self._check(q, end) == end + 1:
                q.base = p.base
                p.take(q)

    def _particle(self, game, deal, like, shown):
        """A particle of game and deal, its observer at shown, its
        checkpoints those of particle like."""
        q = _Particle(game, deal, 0)
        q.observed = True
        _deal_with(game, _Dealt(self, deal))
        q.obs = _Observer(self.seat)
        q.obs.shown = shown
        q.checkpoints = dict(like.checkpoints)
        return q

    def _restart(self, p, j, deal):
        """A particle with deal, replayed from just before shuffle j."""
        q = _Particle(None, deal, 0)
        q.checkpoints = {k: v for k, v in p.checkpoints.items() if k <= j}
        if j in p.checkpoints:
            g, shown = p.checkpoints[j]
            q.game = g.fork()
            q.obs = _Observer(self.seat)
            q.obs.shown = shown
            q.observed = True
            _deal_with(q.game, _Dealt(self, deal))
        else:
            q.game = _replay_game(self.real, _Dealt(self, deal))
            q.obs = _Observer(self.seat)
            q.checkpoints = {}
        return q

    def _copy(self, p):
        q = _Particle(p.game.fork(), p.deal.copy(), p.matched)
        _deal_with(q.game, _Dealt(self, q.deal))
        q.score, q.observed = p.score, p.observed
        q.obs = _Observer(self.seat)
        q.obs.shown = p.obs.shown
        q.checkpoints = dict(p.checkpoints)
        q.base = p.base
        return q

    def _repair(self, p, end, replays):
        """Moves until p matches everywhere, within about that many replays:
        the unseen plays made the cards the seat saw named, local moves if
        p matched at the last decision and no shuffle came since, then
        replayed ones."""
        if self._replay_named(p, end):
            return True
        if p.base is not None and p.base[2] == len(p.deal.orders) \
                and self._local(p, end, min(replays, LOCAL)):
            return True
        return self._directed(p, end, replays) or self._replayed(p, end, replays // WIDTH)

    def _directed(self, p, end, replays):
        """Repair at the first difference itself.  The game is replayed to the
        decision before it, and there never-seen cards trade places, one of
        each pair a card of a player the difference concerns (_involved: the
        asker who could not ask for sevens, the player who said "Go fish"
        where the seat heard "hands over 1"), the other any never-seen card.
        A trade costs a step of the game, not a replay; trades are kept
        while they match as far (a walk: two sevens to move out of a hand
        take two trades, the first of which changes nothing the seat sees),
        and once they get past the difference the deal they make is replayed
        from its shuffle, kept if it gets past there too (it may contradict
        something earlier: then the walk starts again from the decision).
        From the new first difference the same again, until p matches
        everywhere (True) or about that many replays (or TRADES times as
        many trades) are spent."""
        # a trade moves never-seen cards only: a card seen since p was dealt
        # goes where the real draws put it first, if that costs nothing,
        # else after a walk without it (Cheat's pile taken up shows cards
        # that p placed by its unseen plays)
        if self._replay_named(p, end, rounds=NAMED) or self._replay_plays(p, end):
            return True
        q = self._snapped(p, end)
        if q is not None and q.score >= p.score:
            p.take(q)
        elif q is not None:
            if self._walk(p, end, replays // 2):
                return True
            p.take(q)
            replays //= 2
        return self._walk(p, end, replays)

    def _walk(self, p, end, replays, still_share=0.0, fixed=frozenset(), chain=0, gathers=0.0):
        """_directed's walk from p as it is; still_share: the share of its
        trades between cards still where the deal put them; fixed: cards it
        does not move (a chain's); chain: how deep a trade the replay undid
        is carried on (_chained); gathers: the share of its proposals that
        move a whole group of cards the difference names at once (_gather)."""
        rng = self.rng
        trades = TRADES * replays
        while True:
            if p.matched == end + 1:
                return True
            # the decision before the first difference (an answer that was
            # not an option: before the decision that lacked it)
            at = p.matched - 1 - (p.score[1] == -1)
            j = self._last_shuffle(p.deal.orders, at, None)
            if at < 0 or j is None or replays <= 0:
                return False
            pre = self._restart(p, j, p.deal.copy())
            replays -= 1
            if still_share:
                # where each card was at the first decision after the shuffle
                # (checking up to there first plays the same game as at once)
                first = min(self.shuffled_at.get(j, -1) + 1, at)
                if self._check(pre, first) != first + 1:
                    return False
                places = _places(pre.game.machine)
            if self._check(pre, at) != at + 1:
                return False
            seen = self._seen(j)
            hidden = [i for i in p.deal.orders[j] if i not in seen and i not in fixed]
            if len(hidden) < 2:
                return False
            base = work = _Swapped(pre.deal, j, pre.game, self.shuffled_at)
            near, score = self._involved(p), p.score
            # a card played unseen before the difference, and a card the seat's
            # observation names there (Cheat's challenge turns it over): the
            # two trading places makes that play have been this card
            named = [(h, DECK_INDEX[n]) for h, n in self._named_plays(p, 0)[::-1][:8]
                     if DECK_INDEX[n] in hidden]
            # the never-seen cards still where they were then: trading two of
            # them in the deal changes the past only through what the seat saw
            # of their places, not through moves made since (the likeliest to
            # survive the replay)
            related, now = _related(p.diff), _places(pre.game.machine)
            still = [i for i in hidden if now.get(i) == places.get(i)] if still_share else []
            # the hands the difference concerns and the cards that moved in
            # the step that made it (Go Fish: the card drawn from the stock)
            moved = {i for i, where in _places(p.game.machine).items() if now.get(i) != where}
            zone = near | moved
            gather = _gathering(p, now, moved) if gathers else None
            while True:
                if trades <= 0 or replays <= 0:
                    return False
                trades -= 1
                played = pairs = None
                if gather is not None and rng.random() < gathers:
                    pairs = self._gather(gather, hidden, moved)
                    if not pairs:
                        continue
                    a = b = None
                elif named and rng.random() < 0.3:
                    h, a = rng.choice(named)
                    played = DECK_INDEX.get(work.deal.plays.get(h))
                if pairs or played in hidden:   # a gathering: a = b = None, its pairs traded below
                    b = played
                elif len(still) >= 2 and rng.random() < still_share:
                    a, b = self._zone_trade(still, zone, related)
                elif related and rng.random() < ZONE:
                    a, b = self._zone_trade(hidden, zone, related)
                else:
                    mine = [i for i in hidden if i in near]
                    a = rng.choice(mine or hidden)
                    b = rng.choice(hidden)
                if a is None:
                    trial = base.then(pairs)
                elif a == b:
                    continue
                else:
                    trial = work.then([(a, b)])
                q = self._particle(trial.game, trial.deal, pre, pre.obs.shown)
                self._check(q, end)
                if q.score > p.score:
                    q = self._restart(p, j, trial.deal.copy())
                    replays -= 1
                    self._check(q, end)
                    if q.score <= p.score and chain:
                        replays -= CHAINED
                        self._chained(q, end, trial.moved, chain - 1, still_share, gathers)
                    if q.score > p.score:
                        p.take(q)
                        p.base = None
                        break
                    work, score, near = base, p.score, self._involved(p)
                    related = _related(p.diff)
                elif q.score >= score:
                    work, score, near = trial, q.score, self._involved(q)
                    related = _related(q.diff)

    def _chained(self, q, end, moved, chain, still_share, gathers):
        """q, a trade that got past the first difference but that the replay
        undid earlier (a card handed over, a question asked about its rank
        long before), walked on from its own first difference with the
        traded cards kept where they are (an ejection chain: Glover, *Ejection
        chains, reference structures and alternating path methods for
        traveling salesman problems*, Discrete Applied Mathematics 65, 1996).
        Go Fish: a book laid down after a draw needs three cards of its
        rank in the hand and the fourth on the stock; the trades that put
        them there contradict the questions asked about those ranks before,
        which other trades can mend."""
        self._walk(q, end, CHAINED, still_share, frozenset(moved), chain, gathers)

    def _gather(self, gather, hidden, moved):
        """Pairs to trade that bring never-seen cards of the group into the
        zone (_gathering), each with a card of the zone outside the group,
        the cards that moved in the step first (Go Fish: the card drawn),
        then those the world's own differing line names (its wrong book);
        all of them or some (a book needs the whole rank, a question one)."""
        rng = self.rng
        groups, zone, wrong = gather
        group = rng.choice(groups)
        out = [i for i in hidden if i in group and i not in zone]
        into = [i for i in hidden if i in zone and i not in group]
        if not out or not into:
            return []
        rng.shuffle(out)
        rng.shuffle(into)
        into.sort(key=lambda i: (i not in moved, i not in wrong))
        k = min(len(out), len(into))
        if rng.random() < 0.5:
            k = rng.randint(1, k)
        return list(zip(out[:k], into[:k]))

    def _last_shuffle(self, orders, h, default=0):
        """The last of the shuffles (orders) made before history position h,
        or default if none was."""
        return max((j for j in range(len(orders)) if self.shuffled_at.get(j, -1) < h),
                   default=default)

    def _zone_trade(self, cards, zone, related):
        """Two of cards to trade: one that the first difference names
        (related) moved across the edge of zone (the hands it concerns, the
        cards that moved there) with one it does not name, into the zone or
        out of it, as a constraint solver picks a value of the violated
        constraint's variables; else one of zone's with any."""
        rng = self.rng
        named = [i for i in cards if i in related]
        if named:
            a = rng.choice(named)
            other = [i for i in cards if i not in related and (i in zone) != (a in zone)]
            if other:
                return a, rng.choice(other)
        mine = [i for i in cards if i in zone]
        return rng.choice(mine or cards), rng.choice(cards)

    def _local(self, p, end, steps):
        """Hill-climbing in the game as it was at the last decision p matched:
        two cards the seat had not seen by then trade places there (every
        value that holds one sees the other), the game goes on through the
        answers since, and the swap is kept if it matches at least as far.
        Once it matches everywhere, the same swaps are made in the deal and
        replayed from before its shuffle: kept only if that matches too.
        False if that many steps did not do."""
        base, shown, shuffles = p.base
        if not shuffles:            # dealt without a shuffle: no cards to trade
            return False
        j = shuffles - 1
        seen, now = self._seen_before(j), self._seen(j)
        movable = [i for i in p.deal.orders[j] if i not in seen]
        if len(movable) < 2:
            return False
        # the cards seen since then, where the real shuffle's draws put them
        # (where a fresh deal puts them), are the likeliest swaps
        order = p.deal.orders[j]
        drawn = p.deal.drawn[j] if j < len(p.deal.drawn) else order
        snaps = [(i, order[k]) for k, i in enumerate(drawn)
                 if i in now and i not in seen and order[k] != i and order[k] in movable]
        rng, best = self.rng, p.score
        work = _Swapped(p.deal, j, base, self.shuffled_at)        # the swaps kept so far
        named = self._named_pairs(p, movable, snaps)
        replays = self._named_plays(p, len(base.history))
        for step in range(steps):
            plays = None
            if replays and (step == 0 or rng.random() < 0.3):
                pairs, plays = [], dict([rng.choice(replays)])
            elif step == 0 and snaps:
                pairs = snaps
            elif named and rng.random() < 0.5:
                pairs = [rng.choice(named)]
            elif snaps and rng.random() < 0.3:
                pairs = [rng.choice(snaps)]
            else:
                pairs = [tuple(rng.sample(movable, 2))]
            trial = work.then(pairs, plays)
            q = self._particle(trial.game.fork(), trial.deal, p, shown)
            self._check(q, end)
            if q.score > best:
                named = self._named_pairs(q, movable, snaps)
                replays = self._named_plays(q, len(base.history))
            if q.matched == end + 1:
                q = self._restart(p, j, trial.deal.copy())
                if self._check(q, end) == end + 1:
                    p.take(q)
                    p.base = None          # (it was the old deal's)
                    return True
            elif q.score >= best:
                work, best = trial, q.score
        return False

    def _named_pairs(self, p, movable, snaps):
        """Where p's observation named one card and the seat's another (its
        hand shows the Queen of Spades, p's the Queen of Hearts): those two
        trading places is the likeliest repair.  Pairs of movable cards."""
        if p.diff is None:
            return []
        mine, real = (set(_CARD_NAME.findall(repr(v))) for v in p.diff)
        movable = set(movable)
        index = DECK_INDEX
        # (sorted: a set's order changes with the hash seed, the choice must not)
        ours = sorted(index[n] for n in mine - real if index[n] in movable)
        theirs = sorted(index[n] for n in real - mine if index[n] in movable)
        if not (ours and theirs):       # one side names a card: where the real
            ours = ours or theirs       # draws put it, else with any
            drawn = [pair for pair in snaps if pair[0] in ours]
            if drawn:
                return drawn
            theirs = [i for i in movable if i not in ours]
        return [(a, b) for a in ours for b in theirs]

    def _replay_named(self, p, end, most=4, rounds=1):
        """The unseen plays before p's first difference made the card the seat
        saw named there instead, latest first, each replayed from before
        the shuffle that came before it; True if one matches everywhere.
        With rounds > 1, one that gets further is kept and the same is done
        at its own first difference, that many times at most (Cheat: every
        card turned over was played unseen, each put right in turn)."""
        for _ in range(rounds):
            # on p's deal, and on it with the cards seen since where the real
            # draws put them (the card turned over may be one of them: no play
            # can have been it while this world holds it elsewhere)
            snapped, moved = self._snapped_deal(p.deal)
            bases = [(p.deal, None)] + ([(snapped, moved)] if moved is not None else [])
            better, where = None, _places(p.game.machine)
            for h, name in self._named_plays(p, 0)[::-1][:most]:
                # the card is in another hand in this world: one of that
                # player's unseen plays before h may have been it (it went
                # into a pile that reached h's player)
                holder = where.get(DECK_INDEX[name], ('',))
                also = [k for k in sorted(self.played_by, reverse=True)
                        if k < h and holder[0] == 'hand' and self.played_by[k] == holder[1]]
                for base, first in bases:
                    for deal, h0 in _named_deals(base, h, name, also[:4]):
                        j = self._last_shuffle(deal.orders, h0)
                        q = self._restart(p, j if first is None else min(j, first), deal)
                        self._check(q, end)
                        if q.matched == end + 1:
                            p.take(q)
                            p.base = None
                            return True
                        if rounds > 1 and q.score > p.score and better is None:
                            better = q
            if better is None:
                return False
            p.take(better)
            p.base = None
        return False

    def _replay_plays(self, p, end, plays=2, most=6):
        """The last unseen plays before p's first difference made other cards
        of the player's hand (at most most each), each replayed from before
        the shuffle that came before it; kept if the particle then matches
        further, True once it matches everywhere.  (Euchre: the dealer's
        discard, face down, was a card the world needs later: no trade of
        never-seen cards puts it back, the cards left unseen may be too few.)"""
        rng = self.rng
        for h in sorted((h for h in self.unseen_plays if h < p.matched), reverse=True)[:plays]:
            j = self._last_shuffle(p.deal.orders, h)
            pre = self._restart(p, j, p.deal.copy())
            if self._check(pre, h) != h + 1 or pre.game.decision is None:
                continue
            others = [o for o in pre.game.decision.options if o != p.deal.plays.get(h)]
            for label in rng.sample(others, min(most, len(others))):
                deal = p.deal.copy()
                deal.plays[h] = label
                q = self._restart(p, j, deal)
                self._check(q, end)
                if q.score > p.score:
                    p.take(q)
                    p.base = None
                    if p.matched == end + 1:
                        return True
                    break
        return False

    def _shown(self, p, end, chains=SHOWN, depth=SHOWN_DEPTH):
        """Several unseen plays made the cards the seat was shown at once (a
        compound move; True once p matches everywhere).  Where p's first
        difference shows the seat card X in the place where p shows Y, and
        p played Y unseen before, that play is made X: every such pair of
        the difference together (Cheat: a pile taken up shows several cards
        laid face down by others, and one play put right alone changes
        nothing the seat sees).  The game is replayed with those plays
        pinned; where a pinned play's player does not hold its card there,
        the card is brought to it (_bring: an earlier unseen play of its
        holder whose card reached the player is made it, a play of it that
        put it elsewhere gives the displaced card instead, or it trades
        places in the deal with a never-seen card of the player's), and
        the game is replayed again, the new first difference pinned in
        turn, while it gets further (depth replays without doing so end
        it): a chain whose middle steps may match less far than p, kept
        only if it ends matching everywhere, so a world is exactly as sound
        as a fresh one."""
        rng, budget = self.rng, SHOWN_REPLAYS * self.repairs // REPAIRS
        best = (p, p.deal, {}, {}, None)
        for _ in range(chains):
            # each chain from the furthest point a chain reached (p at first)
            q, deal, pinned, was, lo = best
            # a chain goes on while it gets further (a world far behind, a
            # fresh deal, has a card turned over to pin at every challenge)
            far, left = q.score, depth
            while left > 0 and budget > 0:
                if q.short is not None:
                    options = self._bring(q, deal, pinned, was)
                    if not options:
                        break
                    # the first (the likeliest) half the time, else any
                    deal, pinned, first, was = \
                        options[0] if rng.random() < 0.5 else rng.choice(options)
                else:
                    pins = self._shown_pins(q, deal, pinned)
                    if not pins:
                        break
                    deal = deal.copy()
                    for h, name in pins.items():
                        was[h] = deal.plays[h]
                        deal.plays[h] = name
                    pinned = {**pinned, **pins}
                    first = min(pins)
                # replayed from before the earliest change of the chain (p's
                # games kept before later shuffles hold p's plays)
                lo = first if lo is None else min(lo, first)
                q = self._restart(p, self._last_shuffle(deal.orders, lo), deal)
                self._check(q, end, pinned)
                if q.matched == end + 1:
                    p.take(q)
                    p.base = None
                    return True
                left, budget = left - 1, budget - 1
                if q.score > far:
                    far, left = q.score, depth
                    if q.score > best[0].score:
                        best = (q, deal, pinned, was, lo)
        return False

    def _relabel(self, p, end, rounds=RELABEL):
        """Every unseen play up to p's first difference made, at once, the
        card that lets each token the seat saw carry what it saw there
        (pipvm/game/relabel.py), the game replayed, and again from the new
        first difference while it gets further; True once p matches
        everywhere (kept only then, as any repair)."""
        q = p
        for _ in range(rounds):
            if q.diff is None:
                return False
            flow, required = self._flow(q)
            if flow is None:
                return False
            chosen = relabel.solve(flow, required)
            if chosen is None:
                # (the search's reach is short: a SAT solver over the last plays)
                chosen = relabel.solve_exact(flow, required)
            if chosen is None:
                return False
            deal = q.deal.copy()
            for i, (h, _, _) in enumerate(flow.plays):
                deal.plays[h] = _NAMES[chosen[i]]
            r = self._restart(q, 0, deal)
            self._check(r, end)
            if r.matched == end + 1:
                p.take(r)
                p.base = None
                return True
            if r.score <= q.score:
                return False
            q = r
        return False

    def _void(self, p, end, rounds=VOID_ROUNDS, tries=VOID_TRIES):
        """Where the real answer was a card p's player holds but may not play
        there (it must follow suit and, in p, holds the suit led), every
        other card p lets it play there trades places in the deal of the
        last shuffle, all at once, with never-seen cards not in its hand,
        drawn at random, and the game is replayed from the shuffle; tries
        times: a player who shows out holds none of the suit, and one trade
        at a time leaves the answer refused as before.  Kept if the game
        then gets further, and again from there, rounds times at most; True
        once p matches everywhere.  Cards the seat has seen go where the real
        draws put them first (the card played may be one the seat saw only
        then, which p still holds elsewhere)."""
        q = self._snapped(p, end) or p
        if q.matched == end + 1:
            p.take(q)
            p.base = None
            return True
        for _ in range(rounds):
            g, h = q.game, q.matched - 1
            if q.score[1] != -1 or g.decision is None or g.decision.kind is not CARD:
                return False
            label, m = self.history[h][1], g.machine
            index = deck_indexes(m)
            hand = {index[id(c)] for c in m.pending.player.hand}
            j = self._last_shuffle(q.deal.orders, h, default=None)
            if j is None or label not in {str(c) for c in m.pending.player.hand}:
                return False
            order, seen = q.deal.orders[j], self._seen(j)
            blockers = [index[id(c)] for c in m.pending.cards if str(c) != label]
            partners = [i for i in order if i not in seen and i not in hand]
            if not blockers or len(partners) < len(blockers) \
                    or any(b not in order or b in seen for b in blockers):
                return False
            best = None
            for _ in range(tries):
                deal = q.deal
                for x, z in zip(blockers, self.rng.sample(partners, len(blockers))):
                    deal = _traded_in(deal, j, x, z, self.shuffled_at)
                r = self._restart(q, j, deal)
                self._check(r, end)
                if r.matched == end + 1:
                    p.take(r)
                    p.base = None
                    return True
                if r.score > q.score and (best is None or r.score > best.score):
                    best = r
            if best is None:
                return False
            q = best
        return False

    def _flow(self, p):
        """(relabel.Flow of p's world up to its first difference, the
        identities the seat saw: {(position, token): identity}), p's game
        replayed from the start to get them; (None, None) if p's first
        difference is not one of cards shown."""
        d = p.matched
        pairs = {DECK_INDEX[y]: DECK_INDEX[x] for y, x in _shown_pairs(p.diff)}
        if not pairs:
            return None, None
        q = self._restart(p, 0, p.deal.copy())
        g, history = q.game, self.history
        flow, required = relabel.Flow(), {}
        start = len(g.history)
        # tokens by the card each object is in this world (a trade gives
        # objects each other's values; nothing changes them in a replay)
        index = {id(c): DECK_INDEX[c.name] for c in g.machine.deck}
        for h in range(d + 1):
            if h < start or (h == start and q.observed):
                seen = self.trace[h]        # (matched: the world's is the seat's)
            else:
                seen = q.obs(g)
            names = [DECK_INDEX[n] for n in _CARD_NAME.findall(repr(seen))]
            flow.named.append(names)
            for k in names:
                required[h, k] = pairs.get(k, k) if h == d else k
            if h == d:
                break
            if h < start:
                continue
            free = (self.rng, q.deal.plays, h) if h in self.unseen_plays else None
            player = None
            if free is not None and g.decision is not None and g.decision.kind is CARD:
                player = g.machine.pending.player
                hand = [index[id(c)] for c in player.hand]
            if not _give(g, history[h], free):
                return None, None
            if player is not None:
                left = set(hand) - {index[id(c)] for c in player.hand}
                if len(left) == 1:
                    flow.plays.append((h, hand, left.pop()))
        return flow, required

    def _window(self, p, end):
        """A card the first difference names brought into the hand of the
        player it concerns within a window of the game (True once p matches
        everywhere).  Go Fish: Cleo asks for sevens at 94 and the world has
        her hold none; the one never-seen seven must come to her after "Ada
        asks Cleo for sevens. Cleo says: Go fish!" at 64, so by one of her
        draws since.  A trade in the deal moves a card for the whole game:
        made with any card, it hits that window only by chance.  Here the
        never-seen card X the difference names trades places in the deal
        with a never-seen card Z the player drew, the latest drawn first
        (the likeliest to come after every question that said she had
        none): X comes where Z came, Z goes where X was (_window_trades).
        Each such trade alone first; then, for the first few, Z sent on to
        the place of a third never-seen card W which goes where X was (Z
        where X was is often asked for there: Ben drew the seven in the
        world, and the four he draws instead is asked for later); then each
        trade with a short walk from its own first difference, X kept where
        it went (an ejection chain, as _chained).  The first that gets
        further is kept and the same is done at its new first difference
        (a chain, while it gets further); the particle stays the nearest
        miss otherwise, handed out only if it matches everywhere.  Cards
        the seat has seen since p was dealt go where the real draws put
        them first, whatever that does to p's score (Go Fish: the card the
        seat drew, which no world has elsewhere); p stays as it was unless
        that chain gets further."""
        q = self._snapped(p, end)
        if q is None:
            return self._window_chain(p, end)
        found = self._window_chain(q, end)
        if found or q.score > p.score:
            p.take(q)
            p.base = None
        return found

    def _window_chain(self, p, end):
        """_window's chain from p as it is."""
        replays = WINDOW_REPLAYS * self.repairs // REPAIRS
        while replays > 0:
            if p.matched == end + 1:
                return True
            trades, hidden = self._window_trades(p)
            replays -= 1
            cycles = ((j, _traded_in(deal, j, z, w, self.shuffled_at), x, 0)
                      for j, deal, x, z, _ in trades[:CYCLED]
                      for w in sorted(hidden - {x, z}))
            walks = ((j, deal, x, WINDOW_WALK) for j, deal, x, _, _ in trades)
            plain = ((j, deal, x, 0) for j, deal, x, _, _ in trades)
            for j, deal, x, walk in itertools.chain(plain, cycles, walks):
                if replays <= 0:
                    return False
                q = self._restart(p, j, deal)
                self._check(q, end)
                replays -= 1 + walk
                if q.score <= p.score and walk:
                    self._walk(q, end, walk, fixed=frozenset({x}))
                if q.score > p.score:
                    p.take(q)
                    p.base = None
                    break
            else:
                return False
        return False

    def _window_trades(self, p):
        """The trades _window tries at p's first difference, in order, as
        (shuffle, deal, X, Z, position Z was drawn at): X a never-seen card
        the difference names (_related) not in the hand of a player it
        concerns (_concerned) where the world stopped, in no hand first
        (the stock: nothing seen moves with it); Z a never-seen card it does
        not name that this player drew (took from no one's hand: the stock,
        the deal) since the last shuffle before there, the latest drawn
        first, wherever it went since (the game is replayed from that
        shuffle to see who drew what when); then X a named card of the
        player's hand traded with an unnamed one in no hand (the stock).
        And the never-seen cards of that shuffle that it does not name."""
        stop = p.matched - 1                # the decision whose answer differs
        names = self._concerned(p)
        j = self._last_shuffle(p.deal.orders, stop, None)
        if j is None or not names or stop < 0:
            return [], set()
        seen = self._seen(j)
        hidden = {i for i in p.deal.orders[j] if i not in seen}
        named = {i for i in _related(p.diff) if i in hidden}
        if not named:
            return [], set()
        q = self._restart(p, j, p.deal.copy())
        drawn, was = [], _places(q.game.machine)     # (position, player, card)
        k = len(q.game.history)
        while k < stop and self._check(q, k + 1) == k + 2:
            k += 1
            now = _places(q.game.machine)
            drawn += [(k, where[1], i) for i, where in now.items()
                      if where[0] == 'hand' and where[1] in names
                      and not _held(was, i)]
            was = now
        out = []
        for h, name, z in sorted(drawn, reverse=True):
            if z in hidden and z not in named:
                into = sorted((x for x in named if was.get(x) != ('hand', name)),
                              key=lambda x: (_held(was, x), x))
                out += [(j, _traded_in(p.deal, j, x, z, self.shuffled_at), x, z, h) for x in into]
        # and the other way: a named card of the player's hand sent to the
        # stock, a card still there taking its place ("Ben hands over 2."
        # where the world's Ben had three)
        hands = {('hand', n) for n in names}
        held = [x for x in sorted(named) if was.get(x) in hands]
        rest = [w for w in sorted(hidden - named) if not _held(was, w)]
        out += [(j, _traded_in(p.deal, j, x, w, self.shuffled_at), x, w, -1) for x in held for w in rest]
        return out, hidden - named

    def _concerned(self, p):
        """The names of the players p's first difference concerns: the one
        whose answer it could not give, else those the seat's first
        differing line names ("Cleo hands over 1.")."""
        if p.diff is None:
            return set()
        m = p.game.machine
        seen, want = p.diff
        if not isinstance(want, dict):
            return {m.pending.player.name} if m.pending is not None else set()
        a, b = seen.get('log') or [], want.get('log') or []
        k = _first_difference(a, b)
        if k >= len(b):
            return set()
        return {q.name for q in m.players if q.name in (b[k].get('text') or '')}

    def _shown_pins(self, q, deal, pinned):
        """The unseen plays of q before its first difference that played a
        card Y where the seat's observation shows X (_shown_pairs), made X:
        position -> card name, the latest play of each Y not pinned yet."""
        if q.diff is None or not isinstance(q.diff[1], dict):
            return {}
        pins = {}
        for y, x in _shown_pairs(q.diff):
            hs = [h for h, label in deal.plays.items()
                  if label == y and h < q.matched and h not in pinned and h not in pins]
            if hs and x not in pins.values():
                pins[max(hs)] = x
        return pins

    def _bring(self, q, deal, pinned, was):
        """Ways to bring the card of the pinned play q stopped at (q.short)
        into its player's hand, likeliest first: (deal, pinned, the first
        position it changes, the cards the pinned plays played before) each.  Where the world has the card in another
        player's hand, one of that player's earlier unseen plays whose card
        is now in this player's hand is made it (the card takes the way that
        one took: Cheat, a card laid into a pile the player took up); where
        an earlier unseen play of the world laid it, that play lays the card
        the pin displaced instead; else the card trades places in the deal
        with a never-seen card the player holds (as _Swapped: each takes
        the other's part in the game, the unpinned plays follow)."""
        h, name = q.short
        m = q.game.machine
        if m.pending is None:
            return []
        player = m.pending.player.name
        places = _places(m)
        x = DECK_INDEX[name]
        where = places.get(x)
        out = []
        if where is not None and where[0] == 'hand' and where[1] != player:
            for h0 in sorted(deal.plays, reverse=True):
                if h0 < h and h0 not in pinned and self.played_by.get(h0) == where[1] \
                        and places.get(DECK_INDEX.get(deal.plays[h0])) == ('hand', player):
                    d = deal.copy()
                    d.plays[h0] = name
                    out.append((d, {**pinned, h0: name}, h0, {**was, h0: deal.plays[h0]}))
        for h0, label in sorted(deal.plays.items(), reverse=True):
            if label == name and h0 < h and h0 not in pinned and was.get(h) not in (None, name):
                d = deal.copy()
                d.plays[h0] = was[h]
                out.append((d, pinned, h0, was))
        seen = self._seen(len(deal.orders) - 1)
        mine = sorted(i for i, w in places.items() if w == ('hand', player) and i not in seen)
        for z in mine:
            traded = self._traded(deal, pinned, x, z, h)
            if traded is not None:
                out.append((*traded, was))
        return out

    def _traded(self, deal, pinned, x, z, h):
        """deal with cards x and z (deck indexes) trading places in the last
        shuffle before history position h that dealt both (each takes the
        other's part from there on, the unpinned plays follow their cards),
        pinned, and the position to replay from; None if no shuffle did."""
        j = max((j for j, o in enumerate(deal.orders)
                 if self.shuffled_at.get(j, -1) < h and x in o and z in o), default=None)
        if j is None:
            return None
        return _traded_in(deal, j, x, z, self.shuffled_at, pinned), pinned, self.shuffled_at.get(j, 0)

    def _named_plays(self, p, start):
        """Where the seat's observation names a card that p's does not, and a
        card was played unseen from history position start on: that play
        having been this card is the likeliest repair (Cheat's challenge turns
        over a card the seat knew was in the player's hand: it went there
        with a pile, so no trade of unseen cards can put it right).
        (position, card name) pairs; a play whose card is not in the
        player's hand there is played at random, as before."""
        if p.diff is None:
            return []
        mine, real = (set(_CARD_NAME.findall(repr(v))) for v in p.diff)
        named = sorted(real - mine)
        return [(h, n) for h in sorted(self.unseen_plays) if start <= h < p.matched
                for n in named]

    def _replayed(self, p, end, steps, width=WIDTH):
        """Replayed moves until p matches everywhere; False if that many
        steps did not do.  Each step tries width moves from p and keeps the
        best if it matches at least as far as p (hill-climbing, sideways
        allowed).  Most moves trade a card of a player the first difference
        concerns (_involved) with a never-seen card elsewhere: where the
        seat heard "P2 hands over 1" and the world said "Go fish", the
        cure is a card of P2's or of the asker's."""
        self._snap(p, end)
        if p.matched == end + 1:
            return True
        near = self._involved(p)
        for _ in range(steps):
            best = None
            for _ in range(width):
                q = self._proposal(p, end, near)
                if q is None:
                    return False
                if q.matched == end + 1:
                    p.take(q)
                    return True
                if best is None or q.score > best.score:
                    best = q
            if best.score >= p.score:
                near = self._involved(best)
                p.take(best)
        return False

    def _snap(self, p, end):
        """Every card the seat has seen put where the real shuffles' draws
        put it (as a fresh deal has it), whatever that does to p's score:
        no world that has a seen card elsewhere can match for long."""
        q = self._snapped(p, end)
        if q is not None:
            p.take(q)

    def _snapped(self, p, end):
        """p with every card the seat has seen where the real draws put it,
        checked; None if they all are."""
        deal, moved = self._snapped_deal(p.deal)
        if moved is None:
            return None
        q = self._restart(p, moved, deal)
        self._check(q, end)
        return q

    def _snapped_deal(self, deal):
        """A copy of deal with every card the seat has seen where the real
        draws put it, and the first shuffle that changed (None: none did)."""
        deal, moved = deal.copy(), None
        for j, order in enumerate(deal.orders):
            drawn = deal.drawn[j] if j < len(deal.drawn) else order
            seen = self._seen(j)
            for k, i in enumerate(drawn):
                if i in seen and order[k] != i:
                    x = order.index(i)
                    order[x], order[k] = order[k], i
                    moved = j if moved is None else min(moved, j)
        return deal, moved

    def _proposal(self, p, end, near):
        """p with one replayed move (not kept), or None if nothing can move:
        a never-seen card of near traded with another, or any two traded."""
        orders = p.deal.orders
        if not orders:
            return None
        rng = self.rng
        j = self._last_shuffle(orders, p.matched)
        if rng.random() < 0.25:
            j = rng.randrange(j + 1)
        deal = p.deal.copy()
        order, seen = deal.orders[j], self._seen(j)
        hidden = [i for i in order if i not in seen]
        mine = [i for i in hidden if i in near]
        r = rng.random()
        if mine and len(hidden) > len(mine) and r < 0.85:
            a = rng.choice(mine)
            b = rng.choice([i for i in hidden if i not in near])
        elif len(hidden) >= 2:
            a, b = rng.sample(hidden, 2)
        else:
            return None
        x, y = order.index(a), order.index(b)
        order[x], order[y] = b, a
        q = self._restart(p, j, deal)
        self._check(q, end)
        return q

    def _involved(self, p):
        """The cards (deck indexes) of the players p's first difference
        concerns, where p's game stopped: the player whose answer it could
        not give, or those whose view differs or whom the news there names."""
        m = p.game.machine
        if p.diff is None:
            return frozenset()
        names = set()
        if p.score[1] == -1:
            if m.pending is not None:
                names.add(m.pending.player.name)
        else:
            seen, want = p.diff
            for a, b in zip(seen.get('players') or (), want.get('players') or ()):
                if a != b:
                    names.add(b['name'])
            texts = [e.get('text') or '' for e in (seen.get('log') or []) + (want.get('log') or [])]
            names.update(q.name for q in m.players if any(q.name in t for t in texts))
            # a difference that names nobody but the seat, whose hand it sees
            # ("A: The rank is Ten.", a hidden card's rank told to it): the
            # cards of every hand, not the stock's, which nobody sees
            me = {b['name'] for b in want.get('players') or () if b.get('seat') == self.seat}
            if not names - me:
                names = {q.name for q in m.players}
        index = deck_indexes(m)
        return frozenset(index[id(c)] for q in m.players if q.name in names
                         for c in q.hand + q.stash)

    def _shuffle(self, deal, machine, items):
        # (called by the particle's dealer, _Dealt)
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
        del deal.drawn[j:]
        deal.drawn.append(list(now))
        if j < len(orders) and sorted(orders[j]) == sorted(now):
            items[:] = [machine.deck[i] for i in orders[j]]
            return
        seen = self._seen(j)
        places = [k for k, i in enumerate(now) if i not in seen]
        hidden = [now[k] for k in places]
        self.rng.shuffle(hidden)
        for k, i in zip(places, hidden):
            now[k] = i
        items[:] = [machine.deck[i] for i in now]
        del orders[j:]
        orders.append(now)


class _Deal:
    """A particle's deal: each shuffle's order (deck indexes), and the order
    the real shuffle's draws gave before the never-seen cards moved."""

    def __init__(self, orders=(), drawn=(), plays=None):
        self.orders = [list(o) for o in orders]
        self.drawn = [list(o) for o in drawn]
        self.plays = dict(plays or {})   # history position -> the card it played unseen

    def copy(self):
        return _Deal(self.orders, self.drawn, self.plays)


class _Particle:
    """A world: its game, its deal, the observer following it, and games
    kept just before the shuffles (to replay from there after a move)."""

    def __init__(self, game, deal, matched):
        self.game, self.deal, self.matched = game, deal, matched
        self.score = (matched, 0)
        self.obs = None
        self.checkpoints = {}
        self.observed = False  # whether obs has seen the game where it is now
        self.diff = None       # (its observation, the seat's) where they first differ
        self.short = None      # (position, card) of a pinned play it could not make (_shown)
        self.base = None       # (game, observer's place, shuffles) at the last decision matched

    def take(self, other):
        self.game, self.deal, self.matched = other.game, other.deal, other.matched
        self.score, self.obs, self.checkpoints = other.score, other.obs, other.checkpoints
        self.diff, self.observed, self.short = other.diff, other.observed, other.short


def _distinct(particles):
    """particles without those dealt as one before them (copies of one
    world, not yet moved apart, fail alike: one repair serves them all)."""
    out, deals = [], set()
    for p in particles:
        key = (tuple(map(tuple, p.deal.orders)), tuple(sorted(p.deal.plays.items())))
        if key not in deals:
            deals.add(key)
            out.append(p)
    return out


def _named_deals(deal, h, name, also=()):
    """Copies of deal in which the unseen play at h played name, and the
    first play they change: alone; where an earlier unseen play of the
    world played name, with that play's card and h's exchanged (Cheat: the
    card turned over went into a pile earlier in this world; the two plays
    change together, or the player no longer holds it); and with each
    earlier unseen play of also having played name too (the world kept the
    card where the real game laid it into a pile)."""
    one = deal.copy()
    one.plays[h] = name
    out = [(one, h)]
    for h0, label in sorted(deal.plays.items()):
        if label == name and h0 < h and h in deal.plays:
            two = one.copy()
            two.plays[h0] = deal.plays[h]
            out.append((two, h0))
    for h0 in also:
        two = one.copy()
        two.plays[h0] = name
        out.append((two, h0))
    return out


def _traded_in(deal, j, x, z, shuffled_at, pinned=()):
    """A copy of deal with cards x and z (deck indexes) trading places in
    shuffle j's order: each takes the other's part from there on, and the
    unseen plays of shuffle j's deal of them (but the pinned ones) follow
    their cards."""
    d = deal.copy()
    order = d.orders[j]
    a, b = order.index(x), order.index(z)
    order[a], order[b] = z, x
    d.plays = _follow(d.plays, x, z, _dealt_by(deal.orders, j, (x, z), shuffled_at), pinned)
    return d


def _dealt_by(orders, j, cards, shuffled_at):
    """The history positions (lo, hi] whose plays laid cards as shuffle j
    dealt them: after shuffle j, up to the next shuffle that deals one of
    cards again (its own order gives them their parts from there; a play
    answers before a shuffle it leads to).  An earlier play laid a card of
    another deal: a trade in shuffle j's order leaves it as it was (Euchre
    shuffles the whole deck every hand)."""
    later = (shuffled_at.get(k) for k in range(j + 1, len(orders))
             if any(c in orders[k] for c in cards))
    return shuffled_at.get(j, -1), min((h for h in later if h is not None), default=None)


def _follow(plays, a, b, window, pinned=()):
    """plays with cards a and b (deck indexes) traded at the positions of
    window (lo, hi], but the pinned ones; hi None: no end."""
    lo, hi = window
    trade = {_NAMES[a]: _NAMES[b], _NAMES[b]: _NAMES[a]}
    return {k: trade.get(label, label) if lo < k and (hi is None or k <= hi) and k not in pinned
            else label for k, label in plays.items()}


def _give(g, entry, free=None):
    """Answer g's decision as the real game was answered (by label); False
    if g offers no such option (or waits for nothing).  free = (rng, plays,
    position): a card played unseen, answered as the world played it before
    (plays: position -> label) or else at random (then noted in plays)."""
    choice, label = entry
    d = g.decision
    if d is None:
        return False
    if d.kind is NAME:
        g.answer(label)
        return True
    if free is not None:
        rng, plays, h = free
        i = d.options.index(plays[h]) if plays.get(h) in d.options else None
        if i is None:
            i = rng.randrange(len(d.options))
            plays[h] = d.options[i]
        g.answer(i)
        return True
    i = _same_option(d.options, label, choice)
    if i is None:
        return False
    g.answer(i)
    return True


def _places(m):
    """Where each card is (deck index -> a player's hand or stash, an area,
    a global card list)."""
    index = deck_indexes(m)
    out = {}
    for q in m.players:
        for where, cards in (('hand', q.hand), ('stash', q.stash)):
            out.update((index[id(c)], (where, q.name)) for c in cards)
    for k, a in enumerate(areas(m)):
        out.update((index[id(c)], ('area', k)) for c in a.cards)
    for name, cards in card_lists(m):
        out.update((index[id(c)], ('list', name)) for c in cards if id(c) in index)
    return out


def _held(places, i):
    """Is card i (a deck index) in a player's hand or stash, by _places?"""
    return places.get(i, ('',))[0] in ('hand', 'stash')


def _related(diff):
    """The cards (deck indexes) that a first difference names, by name or by
    their rank's or suit's word in the first lines that differ and the line
    before them ("asks P0 for kings", "a book of four: Six", an answer
    "Sevens" that was not an option): a repair moves those first."""
    if diff is None:
        return frozenset()
    seen, want = diff
    if not isinstance(want, dict):          # an answer that was not an option
        texts = [str(want)]
    else:
        a, b = seen.get('log') or [], want.get('log') or []
        k = _first_difference(a, b)
        texts = [e.get('text') or '' for e in a[max(k - 1, 0):k + 1] + b[max(k - 1, 0):k + 1]]
        texts += [repr(v) for key, v in want.items() if key != 'log' and seen.get(key) != v]
        texts += [repr(v) for key, v in seen.items() if key != 'log' and want.get(key) != v]
    out = set()
    for t in texts:
        for name in _CARD_NAME.findall(t):
            out.add(DECK_INDEX[name])
        for word in _WORD.findall(_CARD_NAME.sub(' ', t)):
            out.update(_BY_WORD.get(_singular(word.lower()), ()))
    return frozenset(out)


def _shown_pairs(diff):
    """(Y, X) for each card the world's observation shows as Y where the
    seat's shows X, place by place, each Y once: in a list, what the two
    have in common is set aside and the rest paired in order (a card the
    seat took into its hand shifts the rest: the hand, the lines listing
    it), cards one for one and lines by the card names in them in order."""
    out, ys = [], set()

    def walk(a, b):
        if a == b:
            return
        if isinstance(a, dict) and isinstance(b, dict):
            for k, v in b.items():
                walk(a.get(k), v)
        elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            a, b = _apart(a, b), _apart(b, a)
            if len(a) == len(b) or not all(isinstance(v, str) for v in a + b):
                for u, v in zip(a, b):
                    walk(u, v)
        elif isinstance(a, str) and isinstance(b, str):
            xs, zs = _CARD_NAME.findall(a), _CARD_NAME.findall(b)
            if len(xs) == len(zs):
                for y, x in zip(xs, zs):
                    if y != x and y not in ys:
                        ys.add(y)
                        out.append((y, x))
    walk(*diff)
    return out


def _apart(a, b):
    """The items of list a that are not in b (as multisets), in a's order."""
    common = {}
    for v in b:
        common[repr(v)] = common.get(repr(v), 0) + 1
    out = []
    for v in a:
        k = repr(v)
        if common.get(k):
            common[k] -= 1
        else:
            out.append(v)
    return out


def _first_difference(a, b):
    """Where two logs first differ (the shorter one's length if one is the
    other's start)."""
    return next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _gathering(p, now, moved):
    """Where p's first difference needs a whole group of cards at once: a
    rank (or suit) the seat's first differing line names, or the real answer
    that was not an option ("Ben lays down a book of four: Nine": every nine
    in Ben's hand and the card he drew; "Sevens": a seven in the asker's
    hand), and the zone that must hold them (the cards of the players the
    line names, or of the player who could not answer, at the decision
    before the difference, now, and the cards moved since).  (the groups
    the line names, the zone), as deck indexes, or None."""
    if p.diff is None:
        return None
    seen, want = p.diff
    m = p.game.machine
    if not isinstance(want, dict):
        texts, wrong = [str(want)], frozenset()
        names = {m.pending.player.name} if m.pending is not None else set()
    else:
        a, b = seen.get('log') or [], want.get('log') or []
        k = _first_difference(a, b)
        if k >= len(b):
            return None
        texts = [b[k].get('text') or '']
        names = {q.name for q in m.players if q.name in texts[0]}
        wrong = frozenset().union(*_groups([e.get('text') or '' for e in a[k:k + 1]]))
    groups = _groups(texts)
    zone = {i for i, where in now.items() if where[0] == 'hand' and where[1] in names} | moved
    if not groups or not zone:
        return None
    return groups, frozenset(zone), wrong


def _groups(texts):
    """The cards of each rank or suit the texts name by its word."""
    words = (_singular(w.lower()) for t in texts for w in _WORD.findall(_CARD_NAME.sub(' ', t)))
    return [frozenset(_BY_WORD[w]) for w in words if w in _BY_WORD]


def _singular(word):
    return _BY_WORD_PLURAL.get(word, word)


def _closeness(seen, want):
    """How much of an observation agrees (the log: how long a prefix; the
    rest: how many of its leaves), so that the repairs' hill-climbing feels
    each card put right: a hand wrong in one card of five scores above one
    wrong in all (Cheat's pile taken up shows many once-hidden cards at once)."""
    n = 0
    for key, v in want.items():
        if key == 'log':
            log = seen.get('log', [])
            for a, b in zip(log, v):
                if a != b:
                    break
                n += 1
        else:
            n += _agreement(seen.get(key), v)
    return n


def _agreement(seen, want):
    """How many leaves of want seen has the same, place by place."""
    if seen == want:
        return _leaves(want)
    if isinstance(want, dict) and isinstance(seen, dict):
        return sum(_agreement(seen.get(k), v) for k, v in want.items())
    if isinstance(want, (list, tuple)) and isinstance(seen, (list, tuple)):
        return sum(_agreement(a, b) for a, b in zip(seen, want))
    return 0


def _leaves(x):
    if isinstance(x, dict):
        return sum(map(_leaves, x.values()))
    if isinstance(x, (list, tuple)):
        return sum(map(_leaves, x))
    return 1


_NAMES = list(DECK_INDEX)          # (in deck order: the dict was built so)
_CARD_NAME = re.compile('|'.join(map(re.escape, sorted(DECK_INDEX, key=len, reverse=True))))
_BY_WORD = {}           # a rank's or suit's word -> the cards that have it
for _i, _name in enumerate(_NAMES):
    for _w in _name.lower().split(' of '):
        _BY_WORD.setdefault(_w, []).append(_i)
_BY_WORD_PLURAL = {w + ('es' if w.endswith('x') else 's'): w for w in _BY_WORD
                   if not w.endswith('s')}      # (a suit's word is plural already)
_WORD = re.compile(r'[A-Za-z]+')
_CARD_FIELDS = ('rank', 'suit', 'last_played_by', 'born_rank', 'born_suit', 'name')


def _trade(m, a, b):
    """Cards a and b (deck indexes) of machine m trade places: each object
    takes the other's whole value, and the deck (and the constants naming
    cards) follow, so that index a still means card a."""
    deck = m.deck
    x, y = deck[a], deck[b]
    for field in _CARD_FIELDS:
        u, v = getattr(x, field), getattr(y, field)
        setattr(x, field, v)
        setattr(y, field, u)
    deck[a], deck[b] = y, x          # (the caller then resolves m.consts anew)


class _Swapped:
    """A game at a particle's last matched decision with some never-seen
    cards traded, and the particle's deal with the same cards traded in
    shuffle j's order (later shuffles are dealt anew)."""

    def __init__(self, deal, j, game, shuffled_at, moved=frozenset(), orders=None):
        self.deal = _Deal(deal.orders[:j + 1], deal.drawn[:j + 1], deal.plays)
        self.j, self.game, self.shuffled_at = j, game, shuffled_at
        self.moved = moved      # the cards traded so far
        self.orders = deal.orders if orders is None else orders    # the particle's, every shuffle

    def then(self, pairs, plays=None):
        """The game with pairs of cards traded, and with plays (position ->
        card name) as the cards those unseen plays played."""
        deal = self.deal.copy()
        order = deal.orders[self.j]
        g = self.game.fork()
        m = g.machine
        for a, b in pairs:
            x, y = order.index(a), order.index(b)
            order[x], order[y] = b, a
            _trade(m, a, b)
            window = _dealt_by(self.orders, self.j, (a, b), self.shuffled_at)
            deal.plays = _follow(deal.plays, a, b, window)
        deal.plays.update(plays or {})
        m.consts = m.image.consts_for(m.deck)
        if g.decision is not None and g.decision.kind == CARD:
            g.decision = g.decision._replace(options=tuple(c.name for c in m.pending.cards))
        elif g.decision is not None and g.decision.kind == SETS:
            m.pending = m.pending.relabelled()
            g.decision = g.decision._replace(options=tuple(m.pending.labels))
        return _Swapped(deal, self.j, g, self.shuffled_at, self.moved.union(*pairs), self.orders)


class _Dealt(Dealer):
    """A particle's dealer: its deal, through the belief (Belief._shuffle)."""

    def __init__(self, belief, deal):
        self.belief, self.deal = belief, deal

    def shuffle(self, machine, items):
        self.belief._shuffle(self.deal, machine, items)


def _deal_with(g, dealer):
    """Make g's shuffles go through dealer (a fork deals plainly)."""
    g.machine.dealer = dealer
