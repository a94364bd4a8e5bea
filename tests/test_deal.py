"""DEAL's batched and card-by-card paths (the fuzzer compares them with the
reference; these pin down what it found hard to reach)."""
import random

import pytest

from compiler.pip import frontend
from pipvm.isa import opcodes
from pipvm.isa.opcodes import DEAL_ALL
from pipvm.core import runtime
from pipvm.engine import generated_cases, vm

from .fuzz import harness


class CountingList(list):
    pops = 0

    def pop(self, *args):
        CountingList.pops += 1
        return super().pop(*args)


def test_a_huge_deal_onto_its_own_source_ends_at_once():
    # `deal N from p to ...` with N in the billions (after a runaway `n *= n`):
    # moving a card onto the list it came from changes nothing, so the VM
    # must not go round N times.
    program = harness.compile_checked(frontend.check_text('Game "g" requires 2 players.\nAction main { }\n'))
    machine = vm.Machine(vm.Image(program), None, None)
    ada, ben = runtime.Player('Ada'), runtime.Player('Ben')
    ada.hand = CountingList(runtime.new_deck()[:5])
    before = list(ada.hand)
    generated_cases.op_DEAL(machine, [ada, ada, 10 ** 5], None, 0)
    assert ada.hand == before and CountingList.pops == 0
    # To both: every other card goes to Ben, the rest back onto Ada's hand.
    generated_cases.op_DEAL(machine, [ada, [ada, ben], 10 ** 30], None, opcodes.DEAL_TO_PLAYERS)
    assert ada.hand == [] and ben.hand == before[::-1] and CountingList.pops <= 10


def test_a_deal_to_one_destination_is_the_reference_s_card_by_card_deal():
    # the one-destination path against the reference's way: each card in
    # turn from the front of the source to the top of the destination
    from pipvm.engine import bodies
    deck = runtime.new_deck()
    for count in (None, 0, 1, 3, 7, 52, 60, -2):
        for held in (0, 4):
            source, dest = list(deck[:7]), list(deck[40:40 + held])
            bodies.deal(source, [dest], count)
            want_source, want_dest = list(deck[:7]), list(deck[40:40 + held])
            n = len(want_source) if count is None else count
            for _ in range(max(0, min(n, len(want_source)))):
                want_dest.insert(0, want_source.pop(0))
            assert (source, dest) == (want_source, want_dest), (count, held)
            # (DEAL's own text for one destination, instructions.DEAL_TO: the same)
            source, dest = list(deck[:7]), list(deck[40:40 + held])
            _deal_to(source, dest, count)
            assert (source, dest) == (want_source, want_dest), (count, held)
    # onto its own source: nothing moves
    for source in (list(deck[:7]), runtime.Player('Ada')):
        (source.hand if type(source) is runtime.Player else source)[:] = deck[:7]
        for count in (None, 3):
            _deal_to(source, source, count)
            assert runtime.cards_of(source) == deck[:7]


def _deal_to(source, dest, count):
    """DEAL (its generated handler) to one hand or area."""
    stack = [source, dest] + ([] if count is None else [count])
    assert generated_cases.op_DEAL(None, stack, None, DEAL_ALL if count is None else 0) is None
    assert stack == []


def test_a_deal_to_one_destination_makes_no_list_of_destinations(monkeypatch):
    # (DEAL to a hand or area calls deal_to, deal only for players)
    program = harness.compile_checked(frontend.check_text('Game "g" requires 2 players.\nAction main { }\n'))
    machine = vm.Machine(vm.Image(program), None, None)
    ada, ben = runtime.Player('Ada'), runtime.Player('Ben')
    ada.hand, ben.hand = runtime.new_deck()[:5], []
    monkeypatch.setattr(generated_cases, 'deal', None)
    generated_cases.op_DEAL(machine, [ada, ben, 2], None, 0)
    assert [c.name for c in ben.hand] == ['Two of Clubs', 'Ace of Clubs'] and len(ada.hand) == 3


def test_a_deal_to_several_is_card_by_card_when_a_hand_is_the_source_or_listed_twice():
    # card i (from 1) to the top of dests[i mod k], one at a time: the
    # batched path where no hand is shared, the reference's otherwise
    from pipvm.engine import bodies
    deck = runtime.new_deck()
    for shape in ('apart', 'source among them', 'one twice'):
        for count in (None, 0, 1, 2, 5):
            lists = [list(deck[:9]), list(deck[20:22]), list(deck[30:31]), []]
            def picks(ls):
                source, a, b, c = ls
                return source, {'apart': [a, b, c], 'source among them': [a, source, b],
                                'one twice': [a, b, a]}[shape]
            source, dests = picks(lists)
            bodies.deal(source, dests, count)
            want = [list(deck[:9]), list(deck[20:22]), list(deck[30:31]), []]
            w_source, w_dests = picks(want)
            n = len(w_source) if count is None else count * len(w_dests)
            for i in range(1, n + 1):
                if not w_source:
                    break
                w_dests[i % len(w_dests)].insert(0, w_source.pop(0))
            assert lists == want, (shape, count)


