"""Belief.move by its contract, on scripted replays: two never-seen cards
of one shuffle's deal trade places (in a copy of the deal), the shuffle
the last before the first difference (a Metropolis step: before the end)
three times in four, else any shuffle up to it; a repair first puts a
card the seat has seen where the real shuffle's draws put it, half the
time when there is one; the world is replayed from that shuffle and kept
if it matches everywhere (a Metropolis step) or at least as far as before
(a repair).

The pinned record (test_beliefs_pinned.py) sees only the worlds these
moves lead to in eleven games; which moves are proposed, how often, and
what is kept, are checked here over many draws."""
import random

from pipvm.game.belief import Belief
from pipvm.game.belief.particles import Deal, Particle

END = 40


class Script:
    """A belief with the shuffles at history positions `at` (deal orders
    `orders`, the real draws `drawn`), the seat having seen `seen` since
    each, whose replays match as far as `matches(deal)` says."""

    def __init__(self, orders, seen, at, drawn=None, matches=lambda deal: 1, seed=1):
        self.b = Belief(0, 1, random.Random(seed))
        self.b.pins = [frozenset(s) for s in seen]
        self.b.shuffled_at = dict(enumerate(at))
        self.orders, self.drawn = orders, drawn if drawn is not None else orders
        self.matches = matches
        self.restarts = []          # (shuffle, deal) of each replay
        self.b.restart = self.restart
        self.b.check = self.check

    def particle(self, matched=20):
        return Particle(None, Deal(self.orders, self.drawn), matched)

    def restart(self, p, j, deal):
        assert type(p) is Particle
        self.restarts.append((j, deal))
        return Particle(None, deal, 0)

    def check(self, q, end, pinned=()):
        assert end == END
        q.matched = self.matches(q.deal)
        q.score = (q.matched, 0)
        return q.matched

    def move(self, p, metropolis=False):
        return self.b.move(p, END, metropolis)


def swapped(before, after):
    """The positions where two orders differ."""
    return [k for k, (x, y) in enumerate(zip(before, after)) if x != y]


ORDERS = [list(range(10)), list(range(10, 20))]
AT = [0, 10]            # shuffle 0 at the start, shuffle 1 at history position 10


def test_no_shuffle_no_move():
    s = Script([], [], [])
    assert s.move(s.particle()) is False and s.restarts == []


def test_two_never_seen_cards_of_a_copy_of_the_deal_trade_places():
    s = Script(ORDERS, [{0, 1}, {10, 11}], AT)
    for _ in range(200):
        p = s.particle()
        s.move(p)
        j, deal = s.restarts[-1]
        assert deal is not p.deal and p.deal.orders == ORDERS       # p's deal untouched
        moved = swapped(ORDERS[j], deal.orders[j])
        assert len(moved) == 2 and not {ORDERS[j][k] for k in moved} & s.b.pins[j]
        assert deal.orders[1 - j] == ORDERS[1 - j]
        assert sorted(deal.orders[j]) == ORDERS[j]


def test_the_last_shuffle_before_the_difference_three_times_in_four_else_any_up_to_it():
    s = Script(ORDERS, [set(), set()], AT)
    for _ in range(800):
        s.move(s.particle(matched=20))
    js = [j for j, _ in s.restarts]
    assert set(js) == {0, 1}
    assert 0.08 < js.count(0) / len(js) < 0.17        # 1/4 x 1/2
    # a repair's shuffle is the last before the first difference ...
    s = Script(ORDERS, [set(), set()], AT)
    for _ in range(100):
        s.move(s.particle(matched=5))
    assert {j for j, _ in s.restarts} == {0}
    # ... a Metropolis step's the last before the end
    s = Script(ORDERS, [set(), set()], AT)
    for _ in range(100):
        s.move(s.particle(matched=5), metropolis=True)
    assert 0.8 < [j for j, _ in s.restarts].count(1) / 100


def test_a_repair_puts_a_seen_card_where_the_real_draws_put_it_half_the_time():
    order = list(range(10))
    drawn = [1, 0] + list(range(2, 10))     # the seat saw 0 and 1, dealt the other way round
    s = Script([order], [{0, 1}], [0], drawn=[drawn])
    for _ in range(400):
        s.move(s.particle())
    put_right = [d.orders[0][:2] == [1, 0] for _, d in s.restarts]
    assert 0.4 < sum(put_right) / 400 < 0.6
    # the others trade two never-seen cards
    for (_, d), right in zip(s.restarts, put_right):
        if not right:
            assert d.orders[0][:2] == [0, 1] and len(swapped(order, d.orders[0])) == 2
    # a Metropolis step never does
    s = Script([order], [{0, 1}], [0], drawn=[drawn])
    for _ in range(100):
        s.move(s.particle(), metropolis=True)
    assert all(d.orders[0][:2] == [0, 1] for _, d in s.restarts)


def test_a_seen_card_already_where_the_draws_put_it_stays():
    # seen 0 and 1 where drawn: nothing misplaced, so only never-seen cards move
    s = Script([list(range(10))], [{0, 1}], [0])
    for _ in range(100):
        s.move(s.particle())
    assert all(d.orders[0][:2] == [0, 1] for _, d in s.restarts)
    # a deal without the draws of that shuffle takes its order as drawn
    s = Script([list(range(10))], [{0, 1}], [0], drawn=[])
    for _ in range(100):
        s.move(s.particle())
    assert all(d.orders[0][:2] == [0, 1] for _, d in s.restarts)


def test_fewer_than_two_never_seen_cards_no_move():
    s = Script([[0, 1, 2]], [{0, 1}], [0])
    assert s.move(s.particle()) is False and s.restarts == []
    s = Script([[0, 1, 2]], [{0}], [0], matches=lambda deal: 20)
    assert s.move(s.particle()) is True and len(s.restarts) == 1


def test_a_repair_keeps_a_world_as_far_a_metropolis_step_only_one_matching_everywhere():
    for matched, metropolis, kept in [(20, False, True), (21, False, True), (19, False, False),
                                      (END + 1, True, True), (END, True, False),
                                      (20, True, False)]:
        s = Script(ORDERS, [set(), set()], AT, matches=lambda deal: matched)
        p = s.particle(matched=20)
        assert s.move(p, metropolis) is kept
        assert (p.deal is s.restarts[0][1]) is kept
        assert p.matched == (matched if kept else 20)


def test_a_metropolis_step_may_trade_in_a_shuffle_made_up_to_the_end_and_no_later():
    # a shuffle at END (before the last decision) is one; at END + 1, not
    for at, last in [([0, END], 1), ([0, END + 1], 0)]:
        s = Script(ORDERS, [set(), set()], at)
        for _ in range(100):
            s.move(s.particle(matched=5), metropolis=True)
        assert [j for j, _ in s.restarts].count(last) > 80
