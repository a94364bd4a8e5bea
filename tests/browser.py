"""Debian's chromium for the tests that look at a page in a real browser.

A fresh machine may not have it: the tests then install it with apt-get, as
.ci/run does (Playwright's own browser download is not available here), so
the README's test command passes as written.  Without root or apt-get they
fail with one line saying what to install; they never skip."""
import fcntl
import os
import shutil
import subprocess
import tempfile
import threading

TIMEOUT = 15_000                # ms: a step that takes longer has failed

_lock = threading.Lock()
# pytest-xdist's workers are processes: one installs, the other waits for it
# (two apt-gets at once fail on dpkg's lock)
_LOCK_FILE = os.path.join(tempfile.gettempdir(), 'pipvm-tests-chromium.lock')


def chromium(real_binary=False):
    """The path of chromium (real_binary: the browser itself, not Debian's
    wrapper script, for Playwright's executable_path)."""
    with _lock, open(_LOCK_FILE, 'w') as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        found = _find(real_binary)
        if found is None and hasattr(os, 'geteuid') and os.geteuid() == 0 \
                and shutil.which('apt-get'):
            env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
            for argv in (['apt-get', 'update', '-q'], ['apt-get', 'install', '-y', '-q', 'chromium']):
                subprocess.run(argv, env=env, capture_output=True, timeout=1200)
            found = _find(real_binary)
        assert found, 'chromium is missing: apt-get install -y chromium (.ci/run does)'
        return found


def _find(real_binary):
    places = ['/usr/lib/chromium/chromium'] if real_binary else []
    places += [shutil.which('chromium'), shutil.which('chromium-browser')]
    return next((p for p in places if p and os.access(p, os.X_OK)), None)

