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

from . import loader, overrides, terminal
from .deepstack import deep
from .errors import InputEnded, PipError, StepLimit
from .runtime import to_str
from .seats import BOTS, bot_name
from .dialogue import team_seats
from .table import SilentConsole, Table

Z95 = 1.959963984540054        # the normal quantile of a two-sided 95% interval


@attrs.frozen
class Result:
    """How one game went."""
    seed: int
    ending: str                # 'winner', 'no winner', 'step limit' or 'error'
    winner: str = None         # the winner's name as announced
    seat: int = None           # the winning player's seat (from 0), if a player won
    team: int = None           # the winning team, or the winning player's team
    decisions: int = 0         # choices the players made
    options: int = 0           # options offered, over all those choices
    error: str = None          # the error line


class CountingTable(Table):
    """A table that counts the players' decisions and their options."""
    decisions = options = 0

    def choose(self, seat, heading, options, waiting_for):
        self.decisions += 1
        self.options += len(options)
        return super().choose(seat, heading, options, waiting_for)


def play_one(engine, seating, seed):
    console = SilentConsole()
    table, machine = terminal.start(engine, seed, console, seating, CountingTable)
    ending, winner, error = 'no winner', None, None
    try:
        winner = machine.play()
        if winner is not None:
            ending = 'winner'
    except StepLimit:
        ending = 'step limit'
    except (PipError, InputEnded) as e:
        ending, error = 'error', str(e)
    seat, team = _places(winner, machine.players, machine.teams or [])
    return Result(seed, ending, winner, seat, team, table.decisions, table.options, error)


def _places(winner, players, teams):
    """(seat, team) of the winner's name: a player's or a team's.  By seat,
    not by place in `players` or `teams`, which a game may rotate."""
    player = next((p for p in players if p.name == winner), None)
    seat = None if player is None else player.seat
    for team in teams:
        if to_str(team) == winner or player in team.members:
            return seat, team.members[0].seat % len(teams)     # see table.team_seats
    return seat, None


# --- spreading games over processes -------------------------------------------

_job = None                    # (engine, seating) in a worker process


def _play_chunk(seeds):
    engine, seating = _job
    return deep(lambda: [play_one(engine, seating, s) for s in seeds])


