"""Which card each unseen play was, solved for at once (pipvm/game/relabel.py):
identities flow along the world's tokens and jump between two tokens only
at an unseen play of the hand holding both."""
from unittest import mock

import pytest

from pipvm.game import relabel

from tests.fuzz.test_relabel import holds, picked

# Tokens (the world's cards): Ann (the seat) holds 0 and 1; Bob 2, 3, 4; Cy
# 5, 6.  Position 1: Bob lays token 2 face down.  Position 2: Cy takes the
# pile up (token 2 goes to her hand).  Position 3: Cy lays token 2.
# Position 4: Ann calls and it is turned over: the world shows token 2, the
# seat saw card 3.  Card 3 must have been Bob's play at 1, then Cy's at 3.
ANN = [0, 1]


def cheat_flow():
    flow = relabel.Flow()
    flow.named = [ANN, ANN, ANN, ANN, ANN + [2]]
    flow.plays = [(1, [2, 3, 4], 2), (3, [5, 6, 2], 2)]
    return flow


def required(flow, shown):
    """Each named token carries itself, but at the last position, shown."""
    out = {(t, k): k for t, names in enumerate(flow.named) for k in names}
    out.update({(len(flow.named) - 1, k): x for k, x in shown.items()})
    return out


def test_a_card_turned_over_is_carried_back_along_the_plays_that_moved_it():
    flow = cheat_flow()
    # Bob's play was card 3, and so was Cy's (the pile she took up held it)
    assert relabel.solve(flow, required(flow, {2: 3})) == {0: 3, 1: 3}


def test_the_world_s_own_choices_are_kept_where_nothing_forces_a_change():
    flow = cheat_flow()
    assert relabel.solve(flow, required(flow, {})) == {0: 2, 1: 2}


def test_a_card_the_seat_holds_cannot_be_played_by_another():
    flow = cheat_flow()
    assert relabel.solve(flow, required(flow, {2: 0})) is None


def test_a_card_that_must_stay_in_the_hand_is_not_played():
    # card 3 is seen in Bob's hand... here: named at position 2 on token 3,
    # so Bob cannot have laid it at 1
    flow = cheat_flow()
    flow.named[2] = ANN + [3]
    assert relabel.solve(flow, required(flow, {2: 3})) is None


def test_a_card_is_played_at_its_last_chance_and_the_one_it_displaces_moves_on():
    # Bob lays at 1 (token 2) and at 3 (token 3); Cy takes each pile up (2
    # and 4) and lays at 5 (token 2) and at 7 (token 3); at 8 the seat sees
    # Cy's two cards turned over: 4 where the world had 2, 2 where it had 3
    flow = relabel.Flow()
    flow.named = [ANN] * 8 + [ANN + [2, 3]]
    flow.plays = [(1, [2, 3, 4], 2), (3, [3, 4], 3), (5, [5, 6, 2, 3], 2), (7, [5, 6, 3], 3)]
    chosen = relabel.solve(flow, required(flow, {2: 4, 3: 2}))
    assert chosen is not None and chosen[2] == 4 and chosen[3] == 2
    assert sorted((chosen[0], chosen[1])) == [2, 4]


# Small flows, found by a random search, whose solution the search reaches
# within exactly this many nodes: its forward check looks up to each card's
# next sighting (no further), from the plays after the one being chosen,
# and a card that cannot reach its next sighting from the hand is tried
# first. A weaker check or another order costs more nodes on each; the
# required identities are given in the order that once showed it (the
# search sorts each card's sightings itself).
EFFORT = [
    (5, [[0, 1, 2], [0, 1, 2], [], [0, 1], [0, 1]],
     [(2, [1], 1), (2, [0, 1, 2], 0), (3, [0, 1, 2], 2)],
     [((0, 0), 0), ((0, 1), 1), ((0, 2), 2), ((1, 0), 0), ((1, 2), 2), ((4, 1), 2)]),
    (7, [[1], [], [0], [0], [1, 2, 3], [3], [0, 2], [0, 1, 2], [0]],
     [(0, [0, 1, 2, 3], 0), (0, [1], 1), (4, [3], 3), (6, [0, 1], 1), (7, [0], 0),
      (7, [0, 1, 2, 3], 1)],
     [((2, 0), 1), ((4, 1), 0), ((4, 2), 2), ((5, 3), 3), ((6, 0), 1), ((6, 2), 2), ((7, 0), 0),
      ((7, 2), 2), ((8, 0), 0)]),
    (4, [[2, 3], [1], []],
     [(0, [0, 2], 2), (0, [0, 1], 1), (1, [0, 1, 4], 1), (2, [0, 1, 3, 4], 0)],
     [((1, 1), 0)]),
    (4, [[0], [], [0, 1, 2], [], [0, 1], [0, 1], [0, 1, 2], [0, 1, 2]],
     [(1, [0, 1, 2], 1), (1, [0, 1, 2], 2), (4, [0, 1], 0)],
     [((2, 2), 0), ((7, 1), 2), ((7, 2), 0), ((6, 1), 2), ((2, 1), 2), ((6, 0), 1), ((4, 0), 1),
      ((2, 0), 1), ((5, 1), 2), ((6, 2), 0), ((4, 1), 2), ((7, 0), 1), ((0, 0), 0)]),
]


