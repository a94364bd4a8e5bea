"""replay.py's cases the rest of the suite leaves open (its mutation
testing, tools/mutation.py): replay_named's bounds, the holder's earlier
plays it also tries, its two bases and its rounds, on
test_belief_replay_named.py's scripted replays; the unseen plays flow
notes for the relabelling (flow.plays), on test_belief_flow.py's."""
from types import SimpleNamespace

from pipvm.game.belief import clues, replay
from pipvm.game.belief.clues import NAMES
from pipvm.game.belief.particles import Deal, Particle
from pipvm.game.determinize import DECK_INDEX
from pipvm.game.kinds import CARD

from . import test_belief_flow as flows
from . import test_belief_replay_named as named
from .test_belief_replay_named import D3, D4, END, KH, TC


def test_replay_named_tries_the_latest_most_plays_only(monkeypatch):
    # replay_named: of five unseen plays only the latest four (most) are made the card named
    s = named.Script(monkeypatch, unseen={1, 2, 3, 4, 5},
                     score=lambda plays: END + 1 if plays[1] == KH else 1)
    p = named.particle({h: D3 for h in range(1, 6)})
    assert s.b.replay_named(p, END) is False
    assert [[h for h, c in t.items() if c == KH] for t in s.tried] == [[5], [4], [3], [2]]


def test_replay_named_also_makes_the_holders_latest_four_earlier_plays_the_card(monkeypatch):
    # replay_named's also: the named card in Bob's hand, his latest four unseen plays before h
    s = named.Script(monkeypatch, unseen={20})
    monkeypatch.setattr(clues, 'places', lambda m: {DECK_INDEX[KH]: ('hand', 'Bob')})
    s.b.played_by = {2: 'Bob', 4: 'Cleo', 6: 'Bob', 8: 'Bob', 10: 'Bob', 12: 'Bob',
                     14: 'Bob', 16: 'Cleo', 20: 'Bob', 25: 'Bob'}
    p = named.particle({20: D3})
    assert s.b.replay_named(p, END) is False
    assert s.tried == [{20: KH}] + [{20: KH, k: KH} for k in (14, 12, 10, 8)]


def test_replay_named_also_none_where_the_card_is_in_no_hand(monkeypatch):
    # replay_named's also: a card held nowhere, or not in a hand, makes no earlier play it
    for places in ({}, {DECK_INDEX[KH]: ('area', 'Bob')}):
        s = named.Script(monkeypatch, unseen={20})
        monkeypatch.setattr(clues, 'places', lambda m: places)
        s.b.played_by = {8: 'Bob', 14: 'Bob', 20: 'Bob'}
        assert s.b.replay_named(named.particle({20: D3}), END) is False
        assert s.tried == [{20: KH}]


def test_replay_named_replays_p_and_the_snapped_deal_each_from_its_shuffle(monkeypatch):
    # replay_named's bases: p's deal from the shuffle before h, the snapped one from its move
    s = named.Script(monkeypatch, unseen={20})
    s.b.shuffled_at = {0: -1, 1: 10, 2: 30}
    snapped = Deal([[0], [1], [2]], plays={5: TC, 20: D4})
    s.b.snapped_deal = lambda deal: (snapped, 0)
    restarts = []

    def restart(q, j, deal):
        restarts.append((q, j, deal.plays))
        return Particle(SimpleNamespace(machine=None), deal, 0)
    s.b.restart = restart
    p = named.particle({20: D3})
    p.deal.orders = [[0], [1], [2]]
    assert s.b.replay_named(p, END) is False
    assert restarts == [(p, 1, {20: KH}), (p, 0, {5: TC, 20: KH})]
    assert snapped.plays == {5: TC, 20: D4}


def _restart(s, kind, deck, hand):
    """Script s's restart, its world at a decision of kind whose player holds hand."""
    def restart(q, j, deal):
        s.restarts.append(j)
        g = SimpleNamespace(history=[], decision=SimpleNamespace(kind=kind),
                            machine=SimpleNamespace(deck=deck, pending=SimpleNamespace(
                                player=SimpleNamespace(hand=hand))))
        r = Particle(g, deal, 0)
        r.obs = s.obs
        return r
    return restart


def test_flow_notes_each_unseen_play_that_took_one_card_from_its_players_hand(monkeypatch):
    # flow.plays: (position, hand before, card gone) of the unseen plays at a card decision only
    s = flows.Script(monkeypatch, 0, False)
    s.b.unseen_plays = {1, 3, flows.D}
    deck = [SimpleNamespace(name=n) for n in NAMES]
    hand = [deck[10], deck[11], deck[12], deck[13]]
    # 3: a play that took no card; D, the difference, is not replayed
    taken = {1: [deck[10]], 2: [deck[11]], 3: [], flows.D: [deck[12]]}

    def give(g, answer, free):
        h = len(g.history)
        assert answer == 'answer %d' % h and (free is not None) == (h in (1, 3))
        assert h < flows.D
        for c in taken.get(h, ()):
            hand.remove(c)
        g.history.append(answer)
        return True
    s.b.restart = _restart(s, CARD, deck, hand)
    monkeypatch.setattr(replay, 'give', give)
    flow, required = s.run()
    assert flow.plays == [(1, [10, 11, 12, 13], 10)]
    assert len(flow.named) == flows.D + 1


def test_flow_notes_no_play_at_a_decision_not_of_cards(monkeypatch):
    # flow.plays: an unseen answer at a decision of another kind is not a play of a card
    s = flows.Script(monkeypatch, 0, False)
    s.b.unseen_plays = {1}
    deck = [SimpleNamespace(name=n) for n in NAMES]
    hand = [deck[10], deck[11]]

    def give(g, answer, free):
        if len(g.history) == 1:
            hand.remove(deck[10])
        g.history.append(answer)
        return True
    s.b.restart = _restart(s, 'choice', deck, hand)
    monkeypatch.setattr(replay, 'give', give)
    assert s.run()[0].plays == []


def test_replay_named_rounds_keep_only_a_world_that_gets_further(monkeypatch):
    # replay_named's better: with rounds left, a world as far as p is not kept (p untouched, False)
    s = named.Script(monkeypatch, unseen={3, 5}, score=lambda plays: 30)
    p = named.particle({3: D3, 5: D4}, matched=30)
    assert s.b.replay_named(p, END, rounds=2) is False
    assert p.deal.plays == {3: D3, 5: D4} and p.base is not None
    assert len(s.tried) == 2                    # one round: nothing further, no second
