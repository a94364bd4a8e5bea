"""Belief.window_chain by its contract, on a scripted search: each round
asks window_trades for the trades at the world's first difference, then
tries each trade alone, then for the first CYCLED trades Z sent on to each
other hidden card's place, then each trade followed by a walk of
WINDOW_WALK replays; the first try that gets further is taken and a new
round starts from it; a round where none does ends the chain; every
round and try is paid for from WINDOW_REPLAYS (scaled as the repairs), a
walk's try with its walk.

The pinned record (test_beliefs_pinned.py) reaches this only where a real
game needs a window's trade, and never ran it out of budget or into its
cycles' order; here the trades and the worlds' scores are the test's."""
import random

from pipvm.game.belief import Belief, repairs as repairs_part
from pipvm.game.belief.budgets import CYCLED, REPAIRS, WINDOW_REPLAYS, WINDOW_WALK
from pipvm.game.belief.particles import Deal, Particle

END = 50        # a world matching 51 matches everywhere


class Script:
    """rounds: for each call of window_trades, (trades, hidden); scores:
    what each replay's world matches (then 1); walked: what a walk raises
    its world's match to (None: nothing)."""

    def __init__(self, monkeypatch, rounds, scores=(), walked=None, repairs=REPAIRS):
        self.b = Belief(0, 1, random.Random(1), repairs=repairs)
        self.rounds, self.scores, self.walked = list(rounds), list(scores), walked
        self.tried = []         # (shuffle, deal) of each replay, in order
        self.walks = []         # (the world walked, its replays, fixed) of each walk
        self.asked = []         # the world each round was asked about
        b = self.b
        b.window_trades = self.trades
        b.restart = self.restart
        b.check = self.check
        b.walk = self.walk
        monkeypatch.setattr(repairs_part, 'traded_in', lambda deal, j, x, z, shuffled_at:
                            ('sent on', deal, j, x, z))
        b.shuffled_at = {}

    def trades(self, p):
        self.asked.append(p)
        return self.rounds.pop(0) if self.rounds else ([], set())

    def restart(self, p, j, deal):
        self.tried.append((j, deal))
        return Particle(None, deal, 0)

    def check(self, q, end, pinned=()):
        assert end == END
        n = len(self.tried)
        q.matched = self.scores[n - 1] if n <= len(self.scores) else 1
        q.score = (q.matched, 0)

    def walk(self, q, end, replays, fixed=frozenset()):
        assert end == END
        self.walks.append((q, replays, fixed))
        if self.walked is not None:
            q.matched = self.walked
            q.score = (q.matched, 0)

    def run(self, p):
        return self.b.window_chain(p, END)


def particle(matched=5):
    return Particle(None, Deal(), matched)


def trade(k):
    """Trade k: shuffle k, its deal, X = 10 + k, Z = 20 + k, drawn at 30 + k."""
    return (k, 'deal%d' % k, 10 + k, 20 + k, 30 + k)


def test_a_round_tries_each_trade_then_the_cycles_of_the_first_then_the_walks(monkeypatch):
    trades = [trade(k) for k in range(CYCLED + 1)]
    hidden = {20 + k for k in range(CYCLED + 1)} | {10 + k for k in range(CYCLED + 1)} | {99}
    s = Script(monkeypatch, [(trades, hidden)])
    assert s.run(particle()) is False
    plain = [(k, 'deal%d' % k) for k in range(CYCLED + 1)]
    cycles = [(k, ('sent on', 'deal%d' % k, k, 20 + k, w))
              for k in range(CYCLED) for w in sorted(hidden - {10 + k, 20 + k})]
    assert s.tried == plain + cycles + plain
    # a walk after each trade alone, of WINDOW_WALK replays, its X held where the trade put it
    assert [(w[0].deal, w[1], w[2]) for w in s.walks] == \
        [('deal%d' % k, WINDOW_WALK, frozenset({10 + k})) for k in range(CYCLED + 1)]
    assert len(s.asked) == 1


