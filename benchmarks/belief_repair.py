#!/usr/bin/env python3
"""How a seat's belief carries its particles from decision to decision, in
this tree against earlier commits, side by side in one run.

    python benchmarks/belief_repair.py REV [REV ...] [--file FILE.pip] [--decisions 40]
                                       [--players N] [--rounds 2]

Each REV is checked out in a temporary git worktree ('.': this tree as it
is).  In every tree, games
with seeds 1, 2, ... are played with every seat at random (the game's own
generator); seat 0 keeps a Belief of bots.POOL particles (its generator
seeded as the game) and asks it for its worlds at each of its decisions with
a choice, until DECISIONS of them.  Per decision: the particles that survive
the forward step (played on through the answers since and still matching),
the decisions at which none survived, the replays (a particle's game played
again from the start or from a game kept before a shuffle: fresh deals,
redeals, the repairs' replays), the decisions with no world, and the CPU
milliseconds of the update (time.process_time: the machine is shared).
The trees are run alternately, file by file, each in a process of its own.
"""
import argparse
import collections
import json
import os

from common import ROOT, python_in, worktrees

FILE = os.path.join(ROOT, 'examples', 'euchre.pip')

# Run in each tree: counts the belief's own calls from outside, so that it
# runs unchanged on any commit with pipvm/game/belief/.
PROBE = r'''
import json, random, sys, time
from pipvm.play import loader
from pipvm.engine.vm import Image
from pipvm.game.belief import Belief
from pipvm.game.belief import worlds as W
from pipvm.game.game import Game
from pipvm.play.bots import POOL
path, players, decisions, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
image = Image(loader.load_program(path))
counts = {'replays': 0, 'survived': 0, 'mended': 0, 'all_died': 0, 'no_world': 0,
          'decisions': 0}
pending = set()          # the particles not yet played on at this decision
for name in ('restart', 'fresh_particle'):
    f = getattr(W.Belief, name)
    def counted(self, *a, _f=f, **k):
        counts['replays'] += 1
        return _f(self, *a, **k)
    setattr(W.Belief, name, counted)
check = W.Belief.check
def checked(self, p, end, *a, **k):
    out = check(self, p, end, *a, **k)
    if id(p) in pending:
        pending.discard(id(p))
        counts['survived'] += out == end + 1
    return out
W.Belief.check = checked
if hasattr(W.Belief, 'forward'):     # the mending of particles a card played face up killed
    mend = W.Belief.forward
    def mended(self, *a, **k):
        out = mend(self, *a, **k)
        counts['mended'] += out
        return out
    W.Belief.forward = mended
cpu = 0.0
while counts['decisions'] < decisions:
    seed += 1
    game = Game(image, seed=seed, players=players, names=['P%d' % i for i in range(players)],
                quiet=True)
    belief = Belief(0, POOL, random.Random(seed))
    while game.decision is not None and counts['decisions'] < decisions:
        d = game.decision
        if d.seat == 0 and len(d.options) > 1:
            before = counts['survived'] + counts['mended']
            pending.clear()
            if not belief.lost:
                pending.update(id(p) for p in belief.particles if p.obs is not None)
            t = time.process_time()
            out = belief.worlds(game, POOL)
            cpu += time.process_time() - t
            counts['decisions'] += 1
            counts['no_world'] += not out
            counts['all_died'] += counts['survived'] + counts['mended'] == before
        game.answer(game.rng.int(len(d.options)))
counts['ms'] = cpu * 1000
print(json.dumps(counts))
'''


def measure(tree, path, players, decisions, round):
    """The probe's counts in tree; each round its own games (seeds from
    1000 * round + 1)."""
    return json.loads(python_in(tree, '-c', PROBE, path, players, decisions, 1000 * round))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('revs', nargs='+', metavar='REV')
    ap.add_argument('--file', default=FILE, metavar='FILE.pip')
    ap.add_argument('--players', type=int, default=4)
    ap.add_argument('--decisions', type=int, default=40)
    ap.add_argument('--rounds', type=int, default=2)
    args = ap.parse_args()
    with worktrees([r for r in args.revs if r != '.']) as checked_out:
        checked_out = iter(checked_out)
        trees = [ROOT if r == '.' else next(checked_out) for r in args.revs]
        rows = {t: collections.Counter() for t in trees}
        for r in range(args.rounds):        # the trees in turn, the order alternating
            for t in trees if r % 2 == 0 else trees[::-1]:
                rows[t].update(measure(t, args.file, args.players, args.decisions, r))
        print('%s, seat 0 of %d, every seat at random, %d rounds of %d decisions with a '
              'choice (per decision)' % (os.path.basename(args.file), args.players,
                                         args.rounds, args.decisions))
        print('  %-12s %9s %9s %9s %9s %9s %9s' % ('rev', 'survived', 'mended', 'all lost',
                                                   'replays', 'no world', 'CPU ms'))
        for rev, t in zip(args.revs, trees):
            c = rows[t]
            n = c['decisions']
            print('  %-12s %9.1f %9.1f %6d/%-2d %9.1f %6d/%-2d %9.1f' % (
                rev, c['survived'] / n, c['mended'] / n, c['all_died'], n, c['replays'] / n,
                c['no_world'], n, c['ms'] / n))


if __name__ == '__main__':
    main()
