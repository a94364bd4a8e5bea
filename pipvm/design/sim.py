"""`pipvm sim`: many games between bots, and what they say about the design.

Game i plays with seed S+i, its own generator and fresh state, so each game
is a pure function of its seed: spreading games over processes (--jobs)
changes only how long the whole takes.  Results are gathered by game index
and summarised in that order, so the report does not depend on --jobs.
"""
import json
import math
import multiprocessing
import shlex
import signal
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import attrs

from pipvm.play import loader, overrides
from pipvm.design import metrics
from pipvm.isa import pipc
from pipvm.core.deepstack import deep
from pipvm.core.errors import PipError
from pipvm.play.seats import Seating, SeatSpec, bot_name, parse_kind
from pipvm.core.dialogue import team_seats
# (sim.Result, sim.play_one, ...: playing.py holds them for cluster.py too)
from pipvm.design.playing import Result, chunked, play_one, sim_seating  # noqa: F401

Z95 = 1.959963984540054        # the normal quantile of a two-sided 95% interval


# --- spreading games over processes -------------------------------------------

_job = None                    # (engine, seating) in a worker process


def _play_chunk(seeds):
    engine, seating = _job
    return deep(lambda: [play_one(engine, seating, s) for s in seeds])


def _ignore_interrupts():
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # the parent handles Ctrl-C


def simulate(engine, seating, seeds, jobs=1, progress=None):
    """The Result of each seed, in seed order.  progress(games, decisions)
    is called as games finish.  On Ctrl-C, the results so far (a prefix of seeds, in order)
    and True."""
    global _job
    _job = (engine, seating)
    chunks = chunked(seeds, jobs)
    out, interrupted = [], False
    pool = None
    try:
        if jobs == 1:
            results = map(_play_chunk, chunks)
        else:
            # Forked workers inherit the loaded game: nothing is re-read or pickled in.
            pool = ProcessPoolExecutor(jobs, multiprocessing.get_context('fork'),
                                       initializer=_ignore_interrupts)
            results = pool.map(_play_chunk, chunks)      # in order, whoever finishes first
        decisions = 0
        for rs in results:
            out += rs
            decisions += sum(r.decisions for r in rs)
            if progress:
                progress(len(out), decisions)
    except KeyboardInterrupt:
        interrupted = True
    except BrokenProcessPool:
        raise PipError(None, 'a simulation process stopped unexpectedly (try --jobs 1)') from None
    finally:
        if pool:
            pool.shutdown(cancel_futures=True)
    return out, interrupted


# --- the report -----------------------------------------------------------------

def wilson(k, n):
    """The 95% Wilson score interval of a proportion k/n."""
    if n == 0:
        return [0.0, 1.0]
    p, z2 = k / n, Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def share(k, n):
    return {'wins': k, 'share': round(k / n, 4) if n else 0.0, 'ci95': wilson(k, n)}


def first_of(results, ending):
    return next((r for r in results if r.ending == ending), None)


def summarise(results, setup, baseline=None):
    """The report as plain data (JSON-ready).  Everything outside 'timing'
    depends only on the seeds and the game, never on --jobs or the clock.
    baseline: the results of the same seeds under random play, for 'skill'."""
    n = len(results)
    seats = [dict(seat=s + 1, name=name, **share(sum(r.seat == s for r in results), n))
             for s, name in enumerate(setup['names'])]
    teams = [dict(team=t + 1, members=members, **share(sum(r.team == t for r in results), n))
             for t, members in enumerate(setup['teams'])]
    others = {}
    for r in results:
        if r.ending == 'winner' and r.seat is None and r.team is None:
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
        'seating': setup['seating'], 'set': setup['set'], 'max_steps': setup['max_steps'],
        'seats': seats, 'teams': teams,
        'other_winners': [{'winner': w, **share(k, n)} for w, k in sorted(others.items())],
        'no_winner': sum(r.ending == 'no winner' for r in results),
        'step_limit': stopped('step limit'),
        'errors': stopped('error', message=True),
        'length': {'mean': round(statistics.fmean(lengths), 4) if n else 0.0,
                   'median': statistics.median(lengths) if n else 0},
        'branching': round(sum(r.options for r in results) / decisions, 4) if decisions else 0.0,
        **design(results, setup, seats, teams, baseline),
    }


