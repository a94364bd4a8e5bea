"""The belief's search pinned at fixed seeds (tests/pinned_beliefs.py): the
worlds a thinking seat holds at each decision, and the answers, forks and
replays it spent finding them, are those recorded."""
import pytest

from . import pinned_beliefs as pinned

RECORDED = pinned.load()


@pytest.mark.parametrize('case', pinned.CASES, ids=lambda c: pinned.key(*c))
def test_the_belief_finds_the_worlds_recorded_at_the_cost_recorded(case):
    want = RECORDED[pinned.key(*case)]
    got = 0
    # decision by decision, so that the first difference ends the test
    for entry in pinned.record(*case):
        assert entry == want[got], (
            'decision %d: (worlds, only the nearest miss, particles, answers, forks, '
            'replays, deals) %s, recorded %s; if the search was meant to change, '
            '`python tools/pin_beliefs.py --write`' % (got + 1, entry, want[got]))
        got += 1
    assert got == len(want)
