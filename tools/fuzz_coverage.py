"""What the fuzz properties alone reach of the engine and the game API: line
and branch coverage.

    python tools/fuzz_coverage.py [--seed 1] [--examples 200] [--json OUT]

Runs tests/fuzz (and nothing else: no golden or unit tests) under
coverage.py with branch coverage, at a fixed seed and budget (200
examples per property by default; CI runs 50), then lists, for each file of TARGETS (the engine,
the VM-only functions of pipvm/core/runtime.py, compiler/codegen/generator.py and the
game API), every line and branch no generated program reached, by function.  Needs the `dev` extra (coverage).
docs/fuzzing.md keeps the figures of the last run.
"""
import argparse
import ast
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

# the belief's parts (pipvm/game/belief/)
BELIEF = ['pipvm/game/belief/%s.py' % part for part in (
    'budgets', 'sight', 'particles', 'clues', 'trades', 'walk', 'replay', 'repairs', 'worlds')]

# file -> the functions measured (None: all of it).  runtime.py's other
# definitions are shared with the reference interpreter, so a fault there
# shows on both engines alike: the differential fuzzer is not their test.
TARGETS = {
    'pipvm/engine/vm.py': None,
    'pipvm/engine/copier.py': None,        # a fork's copies of a game's values
    # the handlers, tick and the closure factories, written from the bodies:
    # all of it runs, and a slip here is the same as one in a body's text
    'pipvm/engine/generated_cases.py': None,
    # the functions the bodies call (the BODIES texts reach the VM only
    # through generation, which tests/test_cases.py guards)
    'pipvm/engine/bodies.py': ('fault', 'contains', 'build_list', 'make_cards', 'wild_rank',
                               'wild_suit'),
    'pipvm/engine/fusion.py': None,        # superinstructions, fused by the VM's loader
    'pipvm/engine/pure.py': None,          # rules and orderings as closures
    'pipvm/engine/quiet.py': None,         # the code run when nobody reads the output
    'pipvm/engine/compiled.py': None,      # the compiled tier's blocks
    'pipvm/engine/actions.py': None,       # the compiled tier's actions in play-out mode
    'pipvm/engine/fors.py': None,          # their loops over lists as Python fors
    'pipvm/engine/answers.py': None,       # their decisions answered where they stand
    'pipvm/engine/rules.py': None,         # the compiled tier's rules and orderings
    'pipvm/engine/regions.py': None,       # the compiled tier's hot loops, one function each
    'pipvm/engine/local_names.py': None,   # a region's constants and slots as locals
    'pipvm/engine/inline.py': None,        # small callees written into their callers
    'pipvm/engine/steps.py': None,         # a whole action's steps counted in a local
    'pipvm/engine/rewrites.py': None,      # the passes over a function's composed lines
    'pipvm/engine/reach.py': None,         # where control enters a function
    'pipvm/engine/reads.py': None,         # their checked reads made copies (and a region's)
    'pipvm/engine/joins.py': None,         # their value-making and/or's jumps as if/else
    'pipvm/engine/quiet_written.py': None,  # their quiet instructions written out
    'pipvm/engine/lines.py': None,         # helpers over their lines
    'pipvm/engine/sizes.py': None,         # their lists' sizes' division written out
    'pipvm/engine/kinds.py': None,         # whether their quiet loops test items for None
    'pipvm/engine/steady.py': None,        # the globals and properties they read untested
    'pipvm/engine/sums.py': None,          # their and a region's sums and products written out
    # what the compiled tier composes its functions with at run time (the
    # rest of cases.py writes the checked-in code: tests/test_cases.py)
    'pipvm/engine/cases.py': ('substitute', '_name_tokens', '_words', 'expand',
                              'compose', 'forward', '_line_names', '_count',
                              '_side_effects', '_atom', '_bare', '_keeps', 'operand_exprs',
                              '_indent'),
    # the one table: the compiled tier composes its bodies at run time
    'pipvm/isa/instructions.py': None,
    'pipvm/core/runtime.py': ('as_rank', 'card_index', 'to_str', 'cards_of', 'items', 'multiply', 'divide',
                         'rank_range'),
    'compiler/codegen/generator.py': None,
    'pipvm/game/game.py': None,            # the game object: decisions, forks
    'pipvm/game/view.py': None,            # what a seat may see
    'pipvm/game/determinize.py': None,     # worlds a seat cannot tell from the real one
    **{part: None for part in BELIEF},     # the beliefs determinize draws worlds from
    'pipvm/game/relabel.py': None,         # which card each unseen play was (beliefs' last repair)
}


