"""Which card each unseen play was, solved for at once (Belief's last repair).

A world's cards are tokens that move as the game moves them; the seat sees
some of them at each decision (its hand, a card turned over, a pile it takes
up) and the world matches the seat's observations up to its first
difference.  Where another player played a card the seat did not see, the
world chose which of the player's cards it was: choosing another card of
the same hand exchanges the two cards' identities from that play on, and
changes nothing else the game does with its tokens (a card laid face down
goes where the other would have gone).  So a world whose first difference
shows the seat X where the world has Y can be mended by finding, for every
unseen play up to the difference, which card of the hand it plays, so that
each token the seat sees carries the card it saw there: the identities
flow along the tokens, jumping between two tokens only at an unseen play
of the hand holding them.  This is a constraint satisfaction problem over
the plays, solved by depth-first search in the order of the game with
forward checking (a card must still be able to reach, through the unseen
plays left, the token it is next seen on) and the world's own choice kept
where the constraints allow (Cheat: the card turned over at a challenge
was laid into a pile the player took up long before; its way there changes
which card several plays of other players were).

The search undoes the last plays first, so a change needed far back (Cheat,
a thinking seat's game: three plays 100 to 230 positions before the
difference) is out of its reach.  solve_exact hands the same problem to a
SAT solver (CaDiCaL, through python-sat): the plays before a window of the
last ones keep the world's choices, and the window grows until a solution
is found or none exists with any window.

Nothing here knows the game: the tokens, hands and plays come from
replaying the world, the constraints from the card names in the seat's
observations.  A solution is only a proposal: Belief replays it and keeps
it only if every observation holds.
"""

NODES = 5000        # choices tried in one solve, at most (each a forward check)
WINDOWS = (16, 32, 64, 128, 256)   # the exact solve's last plays, then all of them
CONFLICTS = 200_000  # the SAT solver's budget for one window (deterministic, unlike time)


class Flow:
    """A world's tokens as seen up to its first difference: for each
    position, the tokens the seat's observation names, and for each
    unseen play, the hand's tokens and the one that left."""

    def __init__(self):
        self.named = []         # position -> [token named in the observation there]
        self.plays = []         # [(position, hand tokens, token that left)], in order


def solve(flow, required, nodes=NODES):
    """{play index: token} the identity each unseen play of flow makes leave
    (the token now carrying it), or None if none is found.  required:
    {(position, token): identity} the identities the seat saw (identities
    and tokens are both deck indexes; the world's own identity of token k is
    k)."""
    by_identity = {}
    for (t, k), x in required.items():
        by_identity.setdefault(x, []).append((t, k))
    for reqs in by_identity.values():
        reqs.sort()
    plays = flow.plays
    sigma = {}              # token -> identity, where it differs from the token's own
    where = {}              # identity -> token, likewise

    def ident(k):
        return sigma.get(k, k)

    def token(x):
        return where.get(x, x)

    def swap(a, b):
        xa, xb = ident(a), ident(b)
        for k, x in ((a, xb), (b, xa)):
            if x == k:
                sigma.pop(k, None)
                where.pop(x, None)
            else:
                sigma[k] = x
                where[x] = k

    def next_required(x, after):
        for t, k in by_identity.get(x, ()):
            if t > after:
                return t, k
        return None

    def reachable(x, i, t_star, k_star):
        """Can identity x, on its token before play i, be on k_star at t_star?"""
        reach = {token(x)}
        for pos, hand, left in plays[i:]:
            if pos >= t_star:
                break
            if left in reach:
                reach.update(hand)
            elif not reach.isdisjoint(hand):
                reach.add(left)
        return k_star in reach

    def consistent(i, pos):
        """Every identity whose token was in play i's hand can still be where
        it is next seen (play i's choice made)."""
        _, hand, left = plays[i]
        for k in hand:
            x = ident(k)
            nxt = next_required(x, pos)
            if nxt is not None and not reachable(x, i + 1, *nxt):
                return False
        return True

    def satisfied(lo, hi):
        """The required identities at positions lo <= t < hi hold."""
        for t in range(lo, hi):
            for k in flow.named[t]:
                x = required.get((t, k))
                if x is not None and ident(k) != x:
                    return False
        return True

    # the search: play by play, the world's own choice first where it keeps
    # every card able to reach its next sighting; an explicit stack of
    # (play, its candidates not yet tried, the one being tried), as a game
    # may have more unseen plays than Python's recursion allows
    positions = [pos for pos, _, _ in plays] + [len(flow.named) - 1]
    stack = []
    i, budget = 0, nodes
    while True:
        lo = positions[i - 1] + 1 if i else 0
        ok = satisfied(lo, positions[i] + 1)
        if ok and i == len(plays):
            return _names(flow, [k for _, _, k in stack])   # (a frame per play)
        if ok:
            pos, hand, left = plays[i]
            stack.append((i, _candidates(hand, left, pos, ident, next_required, reachable, i),
                          None))
        # the next candidate of the deepest play that has one left
        while stack:
            i, todo, tried = stack.pop()
            pos, hand, left = plays[i]
            if tried is not None:
                swap(left, tried)           # (undone)
            if not todo or budget <= 0:
                continue
            budget -= 1
            k = todo.pop(0)
            swap(left, k)
            stack.append((i, todo, k))
            if consistent(i, pos):
                i += 1
                break
        else:
            return None


