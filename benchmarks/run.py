#!/usr/bin/env python3
"""The whole benchmark suite, one part after the other.

    python benchmarks/run.py [--quick]

--quick uses fewer runs and games (a minute or two instead of several).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    quick = '--quick' in sys.argv[1:]
    parts = [
        ('front end', 'frontend.py', ['--runs', '3' if quick else '7']),
        ('start-up to the first prompt', 'startup.py', ['--runs', '3' if quick else '7']),
        ('VM against the reference interpreter', 'engines.py',
         ['--runs', '3', '--games', '5'] if quick else ['--runs', '7', '--games', '10']),
        ('simulation throughput', 'simulate.py', ['--games', '50' if quick else '200']),
        ('the VM against hand-written Python (full/crazy_eights)', 'handwritten.py',
         ['--games', '300', '--rounds', '3'] if quick else ['--games', '1000', '--rounds', '5']),
        ('a local Dask cluster', 'cluster.py',
         ['--games', '200', '--runs', '1'] if quick else ['--games', '600', '--runs', '3']),
        ('games at once on one pipvm serve', 'serve_load.py', ['--games', '10' if quick else '50']),
        ('thinking bots', 'bots.py', ['--quick'] if quick else []),
    ]
    print('Python %s on %s, %d CPUs' % (sys.version.split()[0], sys.platform, os.cpu_count()))
    for title, script, args in parts:
        print('\n== %s (%s)' % (title, ' '.join(['benchmarks/' + script] + args)), flush=True)
        subprocess.run([sys.executable, os.path.join(HERE, script), *args], check=True)


if __name__ == '__main__':
    main()
