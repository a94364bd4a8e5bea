"""Golden tests of whole runs: `pipvm run --seed 1 GAME` on scripted answers.

run/    every statement and run-time error; the .out files were produced by
        the reference interpreter (tools/make_golden.py: PIP_SEED=1).
games/  complete games, also from the reference: corpus/full (answers in
        games/NAME.in) and examples/ (answers in examples/NAME.answers).
        An example written with the extensions has its plain version's
        golden, except example_president_sets.out: the original interpreter
        refuses its sets and its dialogue is its own, so that golden came
        from pipvm (`--engine reference`, the VM giving the same bytes); so
        did example_durak.out, of a game only the extensions can say.
differ/ the deliberate differences from the reference (SEMANTICS.md's table);
        each .pip says in its first line what it shows; .out checked by hand.
Each runs on every engine (engines.NAMES): the compiled tier, the loop and
the reference interpreter.
"""
import os

import pytest

from pipvm.engine import engines

from .util import DATA, answers_for, played_to_its_end, transcript

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, 'examples')
ENGINES = engines.NAMES


def names(folder):
    return sorted(f[:-4] for f in os.listdir(os.path.join(DATA, folder)) if f.endswith('.pip'))


def expected(folder, name):
    with open(os.path.join(DATA, folder, name + '.out'), 'rb') as f:
        return f.read()


@pytest.mark.parametrize('engine', ENGINES)
@pytest.mark.parametrize('folder,name', [('run', n) for n in names('run')]
                         + [('differ', n) for n in names('differ')])
def test_golden(folder, name, engine):
    path = os.path.join(DATA, folder, name + '.pip')
    got = transcript(['run', '--engine', engine, '--seed', '1', path],
                     answers_for(os.path.join(DATA, folder), name))
    assert got.decode('latin-1') == expected(folder, name).decode('latin-1')


def game_sources():
    corpus = [os.path.join(DATA, 'full', f) for f in sorted(os.listdir(os.path.join(DATA, 'full')))]
    examples = [os.path.join(EXAMPLES, f) for f in sorted(os.listdir(EXAMPLES)) if f.endswith('.pip')]
    return corpus + examples


def game_answers(source):
    name = os.path.basename(source)[:-4]
    script = os.path.join(EXAMPLES, name + '.answers')
    if source.startswith(EXAMPLES):
        with open(script, 'rb') as f:
            return f.read()
    return answers_for(os.path.join(DATA, 'games'), name)


@pytest.mark.parametrize('engine', ENGINES)
@pytest.mark.parametrize('source', game_sources(), ids=os.path.basename)
def test_game_to_the_end(source, engine):
    name = os.path.basename(source)[:-4]
    answers = game_answers(source)
    got = transcript(['run', '--engine', engine, '--seed', '1', source], answers)
    assert played_to_its_end(got)
    golden = 'example_' + name if source.startswith(EXAMPLES) else name
    assert got.decode('latin-1') == expected('games', golden).decode('latin-1')


@pytest.mark.parametrize('source', game_sources(), ids=os.path.basename)
def test_pipc_runs_like_its_source(source, tmp_path):
    name = os.path.basename(source)[:-4]
    out = str(tmp_path / (name + '.pipc'))
    assert transcript(['compile', source, '-o', out], b'') == b'[exit 0]\n'
    assert os.path.getsize(out) < os.path.getsize(source)
    answers = game_answers(source)
    assert (transcript(['run', '--seed', '1', out], answers)
            == transcript(['run', '--seed', '1', source], answers))
