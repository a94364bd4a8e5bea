"""`pipvm sweep`: `pipvm sim` for every combination of --vary values, one table.

Every variant plays the same seeds, so differences between rows come from
the rule changed, not from different deals.  Every variant is loaded and
checked before the first game is played.  The columns are the Metrics of
metrics_for: each is a function of one variant's sim report, so a new
measure (skill, drama...) is one more entry there, and appears in the
table, the JSON and the HTML report alike.
"""
import itertools
import json
import sys
import time

import attrs

from pipvm.design import interrupts, sim
from pipvm.core.errors import PipError


@attrs.frozen
class Metric:
    key: str                   # its key in a variant's 'metrics' (JSON)
    heading: str               # its column heading
    group: str                 # metrics of one group share a plot
    value: object              # report -> {'value': number, 'ci95': [lo, hi] (optional)}
    cell: object = None        # the value as a table cell; default: as `value` says

    def text(self, m):
        if self.cell:
            return self.cell(m)
        if 'ci95' in m:
            lo, hi = m['ci95']
            return '%s (%s-%s)' % (sim.percent(m['value']), sim.percent(lo)[:-1],
                                   sim.percent(hi))
        return '%.1f' % m['value']


def _share(row):
    return {'value': row['share'], 'ci95': row['ci95']}


def metrics_for(report):
    """The metrics of a game's sweep, from the report of one of its variants:
    seat win shares (teams' in a team game), completion, games without a
    winner, timeouts, errors, balance, length in decisions, turns and steps, and with
    thinking bots each one's skill gap and no-world share."""
    out = []
    if report['teams']:
        out += [Metric('team%d' % t['team'], 'team %d' % t['team'], 'win share',
                       lambda r, i=i: _share(r['teams'][i]))
                for i, t in enumerate(report['teams'])]
    else:
        out += [Metric('seat%d' % s['seat'], 'seat %d %s' % (s['seat'], s['name']), 'win share',
                       lambda r, i=i: _share(r['seats'][i]))
                for i, s in enumerate(report['seats'])]
    out += [Metric('completed', 'completed', 'endings', _completed),
            Metric('no_winner', 'no winner', 'endings', lambda r: _count(r, r['no_winner']),
                   _percent),
            Metric('timeouts', 'timeouts', 'endings',
                   lambda r: _count(r, r['step_limit']['count']), _percent),
            Metric('errors', 'errors', 'endings', lambda r: _count(r, r['errors']['count']),
                   _percent),
            Metric('balance', 'balance', 'balance', _balance,
                   lambda m: '-' if m['value'] is None else '%.2f' % m['value']),
            Metric('length', 'decisions', 'length', lambda r: {'value': r['length']['mean']}),
            Metric('turns', 'turns', 'length',
                   lambda r: {'value': r['duration']['turns']['mean']}),
            Metric('steps', 'steps', 'length',
                   lambda r: {'value': r['duration']['steps']['mean']})]
    for i, k in enumerate(report.get('skill') or ()):
        out.append(Metric('skill%d' % k['seat'], 'skill gap %d' % k['seat'], 'skill gap',
                          lambda r, i=i: _gap(r['skill'][i]), _gap_cell))
    for seat in report.get('thinking') or ():
        out.append(Metric('no_world%s' % seat, 'no world %s' % seat, 'no world',
                          lambda r, seat=seat: _no_world(r['thinking'][seat]),
                          _percent))
    return out


def _percent(m):
    return sim.percent(m['value'])


def _completed(r):
    """Games that ended by themselves (not at the step limit or an error)."""
    return _count(r, r['games'] - r['step_limit']['count'] - r['errors']['count'])


def _count(r, k):
    m = sim.share(k, r['games'])
    return {'value': m['share'], 'ci95': m['ci95']}


def _balance(r):
    """The seats' balance (the teams', in a team game), from the games where
    every seat plays alike (sim's 'balance.from')."""
    b = r['balance']
    b = b['teams'] or b['seats']
    return {'value': b and b['balance']}


