"""`pipvm sim`: many games between bots, and what they say about the design.

Game i plays with seed S+i, its own generator and fresh state, so each game
is a pure function of its seed: spreading games over processes (--jobs)
changes only how long the whole takes.  Results are gathered by game index
and summarised in that order, so the report does not depend on --jobs.

With --precision (the default) the series are played in rounds of seeds,
every series the same seeds and dealt the same cards (plan, apart),
until every interval the verdict reads is narrower than the precision
(summary.verdict_intervals) or --games are played; the rounds' sizes depend only on the figures, never on --jobs.
The report's data is summary.py's, its words text.py's.
"""
import collections
import itertools
import json
import math
import multiprocessing
import os
import shlex
import signal
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

import attrs

from pipvm.core import plain
from pipvm.play import loader, overrides
from pipvm.engine import engines
from pipvm.isa import pipc
from pipvm.core.deepstack import deep
from pipvm.core.errors import PipError
from pipvm.play.bots import DEFAULTS
from pipvm.play.seats import SKILL, Seating, SeatSpec, bot_name, parse_kind
from pipvm.core.dialogue import team_seats
from pipvm.design.metrics import Z95, wilson   # noqa: F401 (tests take Z95 from sim)
# The report's data and words, named here too (report.py, sweep.py, cluster.py and tests use sim.*).
from pipvm.design.summary import (  # noqa: F401
    Intervals, Series, balance_of, design, first_of, no_choices, no_world, rarely_finished,
    seat_rows, share, skill, summarise, thinking, verdict_intervals)
from pipvm.design.text import (  # noqa: F401
    NO_CHOICES, OPPONENTS, SEQUENCES, WARN_NO_WORLD, first_words, format_design, format_report,
    format_timing, games_rate, gap_words, no_world_share, percent, set_words, share_words,
    shows_seats, significant, stopping_words, thinking_lines, too_few, too_few_words,
    unfinished_words)
from pipvm.design.progress import Progress  # noqa: F401
from pipvm.design import interrupts
# (sim.Result, sim.play_one, ...: playing.py holds them for cluster.py too)
from pipvm.design.playing import (  # noqa: F401
    Result, chunked, play_one, played_as, sim_seating, turned)


# --- spreading games over processes -------------------------------------------

_job = None                    # (engine, seating, rotate) in a worker process


def _play_chunk(seeds):
    engine, seating, rotate = _job
    return deep(lambda: [play_one(engine, seating, s, rotate) for s in seeds])


def _ignore_interrupts():
    # The parent handles Ctrl-C and `timeout`'s SIGTERM: it reports what is done.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _in_order(pool, chunks, ahead):
    """The chunks' results in order, whoever finishes first, with at most
    `ahead` chunks submitted and not yet taken: pool.map would submit a
    million seeds' chunks before the first result came back."""
    pending = collections.deque()
    chunks = iter(chunks)
    for chunk in itertools.islice(chunks, ahead):
        pending.append(pool.submit(_play_chunk, chunk))
    while pending:
        done = pending.popleft().result()
        for chunk in itertools.islice(chunks, 1):
            pending.append(pool.submit(_play_chunk, chunk))
        yield done


