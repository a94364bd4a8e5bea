"""`pipvm sim --report FILE.html`: the design report as a page a designer
reads at a glance: win shares with their intervals (as seated, and in the
games the seating measures come from), what thinking buys (skill and the
depth curve), whether the thinking bots found worlds, the spread of game
lengths, lead histories of sample games, branching over the course of a
game, and the table of measures (docs/metrics.md)."""
from pipvm.design import html, sim
from pipvm.design.html import Page, figure

SAMPLES = 3            # games whose lead history is drawn
DEPTH_COLOURS = ('#e45756', '#72b7b2', '#b279a2', '#ff9da6', '#9d755d', '#54a24b') * 2  # 12 seats


def page_maker():
    """The --report page maker (page), or an error now if matplotlib is
    missing, before any game is played."""
    html.figure_class()
    return page


def page(s, results):
    """The HTML page of sim's summary s and its per-game results."""
    p = Page('%s: design report' % s['game'])
    p.pre(sim.format_report(s))
    p.heading('Who wins')
    p.image(win_shares(s), 'win shares per seat with 95% intervals')
    if s['rotate']:
        p.text('The bars count the seats of the table: with --rotate the bots given by --seat '
               'moved round it game by game, so their own wins are under What thinking buys.')
    if 'random_unfinished' in s:
        p.text(sentence(sim.unfinished_words(s)))
    b = s['balance']
    if sim.too_few(b):
        p.text(sentence(sim.too_few_words(b)))
    if b['from']:
        p.text('Balance, fairness and first-seat advantage describe the seating, so they come '
               'from the games with %s.%s' % (b['from'], ' The seats as given play differently, '
                                              'so their shares (blue) measure the bots as much '
                                              'as the seats.'
                                              if 'win_shares' in b else ''))
    if s.get('skill'):
        p.heading('What thinking buys')
        for k in s['skill']:
            p.text('The %s bot of seat %d%s wins %s; %s %s when every seat '
                   'plays at random: %s.' % (
                       k['bot'], k['seat'], ', moved round the table game by game,'
                       if s['rotate'] else '', sim.share_words(k),
                       'the same seats win' if s['rotate'] else 'the same seat wins',
                       sim.percent(k['random_share']), sim.gap_words(k)))
        if s.get('depth'):
            p.image(depth_curve(s), "the thinking seat's win share by budget")
            p.text('Each point is the thinking seat\'s win share with that budget, against %s, '
                   'with its 95%% interval; the dotted line and band are the same seat\'s share '
                   'and interval when every seat plays at random. A curve that keeps rising '
                   'rewards thought; a flat one says luck decides.'
                   % sim.OPPONENTS[s['depth'][0]['opponents']])
        else:
            p.text('--depth 10,30,100,300 draws how the win share grows with the budget.')
    if s.get('thinking'):
        p.heading('How the thinking bots saw the game')
        p.table(['seat (as given)' if s['rotate'] else 'seat', 'decisions thought about',
                 'no consistent world', 'seconds'],
                thinking_rows(s))
        for line in sim.thinking_lines(s):
            if line.strip().startswith('warning:'):
                p.text(line.strip())
    p.heading('How long a game lasts')
    d = s['duration']
    fixed = [k for k in ('decisions', 'turns') if d[k]['min'] == d[k]['max']]
    if sim.no_choices(s):
        p.text(sim.NO_CHOICES[0].upper() + sim.NO_CHOICES[1:] + '; its length in steps '
               '(loop rounds and action calls, as --max-steps counts them) is below.')
        p.image(lengths(results, ['steps']), 'distribution of game length in steps')
        fixed = ['decisions', 'turns']
    elif fixed:
        p.text('Every game lasts %s.' % ' and '.join('%d %s' % (d[k]['min'], k) for k in fixed))
    if len(fixed) < 2:
        p.image(lengths(results, [k for k in ('decisions', 'turns') if k not in fixed]),
                'distribution of game length')
    p.heading('How the lead changes hands')
    leads = [r for r in results if r.lead][:SAMPLES]
    if leads:
        p.image(lead_histories(leads, [r['name'] for r in s['seats']], lines_of(s)),
                'lead histories of sample games')
    elif sim.no_choices(s):
        p.text('No seat ever has a choice, so no bot can think ahead: there is no lead '
               'history.')
    else:
        p.text('No thinking bot was seated, so there is no lead history: seat one with '
               '--seat 1=ismcts:200, say.')
    p.heading('How many options a player has')
    if sim.no_choices(s):
        p.text('None: no seat ever has a choice.')
    else:
        p.image(branching(s), 'branching over the course of a game')
    p.heading('Measures')
    p.table(['measure', 'value', 'meaning'], measures(s))
    return str(p)