def _candidates(hand, left, pos, ident, next_required, reachable, i):
    """The tokens of hand whose identity play i may make leave, the likeliest
    first: one that must leave now (it cannot reach its next sighting from
    the hand), the world's own choice, one seen next elsewhere, the rest."""
    forced, elsewhere, rest = [], [], []
    for k in hand:
        if k == left:
            continue
        x = ident(k)
        nxt = next_required(x, pos)
        if nxt is None:
            rest.append(k)
        elif not reachable(x, i + 1, *nxt):
            forced.append(k)
        else:
            elsewhere.append(k)
    return forced + [left] + elsewhere + rest


def solve_exact(flow, required, windows=WINDOWS, conflicts=CONFLICTS):
    """As solve (the same answer's form and meaning), by a SAT solver over
    the last plays (each of windows, then all): the plays before keep the
    world's own choices, so the identities there are the world's; None if
    no window has a solution within the solver's conflict budget."""
    n = len(flow.plays)
    for start in sorted({max(0, n - w) for w in windows} | {0}, reverse=True):
        picks = _sat(flow, required, start, conflicts)
        if picks is not None:
            return _names(flow, picks)
    return None


def _names(flow, picks):
    """{play index: identity} when play i makes token picks[i] leave (the
    answer of both solves; a later play of the hand that takes the pile up
    may move it on)."""
    sigma, names = {}, {}
    for i, (_, _, left) in enumerate(flow.plays):
        k = picks[i]
        sigma[left], sigma[k] = sigma.get(k, k), sigma.get(left, left)
        names[i] = sigma.get(left, left)
    return names


def _sat(flow, required, start, conflicts):
    """The tokens the plays from start on make leave (before start, each its
    own), found by a SAT solver, or None.  A Boolean for each token's
    identity after each play that can move it, limited to the identities
    that can have reached it (each token starts with its own), and one for
    each play's choice; the required identities are unit clauses."""
    from pysat.card import CardEnc, EncType
    from pysat.solvers import Cadical153
    plays = flow.plays
    top = 1
    clauses = [[1]]                # variable 1 is true
    now = {}                       # token -> {identity: variable}; absent: its own

    def var(k, x):
        d = now.get(k)
        if d is None:
            return 1 if x == k else -1
        return d.get(x, -1)

    def domain(k):
        return now[k].keys() if k in now else (k,)

    choices = []
    i = start
    for t in range(len(flow.named)):
        while i < len(plays) and plays[i][0] < t:
            _, hand, left = plays[i]
            c = {}
            for k in hand:
                top += 1
                c[k] = top
            choices.append(c)
            one = CardEnc.equals(list(c.values()), 1, top_id=top, encoding=EncType.seqcounter)
            clauses.extend(one.clauses)
            top = max(top, one.nv)
            everyone = set().union(*(domain(k) for k in hand))
            after = {}
            for k in hand:
                after[k] = {}
                for x in sorted(everyone if k == left else set(domain(k)) | set(domain(left))):
                    top += 1
                    after[k][x] = top
            for k in hand:
                for x, a in after[k].items():
                    if k == left:
                        # left carries what the token picked carried
                        for j in hand:
                            clauses += [[-c[j], -a, var(j, x)], [-c[j], a, -var(j, x)]]
                    else:
                        # k carries left's identity if picked, else its own
                        clauses += [[-c[k], -a, var(left, x)], [-c[k], a, -var(left, x)],
                                    [c[k], -a, var(k, x)], [c[k], a, -var(k, x)]]
            now.update(after)
            i += 1
        for k in flow.named[t]:
            x = required.get((t, k))
            if x is None:
                continue
            clauses.append([var(k, x)])         # (before the window: true or false)
            if k in now:
                # and on no other token: implied by the exchanges, but stated,
                # a card seen in two places fails at once, not after a search
                clauses.extend([-d[x]] for j, d in now.items() if j != k and x in d)
                if x not in now:
                    clauses.append([-1])        # (x is on its own token, untouched)
    solver = Cadical153(bootstrap_with=clauses)
    try:
        solver.conf_budget(conflicts)
        if not solver.solve_limited():
            return None
        model = set(v for v in solver.get_model() if v > 0)
    finally:
        solver.delete()
    # (a play at the last position or after it changes nothing seen: its own)
    picks = [left for _, _, left in plays]
    for j, c in enumerate(choices, start):
        picks[j] = next(k for k in plays[j][1] if c[k] in model)
    return picks
