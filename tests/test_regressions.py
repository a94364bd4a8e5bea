"""Regressions: small programs the fuzzer once found the VM and the reference
disagreeing on, or that catch an injected VM bug (tools/inject_bugs.py).

Each tests/regressions/NAME.pip starts with comment lines giving what it
guards against and its case: `# seed: N` and `# answers: [...]` (ints choose
an option by index, strings are typed as they are).  NAME.out holds what the
game shows and how it ends; every engine (the compiled tier, the loop, the
reference: harness.both) must give exactly that.
"""
import ast
import os

import pytest

from .fuzz import harness

FOLDER = os.path.join(os.path.dirname(__file__), 'regressions')


def cases():
    return sorted(f[:-4] for f in os.listdir(FOLDER) if f.endswith('.pip'))


def read_case(name):
    with open(os.path.join(FOLDER, name + '.pip'), encoding='latin-1') as f:
        source = f.read()
    header = dict(line[2:].split(': ', 1) for line in source.splitlines()
                  if line.startswith('# ') and ': ' in line)
    return source, int(header['seed']), ast.literal_eval(header['answers'])


def shown(outcome):
    return outcome.transcript + '== ' + outcome.ending + '\n'


@pytest.mark.parametrize('name', cases())
def test_regression(name):
    source, seed, answers = read_case(name)
    vm_run, ref_run = harness.both(source, seed, answers)
    with open(os.path.join(FOLDER, name + '.out'), encoding='latin-1') as f:
        expected = f.read()
    assert shown(ref_run) == expected
    assert shown(vm_run) == expected
    assert vm_run.state == ref_run.state
