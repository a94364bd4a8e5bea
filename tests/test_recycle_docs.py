"""docs/recycle.md's programs run and end as the page says.

Each ```recycle block is a whole program that must check; the ```result
block after it (if any) is how it ends with seed 1 when every decision
takes its first option: `winner: NAME`, `no winner` or `error: MESSAGE`."""
import os
import re

import pytest

from compiler.recycle import frontend

from .test_recycle import ROOT, play

DOC = os.path.join(ROOT, 'docs', 'recycle.md')
FENCE = re.compile(r'^```([^\n]*)\n(.*?)^```$', re.M | re.S)


def programs():
    """(line, program text, expected ending or None), in order."""
    with open(DOC, encoding='utf-8') as f:
        doc = f.read()
    found = [(doc.count('\n', 0, m.start()) + 1, m.group(1).strip(), m.group(2))
             for m in FENCE.finditer(doc)]
    out = []
    for i, (line, lang, text) in enumerate(found):
        if lang == 'recycle':
            after = found[i + 1] if i + 1 < len(found) else None
            out.append((line, text, after[2].strip() if after and after[1] == 'result' else None))
    return out


def ending(game):
    e = game.ending
    if e.kind == 'winner':
        return 'winner: ' + e.winner
    if e.kind == 'error':
        return 'error: ' + str(e.error)
    return e.kind


def test_the_page_has_its_programs():
    assert len(programs()) >= 10
    assert all(expected is not None for _, _, expected in programs())


@pytest.mark.parametrize('line,text,expected', programs(), ids=lambda x: str(x)[:12])
def test_program_runs_as_the_page_says(line, text, expected):
    frontend.check_text(text)
    if expected is not None:
        assert ending(play(text)) == expected, 'docs/recycle.md line %d' % line


def test_every_decision_names_a_test_that_exists():
    with open(DOC, encoding='utf-8') as f:
        doc = f.read()
    table = doc[doc.index('## Decisions'):doc.index('## Not yet')]
    names = set(re.findall(r'`(test_\w+)`', table))
    here = os.path.dirname(os.path.abspath(__file__))
    source = ''.join(open(os.path.join(here, f), encoding='utf-8').read()
                     for f in os.listdir(here) if f.startswith('test_recycle'))
    assert len(names) >= 12
    for name in names:
        assert 'def %s(' % name in source, name


def test_the_python_example_runs(monkeypatch, capsys):
    with open(DOC, encoding='utf-8') as f:
        doc = f.read()
    code = [m.group(2) for m in FENCE.finditer(doc) if m.group(1).strip() == 'python']
    assert len(code) == 1
    monkeypatch.chdir(ROOT)
    exec(compile(code[0], 'docs/recycle.md', 'exec'), {})
    assert re.fullmatch(r'winner (Ada|Ben|Cy|Di)\n', capsys.readouterr().out)
