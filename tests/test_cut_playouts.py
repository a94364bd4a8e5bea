"""Playouts cut at the game's next shuffle (pipvm/game/standing.py): they
stop exactly where a full playout would shuffle, the same on every engine;
their reward reads the standing the right way round; a game whose scores
say nothing is played out in full; a game that never shuffles again is cut
after DEPTH answers a seat and rewarded by its Evaluation when the bot
asks for it (`:deep`), and played out in full otherwise; and the seat
options `:cut` and `:deep` round-trip."""
import math
import os
import random

import pytest

from pipvm.core.errors import PipError
from pipvm.core.rng import OCamlRandom
from pipvm.engine.vm import Image
from pipvm.game import standing
from pipvm.game.game import Game
from pipvm.play import bots, loader
from pipvm.play.seats import SeatSpec, parse_kind
from pipvm.records.record import _SEAT_KIND

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def example(name):
    return os.path.join(ROOT, 'examples', name + '.pip')


def states(image, n, seed=1):
    """n quiet forks of decisions with a choice, from a game answered at
    random, of 4 players where the game allows (Knockout Whist of 2 is
    over at the first hand anyone ends without a trick)."""
    program = image.program
    players = (4 if 4 in program.counts else program.counts[0]) * (program.team_size or 1)
    g = Game(image, seed=seed, players=players, names=['P%d' % i for i in range(players)],
             quiet=True)
    rng, out, k = random.Random(seed), [], 0
    while g.decision is not None and len(out) < n:
        if len(g.decision.options) > 1 and k % 5 == 0:
            out.append(g.fork(quiet=True))
        k += 1
        g.answer(rng.randrange(len(g.decision.options)))
    return out


def cut_and_full(state, seed, how=True):
    cut, full = state.fork(quiet=True), state.fork(quiet=True)
    reward = bots.rewards(cut, random.Random(seed), cut=how)
    bots.playout(full, random.Random(seed))
    return cut, full, reward


@pytest.mark.parametrize('name', ['euchre', 'oh_hell', 'spades', 'knockout_whist'])
def test_a_cut_playout_is_a_full_one_up_to_its_next_shuffle(name):
    image = Image(loader.load_program(example(name)))
    cuts = 0
    for i, state in enumerate(states(image, 6)):
        cut, full, reward = cut_and_full(state, i)
        start = len(state.history)
        assert cut.history == full.history[:len(cut.history)]
        if cut.ending is None:          # cut: the full playout shuffled right there
            cuts += 1
            assert len(cut.history) < len(full.history)
            assert len(full.machine.shuffles) > len(state.machine.shuffles)
            assert len(cut.machine.shuffles) == len(state.machine.shuffles) \
                or len(cut.history) > start
            assert all(0.0 <= r <= 1.0 for r in reward)
        else:
            assert reward == full.returns()
    assert cuts


def test_the_side_ahead_at_the_cut_is_rewarded_more():
    image = Image(loader.load_program(example('oh_hell')))
    sense = standing.sense_of(states(image, 1)[0], bots.playout)
    for i, state in enumerate(states(image, 6)):
        cut = state.fork(quiet=True)
        reward = bots.rewards(cut, random.Random(i), cut=True)
        if cut.ending is not None:
            continue
        values = [v for v, _ in standing.sides(cut.machine)]
        best, worst = values.index(max(values)), values.index(min(values))
        assert max(values) > min(values)
        assert reward[best] > reward[worst]
        assert sense.sense == 1


def test_a_low_score_wins_game_is_read_the_other_way():
    # Hearts: the lowest score wins
    image = Image(loader.load_program(example('three_hearts')))
    assert standing.sense_of(states(image, 1)[0], bots.playout).sense == -1


@pytest.mark.parametrize('name', ['president', 'go_fish'])
def test_a_one_deal_playout_is_cut_after_its_depth(name):
    image = Image(loader.load_program(example(name)))
    cuts = 0
    for i, state in enumerate(states(image, 6)):
        cut, full, reward = cut_and_full(state, i, 'deep')
        start = len(state.history)
        assert cut.history == full.history[:len(cut.history)]
        if cut.ending is None:
            cuts += 1
            assert len(cut.history) - start == standing.DEPTH * state.seats
            assert len(full.history) > len(cut.history)
            assert all(0.0 < r < 1.0 for r in reward) and sum(reward) == pytest.approx(1)
        else:
            assert reward == full.returns()
    assert cuts
    if name == 'president':             # no scores: the shuffle cut reads nothing
        assert standing.sense_of(state, bots.playout) is None


