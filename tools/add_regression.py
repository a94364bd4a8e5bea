"""Keep a fuzz case as a regression test (tests/regressions/NAME.pip + .out).

    python tools/add_regression.py NAME 'WHAT IT GUARDS AGAINST' SEED 'ANSWERS' FILE.pip

SEED and ANSWERS are the Case's (as hypothesis printed them); FILE.pip holds
its source.  The .out file is what the reference interpreter shows.
"""
import ast
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests.fuzz import harness  # noqa: E402
from tests.test_regressions import FOLDER, shown  # noqa: E402


def main(name, why, seed, answers, path):
    with open(path, encoding='latin-1') as f:
        body = f.read()
    answers = ast.literal_eval(answers)
    source = '# %s\n# seed: %d\n# answers: %r\n%s' % (why, int(seed), list(answers), body)
    vm_run, ref_run = harness.both(source, int(seed), answers)
    with open(os.path.join(FOLDER, name + '.pip'), 'w', encoding='latin-1') as f:
        f.write(source)
    with open(os.path.join(FOLDER, name + '.out'), 'w', encoding='latin-1') as f:
        f.write(shown(ref_run))
    print('VM agrees' if shown(vm_run) == shown(ref_run) and vm_run.state == ref_run.state
          else 'VM DISAGREES: fix it, then the test passes')


if __name__ == '__main__':
    main(*sys.argv[1:])
