"""How much fuzzing a run does, and with which seed.

PIPVM_FUZZ_EXAMPLES  examples per property (default 50: CI's budget, about a
                     minute of CPU for all of tests/fuzz, 2026-11-28; the
                     mutation scores of docs/fuzzing.md are measured at 200,
                     tools/mutation.py's default)
PIPVM_FUZZ_SEED      the seed; by default a fresh one each run, printed in
                     pytest's header so a failure can be replayed

The seed alone decides what is drawn (seed_alone below).
"""
import os
import random

from hypothesis import HealthCheck, seed, settings

EXAMPLES = int(os.environ.get('PIPVM_FUZZ_EXAMPLES') or 50)
SEED = int(os.environ.get('PIPVM_FUZZ_SEED') or random.SystemRandom().randrange(2 ** 32))


def seed_alone():
    """Hypothesis (6.170 here) also draws, now and then, literals it reads from
    the source of every project module loaded at the time of a draw
    (hypothesis.internal.constants_ast).  The same seed then drew other
    programs when other modules were loaded: `pytest tests/` (CI) against the
    replay command's `pytest tests/fuzz`, an xdist worker that had run other
    tests first, tools/mutation.py's server against a fresh pytest; and after
    any edit of any source file.  Without those literals a draw depends on
    the seed and the strategies alone (tests/fuzz/test_budget.py).  A
    Hypothesis without the feature has nothing to turn off."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:
        return
    if hasattr(providers, '_get_local_constants'):
        none = providers.Constants()
        providers._get_local_constants = lambda: none


seed_alone()


def fuzz(test):
    """The settings of every fuzz property."""
    test = settings(max_examples=EXAMPLES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])(test)
    return seed(SEED)(test)
