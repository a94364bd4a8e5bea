"""What the benchmarks share: where things are, and timing by medians."""
import glob
import os
import statistics
import sys
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


def name(path):
    folder = os.path.basename(os.path.dirname(path))
    return '%s/%s' % (folder, os.path.splitext(os.path.basename(path))[0])
