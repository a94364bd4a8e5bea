"""Belief.shown's chains, by their contract, on a scripted search: each
chain goes on while it gets further and ends after `depth` replays that do
not; all the chains together spend at most their budget (SHOWN_REPLAYS,
scaled as the belief's repairs); each chain starts from the furthest world
any chain reached; a replay from before the earliest change of its chain;
the first world that matches everywhere is taken at once.

The pinned record (test_beliefs_pinned.py) sees these only where a real
game takes them; in its eleven cases no chain ever ran out of depth or
budget, so a slip in this bookkeeping (one replay more or fewer, a budget
never spent) was invisible there.  Here the worlds are stand-ins whose
scores the test decides, and the belief's replays are counted."""
import random

from pipvm.game.belief import Belief
from pipvm.game.belief.budgets import REPAIRS, SHOWN_REPLAYS
from pipvm.game.belief.particles import Deal, Particle

END = 50        # the seat's last observation: a world matching 51 matches everywhere
SHUFFLE = 7     # the shuffle every replay starts from (last_shuffle's answer)


class Script:
    """A belief whose replays are scripted: each replay's world scores the
    next of `scores` (how far it matches), and every world has one more
    play to pin (a new position each time, `pins`) or, where `short` says,
    a card to bring (bring's options)."""

    def __init__(self, scores, repairs=REPAIRS, short=(), options=2, positions=None):
        self.b = Belief(0, 1, random.Random(1), repairs=repairs)
        self.b.shuffled_at = {}
        self.scores, self.short = list(scores), set(short)
        self.options = options
        self.positions = positions or (lambda n: 10 + n)
        self.restarts = []      # (the shuffle replayed from, the deal) of each replay
        self.asked = []         # the world each shown_pins or bring was asked about
        self.los = []           # the position each replay starts before
        self.offered, self.taken = [], []   # bring's last options; which each replay took
        self.checked = []       # the pins each replay was checked with
        self.was = []           # the plays before their pins, as each bring was given them
        b = self.b
        b.restart = self.restart
        b.check = self.check
        b.shown_pins = self.pins
        b.bring = self.bring
        b.last_shuffle = self.last_shuffle

    def particle(self, matched=5):
        return Particle(None, Deal(plays={h: 'C%d' % h for h in range(1000)}), matched)

    def restart(self, p, j, deal):
        assert type(p) is Particle and j == SHUFFLE   # from p, at the shuffle found
        self.restarts.append((j, deal))
        self.taken.extend(k for k, o in enumerate(self.offered) if o[0] is deal)
        return Particle(None, deal, 0)

    def check(self, q, end, pinned=()):
        assert end == END
        self.checked.append(dict(pinned))
        n = len(self.restarts)
        q.matched = self.scores[n - 1] if n <= len(self.scores) else 1
        q.score = (q.matched, 0)
        q.short = ('short', n) if n in self.short else None

    def pins(self, q, deal, pinned):
        self.asked.append(q)
        h = self.positions(len(self.asked))
        return {} if h is None else {h: 'X%d' % h}

    def bring(self, q, deal, pinned, was):
        self.asked.append(q)
        self.was.append(dict(was))
        self.offered = []
        for k in range(self.options):
            d = deal.copy()
            d.plays[90 + k] = 'B%d' % k
            self.offered.append((d, {**pinned, 90 + k: 'B%d' % k}, 90 + k, was))
        return self.offered

    def last_shuffle(self, orders, lo):
        self.los.append(lo)
        return SHUFFLE

    def run(self, p, chains=3, depth=4):
        return self.b.shown(p, END, chains=chains, depth=depth)


def test_a_chain_that_gets_no_further_ends_after_depth_replays():
    s = Script([1] * 100)
    assert s.run(s.particle()) is False
    assert len(s.restarts) == 3 * 4


def test_a_chain_that_gets_further_is_given_depth_replays_again():
    # 6, 7 and 8 each beat the chain's furthest; then four that do not
    s = Script([6, 7, 8] + [1] * 100)
    s.run(s.particle(), chains=1, depth=4)
    assert len(s.restarts) == 3 + 4


