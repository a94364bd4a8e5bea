"""repairs.py's cases the rest of the suite leaves open (its mutation
testing, tools/mutation.py): repair's order of searches, forward's mended
particle (a card played face up that the world's player does not hold),
forward_trade's choice of the card traded away, and forward_local's trades
in the game at the last decision matched, each on a scripted belief whose
other parts are stand-ins recording what they were asked."""
import random
from types import SimpleNamespace

import pytest

from pipvm.game.belief import Belief, repairs
from pipvm.game.belief.budgets import LOCAL, WIDTH
from pipvm.game.belief.clues import NAMES
from pipvm.game.belief.particles import Deal, Particle

END = 9


def belief():
    b = Belief(0, 1, random.Random(1))
    b.shuffled_at, b.unseen_plays, b.pins, b.pins_before = {0: 1}, set(), [], []
    return b


# --- repair -----------------------------------------------------------------------


def repair_script(named=False, local=False, directed=False, replayed=False):
    b, calls = belief(), []

    def part(name, answer):
        def run(*args):
            calls.append((name,) + args[1:])
            return answer
        return run
    b.replay_named = part('named', named)
    b.local, b.directed, b.replayed = part('local', local), part('directed', directed), \
        part('replayed', replayed)
    return b, calls


def test_repair_tries_the_named_plays_first_and_stops_there():
    # pins: repair is True at once when replay_named mends p (nothing else is tried)
    b, calls = repair_script(named=True, local=True)
    p = Particle('g', Deal([[0]]), 3)
    p.base = ('game', 0, 1)
    assert b.repair(p, END, 50) is True
    assert calls == [('named', END)]


def test_repair_moves_locally_only_from_a_base_with_no_shuffle_since():
    # pins: local runs (budget min(replays, LOCAL)) only if p.base names as many shuffles as p's deal
    b, calls = repair_script(local=True)
    p = Particle('g', Deal([[0], [1]]), 3)
    p.base = ('game', 0, 2)
    assert b.repair(p, END, LOCAL + 7) is True
    assert calls == [('named', END), ('local', END, LOCAL)]
    b, calls = repair_script(local=True)
    assert b.repair(p, END, 5) is True and calls[-1] == ('local', END, 5)
    for base in (None, ('game', 0, 1)):
        b, calls = repair_script(local=True, replayed=True)
        p.base = base
        assert b.repair(p, END, 50) is True
        assert [c[0] for c in calls] == ['named', 'directed', 'replayed']


