"""The `pipvm` command line.

A source file's language comes from `--lang NAME` or its extension, through
the registry of front ends (pipvm/play/languages.py); running a .pipc imports
only the pipvm package, and reads no registry.
"""
import argparse
import os
import sys

from pipvm.core.errors import InputEnded, PipError, StepLimit

USAGE_ERROR = 2


def _out(text):
    """Write program text byte for byte (sources are read as Latin-1)."""
    sys.stdout.buffer.write(text.encode('latin-1'))
    sys.stdout.flush()


def language(args):
    """The language of args.file (`--lang`, or its extension)."""
    from pipvm.play import languages
    return languages.for_path(args.file, args.lang)


def cmd_parse(args):
    lang = language(args)
    _out(lang.print_text(lang.read_source(args.file)))
    return 0


def cmd_check(args):
    if not args.json:
        lang = language(args)
        lang.check(lang.read_source(args.file), args.strict)
        return 0
    import json
    try:
        lang = language(args)
        lang.check(lang.read_source(args.file), args.strict)
        found = []
    except Exception as e:
        found = [diagnostic(args.file, e)]
    _out(json.dumps(found) + '\n')
    return 1 if found else 0


def strict_source(args):
    """`run --strict`: the game's source must be plain 2008 Pip."""
    from pipvm.core.files import read_file
    from pipvm.play import loader
    if loader.is_bytecode(args.file, read_file(args.file)):
        raise PipError(None, 'run --strict: give the source (GAME.pip), not bytecode')
    lang = language(args)
    lang.check(lang.read_source(args.file), strict=True)


def diagnostic(path, e):
    """`check --json`: an error as an editor wants it (line and column from 1,
    or null when the error has no place in the file)."""
    if isinstance(e, PipError):
        line, column = e.pos or (None, None)
        detail = getattr(e, 'detail', None)      # a syntax error's `found X; expected Y`
        message = 'syntax error: ' + detail if detail else e.message
    else:
        line = column = None
        message = _message(e)[len('Error: '):]
    return {'file': path, 'line': line, 'column': column, 'message': message}


def cmd_compile(args):
    from pipvm.isa import pipc
    lang = language(args)
    program = lang.compile(lang.check(lang.read_source(args.file)))
    out = args.output or os.path.splitext(args.file)[0] + '.pipc'
    pipc.write_file(out, pipc.dump(program))
    return 0


def cmd_run(args):
    from pipvm.play import loader, terminal, terminal_input
    if args.resume:
        return resume(args)
    if args.file is None:
        raise PipError(None, 'run: give GAME.pip (or GAME.pipc), or --resume FILE.json')
    if args.strict:
        strict_source(args)
    program, engine = loader.load_engine(args.file, args.engine, args.max_steps, sets=args.set,
                                         lang=args.lang)
    seats = seating(args)
    seats.check(program)
    console = terminal_input.console(args.easy_answers, args.numbered, args.echo)
    if args.record:
        from pipvm.records import replay
        if seats.apart:
            raise PipError(None, "--record keeps games whose random bots draw from the game's "
                                 "generator: drop --random-bots apart")
        return replay.run(args.record, args.file, program, engine, seats, args.seed,
                          args.max_steps, console, args.set)
    return terminal.play(engine, seed=args.seed, seating=seats, console=console)


def resume(args):
    """`run --resume FILE`: the record says what to play and how."""
    from pipvm.records import replay
    given = [name for name, value in (
        ('GAME', args.file), ('--seed', args.seed is not None), ('--bots', args.bots),
        ('--seat', args.seat), ('--players', args.players), ('--max-steps', args.max_steps),
        ('--record', args.record), ('--numbered', args.numbered), ('--set', args.set),
        ('--echo', args.echo), ('--lang', args.lang),
        ('--random-bots', args.random_bots != 'game'))
        if value]
    if given:
        raise PipError(None, '--resume plays the game, seed and seats of its record: '
                             'drop %s' % given[0])
    return replay.resume(args.resume, args.engine, args.easy_answers)


def cmd_replay(args):
    from pipvm.records import replay
    return replay.replay(args.file, None if args.seat is None else args.seat - 1)


def seating(args):
    """The Seating that --bots, --seat and --players ask for."""
    from pipvm.play import seats
    seating = seats.seating(args.bots, args.seat, args.players,
                            getattr(args, 'random_bots', 'game'))   # (run's option alone)
    if hasattr(args, 'engine'):             # serve has no --engine: it plays the default
        seating.check_engine(args.engine)
    return seating