def design(results, setup, seats, teams, baseline):
    """The design report's measures (pipvm/design/metrics.py, docs/metrics.md)."""
    n = len(results)
    groups = setup['groups']
    branches = [r.branch for r in results]
    out = {
        # In a team game where only teams win, per-seat figures say nothing.
        'balance': {'seats': metrics.balance([r['share'] for r in seats])
                    if not teams or any(r['wins'] for r in seats) else None,
                    'teams': metrics.balance([r['share'] for r in teams]) if teams else None},
        'completion': {'winner': round(sum(r.ending == 'winner' for r in results) / n, 4)
                       if n else 0.0,
                       'no_winner': sum(r.ending == 'no winner' for r in results),
                       'step_limit': sum(r.ending == 'step limit' for r in results),
                       'errors': sum(r.ending == 'error' for r in results)},
        'duration': {'decisions': metrics.spread([r.decisions for r in results]),
                     'turns': metrics.spread([r.turns for r in results])},
        'decision_moves': round(sum(b > 1 for br in branches for b in br) /
                                max(1, sum(map(len, branches))), 4),
        'branching_course': metrics.branching_course(b for b in branches if b),
        'lead': metrics.lead_summary(
            [metrics.lead_measures(list(r.lead), _winning_seats(r, groups), groups)
             for r in results]),
    }
    if baseline is not None:
        out['skill'] = [skill(s, setup['names'][s], results, baseline, groups)
                        for s in setup['thinking']]
    return out


def _winning_seats(r, groups):
    if r.team is not None:
        return {s for s, g in enumerate(groups) if g == r.team}
    return set() if r.seat is None else {r.seat}


def skill(seat, name, results, baseline, groups):
    """A thinking seat's wins (against the others as seated), beside the same
    seat's wins in the same deals under random play (CardStock's meaningful
    moves: the gap is what thinking buys)."""
    wins = sum(seat in _winning_seats(r, groups) for r in results)
    base = sum(seat in _winning_seats(r, groups) for r in baseline)
    mine, theirs = share(wins, len(results)), share(base, len(baseline))
    return {'seat': seat + 1, 'name': name, **mine, 'random_share': theirs['share'],
            'random_ci95': theirs['ci95'], 'gap': round(mine['share'] - theirs['share'], 4)}


def percent(x):
    return '%.1f%%' % (100 * x)


def format_report(s):
    lines = ['%s: %d games (seeds %d..%d), %d players, %s%s' % (
        s['game'], s['games'], s['seed'], s['seed'] + s['games'] - 1, s['players'],
        s['seating'], set_words(s['set']))]
    rows = []
    if not s['teams'] or any(r['wins'] for r in s['seats']):     # in a team game, if a player won
        rows = [('seat %d' % r['seat'], r['name'], r) for r in s['seats']]
    rows += [('team %d' % r['team'], ', '.join(r['members']), r) for r in s['teams']]
    rows += [('winner', r['winner'], r) for r in s['other_winners']]
    width = max([len(name) for _, name, _ in rows] + [4])
    lines.append('  %-7s %-*s %6s %7s   %s' % ('', width, 'name', 'wins', 'share', '95% interval'))
    for label, name, r in rows:
        lo, hi = r['ci95']
        lines.append('  %-7s %-*s %6d %7s   %s - %s' % (
            label, width, name, r['wins'], percent(r['share']), percent(lo), percent(hi)))
    lines.append('  no winner: %d   stopped at %d steps: %d   errors: %d' % (
        s['no_winner'], s['max_steps'], s['step_limit']['count'], s['errors']['count']))
    for key, what in (('step_limit', 'first stopped'), ('errors', 'first error')):
        info = s[key]
        if info['count']:
            lines.append('  %s: seed %d%s' % (
                what, info['first_seed'], ': ' + info['message'] if 'message' in info else ''))
            lines.append('    replay: ' + info['replay'])
    lines.append('  length: mean %.1f decisions, median %g' % (
        s['length']['mean'], s['length']['median']))
    lines.append('  branching: %.2f options per decision' % s['branching'])
    lines += format_design(s)
    lines.append('  ' + format_timing(s['timing']))
    if s.get('interrupted'):
        lines.append('  interrupted: only the first %d games were played' % s['games'])
    return '\n'.join(lines) + '\n'


