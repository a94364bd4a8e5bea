#!/usr/bin/env python3
"""A RECYCLE game beside the same game in Pip: start-up and simulation.

    python benchmarks/recycle.py [--rounds 5] [--games 100] [--compiled] [RECYCLE PIP]
    python benchmarks/recycle.py --trees BEFORE,AFTER [--rounds 7] [--games 40] FILE...

Defaults to examples/recycle/agram.recycle against examples/agram.pip (its
hand port). Both play the same game: a Pip file plays as many players as
the RECYCLE file before it when it allows that many (Agram's port allows 2
to 6; seed 001's Agram declares 4), else its fewest. Each round times both, one after the other, so a loaded
machine slows both alike: start-up is the source compiled to a program
(read, checked, code generated: what `run` and `sim` do before the first
game), simulation is --games random games played through the game API on
the compiled program (its image made once, as `sim` does; the dispatch
loop alone unless --compiled, the compiled tier `sim` plays by default),
and a process is `pipvm run --bots random --seed 1` of the source as a
user starts it (imports, the front end, one game).  Times are CPU time
(a process's from os.times, in 10 ms ticks).  Under load the
times spread; the instructions the dispatch loop runs per game (the same
games, its silent variant) do not, and are printed too.  Rules run as
closures (pipvm/engine/pure.py) are not in that count: work moved out of a
rule into the action that plays it raises the count while it saves time.
Prints the medians and their ratio (RECYCLE / Pip).

--trees compares two checkouts (a `git archive` of each, say) on the same
files: each round runs one process per tree in turn (PYTHONPATH to it) that
compiles each file (best of 5), plays --games random games on the loop and
on the compiled tier, and then times `pipvm run` of each file in that tree;
it prints each measure's medians, tree by tree, and each RECYCLE file's
ratio to the Pip file after it, the median of the rounds' ratios
(benchmarks/results/recycle.tsv's before/after rows).
"""
import argparse
import os
import random
import statistics
import subprocess
import sys
import time

from common import ROOT

from compiler.pip import frontend as pip_frontend  # noqa: E402
from compiler.recycle import frontend as recycle_frontend  # noqa: E402
from pipvm.engine.vm import Image  # noqa: E402
from pipvm.game.game import Game  # noqa: E402
from pipvm.isa import pipc  # noqa: E402


def compile_file(path):
    front = recycle_frontend if path.endswith('.recycle') else pip_frontend
    return pipc.load(pipc.dump(front.compile_text(front.read_source(path))), os.path.basename(path))


def seats(program, like=None):
    """The players a game is played with: like's (the RECYCLE game's) if
    the program allows that many, else its fewest."""
    allowed = [k * max(program.team_size, 1) for k in program.counts]
    return like if like in allowed else allowed[0]


def play(program, games, compiled=False, n=None):
    program = Image(program, compiled=compiled)     # once, as a simulation does
    n = n or seats(program.program)
    names = ['P%d' % i for i in range(n)]
    for seed in range(1, games + 1):
        game = Game(program, seed=seed, players=n, names=names, quiet=True)
        rng = random.Random(seed)
        while game.decision:
            game.answer(rng.randrange(len(game.decision.options)))


def instructions(program, games, n=None):
    """The VM's instructions per game over the same games (a count, not a time)."""
    from pipvm.engine import vm
    counts = [0]

    class Counting(list):
        def __getitem__(self, pc):
            counts[0] += 1
            return list.__getitem__(self, pc)
    plain = vm.Loaded.__init__

    def counting(self, code, *args, **kwargs):
        plain(self, code, *args, **kwargs)
        self.quiet = Counting(self.quiet)
    vm.Loaded.__init__ = counting
    try:
        play(program, games, n=n)
    finally:
        vm.Loaded.__init__ = plain
    return counts[0] / games


def process(path, players):
    """`pipvm run` of the source with random bots: start-up as a user meets it."""
    subprocess.run([sys.executable, '-m', 'pipvm', 'run', '--bots', 'random', '--seed', '1',
                    '--players', str(players), path], check=True, stdout=subprocess.DEVNULL,
                   env=dict(os.environ, PYTHONPATH=ROOT))


def timed(fn):
    """CPU time of fn, its child processes' included: on a loaded machine
    the wall clock counts the other processes' turns too."""
    t, before = time.process_time(), os.times()
    fn()
    after = os.times()
    return time.process_time() - t + (after.children_user + after.children_system
                                      - before.children_user - before.children_system)


