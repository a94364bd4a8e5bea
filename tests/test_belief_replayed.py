"""Belief.replayed and window by their contracts, on a scripted search.

replayed first puts every card the seat has seen where the real draws
put it (snap) and is done if that world matches everywhere; otherwise
each of its steps tries `width` moves (proposal), takes the first that
matches everywhere, and otherwise keeps the best if it matches at least
as far (sideways allowed), the players it concerns (involved) guiding
the next step; False once the steps are spent or nothing can move.

window snaps first too, and hands the snapped world (or p itself, when
nothing needed snapping) to window_chain; p takes the snapped world only
if the chain matched everywhere or the snapped world got further.

The pinned record (test_beliefs_pinned.py) reaches these only where a
game's seen cards were already in place; here the scores are the test's."""
import random

from pipvm.game.belief import Belief
from pipvm.game.belief.particles import Deal, Particle

END = 50        # a world matching 51 matches everywhere


def world(matched, tag=None):
    return Particle(tag, Deal(), matched)


class Script:
    """snapped: the world snapped returns (None: every seen card in place);
    proposals: the worlds proposal returns in turn (then None)."""

    def __init__(self, snapped=None, proposals=()):
        self.b = b = Belief(0, 1, random.Random(1))
        self.snapped, self.proposals = snapped, list(proposals)
        self.calls = []
        b.snapped = self.snap
        b.proposal = self.proposal
        b.involved = lambda p: ('near', p.game)
        b.window_chain = self.chain
        self.chain_result = False

    def snap(self, p, end):
        assert end == END
        self.calls.append(('snap', p.game))
        return self.snapped

    def proposal(self, p, end, near):
        assert end == END
        self.calls.append(('propose', p.game, near))
        return self.proposals.pop(0) if self.proposals else None

    def chain(self, p, end):
        assert end == END
        self.calls.append(('chain', p.game))
        return self.chain_result


def test_a_snapped_world_that_matches_everywhere_ends_the_search_before_any_move():
    s = Script(snapped=world(END + 1, 'snapped'), proposals=[world(3, 'move')])
    p = world(5, 'p')
    assert s.b.replayed(p, END, steps=4) is True
    assert s.calls == [('snap', 'p')]
    assert p.game == 'snapped' and p.matched == END + 1


def test_a_snapped_world_short_of_the_end_is_taken_and_moved_from():
    # snapped is worse than p: it is taken all the same, and the moves start from it
    s = Script(snapped=world(2, 'snapped'), proposals=[world(END + 1, 'move')])
    p = world(5, 'p')
    assert s.b.replayed(p, END, steps=4) is True
    assert s.calls == [('snap', 'p'), ('propose', 'snapped', ('near', 'snapped'))]
    assert p.game == 'move'


def test_nothing_to_snap_leaves_p_and_the_moves_start_from_it():
    s = Script(snapped=None, proposals=[world(7, 'a'), world(6, 'b')])
    p = world(5, 'p')
    assert s.b.replayed(p, END, steps=1, width=2) is False
    assert s.calls[0] == ('snap', 'p')
    assert s.calls[1] == ('propose', 'p', ('near', 'p'))
    assert p.game == 'a' and p.matched == 7       # the better of the step's two


def test_the_steps_spent_give_false_not_none():
    s = Script(proposals=[world(4, str(k)) for k in range(6)])
    p = world(5, 'p')
    assert s.b.replayed(p, END, steps=3, width=2) is False
    assert len([c for c in s.calls if c[0] == 'propose']) == 6
    assert p.game == 'p'                           # every move was worse


def test_a_move_as_good_is_kept_and_guides_the_next_step():
    s = Script(proposals=[world(5, 'side'), world(END + 1, 'done')])
    p = world(5, 'p')
    assert s.b.replayed(p, END, steps=2, width=1) is True
    assert s.calls[1:] == [('propose', 'p', ('near', 'p')),
                           ('propose', 'side', ('near', 'side'))]


def test_nothing_that_can_move_gives_false():
    s = Script(proposals=[])
    p = world(5, 'p')
    assert s.b.replayed(p, END, steps=3) is False
    assert p.game == 'p'


def test_a_window_with_nothing_to_snap_chains_from_p_itself():
    s = Script(snapped=None)
    s.chain_result = True
    p = world(5, 'p')
    assert s.b.window(p, END) is True
    assert s.calls == [('snap', 'p'), ('chain', 'p')]


def test_a_window_keeps_the_snapped_world_only_if_it_got_further_or_the_chain_found():
    for matched, found, kept in ((6, False, True), (5, False, False), (4, False, False),
                                 (4, True, True)):
        q = world(matched, 'snapped')
        s = Script(snapped=q)
        s.chain_result = found
        p = world(5, 'p')
        p.base = 'the last decision'
        assert s.b.window(p, END) is found
        assert s.calls == [('snap', 'p'), ('chain', 'snapped')]
        assert (p.game == 'snapped') is kept, (matched, found)
        assert (p.base is None) is kept


def test_of_a_steps_moves_that_match_as_far_the_first_is_kept():
    s = Script(proposals=[world(6, 'first'), world(6, 'second')])
    p = world(5, 'p')
    assert s.b.replayed(p, END, steps=1, width=2) is False
    assert p.game == 'first'
