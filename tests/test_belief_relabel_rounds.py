"""Belief.relabel_plays's rounds by their contract, on a scripted search: each
round solves which card every unseen play up to the first difference was
(relabel.solve, else the exact solver), makes the plays those cards in a
copy of the deal, and replays the game from the start; a world that
matches everywhere is taken, one that gets no further ends it, and one
that gets further is the next round's start, `rounds` times at most.

The pinned record (test_beliefs_pinned.py) runs the solvers on real
games (and tests/test_relabel.py the solvers themselves); the rounds
around them are checked here."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, replay
from pipvm.game.belief.particles import Deal, Particle
from pipvm.game.determinize import DECK_INDEX

NAME = {i: n for n, i in DECK_INDEX.items()}
END = 40


class Script:
    """scores: the match of each round's replay; solved: what relabel.solve
    answers each round (None: nothing), exact: what solve_exact does."""

    def __init__(self, monkeypatch, scores, solved=None, exact=None, flows=None):
        self.b = b = Belief(0, 1, random.Random(1))
        self.scores = list(scores)
        self.solved = solved or (lambda n: [7, 8])
        self.exact = exact or (lambda n: None)
        self.flows = flows or (lambda q: 'flow')
        self.restarts, self.asked = [], []
        b.flow = self.flow
        b.restart = self.restart
        b.check = self.check
        monkeypatch.setattr(replay, 'relabel', SimpleNamespace(solve=self.solve,
                                                               solve_exact=self.solve_exact))

    def flow(self, q):
        self.asked.append(q)
        if self.flows(q) is None:
            return None, None
        return SimpleNamespace(plays=[(4, 'x', 'y'), (9, 'x', 'y')]), {'required': len(self.asked)}

    def solve(self, flow, required):
        assert required == {'required': len(self.asked)}
        return self.solved(len(self.asked))

    def solve_exact(self, flow, required):
        assert flow.plays and required == {'required': len(self.asked)}
        return self.exact(len(self.asked))

    def restart(self, q, j, deal):
        assert j == 0           # from the start
        self.restarts.append(deal)
        return Particle(None, deal, 0)

    def check(self, r, end):
        assert end == END
        r.matched = self.scores[len(self.restarts) - 1]
        r.score = (r.matched, 0)
        r.diff = 'a difference'

    def run(self, p, rounds=6):
        return self.b.relabel_plays(p, END, rounds=rounds)


def particle(matched=10):
    p = Particle(None, Deal(plays={4: NAME[1], 9: NAME[2], 12: NAME[3]}), matched)
    p.diff = 'the first difference'
    return p


def test_each_round_makes_the_unseen_plays_the_solved_cards_in_a_copy(monkeypatch):
    s = Script(monkeypatch, [12, 15, 15])
    p = particle()
    assert s.run(p) is False
    assert s.restarts[0].plays == {4: NAME[7], 9: NAME[8], 12: NAME[3]}
    assert p.deal.plays == {4: NAME[1], 9: NAME[2], 12: NAME[3]}
    # each round from the last: 12 then 15 got further, 15 again did not
    assert len(s.restarts) == 3 and s.asked[0] is p and s.asked[1].matched == 12
    assert p.matched == 10          # kept only where it matches everywhere


def test_a_world_matching_everywhere_is_taken(monkeypatch):
    s = Script(monkeypatch, [12, END + 1])
    p = particle()
    p.base = 'kept'
    assert s.run(p) is True
    assert p.matched == END + 1 and p.base is None and p.deal is s.restarts[1]


def test_rounds_at_most(monkeypatch):
    s = Script(monkeypatch, list(range(11, 30)))
    assert s.run(particle(), rounds=3) is False
    assert len(s.restarts) == 3


def test_as_far_as_before_ends_it(monkeypatch):
    s = Script(monkeypatch, [10, 11, 12])
    assert s.run(particle()) is False and len(s.restarts) == 1


def test_the_exact_solver_where_the_search_finds_nothing_and_nothing_if_neither(monkeypatch):
    s = Script(monkeypatch, [12, 10], solved=lambda n: None, exact=lambda n: [5, 6])
    s.run(particle())
    assert s.restarts[0].plays[4] == NAME[5]
    s = Script(monkeypatch, [12], solved=lambda n: None)
    assert s.run(particle()) is False and s.restarts == []


def test_no_difference_or_no_flow_no_round(monkeypatch):
    s = Script(monkeypatch, [12])
    p = particle()
    p.diff = None
    assert s.run(p) is False and s.asked == []
    s = Script(monkeypatch, [12], flows=lambda q: None)
    assert s.run(particle()) is False and s.restarts == []
