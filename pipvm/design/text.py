"""`pipvm sim`'s report in words: the text report (format_report), and the
phrases the page (report.py) and the sweep table share with it."""
import shlex

from pipvm.design.summary import MIN_FINISHED, no_choices


def percent(x):
    return '%.1f%%' % (100 * x)


# A game nobody decides anything in (Old Maid, War): its length in
# decisions, its branching and any skill are zero by construction, not
# findings, so the report says what they mean instead of printing them.
NO_CHOICES = ('no seat ever has a choice: the deal and the shuffles decide every game, '
              'so length in decisions, branching and skill do not apply')


def shows_seats(s):
    """Whether the report shows a row per seat: in a team game only if a
    player (not a team) won, since otherwise every seat's share is 0."""
    return not s['teams'] or any(r['wins'] for r in s['seats'])


def format_report(s):
    lines = ['%s: %d games (seeds %d..%d), %d players, %s%s%s' % (
        s['game'], s['games'], s['seed'], s['seed'] + s['games'] - 1, s['players'],
        s['seating'], ' --rotate' if s['rotate'] else '', set_words(s['set']))]
    rows = []
    if shows_seats(s) and not only_losers(s):
        rows = [('seat %d' % r['seat'], r['name'], r) for r in s['seats']]
    rows += [('team %d' % r['team'], ', '.join(r['members']), r) for r in s['teams']]
    rows += [('winner', r['winner'], r) for r in s['other_winners']]
    losers = s.get('losers') or ()        # extension: `loser`, a ranking's last
    width = max([len(name) for _, name, _ in rows] + [len(r['name']) for r in losers] + [4])
    lines.append('  %-7s %-*s %6s %7s   %s' % ('', width, 'name', 'losses' if only_losers(s)
                                              else 'wins', 'share', '95% interval'))
    rows += [('seat %d' % r['seat'], r['name'], dict(r, lost=True)) for r in losers]
    for label, name, r in rows:
        lo, hi = r['ci95']
        lines.append('  %-7s %-*s %6d %7s   %s - %s%s' % (
            label, width, name, r['wins'], percent(r['share']), percent(lo), percent(hi),
            '  lost' if r.get('lost') and not only_losers(s) else ''))
    lines += rotated_lines(s)
    lines.append('  no winner: %d   stopped at %d steps: %d   errors: %d' % (
        s['no_winner'], s['max_steps'], s['step_limit']['count'], s['errors']['count']))
    for key, what in (('step_limit', 'first stopped'), ('errors', 'first error')):
        info = s[key]
        if info['count']:
            lines.append('  %s: seed %d%s' % (
                what, info['first_seed'], ': ' + info['message'] if 'message' in info else ''))
            lines.append('    replay: ' + info['replay'])
    if no_choices(s):
        lines.append('  ' + NO_CHOICES)
    else:
        lines.append('  length: mean %.1f decisions, median %g' % (
            s['length']['mean'], s['length']['median']))
        lines.append('  branching: %.2f options per decision' % s['branching'])
    lines += format_design(s)
    lines.append('  ' + stopping_words(s))
    if s['stopping']['precision'] is not None:
        lines.append('  ' + SEQUENCES)
    lines.append('  ' + format_timing(s['timing']))
    if s.get('interrupted'):
        lines.append('  interrupted: only the first %d games were played' % s['games'])
    return '\n'.join(lines) + '\n'