@pytest.mark.parametrize('nodes, named, plays, given', EFFORT)
def test_the_search_finds_a_solution_within_the_nodes_its_checks_promise(nodes, named, plays,
                                                                           given):
    flow = relabel.Flow()
    flow.named, flow.plays = named, plays
    assert relabel.solve(flow, dict(given), nodes=nodes - 1) is None
    assert relabel.solve(flow, dict(given), nodes=nodes) is not None


@pytest.mark.parametrize('nodes, named, plays, given', EFFORT)
def test_the_exact_solve_finds_what_the_search_s_budget_misses(nodes, named, plays, given):
    flow = relabel.Flow()
    flow.named, flow.plays = named, plays
    assert relabel.solve(flow, dict(given), nodes=nodes - 1) is None
    for windows in ((1,), relabel.WINDOWS):
        found = relabel.solve_exact(flow, dict(given), windows=windows)
        assert found is not None and holds(flow, picked(flow, found), dict(given))


def test_the_exact_solve_keeps_the_world_s_plays_before_its_window():
    # card 3 turned over at 4 must have been Bob's play at 1: a window of
    # the last play alone (Cy's at 3) finds nothing, the whole flow does
    flow = cheat_flow()
    assert relabel._sat(flow, required(flow, {2: 3}), 1, relabel.CONFLICTS) is None
    assert relabel._sat(flow, required(flow, {2: 3}), 0, relabel.CONFLICTS) == [3, 2]
    assert relabel.solve_exact(flow, required(flow, {2: 3}), windows=(1,)) == {0: 3, 1: 3}


def test_the_exact_solve_finds_nothing_where_nothing_holds():
    flow = cheat_flow()
    assert relabel.solve_exact(flow, required(flow, {2: 0})) is None
    flow.named[2] = ANN + [3]
    assert relabel.solve_exact(flow, required(flow, {2: 3})) is None


def test_the_exact_solve_gives_up_at_its_conflict_budget():
    # (no small flow needs a conflict: the budget is seen handed over, and a
    # solver that stops at it is taken as finding nothing)
    from pysat import solvers
    budgets = []

    class Spent(solvers.Cadical153):
        def conf_budget(self, budget):
            budgets.append(budget)
            super().conf_budget(budget)

        def solve_limited(self, **kwargs):
            return None             # (what pysat answers when the budget runs out)
    flow = cheat_flow()
    given = required(flow, {2: 3})
    assert relabel.solve_exact(flow, given, windows=(1,), conflicts=77) is not None
    with mock.patch.object(solvers, 'Cadical153', Spent):
        assert relabel.solve_exact(flow, given, windows=(1,), conflicts=77) is None
    assert budgets == [77, 77]


def test_the_exact_solve_tries_the_last_plays_first_each_window_once():
    # three plays: a window of the last one (start 2), then all of them (a
    # window of 5 is all: start 0, tried once); the solver here finds nothing
    flow = relabel.Flow()
    flow.named = [ANN] * 4
    flow.plays = [(0, [2, 3], 2), (1, [2, 3], 3), (2, [2, 3], 2)]
    starts = []

    def nothing(flow, required, start, conflicts):
        starts.append(start)
    with mock.patch.object(relabel, '_sat', nothing):
        assert relabel.solve_exact(flow, {}, windows=(1, 5, 9)) is None
        assert relabel.solve_exact(flow, {}) is None
    assert starts == [2, 0, 0]


def test_the_exact_solve_frees_each_solver_it_makes():
    # (freed by _sat itself, not when the last reference goes: here the
    # test holds one)
    from pysat import solvers
    made = []

    class Held(solvers.Cadical153):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)
    flow = cheat_flow()
    with mock.patch.object(solvers, 'Cadical153', Held):
        assert relabel.solve_exact(flow, required(flow, {2: 3}), windows=(1,)) == {0: 3, 1: 3}
    assert len(made) == 2 and all(s.cadical is None for s in made)
