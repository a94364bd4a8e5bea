#!/usr/bin/env python3
"""Differential check of the reference interpreter against the original.

Plays fuzz-generated programs (tests/fuzz/programs.py) on
compiler/reference/pip.py and on the rebuilt original (../shared/oracle), with
the same seed (PIP_SEED) and the same typed answers, and compares the whole
terminal output.  This is what makes the reference interpreter, and through
the fuzz property the VM, answer to the original on thousands of programs
rather than on the golden tests alone.  Needs the oracle built; not part of
the test suite (CI has no oracle).

    python tools/oracle_run_diff.py [--n 500] [--seed 1] [--show 3]

Cases where we differ on purpose (the original crashes: internal errors,
End_of_file, `hd`, division by zero dealing to nobody; or it duplicates a
card dealt from a list that doesn't hold it) or the original never ends
(the reference hit its step limit) are counted, not compared.
"""
import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402

from compiler.pip import frontend  # noqa: E402
from tests.fuzz import harness  # noqa: E402
from tests.fuzz.programs import cases  # noqa: E402

ORACLE = os.path.expanduser('~/.cache/pip-oracle/bin/pip-native')
CRASHES = ('Internal Error', 'Fatal error', 'Division_by_zero')


def reference_output(case):
    """(what the original should print, the lines typed) or None at the step limit."""
    console = harness.ScriptConsole(case.answers, echo=False)
    checked = frontend.check_text(case.source)
    outcome = harness.run(harness.reference_engine(checked), case.seed, case.answers, console)
    if outcome.ending == 'step limit':
        return None
    end = outcome.ending
    if end.startswith('winner '):
        end = 'The game was won by ' + end[len('winner '):]
    elif end == 'no winner':
        end = 'No winner has been declared.'
    return outcome.transcript + end + '\n', console.typed


def deliberate(want, got):
    """Is this one of the differences README lists (the original crashes, or
    duplicates a card dealt from where it isn't)?"""
    return (any(c in got for c in CRASHES) or got.endswith((': hd\n', '\nhd\n'))
            or (want.startswith(got) and 'input ended' in want)
            or want.endswith('Card is not in the source\n'))


def oracle_output(case, typed):
    with tempfile.NamedTemporaryFile('w', suffix='.pip', encoding='latin-1', delete=False) as f:
        f.write(case.source)
    try:
        p = subprocess.run([ORACLE, f.name], input=''.join(t + '\n' for t in typed).encode('latin-1'),
                           capture_output=True, timeout=20, env=dict(os.environ, PIP_SEED=str(case.seed)))
        return (p.stdout + p.stderr).decode('latin-1')
    except subprocess.TimeoutExpired:
        return None
    finally:
        os.unlink(f.name)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--n', type=int, default=500)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--show', type=int, default=3, help='differences to print in full')
    args = ap.parse_args()
    counts = {'same': 0, 'different': 0, 'deliberate difference': 0, 'step limit': 0,
              'timeout': 0}
    shown = []

    @settings(max_examples=args.n, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @seed(args.seed)
    @given(cases())
    def compare(case):
        ours = reference_output(case)
        if ours is None:
            counts['step limit'] += 1
            return
        want, typed = ours
        got = oracle_output(case, typed)
        if got is None:
            counts['timeout'] += 1
        elif got == want:
            counts['same'] += 1
        elif deliberate(want, got):
            counts['deliberate difference'] += 1
        else:
            counts['different'] += 1
            if len(shown) < args.show:
                shown.append((case, want, got))

    compare()
    for case, want, got in shown:
        print('=' * 70, '\n%r\n--- reference\n%s--- original\n%s' % (case, want, got))
    print(', '.join('%s %d' % kv for kv in counts.items()))
    return 1 if counts['different'] else 0


if __name__ == '__main__':
    sys.exit(main())
