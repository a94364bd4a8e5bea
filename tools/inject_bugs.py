"""Show that the fuzzer has teeth: inject plausible VM bugs one at a time and
count how many examples `test_vm_matches_reference` needs to catch each.

    python tools/inject_bugs.py [--seeds 1 2 3] [--examples 200] [BUG ...]
    python tools/inject_bugs.py --slips [--seeds 1 2 3] [SLIP ...]

--slips runs issue 23's slips instead (one each in the closures, the quiet
code, the superinstructions, the views and determinization), against every
fuzz property of tests/fuzz (`pytest -x`, no shrinking), and names the
property that failed first ("-" if all passed).

For each bug the project is copied to a temporary directory, one edit is
made to its VM or code generator, and the fuzz property runs there (CI's
budget, the given seeds, no example database).  Prints a Markdown table:
the examples drawn until the first failure for each seed ("-" if the bug
survived the whole budget) and the program hypothesis shrank it to.
docs/fuzzing.md keeps the table of the last run.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name -> (file, text to replace, replacement, what the bug is)
BUGS = {
    'rotate_backwards': (
        'pipvm/isa/instructions.py', 'lst.append(lst.pop(0))', 'lst.insert(0, lst.pop())',
        '`rotate` moves the last element to the front'),
    'deal_first_to_first': (
        'pipvm/engine/bodies.py', 'first = (j - 1) % k', 'first = j',
        'a deal to players gives the first card to the first player'),
    'skip_keeps_loop_state': (
        'compiler/codegen/generator.py', "        if leave:\n            self.emit('DROP', leave)\n", '',
        '`skip` out of a `for` leaves its iteration state on the stack'),
    'starting_at_off_by_one': (
        'pipvm/isa/instructions.py', 'it = iter(lst[i:] + lst[:i])',
        'it = iter(lst[i + 1:] + lst[:i + 1])',
        '`starting at v` starts just after v'),
    'eager_and': (
        'compiler/codegen/generator.py',
        "        if e.op in ('and', 'or'):",
        "        if e.op == 'and':             # injected: both sides always evaluated\n"
        "            self.expr(e.right)\n"
        "            self.emit('SWAP')\n"
        "            false = self.emit('JUMP_IF_FALSE_OR_POP', 0)\n"
        "            end = self.emit('JUMP', 0)\n"
        "            self.asm.patch(false)\n"
        "            self.emit('SWAP')\n"
        "            self.emit('POP')\n"
        "            self.asm.patch(end)\n"
        "        elif e.op == 'or':",
        '`and` evaluates its right side even when the left is false'),
    'order_unstable': (
        'pipvm/engine/vm.py', 'return sorted(cards, key=', 'return sorted(reversed(cards), key=',
        '`order` reverses cards the ordering ranks equal'),
    'deal_count_not_per_player': (
        'pipvm/engine/bodies.py', 'n = len(source) if count is None else count * k',
        'n = len(source) if count is None else count',
        '`deal N` to players deals N cards in all, not N each'),
    'for_without_snapshot': (
        'pipvm/isa/instructions.py', 'it = iter(list(lst))', 'it = iter(lst)',
        '`for` iterates the live list, not a snapshot'),
    'standard_is_shared': (
        'pipvm/isa/instructions.py', 'value = list(machine.deck)', 'value = machine.deck',
        '`standard` is one shared list instead of a new one each time'),
    'cards_suit_by_suit': (
        'pipvm/engine/bodies.py', 'for r in items(ranks) for s in suits]',
        'for s in suits for r in items(ranks)]',
        'a card sequence built at run time lists suit by suit, not rank by rank'),
    'division_floors': (
        'pipvm/core/runtime.py', 'q = abs(a) // abs(b)\n    return q if (a < 0) == (b < 0) else -q',
        'return a // b', 'Number division rounds toward minus infinity, not toward zero'),
    'top_is_last': (
        'pipvm/core/runtime.py', 'return lst[0] if k == 1 else lst[-1]', 'return lst[-1] if k == 1 else lst[0]',
        '`top`/`first` read the last element (as the manual wrongly says)'),
}

# Issue 23's slips: one for each situation the generator used to miss.
SLIPS = {
    'canplay_value_needs_two': (
        'pipvm/engine/generated_cases.py', '    stack[-1] = bool(found)\n',
        '    stack[-1] = len(found) > 1\n',
        '`canplay` as a value is false with exactly one playable card'),
    'starting_at_wrap_short': (
        'pipvm/isa/instructions.py', 'it = iter(lst[i:] + lst[:i])',
        'it = iter(lst[i:] + lst[:i][:-1])',
        'a `starting at` loop loses the item before its start, after the wrap-around'),
    'ordering_last_match_wins': (
        'pipvm/engine/vm.py', '_Places(zip(reversed(result), range(len(result) - 1, -1, -1)))',
        '_Places(zip(result, range(len(result))))',
        'a card an ordering lists twice ranks by its last place, not its first'),
    'closure_top_is_last': (
        'pipvm/engine/pure.py', 'return Path(of.operand.arg, _ITEMS[of.arg], prop, of.arg)',
        'return Path(of.operand.arg, -1, prop, of.arg)',
        "a rule's closure reads `pile->top->P` from the pile's last card"),
    'closure_card_matches_twice': (
        'pipvm/engine/pure.py', '                out.append(card)\n                break\n',
        '                out.append(card)\n',
        "the one-closure rule path offers a card once for each term of the `or` it matches"),
    'quiet_global_cannot_fail': (
        'pipvm/engine/checks.py', "| {'card_const', 'list'})", "| {'card_const', 'list', 'load_global'})",
        "a quiet message does not check that a global it shows is defined"),
    'quiet_loop_hands_back_exhausted': (
        'pipvm/isa/instructions.py', 'stack[-1] = iter(rest)          # as it was: the loop goes on as ordinary code\n',
        '', 'a message-only loop hands back to the loud code with its items used up'),
    'play_again_any_rule': (
        'pipvm/engine/fusion.py', " or runs[c][1][0].args[0] != parts[0].args[0]):", "):",
        '`play` right after `canplay` with another rule takes the cards canplay found'),
    'determinize_cache_by_seat': (
        'pipvm/game/determinize.py', 'key = (seat, len(game.history))', 'key = seat',
        "a seat's observations are cached once per game, not per decision"),
    'view_squaredup_bottom': (
        'pipvm/game/view.py', 'return area.cards[:1]', 'return area.cards[-1:]',
        'a squared-up faceup area shows its bottom card instead of its top'),
    'played_facedown_to_all': (
        'pipvm/core/dialogue.py', '    if area is not None and not area.is_facedown:\n',
        '    if area is not None:\n',
        "a card played to a face-down area is named to every seat (issue 58's view oracle)"),
    'strict_accepts_for_each': (
        'compiler/pip/extensions.py', '    ast.OwnDecl: lambda node: "\'for each %s\'" % node.owner,\n', '',
        "`--strict` accepts a value `for each player` (issue 58)"),
    'recycle_game_iloc_shown': (
        'compiler/recycle/places.py', "var = self.area(label, label, vis != 'vloc', pos)",
        "var = self.area(label, label, vis == 'hloc', pos)",
        "RECYCLE's `(game iloc X)` lowered to a face-up area, its cards shown to all (issue 58)"),
}

PROFILE = ('\nfrom hypothesis import Phase\n'
           "settings.register_profile('noshrink', deadline=None, phases=[Phase.generate])\n"
           "settings.load_profile('noshrink')\n")

DRIVER = textwrap.dedent('''
    import sys
    from hypothesis import HealthCheck, given, seed, settings
    from tests.fuzz import harness
    from tests.fuzz.programs import cases

    calls, first, last = [0], [None], [None]

    @settings(max_examples=%(examples)d, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @seed(%(seed)d)
    @given(cases())
    def prop(case):
        calls[0] += 1
        try:
            a, b = harness.both(case.source, case.seed, case.answers)
            assert (a.transcript, a.ending, a.state) == (b.transcript, b.ending, b.state)
        except BaseException:
            if first[0] is None:
                first[0] = calls[0]
            last[0] = case
            raise

    try:
        prop()
    except BaseException:
        pass
    print(first[0] or '-')
    if last[0] is not None:
        print(repr(last[0]))
''')


def copy_project(dest):
    # (examples/ and tests/data too: properties 13 and 15 read them, and a
    # property that fails for want of its files would count as a catch)
    for name in ('pipvm', 'compiler', 'disasm', 'tests', 'examples'):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(dest, name),
                        ignore=shutil.ignore_patterns('__pycache__'))


def inject(dest, bug):
    path, old, new, _ = {**BUGS, **SLIPS}[bug]
    full = os.path.join(dest, path)
    with open(full) as f:
        text = f.read()
    if text.count(old) != 1:
        sys.exit('%s: the text to replace is not in %s exactly once; update BUGS' % (bug, path))
    with open(full, 'w') as f:
        f.write(text.replace(old, new))
    if path == 'pipvm/isa/instructions.py':
        # a body reaches the VM through the code written from it
        subprocess.run([sys.executable, '-m', 'pipvm.engine.cases'], cwd=dest, check=True,
                       env=dict(os.environ, PYTHONPATH=dest), capture_output=True, timeout=120)


def hunt(bug, seed, examples):
    """(examples until the first failure or None, the shrunk case's repr)."""
    with tempfile.TemporaryDirectory() as dest:
        copy_project(dest)
        inject(dest, bug)
        env = dict(os.environ, PYTHONPATH=dest)
        out = subprocess.run([sys.executable, '-c', DRIVER % {'seed': seed, 'examples': examples}],
                             cwd=dest, env=env, capture_output=True, text=True, check=True).stdout
    first, _, case = out.partition('\n')
    return (None if first == '-' else int(first)), case.strip()


def hunt_all(slip, seed, examples, timeout=1200):
    """The first fuzz property of tests/fuzz to fail with the slip in, or None."""
    with tempfile.TemporaryDirectory() as dest:
        copy_project(dest)
        inject(dest, slip)
        with open(os.path.join(dest, 'tests', 'conftest.py'), 'a') as f:
            f.write(PROFILE)
        env = dict(os.environ, PYTHONPATH=dest, PIPVM_FUZZ_SEED=str(seed),
                   PIPVM_FUZZ_EXAMPLES=str(examples), PYTHONDONTWRITEBYTECODE='1')
        out = subprocess.run([sys.executable, '-m', 'pytest', '-x', '-q', '-n', '0', '-p', 'no:cacheprovider',
                              '-rf', 'tests/fuzz'], cwd=dest, env=env, capture_output=True,
                             text=True, timeout=timeout).stdout
    for line in out.splitlines():
        if line.startswith('FAILED '):
            return line.split('::')[1].split()[0]
    return None


def slips(seeds, examples, names):
    rows, missed = [], 0
    for slip in names:
        found = []
        for seed in seeds:
            print('%s, seed %d ...' % (slip, seed), file=sys.stderr, flush=True)
            found.append(hunt_all(slip, seed, examples))
        missed += found.count(None)
        rows.append('| `%s` | %s | %s |' % (slip, SLIPS[slip][3], ' | '.join(
            '-' if f is None else '`%s`' % f for f in found)))
    print('| slip | what it does | %s |' % ' | '.join('seed %d' % s for s in seeds))
    print('| --- | --- | %s |' % ' | '.join('---' for _ in seeds))
    print('\n'.join(rows))
    return 1 if missed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--seeds', type=int, nargs='+', default=[1, 2, 3])
    ap.add_argument('--examples', type=int, default=200, help='the budget (CI: 100; docs/fuzzing.md: 200)')
    ap.add_argument('--slips', action='store_true',
                    help="issue 23's slips, against every fuzz property")
    ap.add_argument('bugs', nargs='*')
    args = ap.parse_args()
    if args.slips:
        return slips(args.seeds, args.examples, args.bugs or list(SLIPS))
    args.bugs = args.bugs or list(BUGS)
    rows, shrunk, missed = [], [], 0
    for bug in args.bugs:
        found = []
        for seed in args.seeds:
            print('%s, seed %d ...' % (bug, seed), file=sys.stderr, flush=True)
            n, case = hunt(bug, seed, args.examples)
            found.append(n)
            if case and not any(b == bug for b, _ in shrunk):
                shrunk.append((bug, case))
        missed += found.count(None)
        cells = ' | '.join('-' if n is None else str(n) for n in found)
        rows.append('| `%s` | %s | %s |' % (bug, BUGS[bug][3], cells))
    print('| bug | what it does | %s |' % ' | '.join('seed %d' % s for s in args.seeds))
    print('| --- | --- | %s |' % ' | '.join('---' for _ in args.seeds))
    print('\n'.join(rows))
    for bug, case in shrunk:
        print('\n#### `%s`, shrunk\n\n```\n%s\n```' % (bug, case))
    return 1 if missed else 0


if __name__ == '__main__':
    sys.exit(main())