def chunked(seeds, jobs, most=25):
    """Seeds in runs for `jobs` workers.  Small runs: the progress bar moves,
    and Ctrl-C waits for little."""
    chunk = max(1, min(most, len(seeds) // (jobs * 20)))
    return [seeds[i:i + chunk] for i in range(0, len(seeds), chunk)]


def _ignore_interrupts():
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # the parent handles Ctrl-C


def simulate(engine, seating, seeds, jobs=1, progress=None):
    """The Result of each seed, in seed order.  progress(done) is called as
    games finish.  On Ctrl-C, the results so far (a prefix of seeds, in order)
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
        for rs in results:
            out += rs
            if progress:
                progress(len(out))
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


def summarise(results, setup):
    """The report as plain data (JSON-ready).  Everything outside 'timing'
    depends only on the seeds and the game, never on --jobs or the clock."""
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
    }


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
    lines.append('  ' + format_timing(s['timing']))
    if s.get('interrupted'):
        lines.append('  interrupted: only the first %d games were played' % s['games'])
    return '\n'.join(lines) + '\n'


def set_words(settings):
    """A report's 'set' as the options that give it, each after a space."""
    return ''.join(' --set ' + shlex.quote('%s=%s' % kv) for kv in settings.items())


def format_timing(t):
    where = ('cluster %s, %d worker%s' % (t['cluster'], t['workers'], '' if t['workers'] == 1 else 's')
             if 'cluster' in t else '%d job%s' % (t['jobs'], '' if t['jobs'] == 1 else 's'))
    return '%.2f s, %.1f games/s (%s)' % (t['seconds'], t['games_per_second'], where)


class Progress:
    """A progress bar on stderr, redrawn at most ten times a second."""

    def __init__(self, total, stream):
        self.total, self.stream = total, stream
        self.start = self.last = time.perf_counter()

    def __call__(self, done):
        now = time.perf_counter()
        if now - self.last < 0.1 and done < self.total:
            return
        self.last = now
        filled = 30 * done // self.total
        rate = done / max(now - self.start, 1e-9)
        self.stream.write('\r[%s%s] %d/%d games, %.0f games/s ' % (
            '#' * filled, '.' * (30 - filled), done, self.total, rate))
        self.stream.flush()

    def clear(self):
        self.stream.write('\r' + ' ' * 70 + '\r')
        self.stream.flush()


def sim_seating(program, seating):
    """Every seat a bot, and the player count fixed (by default the smallest
    the game allows), so that wins per seat compare like with like."""
    kinds = [seating.default] + list(seating.specs.values())
    for kind in kinds:
        if kind.kind not in BOTS:
            raise PipError(None, "sim seats must be bots (%s), not '%s'" % (
                ' or '.join(BOTS), kind))
    if seating.players is None:
        seating = attrs.evolve(seating, players=min(program.counts) * (program.team_size or 1))
    return seating


def seats_of(program, seating):
    """(bot name by seat, member names by team); an error if --players or
    --seat does not fit the game."""
    players = seating.check(program)
    names = [bot_name(s) for s in range(players)]
    size = program.team_size
    teams = [[names[s] for s in seats] for seats in team_seats(players // size, size)] if size else []
    return names, teams


@attrs.frozen
class Variant:
    """A game ready to simulate: the program with its --set values, and who plays."""
    program: object
    engine: object                 # the engine factory (loader.engine_for)
    settings: list                 # overrides.Settings
    seating: object
    names: list
    teams: list


def prepare(args, seating, sets=()):
    """The Variant of the game in args.file with sets ([(name, text)]) applied.
    Every error (file, --set, seating) is raised here, before a game runs."""
    program, checked, settings = loader.load_variant(args.file, sets)
    engine = loader.engine_for(program, checked, args.file, args.engine, args.max_steps)
    if args.cluster and args.engine != 'vm':
        raise PipError(None, '--cluster plays games on the VM engine only')
    seating = sim_seating(program, seating)
    names, teams = seats_of(program, seating)
    return Variant(program, engine, settings, seating, names, teams)


def run(args, variant, progress=None):
    """The report (plain data) of args.games games of a Variant."""
    seeds = list(range(args.seed, args.seed + args.games))
    start = time.perf_counter()
    if args.cluster:
        from . import cluster
        results, interrupted, workers = cluster.simulate(
            args.cluster, variant.program, variant.seating, seeds, args.max_steps, progress)
    else:
        results, interrupted = simulate(variant.engine, variant.seating, seeds, args.jobs, progress)
    seconds = time.perf_counter() - start
    seating, settings = variant.seating, variant.settings
    replay = (['pipvm', 'run', args.file] + seating.options() + overrides.options(settings)
              + ['--max-steps', str(args.max_steps)])
    if args.engine != 'vm':
        replay += ['--engine', args.engine]
    setup = {
        'game': variant.program.name, 'file': args.file, 'engine': args.engine,
        'seed': args.seed, 'names': variant.names, 'teams': variant.teams,
        'seating': ' '.join(seating.options()), 'set': overrides.describe(settings),
        'max_steps': args.max_steps,
        'replay': lambda seed: shlex.join(replay[:3] + ['--seed', str(seed)] + replay[3:]),
    }
    summary = summarise(results, setup)
    where = {'cluster': args.cluster, 'workers': workers} if args.cluster else {'jobs': args.jobs}
    summary['timing'] = {'seconds': round(seconds, 3), **where,
                         'games_per_second': round(len(results) / seconds, 1) if seconds else 0.0}
    if interrupted:
        summary['interrupted'] = True
    return summary


def progress_bar(games):
    return Progress(games, sys.stderr) if sys.stderr.isatty() else None


def main(args, seating):
    variant = prepare(args, seating, args.set)
    progress = progress_bar(args.games)
    summary = run(args, variant, progress)
    if progress:
        progress.clear()
    if args.json:
        sys.stdout.write(json.dumps(summary, indent=2) + '\n')
    else:
        sys.stdout.write(format_report(summary))
    sys.stdout.flush()
    return 130 if summary.get('interrupted') else 0
