#!/usr/bin/env python3
"""Start-up: from `pipvm run GAME` to its first question, for .pipc and .pip.

    python benchmarks/startup.py [--runs 7] [FILE.pip ...] [--trees TREE ...]

A fresh process per run; the clock stops when the first prompt (`Your
choice? ` or `Enter a name`) reaches its stdout.  Medians in milliseconds
(wall clock: use it on an idle machine; startup_cpu.py measures CPU).
Modules are read from .pyc files, as an installed pipvm reads them
(common.cached_env).  With --trees, each checkout runs in turn, run by run
(alternating, with a bare `python -c pass` between: the last column is a
.pipc's median less the bare one's), each game's .pipc compiled by the
first tree.
A .pipc run imports neither the compiler nor SLY; a .pip run compiles first.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from common import GAMES, ROOT, cached_env, interpreter_ms, name

PROMPTS = (b'Your choice? ', b'Enter a name')


def to_first_prompt(path, env=None, tree=ROOT):
    start = time.perf_counter()
    p = subprocess.Popen([sys.executable, '-m', 'pipvm', 'run', os.path.abspath(path),
                          '--seed', '1'], env=env, cwd=tree,    # (-m: the folder comes first)
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


def bare_s():
    """One bare `python -c pass`, timed between the runs it is set against."""
    start = time.perf_counter()
    subprocess.run([sys.executable, '-c', 'pass'], check=True)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=7)
    ap.add_argument('--trees', nargs='+', default=[ROOT], metavar='TREE',
                    help='checkouts to compare, alternating (default: this one)')
    ap.add_argument('files', nargs='*')
    a = ap.parse_args()
    interpreter_ms(a.runs)
    trees = [os.path.abspath(t) for t in a.trees]
    print('%-24s %-28s %12s %12s %14s' % ('game', 'tree', '.pipc ms', '.pip ms',
                                          '.pipc - bare'))
    with tempfile.TemporaryDirectory() as tmp:
        envs = [cached_env(os.path.join(tmp, 'pyc'), t) for t in trees]
        for path in a.files or GAMES:
            pipc = os.path.join(tmp, os.path.basename(path) + 'c')
            subprocess.run([sys.executable, '-m', 'pipvm', 'compile', os.path.abspath(path),
                            '-o', pipc], check=True, env=envs[0], cwd=trees[0])
            times = {}
            for p in (pipc, path):
                for tree, env in zip(trees, envs):      # (writes the .pyc files first)
                    to_first_prompt(p, env, tree)
                for _ in range(a.runs):
                    times.setdefault(('bare', p), []).append(bare_s())
                    for tree, env in zip(trees, envs):
                        times.setdefault((tree, p), []).append(to_first_prompt(p, env, tree))
            med = {k: statistics.median(v) * 1000 for k, v in times.items()}
            for tree in trees:
                print('%-24s %-28s %12.1f %12.1f %14.1f' % (
                    name(path), tree[-28:], med[tree, pipc], med[tree, path],
                    med[tree, pipc] - med['bare', pipc]))


if __name__ == '__main__':
    main()