def sentence(words):
    return words[0].upper() + words[1:] + '.'


def win_shares(s):
    """Bars of the win shares as seated; beside them, when the seating
    measures come from other games (every seat random, say), theirs."""
    seats = sim.shows_seats(s)
    rows = [('seat %d\n%s' % (r['seat'], r['name']), r) for r in s['seats'] if seats]
    rows += [('team %d\n%s' % (r['team'], ', '.join(r['members'])), r) for r in s['teams']]
    alike = s['balance'].get('win_shares')
    alike = alike and (alike['seats'] if seats else []) + alike['teams']
    fig = figure(max(4, 1.2 * len(rows)), 3.2)
    ax = fig.add_subplot()
    width = 0.4 if alike else 0.8
    series = [(rows, 0 if alike else None, '#4c78a8', 'as seated')]
    if alike:
        series.append((list(zip([label for label, _ in rows], alike)), 1, '#9d9d9d',
                       s['balance']['from'].split(',')[0]))
    for bars, k, colour, label in series:
        xs = [i + (0 if k is None else (k - 0.5) * width) for i in range(len(bars))]
        err = html.error_bars([r['share'] for _, r in bars], [r['ci95'] for _, r in bars])
        ax.bar(xs, [r['share'] for _, r in bars], width, yerr=err, capsize=4, color=colour,
               label=label)
    # an even share: of the teams when teams win, else of the seats
    sides = 'teams' if s['teams'] else 'seats'
    ax.axhline(1 / max(1, len(s[sides])), color='grey', linestyle=':', label='1 / ' + sides)
    ax.set_xticks(range(len(rows)), [label for label, _ in rows])
    ax.set_ylabel('share of games won')
    ax.set_ylim(0, 1)
    ax.legend(fontsize='small', loc='upper left', bbox_to_anchor=(1, 1))
    return fig


def depth_curve(s):
    """Each thinking seat's win share against its budget (log scale), with
    intervals, over the band of the same seat under random play."""
    fig = figure(6, 3.2)
    ax = fig.add_subplot()
    seats = {}
    for k in s['depth']:
        seats.setdefault((k['seat'], k['name']), []).append(k)
    for ((seat, name), points), colour in zip(seats.items(), DEPTH_COLOURS):
        xs = [k['iterations'] for k in points]
        ys = [k['share'] for k in points]
        err = html.error_bars([k['share'] for k in points], [k['ci95'] for k in points])
        ax.errorbar(xs, ys, yerr=err, marker='o', capsize=4, color=colour,
                    label='seat %d (%s) thinking' % (seat, name))
        base = points[0]
        ax.axhspan(*base['random_ci95'], color=colour, alpha=0.12)
        ax.axhline(base['random_share'], color=colour, linestyle=':',
                   label='seat %d under random play' % seat)
    ax.set_xscale('log')
    budgets = sorted({k['iterations'] for k in s['depth']})
    ax.set_xticks(budgets, [str(b) for b in budgets])
    ax.minorticks_off()
    ax.set_xlabel('budget (iterations per decision)')
    ax.set_ylabel('share of games won')
    ax.set_ylim(0, 1)
    ax.legend(fontsize='small', loc='upper left', bbox_to_anchor=(1, 1))
    return fig


def thinking_rows(s):
    names = {str(r['seat']): r['name'] for r in s['seats']}
    return [('%s (%s)' % (seat, names[seat]), t['decisions'],
             '%d (%s)' % (t['no_world'], sim.percent(sim.no_world_share(t))), t['seconds'])
            for seat, t in s['thinking'].items()]


def lengths(results, keys):
    """Histograms of game length in each of keys ('decisions', 'turns', 'steps')."""
    fig = figure(4.5 * len(keys), 3)
    for i, key in enumerate(keys):
        ax = fig.add_subplot(1, len(keys), i + 1)
        values = [getattr(r, key) for r in results] or [0]
        ax.hist(values, bins=length_bins(values), color='#f58518')
        ax.set_xlabel('%s in a game' % key)
        ax.set_ylabel('games')
    return fig


def length_bins(values, most=40):
    """Bin edges for whole-number lengths: one bar centred on each length
    while at most `most` lengths span the range (evenly split edges would put
    two lengths in one bar and none in the next), else `most` equal bins."""
    lo, hi = min(values), max(values)
    if hi - lo < most:
        return [v - 0.5 for v in range(lo, hi + 2)]
    return most


