#!/usr/bin/env python3
"""The VM against the reference interpreter, on the same games.

    python benchmarks/engines.py [--runs 5] [--games 10] [--opcodes]

Compute-heavy programs (benchmarks/programs: deal, order, play rules, nested
loops) play one game each; whole games (the examples and the two complete
games of the original test suite) play --games games each, seeds 1.., with
random bots at every seat.  Both engines play the same games, which is
checked: their results must be identical.  Times are medians of --runs, in
milliseconds, for all of a row's games; ratio = reference / VM.  --opcodes
also counts the instructions the VM runs and the commonest pairs of them
(the candidates for superinstructions); --no-fuse runs the VM without them.
"""
import argparse
import collections
import math
import statistics

from common import GAMES, PROGRAMS, median_ms, name

from pipvm.play import loader
from pipvm.engine import vm
from pipvm.design import sim
from pipvm.isa.opcodes import BY_CODE
from pipvm.play.seats import Seating, parse_kind

MAX_STEPS = 100_000


FUSE = True


def player(path, engine):
    program, factory = loader.load_engine(path, engine, MAX_STEPS, FUSE)
    seating = sim.sim_seating(program, Seating(default=parse_kind('random')))
    return lambda seeds: [sim.play_one(factory, seating, s) for s in seeds]


def compare(path, seeds, runs):
    """(VM ms, reference ms) for playing seeds; both must agree on every game."""
    on_vm, on_ref = player(path, 'vm'), player(path, 'reference')
    if on_vm(seeds) != on_ref(seeds):
        raise SystemExit('%s: the engines disagree' % path)
    # Alternate the engines, so that a slow moment of the machine hits both.
    times = [(median_ms(lambda: on_vm(seeds), 1), median_ms(lambda: on_ref(seeds), 1))
             for _ in range(runs)]
    return statistics.median(t for t, _ in times), statistics.median(t for _, t in times)


def count_opcodes(paths, games):
    """Counters of the opcodes and of the fall-through pairs the VM runs."""
    ops, pairs = collections.Counter(), collections.Counter()

    class Counting(list):
        last = prev = None

        def __getitem__(self, pc):
            item = list.__getitem__(self, pc)
            ops[item[0]] += 1
            if self.last == pc - 1:
                pairs[self.prev, item[0]] += 1
            self.last, self.prev = pc, item[0]
            return item

    plain = vm.Loaded.__init__

    def counting(self, code, *args, **kwargs):
        plain(self, code, *args, **kwargs)
        same = self.quiet is self.instrs
        self.instrs = Counting(self.instrs)
        self.quiet = self.instrs if same else Counting(self.quiet)
    vm.Loaded.__init__ = counting
    try:
        for path, seeds in paths:
            player(path, 'vm')(seeds)
    finally:
        vm.Loaded.__init__ = plain
    return ops, pairs


def opname(code):
    """Any instruction the VM runs, load-time ones included (opcodes.INSTRUCTIONS)."""
    return BY_CODE[code].name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--games', type=int, default=10)
    ap.add_argument('--opcodes', action='store_true')
    ap.add_argument('--no-fuse', action='store_true', help='run the VM without superinstructions')
    a = ap.parse_args()
    global FUSE
    FUSE = not a.no_fuse
    rows = [(p, [1]) for p in PROGRAMS] + [(p, list(range(1, a.games + 1))) for p in GAMES]
    print('%-28s %6s %10s %10s %7s' % ('program (games)', '', 'vm ms', 'ref ms', 'ratio'))
    ratios = []
    for path, seeds in rows:
        t_vm, t_ref = compare(path, seeds, a.runs)
        ratios.append(t_ref / t_vm)
        print('%-28s %6d %10.1f %10.1f %6.2fx' % (name(path), len(seeds), t_vm, t_ref, ratios[-1]))
    geo = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print('geometric mean of the ratios: %.2fx (reference time / VM time; target 2x)' % geo)
    if a.opcodes:
        ops, pairs = count_opcodes(rows, a.games)
        total = sum(ops.values())
        print('\n%d instructions; the commonest:' % total)
        for op, k in ops.most_common(15):
            print('  %-24s %5.1f%%' % (opname(op), 100 * k / total))
        print('the commonest fall-through pairs:')
        for (x, y), k in pairs.most_common(15):
            print('  %-24s %-24s %5.1f%%' % (opname(x), opname(y), 100 * k / total))


if __name__ == '__main__':
    main()
