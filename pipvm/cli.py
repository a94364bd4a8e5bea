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
    if args.resume:
        return resume(args)
    if args.file is None:
        raise PipError(None, 'run: give GAME.pip (or GAME.pipc), or --resume FILE.json')
    program, engine = loader.load_engine(args.file, args.engine, args.max_steps)
    seats = seating(args)
    seats.check(program)
    if args.record:
        from . import replay
        return replay.run(args.record, args.file, program, engine, seats, args.seed,
                          args.max_steps)
    return terminal.play(engine, seed=args.seed, seating=seats)


def resume(args):
    """`run --resume FILE`: the record says what to play and how."""
    from . import replay
    given = [name for name, value in (
        ('GAME', args.file), ('--seed', args.seed is not None), ('--bots', args.bots),
        ('--seat', args.seat), ('--players', args.players), ('--max-steps', args.max_steps),
        ('--record', args.record)) if value]
    if given:
        raise PipError(None, '--resume plays the game, seed and seats of its record: '
                             'drop %s' % given[0])
    return replay.resume(args.resume, args.engine)


def cmd_replay(args):
    from . import replay
    return replay.replay(args.file, None if args.seat is None else args.seat - 1)


def seating(args):
    """The Seating that --bots, --seat and --players ask for."""
    from .seats import HUMAN, Seating, parse_kind, parse_seat
    specs = dict(parse_seat(text) for text in args.seat)
    default = parse_kind(args.bots) if args.bots else HUMAN
    return Seating(specs, default, args.players)


def cmd_sim(args):
    from . import sim
    return sim.main(args, seating(args))


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
    p.add_argument('file', metavar='GAME.pipc|GAME.pip', nargs='?')
    p.add_argument('--seed', type=int, help='make every shuffle (and random bot) reproducible')
    seat_options(p, 'human')
    p.add_argument('--max-steps', type=positive, metavar='K',
                   help='stop the game after K steps (loop iterations and action calls)')
    p.add_argument('--record', metavar='FILE.json',
                   help='write the game to FILE.json as it goes (every answer given)')
    p.add_argument('--resume', metavar='FILE.json',
                   help='show the game recorded in FILE.json and go on with it, '
                        'adding to the record')
    engine_option(p)
    p.set_defaults(func=cmd_run)
    p = sub.add_parser('replay', help='show a recorded game (pipvm run --record)')
    p.add_argument('file', metavar='FILE.json')
    p.add_argument('--seat', type=positive, metavar='N',
                   help='show only what seat N (from 1) saw')
    p.set_defaults(func=cmd_replay)
    p = sub.add_parser('sim', help='play many games between bots and report the results')
    p.add_argument('file', metavar='GAME.pipc|GAME.pip')
    p.add_argument('--games', type=positive, default=1000, metavar='N', help='default: 1000')
    p.add_argument('--seed', type=int, default=1, metavar='S',
                   help='game i (from 0) uses seed S+i; default: 1')
    p.add_argument('--jobs', type=positive, default=1, metavar='J',
                   help='processes to spread the games over; the results do not depend on it')
    seat_options(p, 'random')
    p.add_argument('--max-steps', type=positive, default=DEFAULT_SIM_STEPS, metavar='K',
                   help='a game still running after K steps is stopped and counted; '
                        'default: %d' % DEFAULT_SIM_STEPS)
    p.add_argument('--json', action='store_true', help='write one JSON object to stdout')
    engine_option(p)
    p.set_defaults(func=cmd_sim)
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


def seat_options(p, default):
    p.add_argument('--bots', metavar='KIND',
                   help='who sits at every seat not given by --seat: random, first, human '
                        'or script:FILE; default: %s' % default,
                   default=None if default == 'human' else default)
    p.add_argument('--seat', action='append', default=[], metavar='N=KIND',
                   help='who sits at seat N (from 1): random, first, human or script:FILE')
    p.add_argument('--players', type=positive, metavar='N',
                   help='how many play (otherwise seat 1 is asked)')


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