def _gap(k):
    return {'value': k['gap'], 'ci95': k['gap_ci95'], 'significant': k['significant']}


def _gap_cell(m):
    return '%+.1f%%%s' % (100 * m['value'], '' if m['significant'] else ' n.s.')


def _no_world(t):
    return {'value': round(sim.no_world_share(t), 4)}


def combinations(varies):
    """[(name, value text), ...] for each combination of [(name, [values])]."""
    names = [name for name, _ in varies]
    return [list(zip(names, values)) for values in itertools.product(*(v for _, v in varies))]


def sweep(args, seating, progress=None):
    """The sweep as plain data (JSON-ready); 'interrupted' if Ctrl-C cut it short."""
    names = [name for name, _ in args.vary]
    if len(set(names)) != len(names):
        raise PipError(None, '--vary: a global is varied twice')
    combos = combinations(args.vary)
    variants = [sim.prepare(args, seating, args.set + combo) for combo in combos]
    start = time.perf_counter()
    rows, metrics, interrupted = [], None, False
    for i, variant in enumerate(variants):
        if rows and interrupts.pressed():     # held as the last variant ended: no empty row
            interrupted = True
            break
        if progress:
            progress.prefix = 'variant %d of %d: ' % (i + 1, len(variants))
        report = sim.run(args, variant, progress)
        metrics = metrics or metrics_for(report)
        rows.append({'vary': {s.name: s.text for s in variant.settings if s.name in names},
                     'metrics': {m.key: m.value(report) for m in metrics},
                     'report': report})
        if report.get('interrupted'):
            interrupted = True
            break
    first = rows[0]['report']
    seconds = time.perf_counter() - start
    out = {
        'game': first['game'], 'file': args.file, 'engine': args.engine,
        'games': args.games, 'seed': args.seed, 'players': first['players'],
        'seating': first['seating'], 'set': {k: v for k, v in first['set'].items()
                                             if k not in names},
        'max_steps': args.max_steps,
        'vary': {name: list(dict.fromkeys(s.text for v in variants for s in v.settings
                                          if s.name == name)) for name in names},
        'metrics': [{'key': m.key, 'heading': m.heading, 'group': m.group} for m in metrics],
        'variants': rows,
        'timing': {'seconds': round(seconds, 3),
                   'games_per_second': sim.significant(sum(r['report']['games'] for r in rows) / seconds)
                   if seconds else 0.0},
    }
    if interrupted:
        out['interrupted'] = True
        out['variants_planned'] = len(variants)
    return out, metrics


def title(s):
    n = len(s['variants'])
    games = [row['report']['games'] for row in s['variants']]
    each = ('%d games each' % games[0] if len(set(games)) == 1
            else '%d to %d games' % (min(games), max(games)))
    return '%s: %d variant%s, %s (seeds %d..%d), %d players, %s%s%s' % (
        s['game'], n, '' if n == 1 else 's', each, s['seed'], s['seed'] + max(games) - 1,
        s['players'], s['seating'], ' --rotate' if s['variants'][0]['report']['rotate'] else '',
        sim.set_words(s['set']))


def cells(s, metrics):
    """The table as text cells: the headings, then a row per variant."""
    names = list(s['vary'])
    table = [names + [m.heading for m in metrics]]
    for row in s['variants']:
        table.append([row['vary'][n] for n in names]
                     + [m.text(row['metrics'][m.key]) for m in metrics])
    return table


