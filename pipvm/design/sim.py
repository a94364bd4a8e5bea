"""`pipvm sim`: many games between bots, and what they say about the design.

Game i plays with seed S+i, its own generator and fresh state, so each game
is a pure function of its seed: spreading games over processes (--jobs)
changes only how long the whole takes.  Results are gathered by game index
and summarised in that order, so the report does not depend on --jobs.
"""
import json
import multiprocessing
import shlex
import signal
import threading
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
from pipvm.play.bots import DEFAULTS
from pipvm.play.seats import Seating, SeatSpec, bot_name, parse_kind
from pipvm.core.dialogue import team_seats
from pipvm.design.metrics import Z95, wilson   # noqa: F401 (tests take Z95 from sim)
# (sim.Result, sim.play_one, ...: playing.py holds them for cluster.py too)
from pipvm.design.playing import Result, chunked, play_one, sim_seating, turned  # noqa: F401


# --- spreading games over processes -------------------------------------------

_job = None                    # (engine, seating, rotate) in a worker process


def _play_chunk(seeds):
    engine, seating, rotate = _job
    return deep(lambda: [play_one(engine, seating, s, rotate) for s in seeds])


def _ignore_interrupts():
    # The parent handles Ctrl-C and `timeout`'s SIGTERM: it reports what is done.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _terminated(signum, frame):
    raise KeyboardInterrupt     # a SIGTERM ends a run as Ctrl-C does: with the report so far


def simulate(engine, seating, seeds, jobs=1, progress=None, rotate=False):
    """The Result of each seed, in seed order.  progress(games, decisions)
    is called as games finish.  On Ctrl-C, the results so far (a prefix of seeds, in order)
    and True."""
    global _job
    _job = (engine, seating, rotate)
    chunks = chunked(seeds, jobs)
    out, interrupted = [], False
    pool = None
    main = threading.current_thread() is threading.main_thread()   # signals go to it only
    was = signal.signal(signal.SIGTERM, _terminated) if main else None
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
        if main:
            signal.signal(signal.SIGTERM, was)
    return out, interrupted


# --- the report -----------------------------------------------------------------

def share(k, n):
    return {'wins': k, 'share': round(k / n, 4) if n else 0.0, 'ci95': wilson(k, n)}


def first_of(results, ending):
    return next((r for r in results if r.ending == ending), None)


def seat_rows(results, setup):
    """(per-seat rows, per-team rows) of wins, shares and intervals."""
    n = len(results)
    seats = [dict(seat=s + 1, name=name, **share(sum(r.seat == s for r in results), n))
             for s, name in enumerate(setup['names'])]
    teams = [dict(team=t + 1, members=members, **share(sum(r.team == t for r in results), n))
             for t, members in enumerate(setup['teams'])]
    return seats, teams


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
        'seating': setup['seating'], 'rotate': setup['rotate'], 'set': setup['set'],
        'max_steps': setup['max_steps'],
        'seats': seats, 'teams': teams,
        'other_winners': [{'winner': w, **share(k, n)} for w, k in sorted(others.items())],
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
    depth: list = ()           # [(budget, Results)] for the depth curve


def balance_of(results, setup):
    """Balance, fairness and first-seat advantage of some games' win shares."""
    seats, teams = seat_rows(results, setup)

    def measures(rows):
        out = metrics.balance([r['share'] for r in rows])
        # The first one's Wilson interval less the mean share (fixed by the games' endings).
        mean = rows[0]['share'] - out['first_advantage']
        out['first_advantage_ci95'] = [round(x - mean, 4) for x in rows[0]['ci95']]
        return out
    # In a team game where only teams win, per-seat figures say nothing.
    return {'seats': measures(seats) if not teams or any(r['wins'] for r in seats) else None,
            'teams': measures(teams) if teams else None}


