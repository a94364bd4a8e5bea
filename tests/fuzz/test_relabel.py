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
def problems(draw, most=5, dense=False):
    """A flow of at most `most` plays and its required identities, taken
    from a random choice of every play (so one exists), now and then one of
    them changed (so that none may); dense: three in four of the identities
    shown required, else one in two."""
    tokens = draw(st.integers(2, 6))
    length = draw(st.integers(1, 8))
    flow = relabel.Flow()
    flow.named = [sorted(draw(st.sets(st.integers(0, tokens - 1), max_size=3)))
                  for _ in range(length)]
    for pos in sorted(draw(st.lists(st.integers(0, length - 1), max_size=most))):
        hand = sorted(draw(st.sets(st.integers(0, tokens - 1), min_size=1, max_size=4)))
        flow.plays.append((pos, hand, draw(st.sampled_from(hand))))
    picks = [draw(st.sampled_from(hand)) for _, hand, _ in flow.plays]
    shown = replay(flow, picks)
    required = {key: x for key, x in shown.items()
                if (draw(st.integers(0, 3)) < 3 if dense else draw(st.booleans()))}
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


def places(token, plays):
    """The tokens an identity on token may be on after plays (each play's
    every choice: choosing c exchanges the identities of c and the token
    that left)."""
    reach = {token}
    for _, hand, left in plays:
        reach = {c if t == left else left if t == c else t for t in reach for c in hand}
    return reach


def documented_search(flow, required):
    """(nodes, picks) of relabel.solve's search as its comments say, with the
    reach of each identity found by trying every choice (places): play by
    play, depth first, the sightings up to a play's position checked before
    it; a play's candidates in order (a token whose identity cannot reach its
    next sighting if it stays must leave now, then the world's own choice,
    then one whose identity is seen again later, then the rest), each tried
    costing a node and followed only if every identity of the hand can
    still reach its next sighting.  (None, None) if nothing is found."""
    plays, named = flow.plays, flow.named
    ident, nodes, picks = {}, 0, []
    positions = [pos for pos, _, _ in plays] + [len(named) - 1]

    def on(x):          # the token identity x is on
        return next((k for k, y in ident.items() if y == x), x)

    def next_seen(x, after):
        return min(((t, k) for (t, k), y in required.items() if y == x and t > after), default=None)

    def can_reach(x, i, after):
        nxt = next_seen(x, after)
        return nxt is None or nxt[1] in places(on(x), [p for p in plays[i:] if p[0] < nxt[0]])

    def search(i):
        nonlocal nodes
        lo = positions[i - 1] + 1 if i else 0
        if any(ident.get(k, k) != required.get((t, k), ident.get(k, k))
               for t in range(lo, positions[i] + 1) for k in named[t]):
            return False
        if i == len(plays):
            return True
        pos, hand, left = plays[i]
        forced = [k for k in hand if k != left and not can_reach(ident.get(k, k), i + 1, pos)]
        again = [k for k in hand if k != left and k not in forced
                 and next_seen(ident.get(k, k), pos) is not None]
        rest = [k for k in hand if k != left and k not in forced and k not in again]
        for k in forced + [left] + again + rest:
            nodes += 1
            exchange(ident, left, k)
            picks.append(k)
            if all(can_reach(ident.get(h, h), i + 1, pos) for h in hand) and search(i + 1):
                return True
            picks.pop()
            exchange(ident, left, k)
        return False

    return (nodes, picks) if search(0) else (None, None)


@fuzz
@given(problems(most=8, dense=True))
def test_relabel_search_spends_what_its_order_and_checks_say(problem):
    """The search's cost is part of what it does (a Cheat belief's solve
    has NODES, and what it cannot find in them goes to the SAT solver): it
    finds the documented search's answer in exactly that search's nodes,
    and nothing in one node fewer."""
    flow, required = flow_of(problem)
    nodes, picks = documented_search(flow, required)
    if nodes is None:
        assert relabel.solve(flow, required, nodes=10 ** 6) is None, REPLAY
        return
    event('nodes: %s' % ('one a play' if nodes == len(flow.plays) else 'more'))
    found = relabel.solve(flow, required, nodes=nodes)
    assert found is not None, ('not found in the documented nodes', nodes, REPLAY)
    assert picked(flow, found) == picks, ('another answer than the documented search\'s', REPLAY)
    if nodes:       # (no plays: nothing to try, found with no node)
        assert relabel.solve(flow, required, nodes=nodes - 1) is None, ('found in fewer nodes', REPLAY)
