"""The replay: repairs that change which card the unseen plays played.

A card played where the seat could not see it is a free choice of each
world (Deal.plays).  When the seat later sees that card elsewhere (Cheat's
challenge turns it over), no trade of never-seen cards puts the world
right: these repairs make the unseen plays other cards and replay.
replay_named makes a play the card the seat saw named; replay_plays tries
other cards of the player's hand; shown pins every play whose card the
difference shows at once, bringing each card to its player (bring,
traded); relabel_plays solves every unseen play up to the difference at
once (flow, pipvm/game/relabel.py).  Each takes a particle and a history
position end, keeps a change only as its docstring says, and returns
True once the particle matches up to end: a world is as sound as a fresh
one."""
from pipvm.game import relabel
from pipvm.game.determinize import DECK_INDEX
from pipvm.game.kinds import CARD

from . import clues
from .trades import named_deals, traded_in
from .budgets import RELABEL, REPAIRS, SHOWN, SHOWN_DEPTH, SHOWN_REPLAYS
from .sight import give


class Replay:
    """Repairs of the unseen plays (a part of Belief: uses rng and the
    parts Particles, Sight, Clues)."""

    def replay_named(self, p, end, most=4, rounds=1):
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
            snapped, moved = self.snapped_deal(p.deal)
            bases = [(p.deal, None)] + ([(snapped, moved)] if moved is not None else [])
            better, where = None, clues.places(p.game.machine)
            for h, name in self.named_plays(p, 0)[::-1][:most]:
                # the card is in another hand in this world: one of that
                # player's unseen plays before h may have been it (it went
                # into a pile that reached h's player)
                holder = where.get(DECK_INDEX[name], ('',))
                also = [k for k in sorted(self.played_by, reverse=True)
                        if k < h and holder[0] == 'hand' and self.played_by[k] == holder[1]]
                for base, first in bases:
                    for deal, h0 in named_deals(base, h, name, also[:4]):
                        j = self.last_shuffle(deal.orders, h0)
                        q = self.restart(p, j if first is None else min(j, first), deal)
                        self.check(q, end)
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

    def replay_plays(self, p, end, plays=2, most=6):
        """The last unseen plays before p's first difference made other cards
        of the player's hand (at most most each), each replayed from before
        the shuffle that came before it; kept if the particle then matches
        further, True once it matches everywhere.  (Euchre: the dealer's
        discard, face down, was a card the world needs later: no trade of
        never-seen cards puts it back, the cards left unseen may be too few.)"""
        rng = self.rng
        for h in sorted((h for h in self.unseen_plays if h < p.matched), reverse=True)[:plays]:
            j = self.last_shuffle(p.deal.orders, h)
            pre = self.restart(p, j, p.deal.copy())
            if self.check(pre, h) != h + 1 or pre.game.decision is None:
                continue
            others = [o for o in pre.game.decision.options if o != p.deal.plays.get(h)]
            for label in rng.sample(others, min(most, len(others))):
                deal = p.deal.copy()
                deal.plays[h] = label
                q = self.restart(p, j, deal)
                self.check(q, end)
                if q.score > p.score:
                    p.take(q)
                    p.base = None
                    if p.matched == end + 1:
                        return True
                    break
        return False

    def shown(self, p, end, chains=SHOWN, depth=SHOWN_DEPTH):
        """Several unseen plays made the cards the seat was shown at once (a
        compound move; True once p matches everywhere).  Where p's first
        difference shows the seat card X in the place where p shows Y, and
        p played Y unseen before, that play is made X: every such pair of
        the difference together (Cheat: a pile taken up shows several cards
        laid face down by others, and one play put right alone changes
        nothing the seat sees).  The game is replayed with those plays
        pinned; where a pinned play's player does not hold its card there,
        the card is brought to it (bring: an earlier unseen play of its
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
                    options = self.bring(q, deal, pinned, was)
                    if not options:
                        break
                    # the first (the likeliest) half the time, else any
                    deal, pinned, first, was = \
                        options[0] if rng.random() < 0.5 else rng.choice(options)
                else:
                    pins = self.shown_pins(q, deal, pinned)
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
                q = self.restart(p, self.last_shuffle(deal.orders, lo), deal)
                self.check(q, end, pinned)
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

    def relabel_plays(self, p, end, rounds=RELABEL):
        """Every unseen play up to p's first difference made, at once, the
        card that lets each token the seat saw carry what it saw there
        (pipvm/game/relabel.py), the game replayed, and again from the new
        first difference while it gets further; True once p matches
        everywhere (kept only then, as any repair)."""
        q = p
        for _ in range(rounds):
            if q.diff is None:
                return False
            flow, required = self.flow(q)
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
                deal.plays[h] = clues.NAMES[chosen[i]]
            r = self.restart(q, 0, deal)
            self.check(r, end)
            if r.matched == end + 1:
                p.take(r)
                p.base = None
                return True
            if r.score <= q.score:
                return False
            q = r
        return False

    def flow(self, p):
        """(relabel.Flow of p's world up to its first difference, the
        identities the seat saw: {(position, token): identity}), p's game
        replayed from the start to get them; (None, None) if p's first
        difference is not one of cards shown."""
        d = p.matched
        pairs = {DECK_INDEX[y]: DECK_INDEX[x] for y, x in clues.shown_pairs(p.diff)}
        if not pairs:
            return None, None
        q = self.restart(p, 0, p.deal.copy())
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
            names = [DECK_INDEX[n] for n in clues.CARD_NAME.findall(repr(seen))]
            flow.named.append(names)
            for k in names:
                required[h, k] = pairs.get(k, k) if h == d else k
            if h == d:
                break
            if h < start:
                continue
            free = self.freed(q.deal.plays, h)
            player = None
            if free is not None and g.decision is not None and g.decision.kind is CARD:
                player = g.machine.pending.player
                hand = [index[id(c)] for c in player.hand]
            if not give(g, history[h], free):
                return None, None
            if player is not None:
                left = set(hand) - {index[id(c)] for c in player.hand}
                if len(left) == 1:
                    flow.plays.append((h, hand, left.pop()))
        return flow, required

    def shown_pins(self, q, deal, pinned):
        """The unseen plays of q before its first difference that played a
        card Y where the seat's observation shows X (clues.shown_pairs), made X:
        position -> card name, the latest play of each Y not pinned yet."""
        if q.diff is None or not isinstance(q.diff[1], dict):
            return {}
        pins = {}
        for y, x in clues.shown_pairs(q.diff):
            hs = [h for h, label in deal.plays.items()
                  if label == y and h < q.matched and h not in pinned and h not in pins]
            if hs and x not in pins.values():
                pins[max(hs)] = x
        return pins

    def bring(self, q, deal, pinned, was):
        """Ways to bring the card of the pinned play q stopped at (q.short)
        into its player's hand, likeliest first: (deal, pinned, the first
        position it changes, the cards the pinned plays played before)
        each.  Where the world has the card in another player's hand, one
        of that player's earlier unseen plays whose card
        is now in this player's hand is made it (the card takes the way that
        one took: Cheat, a card laid into a pile the player took up); where
        an earlier unseen play of the world laid it, that play lays the card
        the pin displaced instead; else the card trades places in the deal
        with a never-seen card the player holds (as Swapped: each takes
        the other's part in the game, the unpinned plays follow)."""
        h, name = q.short
        m = q.game.machine
        if m.pending is None:
            return []
        player = m.pending.player.name
        places = clues.places(m)
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
        seen = self.seen(len(deal.orders) - 1)
        mine = sorted(i for i, w in places.items() if w == ('hand', player) and i not in seen)
        for z in mine:
            traded = self.traded(deal, pinned, x, z, h)
            if traded is not None:
                out.append((*traded, was))
        return out

    def traded(self, deal, pinned, x, z, h):
        """deal with cards x and z (deck indexes) trading places in the last
        shuffle before history position h that dealt both (each takes the
        other's part from there on, the unpinned plays follow their cards),
        pinned, and the position to replay from; None if no shuffle did."""
        j = max((j for j, o in enumerate(deal.orders)
                 if self.shuffled_at.get(j, -1) < h and x in o and z in o), default=None)
        if j is None:
            return None
        traded = traded_in(deal, j, x, z, self.shuffled_at, pinned)
        return traded, pinned, self.shuffled_at.get(j, 0)