# What --trees runs in each tree: only APIs both trees have (the front ends,
# pipc, the image and the game), timed in CPU time; prints one JSON object.
_ONE_TREE = r'''
import json, os, random, sys, time
from compiler.pip import frontend as pip_frontend
from compiler.recycle import frontend as recycle_frontend
from pipvm.engine.vm import Image
from pipvm.game.game import Game
from pipvm.isa import pipc

def compile_file(path):
    front = recycle_frontend if path.endswith('.recycle') else pip_frontend
    return pipc.load(pipc.dump(front.compile_text(front.read_source(path))), os.path.basename(path))

games, out, like = int(sys.argv[1]), {}, None
# The compiled tier makes a block when it is hot (compiled.HOT calls; at
# its first call before 4693b07): made at the first call here, so that the
# warm-up games make every block in both trees and the games timed are the
# steady state a long simulation runs at, not the blocks' making.
from pipvm.engine import compiled as tier
tier.HOT = 1
for path in sys.argv[2:]:
    key = os.path.basename(path)
    program = compile_file(path)
    allowed = [k * max(program.team_size, 1) for k in program.counts]
    # a Pip file plays as many players as the RECYCLE file before it (the same game)
    n = like if like in allowed and not path.endswith('.recycle') else allowed[0]
    like = n if path.endswith('.recycle') else None
    for compiled in (False, True):
        image = Image(program, compiled=compiled)
        def play(count):
            for seed in range(1, count + 1):
                game = Game(image, seed=seed, players=n, names=['P%d' % i for i in range(n)], quiet=True)
                rng = random.Random(seed)
                while game.decision:
                    game.answer(rng.randrange(len(game.decision.options)))
        play(3)
        t = time.process_time()
        play(games)
        out[key + (' compiled' if compiled else ' loop')] = (time.process_time() - t) / games * 1000
    best = []
    for _ in range(5):
        t = time.process_time()
        compile_file(path)
        best.append(time.process_time() - t)
    out[key + ' compile'] = min(best) * 1000
    out[key + ' players'] = n
print(json.dumps(out))
'''


def trees(a):
    """Before/after: the measures of each file in each tree, alternating."""
    import json
    paths = a.trees.split(',')
    runs = {t: [] for t in paths}
    for _ in range(a.rounds):
        for tree in paths:
            env = dict(os.environ, PYTHONPATH=tree)
            p = subprocess.run([sys.executable, '-c', _ONE_TREE, str(a.games)] + a.files, cwd=tree,
                               env=env, capture_output=True, text=True, check=True)
            d = json.loads(p.stdout)
            for path in a.files:
                key = os.path.basename(path)
                d[key + ' process'] = timed(lambda: subprocess.run(
                    [sys.executable, '-m', 'pipvm', 'run', '--bots', 'random', '--seed', '1', '--players',
                     str(d[key + ' players']), path], cwd=tree, env=env, stdout=subprocess.DEVNULL,
                    check=True)) * 1000
            runs[tree].append(d)
    print('load %.1f; players: %s' % (os.getloadavg()[0], ', '.join(
        '%s %d' % (os.path.basename(f), runs[paths[0]][0][os.path.basename(f) + ' players']) for f in a.files)))
    print('%-34s' % 'ms (CPU)', '  '.join('%12s' % os.path.basename(t.rstrip('/')) for t in paths))
    for k in runs[paths[0]][0]:
        if not k.endswith(' players'):
            print('%-34s' % k, '  '.join('%12.3f' % statistics.median(d[k] for d in runs[t]) for t in paths))
    # a RECYCLE file's ratio to the Pip file after it, round by round (both
    # timed in one process, one after the other), then the median: the load
    # moves both, so this spreads less than a ratio of medians
    for rec, pip in zip(a.files, a.files[1:]):
        if rec.endswith('.recycle') and not pip.endswith('.recycle'):
            r, p = os.path.basename(rec), os.path.basename(pip)
            for m in ('loop', 'compiled', 'compile', 'process'):
                print('%-34s' % ('%s/%s %s' % (r.split('.')[0], p.split('.')[0], m)), '  '.join(
                    '%12.3f' % statistics.median(d['%s %s' % (r, m)] / d['%s %s' % (p, m)] for d in runs[t])
                    for t in paths))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--games', type=int, default=100)
    ap.add_argument('--compiled', action='store_true', help='simulate on the compiled tier')
    ap.add_argument('--trees', help='BEFORE,AFTER: two checkouts compared on the files')
    ap.add_argument('files', nargs='*', default=[os.path.join(ROOT, 'examples', 'recycle', 'agram.recycle'),
                                                 os.path.join(ROOT, 'examples', 'agram.pip')])
    a = ap.parse_args()
    if a.trees:
        return trees(a)
    programs = [compile_file(p) for p in a.files]
    players = seats(programs[0])
    players = [players, seats(programs[1], players)]
    start = [[], []]
    sim = [[], []]
    proc = [[], []]
    for _ in range(a.rounds):
        for k, path in enumerate(a.files):
            start[k].append(min(timed(lambda: compile_file(path)) for _ in range(3)) * 1000)
            sim[k].append(timed(lambda: play(programs[k], a.games, a.compiled, players[k])) / a.games * 1000)
            proc[k].append(timed(lambda: process(path, players[k])) * 1000)
    print('load %.1f; players %d and %d' % (os.getloadavg()[0], players[0], players[1]))
    print('%-12s %12s %12s %8s' % ('measure', 'recycle ms', 'pip ms', 'ratio'))
    for what, xs in (('start-up', start), ('per game', sim), ('process', proc)):
        r, p = statistics.median(xs[0]), statistics.median(xs[1])
        print('%-12s %12.2f %12.2f %8.2f' % (what, r, p, r / p))
    r, p = (instructions(program, min(a.games, 20), n) for program, n in zip(programs, players))
    print('%-12s %12.0f %12.0f %8.2f' % ('instr/game', r, p, r / p))


if __name__ == '__main__':
    main()
