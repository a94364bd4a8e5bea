"""Belief.nudge by its contract (a Metropolis step): two cards the seat has
not seen since the last shuffle trade places in the game at the last
decision matched; only if that world still matches is the trade replayed
from the shuffle, and p takes it only if the replay matches too.  Fewer
than two such cards, or no shuffle, is no step; a particle whose base is
from before a later shuffle takes a replayed move instead.

The pinned record (test_beliefs_pinned.py) sees the copies this moves
apart; the step's edges are checked here."""
import random

from pipvm.game.belief import Belief, walk
from pipvm.game.belief.particles import Deal, Particle

END = 20


class Script:
    def __init__(self, monkeypatch, seen, matches=(True, True)):
        self.b = b = Belief(0, 1, random.Random(1))
        b.pins = [frozenset(seen)]
        b.shuffled_at = {0: 0}
        self.trades, self.checks, self.restarts, self.moves = [], [], [], []
        self.matches = list(matches)
        script = self

        class Swapped:
            def __init__(self, deal, j, game, shuffled_at):
                self.deal, self.game = deal, game

            def then(self, pairs):
                script.trades.append(sorted(pairs[0]))
                return self

        monkeypatch.setattr(walk, 'Swapped', Swapped)
        b.particle = lambda game, deal, like, shown: Particle(game, deal, 0)
        b.check = self.check
        b.restart = self.restart
        b.move = lambda p, end, metropolis: self.moves.append(metropolis)

    def check(self, q, end):
        self.checks.append(q)
        ok = self.matches.pop(0)
        q.matched = END + 1 if ok else 3
        return q.matched

    def restart(self, p, j, deal):
        self.restarts.append(j)
        return Particle('replayed', deal, 0)


class Game:
    def fork(self):
        return 'trial'


def particle(order, shuffles=1):
    p = Particle('p', Deal([list(order)]), END + 1)
    p.base = (Game(), 'shown', shuffles)
    return p


def test_two_unseen_cards_are_enough_for_a_step(monkeypatch):
    s = Script(monkeypatch, seen={0, 1, 2})
    p = particle([0, 1, 2, 7, 8])
    s.b.nudge(p, END)
    assert s.trades == [[7, 8]] and s.restarts == [0]
    assert p.game == 'replayed' and p.base[1] == 'shown'


def test_one_unseen_card_is_no_step(monkeypatch):
    s = Script(monkeypatch, seen={0, 1, 2})
    p = particle([0, 1, 2, 7])
    s.b.nudge(p, END)
    assert s.trades == [] and s.checks == [] and p.game == 'p'


def test_a_trade_the_last_decision_refuses_is_never_replayed(monkeypatch):
    s = Script(monkeypatch, seen=set(), matches=[False])
    p = particle([4, 5, 6])
    s.b.nudge(p, END)
    assert len(s.trades) == 1 and s.restarts == [] and p.game == 'p'


def test_a_replay_that_fails_leaves_p_as_it_was(monkeypatch):
    s = Script(monkeypatch, seen=set(), matches=[True, False])
    p = particle([4, 5, 6])
    s.b.nudge(p, END)
    assert s.restarts == [0] and p.game == 'p'


def test_no_shuffle_is_no_step_and_a_later_shuffle_a_replayed_move(monkeypatch):
    s = Script(monkeypatch, seen=set())
    p = particle([], shuffles=0)
    p.deal = Deal([])
    s.b.nudge(p, END)
    assert s.trades == [] and s.moves == []
    p = particle([4, 5, 6], shuffles=0)         # its base is before the shuffle
    s.b.nudge(p, END)
    assert s.trades == [] and s.moves == [True]
