"""The bots' worlds are drawn as the seat's information says: checked
against an exact count, on two games small enough to count.

A thinking bot plays in the worlds its Belief hands it (pipvm/play/bots.py),
and the belief promises worlds spread uniformly over the deals consistent
with what the seat observed: fresh deals are uniform and rejected when they
disagree, and every other particle is moved on by Metropolis steps whose
stationary distribution is that uniform one (docs/metrics.md, step 4).
Nothing here calls the belief's code to find the answer: every deal of
the small game (and, at each card played out of the seat's sight, every
card the player could play) is replayed by a dealer of this file and kept if it shows the seat
exactly the views the real game showed it, and a card's chance to be in a
hand is the share of the kept worlds that put it there.  Then many beliefs (one per
generator seed) follow the same real game as a bot's would, and at each of
the seat's decisions their worlds' average share for each card and hand
must agree with the count (the beliefs are independent, so their mean is
tested against its own spread; a pool's worlds are not, being copies).

tests/test_determinization.py checks game.determinize's draws the same way
on smaller games; the generated games of tests/fuzz/test_views.py check
that every world keeps what the seat saw, not how the rest is spread.
"""
import collections
import itertools
import random
import statistics
from types import SimpleNamespace

import pytest

from compiler.codegen import generator as codegen
from compiler.pip import frontend
from pipvm.engine.vm import Dealer
from pipvm.game.belief import Belief
from pipvm.game.game import Game
from pipvm.game.view import view

from .fuzz.harness import NotingDealer

# Tricks of three, follow suit if you can, so that a player who shows out
# tells where the rest of the suit is.
TRICKS = """Suit led.
Boolean must_follow.
Rule follows(p, c, cl) = not must_follow or c->suit == led.
Rule any(p, c, cl) = True.
Action trick {
  for p in players {
    if trick->cards->size == 0 {
      must_follow = False.
      play follows from p to trick.
      let first be trick->cards->top.
      led = first->suit.
    } else {
      must_follow = led in p->hand.
      play follows from p to trick.
    }
  }
  deal all from trick to done.
  rotate players.
}
"""
# Three suits of four, three hands of three, three cards left in the stock.
THREE_SUITS = """Game "Three Suits" requires 3 players.
Deck stock = [A~S; 2~S; 3~S; 4~S; A~H; 2~H; 3~H; 4~H; A~C; 2~C; 3~C; 4~C].
Area trick labeled "Trick" is faceup, spreadout.
Area done labeled "Done" is facedown, squaredup.
Area kitty labeled "Kitty" is facedown, squaredup.
""" + TRICKS + """Action main {
  shuffle stock.
  deal 3 from stock to players.
  let left be 3.
  forever {
    if left == 0 { skip to over. }
    trick().
    left -= 1.
  }
  label over.
}
"""
# The same with every card dealt, four each, the hands in order, and each
# player's first play a discard face down to the kitty: the seat does not
# see which card Bob and Cat put there, so a world chooses (an unseen
# play), and its choice must be spread as the count says too.
KITTY = THREE_SUITS.replace('Game "Three Suits"', 'Game "Kitty"').replace(
    'Action main {', 'Ordering by_suit(cards) = A..4~S,H,C.\nAction main {').replace(
    '  deal 3 from stock to players.\n',
    '  deal 4 from stock to players.\n  for p in players { order p->hand by by_suit. }\n'
    '  for p in players { play any from p to kitty. }\n')
# Every card dealt, four each, four tricks: each card Bob or Cat plays face up
# kills the worlds that put it elsewhere, and the belief mends them
# (Repairs.forward) instead of dealing anew; the mended worlds must be
# spread as the count says too.
FOUR_TRICKS = THREE_SUITS.replace('Game "Three Suits"', 'Game "Four Tricks"').replace(
    'deal 3 from stock to players.', 'deal 4 from stock to players.').replace(
    'let left be 3.', 'let left be 4.')
NAMES = ['Ann', 'Bob', 'Cat']
PLACES = ('Bob', 'Cat', 'kitty')
BELIEFS = 200       # independent beliefs, each a bot's pool of POOL worlds
POOL = 20
Z = 4.0             # how far (in standard errors) a mean may lie from the count