def format_design(s):
    """The design report's lines (docs/metrics.md)."""
    b, c, d = s['balance'], s['completion'], s['duration']
    lines = ['design (docs/metrics.md):']
    for key, label in (('seats', 'seat'), ('teams', 'team')):
        if b[key]:
            lines.append('  balance by %s: %.3f   fairness %s   first %s advantage %+.1f%%' % (
                label, b[key]['balance'], ' '.join('%.2f' % f for f in b[key]['fairness']),
                label, 100 * b[key]['first_advantage']))
    lines.append('  completion: %s with a winner, %d without, %d stopped at the step limit, '
                 '%d errors' % (percent(c['winner']), c['no_winner'], c['step_limit'],
                                c['errors']))
    for key in ('decisions', 'turns'):
        x = d[key]
        lines.append('  duration in %s: mean %.1f, median %g, sd %.1f, %d..%d' % (
            key, x['mean'], x['median'], x['stdev'], x['min'], x['max']))
    lines.append('  decision moves: %s of decisions offer a choice' % percent(s['decision_moves']))
    lines.append('  branching by tenth of the game: %s' % ' '.join(
        '-' if x is None else '%.1f' % x for x in s['branching_course']))
    for k in s.get('skill') or ():
        lo, hi = k['ci95']
        lines.append('  skill: seat %d (%s) wins %s (%s - %s); %s under random play: gap %+.1f%%'
                     % (k['seat'], k['name'], percent(k['share']), percent(lo), percent(hi),
                        percent(k['random_share']), 100 * k['gap']))
    lead = s['lead']
    if lead:
        lines.append('  lead (%d games with thinking bots and a winner): drama %.3f, '
                     'decisiveness %.3f, lead changes %.2f, stability %.3f' % (
                         lead['games'], lead['drama'], lead['decisiveness'],
                         lead['lead_changes'], lead['stability']))
    return lines


def set_words(settings):
    """A report's 'set' as the options that give it, each after a space."""
    return ''.join(' --set ' + shlex.quote('%s=%s' % kv) for kv in settings.items())


def format_timing(t):
    where = ('cluster %s, %d worker%s' % (t['cluster'], t['workers'], '' if t['workers'] == 1 else 's')
             if 'cluster' in t else '%d job%s' % (t['jobs'], '' if t['jobs'] == 1 else 's'))
    rate = (', %.0f decisions/s' % t['decisions_per_second']
            if 'decisions_per_second' in t else '')        # with thinking bots
    return '%.2f s, %.1f games/s%s (%s)' % (t['seconds'], t['games_per_second'], rate, where)


class Progress:
    """A progress bar on stderr, redrawn at most ten times a second; with
    thinking bots, it shows decisions per second too."""

    def __init__(self, total, stream, thinking=False):
        self.total, self.stream, self.thinking = total, stream, thinking
        self.start = self.last = time.perf_counter()

    def __call__(self, done, decisions=0):
        now = time.perf_counter()
        if now - self.last < 0.1 and done < self.total:
            return
        self.last = now
        filled = 30 * done // self.total
        seconds = max(now - self.start, 1e-9)
        self.stream.write('\r[%s%s] %d/%d games, %.0f games/s %s' % (
            '#' * filled, '.' * (30 - filled), done, self.total, done / seconds,
            '%.0f decisions/s ' % (decisions / seconds) if self.thinking else ''))
        self.stream.flush()

    def clear(self):
        self.stream.write('\r' + ' ' * 90 + '\r')
        self.stream.flush()


