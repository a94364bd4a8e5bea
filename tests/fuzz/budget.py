"""How much fuzzing a run does, and with which seed.

PIPVM_FUZZ_EXAMPLES  examples per property (default 100: CI's budget, about a
                     minute of CPU for all of tests/fuzz; the mutation scores
                     of docs/fuzzing.md are measured at 200, tools/mutation.py's
                     default)
PIPVM_FUZZ_SEED      the seed; by default a fresh one each run, printed in
                     pytest's header so a failure can be replayed
"""
import os
import random

from hypothesis import HealthCheck, seed, settings

EXAMPLES = int(os.environ.get('PIPVM_FUZZ_EXAMPLES') or 100)
SEED = int(os.environ.get('PIPVM_FUZZ_SEED') or random.SystemRandom().randrange(2 ** 32))


def fuzz(test):
    """The settings of every fuzz property."""
    test = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])(test)
    return seed(SEED)(test)