def test_a_try_that_gets_further_is_taken_and_a_new_round_starts_from_it(monkeypatch):
    rounds = [([trade(1), trade(2)], {11, 21, 12, 22}), ([trade(3)], {13, 23})]
    # round 1: trade 1 no further (5), trade 2 further (7); round 2: trade 3 matches
    s = Script(monkeypatch, rounds, scores=[5, 7, END + 1])
    p = particle()
    p.base = 'kept'
    assert s.run(p) is True
    assert s.tried == [(1, 'deal1'), (2, 'deal2'), (3, 'deal3')]
    assert s.asked == [p, p] and p.deal == 'deal3' and p.base is None
    assert s.walks == []            # nothing walked: the plain tries did it


def test_a_walk_that_gets_further_is_taken(monkeypatch):
    s = Script(monkeypatch, [([trade(1)], {11, 21})], walked=8)
    p = particle()
    assert s.run(p) is False            # the next round finds no trade
    assert s.tried == [(1, 'deal1'), (1, 'deal1')] and len(s.walks) == 1
    assert p.matched == 8 and len(s.asked) == 2


def test_a_walk_is_not_made_after_a_try_that_got_further(monkeypatch):
    s = Script(monkeypatch, [([trade(1)], {11, 21})], scores=[5, 6])
    s.run(particle())
    assert s.tried == [(1, 'deal1'), (1, 'deal1')] and s.walks == []
    # nor after a try that matched as far as p: only beyond it counts
    s = Script(monkeypatch, [([trade(1)], {11, 21})], scores=[5, 5])
    p = particle()
    s.run(p)
    assert len(s.walks) == 1 and len(s.asked) == 1


def test_the_rounds_and_tries_spend_the_budget_scaled_as_the_repairs(monkeypatch):
    trades = [trade(k) for k in range(CYCLED + 1)]
    hidden = {10 + k for k in range(CYCLED + 1)} | {20 + k for k in range(CYCLED + 1)} | {99}
    # 6 replays: the round, then five trades alone
    repairs = REPAIRS // 100
    assert WINDOW_REPLAYS * repairs // REPAIRS == 6
    s = Script(monkeypatch, [(trades, hidden)], repairs=repairs)
    assert s.run(particle()) is False
    assert len(s.tried) == 5
    # 60: the round, five alone, 4 x 9 cycles (42 so far), then one walk of 1 + 40
    repairs = REPAIRS // 10
    s = Script(monkeypatch, [(trades, hidden)], repairs=repairs)
    s.run(particle())
    assert len(s.tried) == 5 + CYCLED * 9 + 1 and len(s.walks) == 1
    # each round costs one: rounds that each take their first try
    s = Script(monkeypatch, [([trade(k)], {10 + k, 20 + k}) for k in range(10)],
               scores=list(range(6, 20)), repairs=REPAIRS // 100)
    s.run(particle())
    assert len(s.asked) == 3 and len(s.tried) == 3
    # a round is asked for with one replay left, though no try can follow
    s = Script(monkeypatch, [([trade(1), trade(2)], {11, 21, 12, 22}), ([trade(3)], {13, 23}),
                             ([trade(4)], {14, 24})], scores=[5, 6, 7], repairs=REPAIRS // 100)
    assert s.run(particle()) is False
    assert len(s.asked) == 3 and len(s.tried) == 3
    # and no budget, no round
    s = Script(monkeypatch, [([trade(1)], {11, 21})], repairs=0)
    assert s.run(particle()) is False and s.asked == []


def test_a_world_that_matches_already_needs_no_round(monkeypatch):
    s = Script(monkeypatch, [([trade(1)], {11, 21})])
    assert s.run(particle(END + 1)) is True and s.asked == [] and s.tried == []
    # a round without trades ends the chain
    s = Script(monkeypatch, [([], set())])
    assert s.run(particle()) is False and len(s.asked) == 1 and s.tried == []
