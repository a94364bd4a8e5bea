"""`pipvm sim`'s report as plain data (JSON-ready): the win table and the
design measures (docs/metrics.md) with their intervals, from the Results of
the series played on the same seeds.  sim.py plays them; text.py words them."""
import statistics

import attrs

from pipvm.design import metrics

MIN_FINISHED = 10      # balance and fairness need at least this many games with a winner
RARELY = 20            # hardly ever finished: fewer than 1 game in RARELY with a winner


class Intervals:
    """The report's 95% intervals.  precision None: every game is played
    whatever they say, and they are fixed-n intervals (Wilson's; Newcombe's
    for a paired gap).  Otherwise the run stops once the verdict's are
    narrower than precision, so they are confidence sequences
    (metrics.ConfidenceSequence), valid however the run stopped; each is
    fed its figure's outcomes in game order and kept from look to look."""

    def __init__(self, precision=None):
        self.precision = precision
        self.sequences = {}

    def _sequence(self, key, outcomes, width):
        cs = self.sequences.get(key)
        if cs is None or cs.seen != outcomes[:len(cs.seen)]:
            cs = self.sequences[key] = metrics.ConfidenceSequence(width)
        cs.extend(outcomes[len(cs.seen):])
        return cs.interval()

    def share(self, key, outcomes):
        """{'wins', 'share', 'ci95'} of a figure's outcomes (true: a win), game by game."""
        k, n = sum(map(bool, outcomes)), len(outcomes)
        if self.precision is None:
            ci = metrics.wilson(k, n)
        else:
            ci = self._sequence(key, [int(bool(x)) for x in outcomes], self.precision)
        return {'wins': k, 'share': round(k / n, 4) if n else 0.0, 'ci95': ci}

    def gap(self, key, mine, theirs):
        """The interval of share(mine) - share(theirs), paired game by game."""
        if self.precision is None:
            pairs = [0, 0, 0, 0]    # both won, the first alone, the second alone, neither
            for a, b in zip(mine, theirs):
                pairs[0 if a and b else 1 if a else 2 if b else 3] += 1
            return metrics.paired_gap(*pairs)
        # The gap of one game is -1, 0 or 1: its mean, moved into 0..1.
        lo, hi = self._sequence(key, [(bool(a) - bool(b) + 1) / 2 for a, b in zip(mine, theirs)],
                                self.precision / 2)
        return [round(2 * lo - 1, 4), round(2 * hi - 1, 4)]


def share(k, n):
    """A count's share and fixed-n (Wilson) interval, where no sequence is kept."""
    return {'wins': k, 'share': round(k / n, 4) if n else 0.0, 'ci95': metrics.wilson(k, n)}


def first_of(results, ending):
    return next((r for r in results if r.ending == ending), None)


def seat_rows(results, setup, series='seated'):
    """(per-seat rows, per-team rows) of wins, shares and intervals."""
    iv = setup['intervals']
    seats = [dict(seat=s + 1, name=name, **iv.share(('seat', series, s),
                                                    [won(r, s) for r in results]))
             for s, name in enumerate(setup['names'])]
    teams = [dict(team=t + 1, members=members, **iv.share(('team', series, t),
                                                          [r.team == t for r in results]))
             for t, members in enumerate(setup['teams'])]
    return seats, teams


def won(r, s):
    """Whether seat s won game r: the winner, or one of several (`winners`,
    an extension, places them first)."""
    return r.seat == s or (r.places is not None and r.ending == 'winner' and r.places[s] == 0)


def lost(r, s):
    """Whether seat s is game r's loser (extension: `loser`, or last in a `ranking`)."""
    return r.places is not None and 0 < max(r.places) == r.places[s]


def loser_rows(results, setup):
    """Each seat's losses and their share, when some game named a loser."""
    if not any(lost(r, s) for r in results for s in range(len(setup['names']))):
        return []
    return [dict(seat=s + 1, name=name, **setup['intervals'].share(
        ('loser', s), [lost(r, s) for r in results])) for s, name in enumerate(setup['names'])]