def functions(path):
    """[(first line, last line, qualified name)] of the functions in a file, innermost last."""
    with open(os.path.join(ROOT, path), encoding='utf-8') as f:
        tree = ast.parse(f.read())
    out = []

    def visit(node, prefix):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if isinstance(child, ast.FunctionDef):
                    out.append((child.lineno, child.end_lineno, name))
                visit(child, name + '.')
    visit(tree, '')
    return out


def owner(spans, line):
    """The innermost function holding a line ('<module>' if none)."""
    best = '<module>'
    for first, last, name in spans:
        if first <= line <= last:
            best = name
    return best


def in_scope(path, name):
    wanted = TARGETS[path]
    return wanted is None or name.split('.')[0] in wanted


def measure(seed, examples, pytest_args):
    import coverage
    os.environ['PIPVM_FUZZ_SEED'] = str(seed)
    os.environ['PIPVM_FUZZ_EXAMPLES'] = str(examples)
    cov = coverage.Coverage(branch=True, data_file=None,
                            include=[os.path.join(ROOT, p) for p in TARGETS])
    cov.start()                 # before pipvm is imported, so its module lines count
    import pytest
    status = pytest.main(['-q', '-n', '0', '-p', 'no:cacheprovider', '-x', os.path.join(ROOT, 'tests', 'fuzz')]
                         + pytest_args)
    cov.stop()
    if status != 0:
        sys.exit('the fuzz properties failed (status %d): fix that first' % status)
    return cov


def gaps(cov):
    """{file: lines, branches and what was missed of them} for the scope."""
    report = {}
    for path in TARGETS:
        analysis = cov._analyze(os.path.join(ROOT, path))     # the public API has no arcs
        spans = functions(path)

        def mine(n):
            return in_scope(path, owner(spans, n))
        stats = {n: v for n, v in analysis.branch_stats().items() if mine(n)}
        report[path] = {
            'lines': sum(map(mine, analysis.statements)),
            'branches': sum(total for total, _ in stats.values()),
            'missed lines': [(n, owner(spans, n)) for n in sorted(analysis.missing) if mine(n)],
            'missed branches': [(n, to, owner(spans, n))
                                for n, exits in sorted(analysis.missing_branch_arcs().items())
                                if mine(n) for to in exits],
        }
    return report


def source_line(path, n):
    with open(os.path.join(ROOT, path), encoding='utf-8') as f:
        return f.read().splitlines()[n - 1].strip()


def show(report):
    for path, r in report.items():
        ml, mb = r['missed lines'], r['missed branches']
        print('%s: %d/%d lines, %d/%d branches reached' % (
            path, r['lines'] - len(ml), r['lines'], r['branches'] - len(mb), r['branches']))
        for n, fn in ml:
            print('  line %d (%s): %s' % (n, fn, source_line(path, n)))
        for line, to, fn in mb:
            where = 'exit' if to < 0 else 'line %d' % to
            print('  branch %d->%s (%s): %s' % (line, where, fn, source_line(path, line)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--examples', type=int, default=200, help='per property (CI: 100; the scores and reach in docs/fuzzing.md: 200)')
    ap.add_argument('--json', help='also write the report here')
    ap.add_argument('pytest_args', nargs='*', help='passed on to pytest (e.g. -k vm_matches)')
    args = ap.parse_args()
    report = gaps(measure(args.seed, args.examples, args.pytest_args))
    print()
    show(report)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump(report, f, indent=1)


if __name__ == '__main__':
    main()
