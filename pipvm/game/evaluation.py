"""A cheap evaluation of a position that every Pip game has, for playouts
cut by depth (standing.py): each side's chance of winning from its score,
its cards in hand and whether it is still in the turn order.

The model is a conditional logit (McFadden 1974) over the sides:

    P(side i wins) = exp(w . f_i) / sum_j exp(w . f_j)

f_i = (score, cards in hand, log(1 + cards in hand), still in), each
divided by its spread in the sample; a team's is its score with its
members', their cards together, and whether any member is still in.  It
sums to 1 over the sides, as a won game's returns do, and an even standing
gives each side 1/k.  w is fitted by Newton's method to the positions of a
program's sample games (every answer of each random game that ended with
one winning side), with a small ridge penalty so that a feature that
decides every sample game (President: no cards left) keeps a finite weight.
The log term lets the last few cards count for more than the first few.
"""
import math

RIDGE = 1.0            # the penalty on the squared weights (features scaled to spread 1)
STEPS = 25             # Newton steps, at most
NAMES = ('score', 'hand', 'log hand', 'in')


def features(machine):
    """(features, seats) of each side: teams when the game has them, else players."""
    players = machine.players
    if machine.teams:
        out = []
        for t in machine.teams:
            hand = sum(len(p.hand) for p in t.members)
            out.append(((t.score + sum(p.score for p in t.members), hand, math.log1p(hand),
                         any(q is p for p in t.members for q in players)),
                        [p.seat for p in t.members]))
        return out
    return [((p.score, len(p.hand), math.log1p(len(p.hand)), any(q is p for q in players)),
             [p.seat]) for p in machine.seated]


class Evaluation:
    """Fitted weights (per feature, over its scale)."""

    def __init__(self, weights):
        self.weights = weights

    def chances(self, sides):
        """Each side's chance of winning, for features(machine)."""
        w = self.weights
        z = [sum(wk * fk for wk, fk in zip(w, f)) for f, _ in sides]
        top = max(z)
        e = [math.exp(x - top) for x in z]
        total = sum(e)
        return [x / total for x in e]

    def rewards(self, machine, seats):
        """Each seat's reward at a cut: its side's chance of winning."""
        sides = features(machine)
        out = [0.0] * seats
        for p, (_, members) in zip(self.chances(sides), sides):
            for s in members:
                out[s] = p
        return out


def fit(samples):
    """The Evaluation of samples, a list of (sides, winner): features(machine)
    at a position and the index of the side that went on to win; None when
    no feature tells the sides apart."""
    d = len(NAMES)
    spread = []
    for k in range(d):
        values = [f[k] for sides, _ in samples for f, _ in sides]
        mean = sum(values) / len(values) if values else 0.0
        var = sum((v - mean) ** 2 for v in values) / len(values) if values else 0.0
        apart = any(len({f[k] for f, _ in sides}) > 1 for sides, _ in samples)
        spread.append(math.sqrt(var) if var > 0 and apart else 0.0)
    used = [k for k in range(d) if spread[k] > 0]
    if not used:
        return None
    rows = [([[f[k] / spread[k] for k in used] for f, _ in sides], won) for sides, won in samples]
    w = [0.0] * len(used)
    for _ in range(STEPS):
        step = _newton(rows, w)
        w = [a + b for a, b in zip(w, step)]
        if max(abs(x) for x in step) < 1e-7:
            break
    weights = [0.0] * d
    for j, k in enumerate(used):
        weights[k] = w[j] / spread[k]
    return Evaluation(weights)


def _newton(rows, w):
    """One Newton step of the penalized log-likelihood at w."""
    n = len(w)
    grad = [-RIDGE * x for x in w]
    hess = [[RIDGE * (i == j) for j in range(n)] for i in range(n)]
    for xs, won in rows:
        z = [sum(a * b for a, b in zip(w, x)) for x in xs]
        top = max(z)
        e = [math.exp(v - top) for v in z]
        total = sum(e)
        p = [v / total for v in e]
        mean = [sum(p[j] * xs[j][i] for j in range(len(xs))) for i in range(n)]
        for i in range(n):
            grad[i] += xs[won][i] - mean[i]
            for k in range(i, n):
                c = sum(p[j] * xs[j][i] * xs[j][k] for j in range(len(xs))) - mean[i] * mean[k]
                hess[i][k] += c
                if k != i:
                    hess[k][i] += c
    return _solve(hess, grad)


def _solve(a, b):
    """x with a x = b (a symmetric positive definite, small): Gaussian elimination."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x