def test_repair_after_local_is_directed_then_replayed_with_a_width_of_the_replays():
    # pins: a failed local is followed by directed(replays), then replayed(replays // WIDTH)
    b, calls = repair_script()
    p = Particle('g', Deal([[0]]), 3)
    p.base = ('game', 0, 1)
    assert b.repair(p, END, 50) is False
    assert calls == [('named', END), ('local', END, 50), ('directed', END, 50),
                     ('replayed', END, 50 // WIDTH)]
    b, calls = repair_script(directed=True, replayed=False)
    assert b.repair(p, END, 50) is True and calls[-1][0] == 'directed'


# --- forward ----------------------------------------------------------------------


class Forward:
    """forward with forward_trade, snapped_deal, restart and check scripted:
    trades[i] is what the i-th forward_trade answers, scores[i] how far the
    i-th restart matches (END + 1: everywhere)."""

    def __init__(self, trades, scores, snap=None):
        self.b = b = belief()
        self.trades, self.scores, self.snap = list(trades), list(scores), snap
        self.asked, self.restarts = [], []
        b.forward_trade = self.forward_trade
        b.snapped_deal = lambda deal: (('snapped', deal), self.snap)
        b.restart = self.restart
        b.check = self.check
        b.forward_local = lambda p, end, trades: ('local', p, end, trades)

    def forward_trade(self, q, seen=None):
        self.asked.append(q)
        return self.trades.pop(0)

    def restart(self, q, j, deal):
        self.restarts.append((q, j, deal))
        return Particle('game %d' % len(self.restarts), deal, 0)

    def check(self, r, end):
        assert end == END
        r.matched = self.scores.pop(0)
        r.score = (r.matched, -1)
        return r.matched


def forward_particle(matched=4):
    p = Particle('g', Deal([[0, 1]]), matched)
    p.score = (matched, -1)
    p.base = ('stale', 0, 0)
    return p


def test_forward_replays_each_trade_and_takes_the_first_that_matches():
    # pins: the trade's (shuffle, deal) is restarted from q; one that matches is taken, base cleared
    s = Forward([(0, 'deal a', 3, 5), (0, 'deal b', 3, 6)], [5, END + 1])
    p = forward_particle()
    assert s.b.forward(p, END) is True
    assert [(j, d) for _, j, d in s.restarts] == [(0, 'deal a'), (0, 'deal b')]
    assert s.restarts[0][0] is p and s.asked[1].game == 'game 1'   # the better one went on
    assert p.game == 'game 2' and p.deal == 'deal b' and p.matched == END + 1 and p.base is None


def test_forward_goes_on_from_a_replay_only_if_it_got_further():
    # pins: q becomes r only when r.score > q.score (as far is not further)
    s = Forward([(0, 'deal a', 3, 5), (0, 'deal b', 3, 6), None], [4, 3])
    p = forward_particle()
    assert s.b.forward(p, END) is False
    assert s.asked == [p, p, p] and [q for q, _, _ in s.restarts] == [p, p]
    assert p.game == 'g' and p.matched == 4 and p.base == ('stale', 0, 0)


def test_forward_gives_up_after_its_replays():
    # pins: at most `replays` trades are replayed, then False (p unchanged)
    s = Forward([(0, 'deal', 3, 5)] * 5, [5, 6, 7, 8, 9])
    p = forward_particle()
    assert s.b.forward(p, END, replays=3) is False
    assert len(s.restarts) == 3 and p.game == 'g' and p.matched == 4
    assert s.b.forward(forward_particle(), END, replays=0) is False


def test_forward_without_a_trade_is_false_and_replays_nothing():
    # pins: forward_trade None ends forward at once with False
    s = Forward([None], [])
    assert s.b.forward(forward_particle(), END) is False and s.restarts == []


def test_forward_replays_the_snapped_deal_first_when_a_seen_card_moves():
    # pins: a deal snapped at shuffle `moved` is replayed from there instead of the trade
    s = Forward([(0, 'deal', 3, 5)], [END + 1], snap=1)
    p = forward_particle()
    assert s.b.forward(p, END) is True
    assert s.restarts[0][1] == 1 and s.restarts[0][2][0] == 'snapped'


def test_forward_uses_the_trades_in_the_game_when_its_base_has_every_shuffle():
    # pins: forward_local (with trades) runs only if p.base[2] == len(orders) and is not 0
    s = Forward([None], [])
    p = forward_particle()
    p.base = ('game', 0, 1)
    assert s.b.forward(p, END, trades=2) == ('local', p, END, 2)
    for base in (None, ('game', 0, 2)):
        p.base = base
        assert s.b.forward(p, END) is False
        s.trades = [None]
    p = Particle('g', Deal(), 4)
    p.base = ('game', 0, 0)
    assert s.b.forward(p, END) is False


# --- forward_trade ----------------------------------------------------------------


class Card:
    def __init__(self, i):
        self.name = NAMES[i]


def trade_script(hand=(5, 6, 7), seen=(6,), x=3, order=None, drawn=None, score=-1,
                 diff=('theirs', 'ours'), pending=True, shuffled_at=None):
    """q stopped at history position 4 (matched 5), where x was played face up
    (card 40, in no deal, elsewhere); its deal has one shuffle (before position 4) of cards 0..19."""
    b = belief()
    b.history = [(None, NAMES[40])] * 4 + [(None, NAMES[x])] + [(None, NAMES[40])] * 5
    b.shuffled_at = {0: 1} if shuffled_at is None else shuffled_at
    b.pins = [frozenset(seen)]
    deck = [Card(i) for i in range(52)]
    m = SimpleNamespace(deck=deck, pending=SimpleNamespace(
        player=SimpleNamespace(hand=[deck[i] for i in hand])) if pending else None)
    order = list(range(20)) if order is None else order
    q = Particle(SimpleNamespace(machine=m), Deal([order], [] if drawn is None else [drawn]), 5)
    q.score, q.diff = (5, score), diff
    return b, q


def test_forward_trade_trades_the_card_played_for_the_one_the_real_draws_put_in_its_place():
    # pins: y is the card where x was drawn (order[drawn.index(x)]) when that one may trade
    order = list(range(20))
    order[3], order[7] = 7, 3
    b, q = trade_script(order=order, drawn=list(range(20)))
    j, deal, x, y = b.forward_trade(q)
    assert (j, x, y) == (0, 3, 7) and deal.orders[0] == list(range(20))
    assert q.deal.orders[0] == order      # q's own deal unchanged


def test_forward_trade_draws_from_the_unseen_cards_of_the_hand_in_the_shuffle():
    # pins: ys = the hand's cards in the order and not seen; y drawn from them otherwise
    order = list(range(20))
    order[3], order[6] = 6, 3           # where x was drawn lies 6, a seen card
    for hand, want in (((5, 6, 30), 5), ((6, 7, 40), 7)):
        b, q = trade_script(hand=hand, order=order, drawn=list(range(20)))
        assert b.forward_trade(q)[2:] == (3, want)
    b, q = trade_script(hand=(5, 7), order=order, drawn=list(range(20)))
    ys = {b.forward_trade(q)[3] for _ in range(30)}
    assert ys == {5, 7}


def test_forward_trade_reads_the_seen_cards_given():
    # pins: seen, when given, replaces self.seen(j)
    b, q = trade_script(hand=(5, 6), seen=(6,))
    assert b.forward_trade(q, seen=frozenset({5}))[3] == 6
    assert b.forward_trade(q)[3] == 5


def test_forward_trade_without_the_shuffles_draws_takes_its_order_as_drawn():
    # pins: no drawn order for the shuffle: drawn is the order itself (y = x if x may trade)
    b, q = trade_script(hand=(3, 5, 7), seen=())
    assert [b.forward_trade(q)[3] for _ in range(10)] == [3] * 10


def test_forward_trade_with_no_card_to_trade_asks_for_a_snap():
    # pins: no unseen card of the hand: (j, None, None, None) if a seen card can snap, else None
    b, q = trade_script(hand=(6,), seen=(6,))
    b.snapped_deal = lambda deal: (deal, 0)
    assert b.forward_trade(q) == (0, None, None, None)
    b.snapped_deal = lambda deal: (deal, None)
    assert b.forward_trade(q) is None
    b, q = trade_script(hand=(25,), seen=())       # in no shuffle's order
    b.snapped_deal = lambda deal: (deal, None)
    assert b.forward_trade(q) is None


@pytest.mark.parametrize('case', ['answered', 'no diff', 'no observation', 'unseen',
                                  'nothing pending', 'no shuffle', 'not dealt'])
def test_forward_trade_only_where_a_card_played_face_up_was_refused(case):
    # pins: each condition that makes forward_trade None
    b, q = trade_script(**{'answered': dict(score=0), 'no diff': dict(diff=None),
                           'no observation': dict(diff=(None, 'ours')),
                           'nothing pending': dict(pending=False),
                           'no shuffle': dict(shuffled_at={0: 4}),
                           'not dealt': dict(x=30)}.get(case, {}))
    if case == 'unseen':
        b.unseen_plays = {4}
    assert b.forward_trade(q) is None
    b, q = trade_script(shuffled_at={0: 3})
    b.unseen_plays = {3, 5, 6}
    assert b.forward_trade(q) is not None


# --- forward_local ----------------------------------------------------------------


class FakeSwapped:
    log = None

    def __init__(self, deal, j, game, shuffled_at, pairs=(), fork=None):
        self.deal, self.j, self.game, self.shuffled_at = deal, j, game, shuffled_at
        self.log.append((j, game, tuple(pairs), fork))

    def then(self, pairs, fork=True):
        return FakeSwapped(Deal(self.deal.orders, plays={'pairs': list(pairs)}), self.j,
                           SimpleNamespace(fork=lambda: 'fork'), self.shuffled_at, pairs, fork)


class Local:
    """forward_local with Swapped, particle, check, restart and forward_trade
    scripted: scores[i] is how far the i-th check matches; steps[i] what the
    i-th forward_trade answers."""

    def __init__(self, monkeypatch, scores, steps=(), seen=(), before=(), order=None, drawn=None):
        self.b = b = belief()
        b.pins, b.pins_before = [frozenset(seen)], [frozenset(before)]
        self.log = []
        monkeypatch.setattr(FakeSwapped, 'log', self.log)
        monkeypatch.setattr(repairs, 'Swapped', FakeSwapped)
        self.scores, self.steps = list(scores), list(steps)
        self.trials, self.restarts, self.asked = [], [], []
        b.particle = self.particle
        b.restart = self.restart
        b.check = self.check
        b.forward_trade = self.forward_trade
        order = list(range(10)) if order is None else order
        self.p = Particle('g', Deal([order], [] if drawn is None else [drawn]), 4)
        self.p.base = ('base game', 'shown', 1)

    def particle(self, game, deal, like, shown):
        assert game == 'fork' and like is self.p and shown == 'shown'
        self.trials.append(deal.plays['pairs'])
        return Particle(game, deal, 0)

    def restart(self, p, j, deal):
        self.restarts.append((p, j, deal.plays['pairs']))
        return Particle('restarted', deal, 0)

    def check(self, q, end):
        assert end == END
        q.matched = self.scores.pop(0)
        return q.matched

    def forward_trade(self, q, seen=None):
        self.asked.append(seen)
        return self.steps.pop(0)


def test_forward_local_snaps_the_cards_seen_since_then_trades_on_in_its_own_game(monkeypatch):
    # pins: the first trades are the seen-since snaps, in a fork; later ones the forward_trade's, no fork
    order = list(range(10))
    order[2], order[5], order[7], order[8] = 5, 2, 8, 7
    s = Local(monkeypatch, [3, 3, 3], [(0, 'd', 4, 6), (0, 'd', 1, 9), None],
              seen={2, 7, 9}, before={9}, order=order, drawn=list(range(10)))
    assert s.b.forward_local(s.p, END, 5) is False
    assert s.log[0][:2] == (0, 'base game')
    assert [entry[2:] for entry in s.log[1:]] == [(((2, 5), (7, 8)), True), (((4, 6),), False),
                                                  (((1, 9),), False)]
    assert s.asked == [frozenset({9})] * 3
    assert s.p.game == 'g' and s.p.base == ('base game', 'shown', 1)


def test_forward_local_leaves_a_card_seen_before_where_it_is(monkeypatch):
    # pins: a snap only of a card seen since, not seen before, whose place holds none seen before
    order = list(range(10))
    order[2], order[5], order[7], order[8], order[1], order[3] = 5, 2, 8, 7, 3, 1
    s = Local(monkeypatch, [3], [None], seen={2, 7, 1}, before={7, 3},
              order=order, drawn=list(range(10)))
    assert s.b.forward_local(s.p, END, 5) is False
    assert s.log[1][2] == ((2, 5),)
    s = Local(monkeypatch, [3], [None], seen={2}, order=list(range(10)), drawn=list(range(10)))
    s.b.forward_local(s.p, END, 5)
    assert s.log[1][2] == ()


def test_forward_local_without_the_shuffles_draws_takes_its_order_as_drawn(monkeypatch):
    # pins: drawn defaults to the order (no snaps: every card is where it was drawn)
    order = list(range(10))
    order[2], order[5] = 5, 2
    s = Local(monkeypatch, [3], [None], seen={2}, order=order)
    s.b.forward_local(s.p, END, 5)
    assert s.log[1][2] == ()


def test_forward_local_replays_the_trial_that_matches_and_takes_it(monkeypatch):
    # pins: a trial matching everywhere is replayed from shuffle j with its deal; taken if it matches
    s = Local(monkeypatch, [3, END + 1, END + 1], [(0, 'd', 4, 6)])
    assert s.b.forward_local(s.p, END, 5) is True
    assert s.restarts == [(s.p, 0, [(4, 6)])]
    assert s.p.game == 'restarted' and s.p.matched == END + 1 and s.p.base is None


def test_forward_local_drops_a_trial_its_replay_does_not_confirm(monkeypatch):
    # pins: the replay of a matching trial must match too, else False and p unchanged
    s = Local(monkeypatch, [END + 1, END])
    assert s.b.forward_local(s.p, END, 5) is False
    assert s.p.game == 'g' and s.p.base == ('base game', 'shown', 1) and len(s.restarts) == 1


def test_forward_local_stops_without_a_trade_or_after_its_trades(monkeypatch):
    # pins: no step, or a step with no deal, ends it False; at most `trades` trials
    for step in (None, (0, None, None, None)):
        s = Local(monkeypatch, [3, 3], [step])
        assert s.b.forward_local(s.p, END, 5) is False and len(s.trials) == 1
    s = Local(monkeypatch, [3] * 5, [(0, 'd', 4, 6)] * 5)
    assert s.b.forward_local(s.p, END, 2) is False and len(s.trials) == 2
    s = Local(monkeypatch, [], [])
    assert s.b.forward_local(s.p, END, 0) is False and s.trials == []


def test_forward_local_snaps_each_card_from_where_the_earlier_snaps_left_it(monkeypatch):
    # pins: each snap swaps the card into its drawn place in the working order, which later snaps read
    order = [0, 2, 3, 1, 5, 6, 4, 7, 8, 9]          # two cycles of three seen cards
    s = Local(monkeypatch, [3], [None], seen={1, 2, 3, 4, 5, 6}, order=order,
              drawn=list(range(10)))
    s.b.forward_local(s.p, END, 5)
    assert s.log[1][2] == ((1, 2), (2, 3), (4, 5), (5, 6))
    assert s.p.deal.orders[0] == order      # p's deal untouched