def seats_of(program, seating):
    """(bot name by seat, member names by team, each seat's group: its team's
    number, or the seat itself); an error if --players or --seat does not
    fit the game."""
    players = seating.check(program)
    names = [bot_name(s) for s in range(players)]
    size = program.team_size
    groups = list(range(players))
    teams = []
    if size:
        for t, seats in enumerate(team_seats(players // size, size)):
            teams.append([names[s] for s in seats])
            for s in seats:
                groups[s] = t
    return names, teams, groups


@attrs.frozen
class Variant:
    """A game ready to simulate: the program with its --set values, and who plays."""
    program: object
    engine: object                 # the engine factory (loader.engine_for)
    settings: list                 # overrides.Settings
    seating: object
    names: list
    teams: list
    groups: list                   # each seat's team number, or the seat itself
    thinking: list                 # the seats of thinking bots


def prepare(args, seating, sets=()):
    """The Variant of the game in args.file with sets ([(name, text)]) applied.
    Every error (file, --set, seating, --skill) is raised here, before a game runs."""
    program, checked, settings = loader.load_variant(args.file, sets)
    engine = loader.engine_for(program, checked, args.file, args.engine, args.max_steps)
    if args.cluster and args.engine != 'vm':
        raise PipError(None, '--cluster plays games on the VM engine only')
    seating = sim_seating(program, seating)
    if args.skill and not seating.thinks():
        spec = parse_kind(args.skill)
        if not spec.thinks:
            raise PipError(None, "--skill %s: expected mc[:N] or ismcts[:N]" % args.skill)
        seating = attrs.evolve(seating, specs={**seating.specs, 0: spec})
    names, teams, groups = seats_of(program, seating)
    thinking = [s for s in range(len(names)) if seating.spec(s).thinks]
    return Variant(program, engine, settings, seating, names, teams, groups, thinking)


def _simulate(args, variant, seating, seeds, progress):
    """(results, interrupted, workers or None), here or on the cluster."""
    if args.cluster:
        from pipvm.design import cluster
        return cluster.simulate(args.cluster, variant.program, seating, seeds, args.max_steps,
                                progress)
    return (*simulate(variant.engine, seating, seeds, args.jobs, progress), None)


def run(args, variant, progress=None):
    """The report (plain data) of args.games games of a Variant."""
    return play(args, variant, progress)[0]


def play(args, variant, progress=None):
    """(the report, the Results) of args.games games of a Variant.  With
    thinking bots, the same seeds are played again with every seat random,
    for the skill measure; progress counts both series."""
    seeds = list(range(args.seed, args.seed + args.games))
    start = time.perf_counter()
    results, interrupted, workers = _simulate(args, variant, variant.seating, seeds, progress)
    baseline = None
    if variant.thinking and not interrupted:
        at = (len(results), sum(r.decisions for r in results))
        random_play = Seating(default=SeatSpec('random'), players=variant.seating.players)
        baseline, interrupted, _ = _simulate(
            args, variant, random_play, seeds,
            progress and (lambda done, d=0: progress(at[0] + done, at[1] + d)))
        baseline = None if interrupted else baseline
    seconds = time.perf_counter() - start
    seating, settings = variant.seating, variant.settings
    replay = (['pipvm', 'run', args.file] + seating.options() + overrides.options(settings)
              + ['--max-steps', str(args.max_steps)])
    if args.engine != 'vm':
        replay += ['--engine', args.engine]
    setup = {
        'game': variant.program.name, 'file': args.file, 'engine': args.engine,
        'seed': args.seed, 'names': variant.names, 'teams': variant.teams,
        'groups': variant.groups, 'thinking': variant.thinking,
        'seating': ' '.join(seating.options()), 'set': overrides.describe(settings),
        'max_steps': args.max_steps,
        'replay': lambda seed: shlex.join(replay[:3] + ['--seed', str(seed)] + replay[3:]),
    }
    summary = summarise(results, setup, baseline)
    where = {'cluster': args.cluster, 'workers': workers} if args.cluster else {'jobs': args.jobs}
    summary['timing'] = {'seconds': round(seconds, 3), **where,
                         'games_per_second': round(len(results) / seconds, 1) if seconds else 0.0}
    if variant.thinking:
        decisions = sum(r.decisions for r in results + (baseline or []))
        summary['timing']['decisions_per_second'] = round(decisions / seconds, 1) if seconds else 0.0
    if interrupted:
        summary['interrupted'] = True
    return summary, results


def progress_bar(games, thinking=False):
    return Progress(games, sys.stderr, thinking) if sys.stderr.isatty() else None


def main(args, seating, report_page=None):
    """`pipvm sim`; report_page() gives --report's page maker (report.page_maker:
    the command line hands it over, as report.py is built on this module)."""
    variant = prepare(args, seating, args.set)
    page = report_page() if args.report else None          # matplotlib missing: say so now
    series = 2 if variant.thinking else 1
    progress = progress_bar(args.games * series, bool(variant.thinking))
    summary, results = play(args, variant, progress)
    if progress:
        progress.clear()
    if page:
        pipc.write_file(args.report, page(summary, results).encode('utf-8'))
    if args.json:
        sys.stdout.write(json.dumps(summary, indent=2) + '\n')
    else:
        sys.stdout.write(format_report(summary))
    sys.stdout.flush()
    return 130 if summary.get('interrupted') else 0