def test_the_chains_spend_at_most_their_budget_scaled_as_the_repairs():
    repairs = REPAIRS // 100                    # a budget of 4 replays
    budget = SHOWN_REPLAYS * repairs // REPAIRS
    assert budget == 4
    s = Script([1] * 100, repairs=repairs)
    s.run(s.particle(), chains=3, depth=4)
    assert len(s.restarts) == budget
    # and one that always gets further stops at the budget too
    s = Script(list(range(6, 200)), repairs=repairs)
    s.run(s.particle(), chains=3, depth=4)
    assert len(s.restarts) == budget
    # a larger budget than the depths need is not spent
    s = Script([1] * 100, repairs=REPAIRS * 2)
    s.run(s.particle(), chains=3, depth=4)
    assert len(s.restarts) == 12


def test_each_chain_starts_from_the_furthest_world_a_chain_reached():
    # chain 1 (from p): 9, its furthest; 9 again, no further; then 1, 1, 1:
    # four replays after the 9 without getting further end it
    s = Script([9, 9, 1, 1, 1] + [1] * 100)
    p = s.particle()
    s.run(p, chains=2, depth=4)
    assert s.asked[0] is p
    first_of_chain_2 = s.asked[5]
    assert first_of_chain_2.matched == 9
    assert first_of_chain_2.deal is s.restarts[0][1]     # the first 9, not the second
    # chain 2 goes on from that world's pins alone, and its start
    plays = s.restarts[5][1].plays
    assert plays[11] == 'X11' and plays[16] == 'X16'
    assert [plays[h] for h in range(12, 16)] == ['C12', 'C13', 'C14', 'C15']
    assert s.los[5] == 11


def test_a_replay_starts_before_the_earliest_change_of_its_chain():
    order = iter([20, 15, 30, 12, 40])
    s = Script([1] * 100, positions=lambda n: next(order, None))
    s.run(s.particle(), chains=1, depth=10)
    assert s.los == [20, 15, 15, 12, 12]
    # each replay's deal holds every pin of the chain, and p's own deal is untouched
    assert {h: s.restarts[-1][1].plays[h] for h in (20, 15, 30, 12, 40)} == \
        {20: 'X20', 15: 'X15', 30: 'X30', 12: 'X12', 40: 'X40'}
    # and each replay is checked against all the pins so far
    assert s.checked == [{20: 'X20'}, {20: 'X20', 15: 'X15'}, {20: 'X20', 15: 'X15', 30: 'X30'},
                         {20: 'X20', 15: 'X15', 30: 'X30', 12: 'X12'},
                         {20: 'X20', 15: 'X15', 30: 'X30', 12: 'X12', 40: 'X40'}]


def test_the_pins_replace_the_plays_of_a_copy_of_the_deal():
    s = Script([1] * 100)
    p = s.particle()
    s.run(p, chains=1, depth=1)
    deal = s.restarts[0][1]
    assert deal is not p.deal and p.deal.plays[11] == 'C11' and deal.plays[11] == 'X11'
    assert all(deal.plays[h] == 'C%d' % h for h in range(1000) if h != 11)


def test_the_first_world_that_matches_everywhere_is_taken_at_once():
    s = Script([3, 4, END + 1, 7])
    p = s.particle()
    p.base = 'kept'
    assert s.run(p) is True
    assert len(s.restarts) == 3
    assert p.matched == END + 1 and p.deal is s.restarts[2][1] and p.base is None
    # one short of everywhere is not a match
    s = Script([END] * 100)
    assert s.run(s.particle(), chains=1, depth=2) is False


def test_a_world_short_of_a_card_brings_it_the_first_way_half_the_time():
    # every replay's world is short of a card: bring's options are taken,
    # the first (the likeliest) about half the time, else one at random
    s = Script([1] * 1000, short=range(1, 1000), options=5, repairs=REPAIRS * 10)
    s.run(s.particle(), chains=40, depth=10)
    taken = s.taken
    assert len(taken) == len(s.restarts) - 40      # all but each chain's first
    assert 0.5 < taken.count(0) / len(taken) < 0.7  # 1/2 + 1/2 * 1/5
    assert set(taken) == set(range(5))
    # bring is told what the pinned play played before its pin, and the
    # replay is checked with the pin it brought too
    assert s.was[0] == {11: 'C11'}
    k = s.taken[0]
    assert s.checked[1] == {11: 'X11', 90 + k: 'B%d' % k}


def test_a_chain_with_nothing_to_pin_or_bring_ends_at_once():
    s = Script([1] * 100, positions=lambda n: None)
    assert s.run(s.particle(), chains=3, depth=4) is False
    assert s.restarts == [] and len(s.asked) == 3
    s = Script([1] * 100, short={1}, options=0)
    s.run(s.particle(), chains=1, depth=4)
    assert len(s.restarts) == 1
