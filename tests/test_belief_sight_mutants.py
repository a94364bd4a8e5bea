"""sight.py's lookups by their contracts, case by case: freed (the free a
position's answer is given: a card played unseen, an ask answered blind,
or none), seen and seen_before (the cards seen since shuffle j, none for
j out of range), last_shuffle (a shuffle with no position noted counts as
before every one), and give's blind answers (tools/mutation-results/sight.tsv)."""
import random
from types import SimpleNamespace

from pipvm.game.belief.sight import Sight, give
from pipvm.game.kinds import CARD


def _sight(**fields):
    s = Sight()
    s.__dict__.update(fields)
    return s


def test_an_unseen_play_is_freed_first_then_a_blind_ask_else_nothing():
    rng, plays = random.Random(1), {}
    blind = SimpleNamespace(at={4: 'x', 6: 'y'})
    s = _sight(unseen_plays={3, 4}, blind=blind, rng=rng)
    assert s.freed(plays, 3) == (rng, plays, 3)
    f = s.freed(plays, 4)
    assert f == (rng, plays, 4) and f[0] is rng and f[1] is plays
    f = s.freed(plays, 6)
    assert f == (rng, plays, 6, blind) and f[3] is blind
    assert s.freed(plays, 5) is None
    assert _sight(unseen_plays=set(), blind=None, rng=rng).freed(plays, 6) is None


def test_the_cards_seen_since_a_shuffle_none_out_of_range():
    pins = [frozenset({1}), frozenset({2}), frozenset({3})]
    s = _sight(pins=pins, pins_before=pins[:2])
    assert [s.seen(j) for j in (-1, 0, 1, 2, 3)] == [frozenset()] + pins + [frozenset()]
    assert [s.seen_before(j) for j in (-1, 0, 1, 2)] == [frozenset()] + pins[:2] + [frozenset()]
    assert _sight(pins=[], pins_before=[]).seen(0) == frozenset()


def test_the_last_shuffle_before_a_position():
    s = _sight(shuffled_at={0: 0, 1: 5, 2: 9})
    orders = [[0], [1], [2]]
    assert [s.last_shuffle(orders, h) for h in (0, 1, 5, 6, 9, 10)] == [0, 0, 0, 1, 1, 2]
    assert s.last_shuffle(orders, 0, default=-1) == -1
    assert s.last_shuffle(orders[:2], 10) == 1
    # (a shuffle with no position noted was before every position, 0 too)
    assert _sight(shuffled_at={}).last_shuffle(orders, 0, default=7) == 2
    assert _sight(shuffled_at={1: 4}).last_shuffle(orders[:2], 3, default=7) == 0


class _Game:
    def __init__(self, options):
        self.decision = SimpleNamespace(kind=CARD, options=tuple(options))
        self.answers = []

    def answer(self, i):
        self.answers.append(i)


class _Blind:
    def __init__(self, i):
        self.i, self.asked = i, []

    def answer(self, g, h, rng):
        self.asked.append((g, h, rng))
        return self.i


def test_a_blind_ask_is_answered_as_the_world_did_or_as_blind_says():
    rng = random.Random(2)
    g, blind, plays = _Game(['A', 'B', 'C']), _Blind(1), {7: 'C'}
    assert give(g, (0, 'A'), (rng, plays, 7, blind)) is True
    assert g.answers == [2] and blind.asked == [] and plays == {7: 'C'}
    g, plays = _Game(['A', 'B', 'C']), {}
    assert give(g, (0, 'A'), (rng, plays, 7, blind)) is True
    assert g.answers == [1] and plays == {7: 'B'} and blind.asked == [(g, 7, rng)]
    # (none it may ask: False, nothing answered nor noted)
    g, plays = _Game(['A', 'B']), {}
    assert give(g, (0, 'A'), (rng, plays, 3, _Blind(None))) is False
    assert g.answers == [] and plays == {}


def test_a_seen_answer_takes_the_real_games_choice_where_it_has_the_label():
    g = _Game(['A', 'B', 'A'])
    assert give(g, (2, 'A')) is True and g.answers == [2]
    assert give(g, (1, 'A')) is True and g.answers == [2, 0]
    assert give(g, (5, 'A')) is True and g.answers == [2, 0, 0]


def _games(name, seed, decisions):
    import os
    from .util import seat_one_decisions
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return seat_one_decisions(os.path.join(root, 'examples', name + '.pip'), seed, decisions)


def _check_view(b, game):
    # one observation a position, the history as of this decision
    assert len(b.trace) == len(game.history) + 1 and b.history == game.history
    # each shuffle after the set-up noted at its position, in order
    shuffles = len(b.shadow.machine.shuffles)
    assert sorted(b.shuffled_at) == list(range(1, shuffles))
    assert sorted(b.shuffled_at.values()) == [b.shuffled_at[j] for j in range(1, shuffles)]
    # an unseen play is another player's (the seat sees its own), noted with who played
    assert set(b.played_by) == b.unseen_plays
    assert set(b.played_by.values()) <= {'P1', 'P2', 'P3'}


def _state(b):
    return (b.trace, b.shuffled_at, b.unseen_plays, b.played_by, b.pins, b.pins_before,
            b.particles, b.lost, b.history, b.blind.at, len(b.shadow.history))


def test_a_new_game_starts_the_seats_view_all_again():
    from pipvm.game.belief import Belief
    b = Belief(0, 4, random.Random(1))
    for game in _games('euchre', 2, 20):
        b.follow_real(game)
        _check_view(b, game)
    # (the first game's view holds something of each kind: Euchre shuffles
    # every hand, and a player's discard is unseen)
    assert b.trace and b.shuffled_at and b.unseen_plays and b.played_by and b.pins
    b.particles, b.lost = ['a world of the first game'], True
    fresh = Belief(0, 4, random.Random(1))
    for game in _games('euchre', 3, 6):
        b.follow_real(game)
        fresh.follow_real(game)
        assert _state(b) == _state(fresh) and b.real is game and b.states is game.machine.shuffles
    assert b.particles == [] and b.lost is False


def test_the_same_game_followed_on_keeps_the_worlds_and_plays_the_shadow_on():
    from pipvm.game.belief import Belief
    b = Belief(0, 4, random.Random(1))
    worlds, shadow = ['a world'], None
    for game in _games('euchre', 2, 6):
        b.follow_real(game)
        # (at the next decision: the worlds kept, the shadow the same, played on)
        assert shadow is None or (b.particles is worlds and b.shadow is shadow)
        shadow, trace = b.shadow, list(b.trace)
        b.particles = worlds
        # (at the same decision again: nothing changes)
        b.follow_real(game)
        assert b.shadow is shadow and b.trace == trace and b.particles is worlds
        # (the shadow played on to the game's decision, one observation a position)
        assert b.shadow.history == game.history and len(b.trace) == len(game.history) + 1
