"""Belief.flow by its contract, on a scripted replay: p's world is
replayed from the checkpoint before the first shuffle (nothing is hidden
before it) up to its first difference d; the cards named at each position
come from the seat's trace where the replay has not been observed yet (its
world matched there) and from the world's observer at every position from
the replay's start on, each position observed once; every card named is
required to be itself, but at d, where each card the world showed stands
for the card the seat saw.  (None, None) where the difference pairs no
cards, or a replayed answer cannot be given.

The pinned record (test_beliefs_pinned.py) meets this only through
relabel_plays's solve, which forgives a flow that names a card at the wrong
position; here the flow itself is checked."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, replay
from pipvm.game.belief.clues import NAMES as NAME
from pipvm.game.belief.particles import Deal, Particle

D = 4           # the first difference


def world_line(h):
    """What the world shows at position h: a card of its own at each."""
    return {'log': ['Ada shows %s.' % NAME[h]]}


def seat_line(h):
    """What the seat saw: the world's, but at D, where it saw card 40."""
    return {'log': ['Ada shows %s.' % NAME[40 if h == D else h]]}


class Script:
    def __init__(self, monkeypatch, start, observed, give=True):
        self.b = b = Belief(0, 1, random.Random(1))
        b.history = ['answer %d' % h for h in range(10)]
        b.trace = [seat_line(h) for h in range(10)]
        b.unseen_plays = set()
        self.start, self.observed = start, observed
        self.restarts, self.looked = [], []
        b.restart = self.restart
        monkeypatch.setattr(replay, 'give', lambda g, answer, free: give and (
            g.history.append(answer) or True))

    def restart(self, p, j, deal):
        self.restarts.append(j)
        g = SimpleNamespace(history=[None] * self.start, decision=None,
                            machine=SimpleNamespace(deck=[SimpleNamespace(name=n) for n in NAME]))
        q = Particle(g, deal, 0)
        q.observed = self.observed
        q.obs = self.obs
        return q

    def obs(self, g):
        h = len(g.history)
        self.looked.append(h)
        return world_line(h)

    def run(self):
        p = Particle(None, Deal([list(range(52))]), D)
        p.diff = (world_line(D), seat_line(D))
        return self.b.flow(p)


def test_each_position_is_named_from_the_trace_before_the_replay_and_the_world_after(monkeypatch):
    for start, observed in ((0, False), (2, False), (2, True), (D, False)):
        s = Script(monkeypatch, start, observed)
        flow, required = s.run()
        assert s.restarts == [0]
        first = start + 1 if observed else start
        assert s.looked == list(range(first, D + 1)), (start, observed)
        assert flow.named == [[h] for h in range(D + 1)]
        assert required == {**{(h, h): h for h in range(D)}, (D, D): 40}
        assert flow.plays == []


def test_the_seats_own_line_at_the_difference_when_the_replay_observed_it(monkeypatch):
    # observed at its start, the replay's world is the seat's there
    s = Script(monkeypatch, D, True)
    flow, required = s.run()
    assert s.looked == []
    assert flow.named[D] == [40] and required[D, 40] == 40


def test_a_difference_pairing_no_cards_has_no_flow(monkeypatch):
    s = Script(monkeypatch, 0, False)
    p = Particle(None, Deal([list(range(52))]), D)
    p.diff = ({'log': ['Ada says hello.']}, {'log': ['Ada says goodbye.']})
    assert s.b.flow(p) == (None, None)
    assert s.restarts == []


def test_an_answer_the_replay_cannot_give_has_no_flow(monkeypatch):
    s = Script(monkeypatch, 0, False, give=False)
    assert s.run() == (None, None)
