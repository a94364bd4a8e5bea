"""The walk: hill-climbing and Metropolis moves over a particle's deal.

A move trades two never-seen cards in one shuffle's deal and replays from
before that shuffle (move: kept if it matches everywhere, a Metropolis
step, or at least as far, a repair's; nudge: tried first in the game at
the last decision, where it is cheap to refuse).  local climbs in the game
as it was at the last decision matched; replayed climbs by replays
(proposal); directed and walk trade at the first difference itself, a
step of the game per trade, and replay from the shuffle only a trade that
gets past it (min-conflicts repair; chained walks on from a trade the
replay undid; gather moves a whole rank at once).  snapped puts every card
the seat has seen where the real draws put it.

Each search takes a particle p and a history position end and returns
True once p matches up to end; p changes only to a particle that scores
at least as well, but where the cards seen are put in place first (snap,
replayed, directed: whatever that does to the score).  proposal, gather
and zone_trade only propose.  Every draw comes from the belief's rng, in
an order tools/pin_beliefs.py pins."""
from pipvm.game.determinize import DECK_INDEX

from . import clues
from .trades import Swapped
from .budgets import CHAINED, NAMED, TRADES, WIDTH, ZONE


class Walk:
    """The walks (a part of Belief: uses rng and the parts Particles,
    Sight, Clues)."""

    def move(self, p, end, metropolis):
        """Two never-seen cards of one shuffle's deal trade places; the game is
        replayed from before that shuffle.  Kept if it matches everywhere
        (metropolis) or at least as well as before (a repair).  True if kept."""
        orders = p.deal.orders
        if not orders:
            return False
        rng = self.rng
        # the last shuffle before the first difference: the deal it made decides it
        limit = p.matched if not metropolis else end + 1
        j = self.last_shuffle(orders, limit)
        if rng.random() < 0.25:
            j = rng.randrange(j + 1)
        deal = p.deal.copy()
        order, seen = deal.orders[j], self.seen(j)
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
        q = self.restart(p, j, deal)
        self.check(q, end)
        if (q.matched == end + 1) if metropolis else (q.score >= p.score):
            p.take(q)
            return True
        return False

    def nudge(self, p, end):
        """A Metropolis step: two cards the seat has not seen trade places,
        kept only if every observation still holds.  Tried first in the game
        at the last decision (cheap to refuse), then replayed."""
        if p.base is None or p.base[2] != len(p.deal.orders):
            self.move(p, end, metropolis=True)
            return
        base, shown, shuffles = p.base
        if not shuffles:            # dealt without a shuffle: no cards to trade
            return
        j = shuffles - 1
        seen = self.seen(j)
        movable = [i for i in p.deal.orders[j] if i not in seen]
        if len(movable) < 2:
            return
        swapped = Swapped(p.deal, j, base, self.shuffled_at)
        trial = swapped.then([tuple(self.rng.sample(movable, 2))])
        q = self.particle(trial.game.fork(), trial.deal, p, shown)
        if self.check(q, end) == end + 1:
            q = self.restart(p, j, trial.deal.copy())
            if self.check(q, end) == end + 1:
                q.base = p.base
                p.take(q)

    def directed(self, p, end, replays):
        """Repair at the first difference itself.  The game is replayed to the
        decision before it, and there never-seen cards trade places, one of
        each pair a card of a player the difference concerns (involved: the
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
        if self.replay_named(p, end, rounds=NAMED) or self.replay_plays(p, end):
            return True
        q = self.snapped(p, end)
        if q is not None and q.score >= p.score:
            p.take(q)
        elif q is not None:
            if self.walk(p, end, replays // 2):
                return True
            p.take(q)
            replays //= 2
        return self.walk(p, end, replays)

    def walk(self, p, end, replays, still_share=0.0, fixed=frozenset(), chain=0, gathers=0.0):
        """directed's walk from p as it is; still_share: the share of its
        trades between cards still where the deal put them; fixed: cards it
        does not move (a chain's); chain: how deep a trade the replay undid
        is carried on (chained); gathers: the share of its proposals that
        move a whole group of cards the difference names at once (gather)."""
        rng = self.rng
        trades = TRADES * replays
        while True:
            if p.matched == end + 1:
                return True
            # the decision before the first difference (an answer that was
            # not an option: before the decision that lacked it)
            at = p.matched - 1 - (p.score[1] == -1)
            j = self.last_shuffle(p.deal.orders, at, None)
            if at < 0 or j is None or replays <= 0:
                return False
            pre = self.restart(p, j, p.deal.copy())
            replays -= 1
            if still_share:
                # where each card was at the first decision after the shuffle
                # (checking up to there first plays the same game as at once)
                first = min(self.shuffled_at.get(j, -1) + 1, at)
                if self.check(pre, first) != first + 1:
                    return False
                places = clues.places(pre.game.machine)
            if self.check(pre, at) != at + 1:
                return False
            seen = self.seen(j)
            hidden = [i for i in p.deal.orders[j] if i not in seen and i not in fixed]
            if len(hidden) < 2:
                return False
            base = work = Swapped(pre.deal, j, pre.game, self.shuffled_at)
            near, score = self.involved(p), p.score
            # a card played unseen before the difference, and a card the seat's
            # observation names there (Cheat's challenge turns it over): the
            # two trading places makes that play have been this card
            named = [(h, DECK_INDEX[n]) for h, n in self.named_plays(p, 0)[::-1][:8]
                     if DECK_INDEX[n] in hidden]
            # the never-seen cards still where they were then: trading two of
            # them in the deal changes the past only through what the seat saw
            # of their places, not through moves made since (the likeliest to
            # survive the replay)
            related, now = clues.related(p.diff), clues.places(pre.game.machine)
            still = [i for i in hidden if now.get(i) == places.get(i)] if still_share else []
            # the hands the difference concerns and the cards that moved in
            # the step that made it (Go Fish: the card drawn from the stock)
            moved = {i for i, where in clues.places(p.game.machine).items() if now.get(i) != where}
            zone = near | moved
            gather = clues.gathering(p, now, moved) if gathers else None
            while True:
                if trades <= 0 or replays <= 0:
                    return False
                trades -= 1
                played = pairs = None
                if gather is not None and rng.random() < gathers:
                    pairs = self.gather(gather, hidden, moved)
                    if not pairs:
                        continue
                    a = b = None
                elif named and rng.random() < 0.3:
                    h, a = rng.choice(named)
                    played = DECK_INDEX.get(work.deal.plays.get(h))
                if pairs or played in hidden:   # a gathering: a = b = None, its pairs traded below
                    b = played
                elif len(still) >= 2 and rng.random() < still_share:
                    a, b = self.zone_trade(still, zone, related)
                elif related and rng.random() < ZONE:
                    a, b = self.zone_trade(hidden, zone, related)
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
                q = self.particle(trial.game, trial.deal, pre, pre.obs.shown)
                self.check(q, end)
                if q.score > p.score:
                    q = self.restart(p, j, trial.deal.copy())
                    replays -= 1
                    self.check(q, end)
                    if q.score <= p.score and chain:
                        replays -= CHAINED
                        self.chained(q, end, trial.moved, chain - 1, still_share, gathers)
                    if q.score > p.score:
                        p.take(q)
                        p.base = None
                        break
                    work, score, near = base, p.score, self.involved(p)
                    related = clues.related(p.diff)
                elif q.score >= score:
                    work, score, near = trial, q.score, self.involved(q)
                    related = clues.related(q.diff)

    def chained(self, q, end, moved, chain, still_share, gathers):
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
        self.walk(q, end, CHAINED, still_share, frozenset(moved), chain, gathers)

    def gather(self, gather, hidden, moved):
        """Pairs to trade that bring never-seen cards of the group into the
        zone (clues.gathering), each with a card of the zone outside the group,
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

    def zone_trade(self, cards, zone, related):
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

    def local(self, p, end, steps):
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
        seen, now = self.seen_before(j), self.seen(j)
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
        work = Swapped(p.deal, j, base, self.shuffled_at)        # the swaps kept so far
        named = self.named_pairs(p, movable, snaps)
        replays = self.named_plays(p, len(base.history))
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
            q = self.particle(trial.game.fork(), trial.deal, p, shown)
            self.check(q, end)
            if q.score > best:
                named = self.named_pairs(q, movable, snaps)
                replays = self.named_plays(q, len(base.history))
            if q.matched == end + 1:
                q = self.restart(p, j, trial.deal.copy())
                if self.check(q, end) == end + 1:
                    p.take(q)
                    p.base = None          # (it was the old deal's)
                    return True
            elif q.score >= best:
                work, best = trial, q.score
        return False

    def replayed(self, p, end, steps, width=WIDTH):
        """Replayed moves until p matches everywhere; False if that many
        steps did not do.  Each step tries width moves from p and keeps the
        best if it matches at least as far as p (hill-climbing, sideways
        allowed).  Most moves trade a card of a player the first difference
        concerns (involved) with a never-seen card elsewhere: where the
        seat heard "P2 hands over 1" and the world said "Go fish", the
        cure is a card of P2's or of the asker's."""
        self.snap(p, end)
        if p.matched == end + 1:
            return True
        near = self.involved(p)
        for _ in range(steps):
            best = None
            for _ in range(width):
                q = self.proposal(p, end, near)
                if q is None:
                    return False
                if q.matched == end + 1:
                    p.take(q)
                    return True
                if best is None or q.score > best.score:
                    best = q
            if best.score >= p.score:
                near = self.involved(best)
                p.take(best)
        return False

    def snap(self, p, end):
        """Every card the seat has seen put where the real shuffles' draws
        put it (as a fresh deal has it), whatever that does to p's score:
        no world that has a seen card elsewhere can match for long."""
        q = self.snapped(p, end)
        if q is not None:
            p.take(q)

    def snapped(self, p, end):
        """p with every card the seat has seen where the real draws put it,
        checked; None if they all are."""
        deal, moved = self.snapped_deal(p.deal)
        if moved is None:
            return None
        q = self.restart(p, moved, deal)
        self.check(q, end)
        return q

    def snapped_deal(self, deal):
        """A copy of deal with every card the seat has seen where the real
        draws put it, and the first shuffle that changed (None: none did)."""
        deal, moved = deal.copy(), None
        for j, order in enumerate(deal.orders):
            drawn = deal.drawn[j] if j < len(deal.drawn) else order
            seen = self.seen(j)
            for k, i in enumerate(drawn):
                if i in seen and order[k] != i:
                    x = order.index(i)
                    order[x], order[k] = order[k], i
                    moved = j if moved is None else min(moved, j)
        return deal, moved

    def proposal(self, p, end, near):
        """p with one replayed move (not kept), or None if nothing can move:
        a never-seen card of near traded with another, or any two traded."""
        orders = p.deal.orders
        if not orders:
            return None
        rng = self.rng
        j = self.last_shuffle(orders, p.matched)
        if rng.random() < 0.25:
            j = rng.randrange(j + 1)
        deal = p.deal.copy()
        order, seen = deal.orders[j], self.seen(j)
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
        q = self.restart(p, j, deal)
        self.check(q, end)
        return q
