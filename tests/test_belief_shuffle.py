"""Belief.shuffle (the particles' dealer) by its contract: shuffle j draws
as the real game's j-th shuffle did while there was one (its generator
state restored), from the world's own generator after that (its state
noted); a shuffle of players leaves an empty order and an empty draw for
j and forgets every later one; a shuffle of cards notes the real draw for
j and forgets the later draws, keeps deal's order for j where it holds the
same cards, and otherwise deals the never-seen cards anew, forgetting the
later orders; where the world brings the real shuffle's cards in another
order, it starts from the real shuffle's result instead of the real draws
on its own order.

The pinned record (test_beliefs_pinned.py) meets these in whole games,
where a later order is always cut before it is dealt; the cuts and the
edge after the real game's last shuffle are checked here."""
import random
from types import SimpleNamespace

from pipvm.core.rng import OCamlRandom
from pipvm.game.belief import Belief
from pipvm.game.belief.particles import Deal

CARDS = [SimpleNamespace(name='card %d' % i) for i in range(6)]


def machine(shuffles=0, seed=7):
    m = SimpleNamespace(deck=list(CARDS), rng=OCamlRandom(seed), shuffles=[])
    for _ in range(shuffles):
        m.shuffles.append((m.rng.state[:], m.rng.idx))
    return m


def belief(states=(), seen=(), real=()):
    """real: the real game's shuffles' results (deck indexes)."""
    b = Belief(0, 1, random.Random(3))
    b.states = list(states)
    b.pins = [frozenset(s) for s in seen]
    b.shadow = SimpleNamespace(machine=SimpleNamespace(dealer=SimpleNamespace(orders=list(real))))
    return b


def real_draw(state, idx, items):
    r = OCamlRandom.at(state, idx)
    r.shuffle(items)
    return items


def test_a_shuffle_after_the_real_games_last_draws_from_the_worlds_generator():
    m = machine(shuffles=1)
    own = OCamlRandom(7)                # the world's generator, as machine() left it
    real = OCamlRandom(99)
    b = belief(states=[(real.state[:], real.idx)])    # the real game shuffled once
    items = list(CARDS)
    deal = Deal([[0, 1, 2, 3, 4, 5]], [[0, 1, 2, 3, 4, 5]])
    b.shuffle(deal, m, items)
    assert m.shuffles[1] == (own.state[:], own.idx)
    assert deal.drawn[1] == [CARDS.index(c) for c in real_draw(own.state[:], own.idx, list(CARDS))]


def test_a_shuffle_the_real_game_made_draws_as_it_did():
    state = OCamlRandom(99)
    b = belief(states=[(state.state[:], state.idx)], seen=[set(range(6))])
    m = machine()
    items = list(CARDS)
    deal = Deal()
    b.shuffle(deal, m, items)
    assert items == real_draw(state.state[:], state.idx, list(CARDS))   # every card seen
    assert m.shuffles == [(state.state[:], state.idx)]
    assert deal.drawn == [[CARDS.index(c) for c in items]] == deal.orders


def test_a_shuffle_of_players_forgets_every_later_order_and_draw():
    players = [SimpleNamespace(name=n) for n in 'ABC']
    m = machine()
    deal = Deal([[0, 1], [2, 3]], [[1, 0], [3, 2]])
    items = list(players)
    belief().shuffle(deal, m, items)
    assert sorted(p.name for p in items) == ['A', 'B', 'C']
    assert deal.orders == [[]] and deal.drawn == [[]]


def test_a_deals_own_order_is_kept_and_only_the_later_draws_forgotten():
    m = machine()
    deal = Deal([[5, 4, 3, 2, 1, 0], [0, 1]], [[0, 1, 2, 3, 4, 5], [1, 0]])
    items = list(CARDS)
    belief().shuffle(deal, m, items)
    assert items == [CARDS[i] for i in (5, 4, 3, 2, 1, 0)]
    assert len(deal.drawn) == 1 and deal.orders[1] == [0, 1]


def test_other_cards_are_dealt_anew_the_seen_where_drawn_and_later_orders_forgotten():
    m = machine()
    deal = Deal([[0, 1], [2, 3]], [[0, 1], [2, 3]])
    items = list(CARDS)
    b = belief(seen=[{0, 5}])
    b.shuffle(deal, m, items)
    drawn = list(CARDS)
    OCamlRandom(7).shuffle(drawn)
    now = [CARDS.index(c) for c in items]
    assert deal.drawn == [[CARDS.index(c) for c in drawn]]
    assert deal.orders == [now]
    assert sorted(now) == list(range(6))
    hidden = [CARDS.index(c) for c in drawn if CARDS.index(c) not in (0, 5)]
    random.Random(3).shuffle(hidden)             # the belief's generator deals them
    for k, c in enumerate(drawn):
        if CARDS.index(c) in (0, 5):
            assert now[k] == CARDS.index(c)      # a seen card where the real draw put it
        else:
            assert now[k] == hidden.pop(0)


def test_the_real_shuffles_cards_in_another_order_start_from_its_result():
    # Oh Hell gathers the cards as the world's hands held them: the real
    # draws on that order would misplace the cards the seat has seen
    real = [3, 0, 5, 1, 4, 2]
    state = OCamlRandom(99)
    b = belief(states=[(state.state[:], state.idx)], seen=[{3, 2}], real=[real])
    m = machine()
    items = list(reversed(CARDS))
    deal = Deal()
    b.shuffle(deal, m, items)
    now = [CARDS.index(c) for c in items]
    assert deal.drawn == [real] and deal.orders == [now]
    assert now[0] == 3 and now[5] == 2          # the seen cards where the real game has them
    hidden = [0, 5, 1, 4]
    random.Random(3).shuffle(hidden)             # the others dealt anew
    assert now[1:5] == hidden
    # the world brings them in the real order: the real draws on it, as before
    drawn = real_draw(state.state[:], state.idx, list(CARDS))
    b = belief(states=[(state.state[:], state.idx)], seen=[set(range(6))],
               real=[[CARDS.index(c) for c in drawn]])
    items = list(CARDS)
    b.shuffle(Deal(), machine(), items)
    assert items == drawn
