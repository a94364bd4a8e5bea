"""Start-up of `pipvm run GAME.pipc` (issue 60): what a run imports, and the
shortcuts that keep it short, each checked against what it stands for."""
import glob
import io
import os
import subprocess
import sys
import tokenize

import pytest

from pipvm.engine import cases, compiled, vm
from pipvm.isa.instructions import INSTRUCTIONS, MACROS
from pipvm.play import loader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip')))


def _tokenized(text):
    """The NAME tokens as tokenize finds them (what cases._name_tokens stands for)."""
    return [(t.string, t.start, t.end) for t in
            tokenize.generate_tokens(io.StringIO(text).readline) if t.type == tokenize.NAME]


def _generated_texts():
    """Every body and macro, and the functions the compiled tier writes for the examples."""
    texts = [op.body for op in INSTRUCTIONS if op.body] + list(MACROS.values())
    for path in GAMES:
        image = vm.Image(loader.load_program(path), compiled=True)
        for loaded in image.codes:
            texts += [fn.source for op, _, fn in loaded.instrs + loaded.quiet
                      if op == compiled.BLOCK]
        texts += [f.source for fast in image.pure if fast is not None
                  for f in (fast.fn, fast.hand) if hasattr(f, 'source')]
    return texts


def test_the_name_scanner_finds_what_tokenize_finds():
    texts = _generated_texts()
    assert len(texts) > 300
    for path in glob.glob(os.path.join(ROOT, 'pipvm', 'engine', '*.py')):
        with open(path) as f:
            texts.append(f.read())      # (comments, docstrings, f-strings, numbers: all of them)
    for text in texts:
        assert [tuple(t) for t in cases._name_tokens(text)] == _tokenized(text), text[:200]


@pytest.mark.parametrize('text', [
    "x = 'a b' + \"c\" # d e\ny", "r'\\'' + rb\"q\" + f'{z}' + w", "'''a\nb''' + c\n",
    '0x1F + 1e5 + 2.5j + _x1 + ünï', 'a.b(c)[d]  # trailing'])
def test_the_name_scanner_on_tricky_texts(text):
    assert [tuple(t) for t in cases._name_tokens(text)] == _tokenized(text)