class Placed(Dealer):
    """Deals the given order (deck indexes) whatever the draws."""

    def __init__(self, order):
        self.order = order

    def shuffle(self, machine, items):
        super().shuffle(machine, items)
        items[:] = [machine.deck[i] for i in self.order]


def new_game(image, seed, dealer=None):
    return Game(image, seed=seed, players=3, names=NAMES,
                **({} if dealer is None else {'dealer': dealer}))


def held(game):
    """{(card, place)} for the cards in Bob's hand, Cat's and the kitty."""
    m = game.machine
    lists = {p.name: p.hand for p in m.players}
    lists['kitty'] = m.globals[m.program.global_names.index('kitty')].cards
    return {(str(c), place) for place in PLACES for c in lists[place]}


def real_game(image, seed):
    """A game played at random (seed), as seen from Ann: the labels of its
    answers, her views after each, the positions of her decisions with a
    choice and of the answers that played a card she did not see, the
    shuffle's order (deck indexes) and who was dealt each card."""
    dealer, rng = NotingDealer(), random.Random(seed)
    g = new_game(image, seed, dealer)
    names = [str(c) for c in g.machine.deck]
    holder = {names.index(str(c)): p.name for p in g.machine.players for c in p.hand}
    real = SimpleNamespace(labels=[], views=[view(g, 0)], decisions=[], unseen=set(),
                           drawn=dealer.orders[0], holder=holder, names=names)
    while g.decision is not None:
        if g.decision.seat == 0 and len(g.decision.options) > 1:
            real.decisions.append(len(real.labels))
        a = rng.randrange(len(g.decision.options))
        real.labels.append(g.decision.options[a])
        shown = len(g.events)
        g.answer(a)
        if any(e.kind == 'played' and e.seen_by(0).card is None for e in g.events[shown:]):
            real.unseen.add(len(real.labels) - 1)
        real.views.append(view(g, 0))
    return real


def counted(image, seed, real, upto):
    """{(card, place): share of the worlds consistent with Ann's views at
    positions 0..upto that put card there}, and how many there are.  A
    world is a deal and, at each play Ann did not see, the card played.
    One deal per way of sharing out the cards Ann never held (each stands
    for the same number of orders within the hands and the stock, which
    she cannot tell apart); every card the player holds at each unseen
    play (each is as likely: the hands are all of one size there)."""
    labels, views, drawn, holder = real.labels, real.views, real.drawn, real.holder
    spots = {n: [k for k, i in enumerate(drawn) if holder.get(i, 'stock') == n]
             for n in ('Bob', 'Cat', 'stock')}
    never = sorted(i for i in drawn if holder.get(i) != 'Ann')
    counts = collections.Counter({(real.names[i], p): 0 for i in never for p in PLACES})
    worlds = []

    def walk(w, k):
        if k == upto:
            worlds.append(w)
            return
        options = w.decision.options
        tried = options if k in real.unseen else [labels[k]] if labels[k] in options else []
        for label in tried:
            g = w.fork() if len(tried) > 1 else w
            g.answer(options.index(label))
            if view(g, 0) == views[k + 1]:
                walk(g, k + 1)

    for bob in itertools.combinations(never, len(spots['Bob'])):
        rest = [i for i in never if i not in bob]
        for cat in itertools.combinations(rest, len(spots['Cat'])):
            order, stock = list(drawn), [i for i in rest if i not in cat]
            for n, cards in (('Bob', bob), ('Cat', cat), ('stock', stock)):
                for k, i in zip(spots[n], cards):
                    order[k] = i
            w = new_game(image, seed, Placed(order))
            if view(w, 0) == views[0]:
                walk(w, 0)
    for w in worlds:
        counts.update(held(w))
    return {key: n / len(worlds) for key, n in counts.items()}, len(worlds)


MENDED = collections.Counter()      # Repairs.forward's results: True, a particle mended
TRADED = collections.Counter()      # Repairs.forward_trade's trades, by how many cards it drew from


