#!/usr/bin/env python3
"""A match between thinking bots, one game per line as it ends, and the
tally: how strong a cheaper bot is against the one it would replace.

    python benchmarks/bot_match.py GAME.pip KIND KIND [KIND ...] [--first 1] [--games 30]
                                   [--players N] [--out FILE.jsonl]
    python benchmarks/bot_match.py --tally FILE.jsonl [FILE.jsonl ...]

KIND is a seat's bot as `pipvm sim` takes it (`ismcts:200`, `ismcts:200:cut`, `ismcts:200:deep`),
with `+reuse` for one that keeps its tree between its decisions
(bots.ISMCTS's reuse); the remaining seats play at random.  Game of seed S
seats the kinds in the S-th of their orders round the table (every order
in turn, so each bot sits everywhere alike) and each bot's generator is
seeded from S and its seat.  A line: the seed, who sat where, the winner's
kind, and each kind's decisions and CPU seconds thinking
(time.process_time around its choose: the machine is shared).  The tally
gives each kind's wins with a 95% Wilson interval, and each pair's head to
head (of the games one of the two won).
"""
import argparse
import collections
import itertools
import json
import math
import os
import random
import sys
import time

from common import ROOT  # noqa: F401  (puts this tree first on sys.path)

from pipvm.engine import engines
from pipvm.engine.vm import Image
from pipvm.game.game import Game
from pipvm.play import bots, loader


def bot_of(kind, rng):
    name, *rest = kind.split('+')[0].split(':')
    n = next((int(x) for x in rest if x.isdigit()), None)
    bot = bots.make(name, n, rng, cut='deep' if 'deep' in rest else 'cut' in rest)
    bot.reuse = kind.endswith('+reuse')
    return bot


def play(image, kinds, players, seed):
    orders = list(itertools.permutations(range(players), len(kinds)))
    where = orders[seed % len(orders)]          # kind i sits at seat where[i]
    seated = {seat: i for i, seat in enumerate(where)}
    thinkers = {seat: bot_of(kinds[i], random.Random(seed * 100 + seat)) for seat, i in seated.items()}
    cpu = collections.Counter()
    game = Game(image, seed=seed, players=players, names=['P%d' % i for i in range(players)],
                quiet=True)
    other = random.Random(seed)
    while game.decision is not None:
        d = game.decision
        bot = thinkers.get(d.seat)
        if bot is None:
            game.answer(other.randrange(len(d.options)))
            continue
        t = time.process_time()
        game.answer(bot.choose(game, d))
        cpu[d.seat] += time.process_time() - t
    returns = game.returns() if game.ending is not None else [0] * players
    won = [kinds[seated[s]] if s in seated else 'random' for s in range(players) if returns[s] == 1.0]
    return {'seed': seed, 'seats': {kinds[i]: s + 1 for i, s in enumerate(where)},
            'won': won, 'ending': game.ending and game.ending.kind,
            'decisions': {kinds[i]: thinkers[s].stats.decisions for s, i in seated.items()},
            'cpu': {kinds[i]: round(cpu[s], 3) for s, i in seated.items()}}


def wilson(k, n, z=1.96):
    if n == 0:
        return 0.0, 1.0
    p = k / n
    mid = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def tally(paths):
    games = [json.loads(line) for p in paths for line in open(p) if line.strip()]
    kinds = list(games[0]['seats'])
    n = len(games)
    print('%d games' % n)
    for k in kinds:
        w = sum(k in g['won'] for g in games)
        dec = sum(g['decisions'][k] for g in games)
        cpu = sum(g['cpu'][k] for g in games)
        lo, hi = wilson(w, n)
        print('  %-22s won %3d (%.1f%%, %.1f%%-%.1f%%); %.3f CPU s a decision (%d)' % (
            k, w, 100 * w / n, 100 * lo, 100 * hi, cpu / max(dec, 1), dec))
    for a, b in itertools.combinations(kinds, 2):
        wa = sum(a in g['won'] and b not in g['won'] for g in games)
        wb = sum(b in g['won'] and a not in g['won'] for g in games)
        lo, hi = wilson(wa, wa + wb)
        print('  %s against %s: %d to %d, %.1f%% (%.1f%%-%.1f%%)' % (
            a, b, wa, wb, 100 * wa / max(wa + wb, 1), 100 * lo, 100 * hi))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('args', nargs='+')
    ap.add_argument('--first', type=int, default=1)
    ap.add_argument('--games', type=int, default=30)
    ap.add_argument('--players', type=int)
    ap.add_argument('--out')
    ap.add_argument('--tally', action='store_true')
    a = ap.parse_args()
    if a.tally:
        return tally(a.args)
    path, *kinds = a.args
    program = loader.load_program(path)
    image = Image(program, compiled=engines.compiled(engines.DEFAULT))   # as `pipvm sim` plays
    players = a.players or program.counts[0] * (program.team_size or 1)
    out = open(a.out, 'a') if a.out else sys.stdout
    for seed in range(a.first, a.first + a.games):
        print(json.dumps(play(image, kinds, players, seed)), file=out, flush=True)


if __name__ == '__main__':
    sys.exit(main())