def format_design(s):
    """The design report's lines (docs/metrics.md)."""
    b, c, d = s['balance'], s['completion'], s['duration']
    lines = ['design (docs/metrics.md):']
    if 'random_unfinished' in s:
        lines.append('  ' + unfinished_words(s))
    if b['from']:
        lines.append('  balance, fairness, first-seat advantage: from the games with %s'
                     % b['from'])
        if too_few(b):
            lines.append('  ' + too_few_words(b))
    for key, label in (('seats', 'seat'), ('teams', 'team')):
        if b[key]:
            lines.append('  balance by %s: %.3f   fairness %s   first %s advantage %s' % (
                label, b[key]['balance'], ' '.join('%.2f' % f for f in b[key]['fairness']),
                label, first_words(b[key])))
    lines.append('  completion: %s with a winner, %s%d without, %d stopped at the step limit, '
                 '%d errors' % (percent(c['winner']),
                                '%d with only a loser, ' % c['loser'] if c.get('loser') else '',
                                c['no_winner'], c['step_limit'], c['errors']))
    if s.get('scores'):
        lines.append('  score at the end: %s' % ', '.join(
            '%s mean %.1f (%g..%g)' % (r['name'], r['mean'], r['min'], r['max'])
            for r in s['scores']))
    for key in ('decisions', 'turns', 'steps')[2 if no_choices(s) else 0:]:
        x = d[key]
        lines.append('  duration in %s: mean %.1f, median %g, sd %.1f, %d..%d%s' % (
            key, x['mean'], x['median'], x['stdev'], x['min'], x['max'],
            ' (loop rounds and action calls, as --max-steps counts them)' * (key == 'steps')))
    if not no_choices(s):
        lines.append('  decision moves: %s of decisions offer a choice'
                     % percent(s['decision_moves']))
        lines.append('  branching by tenth of the game: %s' % ' '.join(
            '-' if x is None else '%.1f' % x for x in s['branching_course']))
    turning = ', every seat in turn' if s['rotate'] else ''
    for k in s.get('skill') or ():
        lines.append('  skill: seat %d (%s%s) wins %s; %s under random play: %s%s' % (
            k['seat'], k['name'], turning, share_words(k), percent(k['random_share']),
            gap_words(k), score_words(k)))
    by_seat = {}
    for k in s.get('depth') or ():
        by_seat.setdefault((k['seat'], k['name']), []).append(k)
    for (seat, name), points in by_seat.items():
        lines.append('  depth: seat %d (%s%s) against %s, by budget:' % (
            seat, name, turning, OPPONENTS[points[0]['opponents']]))
        for k in points:
            lines.append('    %-10s wins %s; %s' % (k['bot'], share_words(k), gap_words(k)))
    lines += thinking_lines(s)
    lead = s['lead']
    if lead:
        lines.append('  lead (%d games with thinking bots and a winner): drama %.3f, '
                     'decisiveness %.3f, lead changes %.2f, stability %.3f' % (
                         lead['games'], lead['drama'], lead['decisiveness'],
                         lead['lead_changes'], lead['stability']))
    return lines


OPPONENTS = {'random': 'random seats',
             'as seated': 'the other seats as given (thinking ones at the same budget)'}


def score_words(k):
    """A thinking seat's mean score at the end beside random play's, where
    the game keeps score."""
    if k.get('score') is None or k.get('random_score') is None:
        return ''
    return '; score %.1f on average, %.1f under random play' % (k['score'], k['random_score'])


def share_words(k):
    lo, hi = k['ci95']
    return '%s (%s - %s)' % (percent(k['share']), percent(lo), percent(hi))


def first_words(m):
    """A first-seat advantage with its interval, flagged when that reaches 0."""
    lo, hi = m['first_advantage_ci95']
    return '%+.1f%% (%+.1f%% to %+.1f%%)%s' % (
        100 * m['first_advantage'], 100 * lo, 100 * hi,
        '' if m['first_significant'] else ', not significant')


def too_few(b):
    """Whether balance was not measured: too few of its games had a winner."""
    return b['from'] is not None and b['finished'] < MIN_FINISHED


def too_few_words(b):
    return ('balance, fairness and first-seat advantage not measured: %d of those games had '
            'a winner, and they need %d' % (b['finished'], MIN_FINISHED))


def only_losers(s):
    """Whether no game had a winner but some named a loser (extension: Durak's
    fool): the report then shows each seat's losses instead of its wins."""
    return bool(s.get('losers')) and not any(r['wins'] for r in s['seats'] + s['teams'])


def unfinished_words(s):
    """The line for a game random seats hardly ever finish (Gin Rummy)."""
    u = s['random_unfinished']
    b = s['balance']
    rests = ('the verdict rests on the thinking games'
             if (b['from'] and not b['from'].startswith('every seat random'))
             or (s.get('skill') and s['players'] == 1)        # (a patience's one thinking seat)
             else 'seat a thinking bot (--skill) to measure the game with players that finish it')
    return ('random seats hardly ever finish this game: %d of %d games with every seat random '
            'had a winner (%d stopped at the step limit); %s' % (
                u['winners'], u['games'], u['step_limit'], rests))