@pytest.mark.parametrize('name', ['president', 'go_fish'])
def test_a_one_deal_playout_is_played_out_in_full_without_deep(name):
    image = Image(loader.load_program(example(name)))
    for i, state in enumerate(states(image, 3)):
        cut, full, reward = cut_and_full(state, i)
        assert cut.history == full.history and reward == full.returns()


def test_a_one_deal_games_evaluation_reads_its_standing_the_right_way():
    from pipvm.game.evaluation import features
    for name, better, worse in [('president', (0, 2), (0, 9)), ('go_fish', (4, 5), (1, 5))]:
        image = Image(loader.load_program(example(name)))
        state = states(image, 1)[0]
        evaluation = standing.evaluation_of(state, bots.playout)
        sides = features(state.machine)
        for (score, hand), k in [(better, 0), (worse, 1)]:
            f, members = sides[k]
            sides[k] = (score, hand, math.log1p(hand), f[3]), members
        chances = evaluation.chances(sides)
        assert chances[0] > chances[1], (name, chances)


@pytest.mark.parametrize('name', ['euchre', 'oh_hell', 'spades'])
def test_games_that_shuffle_again_get_no_depth_cut(name):
    image = Image(loader.load_program(example(name)))
    assert standing.evaluation_of(states(image, 1)[0], bots.playout) is None


@pytest.mark.parametrize('name', ['euchre', 'knockout_whist', 'go_fish', 'president'])
def test_cut_playouts_are_the_same_on_every_engine(name):
    program = loader.load_program(example(name))
    seen = []
    for compiled in (False, True):
        image = Image(program, compiled=compiled)
        out = []
        for i, state in enumerate(states(image, 5)):
            cut, _, reward = cut_and_full(state, i, 'deep')
            out.append((cut.history, reward, cut.ending and cut.ending.kind))
        seen.append(out)
    assert seen[0] == seen[1]


def test_a_cut_bot_decides_reproducibly_and_cheaper():
    image = Image(loader.load_program(example('euchre')))
    state = states(image, 2)[1]
    picks = set()
    for _ in range(2):
        bot = bots.make('ismcts', 40, random.Random(3), cut=True)
        picks.add(bot.choose(state, state.decision))
    assert len(picks) == 1 and 0 <= picks.pop() < len(state.decision.options)
    assert bot.pool == 2 and bot.cut


@pytest.mark.parametrize('text, spec', [
    ('ismcts:100:cut', SeatSpec('ismcts', iterations=100, cut=True)),
    ('ismcts:cut', SeatSpec('ismcts', cut=True)),
    ('mc:7:cut', SeatSpec('mc', iterations=7, cut=True)),
    ('ismcts:200:deep', SeatSpec('ismcts', iterations=200, cut='deep')),
    ('mc:deep', SeatSpec('mc', cut='deep')),
    ('ismcts:100', SeatSpec('ismcts', iterations=100))])
def test_the_cut_seat_option_round_trips(text, spec):
    assert parse_kind(text) == spec
    assert str(spec) == text
    assert _SEAT_KIND.fullmatch(text)


@pytest.mark.parametrize('text', ['ismcts:0:cut', 'ismcts:cut:100', 'ismcts:100:cuts', 'mc::cut',
                                  'ismcts:100:cut:deep', 'ismcts:deep:cut', 'ismcts:100:'])
def test_a_bad_cut_seat_is_refused(text):
    with pytest.raises(PipError):
        parse_kind(text)


def test_a_bare_ismcts_is_the_default_bot_ismcts_80_cut():
    spec = parse_kind('ismcts')
    assert spec == parse_kind('ismcts:cut') == SeatSpec('ismcts', cut=True)
    bot = spec.build(0, None, OCamlRandom(1)).thinker
    assert (type(bot), bot.iterations, bot.cut, bot.pool) == (bots.ISMCTS, 80, True, 4)
    assert parse_kind('mc') == SeatSpec('mc')            # mc:50, played out in full
