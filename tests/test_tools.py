"""The development tools stay in step with the code they edit."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

import inject_bugs  # noqa: E402


def test_every_injected_bug_still_finds_its_place():
    # A bug whose text no longer occurs once would make inject_bugs.py stop.
    for name, (path, old, new, _) in inject_bugs.BUGS.items():
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            assert f.read().count(old) == 1, name
        assert old != new
