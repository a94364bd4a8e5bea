"""The `pipvm` command line.

Running a .pipc imports only the pipvm package: the compiler (and SLY) are
imported by the commands that need them.
"""
import argparse
import os
import sys

from .errors import InputEnded, PipError

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


def is_bytecode(path, data):
    from . import pipc
    return path.endswith('.pipc') or data.startswith(pipc.MAGIC)


def load_program(path):
    """A validated program from a .pipc file, or compiled in memory from source."""
    from . import pipc
    data = pipc.read_file(path)
    if is_bytecode(path, data):
        return pipc.load(data, path)
    from compiler import frontend
    program = frontend.compile_text(data.decode('latin-1'))
    # Through the file format, so a .pip runs exactly as its .pipc would.
    return pipc.load(pipc.dump(program), path)


def cmd_compile(args):
    from compiler import frontend
    from . import pipc
    program = frontend.compile_text(frontend.read_source(args.file))
    out = args.output or os.path.splitext(args.file)[0] + '.pipc'
    pipc.write_file(out, pipc.dump(program))
    return 0


def cmd_run(args):
    from .game import play
    if args.engine == 'reference':
        return play(None, seed=args.seed, engine=reference_engine(args.file))
    return play(load_program(args.file), seed=args.seed)


def reference_engine(path):
    """The reference interpreter's factory for a .pip source (it walks the
    checked AST, so a compiled .pipc can't be run by it)."""
    from . import pipc
    data = pipc.read_file(path)
    if is_bytecode(path, data):
        raise PipError(None, '%s: the reference engine runs .pip sources, not bytecode' % path)
    from compiler import frontend, reference
    program = frontend.check_text(data.decode('latin-1'))
    return lambda table, rng: reference.Interpreter(program, table, rng)


def cmd_dis(args):
    from disasm.listing import listing
    _out(listing(load_program(args.file)))
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
    p.add_argument('--seed', type=int, help='make every shuffle reproducible')
    p.add_argument('--engine', choices=('vm', 'reference'), default='vm',
                   help='reference: walk the checked syntax tree instead (the specification)')
    p.set_defaults(func=cmd_run)
    p = sub.add_parser('dis', help='list the bytecode of a game')
    p.add_argument('file', metavar='GAME.pipc|GAME.pip')
    p.set_defaults(func=cmd_dis)
    return ap


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
    if isinstance(e, (PipError, InputEnded)):
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
