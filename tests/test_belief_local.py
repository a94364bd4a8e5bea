"""Belief.local's set-up by its contract, on a scripted game: it needs a
shuffle and two cards the seat had not seen by the last decision matched;
a deal without that shuffle's draws takes its order as drawn; and where a
card the seat named was played unseen, its first step makes that play
the card.  (The pinned record, test_beliefs_pinned.py, checks where the
steps lead in real games.)"""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, walk
from pipvm.game.belief.particles import Deal, Particle

END = 40


class Script:
    def __init__(self, monkeypatch, order, seen_before=(), drawn=None, replays=(), seed=1):
        self.b = b = Belief(0, 1, random.Random(seed))
        b.pins, b.pins_before = [frozenset()], [frozenset(seen_before)]
        b.shuffled_at = {0: 0}
        self.order, self.drawn = list(order), [list(order)] if drawn is None else drawn
        self.trials = []
        b.named_pairs = lambda p, movable, snaps: []
        b.named_plays = lambda p, start: list(replays)
        b.particle = lambda game, deal, like, shown: Particle(game, deal, 0)
        b.check = self.check
        script = self

        class Swapped:
            def __init__(self, deal, j, game, shuffled_at):
                self.deal, self.game = deal, SimpleNamespace(fork=lambda: None)

            def then(self, pairs, plays=None):
                script.trials.append((list(pairs), plays))
                return self

        monkeypatch.setattr(walk, 'Swapped', Swapped)

    def check(self, q, end):
        q.matched, q.score = 1, (1, 0)
        return 1

    def run(self, shuffles=1, steps=5):
        p = Particle(None, Deal([self.order], self.drawn), 10)
        p.base = (SimpleNamespace(history=[None] * 8), None, shuffles)
        return self.b.local(p, END, steps)


def test_it_needs_a_shuffle_and_two_cards_not_seen_by_then(monkeypatch):
    s = Script(monkeypatch, [1, 2, 3])
    assert s.run(shuffles=0) is False and s.trials == []
    s = Script(monkeypatch, [1, 2, 3], seen_before={1, 2})
    assert s.run() is False and s.trials == []
    s = Script(monkeypatch, [1, 2, 3], seen_before={1})
    assert s.run(steps=5) is False and len(s.trials) == 5
    assert all(set(pairs[0]) == {2, 3} for pairs, _ in s.trials)


def test_a_deal_without_the_shuffles_draws_takes_its_order_as_drawn(monkeypatch):
    s = Script(monkeypatch, [1, 2, 3], drawn=[])
    assert s.run(steps=3) is False and len(s.trials) == 3


def test_its_first_step_makes_an_unseen_play_the_card_the_seat_named(monkeypatch):
    # (seed 2: the generator's first draw, 0.96, would not choose it after)
    assert random.Random(2).random() > 0.3
    s = Script(monkeypatch, list(range(10)), replays=[(9, 'Ace of Clubs')], seed=2)
    s.run(steps=1)
    assert s.trials == [([], {9: 'Ace of Clubs'})]