def simulate(engine, seating, seeds, jobs=1, progress=None, rotate=False):
    """The Result of each seed, in seed order.  progress(games, decisions)
    is called as games finish.  On Ctrl-C, the results so far (a prefix of seeds, in order)
    and True."""
    global _job
    _job = (engine, seating, rotate)
    chunks = chunked(seeds, jobs)
    out, interrupted = [], False
    pool = None
    main = interrupts.on_main_thread()
    was = signal.signal(signal.SIGTERM, interrupts.interrupt) if main else None
    try:
        if jobs == 1:
            results = map(_play_chunk, chunks)
        else:
            # Forked workers inherit the loaded game: nothing is re-read or pickled in.
            pool = ProcessPoolExecutor(jobs, multiprocessing.get_context('fork'),
                                       initializer=_ignore_interrupts)
            results = _in_order(pool, chunks, 4 * jobs)
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
    loaded = loader.load_variant(args.file, sets, getattr(args, 'lang', None))
    program, settings = loaded.program, loaded.settings
    engine = loader.engine_for(loaded, args.file, args.engine, args.max_steps)
    if args.cluster and args.engine == engines.REFERENCE:
        raise PipError(None, '--cluster sends the workers bytecode, which the reference '
                             'engine does not run: drop --engine reference')
    seating = sim_seating(program, seating)
    if (args.skill or getattr(args, 'depth', None)) and not seating.thinks():
        spec = parse_kind(args.skill or SKILL)
        if not spec.thinks:
            raise PipError(None, "--skill %s: expected mc[:N] or ismcts[:N]" % args.skill)
        seating = plain.evolve(seating, specs={**seating.specs, 0: spec})
        seating.check_engine(args.engine)     # as cli does for a thinking bot seated by --seat
    names, teams, groups = seats_of(program, seating)
    thinking = [s for s in range(len(names)) if seating.spec(s).thinks]
    return Variant(program, engine, settings, seating, names, teams, groups, thinking)


def default_jobs():
    """--jobs by default: the cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:          # (macOS, Windows)
        return os.cpu_count() or 1


PAYS = 0.5             # CPU seconds of games worth starting processes for (benchmarks/README.md)


def jobs_of(args):
    return args.jobs or default_jobs()


class Jobs:
    """The processes a run's games are spread over: --jobs, or by default
    every core for a batch of games long enough to pay for starting them
    (PAYS: CPU seconds, timed on the first games, played here; 40 games of
    High Card take 0.04 s, less than starting a process).  `used`: the
    most used at once."""

    TRY = 2                # games played here to time them

    def __init__(self, args):
        self.cores, self.auto = jobs_of(args), args.jobs is None
        self.per_game = None if self.auto and self.cores > 1 else 0.0
        self.used = 1 if self.auto else self.cores

    def count(self, games):
        n = self.cores if not self.auto or self.per_game * games >= PAYS else 1
        self.used = max(self.used, n)
        return n


def _simulate(args, variant, seating, seeds, progress, rotate=False, jobs=None):
    """(results, interrupted, workers or None), here or on the cluster."""
    if args.cluster:
        from pipvm.design import cluster
        return cluster.simulate(args.cluster, variant.program, seating, seeds, args.max_steps,
                                progress, rotate, args.engine)
    jobs = jobs or Jobs(args)
    first, interrupted = [], False
    if jobs.per_game is None:
        start = time.process_time()         # (a busy machine stretches the wall clock)
        first, interrupted = simulate(variant.engine, seating, seeds[:jobs.TRY], 1, progress,
                                      rotate)
        jobs.per_game = (time.process_time() - start) / max(1, len(first))
        seeds = seeds[jobs.TRY:]
    if interrupted or not seeds:
        return first, interrupted, None
    before = sum(r.decisions for r in first)
    step = progress and (lambda done, d=0: progress(len(first) + done, before + d))
    rest, interrupted = simulate(variant.engine, seating, seeds, jobs.count(len(seeds)), step,
                                 rotate)
    return first + rest, interrupted, None


def run(args, variant, progress=None):
    """The report (plain data) of a Variant's games."""
    return play(args, variant, progress)[0]


def one_kind(seating):
    """Whether every seat plays the same bot (as a one-seat game's does,
    whatever the default for seats not given)."""
    return all(seating.spec(s) == seating.spec(0) for s in range(seating.players))


def alike(seating):
    """Whether every seat of a sim seating plays the same kind of bot, the
    default's."""
    return one_kind(seating) and seating.spec(0) == seating.default


def thinking_as(seating, budget):
    """The seating with every thinking bot's budget given by budget(spec)."""
    def spec(s):
        return plain.evolve(s, iterations=budget(s)) if s.thinks else s
    return plain.evolve(seating, default=spec(seating.default),
                        specs={n: spec(s) for n, s in seating.specs.items()})


