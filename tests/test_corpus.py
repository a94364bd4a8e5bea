"""The original Pip test suite (a copy of ../shared/corpus in tests/data)."""
import os
import re

import pytest

from pipvm.cli import main

from .util import DATA, HINT


def programs(folder):
    d = os.path.join(DATA, folder)
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.pip'))


def expected(path):
    exp = path[:-4] + '.expected'
    if not os.path.exists(exp):
        return ''
    with open(exp, encoding='latin-1') as f:
        return ''.join(l for l in f if not l.startswith('Fatal error: exception'))


def run(capfd, *argv):
    rc = main(list(argv))
    out, err = capfd.readouterr()
    return rc, out + err


@pytest.mark.parametrize('path', programs('syntax'), ids=os.path.basename)
def test_parse_prints_the_reference_text(path, capfd, tmp_path):
    want = expected(path)
    rc, out = run(capfd, 'parse', path)
    if want.startswith('Error: syntax error on line '):
        # As ../shared/corpus/run: the reference's line exactly; our help after it.
        head, hint = out.split('\n', 1)
        assert head + '\n' == want and re.fullmatch(HINT, hint), out
    else:
        assert out == want
    assert (rc != 0) == want.startswith('Error')
    if rc == 0:   # printing the printed program gives the same text
        again = tmp_path / 'again.pip'
        again.write_text(out, encoding='latin-1')
        assert run(capfd, 'parse', str(again)) == (0, out)


@pytest.mark.parametrize('path', programs('semantic') + programs('full'), ids=os.path.basename)
def test_check_prints_the_reference_diagnostic(path, capfd):
    want = expected(path)
    rc, out = run(capfd, 'check', path)
    assert out == want
    assert rc == (1 if want.startswith('Error') else 0)
