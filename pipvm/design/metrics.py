"""The design report's measures, as pure functions of what sim gathered.

Each measure's definition and source is in docs/metrics.md; the names here
are the keys of `pipvm sim --json`.
"""
import math
import statistics

Z95 = 1.959963984540054        # the normal quantile of a two-sided 95% interval
DECISIVE = 0.8         # the winner's estimate that, once passed for good, decides a game
TENTHS = 10            # branching over the course of a game, by tenths of its decisions


def wilson_bounds(k, n):
    """The 95% Wilson score interval of a proportion k/n (Wilson 1927), unrounded."""
    if n == 0:
        return 0.0, 1.0
    p, z2 = k / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def wilson(k, n):
    """The 95% Wilson interval of k/n, rounded for a report."""
    return [round(x, 4) for x in wilson_bounds(k, n)]


def paired_gap(both, first_only, second_only, neither):
    """The 95% interval of p1 - p2 for paired proportions: n pairs of which
    `both` succeed in both series, `first_only` in the first alone, ...
    Newcombe's method 10 (Statistics in Medicine 17, 1998, 2635-2650): the
    two Wilson intervals squared and added, corrected for the correlation
    phi of the pairs (continuity-corrected as Newcombe does)."""
    a, b, c, d = both, first_only, second_only, neither
    n = a + b + c + d
    if n == 0:
        return [-1.0, 1.0]
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson_bounds(a + b, n)
    l2, u2 = wilson_bounds(a + c, n)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    cross = a * d - b * c
    cross = cross - n / 2 if cross > n / 2 else min(cross, 0)
    phi = cross / math.sqrt(margins) if margins else 0.0
    gap = p1 - p2
    low = gap - math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2)
                              + (u2 - p2) ** 2))
    high = gap + math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2)
                               + (p2 - l2) ** 2))
    return [round(max(-1.0, low), 4), round(min(1.0, high), 4)]


def balance(shares):
    """CardStock's fairness of each of n win shares (1 when it is 1/n, 0 when
    it is 0 or 1 alone), Ludii's balance (1 - the largest difference of win
    shares) and the first one's advantage (its share - the mean share)."""
    n = len(shares)
    if n == 0:
        return {'fairness': [], 'balance': 1.0, 'first_advantage': 0.0}
    fair = 1.0 / n
    fairness = [1.0 - abs(s - fair) / (1.0 - fair) if n > 1 else 1.0 for s in shares]
    return {'fairness': [round(f, 4) for f in fairness],
            'balance': round(1.0 - (max(shares) - min(shares)), 4),
            'first_advantage': round(shares[0] - statistics.fmean(shares), 4)}


def spread(values):
    """Mean, median, standard deviation, least and most of some counts."""
    if not values:
        return {'mean': 0.0, 'median': 0, 'stdev': 0.0, 'min': 0, 'max': 0}
    return {'mean': round(statistics.fmean(values), 4), 'median': statistics.median(values),
            'stdev': round(statistics.pstdev(values), 4), 'min': min(values), 'max': max(values)}


def branching_course(branches):
    """Mean options per decision in each tenth of a game's decisions, over
    games (a tenth no game reached is None)."""
    sums, counts = [0] * TENTHS, [0] * TENTHS
    for branch in branches:
        n = len(branch)
        for i, b in enumerate(branch):
            t = i * TENTHS // n
            sums[t] += b
            counts[t] += 1
    return [round(s / c, 4) if c else None for s, c in zip(sums, counts)]


def lead_measures(lead, winners, group):
    """Drama, decisiveness, lead changes and stability of one game, from its
    lead history lead = [(position in the game 0..1, each seat's estimated
    chance of winning)], the winning seats, and group[seat] (the seat's team,
    or the seat): None without a winner or a history."""
    if not lead or not winners:
        return None
    won = [max(est[s] for s in winners) for _, est in lead]
    best_other = [max((e for s, e in enumerate(est) if s not in winners), default=0.0)
                  for _, est in lead]
    trailing = [math.sqrt(o - w) for w, o in zip(won, best_other) if o > w]
    leaders = [group[max(range(len(est)), key=est.__getitem__)] for _, est in lead]
    decided = len(lead)                  # the first record from which won >= DECISIVE for good
    while decided > 0 and won[decided - 1] >= DECISIVE:
        decided -= 1
    changes = [statistics.fmean(abs(a - b) for a, b in zip(e1, e0))
               for (_, e0), (_, e1) in zip(lead, lead[1:])]
    return {
        'drama': statistics.fmean(trailing) if trailing else 0.0,
        'decisiveness': 1.0 - lead[decided][0] if decided < len(lead) else 0.0,
        'lead_changes': sum(a != b for a, b in zip(leaders, leaders[1:])),
        'stability': 1.0 - statistics.fmean(changes) if changes else 1.0,
    }


def lead_summary(per_game):
    """The mean of each lead measure over the games that have them."""
    games = [m for m in per_game if m is not None]
    if not games:
        return None
    out = {'games': len(games)}
    for key in ('drama', 'decisiveness', 'lead_changes', 'stability'):
        out[key] = round(statistics.fmean(m[key] for m in games), 4)
    return out


# --- intervals that stay valid however the run stops ------------------------------