def with_budget(seating, budget):
    """The seating with every thinking bot given budget iterations; the
    seating itself if that is what it already plays (a bot without N plays
    its default)."""
    explicit = thinking_as(seating, lambda s: budget)
    same = explicit == thinking_as(seating, lambda s: s.iterations or DEFAULTS[s.kind])
    return seating if same else explicit


def every(seating, spec):
    return Seating(default=spec, players=seating.players)


def plan(args, variant):
    """[(name, Seating)]: the series of games to play on the same seeds.
    'seated': as the options say.  'random': every seat random, the skill
    baseline and the seating measures' source when the seats differ.
    'thinking' (--think-all): every seat the first thinking bot.  Then one
    series per --depth budget not already played.  (play adds 'thinking'
    when random seats hardly ever finish the game.)"""
    seating = variant.seating
    out = [('seated', seating)]
    if variant.thinking or not alike(seating):
        out.append(('random', every(seating, SeatSpec('random'))))
    if getattr(args, 'think_all', False) and variant.thinking and not alike(seating):
        out.append(('thinking', every(seating, seating.spec(variant.thinking[0]))))
    for budget in getattr(args, 'depth', None) or ():
        if variant.thinking and with_budget(seating, budget) != seating:
            out.append((budget, with_budget(seating, budget)))
    return apart(out)


def apart(series):
    """The series with their random bots drawing from generators of their
    own (--random-bots apart) when there are several: the game's generator
    then only shuffles, so every series of a seed is dealt the same cards
    whatever its bots choose (common random numbers: a skill gap compares
    the bot and a random seat on the same hands)."""
    if len(series) < 2:
        return series
    return [(name, plain.evolve(seats, apart=True)) for name, seats in series]


def label(name, seating):
    """A series as the progress line names it."""
    if name == 'seated':
        return 'as seated'
    if name in ('random', 'thinking'):
        return 'every seat ' + str(seating.default)
    return str(next(s for s in seating.specs.values() if s.thinks))   # a budget: ismcts:30


FIRST_ROUND = 20       # games of each series before the first look at the intervals
LEAST_ROUND = 10       # and at least this many more before each next look


