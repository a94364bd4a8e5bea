"""The repairs: which search mends a dead particle, and the last resorts.

repair is the first line, for the dead particles that got furthest: the
unseen plays made the cards named, local moves, then the directed walk and
replayed moves.  The last resorts run only when no world is left (see
worlds.py): window brings a card the difference names into its player's
hand by one of that player's draws (Go Fish), void trades away at once
every card a player who showed out could have played (Spades); neither
leaves the particle further from matching than it was.  Each takes a
particle and a history position end and returns True once it matches up
to end."""
import itertools

from pipvm.game.determinize import DECK_INDEX, deck_indexes
from pipvm.game.kinds import CARD

from . import clues
from .trades import Swapped, traded_in
from .budgets import (CYCLED, FORWARD, FORWARD_TRADES, LOCAL, REPAIRS, VOID_ROUNDS, VOID_TRIES, WIDTH, WINDOW_REPLAYS,
                      WINDOW_WALK)


class Repairs:
    """The first-line repair and the last resorts (a part of Belief: uses
    rng, repairs, and the parts Particles, Sight, Clues, Walk)."""

    def repair(self, p, end, replays):
        """Moves until p matches everywhere, within about that many replays:
        the unseen plays made the cards the seat saw named, local moves if
        p matched at the last decision and no shuffle came since, then
        replayed ones."""
        if self.replay_named(p, end):
            return True
        if p.base is not None and p.base[2] == len(p.deal.orders) \
                and self.local(p, end, min(replays, LOCAL)):
            return True
        return self.directed(p, end, replays) or self.replayed(p, end, replays // WIDTH)

    def forward(self, p, end, trades=FORWARD_TRADES, replays=FORWARD):
        """A particle killed in the forward step by a card played face up
        that it holds elsewhere, mended instead of dropped (True once p
        matches everywhere; p unchanged otherwise).  The cards the seat has
        seen since go where the real draws put them (as a fresh deal has
        them: the card played among them), and while the player still lacks
        a card it played, that card trades places with a card of its hand
        that the seat has not seen (drawn at random: the seat cannot tell
        them apart).  Where no shuffle came since p last matched, the trades
        are made in the game as it was then and played on through the
        answers since (a step of the game each, at most trades), and only
        the deal that matches is replayed from its shuffle; else each trade
        is made in the deal and replayed (at most replays).  Every mended
        particle is replayed and checked against every observation, so it is
        exactly as sound as a fresh one.  Euchre: each card an opponent
        plays kills most particles, and redealing the hand cost about 55
        replays a decision."""
        if p.base is not None and p.base[2] == len(p.deal.orders) and p.base[2]:
            return self.forward_local(p, end, trades)
        q = p
        for _ in range(replays):
            step = self.forward_trade(q)
            deal, moved = self.snapped_deal(q.deal) if step is not None else (None, None)
            if step is None:
                return False
            step = (moved, deal) if moved is not None else step[:2]    # the seen cards first
            r = self.restart(q, *step)
            self.check(r, end)
            if r.matched == end + 1:
                p.take(r)
                p.base = None
                return True
            if r.score > q.score:
                q = r
        return False

    def forward_local(self, p, end, trades):
        """forward's trades in the game at p's last decision matched (p.base)."""
        base, shown, shuffles = p.base
        j = shuffles - 1
        seen, before = self.seen(j), self.seen_before(j)
        order = list(p.deal.orders[j])
        drawn = p.deal.drawn[j] if j < len(p.deal.drawn) else order
        snaps = []
        for k, i in enumerate(drawn):       # the cards seen since, where the real draws put them
            if i in seen and i not in before and order[k] != i and order[k] not in before:
                snaps.append((i, order[k]))
                x = order.index(i)
                order[x], order[k] = order[k], i
        work = Swapped(p.deal, j, base, self.shuffled_at)
        pairs = snaps
        for k in range(trades):
            # (the first trades in a fork of p's base; the next in the game the
            # last made, which only q's fork of it played on)
            work = work.then(pairs, fork=not k)
            q = self.particle(work.game.fork(), work.deal, p, shown)
            if self.check(q, end) == end + 1:
                r = self.restart(p, j, work.deal.copy())
                if self.check(r, end) != end + 1:
                    return False
                p.take(r)
                p.base = None
                return True
            step = self.forward_trade(q, before)
            if step is None or step[1] is None:
                return False
            pairs = [step[2:]]
        return False

    def forward_trade(self, q, seen=None):
        """Where q stopped at a card played face up that its player does not
        hold: (shuffle, deal with that card X traded into the hand, X, the
        card Y it traded with), or None if q stopped otherwise or no card of
        the hand may trade (the player holds only cards the seat has seen
        since: forward snaps them).  Y is one the seat has not seen (seen:
        the cards seen since the shuffle, by default as of this decision)."""
        if q.score[1] != -1 or q.diff is None or q.diff[0] is None:
            return None
        h = q.matched - 1
        if h in self.unseen_plays or q.game.machine.pending is None:
            return None
        j = self.last_shuffle(q.deal.orders, h, None)
        x = DECK_INDEX.get(self.history[h][1])
        if j is None or x not in q.deal.orders[j]:
            return None
        m, order = q.game.machine, q.deal.orders[j]
        seen = self.seen(j) if seen is None else seen
        index = deck_indexes(m)
        ys = [index[id(c)] for c in m.pending.player.hand]
        ys = [y for y in ys if y in order and y not in seen]
        if not ys:
            return (j, None, None, None) if self.snapped_deal(q.deal)[1] is not None else None
        drawn = q.deal.drawn[j] if j < len(q.deal.drawn) else order
        y = order[drawn.index(x)] if x in drawn else None
        if y not in ys:
            y = self.rng.choice(ys)
        return j, traded_in(q.deal, j, x, y, self.shuffled_at), x, y

    def void(self, p, end, rounds=VOID_ROUNDS, tries=VOID_TRIES):
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
        q = self.snapped(p, end) or p
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
            j = self.last_shuffle(q.deal.orders, h, default=None)
            if j is None or label not in {str(c) for c in m.pending.player.hand}:
                return False
            order, seen = q.deal.orders[j], self.seen(j)
            blockers = [index[id(c)] for c in m.pending.cards if str(c) != label]
            partners = [i for i in order if i not in seen and i not in hand]
            if not blockers or len(partners) < len(blockers) \
                    or any(b not in order or b in seen for b in blockers):
                return False
            best = None
            for _ in range(tries):
                deal = q.deal
                for x, z in zip(blockers, self.rng.sample(partners, len(blockers))):
                    deal = traded_in(deal, j, x, z, self.shuffled_at)
                r = self.restart(q, j, deal)
                self.check(r, end)
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

    def window(self, p, end):
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
        none): X comes where Z came, Z goes where X was (window_trades).
        Each such trade alone first; then, for the first few, Z sent on to
        the place of a third never-seen card W which goes where X was (Z
        where X was is often asked for there: Ben drew the seven in the
        world, and the four he draws instead is asked for later); then each
        trade with a short walk from its own first difference, X kept where
        it went (an ejection chain, as chained).  The first that gets
        further is kept and the same is done at its new first difference
        (a chain, while it gets further); the particle stays the nearest
        miss otherwise, handed out only if it matches everywhere.  Cards
        the seat has seen since p was dealt go where the real draws put
        them first, whatever that does to p's score (Go Fish: the card the
        seat drew, which no world has elsewhere); p stays as it was unless
        that chain gets further."""
        q = self.snapped(p, end)
        if q is None:
            return self.window_chain(p, end)
        found = self.window_chain(q, end)
        if found or q.score > p.score:
            p.take(q)
            p.base = None
        return found

    def window_chain(self, p, end):
        """window's chain from p as it is."""
        replays = WINDOW_REPLAYS * self.repairs // REPAIRS
        while replays > 0:
            if p.matched == end + 1:
                return True
            trades, hidden = self.window_trades(p)
            replays -= 1
            cycles = ((j, traded_in(deal, j, z, w, self.shuffled_at), x, 0)
                      for j, deal, x, z, _ in trades[:CYCLED]
                      for w in sorted(hidden - {x, z}))
            walks = ((j, deal, x, WINDOW_WALK) for j, deal, x, _, _ in trades)
            plain = ((j, deal, x, 0) for j, deal, x, _, _ in trades)
            for j, deal, x, walk in itertools.chain(plain, cycles, walks):
                if replays <= 0:
                    return False
                q = self.restart(p, j, deal)
                self.check(q, end)
                replays -= 1 + walk
                if q.score <= p.score and walk:
                    self.walk(q, end, walk, fixed=frozenset({x}))
                if q.score > p.score:
                    p.take(q)
                    p.base = None
                    break
            else:
                return False
        return False

    def window_trades(self, p):
        """The trades window tries at p's first difference, in order, as
        (shuffle, deal, X, Z, position Z was drawn at): X a never-seen card
        the difference names (clues.related) not in the hand of a player it
        concerns (concerned) where the world stopped, in no hand first
        (the stock: nothing seen moves with it); Z a never-seen card it does
        not name that this player drew (took from no one's hand: the stock,
        the deal) since the last shuffle before there, the latest drawn
        first, wherever it went since (the game is replayed from that
        shuffle to see who drew what when); then X a named card of the
        player's hand traded with an unnamed one in no hand (the stock).
        And the never-seen cards of that shuffle that it does not name."""
        stop = p.matched - 1                # the decision whose answer differs
        names = self.concerned(p)
        j = self.last_shuffle(p.deal.orders, stop, None)
        if j is None or not names or stop < 0:
            return [], set()
        seen = self.seen(j)
        hidden = {i for i in p.deal.orders[j] if i not in seen}
        named = {i for i in clues.related(p.diff) if i in hidden}
        if not named:
            return [], set()
        q = self.restart(p, j, p.deal.copy())
        drawn, was = [], clues.places(q.game.machine)     # (position, player, card)
        k = len(q.game.history)
        while k < stop and self.check(q, k + 1) == k + 2:
            k += 1
            now = clues.places(q.game.machine)
            drawn += [(k, where[1], i) for i, where in now.items()
                      if where[0] == 'hand' and where[1] in names
                      and not clues.held(was, i)]
            was = now
        out = []
        for h, name, z in sorted(drawn, reverse=True):
            if z in hidden and z not in named:
                into = sorted((x for x in named if was.get(x) != ('hand', name)),
                              key=lambda x: (clues.held(was, x), x))
                out += [(j, traded_in(p.deal, j, x, z, self.shuffled_at), x, z, h) for x in into]
        # and the other way: a named card of the player's hand sent to the
        # stock, a card still there taking its place ("Ben hands over 2."
        # where the world's Ben had three)
        hands = {('hand', n) for n in names}
        held = [x for x in sorted(named) if was.get(x) in hands]
        rest = [w for w in sorted(hidden - named) if not clues.held(was, w)]
        out += [(j, traded_in(p.deal, j, x, w, self.shuffled_at), x, w, -1)
                for x in held for w in rest]
        return out, hidden - named
