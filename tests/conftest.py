import os
import signal

import pytest
from hypothesis import settings

# A shell that starts the tests in the background (`nohup pytest &`, a job
# without job control) ignores Ctrl-C for them, and an ignored signal stays
# ignored in every child: the tests that send the CLI a Ctrl-C would then
# see nothing happen.  A handler of ours is reset to the default in a child.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# CI runs a bounded number of examples; `HYPOTHESIS_PROFILE=long` runs more.
settings.register_profile('ci', max_examples=150, deadline=None)
settings.register_profile('long', max_examples=5000, deadline=None)
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'ci'))


def pytest_configure(config):
    """One fuzz seed for the whole run: chosen here, before pytest-xdist
    starts its workers, which inherit it (each would draw its own)."""
    import random
    os.environ.setdefault('PIPVM_FUZZ_SEED', str(random.SystemRandom().randrange(2 ** 32)))


def pytest_terminal_summary(terminalreporter):
    """Print the fuzz seed (when fuzz tests ran), so a failure in CI can be replayed."""
    if not any(getattr(r, 'nodeid', '').startswith('tests/fuzz/')
               for reports in terminalreporter.stats.values() for r in reports):
        return
    from tests.fuzz.budget import EXAMPLES, SEED
    terminalreporter.write_line('fuzz: %d examples per property, seed %d (replay: '
                                'PIPVM_FUZZ_SEED=%d python -m pytest tests/fuzz)'
                                % (EXAMPLES, SEED, SEED))


@pytest.fixture(scope='module')
def browser():
    """Debian's chromium under Playwright, one for a test module (the web
    table's browser tests)."""
    from playwright.sync_api import sync_playwright
    from tests.browser import chromium
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium(real_binary=True))
        yield b
        b.close()
