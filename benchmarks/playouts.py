#!/usr/bin/env python3
"""A thinking bot's random playouts in this tree against earlier commits,
side by side in one run: CPU microseconds per answer.

    python benchmarks/playouts.py REV [REV ...] [--reps 10] [--rounds 3]
                                  [--files FILE.pip ...] [--engines loop compiled]

A REV may be a directory (`.`: this tree as it stands).  --engines runs each
tree with each engine (`compiled`: the compiled tier, in trees that have it);
REV:ENGINE runs that tree with that engine only (`30a2363:loop`).

The playouts are what an `ismcts` decision spends most of its time in
(profile_thinking.py).  Each tree (either package layout) finds the same six states (seat 1's first
decisions with a real choice in games with seeds 1, 2, ..., the others
answering from random.Random(seed)) and finishes quiet forks of them with
Game.play_out, REPS times each, all from one random.Random(5); the figure is
the best of 7 runs, then the median over the rounds (the trees alternate).
The trees must play the same answers (a digest of the histories), or the
benchmark stops: a faster playout must be the same playout.

    python benchmarks/playouts.py REV [REV ...] --instructions [--reps 2] ...

counts machine instructions per answer under callgrind instead, which no
load disturbs (valgrind; PYTHONHASHSEED=0, so that every run orders its
sets alike): each tree plays every state out once (every function made),
then REPS and 3 x REPS times in two runs, and the difference between the
runs is divided by the difference between their answers (the loading and
the warm-up cancel out).  About a minute a tree and file.  --cache runs
them under cachegrind's simulation of the caches and the branch predictor
instead (slower): instructions, instruction- and data-cache misses and
mispredicted branches per answer, which the CPU time feels and a count of
instructions does not.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

from common import ROOT, python_in, worktrees

ENGINES = ('loop', 'compiled')
FILES = [os.path.join(ROOT, 'examples', 'euchre.pip'), os.path.join(ROOT, 'examples', 'oh_hell.pip')]

# Run in each tree, with its own package: the states, then the timing
# (PROBE) or one counted pass (COUNTED).
STATES = r'''
import hashlib, json, random, sys, time
try:                                    # the layout by concern (issue 21)
    from pipvm.play import loader
    from pipvm.engine.vm import Image
    from pipvm.game.game import Game
    from pipvm.play.bots import playout
except ImportError:                     # the flat layout before it (b394470)
    from pipvm import loader
    from pipvm.vm import Image
    from pipvm.game import Game
    from pipvm.bots import playout
path, reps, engine = sys.argv[1], int(sys.argv[2]), sys.argv[3]
program = loader.load_program(path)
players = program.counts[0] * (program.team_size or 1)
image = Image(program, compiled=True) if engine == 'compiled' else Image(program)
states, seed = [], 0
while len(states) < 6:
    seed += 1
    g = Game(image, seed=seed, players=players, names=['P%d' % i for i in range(players)],
             quiet=True)
    rng = random.Random(seed)
    while g.decision is not None and len(states) < 6:
        d = g.decision
        if d.seat == 0 and len(d.options) > 1:
            states.append(g.fork(quiet=True))
        g.answer(rng.randrange(len(d.options)))
'''
PLAY = r'''
def play(reps, rng):
    # every state forked and played out reps times: (answers, their histories)
    answers, played = 0, []
    for _ in range(reps):
        for s in states:
            g = s.fork(quiet=True)
            before = len(g.history)
            playout(g, rng)
            answers += len(g.history) - before
            played.append(g.history[before:])
    return answers, played
'''
PROBE = STATES + PLAY + r'''
best = None
for _ in range(7):
    t = time.process_time()
    answers, played = play(reps, random.Random(5))
    took = time.process_time() - t
    best = took if best is None else min(best, took)
print(json.dumps([1e6 * best / answers, answers,
                  hashlib.sha1(repr(played).encode()).hexdigest()]))
'''
COUNTED = STATES + PLAY + r'''
for s in states:                # (each state played out once: every function made)
    playout(s.fork(quiet=True), random.Random(1))
answers, played = play(reps, random.Random(5))
print(json.dumps([answers, hashlib.sha1(repr(played).encode()).hexdigest()]))
'''


def measure(tree, path, reps, engine='loop'):
    return json.loads(python_in(tree, '-c', PROBE, path, reps, engine))


# cachegrind's counts (--cache): its simulation of the caches and the
# branch predictor, which callgrind's count of instructions does not see
CACHE = (('instructions', r'I\s+refs'), ('I1 misses', r'I1\s+misses'),
         ('D1 misses', r'D1\s+misses'), ('mispredicts', r'Mispredicts'))


def instructions(tree, path, reps, engine='loop', cache=False):
    """Machine instructions per answer (callgrind), or with cache each of
    CACHE's counts per answer (cachegrind), and the two runs' digests."""
    tool = (['--tool=cachegrind', '--cache-sim=yes', '--branch-sim=yes',
             '--cachegrind-out-file=/dev/null'] if cache
            else ['--tool=callgrind', '--callgrind-out-file=/dev/null'])

    def run(n):
        env = dict(os.environ, PYTHONPATH=tree, PYTHONHASHSEED='0')
        out = subprocess.run(['valgrind', *tool, sys.executable, '-c', COUNTED, path, str(n),
                              engine], check=True, capture_output=True, text=True, cwd=tree,
                             env=env)
        answers, digest = json.loads(out.stdout)
        patterns = [p for _, p in CACHE] if cache else [r'Collected']
        counts = [int(re.search(r'%s\s*:\s+([\d,]+)' % p, out.stderr).group(1).replace(',', ''))
                  for p in patterns]
        return counts, answers, digest
    (few, a, d1), (more, b, d3) = run(reps), run(3 * reps)
    return [(m - f) / (b - a) for m, f in zip(more, few)], b - a, d1 + d3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('revs', nargs='+', metavar='REV')
    ap.add_argument('--reps', type=int, default=None, help='10 (timed), 2 (--instructions)')
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--files', nargs='*', default=FILES, metavar='FILE.pip')
    ap.add_argument('--engines', nargs='+', default=['loop'], choices=ENGINES)
    ap.add_argument('--instructions', action='store_true',
                    help='machine instructions per answer under callgrind (--reps 2 by default)')
    ap.add_argument('--cache', action='store_true',
                    help='as --instructions, under cachegrind: instructions, cache misses and '
                         'mispredicted branches per answer')
    a = ap.parse_args()
    files = [os.path.abspath(f) for f in a.files]
    revs = [r.rpartition(':')[0] if r.rpartition(':')[2] in ENGINES else r for r in a.revs]
    with worktrees(revs) as trees:
        runners, labels = [], []
        for rev, given, tree in zip(revs, a.revs, trees):
            for e in ([given.rpartition(':')[2]] if given != rev else a.engines):
                runners.append((tree, e))
                labels.append('%s %s' % (rev, e) if len(a.engines) > 1 or given != rev else rev)
        names = dict(zip(runners, labels))
        if a.instructions or a.cache:
            return counted(runners, names, files, a.reps or 2, a.cache)
        a.reps = a.reps or 10
        print('playouts from 6 states x %d, %d rounds (CPU us per answer, best of 7, '
              'median of the rounds; speed-up against %s)' % (a.reps, a.rounds,
                                                              names[runners[0]]))
        for f in files:
            runs = {r: [] for r in runners}
            for n in range(a.rounds):
                for r in (runners if n % 2 == 0 else runners[::-1]):
                    runs[r].append(measure(r[0], f, a.reps, r[1]))
            if len({tuple(x[1:]) for v in runs.values() for x in v}) != 1:
                sys.exit('%s: the trees played different playouts' % os.path.basename(f))
            base = statistics.median(x[0] for x in runs[runners[0]])
            for r in runners:
                us = statistics.median(x[0] for x in runs[r])
                print('  %-12s %-20s %6.1f us/answer  %5.2fx  (%d answers)' % (
                    os.path.basename(f), names[r], us, base / us, runs[r][0][1]))


def counted(runners, names, files, reps, cache=False):
    kinds = [k for k, _ in CACHE] if cache else ['instructions']
    print('playouts from 6 states x %d and x %d, %s per answer (%s; ratio: %s\'s over each)'
          % (reps, 3 * reps, ', '.join(kinds), 'cachegrind' if cache else 'callgrind',
             names[runners[0]]))
    for f in files:
        runs = {r: instructions(r[0], f, reps, r[1], cache) for r in runners}
        if len({x[1:] for x in runs.values()}) != 1:
            sys.exit('%s: the trees played different playouts' % os.path.basename(f))
        base = runs[runners[0]][0]
        for r in runners:
            print('  %-12s %-20s %s  (%d answers)' % (
                os.path.basename(f), names[r], '  '.join(
                    '%s %.0f %.3fx' % (k, v, b / v) for k, v, b in zip(kinds, runs[r][0], base)),
                runs[r][1]))


if __name__ == '__main__':
    sys.exit(main())
