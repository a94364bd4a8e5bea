"""The bots' worlds are drawn as the seat's information says: checked
against an exact count, on a game small enough to count.

A thinking bot plays in the worlds its Belief hands it (pipvm/play/bots.py),
and belief.py promises worlds spread uniformly over the deals consistent
with what the seat observed: fresh deals are uniform and rejected when they
disagree, and every other particle is moved on by Metropolis steps whose
stationary distribution is that uniform one (its docstring).  Nothing here
calls belief.py to find the answer: every deal of the small game is
replayed by a dealer of this file and kept if it shows the seat exactly
the views the real game showed it, and a card's chance to be in a hand is
the share of the kept deals that put it there.  Then many beliefs (one per
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

import pytest

from compiler import codegen, frontend
from pipvm.engine.vm import Dealer
from pipvm.game.belief import Belief
from pipvm.game.game import Game
from pipvm.game.view import view

# Three suits of four, three hands of three, three cards left in the stock;
# follow suit if you can, so that a player who shows out tells where the
# rest of the suit is.
THREE_SUITS = '''Game "Three Suits" requires 3 players.
Deck stock = [A~S; 2~S; 3~S; 4~S; A~H; 2~H; 3~H; 4~H; A~C; 2~C; 3~C; 4~C].
Area trick labeled "Trick" is faceup, spreadout.
Area done labeled "Done" is facedown, squaredup.
Suit led.
Boolean must_follow.
Rule follows(p, c, cl) = not must_follow or c->suit == led.
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
Action main {
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
'''
NAMES = ['Ann', 'Bob', 'Cat']
OTHERS = ('Bob', 'Cat')
IMAGE = codegen.generate(frontend.check_text(THREE_SUITS))
BELIEFS = 200       # independent beliefs, each a bot's pool of POOL worlds
POOL = 20
Z = 4.0             # how far (in standard errors) a mean may lie from the count


class Noted(Dealer):
    """The plain dealer, noting the shuffle's order (deck indexes)."""

    def shuffle(self, machine, items):
        super().shuffle(machine, items)
        self.order = [machine.deck.index(c) for c in items]


class Placed(Dealer):
    """Deals the given order (deck indexes) whatever the draws."""

    def __init__(self, order):
        self.order = order

    def shuffle(self, machine, items):
        super().shuffle(machine, items)
        items[:] = [machine.deck[i] for i in self.order]


def new_game(seed, dealer=None):
    return Game(IMAGE, seed=seed, players=3, names=NAMES,
                **({} if dealer is None else {'dealer': dealer}))


def hand(game, name):
    return next(p for p in game.machine.players if p.name == name).hand


def real_game(seed):
    """The answers of a game played at random (seed), Ann's views after
    each, and the positions of her decisions with a choice."""
    g, rng = new_game(seed), random.Random(seed)
    answers, views, decisions = [], [view(g, 0)], []
    while g.decision is not None:
        if g.decision.seat == 0 and len(g.decision.options) > 1:
            decisions.append(len(answers))
        answers.append(rng.randrange(len(g.decision.options)))
        g.answer(answers[-1])
        views.append(view(g, 0))
    return answers, views, decisions


def counted(seed, answers, views, upto):
    """{(card, hand): share of the deals consistent with Ann's views at
    positions 0..upto that put card in that hand}.  One deal per way of
    sharing out the cards Ann never held (each stands for the same number
    of orders within the hands and the stock, which she cannot tell apart)."""
    noted = Noted()
    real = new_game(seed, noted)
    labels = []
    for a in answers[:upto]:
        labels.append(real.decision.options[a])
        real.answer(a)
    drawn, names = noted.order, [str(c) for c in real.machine.deck]
    first = new_game(seed)
    holder = {names.index(str(c)): n for n in NAMES for c in hand(first, n)}
    spots = {n: [k for k, i in enumerate(drawn) if holder.get(i, 'stock') == n]
             for n in OTHERS + ('stock',)}
    unseen = sorted(i for i in drawn if holder.get(i) != 'Ann')
    counts = collections.Counter({(names[i], n): 0 for i in unseen for n in OTHERS})
    kept = 0
    for bob in itertools.combinations(unseen, len(spots['Bob'])):
        rest = [i for i in unseen if i not in bob]
        for cat in itertools.combinations(rest, len(spots['Cat'])):
            order = list(drawn)
            for n, cards in (('Bob', bob), ('Cat', cat), ('stock', [i for i in rest if i not in cat])):
                for k, i in zip(spots[n], cards):
                    order[k] = i
            w = new_game(seed, Placed(order))
            same = view(w, 0) == views[0]
            for k, label in enumerate(labels):
                if not same or label not in w.decision.options:
                    same = False
                    break
                w.answer(w.decision.options.index(label))
                same = view(w, 0) == views[k + 1]
            if same:
                kept += 1
                for n in OTHERS:
                    for c in hand(w, n):
                        counts[(str(c), n)] += 1
    return {key: n / kept for key, n in counts.items()}, kept


def believed(seed, answers, decisions, belief_seed, fresh):
    """At each of Ann's decisions: {(card, hand): share of her belief's
    worlds that put card in that hand}, the belief carried through the real
    game as a bot carries it."""
    g = new_game(seed)
    belief = Belief(0, POOL, random.Random(belief_seed), **fresh)
    out = {}
    for k, a in enumerate(answers):
        if k in decisions:
            worlds = belief.worlds(g, POOL)
            assert worlds, ('no world', belief_seed, k)
            for w in worlds:
                assert view(w, 0, log=False) == view(g, 0, log=False)
            held = collections.Counter()
            for w in worlds:
                for n in OTHERS:
                    for c in hand(w, n):
                        held[(str(c), n)] += 1
            out[k] = collections.defaultdict(float, {key: m / len(worlds) for key, m in held.items()})
        g.answer(a)
    return out


@pytest.mark.parametrize('fresh', [{}, {'fresh': 1}], ids=['as bots draw', 'found by repairs'])
def test_the_bots_worlds_are_spread_as_the_count_of_consistent_deals(fresh):
    """Seed 2: at Ann's first decision every card she does not hold is in
    Bob's hand, Cat's or the stock with a chance of 1/3; by her second, 12
    of the 1,680 deals are left and the chances are 1/3, 1/4, 1/6 and 0.
    'found by repairs': one fresh deal only when every particle has died,
    so the worlds come mostly from the repairs and their Metropolis steps
    (about 600 repairs over the beliefs)."""
    answers, views, decisions = real_game(2)
    assert len(decisions) == 2
    beliefs = [believed(2, answers, decisions, s, fresh) for s in range(BELIEFS)]
    for k in decisions:
        exact, kept = counted(2, answers, views, k)
        assert kept == (1680 if k == decisions[0] else 12)
        for key, p in sorted(exact.items()):
            xs = [b[k][key] for b in beliefs]
            mean, spread = statistics.mean(xs), statistics.pstdev(xs)
            if p in (0.0, 1.0):     # a certainty: every world must keep it
                assert mean == p, (k, key, mean)
                continue
            z = (mean - p) / (spread / BELIEFS ** 0.5)
            assert abs(z) < Z, (k, key, p, round(mean, 4), round(z, 2))
