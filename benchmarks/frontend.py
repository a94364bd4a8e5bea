#!/usr/bin/env python3
"""Front-end speed: cold-start `pipvm check` and warm per-phase times.

    python benchmarks/frontend.py [--runs 7] [FILE.pip ...]

Defaults to the bundled examples and the two full games of the original test
suite (tests/data/full).  Prints medians in milliseconds; cold start is a
fresh `python -m pipvm check` process, so it includes interpreter start-up,
imports and building the parse tables.
"""
import argparse
import subprocess
import sys

from common import GAMES, ROOT, interpreter_ms, median_ms, name

from compiler.pip import checker, frontend, lexer, parser  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=7)
    ap.add_argument('files', nargs='*')
    a = ap.parse_args()
    files = a.files or GAMES
    interpreter_ms(a.runs)
    print('%-22s %6s %8s %8s %8s %8s %9s' % ('program', 'lines', 'cold', 'lex', 'parse', 'check', 'lines/s'))
    for path in files:
        text = frontend.read_source(path)
        cold = median_ms(lambda: subprocess.run([sys.executable, '-m', 'pipvm', 'check', path],
                                                check=True, cwd=ROOT), a.runs)
        lex = median_ms(lambda: list(lexer.PipLexer().tokenize(text)), a.runs)
        tree = parser.parse(text)
        parse = median_ms(lambda: parser.parse(text), a.runs)
        check = median_ms(lambda: checker.check(tree), a.runs)
        lines = text.count('\n')
        print('%-22s %6d %7.1fms %7.2fms %7.2fms %7.2fms %9.0f' % (
            name(path), lines, cold, lex, parse, check,
            lines / ((parse + check) / 1000)))
    print('cold = whole process; parse includes lexing; lines/s = warm parse + check')


if __name__ == '__main__':
    main()