def next_round(played, widths, precision, most):
    """How many games each series will have played after the next round:
    as many as the widest interval needs if it narrows as 1/sqrt(games)
    (a little more, since a confidence sequence narrows a little slower),
    at least LEAST_ROUND more, at most half as many again, at most `most`.
    A function of the figures only, so the report does not depend on --jobs."""
    need = max((played * (w / precision) ** 2 for w in widths), default=played)
    more = min(max(math.ceil(1.1 * need) - played, LEAST_ROUND), max(LEAST_ROUND, played // 2))
    return min(most, played + more)


def play(args, variant, progress=None):
    """(the report, the Results as seated) of a Variant's games, and of the
    other series its plan asks for, on the same seeds: in rounds until every
    interval the verdict reads is narrower than --precision, or --games are
    played; progress gets each series' games apart."""
    precision = getattr(args, 'precision', None) or None
    most = args.games
    rotate = getattr(args, 'rotate', False)
    seating, settings = variant.seating, variant.settings
    options = overrides.options(settings) + ['--max-steps', str(args.max_steps)]
    if args.engine != engines.DEFAULT:
        options += ['--engine', args.engine]
    if getattr(args, 'lang', None):
        options += ['--lang', args.lang]

    series = plan(args, variant)

    def replay(seed):           # a game as seated
        return shlex.join(['pipvm', 'run', args.file, '--seed', str(seed)]
                          + played_as(series[0][1], seed, rotate)[1].options()
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
        'intervals': Intervals(precision),
    }
    played = {name: [] for name, _ in series}
    start = time.perf_counter()
    workers, interrupted, decisions = None, False, 0
    jobs = Jobs(args)
    target = most if precision is None else min(most, FIRST_ROUND)
    while True:
        for name, seats in list(series):
            def step(done, d=0, name=name):
                progress([(label(n, s), len(played[n]) + (done if n == name else 0), most)
                          for n, s in series], decisions + d)
            have = len(played[name])
            seeds = list(range(args.seed + have, args.seed + target))
            if not seeds:
                continue
            if interrupts.pressed():        # while the last round was summarised
                interrupted = True
                break
            with interrupts.heard():
                results, interrupted, w = _simulate(args, variant, seats, seeds,
                                                    progress and step, rotate, jobs)
            workers = workers or w
            played[name] += results
            decisions += sum(r.decisions for r in results)
            if interrupted:
                break
        if interrupted:
            played = _common_prefix(played)
        elif _add_thinking(series, played, variant):
            continue                    # its games catch up with the others' first
        summary = summarise(played['seated'], setup, series_of(played, variant, args))
        widths = [(what, ci[1] - ci[0]) for what, ci in verdict_intervals(summary)]
        wide = [w for _, w in widths if precision is not None and w >= precision]
        reason = ('interrupted' if interrupted else 'precision' if precision and not wide
                  else 'games' if target >= most else None)
        if reason:
            break
        target = next_round(target, wide, precision, most)
    seconds = time.perf_counter() - start
    widest = max(widths, key=lambda x: x[1], default=(None, 0.0))
    summary['stopping'] = {'precision': precision, 'most': most, 'reason': reason,
                           'widest': widest[0], 'width': round(widest[1], 4)}
    where = ({'cluster': args.cluster, 'workers': workers} if args.cluster
             else {'jobs': jobs.used})
    summary['timing'] = {'seconds': round(seconds, 3), **where,
                         'games_per_second': significant(sum(map(len, played.values())) / seconds)
                         if seconds else 0.0}
    if variant.thinking:
        summary['timing']['decisions_per_second'] = significant(decisions / seconds) if seconds else 0.0
    if interrupted:
        summary['interrupted'] = True
    return summary, played['seated']


def _common_prefix(played):
    """After an interruption: every series cut to the games all of them
    played (the games as seated alone, if a series has none)."""
    n = min(map(len, played.values()))
    if n == 0:
        return {'seated': played['seated']}
    return {name: results[:n] for name, results in played.items()}


def _add_thinking(series, played, variant):
    """When random seats hardly ever finish the game (Gin Rummy) and a
    thinking bot is seated, balance comes from games with every seat that
    bot: the series is added (once), and plays the seeds played so far;
    not where the games as seated are those already (a patience's one
    seat)."""
    names = [n for n, _ in series]
    if ('thinking' in names or 'random' not in names or not variant.thinking
            or one_kind(variant.seating) or not rarely_finished(played['random'])):
        return False
    series.append(('thinking', plain.evolve(
        every(variant.seating, variant.seating.spec(variant.thinking[0])), apart=True)))
    played['thinking'] = []
    return True


def series_of(played, variant, args):
    """The Series of the games played, for summarise."""
    seating = variant.seating
    if 'thinking' in played:
        name, how = 'thinking', 'every seat %s (%s)' % (
            seating.spec(variant.thinking[0]), '--think-all' if getattr(args, 'think_all', False)
            else 'random seats hardly ever finish')
    elif alike(seating):
        name, how = 'seated', 'every seat %s, as seated' % seating.default
    else:
        name, how = 'random', 'every seat random, not the seats as given'
    source = played.get(name)
    everyone_random = played.get('random', played['seated'] if alike(seating)
                                 and seating.default.kind == 'random' else None)
    depth = []
    for budget in getattr(args, 'depth', None) or ():
        games = played.get(budget, played['seated'] if with_budget(seating, budget) == seating
                           else None)
        if games is not None:
            depth.append((budget, games))
    return Series(random=played.get('random'), alike=source, alike_from=source and how,
                  alike_name=name, depth=depth, all_random=everyone_random)


def progress_bar(thinking=False):
    return Progress(sys.stderr, thinking, sys.stderr.isatty())


def main(args, seating, report_page=None):
    """`pipvm sim`; report_page() gives --report's page maker (report.page_maker:
    the command line hands it over, as report.py is built on this module)."""
    variant = prepare(args, seating, args.set)
    page = report_page() if args.report else None          # matplotlib missing: say so now
    progress = progress_bar(bool(variant.thinking))
    with interrupts.held():
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