ALPHA = 0.05           # 95% intervals
GRID = 1000            # a confidence sequence tries the means k / GRID
HEDGE_CAP = 0.5        # c of the hedged bets: at most half the capital on one game
FLOOR = 0.01           # the least variance a bet is sized for (a run of one outcome)
GONE = 20              # a mean whose capital passes GONE/ALPHA is dropped for good


class ConfidenceSequence:
    """A 95% confidence sequence for the mean of outcomes in 0..1 seen one
    at a time: an interval after every outcome, and with probability 95%
    every one of them holds the true mean at once, so a run may stop as
    soon as the interval is narrow enough (Ville's inequality; a fixed-n
    interval such as Wilson's, looked at after every batch, does not keep
    its coverage).  The hedged capital process with predictable plug-in
    bets of Waudby-Smith and Ramdas, *Estimating means of bounded random
    variables by betting* (JRSS B 86, 2024), Theorem 3: for each candidate
    mean m on a grid, a gambler bets on the outcomes against m; m leaves
    the sequence, for good, once its capital reaches 1/ALPHA (the running
    intersection of the paper's sequence).  Feed it with extend();
    interval() is the hull of the means still in.

    That is the narrowest valid choice, but an early run of games can shut
    out for good the share the later games settle on, even their own
    (Nap, 4 random seats, seeds 1..150: seat 4 won none of the first 30,
    then 22.0%, outside its interval 7.4%-21.0%).  So each mean's capital
    is followed on until it passes GONE/ALPHA, and where the games' own
    mean lies outside the intersection the interval is the hull of the
    means whose capital is below 1/ALPHA now (the paper's sequence as it
    stands, less the means gone).  Either set holds every mean the
    intersection holds, so the choice keeps the coverage.

    The bets are sized for the width wanted: a fixed bet lambda against
    outcomes of variance v makes an interval about 2 sqrt(2 v log(2/ALPHA)
    / n) wide after n, and it reaches `width` soonest with lambda =
    width / (2 v); v is the running variance of the outcomes before this
    one (the paper's plug-in, which keeps every bet predictable).  Any
    predictable bets keep the coverage; these make the run stop sooner."""

    def __init__(self, width):
        self.width = width
        self.seen = []
        self.alive = list(range(GRID + 1))   # the means whose capital is followed
        self.inside = self.alive            # ... of them, those below the bar now
        self.crossed = bytearray(GRID + 1)  # 1: out of the intersection
        self.up = [0.0] * (GRID + 1)        # log capital of the bets that the mean is above m
        self.down = [0.0] * (GRID + 1)      # ... below m
        self.total, self.squares = 0.5, 0.25    # the plug-in's sums (a prior of one game at 1/2)
        self.bar = math.log(1 / ALPHA) + math.log(2)     # (K+ + K-) / 2 >= 1/ALPHA
        self.gone = self.bar + math.log(GONE)

    def extend(self, outcomes):
        for x in outcomes:
            self._add(float(x))

    def _add(self, x):
        t = len(self.seen) + 1
        var = self.squares / t
        bet = self.width / (2 * max(var, FLOOR))
        alive, inside, bar, gone = [], [], self.bar, self.gone
        for i in self.alive:
            m = i / GRID
            up = self.up[i] + math.log1p(min(bet, HEDGE_CAP / m if m else bet) * (x - m))
            down = self.down[i] + math.log1p(-min(bet, HEDGE_CAP / (1 - m) if m < 1 else bet)
                                             * (x - m))
            self.up[i], self.down[i] = up, down
            top = max(up, down)
            capital = top + math.log1p(math.exp(min(up, down) - top))
            if capital < bar:
                alive.append(i)
                inside.append(i)
            elif capital < gone:
                alive.append(i)
                self.crossed[i] = 1
        self.alive, self.inside = alive, inside
        self.seen.append(x)
        self.total += x
        self.squares += (x - self.total / (t + 1)) ** 2     # against the mean with x

    def interval(self):
        """[low, high], widened by one grid step each way (the sequence's
        edge lies between a mean still in and the next one out): of the
        intersection, unless the games' mean lies outside it."""
        kept = [i for i in self.inside if not self.crossed[i]]
        if kept:
            hull = _hull(kept)
            if not self.seen or hull[0] <= sum(self.seen) / len(self.seen) <= hull[1]:
                return hull
        if not self.inside:             # (probability at most ALPHA): the running estimate
            mean = self.total / (len(self.seen) + 1)
            return [round(mean, 4), round(mean, 4)]
        return _hull(self.inside)


def _hull(means):
    return [round(max(0, means[0] - 1) / GRID, 4), round(min(GRID, means[-1] + 1) / GRID, 4)]


def sequence_interval(outcomes, width):
    """The interval after outcomes (each in 0..1) of a confidence sequence
    whose bets are sized for width."""
    cs = ConfidenceSequence(width)
    cs.extend(outcomes)
    return cs.interval()


def excludes_zero(ci):
    """Whether an interval lies clear of 0 as a report prints it (to 0.1%):
    one printed '+0.0% to +81.2%' reaches 0, and is not significant."""
    lo, hi = (round(100 * x, 1) for x in ci)
    return lo > 0 or hi < 0
