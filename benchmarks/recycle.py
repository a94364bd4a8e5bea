#!/usr/bin/env python3
"""A RECYCLE game beside the same game in Pip: start-up and simulation.

    python benchmarks/recycle.py [--rounds 5] [--games 100] [--compiled] [RECYCLE PIP]

Defaults to examples/recycle/agram.recycle against examples/agram.pip (its
hand port). Each round times both, one after the other, so a loaded
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


def play(program, games, compiled=False):
    program = Image(program, compiled=compiled)     # once, as a simulation does
    n = program.program.counts[0] * max(program.program.team_size, 1)
    names = ['P%d' % i for i in range(n)]
    for seed in range(1, games + 1):
        game = Game(program, seed=seed, players=n, names=names, quiet=True)
        rng = random.Random(seed)
        while game.decision:
            game.answer(rng.randrange(len(game.decision.options)))


def instructions(program, games):
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
        play(program, games)
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--rounds', type=int, default=5)
    ap.add_argument('--games', type=int, default=100)
    ap.add_argument('--compiled', action='store_true', help='simulate on the compiled tier')
    ap.add_argument('files', nargs='*', default=[os.path.join(ROOT, 'examples', 'recycle', 'agram.recycle'),
                                                 os.path.join(ROOT, 'examples', 'agram.pip')])
    a = ap.parse_args()
    programs = [compile_file(p) for p in a.files]
    players = programs[0].counts[0] * max(programs[0].team_size, 1)
    start = [[], []]
    sim = [[], []]
    proc = [[], []]
    for _ in range(a.rounds):
        for k, path in enumerate(a.files):
            start[k].append(min(timed(lambda: compile_file(path)) for _ in range(3)) * 1000)
            sim[k].append(timed(lambda: play(programs[k], a.games, a.compiled)) / a.games * 1000)
            proc[k].append(timed(lambda: process(path, players)) * 1000)
    print('load %.1f' % os.getloadavg()[0])
    print('%-12s %12s %12s %8s' % ('measure', 'recycle ms', 'pip ms', 'ratio'))
    for what, xs in (('start-up', start), ('per game', sim), ('process', proc)):
        r, p = statistics.median(xs[0]), statistics.median(xs[1])
        print('%-12s %12.2f %12.2f %8.2f' % (what, r, p, r / p))
    r, p = (instructions(program, min(a.games, 20)) for program in programs)
    print('%-12s %12.0f %12.0f %8.2f' % ('instr/game', r, p, r / p))


if __name__ == '__main__':
    main()
