#!/usr/bin/env python3
"""Which mutants of one file's lines a few chosen tests kill: each mutant
(tools/mutation.py's own list and edit) applied in turn to a copy of the
tree, and the tests run on it with pytest.  For checking that direct tests
of a module's helpers kill what they should, in minutes rather than the
full suite's hours.

    python tools/mutants_by_tests.py FILE FIRST LAST TEST_ID [TEST_ID ...] [--results DIR]

Prints `killed ID`, `ALIVE ID` or `same ID` (the edit changes nothing) for
each mutant in lines FIRST..LAST, and the count alive.  The tests must pass
on the unmutated copy first.  --results DIR (the tree's:
tools/mutation-results) records each kill in DIR/MODULE.tsv as `killed by
suite`, by these tests; a mutant they leave alive keeps its row."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import mutation  # noqa: E402


def main():
    argv, results = sys.argv[1:], None
    if '--results' in argv:                 # the rest go to pytest as they are
        at = argv.index('--results')
        results, argv = argv[at + 1], argv[:at] + argv[at + 2:]
    path, first, last, tests = argv[0], int(argv[1]), int(argv[2]), argv[3:]
    keep = mutation.Keep(directory=results)
    with open(os.path.join(ROOT, path), encoding='utf-8') as f:
        source = f.read()
    with tempfile.TemporaryDirectory() as tmp:
        mutation.copy_project(tmp)

        def passes():
            return subprocess.run(
                [sys.executable, '-m', 'pytest', '-q', '-x', '-p', 'no:cacheprovider', '-n', '0']
                + tests, cwd=tmp, capture_output=True, timeout=600,
                env=dict(os.environ, PYTHONPATH=tmp)).returncode == 0
        if not passes():
            sys.exit('the tests fail on the unmutated tree')
        alive = 0
        for m in mutation.mutants_of(path):
            if not first <= m['line'] <= last:
                continue
            text = mutation.apply(m, source)
            if text is None:
                print('same', m['id'], flush=True)
                continue
            with open(os.path.join(tmp, path), 'w', encoding='utf-8') as f:
                f.write(text)
            ok = passes()
            alive += ok
            print('ALIVE' if ok else 'killed', m['id'], flush=True)
            if not ok:
                keep(dict(m, result='killed by suite', by=' '.join(tests)))
        print('alive:', alive)


if __name__ == '__main__':
    main()
