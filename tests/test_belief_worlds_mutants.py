"""Belief's state and its face by their contracts (tools/mutation-results/
worlds.py): a fresh belief follows no game and holds no world (not lost);
worlds(game, n) follows the game, updates, and hands out forks of the
first n particles (quiet as asked), each with its future drawn from the
belief's rng, none while lost."""
import random
from types import SimpleNamespace

from pipvm.game.belief import Belief, worlds
from pipvm.game.belief.budgets import FRESH, REPAIRS


def test_a_fresh_belief_follows_no_game_and_holds_no_world():
    rng = random.Random(3)
    b = Belief(2, 9, rng)
    assert (b.seat, b.size, b.rng, b.repairs, b.fresh) == (2, 9, rng, REPAIRS, FRESH)
    assert (b.real, b.states, b.shadow, b.observe, b.sightings, b.blind) == (None,) * 6
    assert (b.trace, b.pins, b.pins_before, b.history, b.particles) == ([],) * 5
    assert (b.shuffled_at, b.unseen_plays, b.played_by) == ({}, set(), {})
    assert b.lost is False and b.checked == 0
    assert (Belief(0, 1, rng, repairs=7, fresh=5).repairs, Belief(0, 1, rng, fresh=5).fresh) == (7, 5)


class _Game:
    def __init__(self, tag):
        self.tag, self.forks = tag, []

    def fork(self, quiet=False):
        self.forks.append(quiet)
        return SimpleNamespace(tag=self.tag, quiet=quiet)


def test_worlds_are_forks_of_the_first_particles_each_with_a_future(monkeypatch):
    b = Belief(0, 4, random.Random(1))
    calls = []
    b.follow_real = lambda game: calls.append(('follow', game))
    b.update = lambda: calls.append(('update',))
    b.particles = [SimpleNamespace(game=_Game(t)) for t in 'abc']
    drawn = []
    monkeypatch.setattr(worlds, '_future', lambda g, rng: drawn.append(rng) or (g.tag, g.quiet))
    assert b.worlds('real', 2) == [('a', True), ('b', True)]
    assert calls == [('follow', 'real'), ('update',)] and drawn == [b.rng] * 2
    assert b.worlds('real', 5, quiet=False) == [('a', False), ('b', False), ('c', False)]
    assert b.worlds('real', 0) == []
    b.lost = True
    assert b.worlds('real', 3) == [] and len(drawn) == 5


def _dead(tag, matched):
    from .test_belief_update import world
    p = world(tag, matched)
    p.deal.plays = {0: tag}      # (each dealt otherwise: distinct keeps them all)
    p.score = (matched, 0)
    return p


def test_the_dead_are_mended_forward_only_until_size_live(monkeypatch):
    from .test_belief_update import END, Script, world
    for size, want in ((1, []), (2, ['d9'])):
        alive = world('alive', END + 1)
        s = Script(monkeypatch, particles=[alive, _dead('d3', 3), _dead('d9', 9)], size=size)
        mended = []
        s.b.forward = lambda p, end: mended.append(p.game.tag) is None
        s.b.update()
        assert mended == want and len(s.b.particles) == size


def test_at_most_repaired_of_the_dead_are_repaired_the_furthest_first(monkeypatch):
    from pipvm.game.belief.budgets import REPAIRED
    from .test_belief_update import END, Script, world
    dead = [_dead('d%d' % k, k) for k in (4, 9, 2, 7, 5, 8)]
    s = Script(monkeypatch, particles=[world('alive', END + 1)] + dead, size=10)
    s.b.forward = lambda p, end: False
    repaired = []
    s.b.repair = lambda p, end, replays: repaired.append((p.game.tag, replays)) and False
    s.b.update()
    assert REPAIRED < len(dead)
    assert repaired == [(t, REPAIRS // 10) for t in ('d9', 'd8', 'd7', 'd5', 'd4')[:REPAIRED]]
    # (half alive already: none is)
    s = Script(monkeypatch, particles=[world('alive', END + 1), _dead('d4', 4)], size=2)
    s.b.forward = lambda p, end: False
    s.b.repair = lambda p, end, replays: repaired.append(p) and False
    s.b.update()
    assert len(repaired) == REPAIRED and len(s.b.particles) == 2


def test_fresh_deals_are_tried_while_fewer_than_half_live(monkeypatch):
    from .test_belief_update import END, Script, world
    alive = world('alive', END + 1)
    s = Script(monkeypatch, particles=[alive, _dead('d4', 4)], size=3, deals=[END + 1, END + 1])
    s.b.forward = lambda p, end: False
    s.b.update()
    # (one of three lives: a fresh deal makes two, half of three rounded up)
    assert [p.game.tag for p in s.dealt] == ['fresh 0']
    assert s.b.particles[:2] == [alive, s.dealt[0]] and len(s.b.particles) == 3
    # (one of four: a fresh deal makes two, half)
    s = Script(monkeypatch, particles=[world('alive', END + 1)], size=4, deals=[END + 1] * 3)
    s.b.update()
    assert [p.game.tag for p in s.dealt] == ['fresh 0'] and len(s.b.particles) == 4
