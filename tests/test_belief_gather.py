"""Belief.gather by its contract: pairs of never-seen cards to trade, each
bringing a card of one of the groups (a rank, a suit) from outside the zone
into it in exchange for a zone's card outside the group; the zone's cards
that moved in the step go first, then those the world's own line named;
between one pair and as many as both sides allow; none where either side
is empty.

The pinned record (test_beliefs_pinned.py) sees where Go Fish's gathering
walks lead; what each proposal may hold is checked here, over many draws."""
import random

from pipvm.game.belief import Belief

GROUP = frozenset({1, 2, 3, 4})
ZONE = frozenset({3, 10, 11, 12, 13})


def gather(seed, hidden, moved=(), wrong=frozenset(), groups=(GROUP,)):
    b = Belief(0, 1, random.Random(seed))
    return b.gather((list(groups), ZONE, wrong), list(hidden), set(moved))


def test_each_pair_brings_a_group_card_into_the_zone_for_a_zone_card_outside_it():
    hidden = [1, 2, 3, 4, 5, 10, 11, 12, 13]
    sizes = set()
    for seed in range(200):
        pairs = gather(seed, hidden)
        assert pairs
        sizes.add(len(pairs))
        outs, ins = [a for a, b in pairs], [b for a, b in pairs]
        assert set(outs) <= {1, 2, 4} and set(ins) <= {10, 11, 12, 13}
        assert len(set(outs)) == len(outs) and len(set(ins)) == len(ins)
    assert sizes == {1, 2, 3}           # some, or as many as there are


def test_the_zones_cards_that_moved_go_first_then_those_the_world_named():
    hidden = [1, 2, 4, 10, 11, 12, 13]
    for seed in range(100):
        pairs = gather(seed, hidden, moved={12}, wrong=frozenset({13}))
        ins = [b for a, b in pairs]
        assert ins == [12, 13, 10, 11][:len(ins)] or ins == [12, 13, 11, 10][:len(ins)]


def test_nothing_to_bring_or_nothing_to_give_is_no_pair():
    for seed in range(100):
        assert gather(seed, [3, 5, 10, 11]) == []          # no group card outside the zone
        assert gather(seed, [1, 2, 3, 5]) == []            # no zone card outside the group
        assert gather(seed, [5, 6]) == []


def test_which_cards_pair_first_is_drawn_at_random():
    hidden = [1, 2, 3, 4, 5, 10, 11, 12, 13]
    firsts = {gather(seed, hidden)[0] for seed in range(200)}
    assert {a for a, b in firsts} == {1, 2, 4}
    assert {b for a, b in firsts} == {10, 11, 12, 13}
