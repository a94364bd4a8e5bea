"""Belief.replay_plays by its contract, on scripted replays: the last two
unseen plays before the world's first difference, the latest first, each
made up to six of the other cards its player could have played there (in
the order the belief's generator draws them), each replayed from the
shuffle before that play; the first that gets further is kept and the
next play tried from it; True once the world matches everywhere.  A play
the world does not reach as the seat saw it is passed over.

The pinned record (test_beliefs_pinned.py) saw only the worlds this led
to; which plays and cards are tried is checked here."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief
from pipvm.game.belief.particles import Deal, Particle

END = 40
OPTIONS = ['C%d' % k for k in range(10)]


class Script:
    """unseen: the unseen plays' positions; reached: whether a replay up to
    play h reaches it as the seat saw it (default all); better: the match
    of a world with play h made card label (default 1, no further)."""

    def __init__(self, unseen, reached=lambda h: True, better=lambda h, label: 1,
                 options=OPTIONS, decision=True):
        self.b = Belief(0, 1, random.Random(1))
        self.b.unseen_plays = set(unseen)
        self.b.shuffled_at = {0: 0, 1: 10}
        self.reached, self.better, self.options = reached, better, options
        self.decision = decision
        self.tries = []         # (play, card) of each world tried
        self.restarts = []      # (shuffle, deal) of each replay
        self.b.restart = self.restart
        self.b.check = self.check

    def particle(self, matched=20):
        plays = {h: 'C0' for h in self.b.unseen_plays}
        return Particle(None, Deal([[0], [1]], plays=plays), matched)

    def restart(self, p, j, deal):
        assert type(p) is Particle
        self.restarts.append((j, deal))
        game = SimpleNamespace(decision=SimpleNamespace(options=self.options)
                               if self.decision else None)
        return Particle(game, deal, 0)

    def check(self, q, end, pinned=()):
        if end != END:          # a replay up to play `end`
            q.matched = end + 1 if self.reached(end) else end - 1
        else:
            (h, label), = [(h, c) for h, c in q.deal.plays.items() if c != self.p.deal.plays[h]]
            self.tries.append((h, label))
            q.matched = self.better(h, label)
        q.score = (q.matched, 0)
        return q.matched

    def run(self, p):
        self.p = p
        return self.b.replay_plays(p, END)


def test_the_last_two_unseen_plays_before_the_difference_six_cards_each():
    s = Script([3, 8, 12, 19, 20, 25])
    assert s.run(s.particle(matched=20)) is False
    plays = [h for h, _ in s.tries]
    assert plays == [19] * 6 + [12] * 6
    # other cards than the one the world played, each once, as the generator draws them
    rng = random.Random(1)
    assert [c for _, c in s.tries] == rng.sample(OPTIONS[1:], 6) + rng.sample(OPTIONS[1:], 6)
    # each replayed from the shuffle before its play, as the replay up to it
    assert [j for j, _ in s.restarts] == [1] * 7 + [1] * 7
    s = Script([8, 12])
    s.run(s.particle(matched=20))
    assert [j for j, _ in s.restarts] == [1] * 7 + [0] * 7


def test_a_play_with_fewer_other_cards_tries_them_all():
    s = Script([5], options=['C0', 'C1', 'C2'])
    s.run(s.particle())
    assert sorted(c for _, c in s.tries) == ['C1', 'C2']


def test_a_play_not_reached_as_the_seat_saw_it_is_passed_over():
    s = Script([5, 8, 12], reached=lambda h: h != 12)
    s.run(s.particle())
    assert [h for h, _ in s.tries] == [8] * 6        # 12 passed over, then 8 (two plays looked at)
    s = Script([5, 8], decision=False)
    s.run(s.particle())
    assert s.tries == [] and len(s.restarts) == 2


def test_the_first_card_that_gets_further_is_kept_and_the_next_play_tried_from_it():
    rng = random.Random(1)
    third = rng.sample(OPTIONS[1:], 6)[2]
    s = Script([8, 12], better=lambda h, label: 25 if (h, label) == (12, third) else 1)
    p = s.particle()
    p.base = 'kept'
    assert s.run(p) is False
    assert [h for h, _ in s.tries] == [12] * 3 + [8] * 6
    assert p.matched == 25 and p.base is None and p.deal.plays[12] == third
    # as far as before is not further
    s = Script([8, 12], better=lambda h, label: 20)
    p = s.particle()
    s.run(p)
    assert p.matched == 20 and p.deal.plays == {8: 'C0', 12: 'C0'}


def test_a_world_that_matches_everywhere_ends_it():
    s = Script([8, 12], better=lambda h, label: END + 1)
    p = s.particle()
    assert s.run(p) is True
    assert len(s.tries) == 1 and p.matched == END + 1
