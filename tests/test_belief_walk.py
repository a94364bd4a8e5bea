"""Belief.walk's set-up and budget by their contract, on a scripted game:
the walk starts at the decision before the first difference (before the
one that lacked the answer, where the answer was refused), from the last
shuffle before it; it gives up at once where there is none, where the
replay up to there does not match, or where fewer than two never-seen
cards (not held fixed) are left to trade; it proposes TRADES trades for
each replay it may spend, and no more; a card the seat's observation names
is traded onto one of the last eight unseen plays, the card that play laid
taking its place; cards still where the deal put them are traded among
themselves only when two or more are.

The pinned record (test_beliefs_pinned.py) sees only where the walks it
runs lead; these are the walk's edges, which no pinned case takes."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, clues, walk
from pipvm.game.belief.budgets import TRADES
from pipvm.game.belief.clues import NAMES as NAME
from pipvm.game.belief.particles import Deal, Particle

END = 40


class Script:
    def __init__(self, monkeypatch, order=range(52), seen=(), shuffled_at=None, reach=None,
                 named=(), plays=None, places=None, involved=frozenset()):
        self.b = b = Belief(0, 1, random.Random(1))
        b.pins = [frozenset(seen)]
        b.shuffled_at = {0: 2} if shuffled_at is None else shuffled_at
        self.order, self.reach = list(order), reach or (lambda k: True)
        self.named, self.plays = list(named), dict(plays or {})
        self.places = places or [{}, {}, {}]
        self.checks = []        # the positions the replay up to the walk's start was checked to
        self.trades = []        # the pairs each trial traded
        self.zoned = []         # the cards each zone trade was drawn from
        b.restart = self.restart
        b.check = self.check
        b.involved = lambda p: involved
        b.named_plays = self.named_plays
        b.particle = lambda game, deal, like, shown: Particle(game, deal, 0)
        b.zone_trade = self.zone_trade
        script = self

        class Swapped:
            def __init__(self, deal, j, game, shuffled_at):
                self.deal, self.game, self.moved = deal, game, frozenset()

            def then(self, pairs):
                script.trades.append(list(pairs))
                assert len(script.trades) < 10000, 'the walk never stops'
                return self

        monkeypatch.setattr(walk, 'Swapped', Swapped)
        monkeypatch.setattr(clues, 'related', lambda diff: set())
        calls = iter(self.places)
        monkeypatch.setattr(clues, 'places', lambda m: next(calls, {}))

    def particle(self, matched=21, refused=False):
        p = Particle(SimpleNamespace(machine=None), Deal([self.order], plays=self.plays), matched)
        p.score = (matched, -1 if refused else 0)
        return p

    def restart(self, p, j, deal):
        q = Particle(SimpleNamespace(machine=None), deal, 0)
        q.obs = SimpleNamespace(shown=None)
        return q

    def check(self, q, k, pinned=()):
        if k == END:                 # a trial: never further
            q.matched = 1
            q.score = (1, 0)
            return 1
        self.checks.append(k)
        return k + 1 if self.reach(k) else k

    def named_plays(self, p, start):
        assert start == 0
        return self.named

    def zone_trade(self, cards, zone, related):
        self.zoned.append(list(cards))
        return cards[0], cards[1]

    def run(self, p, replays=2, **kw):
        return self.b.walk(p, END, replays, **kw)


def test_it_starts_at_the_decision_before_the_difference_from_the_shuffle_before(monkeypatch):
    s = Script(monkeypatch)
    assert s.run(s.particle(matched=21)) is False
    assert s.checks == [20]
    s = Script(monkeypatch)
    s.run(s.particle(matched=21, refused=True))
    assert s.checks == [19]
    # the first decision is a start too; before it, nothing
    s = Script(monkeypatch, shuffled_at={})
    s.run(s.particle(matched=1))
    assert s.checks == [0] and s.trades
    s = Script(monkeypatch, shuffled_at={})
    assert s.run(s.particle(matched=1, refused=True)) is False and s.checks == []
    # no shuffle before it
    s = Script(monkeypatch, shuffled_at={0: 20})
    assert s.run(s.particle(matched=21)) is False and s.checks == []


def test_it_spends_trades_replays_times_the_replays_left(monkeypatch):
    s = Script(monkeypatch)
    assert s.run(s.particle(), replays=3) is False
    # (one of the three replays went to the start; a proposal of a card
    # for itself is counted, not tried)
    assert TRADES * 3 - 6 <= len(s.trades) <= TRADES * 3
    s = Script(monkeypatch)
    assert s.run(s.particle(), replays=1) is False and s.trades == []
    s = Script(monkeypatch)
    assert s.run(s.particle(), replays=0) is False and s.checks == []


def test_it_gives_up_where_the_replay_to_its_start_differs(monkeypatch):
    s = Script(monkeypatch, reach=lambda k: k != 20)
    assert s.run(s.particle()) is False and s.trades == []
    # with cards still in place asked for, the first decision after the shuffle first
    s = Script(monkeypatch, shuffled_at={0: 5})
    s.run(s.particle(), still_share=0.5)
    assert s.checks == [6, 20]
    s = Script(monkeypatch, shuffled_at={0: 5}, reach=lambda k: k != 6)
    assert s.run(s.particle(), still_share=0.5) is False and s.checks == [6]
    # (a shuffle made before everything: its first decision is the first)
    s = Script(monkeypatch, shuffled_at={})
    s.run(s.particle(), still_share=0.5)
    assert s.checks == [0, 20]


def test_it_needs_two_never_seen_cards_not_held_fixed(monkeypatch):
    s = Script(monkeypatch, order=[1, 2, 3], seen={1})
    s.run(s.particle())
    assert s.trades and all(set(sum(t, ())) <= {2, 3} for t in s.trades)
    s = Script(monkeypatch, order=[1, 2, 3], seen={1})
    assert s.run(s.particle(), fixed=frozenset({2})) is False and s.trades == []
    s = Script(monkeypatch, order=[1, 2, 3], seen={1, 2})
    assert s.run(s.particle()) is False and s.trades == []


def test_a_named_card_is_traded_onto_one_of_the_last_eight_unseen_plays(monkeypatch):
    # plays 1..10 laid cards 31..40; the seat's observation names card k at play k
    named = [(h, NAME[h]) for h in range(1, 11)]
    plays = {h: NAME[30 + h] for h in range(1, 11)}
    s = Script(monkeypatch, named=named, plays=plays)
    s.run(s.particle(), replays=40)
    onto = {(a, b) for (a, b), in s.trades if b == 30 + a and a <= 10}
    assert onto == {(h, 30 + h) for h in range(3, 11)}


def test_cards_still_in_place_trade_among_themselves_only_two_or_more(monkeypatch):
    hand = ('hand', 'Ann')
    then = {i: ('stock', i) for i in range(52)}
    for still, traded in [({5, 6}, True), ({5}, False)]:
        now = {i: then[i] if i in still else hand for i in range(52)}
        s = Script(monkeypatch, places=[then, now, now])
        s.run(s.particle(), replays=10, still_share=1.0)
        assert bool(s.zoned) is traded, still
        assert all(sorted(z) == sorted(still) for z in s.zoned)


def test_too_few_cards_gives_up_before_drawing_anything(monkeypatch):
    s = Script(monkeypatch, order=[1, 2, 3], seen={1, 2})
    state = s.b.rng.getstate()
    assert s.run(s.particle()) is False
    assert s.b.rng.getstate() == state


def test_a_gathering_walk_trades_the_pairs_proposed_from_the_start_and_skips_none(monkeypatch):
    s = Script(monkeypatch, order=[1, 2, 3, 4, 5])
    monkeypatch.setattr(clues, 'gathering', lambda p, now, moved: 'the gathering')
    proposed = [[], [(2, 3)], [], [(4, 5), (1, 2)]]
    s.b.gather = lambda gather, hidden, moved: (
        proposed.pop(0) if proposed else []) if gather == 'the gathering' else None
    s.run(s.particle(), replays=2, gathers=1.0)
    assert s.trades == [[(2, 3)], [(4, 5), (1, 2)]]