def design(results, setup, series):
    """The design report's measures (pipvm/design/metrics.py, docs/metrics.md)."""
    n = len(results)
    groups = setup['groups']
    branches = [r.branch for r in results]
    balance = {'seats': None, 'teams': None, 'from': None}
    if series.alike is not None:
        balance = {**balance_of(series.alike, setup), 'from': series.alike_from}
        if series.alike is not results:         # their win shares, beside those as seated
            seats, teams = seat_rows(series.alike, setup)
            balance['win_shares'] = {'seats': seats, 'teams': teams}
    out = {
        'balance': balance,
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
    if setup['thinking']:
        out['thinking'] = thinking(results, setup)
    if series.random is not None and not no_choices(out):
        out['skill'] = [dict(bot=setup['bots'][s],
                             **skill(s, setup['names'][s], results, series.random, groups))
                        for s in setup['thinking']]
    if series.depth and 'skill' in out:
        out['depth'] = [dict(iterations=budget, bot='%s:%d' % (setup['kinds'][s], budget),
                             opponents=setup['opponents'][s],
                             **skill(s, setup['names'][s], games, series.random, groups),
                             **no_world(games, s))
                        for budget, games in series.depth for s in setup['thinking']]
    return out


def _winning_seats(r, groups):
    if r.team is not None:
        return {s for s, g in enumerate(groups) if g == r.team}
    return set() if r.seat is None else {r.seat}


def skill(seat, name, results, baseline, groups):
    """A thinking seat's wins (against the others as seated), beside the same
    seat's wins in the same deals under random play (CardStock's meaningful
    moves: the gap is what thinking buys), with the paired interval of the gap
    (metrics.paired_gap).  With --rotate the bot of seat `seat` sat at
    seat+turn in each game, and is compared with that seat of the baseline."""
    n = len(groups)
    pairs = [0, 0, 0, 0]        # both won, the thinking seat alone, the random one alone, neither
    for r, b in zip(results, baseline):
        at = (seat + r.turn) % n
        mine, theirs = at in _winning_seats(r, groups), at in _winning_seats(b, groups)
        pairs[0 if mine and theirs else 1 if mine else 2 if theirs else 3] += 1
    wins, base = pairs[0] + pairs[1], pairs[0] + pairs[2]
    mine, theirs = share(wins, len(results)), share(base, len(baseline))
    gap_ci = metrics.paired_gap(*pairs)
    return {'seat': seat + 1, 'name': name, **mine, 'random_share': theirs['share'],
            'random_ci95': theirs['ci95'], 'gap': round(mine['share'] - theirs['share'], 4),
            'gap_ci95': gap_ci, 'significant': not gap_ci[0] <= 0 <= gap_ci[1]}


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


def percent(x):
    return '%.1f%%' % (100 * x)


# A game nobody decides anything in (Old Maid, War): its length in
# decisions, its branching and any skill are zero by construction, not
# findings, so the report says what they mean instead of printing them.
NO_CHOICES = ('no seat ever has a choice: the deal and the shuffles decide every game, '
              'so length in decisions, branching and skill do not apply')


def no_choices(s):
    return s['duration']['decisions']['max'] == 0


def shows_seats(s):
    """Whether the report shows a row per seat: in a team game only if a
    player (not a team) won, since otherwise every seat's share is 0."""
    return not s['teams'] or any(r['wins'] for r in s['seats'])


def format_report(s):
    lines = ['%s: %d games (seeds %d..%d), %d players, %s%s%s' % (
        s['game'], s['games'], s['seed'], s['seed'] + s['games'] - 1, s['players'],
        s['seating'], ' --rotate' if s['rotate'] else '', set_words(s['set']))]
    rows = []
    if shows_seats(s):
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
    if no_choices(s):
        lines.append('  ' + NO_CHOICES)
    else:
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
    if b['from']:
        lines.append('  balance, fairness, first-seat advantage: from the games with %s'
                     % b['from'])
    for key, label in (('seats', 'seat'), ('teams', 'team')):
        if b[key]:
            lo, hi = b[key]['first_advantage_ci95']
            lines.append('  balance by %s: %.3f   fairness %s   first %s advantage %+.1f%% '
                         '(%+.1f%% to %+.1f%%)' % (
                             label, b[key]['balance'],
                             ' '.join('%.2f' % f for f in b[key]['fairness']),
                             label, 100 * b[key]['first_advantage'], 100 * lo, 100 * hi))
    lines.append('  completion: %s with a winner, %d without, %d stopped at the step limit, '
                 '%d errors' % (percent(c['winner']), c['no_winner'], c['step_limit'],
                                c['errors']))
    if not no_choices(s):
        for key in ('decisions', 'turns'):
            x = d[key]
            lines.append('  duration in %s: mean %.1f, median %g, sd %.1f, %d..%d' % (
                key, x['mean'], x['median'], x['stdev'], x['min'], x['max']))
        lines.append('  decision moves: %s of decisions offer a choice'
                     % percent(s['decision_moves']))
        lines.append('  branching by tenth of the game: %s' % ' '.join(
            '-' if x is None else '%.1f' % x for x in s['branching_course']))
    turning = ', every seat in turn' if s['rotate'] else ''
    for k in s.get('skill') or ():
        lines.append('  skill: seat %d (%s%s) wins %s; %s under random play: %s' % (
            k['seat'], k['name'], turning, share_words(k), percent(k['random_share']),
            gap_words(k)))
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


def share_words(k):
    lo, hi = k['ci95']
    return '%s (%s - %s)' % (percent(k['share']), percent(lo), percent(hi))


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


class Progress:
    """Progress on stderr.  At a terminal, a bar redrawn at most ten times a
    second; otherwise (a log, a pipe, a CI job) a line every LINE_EVERY
    seconds, so that a long run that is cut short has said how far it got.
    With thinking bots, it shows decisions per second too."""

    LINE_EVERY = 30.0

    def __init__(self, total, stream, thinking=False, tty=True):
        self.total, self.stream, self.thinking, self.tty = total, stream, thinking, tty
        self.start = self.last = time.perf_counter()

    def __call__(self, done, decisions=0):
        now = time.perf_counter()
        if now - self.last < (0.1 if self.tty else self.LINE_EVERY) and (done < self.total or not self.tty):
            return
        self.last = now
        seconds = max(now - self.start, 1e-9)
        said = ', '.join(['%d/%d games' % (done, self.total), games_rate(significant(done / seconds))]
                         + ['%.3g decisions/s' % (decisions / seconds)] * self.thinking)
        if self.tty:
            filled = 30 * done // self.total
            self.stream.write('\r[%s%s] %s' % ('#' * filled, '.' * (30 - filled), said))
        else:
            self.stream.write('pipvm sim: %s (%.0f s)\n' % (said, seconds))
        self.stream.flush()

    def clear(self):
        if self.tty:
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


DEFAULT_SKILL = 'ismcts:100'   # seat 1's bot for --skill or --depth when no thinking bot is seated


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
    loaded = loader.load_variant(args.file, sets, getattr(args, 'lang', None))
    program, settings = loaded.program, loaded.settings
    engine = loader.engine_for(loaded, args.file, args.engine, args.max_steps)
    if args.cluster and args.engine != 'vm':
        raise PipError(None, '--cluster plays games on the VM engine only')
    seating = sim_seating(program, seating)
    if (args.skill or getattr(args, 'depth', None)) and not seating.thinks():
        spec = parse_kind(args.skill or DEFAULT_SKILL)
        if not spec.thinks:
            raise PipError(None, "--skill %s: expected mc[:N] or ismcts[:N]" % args.skill)
        seating = attrs.evolve(seating, specs={**seating.specs, 0: spec})
        seating.check_engine(args.engine)     # as cli does for a thinking bot seated by --seat
    names, teams, groups = seats_of(program, seating)
    thinking = [s for s in range(len(names)) if seating.spec(s).thinks]
    return Variant(program, engine, settings, seating, names, teams, groups, thinking)


def _simulate(args, variant, seating, seeds, progress, rotate=False):
    """(results, interrupted, workers or None), here or on the cluster."""
    if args.cluster:
        from pipvm.design import cluster
        return cluster.simulate(args.cluster, variant.program, seating, seeds, args.max_steps,
                                progress, rotate)
    return (*simulate(variant.engine, seating, seeds, args.jobs, progress, rotate), None)


def run(args, variant, progress=None):
    """The report (plain data) of args.games games of a Variant."""
    return play(args, variant, progress)[0]


def alike(seating):
    """Whether every seat of a sim seating plays the same kind of bot."""
    return all(seating.spec(s) == seating.default for s in range(seating.players))


def thinking_as(seating, budget):
    """The seating with every thinking bot's budget given by budget(spec)."""
    def spec(s):
        return attrs.evolve(s, iterations=budget(s)) if s.thinks else s
    return attrs.evolve(seating, default=spec(seating.default),
                        specs={n: spec(s) for n, s in seating.specs.items()})


def with_budget(seating, budget):
    """The seating with every thinking bot given budget iterations; the
    seating itself if that is what it already plays (a bot without N plays
    its default)."""
    explicit = thinking_as(seating, lambda s: budget)
    same = explicit == thinking_as(seating, lambda s: s.iterations or DEFAULTS[s.kind])
    return seating if same else explicit


def plan(args, variant):
    """[(name, Seating)]: the series of games to play on the same seeds.
    'seated': as the options say.  'random': every seat random, the skill
    baseline and the seating measures' source when the seats differ.
    'thinking' (--think-all): every seat the first thinking bot.  Then one
    series per --depth budget not already played."""
    seating = variant.seating
    every = lambda spec: Seating(default=spec, players=seating.players)
    out = [('seated', seating)]
    if variant.thinking or not alike(seating):
        out.append(('random', every(SeatSpec('random'))))
    if getattr(args, 'think_all', False) and variant.thinking and not alike(seating):
        out.append(('thinking', every(seating.spec(variant.thinking[0]))))
    for budget in getattr(args, 'depth', None) or ():
        if variant.thinking and with_budget(seating, budget) != seating:
            out.append((budget, with_budget(seating, budget)))
    return out


def play(args, variant, progress=None):
    """(the report, the Results as seated) of args.games games of a Variant,
    and of the other series its plan asks for, on the same seeds; progress
    counts the games of every series."""
    seeds = list(range(args.seed, args.seed + args.games))
    rotate = getattr(args, 'rotate', False)
    start = time.perf_counter()
    played, workers, interrupted = {}, None, False
    at = [0, 0]                    # games and decisions of the series before this one
    for name, seating in plan(args, variant):
        step = progress and (lambda done, d=0: progress(at[0] + done, at[1] + d))
        results, interrupted, w = _simulate(args, variant, seating, seeds, step, rotate)
        workers = workers or w
        if interrupted and played:     # a later series cut short: only the first one's games count
            break
        played[name] = results
        at = [at[0] + len(results), at[1] + sum(r.decisions for r in results)]
        if interrupted:
            break
    seconds = time.perf_counter() - start
    results = played['seated']
    seating, settings = variant.seating, variant.settings
    options = overrides.options(settings) + ['--max-steps', str(args.max_steps)]
    if args.engine != 'vm':
        options += ['--engine', args.engine]
    if getattr(args, 'lang', None):
        options += ['--lang', args.lang]

    def replay(seed):
        turn = turned(seating, seed % seating.players if rotate else 0)
        return shlex.join(['pipvm', 'run', args.file, '--seed', str(seed)] + turn.options()
                          + options)

    setup = {
        'game': variant.program.name, 'file': args.file, 'engine': args.engine,
        'seed': args.seed, 'names': variant.names, 'teams': variant.teams,
        'groups': variant.groups, 'thinking': variant.thinking,
        'kinds': {s: seating.spec(s).kind for s in variant.thinking},
        'bots': {s: str(seating.spec(s)) for s in variant.thinking},
        'opponents': {s: 'random' if all(seating.spec(o).kind == 'random'
                                         for o in range(seating.players) if o != s)
                      else 'as seated' for s in variant.thinking},
        'seating': ' '.join(seating.options()), 'rotate': rotate,
        'set': overrides.describe(settings), 'max_steps': args.max_steps, 'replay': replay,
    }
    summary = summarise(results, setup, series_of(played, variant, args))
    where = {'cluster': args.cluster, 'workers': workers} if args.cluster else {'jobs': args.jobs}
    summary['timing'] = {'seconds': round(seconds, 3), **where,
                         'games_per_second': significant(sum(map(len, played.values())) / seconds)
                         if seconds else 0.0}
    if variant.thinking:
        decisions = at[1]
        summary['timing']['decisions_per_second'] = significant(decisions / seconds) if seconds else 0.0
    if interrupted:
        summary['interrupted'] = True
    return summary, results


def series_of(played, variant, args):
    """The Series of the games played, for summarise."""
    seating = variant.seating
    if 'thinking' in played:
        source, how = played['thinking'], 'every seat %s (--think-all)' % seating.spec(
            variant.thinking[0])
    elif alike(seating):
        source, how = played['seated'], 'every seat %s, as seated' % seating.default
    else:
        source, how = played.get('random'), 'every seat random, not the seats as given'
    depth = []
    for budget in getattr(args, 'depth', None) or ():
        games = played.get(budget, played['seated'] if with_budget(seating, budget) == seating
                           else None)
        if games is not None:
            depth.append((budget, games))
    return Series(random=played.get('random'), alike=source, alike_from=source and how,
                  depth=depth)


def progress_bar(games, thinking=False):
    return Progress(games, sys.stderr, thinking, sys.stderr.isatty())


def main(args, seating, report_page=None):
    """`pipvm sim`; report_page() gives --report's page maker (report.page_maker:
    the command line hands it over, as report.py is built on this module)."""
    variant = prepare(args, seating, args.set)
    page = report_page() if args.report else None          # matplotlib missing: say so now
    progress = progress_bar(args.games * len(plan(args, variant)), bool(variant.thinking))
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