def summarise(results, setup, series=None):
    """The report as plain data (JSON-ready).  Everything outside 'timing'
    (and the seconds of 'thinking') depends only on the seeds and the game,
    never on --jobs or the clock.  series: the other series played on the
    same seeds (Series)."""
    series = series or Series()
    n = len(results)
    seats, teams = seat_rows(results, setup)
    others = {}
    for r in results:
        if r.ending == 'winner' and r.seat is None and r.team is None and r.places is None:
            others[r.winner] = others.get(r.winner, 0) + 1
    lengths = [r.decisions for r in results]
    decisions = sum(lengths)

    def stopped(ending, message=False):
        first = first_of(results, ending)
        info = {'count': sum(r.ending == ending for r in results)}
        if first:
            info['first_seed'] = first.seed
            if message:
                info['message'] = first.error
            info['replay'] = setup['replay'](first.seed)
        return info

    return {
        'game': setup['game'], 'file': setup['file'], 'engine': setup['engine'],
        'games': n, 'seed': setup['seed'], 'players': len(setup['names']),
        'seating': setup['seating'], 'rotate': setup['rotate'], 'set': setup['set'],
        'max_steps': setup['max_steps'],
        'seats': seats, 'teams': teams, 'losers': loser_rows(results, setup),
        'other_winners': [{'winner': w, **setup['intervals'].share(
            ('other', w), [r.ending == 'winner' and r.winner == w and r.seat is None
                           and r.places is None
                           and r.team is None for r in results])} for w in sorted(others)],
        'no_winner': sum(r.ending == 'no winner' for r in results),
        'step_limit': stopped('step limit'),
        'errors': stopped('error', message=True),
        'length': {'mean': round(statistics.fmean(lengths), 4) if n else 0.0,
                   'median': statistics.median(lengths) if n else 0},
        'branching': round(sum(r.options for r in results) / decisions, 4) if decisions else 0.0,
        **design(results, setup, series),
    }


@attrs.frozen
class Series:
    """The series played beside the games as seated, on the same seeds."""
    random: list = None        # every seat random: the skill baseline
    alike: list = None         # the games balance comes from (every seat plays alike)
    alike_from: str = None     # how those games were seated, in words
    alike_name: str = 'seated'     # the series they are (the key of their intervals)
    depth: list = ()           # [(budget, Results)] for the depth curve
    all_random: list = None    # the games with every seat random, whichever series they are


def rarely_finished(results):
    """Whether hardly any of some games ended with a winner (random seats
    in Gin Rummy play until the step limit): at least MIN_FINISHED games,
    fewer than 1 in RARELY won."""
    return (len(results) >= MIN_FINISHED
            and RARELY * sum(r.ending in ('winner', 'loser') for r in results) < len(results))


def balance_of(results, setup, series='seated'):
    """Balance, fairness and first-seat advantage of some games' win shares;
    None for each when fewer than MIN_FINISHED of them had a winner (every
    share would be near 0, and balance near 1, saying nothing)."""
    seats, teams = seat_rows(results, setup, series)

    def measures(rows):
        out = metrics.balance([r['share'] for r in rows])
        # The first one's interval less the mean share (fixed by the games' endings).
        mean = rows[0]['share'] - out['first_advantage']
        out['first_advantage_ci95'] = [round(x - mean, 4) for x in rows[0]['ci95']]
        out['first_significant'] = metrics.excludes_zero(out['first_advantage_ci95'])
        return out
    finished = sum(r.ending == 'winner' for r in results)
    out = {'finished': finished}
    if finished < MIN_FINISHED:
        return {'seats': None, 'teams': None, **out}
    # In a team game where only teams win, per-seat figures say nothing.
    return {'seats': measures(seats) if not teams or any(r['wins'] for r in seats) else None,
            'teams': measures(teams) if teams else None, **out}


def design(results, setup, series):
    """The design report's measures (pipvm/design/metrics.py, docs/metrics.md)."""
    n = len(results)
    groups = setup['groups']
    branches = [r.branch for r in results]
    balance = {'seats': None, 'teams': None, 'from': None}
    if series.alike is not None and len(setup['names']) > 1:     # (a patience: no seats to compare)
        balance = {**balance_of(series.alike, setup, series.alike_name), 'from': series.alike_from}
        if series.alike is not results:         # their win shares, beside those as seated
            seats, teams = seat_rows(series.alike, setup, series.alike_name)
            balance['win_shares'] = {'seats': seats, 'teams': teams}
    out = {
        'balance': balance,
        'completion': {'winner': round(sum(r.ending == 'winner' for r in results) / n, 4)
                       if n else 0.0,
                       'no_winner': sum(r.ending == 'no winner' for r in results),
                       'loser': sum(r.ending == 'loser' for r in results),
                       'step_limit': sum(r.ending == 'step limit' for r in results),
                       'errors': sum(r.ending == 'error' for r in results)},
        'duration': {'decisions': metrics.spread([r.decisions for r in results]),
                     'turns': metrics.spread([r.turns for r in results]),
                     'steps': metrics.spread([r.steps for r in results if r.steps is not None])},
        'decision_moves': round(sum(b > 1 for br in branches for b in br) /
                                max(1, sum(map(len, branches))), 4),
        'branching_course': metrics.branching_course(b for b in branches if b),
        'scores': score_rows(results, setup),
        'lead': metrics.lead_summary(
            [metrics.lead_measures(list(r.lead), _winning_seats(r, groups), groups)
             for r in results]),
    }
    if series.all_random is not None and rarely_finished(series.all_random):
        games = series.all_random
        out['random_unfinished'] = {'games': len(games),
                                    'winners': sum(r.ending == 'winner' for r in games),
                                    'step_limit': sum(r.ending == 'step limit' for r in games)}
    if setup['thinking']:
        out['thinking'] = thinking(results, setup)
    if series.random is not None and not no_choices(out):
        out['skill'] = [dict(bot=setup['bots'][s],
                             **skill(s, setup['names'][s], results, series.random, setup))
                        for s in setup['thinking']]
    if series.depth and 'skill' in out:
        out['depth'] = [dict(iterations=budget, bot='%s:%d' % (setup['kinds'][s], budget),
                             opponents=setup['opponents'][s],
                             **skill(s, setup['names'][s], games, series.random, setup, budget),
                             **no_world(games, s))
                        for budget, games in series.depth for s in setup['thinking']]
    return out


