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