def cmd_sim(args):
    from pipvm.design import report, sim
    return sim.main(args, seating(args), report.page_maker)


def cmd_sweep(args):
    from pipvm.design import sweep
    return sweep.main(args, seating(args))


def cmd_serve(args):
    from pipvm.web import serve
    if args.lobby:
        if args.file or args.resume:
            raise PipError(None, 'pipvm serve --lobby takes its games after --lobby, '
                                 'and no --resume (its tables come back from --db)')
        return serve.lobby_main(args)
    if args.file is None and args.resume is None:
        raise PipError(None, 'pipvm serve: give a GAME file, or --resume FILE.json')
    return serve.main(args, seating(args))


def cmd_dis(args):
    from disasm.listing import compiled_listing, listing, loaded_listing
    from pipvm.play.loader import load_program
    program = load_program(args.file, args.lang)
    _out(loaded_listing(program) if args.loaded else compiled_listing(program)
         if args.compiled else listing(program, args.fused))
    return 0


class VersionAction(argparse.Action):
    """`--version`: the installed package's version, looked up only when asked
    (importlib.metadata is slow to import, and `pipvm run` should start fast)."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0, help='print the version and exit')

    def __call__(self, parser, namespace, values, option_string=None):
        from importlib.metadata import version
        sys.stdout.write('pipvm %s\n' % version('pipvm'))
        parser.exit()


# The example lines that end each command's --help.
EXAMPLES = {
    'parse': 'pipvm parse examples/high_card.pip',
    'check': 'pipvm check examples/high_card.pip\n'
             'pipvm check --json game.pip       # diagnostics for editors and scripts',
    'compile': 'pipvm compile examples/high_card.pip -o high_card.pipc',
    'run': 'pipvm run --seed 1 examples/high_card.pip < examples/high_card.answers\n'
           'pipvm run examples/crazy_eights.pip --seat 2=random --players 2 --numbered',
    'replay': 'pipvm replay game.json          # after pipvm run GAME --record game.json\n'
              'pipvm replay game.json --seat 2',
    'sim': 'pipvm sim examples/high_card.pip --set rounds=3 --cluster tcp://10.0.0.5:8786\n'
           'pipvm sim examples/agram.pip --players 4 --seat 1=ismcts --rotate --depth 10,30,100 '
           '--games 200 --report agram.html',
    'sweep': 'pipvm sweep examples/high_card.pip --vary rounds=1,3,5 --games 1000 --players 3\n'
             'pipvm sweep examples/euchre.pip --vary power=1,2 --json --report euchre.html',
    'serve': 'pipvm serve examples/high_card.pip --players 2\n'
             'pipvm serve examples/euchre.pip --players 4 --seat 2=random --seat 3=random '
             '--seat 4=random',
    'dis': 'pipvm dis examples/high_card.pip --fused',
}


def build_parser(argv=None):
    """The command line's parser; argv: the words it will parse, of which
    only the command named gets its options (the others' are never read,
    and adding them all was 2 ms of `pipvm run`'s start-up); None: all."""
    ap = argparse.ArgumentParser(prog='pipvm', description='Pip card-game language toolchain.',
                                 formatter_class=_formatter(argparse.HelpFormatter))
    ap.add_argument('--version', action=VersionAction)
    sub = ap.add_subparsers(dest='command', required=True, metavar='COMMAND')
    wanted = next((w for w in argv or () if not w.startswith('-')), None)
    if wanted not in EXAMPLES:
        wanted = None

    def command(name, **kwargs):
        p = sub.add_parser(name, formatter_class=_formatter(_CommandFormatter),
                           epilog='examples:\n' + ''.join(
                               '  %s\n' % line for line in EXAMPLES[name].split('\n')),
                           **kwargs)
        return p if wanted in (None, name) else _NOT_PARSED

    p = command('parse', help='print a program back from its syntax tree')
    p.add_argument('file', metavar='FILE.pip')
    lang_option(p)
    p.set_defaults(func=cmd_parse)
    p = command('check', help='check a program; print its first error, if any')
    p.add_argument('file', metavar='FILE.pip')
    p.add_argument('--json', action='store_true',
                   help='print the errors as a JSON list of {file, line, column, message}')
    strict_option(p)
    lang_option(p)
    p.set_defaults(func=cmd_check)
    p = command('compile', help='compile a program to bytecode (GAME.pipc)')
    p.add_argument('file', metavar='GAME.pip')
    p.add_argument('-o', '--output', metavar='OUT.pipc', help='default: beside the source')
    lang_option(p)
    p.set_defaults(func=cmd_compile)
    p = command('run', help='play a game at the terminal')
    p.add_argument('file', metavar='GAME.pipc|GAME.pip', nargs='?')
    p.add_argument('--seed', type=int, help='make every shuffle (and random bot) reproducible')
    strict_option(p)
    lang_option(p)
    seat_options(p, 'human')
    p.add_argument('--random-bots', choices=('game', 'apart'), default='game',
                   help="whose generator random bots draw from: the game's (default, as the "
                        "reference's), or each its own seeded from the game's, so that the "
                        "cards dealt do not depend on their choices (as pipvm sim plays)")
    set_option(p)
    p.add_argument('--max-steps', type=positive, metavar='K',
                   help='stop the game after K steps (loop iterations and action calls)')
    p.add_argument('--easy-answers', action='store_true',
                   help='accept an option in any case, its unique start or its number, '
                        'even when the answers are not typed at a terminal')
    p.add_argument('--numbered', action='store_true',
                   help='print each option after its number (and accept the number)')
    p.add_argument('--echo', action='store_true',
                   help='show each answer read from a pipe or file after its prompt, '
                        'as a terminal shows what is typed')
    p.add_argument('--record', metavar='FILE.json',
                   help='write the game to FILE.json as it goes (every answer given)')
    p.add_argument('--resume', metavar='FILE.json',
                   help='show the game recorded in FILE.json and go on with it, '
                        'adding to the record')
    engine_option(p)
    p.set_defaults(func=cmd_run)
    p = command('replay', help='show a recorded game (pipvm run --record)')
    p.add_argument('file', metavar='FILE.json')
    p.add_argument('--seat', type=positive, metavar='N',
                   help='show only what seat N (from 1) saw')
    p.set_defaults(func=cmd_replay)
    p = command('sim', help='play many games between bots and report the results')
    sim_options(p)
    p.add_argument('--report', metavar='FILE.html',
                   help='also write the design report as one HTML page with plots '
                        '(needs matplotlib: the report extra)')
    p.set_defaults(func=cmd_sim)
    p = command('sweep', help='simulate every combination of --vary values; one table')
    sim_options(p)
    p.add_argument('--vary', action='append', required=True, type=vary, metavar='NAME=V1,V2,...',
                   help='a global to try at each of these values (as --set); repeatable: '
                        'every combination is played')
    p.add_argument('--report', metavar='FILE.html',
                   help='also write an HTML report, one plot per metric (needs pipvm[report])')
    p.set_defaults(func=cmd_sweep)
    p = command('serve', help='play a game in the browser, each seat on its own link')
    p.add_argument('file', metavar='GAME.pipc|GAME.pip', nargs='?')
    p.add_argument('--host', default='127.0.0.1', help='default: 127.0.0.1 (this machine only)')
    p.add_argument('--port', type=int, default=8000, help='default: 8000; 0: any free port')
    p.add_argument('--seed', type=int, help='make every shuffle (and random bot) reproducible')
    lang_option(p)
    seat_options(p, 'human')
    p.add_argument('--record', metavar='FILE.json', help='write every answer to FILE.json')
    p.add_argument('--resume', metavar='FILE.json',
                   help='go on with the game recorded in FILE.json, recording on; '
                        'the links given before work again')
    p.add_argument('--lobby', nargs='+', metavar='GAME',
                   help='serve a lobby of these games: tables to start, join, watch, rematch')
    p.add_argument('--db', default='pipvm-lobby.sqlite', metavar='FILE.sqlite',
                   help='with --lobby: where tables, seats and answers are kept; '
                        'default: pipvm-lobby.sqlite')
    p.add_argument('--new-links', action='store_true',
                   help='with --resume: give new links (the old ones stop working)')
    p.add_argument('--bot-pause', type=float, default=0.8, metavar='SECONDS',
                   help='how long a bot waits before it answers; default: 0.8')
    p.add_argument('--linger', type=float, default=60, metavar='SECONDS',
                   help='how long to serve once the game is over; default: 60')
    p.set_defaults(func=cmd_serve)
    p = command('dis', help='list the bytecode of a game')
    p.add_argument('file', metavar='GAME.pipc|GAME.pip')
    p.add_argument('--fused', action='store_true',
                   help='show the superinstructions the VM fuses runs of opcodes into')
    lang_option(p)
    p.add_argument('--loaded', action='store_true',
                   help='show what the VM runs: superinstructions, rewrites, how each runs, '
                        'the quiet variant `pipvm sim` runs, and the closures of rules and orderings')
    p.add_argument('--compiled', action='store_true',
                   help="show the compiled tier's blocks (--engine compiled) beside the "
                        'instructions, with the function each runs')
    p.set_defaults(func=cmd_dis)
    return ap


class _NotParsed:
    """Where the options of a command not being run go: nowhere."""

    def add_argument(self, *args, **kwargs):
        return argparse.Namespace()     # an action's stand-in, marks and all

    def set_defaults(self, **kwargs):
        pass


_NOT_PARSED = _NotParsed()


def _formatter(kind):
    """argparse's formatter kind, as wide as shutil.get_terminal_size() says
    the terminal is, without importing shutil (2 ms of a run's start-up: it
    imports bz2 and lzma; argparse makes a formatter for each option)."""
    def make(prog):
        return kind(prog, width=_columns() - 2)
    return make


class _CommandFormatter(argparse.RawDescriptionHelpFormatter):
    """Shows a positional marked `needed` as required in the usage line:
    argparse must take it as optional for `--skill GAME.pip`, though a
    command cannot go without it (_skill_or_game says so)."""

    def _format_args(self, action, default_metavar):
        if getattr(action, 'needed', False):
            return self._metavar_formatter(action, default_metavar)(1)[0]
        return super()._format_args(action, default_metavar)


def _columns():
    """shutil.get_terminal_size().columns."""
    try:
        columns = int(os.environ['COLUMNS'])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


DEFAULT_SIM_STEPS = 100_000


def positive(text):
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError('expected a whole number of at least 1, not %r' % text)
    return n


def sim_options(p):
    """The options of sim, which sweep shares."""
    p.add_argument('file', metavar='GAME.pipc|GAME.pip', nargs='?').needed = True
    p.set_defaults(checked=lambda args: _skill_or_game(args, p))
    p.add_argument('--games', type=positive, default=1000, metavar='N',
                   help='at most N games; default: 1000')
    p.add_argument('--precision', type=precision, default=DEFAULT_PRECISION, metavar='W',
                   help='stop once every 95%% interval the verdict reads (win shares, skill gaps) '
                        'is narrower than W; default: %(default)s; 0: play all --games')
    p.add_argument('--seed', type=int, default=1, metavar='S',
                   help='game i (from 0) uses seed S+i; default: 1')
    p.add_argument('--jobs', type=positive, metavar='J',
                   help="processes to spread the games over; the results do not depend on it; "
                        "default: the machine's cores, for games long enough to pay for them")
    lang_option(p)
    seat_options(p, 'random')
    set_option(p)
    p.add_argument('--max-steps', type=positive, default=DEFAULT_SIM_STEPS, metavar='K',
                   help='a game still running after K steps is stopped and counted; '
                        'default: %d' % DEFAULT_SIM_STEPS)
    p.add_argument('--json', action='store_true', help='write one JSON object to stdout')
    from pipvm.play.seats import SKILL
    p.add_argument('--skill', nargs='?', const=SKILL, metavar='KIND',
                   help=('measure skill: seat 1 is KIND (default %s) unless a thinking '
                         'bot is seated; its wins are set beside random play in the same deals '
                         '(always done when a thinking bot is seated)') % SKILL)
    p.add_argument('--rotate', action='store_true',
                   help='turn the seats given by --seat round the table game by game (the game '
                        'of seed S by S mod players places), so skill is measured at every seat')
    p.add_argument('--think-all', action='store_true',
                   help='balance, fairness and first-seat advantage from games with every seat '
                        'the thinking bot (default: every seat random, when the seats differ)')
    p.add_argument('--depth', type=budgets, metavar='N1,N2,...',
                   help="the depth curve: the thinking seat's win share with each budget "
                        '(e.g. 10,30,100,300; seat 1 is ismcts unless a thinking bot is seated)')
    cluster_option(p)
    engine_option(p)


def _skill_or_game(args, p):
    """`--skill GAME.pip`: argparse hands the game's file to --skill's
    optional KIND; a word that names no kind of seat is the game."""
    if args.file is None:
        from pipvm.play.seats import KINDS, SKILL
        if args.skill is None or args.skill.partition(':')[0] in {
                k.partition('[')[0].partition(':')[0] for k in KINDS}:
            p.error('the following arguments are required: GAME.pipc|GAME.pip')
        args.file, args.skill = args.skill, SKILL


DEFAULT_PRECISION = 0.2        # the README's verdicts stand at this width (docs/metrics.md)


def precision(text):
    """--precision W: a width of interval, 0 (no early stop) up to 1."""
    try:
        w = float(text)
    except ValueError:
        w = -1.0
    if not 0 <= w < 1:
        raise argparse.ArgumentTypeError('expected a width from 0 up to 1, not %r' % text)
    return w


def budgets(text):
    """--depth N1,N2,...: the budgets, each a whole number of at least 1."""
    return [positive(n) for n in text.split(',')]


def vary(text):
    """--vary NAME=V1,V2,...: (NAME, [V1, V2, ...])."""
    from pipvm.play.overrides import split
    name, values = split(text)
    if not values:
        raise argparse.ArgumentTypeError('expected NAME=V1,V2,..., not %r' % text)
    return name, values.split(',')


def lang_option(p):
    p.add_argument('--lang', metavar='NAME',
                   help="the source's language (e.g. pip); default: from the file's extension")


def strict_option(p):
    p.add_argument('--strict', action='store_true',
                   help='refuse the extensions to 2008 Pip (write for the original interpreter)')


def seat_options(p, default):
    from pipvm.play.seats import KINDS
    kinds = ', '.join(KINDS[:-1]) + ' or ' + KINDS[-1]
    p.add_argument('--bots', metavar='KIND',
                   help='who sits at every seat not given by --seat: %s; default: %s'
                        % (kinds, default),
                   default=None if default == 'human' else default)
    p.add_argument('--seat', action='append', default=[], metavar='N=KIND',
                   help='who sits at seat N (from 1): %s; N is the playouts per option of mc '
                        '(default 50) or the iterations of ismcts (default 80; a bare ismcts is ismcts:80:cut)' % kinds)
    p.add_argument('--players', type=positive, metavar='N',
                   help='how many play (otherwise seat 1 is asked)')


def set_option(p):
    """--set NAME=VALUE (repeatable): args.set is [(NAME, VALUE text)]; see pipvm/play/overrides.py."""
    from pipvm.play.overrides import split
    p.add_argument('--set', action='append', default=[], type=split, metavar='NAME=VALUE',
                   help='start the game with global NAME (a Number, Boolean, String, Rank or '
                        'Suit) set to VALUE instead of its declared value; repeatable')


def cluster_option(p):
    p.add_argument('--cluster', metavar='ADDRESS',
                   help='play the games on the workers of the Dask scheduler at ADDRESS '
                        '(e.g. tcp://10.0.0.5:8786); needs pipvm[cluster]')


def engine_option(p):
    from pipvm.engine import engines
    p.add_argument('--engine', type=engine_name, default=engines.DEFAULT,
                   metavar='|'.join(engines.NAMES),
                   help="default: %s, the VM running each action's code as Python functions "
                        "generated from the instruction table's bodies; loop: the VM's "
                        'dispatch loop alone (vm, its earlier name, is taken too); reference: '
                        'walk the checked syntax tree instead (the specification)'
                        % engines.DEFAULT)


def engine_name(text):
    """--engine NAME: one of engines.NAMES (an alias as the engine it names)."""
    from pipvm.engine import engines
    try:
        return engines.named(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def main(argv=None):
    args = build_parser(sys.argv[1:] if argv is None else argv).parse_args(argv)
    if hasattr(args, 'checked'):
        args.checked(args)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        _flush()
        from pipvm.play.terminal_input import restore
        restore()
        sys.stderr.write('\nInterrupted.\n')
        sys.stderr.flush()
        # The game's thread may be blocked reading stdin; a normal interpreter
        # shutdown would abort on that stream's lock, so leave at once.
        os._exit(130)
    except Exception as e:
        return _report(e)


def _flush():
    try:
        sys.stdout.flush()
    except OSError:
        pass


def _message(e):
    """What an error a user can cause says (a syntax error adds a line of
    help to the original's); any other exception is raised again."""
    if isinstance(e, (PipError, InputEnded, StepLimit)):
        hint = getattr(e, 'hint', None)
        return str(e) + ('\n  ' + hint if hint else '')
    if isinstance(e, (RecursionError, MemoryError)):
        return 'Error: program too large or too deeply nested to process'
    raise e


def _report(e):
    """The error's message on stderr, for every error a user can cause; exit status 1."""
    if isinstance(e, BrokenPipeError):
        return 1
    message = _message(e)
    _flush()
    sys.stderr.buffer.write((message + '\n').encode('latin-1', 'replace'))
    sys.stderr.flush()
    return 1