def no_choices(s):
    """Whether no seat ever had a choice (Old Maid, War): see text.NO_CHOICES."""
    return s['duration']['decisions']['max'] == 0


def _winning_seats(r, groups):
    if r.team is not None:
        return {s for s, g in enumerate(groups) if g == r.team}
    return set() if r.seat is None else {r.seat}


def keeps_score(results):
    """Whether some game ended with a score other than 0 (a game that keeps
    none shows none)."""
    return any(v for r in results for v in (r.scores or ()))


def score_rows(results, setup):
    """Each seat's score at the end of the games as seated (metrics.spread of
    the games that ended with a Number there), where the game keeps score:
    what says how well a patience went, where no game may be won."""
    if not keeps_score(results):
        return []
    return [dict(seat=s + 1, name=name, **metrics.spread(scores_at((r, s) for r in results)))
            for s, name in enumerate(setup['names'])]


def scores_at(games_and_seats):
    """The scores the games ended with at the seats given, where a Number."""
    return [g.scores[s] for g, s in games_and_seats if g.scores and g.scores[s] is not None]


def mean(values):
    """The mean of some values, or None for none."""
    return round(statistics.fmean(values), 4) if values else None


def skill(seat, name, results, baseline, setup, series='seated'):
    """A thinking seat's wins (against the others as seated), beside the same
    seat's wins in the same deals under random play (CardStock's meaningful
    moves: the gap is what thinking buys), with the paired interval of the
    gap.  With --rotate the bot of seat `seat` sat at seat+turn in each game,
    and is compared with that seat of the baseline."""
    groups, iv = setup['groups'], setup['intervals']
    n = len(groups)
    mine = [(seat + r.turn) % n in _winning_seats(r, groups) for r in results]
    theirs = [(seat + r.turn) % n in _winning_seats(b, groups) for r, b in zip(results, baseline)]
    ours = iv.share(('skill', series, seat), mine)
    base = iv.share(('baseline', series, seat), theirs)
    gap_ci = iv.gap(('gap', series, seat), mine, theirs)
    out = {'seat': seat + 1, 'name': name, **ours, 'random_share': base['share'],
           'random_ci95': base['ci95'], 'gap': round(ours['share'] - base['share'], 4),
           'gap_ci95': gap_ci, 'significant': metrics.excludes_zero(gap_ci)}
    if keeps_score(results) or keeps_score(baseline):   # (as the wins: the same seat, deals)
        out['score'] = mean(scores_at((r, (seat + r.turn) % n) for r in results))
        out['random_score'] = mean(scores_at((b, (seat + r.turn) % n)
                                             for r, b in zip(results, baseline)))
    return out


def no_world(results, seat):
    """{'decisions', 'no_world'} of the thinking bot of seat (as given) over results."""
    rows = [row for r in results for row in r.thinking if row[0] == seat]
    return {'decisions': sum(row[1] for row in rows), 'no_world': sum(row[2] for row in rows)}


def thinking(results, setup):
    """{seat number from 1 as a string: {decisions, no_world, seconds}} of the
    thinking bots: the decisions they thought about (more than one option),
    those with no consistent world (answered at random), the seconds spent."""
    out = {}
    for s in setup['thinking']:
        seconds = sum(row[3] for r in results for row in r.thinking if row[0] == s)
        out[str(s + 1)] = {**no_world(results, s), 'seconds': round(seconds, 3)}
    return out


def verdict_intervals(s):
    """[(what, interval)]: the intervals the report's verdict reads, which a
    run with --precision plays on until each is narrower: the win shares
    balance and first-seat advantage come from, and each skill gap."""
    b = s['balance']
    table = b.get('win_shares') or {'seats': s['seats'], 'teams': s['teams']}
    rows = [('seat %d' % r['seat'], r['ci95']) for r in table['seats']
            if not s['teams'] or any(r['wins'] for r in table['seats'])]
    rows += [('team %d' % r['team'], r['ci95']) for r in table['teams']]
    out = [('%s%s' % (what, ' (%s)' % b['from'].split(',')[0] if b.get('win_shares') else ''), ci)
           for what, ci in rows]
    out += [('skill gap of seat %d' % k['seat'], k['gap_ci95']) for k in s.get('skill') or ()]
    out += [('skill gap of seat %d at %s' % (k['seat'], k['bot']), k['gap_ci95'])
            for k in s.get('depth') or ()]
    return out