def notes(s):
    """Lines under the table: each variant's first error, where balance
    comes from when the seats differ, the time taken, and an interruption."""
    lines = []
    for row in s['variants']:
        errors = row['report']['errors']
        if errors['count']:
            lines.append('  first error of %s: seed %d: %s (replay: %s)' % (
                ' '.join('%s=%s' % kv for kv in row['vary'].items()), errors['first_seed'],
                errors['message'], errors['replay']))
    balance = s['variants'][0]['report']['balance']
    if 'win_shares' in balance:
        lines.append('  balance: from the games with %s' % balance['from'])
    if len({row['report']['games'] for row in s['variants']}) > 1:
        lines.append('  games: %s (each variant stops once its intervals are narrower than '
                     '--precision)' % ', '.join(str(row['report']['games'])
                                                for row in s['variants']))
    t = s['timing']
    lines.append('  %.2f s, %s' % (t['seconds'], sim.games_rate(t['games_per_second'])))
    if s.get('interrupted'):
        last = s['variants'][-1]['report']
        lines.append('  interrupted: %d of %d variants played%s' % (
            len(s['variants']), s['variants_planned'],
            ', the last only %d games' % last['games'] if last.get('interrupted') else ''))
    return lines


def format_table(s, metrics):
    """The sweep as a text table: a row per variant."""
    table = cells(s, metrics)
    widths = [max(len(r[c]) for r in table) for c in range(len(table[0]))]
    lines = [title(s)]
    for r in table:
        lines.append('  ' + '  '.join(cell.rjust(w) for cell, w in zip(r, widths)).rstrip())
    return '\n'.join(lines + notes(s)) + '\n'


def plots(s, metrics):
    """[(group, Figure)]: per group of metrics, its values against the first
    varied global, a line per metric and combination of the other varied globals."""
    from pipvm.design.html import error_bars, figure
    names = list(s['vary'])
    axis, others = names[0], names[1:]
    xs = s['vary'][axis]
    out = []
    for group in dict.fromkeys(m.group for m in metrics):
        fig = figure(6.4, 3.6)
        ax = fig.add_subplot()
        for m in (m for m in metrics if m.group == group):
            lines = {}
            for row in s['variants']:
                rest = ', '.join('%s=%s' % (n, row['vary'][n]) for n in others)
                lines.setdefault(rest, []).append((xs.index(row['vary'][axis]),
                                                   row['metrics'][m.key]))
            for rest, points in lines.items():
                points = [(p, v) for p, v in points if v['value'] is not None]
                x = [p for p, _ in points]
                y = [v['value'] for _, v in points]
                err = None
                if all('ci95' in v for _, v in points):
                    err = error_bars(y, [v['ci95'] for _, v in points])
                label = m.heading + (' (%s)' % rest if rest else '')
                ax.errorbar(x, y, yerr=err, marker='o', capsize=3, label=label)
        if group == 'skill gap':
            ax.axhline(0, color='grey', linestyle=':')      # an interval across it: not significant
        else:
            ax.set_ylim(bottom=0)                           # shares, counts and lengths
        ax.set_xticks(range(len(xs)), xs)
        ax.set_xlabel(axis)
        ax.set_ylabel(group)
        ax.legend(fontsize='small')
        out.append((group, fig))
    return out


def format_html(s, metrics, figures):
    from pipvm.design.html import Page
    page = Page('%s: sweep over %s' % (s['game'], ', '.join(s['vary'])))
    page.text(title(s))
    table = cells(s, metrics)
    page.table(table[0], table[1:])
    page.pre('\n'.join(line.strip() for line in notes(s)))
    for group, fig in figures:
        page.heading(group)
        page.image(fig, group)
    return str(page)


def main(args, seating):
    from pipvm.isa import pipc
    if args.report:
        from pipvm.design.html import figure_class
        figure_class()                  # matplotlib missing: say so before any game
    progress = sim.progress_bar()
    with interrupts.held():
        s, metrics = sweep(args, seating, progress)
        if progress:
            progress.clear()
        if args.report:
            page = format_html(s, metrics, plots(s, metrics))
            pipc.write_file(args.report, page.encode('utf-8'))
        sys.stdout.write(json.dumps(s, indent=2) + '\n' if args.json else format_table(s, metrics))
        sys.stdout.flush()
    return 130 if s.get('interrupted') else 0