def believed(image, seed, real, belief_seed, fresh):
    """At each of Ann's decisions: {(card, place): share of her belief's
    worlds that put card there}, the belief carried through the real game
    as a bot carries it (MENDED counts its particles mended)."""
    g = new_game(image, seed)
    belief = Belief(0, POOL, random.Random(belief_seed), **fresh)
    forward = belief.forward

    def mend(p, end):
        mended = forward(p, end)
        MENDED[mended] += 1
        return mended

    belief.forward = mend
    trade = belief.forward_trade

    def traded(q, seen=None):
        step = trade(q, seen)
        if step is not None and step[1] is not None:
            TRADED[min(2, len(unseen_in_hand(belief, q, seen)))] += 1
        return step

    belief.forward_trade = traded
    out = {}
    for k, label in enumerate(real.labels):
        if k in real.decisions:
            worlds = belief.worlds(g, POOL)
            assert worlds, ('no world', belief_seed, k)
            at = collections.Counter()
            for w in worlds:
                assert view(w, 0, log=False) == view(g, 0, log=False)
                at.update(held(w))
            out[k] = collections.defaultdict(float, {key: n / len(worlds) for key, n in at.items()})
        g.answer(g.decision.options.index(label))
    return out


def unseen_in_hand(belief, q, seen):
    """The cards forward_trade draws from at q: those of the player's hand
    the seat has not seen (as Repairs.forward_trade lists them)."""
    from pipvm.game.determinize import deck_indexes
    j = belief.last_shuffle(q.deal.orders, q.matched - 1, None)
    seen = belief.seen(j) if seen is None else seen
    index = deck_indexes(q.game.machine)
    return [index[id(c)] for c in q.game.machine.pending.player.hand
            if index[id(c)] in q.deal.orders[j] and index[id(c)] not in seen]


CASES = {   # game, seed, and how many worlds are consistent at each of Ann's decisions
    'three suits': (THREE_SUITS, 2, [1680, 12]),
    'kitty': (KITTY, 11, [70, 1120, 10]),
    'four tricks': (FOUR_TRICKS, 1, [70, 6]),
}
MENDS = {'four tricks'}     # the cases whose worlds must come partly from mending
# The cases where forward_trade trades a card played face up with one of
# its player's hand drawn at random (the seat cannot tell them apart), at
# least once a belief: Kitty's counts catch a biased draw there (the first
# such card instead: z = -11 at Ann's third decision).  Four Tricks mends by
# snapping alone: the card played goes where the real draws put it.
TRADES = {'kitty'}


@pytest.mark.parametrize('fresh', [{}, {'fresh': 1}], ids=['as bots draw', 'found by repairs'])
@pytest.mark.parametrize('case', sorted(CASES))
def test_the_bots_worlds_are_spread_as_the_count_of_consistent_worlds(case, fresh):
    """Three Suits, seed 2: at Ann's first decision every card she does not
    hold is in Bob's hand, Cat's or the stock with a chance of 1/3; by her
    second, 12 of the 1,680 deals are left and the chances are 1/3, 1/4,
    1/6 and 0.  Kitty: which card Bob and Cat laid face down.  Four
    Tricks: worlds mended where a card played face up killed them, at
    least one a belief.  'found by
    repairs': one fresh deal only when every particle has died, so the
    worlds come mostly from the repairs and their Metropolis steps."""
    source, seed, sizes = CASES[case]
    image = codegen.generate(frontend.check_text(source))
    real = real_game(image, seed)
    MENDED.clear()
    TRADED.clear()
    beliefs = [believed(image, seed, real, s, fresh) for s in range(BELIEFS)]
    if case in MENDS:
        assert MENDED[True] >= BELIEFS, MENDED
    if case in TRADES:
        assert TRADED[2] >= BELIEFS, TRADED
    for n, k in enumerate(real.decisions):
        exact, kept = counted(image, seed, real, k)
        assert kept == sizes[n]
        for key, p in sorted(exact.items()):
            xs = [b[k][key] for b in beliefs]
            mean, spread = statistics.mean(xs), statistics.pstdev(xs)
            if p in (0.0, 1.0) or spread == 0:  # a certainty: every world must keep it
                assert mean == p, (k, key, p, mean)
                continue
            z = (mean - p) / (spread / BELIEFS ** 0.5)
            assert abs(z) < Z, (k, key, p, round(mean, 4), round(z, 2))
