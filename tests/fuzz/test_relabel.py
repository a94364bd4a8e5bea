"""relabel.solve against brute force, on small made-up flows.

A flow is a world's tokens up to its first difference: at each unseen play
a hand of tokens, one of which the world had leave; choosing another
exchanges the two tokens' identities from that play on.  Here every
choice of every play is tried (hands of at most four tokens, at most five
plays), with the required identities checked at each position before the
plays made there, as the seat observed them.  So the oracle knows the
semantics and nothing of the search: solve's answer must replay to every
required identity; it must find one whenever one exists; and where the
world's own choices already hold, it must keep them.  The exact solve (a
SAT solver over windows of the last plays) must find one exactly when one
exists, and it must replay.
"""
import itertools

from hypothesis import event, given, strategies as st

from pipvm.game import relabel

from .budget import SEED, fuzz

REPLAY = 'replay with: PIPVM_FUZZ_SEED=%d python -m pytest tests/fuzz/test_relabel.py' % SEED


def exchange(ident, left, k):
    """Play the token k instead of left: the two swap identities from here on
    (ident: token -> identity, where it differs from the token's own)."""
    ident[left], ident[k] = ident.get(k, k), ident.get(left, left)


def replay(flow, picks):
    """{(position, token): identity} the world shows when play i makes the
    token picks[i] leave instead of its own: for each position, the
    identities on its named tokens before the plays made there."""
    ident = {}                  # token -> identity, where it differs
    shown, plays = {}, list(zip(flow.plays, picks))
    for t, named in enumerate(flow.named):
        while plays and plays[0][0][0] < t:
            (_, _, left), k = plays.pop(0)
            exchange(ident, left, k)
        for k in named:
            shown[t, k] = ident.get(k, k)
    return shown


def holds(flow, picks, required):
    shown = replay(flow, picks)
    return all(shown[key] == x for key, x in required.items())


def flow_of(problem):
    """(relabel.Flow, required) of a problem drawn as plain data (lists of
    ints: tools/mutation.py keeps each example's arguments as JSON)."""
    flow = relabel.Flow()
    flow.named = problem['named']
    flow.plays = [(pos, hand, left) for pos, hand, left in problem['plays']]
    return flow, {(t, k): x for t, k, x in problem['required']}


@st.composite
def problems(draw):
    """A flow and its required identities, taken from a random choice of
    every play (so one exists), now and then one of them changed (so that
    none may)."""
    tokens = draw(st.integers(2, 6))
    length = draw(st.integers(1, 8))
    flow = relabel.Flow()
    flow.named = [sorted(draw(st.sets(st.integers(0, tokens - 1), max_size=3)))
                  for _ in range(length)]
    for pos in sorted(draw(st.lists(st.integers(0, length - 1), max_size=5))):
        hand = sorted(draw(st.sets(st.integers(0, tokens - 1), min_size=1, max_size=4)))
        flow.plays.append((pos, hand, draw(st.sampled_from(hand))))
    picks = [draw(st.sampled_from(hand)) for _, hand, _ in flow.plays]
    shown = replay(flow, picks)
    required = {key: x for key, x in shown.items() if draw(st.booleans())}
    if required and draw(st.integers(0, 3)) == 0:
        key = draw(st.sampled_from(sorted(required)))
        required[key] = draw(st.integers(0, tokens - 1))
    # (in any order: the search must not rely on the order it is handed them in)
    return {'named': flow.named, 'plays': [list(play) for play in flow.plays],
            'required': draw(st.permutations([[t, k, x] for (t, k), x in required.items()]))}


def picked(flow, found):
    """The token each play makes leave, for found's identities ({play index:
    identity}: the token that carries it there is the one picked)."""
    assert sorted(found) == list(range(len(flow.plays))), REPLAY
    ident, picks = {}, []
    for i, (_, hand, left) in enumerate(flow.plays):
        k = next((k for k in hand if ident.get(k, k) == found[i]), None)
        assert k is not None, ('an identity not in the hand', i, REPLAY)
        picks.append(k)
        exchange(ident, left, k)
    return picks


@fuzz
@given(problems())
def test_relabel_solves_what_brute_force_solves(problem):
    flow, required = flow_of(problem)
    solutions = [picks for picks in itertools.product(*(hand for _, hand, _ in flow.plays))
                 if holds(flow, picks, required)]
    found = relabel.solve(flow, required, nodes=10 ** 6)
    event('solutions: %s' % ('none' if not solutions else 'one' if len(solutions) == 1
                              else 'several'))
    # the exact solve (a SAT solver), with windows of the last play and the
    # last two before all of them
    exact = relabel.solve_exact(flow, required, windows=(1, 2))
    if solutions:
        assert exact is not None, ('a solution missed by the exact solve', solutions[0], REPLAY)
        assert holds(flow, picked(flow, exact), required), ('a wrong exact solution', REPLAY)
    else:
        assert exact is None, REPLAY
    if found is None:
        assert not solutions, ('a solution missed', solutions[0], REPLAY)
        return
    picks = picked(flow, found)
    assert holds(flow, picks, required), ('a wrong solution', picks, REPLAY)
    own = [left for _, _, left in flow.plays]
    if holds(flow, own, required):
        assert picks == own, ("the world's own choices not kept", REPLAY)
    else:
        event('solved with other choices')


@fuzz
@given(problems())
def test_relabel_gives_up_within_its_budget(problem):
    """Each choice tried costs a node: a solve with fewer nodes than plays
    finds nothing, and one with a node per play finds the world's own
    choices where they hold (tried first, each consistent)."""
    flow, required = flow_of(problem)
    n = len(flow.plays)
    own = holds(flow, [left for _, _, left in flow.plays], required)
    if n:
        assert relabel.solve(flow, required, nodes=n - 1) is None, REPLAY
    found = relabel.solve(flow, required, nodes=n)
    if own:
        assert found == {i: left for i, (_, _, left) in enumerate(flow.plays)}, REPLAY
    elif not n:
        assert found is None, REPLAY