def rotated_lines(s):
    """Under --rotate the rows above count the table's seats, not the bots,
    which moved round them: say so, and give each thinking bot's own row."""
    if not s['rotate']:
        return []
    lines = ['  (--rotate: the rows count the seats of the table; the bots given by --seat '
             'moved round it game by game)']
    for k in s.get('skill') or ():
        lo, hi = k['ci95']
        lines.append('  bot of seat %d, %s: won %d (%s, %s - %s) wherever it sat' % (
            k['seat'], k['bot'], k['wins'], percent(k['share']), percent(lo), percent(hi)))
    return lines


# Said under every report whose intervals are confidence sequences: read
# side by side, two seats with equal wins can show different intervals.
SEQUENCES = ('the intervals are confidence sequences, valid wherever the run stopped; each '
             'follows its own games in order, so equal shares can get different intervals')


def stopping_words(s):
    """How many games were played and why no more."""
    st = s['stopping']
    if st['precision'] is None:
        return 'played %d games (--games; --precision 0: no early stop, fixed-n intervals)' % (
            s['games'])
    widest = ('; the widest, %s: %s' % (st['widest'], percent(st['width']))
              if st['widest'] else '')
    if st['reason'] == 'precision':
        return ('stopped after %d games (at most %d): every interval the verdict reads is '
                'narrower than %s%s' % (s['games'], st['most'], percent(st['precision']), widest))
    if st['reason'] == 'interrupted':
        return 'stopped after %d games: interrupted%s' % (s['games'], widest)
    return ('played all %d games of --games; not every interval the verdict reads is narrower '
            'than %s%s' % (s['games'], percent(st['precision']), widest))


def gap_words(k):
    """A skill gap with its interval, flagged when the interval covers 0."""
    lo, hi = k['gap_ci95']
    return 'gap %+.1f%% (%+.1f%% to %+.1f%%)%s' % (
        100 * k['gap'], 100 * lo, 100 * hi, '' if k['significant'] else ', not significant')


WARN_NO_WORLD = 0.01           # a thinking seat answering blind more often than this is warned of


def no_world_share(t):
    return t['no_world'] / t['decisions'] if t['decisions'] else 0.0


def thinking_lines(s):
    """Each thinking seat's decisions, no-world share and time; a warning
    for a seat that found no world at more than 1% of its decisions."""
    lines, warnings = [], []
    names = {str(r['seat']): r['name'] for r in s['seats']}
    for seat, t in (s.get('thinking') or {}).items():
        lines.append('  thinking: seat %s (%s) %d decisions, no world at %s (%d), %.1f s' % (
            seat, names[seat], t['decisions'], percent(no_world_share(t)), t['no_world'],
            t['seconds']))
        if no_world_share(t) > WARN_NO_WORLD:
            warnings.append('  warning: seat %s (%s) found no consistent world at %s of its '
                            'decisions and answered them at random' % (
                                seat, names[seat], percent(no_world_share(t))))
    return lines + warnings


def set_words(settings):
    """A report's 'set' as the options that give it, each after a space."""
    return ''.join(' --set ' + shlex.quote('%s=%s' % kv) for kv in settings.items())


def format_timing(t):
    where = ('cluster %s, %d worker%s' % (t['cluster'], t['workers'], '' if t['workers'] == 1 else 's')
             if 'cluster' in t else '%d job%s' % (t['jobs'], '' if t['jobs'] == 1 else 's'))
    rate = (', %.3g decisions/s' % t['decisions_per_second']
            if 'decisions_per_second' in t else '')        # with thinking bots
    return '%.2f s, %s%s (%s)' % (t['seconds'], games_rate(t['games_per_second']), rate, where)


def games_rate(per_second):
    """'12.5 games/s', or for a slow run 'a game every 42.0 s' rather than '0.0 games/s'."""
    if per_second >= 1 or not per_second:
        return '%.1f games/s' % per_second
    return 'a game every %.1f s' % (1 / per_second)


def significant(x):
    """x to three significant figures: a slow run's rate is not rounded to 0."""
    return float('%.3g' % x)
