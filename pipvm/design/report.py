"""`pipvm sim --report FILE.html`: the design report as a page a designer
reads at a glance: win shares with their intervals, the spread of game
lengths, lead histories of sample games, branching over the course of a
game, and the table of measures (docs/metrics.md)."""
from pipvm.design import html, sim
from pipvm.design.html import Page, figure

SAMPLES = 3            # games whose lead history is drawn


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
    p.heading('How long a game lasts')
    p.image(lengths(results), 'distribution of game length in decisions')
    p.heading('How the lead changes hands')
    leads = [r for r in results if r.lead][:SAMPLES]
    if leads:
        p.image(lead_histories(leads, [r['name'] for r in s['seats']]), 'lead histories of sample games')
    else:
        p.text('No thinking bot was seated, so there is no lead history: seat one with '
               '--seat 1=ismcts:200, say.')
    p.heading('How many options a player has')
    p.image(branching(s), 'branching over the course of a game')
    p.heading('Measures')
    p.table(['measure', 'value', 'meaning'], measures(s))
    return str(p)


def win_shares(s):
    rows = [('seat %d\n%s' % (r['seat'], r['name']), r) for r in s['seats']]
    rows += [('team %d\n%s' % (r['team'], ', '.join(r['members'])), r) for r in s['teams']]
    fig = figure(max(4, 1.2 * len(rows)), 3.2)
    ax = fig.add_subplot()
    shares = [r['share'] for _, r in rows]
    err = [[r['share'] - r['ci95'][0] for _, r in rows],
           [r['ci95'][1] - r['share'] for _, r in rows]]
    ax.bar(range(len(rows)), shares, yerr=err, capsize=4, color='#4c78a8')
    ax.axhline(1 / max(1, len(s['seats'])), color='grey', linestyle=':', label='1 / seats')
    ax.set_xticks(range(len(rows)), [label for label, _ in rows])
    ax.set_ylabel('share of games won')
    ax.set_ylim(0, 1)
    ax.legend(fontsize='small')
    return fig


def lengths(results):
    fig = figure(6, 3)
    ax = fig.add_subplot()
    values = [r.decisions for r in results] or [0]
    bins = min(40, max(1, max(values) - min(values) + 1))
    ax.hist(values, bins=bins, color='#f58518')
    ax.set_xlabel('decisions in a game')
    ax.set_ylabel('games')
    return fig


def lead_histories(games, names):
    fig = figure(4 * len(games), 3)
    for i, r in enumerate(games):
        ax = fig.add_subplot(1, len(games), i + 1)
        xs = [x for x, _ in r.lead]
        for seat, name in enumerate(names):
            ax.plot(xs, [est[seat] for _, est in r.lead], marker='.', label=name)
        ax.set_title('seed %d: %s' % (r.seed, r.winner or r.ending), fontsize='small')
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
    for key in ('seats', 'teams'):
        if b[key]:
            rows += [('balance (%s)' % key, b[key]['balance'],
                      '1 - the largest difference of win shares (Ludii)'),
                     ('fairness (%s)' % key, ' '.join('%.2f' % f for f in b[key]['fairness']),
                      '1 when a share is 1/n, 0 when it is 0 or everything (CardStock)'),
                     ('first-%s advantage' % key[:-1], b[key]['first_advantage'],
                      "the first one's win share minus the mean share")]
    rows += [('completion', c['winner'], 'share of games with a winner'),
             ('no winner', c['no_winner'], 'games that ended without a winner'),
             ('timeouts', c['step_limit'], 'games stopped at the step limit'),
             ('duration (decisions)', '%.1f (median %g)' % (d['decisions']['mean'],
                                                            d['decisions']['median']),
              'choices in a game'),
             ('duration (turns)', '%.1f (median %g)' % (d['turns']['mean'], d['turns']['median']),
              'runs of choices by one seat'),
             ('decision moves', s['decision_moves'], 'share of decisions with a real choice'),
             ('branching', s['branching'], 'options per decision')]
    for k in s.get('skill') or ():
        rows.append(('skill (seat %d)' % k['seat'], '%.3f vs %.3f' % (k['share'],
                                                                      k['random_share']),
                     'win share of a thinking seat vs the same seat under random play'))
    lead = s['lead'] or {}
    for key, meaning in (('drama', "how far the winner trailed, when it did (Browne)"),
                         ('decisiveness', "share of the game left when the winner's "
                                          "chance passed 0.8 for good"),
                         ('lead_changes', 'times the leader changed per game'),
                         ('stability', '1 - mean change of the estimates per decision')):
        if key in lead:
            rows.append((key.replace('_', ' '), lead[key], meaning))
    return rows
