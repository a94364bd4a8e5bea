"""No input makes `pipvm parse` or `pipvm check` crash, hang, or exit oddly.

Every run must end in success (status 0, nothing on stderr) or one
`Error: ...` line on stderr with status 1.  Inputs: random text and bytes,
corpus programs mutated at the token, line and byte level, and extreme
nesting and length.
"""
import os
import re
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pipvm.cli import main

from .util import DATA, HINT

CORPUS = [os.path.join(DATA, d, f) for d in ('syntax', 'semantic', 'full')
          for f in sorted(os.listdir(os.path.join(DATA, d))) if f.endswith('.pip')]
SOURCES = [open(p, 'rb').read() for p in CORPUS]
TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[A-Za-z][A-Za-z0-9_]*|[0-9]+|->|\.\.|[=!<>+\-*/]=|\S')
HEAD = b'Game "g" requires 2 players.\n'


def assert_clean(path, capfd):
    """Run parse and check in-process: an uncaught exception fails the test."""
    outputs = {}
    for verb in ('parse', 'check'):
        rc = main([verb, str(path)])
        out, err = (b.decode('latin-1') for b in capfd.readouterr())
        assert rc in (0, 1)
        if rc == 0:
            assert err == ''
        else:
            assert re.fullmatch(r'Error: syntax error on line \d+\n' + HINT + '|Error: [^\n]*\n', err), err
            assert out == ''
        outputs[verb] = (rc, out)
    rc, out = outputs['parse']
    if rc == 0:   # the printed program parses back to the same text
        path.write_bytes(out.encode('latin-1'))
        assert main(['parse', str(path)]) == 0
        assert capfd.readouterr().out.decode('latin-1') == out
    return outputs


def edit(items, op, i, j):
    """Delete item i, duplicate item j before it, or swap the two."""
    if op == 'del':
        del items[i]
    elif op == 'dup':
        items.insert(i, items[j])
    else:
        items[i], items[j] = items[j], items[i]


@st.composite
def mutated(draw):
    src = draw(st.sampled_from(SOURCES))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(['tokens', 'lines', 'truncate', 'bytes']))
        if kind in ('tokens', 'lines'):
            items, sep = (TOKEN.findall(src), b' ') if kind == 'tokens' else (src.split(b'\n'), b'\n')
            if items:
                i, j = (draw(st.integers(0, len(items) - 1)) for _ in range(2))
                edit(items, draw(st.sampled_from(['del', 'dup', 'swap'])), i, j)
            src = sep.join(items)
        elif kind == 'truncate':
            src = src[:draw(st.integers(0, len(src)))]
        else:
            at = draw(st.integers(0, len(src)))
            noise = draw(st.binary(max_size=4) | st.sampled_from([b'\x00', b'\r\n', b'\xc3\xa9', b'"', b'{', b'\\']))
            src = src[:at] + noise + src[at:]
    return src


FUZZ = settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes(tmp_path, capfdbinary, data):
    path = tmp_path / 'r.pip'
    path.write_bytes(data)
    assert_clean(path, capfdbinary)


@FUZZ
@given(st.text(alphabet=st.sampled_from(list('Game"{}()[];.,~%-><=!+*/# \n\tAKQJCHSD0123abx_')), max_size=200))
def test_random_text_after_a_valid_heading(tmp_path, capfdbinary, text):
    path = tmp_path / 't.pip'
    path.write_bytes(HEAD + text.encode())
    assert_clean(path, capfdbinary)


@FUZZ
@given(mutated())
def test_mutated_corpus_programs(tmp_path, capfdbinary, src):
    path = tmp_path / 'm.pip'
    path.write_bytes(src)
    assert_clean(path, capfdbinary)


def run_cli(path):
    p = subprocess.run([sys.executable, '-m', 'pipvm', 'check', str(path)],
                       capture_output=True, timeout=300)
    return p.returncode, p.stderr.decode('latin-1')


EXTREME = [
    ('blocks', b'Action main {\n' + b'if True {\n' * 1000 + b'}\n' * 1000 + b'}\n'),
    ('parens', b'Number n = ' + b'(' * 1000 + b'1' + b')' * 1000 + b'.\nAction main { }\n'),
    ('lists', b'RankList n = ' + b'[' * 1000 + b'A' + b']' * 1000 + b'.\nAction main { }\n'),
    ('terms', b'Number n = ' + b' + '.join([b'1'] * 100_000) + b'.\nAction main { }\n'),
    ('unclosed', b'Action main {\n' + b'forever {\n' * 1000),
    ('bad_deep', b'Number n = ' + b'(' * 1000 + b'True' + b')' * 1000 + b'.\nAction main { }\n'),
]


@pytest.mark.parametrize('name,body', EXTREME, ids=[name for name, _ in EXTREME])
def test_extreme_programs_end_cleanly(tmp_path, name, body):
    path = tmp_path / (name + '.pip')
    path.write_bytes(HEAD + body)
    rc, err = run_cli(path)
    expected = {
        'unclosed': (1, 'Error: syntax error on line 1003\n  at the end of the file; expected '
                        '"}" to close the block opened on line 1002 or a statement\n'),
        'bad_deep': (1, 'Error: Line 2, Col 1: Expected type Number but found type Boolean\n'),
    }
    assert (rc, err) == expected.get(name, (0, ''))
