"""sight.give by its contract: a decision answered as the real game was
(by its label), a name given as it was, False where the label is no option
or nothing waits; a card played unseen is answered as the world played it
before where that card is an option, and otherwise by a card drawn at
random from the options, noted in the world's plays."""
import random
from types import SimpleNamespace

from pipvm.game.belief.sight import give
from pipvm.game.kinds import CARD, NAME


class Game:
    def __init__(self, kind, options):
        self.decision = SimpleNamespace(kind=kind, options=tuple(options))
        self.answers = []

    def answer(self, i):
        self.answers.append(i)


def test_an_unseen_play_is_the_worlds_own_card_where_it_can_be():
    g = Game(CARD, ['A', 'B', 'C'])
    plays = {5: 'C'}
    assert give(g, (0, 'A'), (random.Random(1), plays, 5)) is True
    assert g.answers == [2] and plays == {5: 'C'}


def test_an_unseen_play_not_yet_made_or_not_possible_is_drawn_and_noted():
    drawn = set()
    for seed in range(30):
        for plays in ({}, {5: 'Z'}):
            g = Game(CARD, ['A', 'B', 'C'])
            assert give(g, (0, 'A'), (random.Random(seed), plays, 5)) is True
            (i,) = g.answers
            assert plays[5] == 'ABC'[i]
            drawn.add(i)
    assert drawn == {0, 1, 2}


def test_a_seen_answer_by_its_label_a_name_as_given_nothing_waiting_false():
    g = Game(CARD, ['A', 'B', 'C'])
    assert give(g, (0, 'B')) is True and g.answers == [1]
    assert give(Game(CARD, ['A']), (0, 'B')) is False
    g = Game(NAME, [])
    assert give(g, (None, 'Ann')) is True and g.answers == ['Ann']
    g.decision = None
    assert give(g, (0, 'A')) is False
