"""Belief.update's end by its contract, on a scripted search: once some
particles are alive, the dead are replaced by copies of the living until
there are `size` particles, each copy nudged MOVES times (a Metropolis
step) and the living kept first; while fewer than half live, fresh deals
are tried first, until half do, given up when the first FRESH_MISSES all
fail, never more than FRESH_SOME nor the belief's `fresh`; while nothing
is hidden the one world is the real game's fork; a lost belief replays the
world that got furthest in full before checking it.

The pinned record (test_beliefs_pinned.py) checks which worlds a real game
gets; this checks how many there are and how they are made."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, worlds
from pipvm.game.belief.budgets import FRESH_MISSES, FRESH_SOME, MOVES
from pipvm.game.belief.particles import Deal, Particle

END = 30


class Game:
    def __init__(self, tag):
        self.tag = tag

    def fork(self):
        return Game(self.tag + "'")


def world(tag, matched):
    p = Particle(Game(tag), Deal(), matched)
    p.obs = SimpleNamespace(shown=0)
    return p


class Script:
    def __init__(self, monkeypatch, particles, size, hidden=True, repaired=(), deals=(), fresh=None):
        self.b = b = Belief(0, size, random.Random(1), **({} if fresh is None else {'fresh': fresh}))
        b.history = [None] * END
        b.real = Game('real')
        b.unseen_plays = {}
        b.particles, b.lost = list(particles), False
        self.copies, self.nudged, self.restarts = [], [], []
        self.deals, self.dealt = list(deals), []   # how far each fresh deal matches, in turn
        self.repaired = set(repaired)
        monkeypatch.setattr(worlds, 'nothing_hidden', lambda real, plays: not hidden)
        b.check = lambda p, end: p.matched
        b.repair = lambda p, end, replays: p.game.tag in self.repaired
        b.copy_particle = self.copy
        b.nudge = lambda p, end: self.nudged.append(p)
        b.restart = self.restart
        b.redealt = lambda dead, k: None
        b.fresh_particle = self.fresh

    def fresh(self):
        matched = self.deals[len(self.dealt)] if len(self.dealt) < len(self.deals) else 0
        p = world(f'fresh {len(self.dealt)}', matched)
        self.dealt.append(p)
        return p

    def copy(self, p):
        assert len(self.copies) < 100, 'copies never stop'
        q = world(p.game.tag + ' copy', p.matched)
        self.copies.append((p, q))
        return q

    def restart(self, p, j, deal):
        self.restarts.append((p.game.tag, j))
        return world(p.game.tag + ' replayed', END + 1)


def test_the_living_are_copied_until_there_are_size_particles_each_copy_nudged(monkeypatch):
    alive, dead = world('alive', END + 1), world('dead', 4)
    s = Script(monkeypatch, particles=[dead, alive], size=4)
    s.b.update()
    ps = s.b.particles
    assert len(ps) == 4
    assert ps[0] is alive
    assert [p for p, q in s.copies] == [alive] * 3
    assert ps[1:] == [q for p, q in s.copies]
    assert s.nudged == ps[1:] * MOVES
    assert s.b.checked == END and s.b.lost is False
    assert len(s.dealt) == FRESH_MISSES     # one of four alive: fresh deals first, all failed


def test_while_fewer_than_half_live_fresh_deals_are_tried_until_half_do(monkeypatch):
    alive, dead = world('alive', END + 1), world('dead', 4)
    s = Script(monkeypatch, particles=[dead, alive], size=5,
               deals=[4, END + 1, 2, 3, 9, 1, END + 1, END + 1])
    s.b.update()
    # the second live fresh deal makes three of five: no more are dealt
    assert [p.game.tag for p in s.dealt] == [f'fresh {k}' for k in range(7)]
    assert s.b.particles[:3] == [alive, s.dealt[1], s.dealt[6]]
    assert len(s.b.particles) == 5
    assert {p for p, q in s.copies} <= {alive, s.dealt[1], s.dealt[6]}


def test_fresh_deals_while_some_live_stop_at_the_cap_or_the_belief_budget(monkeypatch):
    far = [END + 1] + [0] * 100
    s = Script(monkeypatch, particles=[world('alive', END + 1), world('dead', 4)], size=100, deals=far)
    s.b.update()
    assert len(s.dealt) == FRESH_SOME
    s = Script(monkeypatch, particles=[world('alive', END + 1), world('dead', 4)], size=100, deals=far,
               fresh=2)
    s.b.update()
    assert len(s.dealt) == 2


def test_half_alive_try_no_fresh_deal(monkeypatch):
    s = Script(monkeypatch, particles=[world('alive', END + 1), world('dead', 4)], size=2)
    s.b.update()
    assert s.dealt == [] and len(s.b.particles) == 2


def test_as_many_living_as_the_size_make_no_copies(monkeypatch):
    ps = [world(str(k), END + 1) for k in range(3)]
    s = Script(monkeypatch, particles=ps, size=3)
    s.b.update()
    assert s.b.particles == ps and s.copies == [] and s.nudged == []


def test_a_repaired_particle_counts_among_the_living_before_the_copies(monkeypatch):
    alive, dead = world('alive', END + 1), world('dead', 9)
    s = Script(monkeypatch, particles=[alive, dead], size=3,
               repaired={'dead'})
    s.b.update()
    assert s.b.particles[:2] == [alive, dead]
    assert len(s.b.particles) == 3 and len(s.copies) == 1


def test_while_nothing_is_hidden_the_one_world_is_the_real_games_fork(monkeypatch):
    s = Script(monkeypatch, particles=[world('old', 3)], size=5,
               hidden=False)
    s.b.update()
    (p,) = s.b.particles
    assert p.game.tag == "real'" and p.obs is None
    assert s.b.checked == END


def test_a_lost_belief_replays_its_worlds_in_full_before_checking_them(monkeypatch):
    s = Script(monkeypatch, particles=[world('far', 7)], size=1)
    s.b.lost = True
    s.b.update()
    assert s.restarts == [('far', 0)]
    assert [p.game.tag for p in s.b.particles] == ['far replayed']
    assert s.b.lost is False

