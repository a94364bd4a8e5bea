"""What the benchmarks share: where things are, timing by medians, earlier
commits checked out side by side."""
import contextlib
import glob
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

PROGRAMS = sorted(glob.glob(os.path.join(ROOT, 'benchmarks', 'programs', '*.pip')))
GAMES = sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip'))
               + glob.glob(os.path.join(ROOT, 'tests', 'data', 'full', '*.pip')))


def median_ms(fn, runs):
    """The median wall time of fn() over runs calls, in milliseconds."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def python_in(tree, *argv, timeout=3600):
    """What `python ARGV...` prints, run in another checkout (its folder, its
    packages first on the path): how a benchmark asks an earlier tree."""
    env = dict(os.environ, PYTHONPATH=tree)
    return subprocess.run([sys.executable, *map(str, argv)], check=True, capture_output=True,
                          text=True, cwd=tree, env=env, timeout=timeout).stdout


def interpreter_ms(runs):
    """The median start-up of a bare `python -c pass`, printed and returned: the
    part of a fresh process's time that is not ours."""
    ms = median_ms(lambda: subprocess.run([sys.executable, '-c', 'pass'], check=True), runs)
    print('python -c pass (interpreter start-up alone): %.1f ms' % ms)
    return ms


def cached_env(folder, tree=None):
    """The environment of a child run as an installed pipvm runs: its modules
    read from .pyc files (kept in folder, whatever PYTHONDONTWRITEBYTECODE
    says: compiling every module from source would be most of a start-up);
    tree first on the path when given."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=folder)
    env.pop('PYTHONDONTWRITEBYTECODE', None)
    if tree is not None:
        env['PYTHONPATH'] = os.path.abspath(tree)
    return env


def name(path):
    folder = os.path.basename(os.path.dirname(path))
    return '%s/%s' % (folder, os.path.splitext(os.path.basename(path))[0])


@contextlib.contextmanager
def worktrees(revs):
    """Each rev checked out in a temporary git worktree: their paths, in order
    (removed afterwards); a rev that is a directory (`.`) is used as it stands."""
    with tempfile.TemporaryDirectory() as tmp:
        trees, made = [], []
        try:
            for i, rev in enumerate(revs):
                if os.path.isdir(rev):      # a checkout as it stands (`.`: this tree)
                    trees.append(os.path.abspath(rev))
                    continue
                tree = os.path.join(tmp, 'tree%d' % i)
                subprocess.run(['git', '-C', ROOT, 'worktree', 'add', '--detach', tree, rev],
                               check=True, capture_output=True)
                trees.append(tree)
                made.append(tree)
            yield trees
        finally:
            for t in made:
                subprocess.run(['git', '-C', ROOT, 'worktree', 'remove', '--force', t],
                               capture_output=True)
