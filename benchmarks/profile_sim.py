#!/usr/bin/env python3
"""Where a `pipvm sim` game of full/crazy_eights spends its time.

    python benchmarks/profile_sim.py [--games 300] [--rounds 3] [--engine compiled]

Three views of the games that handwritten.py times (sim.play_one, seeds 1..N):

1. cProfile, its time grouped into the parts of the design: the rule run on
   each card (Machine.playable), the per-decision path outside the VM loop
   (game.py, table.py, sim.py, seats.py, Machine.answer/resume), messages
   (FORMAT and MESSAGE handlers), starting a game, and the rest (the
   actions' own code: on the compiled tier, with every seat a random bot,
   the actions as functions in play-out mode).  --engine: the default
   engine (compiled) or loop.  The profiler's per-call cost inflates
   the parts made of many small calls, so read shares, not times.
2. The instructions the VM runs per game, by code object (rule or action),
   counted on the loop (engine `loop`, one game at a time: the compiled
   tier's functions run no instruction list to count).
3. What-if runs, without the profiler (CPU time, medians, alternating): the
   same games with a part taken out, which bounds what making that part
   free could buy.  `no rule VM` evaluates the rule as a Python expression
   (what a perfect specialised path for rules would cost); `no messages`
   plays the program with its messages deleted (a silent simulation that
   never even builds them).  Both must give exactly the same games.
"""
import argparse
import collections
import cProfile
import os
import pstats
import re
import tempfile

import handwritten
from pipvm.engine import vm

DECISION_FILES = ('game.py', 'table.py', 'sim.py', 'playing.py', 'seats.py', 'rng.py')
MESSAGE_FUNCS = {'op_FORMAT', 'op_FORMAT_MESSAGE_ALL', 'op_MESSAGE', 'op_MESSAGE_ALL',
                 'joined', 'to_str', 'join', 'op_QUIET_MESSAGE', 'op_QUIET_FOR', 'op_QUIET_LOOP',
                 'quiet_rounds'}


def silent_source(path):
    """The program with every message statement deleted (and the loop that
    only shows the hand)."""
    with open(path) as f:
        text = f.read()
    text = re.sub(r'for c in p->hand \{ message "  \{c\}"\. \}', '', text)
    text = re.sub(r'^\s*message [^\n]*\.\n', '', text, flags=re.M)
    tmp = tempfile.NamedTemporaryFile('w', suffix='.pip', delete=False)
    tmp.write(text)
    tmp.close()
    return tmp.name


def python_rule(self, rule, p, dest):
    """Crazy Eights' rule `valid` as a Python comprehension, in place of
    Machine.playable: not general, only a bound on a rule fast path."""
    top = dest[0]
    return [c for c in p.hand if c.rank == top.rank or c.suit == top.suit or c.rank == 8]


def group(prof, total):
    """{part: seconds} from a cProfile run (see the module docstring)."""
    st = pstats.Stats(prof).stats
    parts = dict.fromkeys(['rules (playable)', 'decision path', 'messages', 'game start',
                           'actions'], 0.0)
    for (file, _, func), (_, _, tt, ct, callers) in st.items():
        base = os.path.basename(file)
        if func == 'playable':
            parts['rules (playable)'] += ct
        elif func == 'start' and base == 'terminal.py':
            parts['game start'] += ct
        elif func in MESSAGE_FUNCS and not any(c[2] in ('playable', '<listcomp>') for c in callers):
            parts['messages'] += tt
        elif base in DECISION_FILES or func in ('answer', 'resume', 'emit', '_answer_auto',
                                                'play_out', 'play_card'):
            parts['decision path'] += tt
    # game start's callees are counted in it (cumulative), not in the others
    start = parts['game start']
    parts['decision path'] = max(0.0, parts['decision path'] - _inner(st, 'terminal.py', 'start'))
    parts['actions'] = total - sum(parts.values())
    parts['game start'] = start
    return parts


def _inner(st, file, func):
    """The tottime of the game.py/table.py/... functions that func calls
    (at one level: enough for terminal.start, which only seats the game)."""
    out = 0.0
    for (f, _, name), (_, _, tt, _, callers) in st.items():
        if os.path.basename(f) in DECISION_FILES and any(
                os.path.basename(c[0]) == file and c[2] == func for c in callers):
            out += tt
    return out


def instructions(path, games):
    """{code object name: instructions run per game}, on the loop."""
    counts = collections.Counter()

    class Counting(list):
        def __getitem__(self, pc):
            counts[self.name] += 1
            return list.__getitem__(self, pc)

    plain = vm.Loaded.__init__

    def counting(self, code, *args, **kwargs):
        plain(self, code, *args, **kwargs)
        self.quiet = Counting(self.quiet)       # what a silent game runs (pipvm/engine/quiet.py)
        self.quiet.name = code.name
    vm.Loaded.__init__ = counting
    try:
        handwritten.vm_player(path, games, 'loop')()
    finally:
        vm.Loaded.__init__ = plain
    return {k: n / games for k, n in counts.most_common()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--games', type=int, default=300)
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--engine', default=None, help='compiled (the default) or loop')
    a = ap.parse_args()
    base = handwritten.vm_player(handwritten.GAME, a.games, a.engine)

    with tempfile.NamedTemporaryFile(suffix='.prof') as f:
        profile = cProfile.Profile()
        profile.runcall(base)
        profile.dump_stats(f.name)
        total = pstats.Stats(f.name).total_tt
        print('cProfile, %d games: %.2f s (%d decisions)' % (
            a.games, total, sum(d for _, d, _ in base())))
        for part, seconds in group(f.name, total).items():
            print('  %-20s %6.2f s %5.1f%%' % (part, seconds, 100 * seconds / total))

    silent = silent_source(handwritten.GAME)
    for title, path in (('as is', handwritten.GAME), ('without messages', silent)):
        counts = instructions(path, a.games)
        print('\ninstructions per game, %s: %.0f (%s)' % (title, sum(counts.values()), ', '.join(
            '%s %.0f' % kv for kv in counts.items())))
    plain_playable = vm.Machine.playable

    def with_python_rule(play):
        def run():
            vm.Machine.playable = python_rule
            try:
                return play()
            finally:
                vm.Machine.playable = plain_playable
        return run

    quiet = handwritten.vm_player(silent, a.games, a.engine)
    variants = {'as is': base, 'no rule VM': with_python_rule(base),
                'no messages': quiet, 'neither': with_python_rule(quiet),
                'hand-written': lambda: handwritten.handwritten.simulate(a.games)}
    try:
        results, seconds = handwritten.side_by_side(variants, a.rounds)
    finally:
        os.unlink(silent)
    for k in ('no rule VM', 'no messages', 'neither'):
        if results[k] != results['as is']:
            raise SystemExit('%s: the games differ from the program as is' % k)
    rate = {k: a.games / t for k, t in seconds.items()}
    print('\nwhat-if, %d games, %d rounds, CPU time, medians' % (a.games, a.rounds))
    print('  %-14s %9s %9s %14s' % ('variant', 'games/s', 'speed-up', 'time removed'))
    for k in variants:
        print('  %-14s %9.1f %8.2fx %13.1f%%' % (
            k, rate[k], rate[k] / rate['as is'], 100 * (1 - rate['as is'] / rate[k])))


if __name__ == '__main__':
    main()
