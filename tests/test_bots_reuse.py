"""ISMCTS with reuse keeps its tree from one of the seat's decisions to the
next (bots.ISMCTS.subtree): fair, since it walks the kept tree only by the
labels of answers the seat saw, and cheaper, since the visits kept count in
the budget."""
import os
import random

from pipvm.core.outcome import rewards
from pipvm.engine.vm import Image
from pipvm.game.belief import Belief
from pipvm.game.game import Game
from pipvm.play import bots, loader

from .test_bots import BOTS, GAMES, at_chance

HIDDEN = os.path.join(BOTS, 'hide_facedown.pip')   # the card played between is unseen
SHOWN = os.path.join(BOTS, 'hide_faceup.pip')      # the same card, played face up


def play(path, games=GAMES, iterations=20):
    """(games won by seat 1, games where it reused a tree) against a random seat 2."""
    image = Image(loader.load_program(path))
    wins = kept = 0
    for seed in range(games):
        bot = bots.ISMCTS(iterations, random.Random(seed), reuse=True)
        game = Game(image, seed=seed, players=2, names=['Ada', 'Ben'])
        while game.decision is not None:
            d = game.decision
            game.answer(bot.choose(game, d) if d.seat == 0 else game.rng.int(len(d.options)))
        wins += rewards(game)[0] == 1
        kept += bot.reused > 0
    return wins, kept


def test_a_kept_tree_is_not_walked_through_a_card_played_unseen():
    # its subtree under the real card's label holds the right colour's wins
    wins, kept = play(HIDDEN)
    assert at_chance(wins) and kept == 0, (wins, kept)


def test_the_fairness_test_catches_a_tree_walked_through_an_unseen_card(monkeypatch):
    monkeypatch.setattr(Belief, 'freed', lambda self, plays, h: None)
    wins, kept = play(HIDDEN)
    assert wins == GAMES and kept == GAMES


def test_a_tree_is_kept_across_answers_the_seat_saw():
    wins, kept = play(SHOWN)
    assert wins == GAMES and kept == GAMES


def test_kept_visits_count_in_the_budget_and_a_seed_fixes_the_game():
    image = Image(loader.load_program(os.path.join(os.path.dirname(BOTS), '..', '..',
                                                   'examples', 'go_fish.pip')))

    def game_of(reuse):
        bot = bots.ISMCTS(60, random.Random(5), reuse=reuse)
        fresh = []
        think = bot.think

        def counted(pool, decision, seats):
            out = think(pool, decision, seats)
            fresh.append(bot.fresh)
            return out
        bot.think = counted
        game = Game(image, seed=5, players=3, names=['A', 'B', 'C'], quiet=True)
        other = random.Random(5)
        while game.decision is not None and len(fresh) < 12:
            d = game.decision
            game.answer(bot.choose(game, d) if d.seat == 0 else other.randrange(len(d.options)))
        return game.history, fresh, bot.reused
    history, fresh, reused = game_of(True)
    assert reused > 0 and sum(fresh) < 60 * len(fresh)
    assert game_of(True) == (history, fresh, reused)
    assert all(n <= 60 for n in fresh)
