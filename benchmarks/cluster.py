#!/usr/bin/env python3
"""`pipvm sim` games per second on 1 job, 2 jobs and a local Dask cluster of
two one-thread workers, and what the cluster path costs per game.

    python benchmarks/cluster.py [--games 600] [--runs 3] [FILE.pip ...]

The cluster is started as the tests start it (tests/test_cluster.py): a
scheduler and two workers on 127.0.0.1, from the Dask command line.  Every
figure is sim's own timing (for the cluster, connecting included), the
median of --runs rounds; each round runs every configuration once, so a
slow moment of the shared machine hits them all.

- `start`: a one-game run on the cluster, nearly all of it connecting.
- `overhead/game`: what a game costs on the cluster beyond its cost in the
  2-job process pool, on the same two cores: the difference of the two
  marginal costs, (time(N) - time(N/4)) / (3N/4) each, so that fixed costs
  (connecting, starting processes) cancel.  It is measured best on the last
  row, a one-round High Card whose games take almost nothing, played 10
  times as often.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from common import ROOT, name

from tests.test_cluster import Cluster

HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')
DEFAULT = [os.path.join(ROOT, 'tests', 'data', 'full', 'crazy_eights.pip'),
           os.path.join(ROOT, 'examples', 'three_hearts.pip')]


def seconds(path, games, options):
    out = subprocess.run([sys.executable, '-m', 'pipvm', 'sim', path, '--games', str(games),
                          '--precision', '0', '--json', *options],
                         check=True, capture_output=True).stdout
    return json.loads(out)['timing']['seconds']


def measure(path, games, runs, cluster, options=()):
    """Medians of the seconds of (1 job, 2 jobs, cluster start, cluster) for
    games, and the overhead per game."""
    where, two = ['--cluster', cluster.address], ['--jobs', '2']
    configs = [(games, ['--jobs', '1']), (games, two), (1, where), (games, where),
               (games // 4, two), (games // 4, where)]
    rounds = [[seconds(path, n, [*options, *o]) for n, o in configs] for _ in range(runs)]
    one, two, start, there, two_q, there_q = map(statistics.median, zip(*rounds))
    extra = games - games // 4
    return one, two, start, there, (there - there_q) / extra - (two - two_q) / extra


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--games', type=int, default=600)
    ap.add_argument('--runs', type=int, default=3)
    ap.add_argument('files', nargs='*')
    a = ap.parse_args()
    rows = [(name(p), p, a.games, ()) for p in a.files or DEFAULT]
    rows.append(('high_card --set rounds=1', HIGH_CARD, 10 * a.games, ('--set', 'rounds=1')))
    print('%d CPUs; medians of %d rounds' % (os.cpu_count(), a.runs))
    print('| game | games | 1 job g/s | 2 jobs g/s | cluster g/s | start | overhead/game |')
    print('| --- | ---: | ---: | ---: | ---: | ---: | ---: |')
    with tempfile.TemporaryDirectory() as tmp:
        cluster = Cluster(tmp)
        try:
            for label, path, games, options in rows:
                one, two, start, there, overhead = measure(path, games, a.runs, cluster, options)
                print('| %s | %d | %.1f | %.1f | %.1f | %.2f s | %.3f ms |' % (
                    label, games, games / one, games / two, games / there, start,
                    1000 * overhead), flush=True)
        finally:
            cluster.stop()


if __name__ == '__main__':
    main()