def test_the_batched_deal_is_card_by_card_for_every_size_count_and_table():
    # the batched paths (one slice per hand, from the last card it gets)
    # against the reference's card-by-card deal, over sizes, counts (none,
    # negative, past the end) and numbers of hands, some already holding cards
    from pipvm.engine import bodies
    deck, draw = runtime.new_deck(), random.Random(3)
    for _ in range(3000):
        k = draw.randint(1, 6)
        count = draw.choice([None, draw.randint(-2, 16)])
        take = [draw.randint(0, 4) for _ in range(k)]
        size = draw.randint(0, 20)
        lists = [list(deck[:size])] + [list(deck[30 + 4 * j:30 + 4 * j + take[j]])
                                       for j in range(k)]
        want = [list(x) for x in lists]
        bodies.deal(lists[0], lists[1:], count)
        n = len(want[0]) if count is None else count * k
        for i in range(1, n + 1):
            if not want[0]:
                break
            want[1 + i % k].insert(0, want[0].pop(0))
        assert lists == want, (size, k, count, take)
    # (each size's plan made once, its hands' slices made with it)
    deck = runtime.new_deck()
    bodies.deal(deck, [[], [], [], []], 13)
    plan = bodies._DEALS[52, 4]
    bodies.deal(runtime.new_deck(), [[], [], [], []], 13)
    assert bodies._DEALS[52, 4] is plan and all(type(taken) is slice for _, taken in plan)


def test_move_takes_the_very_card_wherever_it_is_and_fails_without_it():
    from pipvm.core import runtime
    from pipvm.core.errors import Fault
    from pipvm.engine.bodies import move
    twins = [runtime.Card(rank=1, suit=None) for _ in range(3)]    # (alike, three cards)
    source, dest = [twins[0], 5, twins[1], twins[2]], ['x']
    move(twins[1], source, dest, 'missing')
    assert source == [twins[0], 5, twins[2]] and source[0] is twins[0] and dest[0] is twins[1]
    with pytest.raises(Fault, match='missing'):
        move(twins[1], source, dest, 'missing')
    move(5, source, dest, 'missing')         # (not a Card: compared as before)
    assert source == [twins[0], twins[2]] and dest[:2] == [5, twins[1]]


def test_cards_of_ranks_are_those_whose_rank_as_a_rank_is_one_of_them():
    # bodies.wild_suit (`9..K,A~%`): a card whose rank is a Number stored in
    # it is taken by as_rank, which fails at the first one out of range
    from pipvm.engine import bodies
    from pipvm.core.errors import Fault
    from pipvm.core.runtime import RANKS, SUITS, Card, as_rank

    def by_as_rank(deck, ranks):            # (the definition, card by card)
        ranks = [as_rank(r) for r in runtime.items(ranks)]
        return [c for c in deck if as_rank(c.rank) in ranks]

    def outcome(f, deck, ranks):
        try:
            return [id(c) for c in f(deck, ranks)]
        except Fault as e:
            return str(e)

    rng = random.Random(3)
    faults = 0
    for _ in range(500):
        deck = [Card(RANKS[r], s, None, RANKS[r], s, 'x') for s in SUITS for r in range(1, 14)]
        for c in rng.sample(deck, rng.randrange(4)):
            c.rank = rng.choice([0, 1, 5, 13, 14, -3, RANKS[3]])
        ranks = rng.choice([RANKS[rng.randrange(1, 14)], 7,
                            [rng.randrange(1, 14) for _ in range(3)],
                            [RANKS[rng.randrange(1, 14)] for _ in range(rng.randrange(5))]])
        expected = outcome(by_as_rank, deck, ranks)
        faults += type(expected) is str
        assert outcome(bodies.wild_suit, deck, ranks) == expected
    assert 0 < faults < 500


def test_cards_of_ranks_of_a_dealt_deck_are_picked_by_their_places():
    # bodies.wild_suit on a deck whose ranks are as new_deck made them
    # (Euchre's `9..K,A~%` at every hand) picks the places kept for the set
    # of ranks: from the deck it is given, and not once a card's rank differs
    from pipvm.engine import bodies
    from pipvm.core.runtime import RANKS, new_deck

    nines_up = [RANKS[9], RANKS[10], 11, RANKS[12], RANKS[13], RANKS[1]]
    for _ in range(2):                          # (the second from the kept places)
        deck = new_deck()
        got = bodies.wild_suit(deck, list(nines_up))
        assert [id(c) for c in got] == [id(c) for c in deck if c.rank in set(nines_up)]
        assert len(got) == 24
    assert frozenset(RANKS[r] for r in (1, 9, 10, 11, 12, 13)) in bodies._PICKS
    assert [c.name for c in bodies.wild_suit(deck, RANKS[7])] == [
        'Seven of Clubs', 'Seven of Hearts', 'Seven of Spades', 'Seven of Diamonds']
    deck[6].rank = 9                            # (the Seven of Clubs is a Nine now)
    assert deck[6] not in bodies.wild_suit(deck, RANKS[7])
    assert deck[6] in bodies.wild_suit(deck, [RANKS[9]])
    deck[8].rank = RANKS[9]                     # (as it was: a Number equal to its rank)
    deck[6].rank = 7
    assert [c.name for c in bodies.wild_suit(deck, 9)] == [
        'Nine of Clubs', 'Nine of Hearts', 'Nine of Spades', 'Nine of Diamonds']


def test_deal_s_body_holds_deal_to_written_out_not_called():
    # DEAL to one hand or area runs the table's one text of it in its body
    # (one Python call fewer an Oh Hell answer): no function holds it
    # again, and the generated handlers import none
    import textwrap
    from pipvm.engine import bodies
    from pipvm.isa import instructions
    deal_body = instructions._FILE_BY_NAME['DEAL'].body
    assert textwrap.indent(instructions.DEAL_TO, '    ') in deal_body
    assert 'deal_to' not in generated_cases.op_DEAL.__code__.co_names
    assert not hasattr(bodies, 'deal_to') and not hasattr(generated_cases, 'deal_to')
