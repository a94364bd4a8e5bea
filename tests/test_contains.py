"""bodies.contains: `x in lst` as the reference answers it (a Rank, Number
or Suit also matches a card that has it)."""
import sys

from pipvm.core import runtime
from pipvm.engine import bodies


def _lines_run(fn, *args):
    """(fn(*args), the lines of fn's own code that ran)."""
    count = [0]

    def trace(frame, event, arg):
        if frame.f_code is fn.__code__:
            if event == 'line':
                count[0] += 1
            return trace
        return None
    sys.settrace(trace)
    try:
        result = fn(*args)
    finally:
        sys.settrace(None)
    return result, count[0]


def test_a_suit_in_a_hand_of_cards_is_asked_without_a_python_loop():
    # (`led in p->hand`, Oh Hell's every play: in C, not a line a card)
    deck = runtime.new_deck()
    hearts = runtime.SUIT_BY_LETTER['H']
    hand = [c for c in deck if c.suit is not hearts][:13]
    found, lines = _lines_run(bodies.contains, hand, hearts)
    assert found is False and lines < 10, lines
    assert bodies.contains(hand + [deck[13]], hearts) is (deck[13].suit is hearts)


def test_a_suit_in_a_list_not_only_of_cards_is_what_the_loop_says():
    deck = runtime.new_deck()
    clubs, hearts = runtime.SUIT_BY_LETTER['C'], runtime.SUIT_BY_LETTER['H']
    heart = next(c for c in deck if c.suit is hearts)
    club = next(c for c in deck if c.suit is clubs)
    for lst, want in (([clubs, heart], True), ([clubs], False), ([hearts], True),
                      ([3, 'x', None, club], False), ([club, 3, heart], True),
                      ([], False)):
        assert bodies.contains(lst, hearts) is want, lst
    # a card whose suit became a number matches no suit
    changed = runtime.Card(heart.rank, 2)
    assert bodies.contains([changed], hearts) is False
