"""How many of property 1c's generated programs run each kind of closure
(pipvm/engine/generated_cases.py's CLOSURES: what a rule or ordering is
made of when pure.py translates it), in their games or in their probe rules.

    python tools/closure_reach.py [--seed 1] [--examples 200]

Runs tests/fuzz/test_pure.py under pytest (one process) with every closure
maker wrapped: a closure counts once for each program (each vm.Image, the
hand-made rewrite included) in which one of its kind runs.  A kind that no
program runs is a row of zeros: its mutants survive the fuzz properties.
docs/fuzzing.md keeps the last figures.
"""
import argparse
import collections
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Counting:
    """The pytest plugin: wraps the closure makers and counts (pytest -p)."""

    def __init__(self):
        from pipvm.engine import generated_cases, vm
        self.images = 0
        self.made, self.ran, self.seen = collections.Counter(), collections.Counter(), set()
        for name, maker in list(generated_cases.CLOSURES.items()):
            generated_cases.CLOSURES[name] = self.wrap(name, maker)
        init = vm.Image.__init__

        def counted_init(image, *args, **kwargs):
            self.images += 1
            return init(image, *args, **kwargs)
        vm.Image.__init__ = counted_init

    def wrap(self, name, maker):
        def make(*args):
            closure = maker(*args)
            self.made[name] += 1

            def run(env):
                key = (self.images, name)
                if key not in self.seen:
                    self.seen.add(key)
                    self.ran[name] += 1
                return closure(env)
            return run
        return make

    def pytest_unconfigure(self, config):
        with open(os.environ['CLOSURE_REACH_OUT'], 'w') as f:
            f.write('%d\n' % self.images)
            for name in sorted(self.made):
                f.write('%s %d %d\n' % (name, self.made[name], self.ran[name]))


def pytest_configure(config):
    config.pluginmanager.register(Counting(), 'closure-counting')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--examples', type=int, default=200)
    args = ap.parse_args()
    with tempfile.NamedTemporaryFile('r', suffix='.txt') as out:
        env = dict(os.environ, PIPVM_FUZZ_SEED=str(args.seed), PIPVM_FUZZ_EXAMPLES=str(args.examples),
                   CLOSURE_REACH_OUT=out.name,
                   PYTHONPATH=os.pathsep.join([ROOT, os.path.join(ROOT, 'tools')]))
        subprocess.run([sys.executable, '-m', 'pytest', 'tests/fuzz/test_pure.py', '-q', '-n', '0',
                        '-p', 'no:cacheprovider', '-p', 'closure_reach'], cwd=ROOT, env=env, check=True)
        lines = out.read().split('\n')
    images = int(lines[0])
    rows = sorted((line.split() for line in lines[1:] if line), key=lambda r: int(r[2]))
    print('%d programs loaded (seed %d, %d examples)\n' % (images, args.seed, args.examples))
    print('| closure | made | programs that run it |')
    print('| --- | ---: | ---: |')
    for name, made, ran in rows:
        print('| %s | %s | %s |' % (name, made, ran))


if __name__ == '__main__':
    main()
