"""trades.py's deal functions by their contracts, case by case: named_deals
(an unseen play made a given card, alone, exchanged with an earlier play
of it, or with also's plays made it too), traded_in (two cards trading
places in one shuffle's order, the unseen plays of its window following
them) and follow's window (tools/mutation-results/trades.tsv)."""
from pipvm.game.belief.clues import NAMES
from pipvm.game.belief.particles import Deal
from pipvm.game.belief.trades import dealt_by, follow, named_deals, traded_in


def _plays(out):
    return [(d.plays, h) for d, h in out]


def test_an_unseen_play_named_alone_and_exchanged_with_an_earlier_play_of_that_card():
    deal = Deal([[0, 1]], [[0, 1]], {2: 'A', 5: 'B', 7: 'C', 9: 'A'})
    out = named_deals(deal, 7, 'A')
    # (9 played A later: not exchanged; 5 played another card)
    assert _plays(out) == [({2: 'A', 5: 'B', 7: 'A', 9: 'A'}, 7),
                           ({2: 'C', 5: 'B', 7: 'A', 9: 'A'}, 2)]
    assert deal.plays == {2: 'A', 5: 'B', 7: 'C', 9: 'A'}      # (the deal given is untouched)
    assert all(d.orders == [[0, 1]] and d.orders[0] is not deal.orders[0] for d, _ in out)
    # (every earlier play of it, in order)
    assert _plays(named_deals(Deal(plays={1: 'A', 3: 'A', 4: 'C'}), 4, 'A')) == [
        ({1: 'A', 3: 'A', 4: 'A'}, 4), ({1: 'C', 3: 'A', 4: 'A'}, 1), ({1: 'A', 3: 'C', 4: 'A'}, 3)]


def test_an_unseen_play_not_yet_made_is_named_alone_and_also_makes_the_others_it():
    deal = Deal(plays={2: 'A', 5: 'B'})
    # (h has played nothing in this world yet: no play to exchange with 2's)
    assert _plays(named_deals(deal, 8, 'A')) == [({2: 'A', 5: 'B', 8: 'A'}, 8)]
    assert _plays(named_deals(deal, 8, 'B', also=(2, 5))) == [
        ({2: 'A', 5: 'B', 8: 'B'}, 8), ({2: 'B', 5: 'B', 8: 'B'}, 2), ({2: 'A', 5: 'B', 8: 'B'}, 5)]
    assert named_deals(deal, 5, 'B', also=(2,))[1][0].plays == {2: 'B', 5: 'B'}
    assert deal.plays == {2: 'A', 5: 'B'}


def test_a_trade_in_a_shuffles_order_moves_the_unseen_plays_of_its_window():
    a, b = NAMES[0], NAMES[3]
    orders = [[0, 1, 2, 3], [3, 4], [0, 5]]
    deal = Deal(orders, orders, {1: a, 3: b, 6: a, 8: b, 12: a})
    at = {0: 2, 1: 6, 2: 10}
    d = traded_in(deal, 0, 0, 3, at)
    # (shuffle 0 deals them from 2; shuffle 1 deals card 3 again at 6)
    assert d.orders == [[3, 1, 2, 0], [3, 4], [0, 5]] and d.drawn == orders
    assert d.plays == {1: a, 3: a, 6: b, 8: b, 12: a}
    assert deal.orders == orders and deal.plays == {1: a, 3: b, 6: a, 8: b, 12: a}
    assert traded_in(deal, 0, 0, 3, at, pinned=(3,)).plays == {1: a, 3: b, 6: b, 8: b, 12: a}
    # (the last shuffle: every later play; the others' orders as they were)
    d = traded_in(deal, 2, 5, 0, at)
    assert d.orders == [orders[0], orders[1], [5, 0]]
    assert d.plays == {1: a, 3: b, 6: a, 8: b, 12: NAMES[5]}
    d = traded_in(Deal(orders, orders, {11: a, 12: NAMES[5]}), 2, 5, 0, at)
    assert d.plays == {11: NAMES[5], 12: a}


def test_a_window_is_open_below_and_closed_above():
    a, b = NAMES[7], NAMES[9]
    plays = {1: a, 2: b, 4: a, 5: 'x', 6: b}
    assert follow(plays, 7, 9, (1, 4)) == {1: a, 2: a, 4: b, 5: 'x', 6: b}
    assert follow(plays, 7, 9, (1, None)) == {1: a, 2: a, 4: b, 5: 'x', 6: a}
    assert follow(plays, 7, 9, (1, None), pinned=(2, 6)) == {1: a, 2: b, 4: b, 5: 'x', 6: b}
    assert follow(plays, 9, 7, (-1, 1)) == {1: b, 2: b, 4: a, 5: 'x', 6: b}
    # (a shuffle with no position noted starts before every play)
    assert dealt_by([[0], [1], [0]], 1, (1,), {2: 8}) == (-1, None)
    assert dealt_by([[0], [1], [0]], 0, (0, 1), {0: 3, 1: None, 2: 8}) == (3, 8)
