"""The `pipvm` command line.

Running a .pipc imports only the pipvm package: the compiler (and SLY) are
imported by the commands that need them.
"""
import argparse
import os
import sys

from .errors import InputEnded, PipError, StepLimit

USAGE_ERROR = 2


def _out(text):
    """Write program text byte for byte (sources are read as Latin-1)."""
    sys.stdout.buffer.write(text.encode('latin-1'))
    sys.stdout.flush()


def cmd_parse(args):
    from compiler import frontend
    _out(frontend.print_text(frontend.read_source(args.file)))
    return 0


def cmd_check(args):
    from compiler import frontend
    frontend.check_text(frontend.read_source(args.file))
    return 0


def cmd_compile(args):
    from compiler import frontend
    from . import pipc
    program = frontend.compile_text(frontend.read_source(args.file))
    out = args.output or os.path.splitext(args.file)[0] + '.pipc'
    pipc.write_file(out, pipc.dump(program))
    return 0


def cmd_run(args):
    from . import loader, terminal
    program, engine = loader.load_engine(args.file, args.engine, args.max_steps, sets=args.set)
    seats = seating(args)
    seats.check(program)
    return terminal.play(engine, seed=args.seed, seating=seats)


def seating(args):
    """The Seating that --bots, --seat and --players ask for."""
    from . import seats
    return seats.seating(args.bots, args.seat, args.players)


def cmd_sim(args):
    from . import sim
    return sim.main(args, seating(args))


def cmd_sweep(args):
    from . import sweep
    return sweep.main(args, seating(args))


def cmd_dis(args):
    from disasm.listing import listing
    from .loader import load_program
    _out(listing(load_program(args.file), args.fused))
    return 0


def build_parser():
    ap = argparse.ArgumentParser(prog='pipvm', description='Pip card-game language toolchain.')
    sub = ap.add_subparsers(dest='command', required=True, metavar='COMMAND')
    p = sub.add_parser('parse', help='print a program back from its syntax tree')
    p.add_argument('file', metavar='FILE.pip')
    p.set_defaults(func=cmd_parse)
    p = sub.add_parser('check', help='check a program; print its first error, if any')
    p.add_argument('file', metavar='FILE.pip')
    p.set_defaults(func=cmd_check)
    p = sub.add_parser('compile', help='compile a program to bytecode (GAME.pipc)')
    p.add_argument('file', metavar='GAME.pip')
    p.add_argument('-o', '--output', metavar='OUT.pipc', help='default: beside the source')
    p.set_defaults(func=cmd_compile)
    p = sub.add_parser('run', help='play a game at the terminal')
    p.add_argument('file', metavar='GAME.pipc|GAME.pip')
    p.add_argument('--seed', type=int, help='make every shuffle (and random bot) reproducible')
    seat_options(p, 'human')
    set_option(p)
    p.add_argument('--max-steps', type=positive, metavar='K',
                   help='stop the game after K steps (loop iterations and action calls)')
    engine_option(p)
    p.set_defaults(func=cmd_run)
    p = sub.add_parser('sim', help='play many games between bots and report the results')
    sim_options(p)
    p.set_defaults(func=cmd_sim)
    p = sub.add_parser('sweep', help='simulate every combination of --vary values; one table')
    sim_options(p)
    p.add_argument('--vary', action='append', required=True, type=vary, metavar='NAME=V1,V2,...',
                   help='a global to try at each of these values (as --set); repeatable: '
                        'every combination is played')
    p.add_argument('--report', metavar='FILE.html',
                   help='also write an HTML report, one plot per metric (needs pipvm[report])')
    p.set_defaults(func=cmd_sweep)
    p = sub.add_parser('dis', help='list the bytecode of a game')
    p.add_argument('file', metavar='GAME.pipc|GAME.pip')
    p.add_argument('--fused', action='store_true',
                   help='show the superinstructions the VM fuses runs of opcodes into')
    p.set_defaults(func=cmd_dis)
    return ap


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
    p.add_argument('file', metavar='GAME.pipc|GAME.pip')
    p.add_argument('--games', type=positive, default=1000, metavar='N', help='default: 1000')
    p.add_argument('--seed', type=int, default=1, metavar='S',
                   help='game i (from 0) uses seed S+i; default: 1')
    p.add_argument('--jobs', type=positive, default=1, metavar='J',
                   help='processes to spread the games over; the results do not depend on it')
    seat_options(p, 'random')
    set_option(p)
    p.add_argument('--max-steps', type=positive, default=DEFAULT_SIM_STEPS, metavar='K',
                   help='a game still running after K steps is stopped and counted; '
                        'default: %d' % DEFAULT_SIM_STEPS)
    p.add_argument('--json', action='store_true', help='write one JSON object to stdout')
    cluster_option(p)
    engine_option(p)


def vary(text):
    """--vary NAME=V1,V2,...: (NAME, [V1, V2, ...])."""
    from .overrides import split
    name, values = split(text)
    if not values:
        raise argparse.ArgumentTypeError('expected NAME=V1,V2,..., not %r' % text)
    return name, values.split(',')


def seat_options(p, default):
    p.add_argument('--bots', metavar='KIND',
                   help='who sits at every seat not given by --seat: random, first, human '
                        'or script:FILE; default: %s' % default,
                   default=None if default == 'human' else default)
    p.add_argument('--seat', action='append', default=[], metavar='N=KIND',
                   help='who sits at seat N (from 1): random, first, human or script:FILE')
    p.add_argument('--players', type=positive, metavar='N',
                   help='how many play (otherwise seat 1 is asked)')


def set_option(p):
    """--set NAME=VALUE (repeatable): args.set is [(NAME, VALUE text)]; see pipvm/overrides.py."""
    from .overrides import split
    p.add_argument('--set', action='append', default=[], type=split, metavar='NAME=VALUE',
                   help='start the game with global NAME (a Number, Boolean, String, Rank or '
                        'Suit) set to VALUE instead of its declared value; repeatable')


def cluster_option(p):
    p.add_argument('--cluster', metavar='ADDRESS',
                   help='play the games on the workers of the Dask scheduler at ADDRESS '
                        '(e.g. tcp://10.0.0.5:8786); needs pipvm[cluster]')


def engine_option(p):
    p.add_argument('--engine', choices=('vm', 'reference'), default='vm',
                   help='reference: walk the checked syntax tree instead (the specification)')


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        _flush()
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


def _report(e):
    """One line on stderr for every error a user can cause; exit status 1."""
    if isinstance(e, (PipError, InputEnded, StepLimit)):
        message = str(e)
    elif isinstance(e, (RecursionError, MemoryError)):
        message = 'Error: program too large or too deeply nested to process'
    elif isinstance(e, BrokenPipeError):
        return 1
    else:
        raise e
    _flush()
    sys.stderr.buffer.write((message + '\n').encode('latin-1', 'replace'))
    sys.stderr.flush()
    return 1