def lines_of(s):
    """The lead plot's lines: (label, seat), one per seat, or in a team game
    one per team (partners share one chance of winning: their lines would overlap)."""
    seat_of = {r['name']: r['seat'] - 1 for r in s['seats']}
    if s['teams']:
        return [('team %d: %s' % (t['team'], ', '.join(t['members'])), seat_of[t['members'][0]])
                for t in s['teams']]
    return [(name, seat) for name, seat in seat_of.items()]


def lead_histories(games, names, lines):
    fig = figure(4 * len(games), 3)
    for i, r in enumerate(games):
        ax = fig.add_subplot(1, len(games), i + 1)
        xs = [x for x, _ in r.lead]
        for label, seat in lines:
            ax.plot(xs, [est[seat] for _, est in r.lead], marker='.', label=label)
        thinking = ', '.join(names[(row[0] + r.turn) % len(names)] for row in r.thinking)
        ax.set_title('seed %d: %s won; %s thought' % (r.seed, r.winner, thinking)
                     if r.winner else 'seed %d: %s; %s thought' % (r.seed, r.ending, thinking),
                     fontsize='small')
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.set_xlabel('share of the game played')
        if i == 0:
            ax.set_ylabel("estimated chance of winning")
            ax.legend(fontsize='x-small')
    return fig


def branching(s):
    fig = figure(6, 3)
    ax = fig.add_subplot()
    course = s['branching_course']
    ax.plot([(i + 0.5) / len(course) for i, x in enumerate(course) if x is not None],
            [x for x in course if x is not None], marker='o', color='#54a24b')
    ax.set_xlim(0, 1)
    ax.set_ylim(bottom=0)
    ax.set_xlabel('share of the game played')
    ax.set_ylabel('options per decision')
    return fig


def measures(s):
    """(measure, value, meaning) rows of the table."""
    b, c, d = s['balance'], s['completion'], s['duration']
    rows = []
    where = ' (games with %s)' % b['from'].split(',')[0] if b['from'] else ''
    for key in ('seats', 'teams'):
        if b[key]:
            rows += [('balance (%s)' % key, b[key]['balance'],
                      '1 - the largest difference of win shares (Ludii)' + where),
                     ('fairness (%s)' % key, ' '.join('%.2f' % f for f in b[key]['fairness']),
                      '1 when a share is 1/n, 0 when it is 0 or everything (CardStock)'
                      + where),
                     ('first-%s advantage' % key[:-1], sim.first_words(b[key]),
                      "the first one's win share minus the mean share, with its 95% interval; "
                      '"not significant" when that reaches 0' + where)]
    rows += [('completion', c['winner'], 'share of games with a winner'),
             ('no winner', c['no_winner'], 'games that ended without a winner'),
             ('timeouts', c['step_limit'], 'games stopped at the step limit'),
             ('duration (steps)', '%.1f (median %g, at most %d)' % (
                 d['steps']['mean'], d['steps']['median'], d['steps']['max']),
              'loop rounds and action calls in a game, as --max-steps counts them'),
             ('duration (decisions)', '%.1f (median %g)' % (d['decisions']['mean'],
                                                            d['decisions']['median']),
              'choices in a game'),
             ('duration (turns)', '%.1f (median %g)' % (d['turns']['mean'], d['turns']['median']),
              'runs of choices by one seat'),
             ('decision moves', s['decision_moves'], 'share of decisions with a real choice'),
             ('branching', s['branching'], 'options per decision')]
    if sim.no_choices(s):       # zero by construction, not a finding (text.NO_CHOICES)
        rows[-4:] = [(name, 'does not apply', 'no seat ever has a choice')
                     for name, _, _ in rows[-4:]]
    for k in s.get('skill') or ():
        rows.append(('skill (seat %d)' % k['seat'], '%.3f vs %.3f' % (k['share'],
                                                                      k['random_share']),
                     'win share of a thinking seat vs the same seat under random play'))
        rows.append(('skill gap (seat %d)' % k['seat'], sim.gap_words(k)[4:],
                     'the difference, with its 95% interval (a confidence sequence; with '
                     '--precision 0, Newcombe\'s paired interval); '
                     '"not significant" when the interval covers or reaches 0'))
    for seat, t in (s.get('thinking') or {}).items():
        rows.append(('no world (seat %s)' % seat, sim.percent(sim.no_world_share(t)),
                     'share of its decisions with no consistent world (answered at random)'))
    lead = s['lead'] or {}
    for key, meaning in (('drama', "how far the winner trailed, when it did (Browne)"),
                         ('decisiveness', "share of the game left when the winner's "
                                          "chance passed 0.8 for good"),
                         ('lead_changes', 'times the leader changed per game'),
                         ('stability', '1 - mean change of the estimates per decision')):
        if key in lead:
            rows.append((key.replace('_', ' '), lead[key], meaning))
    return rows
