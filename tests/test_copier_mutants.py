"""The copier's paths no fork of the suite's games takes (tools/mutation.py's
survivors of pipvm/engine/copier.py): a loop's iteration state, a tuple, a
value it cannot copy, and the copies found without a call (the players and
teams it is given, a list whose items are all copied already)."""
import pytest

from pipvm.core.runtime import Player, Team
from pipvm.engine.copier import Copier

from tests.test_copier import table


class _Counted(Copier):
    """A copier that keeps what each call copied and each list `all` copied."""

    def __init__(self, *args):
        self.called, self.slow = [], []
        super().__init__(*args)

    def __call__(self, v):
        self.called.append(v)
        return super().__call__(v)

    def all(self, values):
        self.slow.append(values)
        return super().all(values)


def test_an_iterator_part_way_is_copied_with_its_own_list_and_place():
    deck, players, teams = table()
    items = [deck[0], players[0], deck[1]]
    loop = iter(items)
    next(loop)
    copy = Copier(deck, players, teams)
    new = copy(loop)
    assert type(new) is type(loop) and new is not loop
    assert list(new) == [copy.objs[players[0]], copy.deck[1]]
    assert list(loop) == [players[0], deck[1]]          # (the original's place kept)


def test_an_iterator_over_values_not_copied_yet_is_copied_item_by_item():
    deck, players, teams = table()
    numbers = [7, 'x', [deck[2]]]
    copy = Copier(deck, players, teams)
    new = copy(iter(numbers))
    assert list(new) == [7, 'x', [copy.deck[2]]]


def test_an_iterator_run_out_is_copied_run_out():
    deck, players, teams = table()
    loop = iter([deck[0]])
    next(loop)
    new = Copier(deck, players, teams)(loop)
    assert list(new) == []


def test_a_tuple_is_copied_item_by_item():
    deck, players, teams = table()
    copy = Copier(deck, players, teams)
    new = copy((deck[0], [deck[1]], 3))
    assert type(new) is tuple and new == (copy.deck[0], [copy.deck[1]], 3)


def test_a_value_of_no_kind_it_knows_is_refused_by_name():
    deck, players, teams = table()
    with pytest.raises(TypeError, match=r'^cannot copy 1\.5$'):
        Copier(deck, players, teams)(1.5)


def test_the_players_and_teams_given_are_found_without_a_call():
    # (made before any field is copied: a team's members, a player's team
    # and a card's last player are looked up, never copied by a call)
    deck, players, teams = table()
    copy = _Counted(deck, players, teams)
    assert not [v for v in copy.called if type(v) in (Player, Team)]
    assert copy.objs[players[0]].team is copy.objs[teams[0]]


def test_a_list_of_copies_made_already_is_copied_by_one_map():
    deck, players, teams = table()
    copy = _Counted(deck, players, teams)
    del copy.slow[:]
    hand = copy(players[0].hand + [])
    loop = copy(iter(players[0].hand))
    assert hand == copy.deck[:3] and list(loop) == copy.deck[:3]
    assert copy.slow == []
