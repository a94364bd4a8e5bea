#!/usr/bin/env python3
"""Start-up: from `pipvm run GAME` to its first question, for .pipc and .pip.

    python benchmarks/startup.py [--runs 7] [FILE.pip ...]

A fresh process per run; the clock stops when the first prompt (`Your
choice? ` or `Enter a name`) reaches its stdout.  Medians in milliseconds.
A .pipc run imports neither the compiler nor SLY; a .pip run compiles first.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

from common import GAMES, interpreter_ms, name

PROMPTS = (b'Your choice? ', b'Enter a name')


def to_first_prompt(path):
    start = time.perf_counter()
    p = subprocess.Popen([sys.executable, '-m', 'pipvm', 'run', path, '--seed', '1'],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    seen = b''
    while not any(prompt in seen for prompt in PROMPTS):
        chunk = os.read(p.stdout.fileno(), 4096)
        if not chunk:
            raise SystemExit('%s: ended before its first prompt' % path)
        seen += chunk
    elapsed = time.perf_counter() - start
    p.kill()
    p.wait()
    return elapsed


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=7)
    ap.add_argument('files', nargs='*')
    a = ap.parse_args()
    interpreter_ms(a.runs)
    print('%-24s %12s %12s' % ('game', '.pipc ms', '.pip ms'))
    with tempfile.TemporaryDirectory() as tmp:
        for path in a.files or GAMES:
            pipc = os.path.join(tmp, os.path.basename(path) + 'c')
            subprocess.run([sys.executable, '-m', 'pipvm', 'compile', path, '-o', pipc], check=True)
            times = [sorted(to_first_prompt(p) for _ in range(a.runs))[a.runs // 2] * 1000
                     for p in (pipc, path)]
            print('%-24s %12.1f %12.1f' % (name(path), *times))


if __name__ == '__main__':
    main()
