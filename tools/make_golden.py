#!/usr/bin/env python3
"""Write tests/data/run/NAME.out from the reference interpreter (../shared/oracle).

    tools/make_golden.py [NAME ...]

Each NAME.pip is run with PIP_SEED=1 on NAME.in (default: "2", "P1", "P2"),
stdout and stderr merged, then "[exit N]".  The tests run `pipvm run --seed 1`
the same way and compare byte for byte.  Not part of the test command: the
.out files are checked in.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = os.path.join(HERE, '..', 'tests', 'data', 'run')
ORACLE = os.path.expanduser('~/.cache/pip-oracle/bin/pip-native')
DEFAULT_INPUT = b'2\nP1\nP2\n'


def answers(folder, name):
    path = os.path.join(folder, name + '.in')
    return open(path, 'rb').read() if os.path.exists(path) else DEFAULT_INPUT


def main():
    names = sys.argv[1:] or sorted(f[:-4] for f in os.listdir(RUN) if f.endswith('.pip'))
    for name in names:
        p = subprocess.run([ORACLE, os.path.join(RUN, name + '.pip')], input=answers(RUN, name),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=dict(os.environ, PIP_SEED='1'), timeout=60)
        with open(os.path.join(RUN, name + '.out'), 'wb') as f:
            f.write(p.stdout + b'[exit %d]\n' % p.returncode)
        print(name, p.returncode)


if __name__ == '__main__':
    main()
