import os

from hypothesis import settings

# CI runs a bounded number of examples; `HYPOTHESIS_PROFILE=long` runs more.
settings.register_profile('ci', max_examples=150, deadline=None)
settings.register_profile('long', max_examples=5000, deadline=None)
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'ci'))


def pytest_terminal_summary(terminalreporter):
    """Print the fuzz seed (when fuzz tests ran), so a failure in CI can be replayed."""
    import sys
    if 'tests.fuzz.budget' not in sys.modules:
        return
    from tests.fuzz.budget import EXAMPLES, SEED
    terminalreporter.write_line('fuzz: %d examples per property, seed %d (replay: '
                                'PIPVM_FUZZ_SEED=%d python -m pytest tests/fuzz)'
                                % (EXAMPLES, SEED, SEED))
