"""The `pipvm` command line."""
import argparse
import sys

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


def build_parser():
    ap = argparse.ArgumentParser(prog='pipvm', description='Pip card-game language toolchain.')
    sub = ap.add_subparsers(dest='command', required=True, metavar='COMMAND')
    p = sub.add_parser('parse', help='print a program back from its syntax tree')
    p.add_argument('file', metavar='FILE.pip')
    p.set_defaults(func=cmd_parse)
    p = sub.add_parser('check', help='check a program; print its first error, if any')
    p.add_argument('file', metavar='FILE.pip')
    p.set_defaults(func=cmd_check)
    return ap


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        sys.stdout.flush()
        sys.stderr.write('\nInterrupted.\n')
        return 130
    except Exception as e:
        return _report(e)


def _report(e):
    """One line on stderr for every error a user can cause; exit status 1."""
    from compiler.errors import PipError
    if isinstance(e, PipError):
        message = str(e)
    elif isinstance(e, (RecursionError, MemoryError)):
        message = 'Error: program too large or too deeply nested to process'
    else:
        raise e
    sys.stdout.flush()
    sys.stderr.buffer.write((message + '\n').encode('latin-1', 'replace'))
    sys.stderr.flush()
    return 1
