"""The design report's measures, as pure functions of what sim gathered.

Each measure's definition and source is in docs/metrics.md; the names here
are the keys of `pipvm sim --json`.
"""
import math
import statistics

DECISIVE = 0.8         # the winner's estimate that, once passed for good, decides a game
TENTHS = 10            # branching over the course of a game, by tenths of its decisions


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
