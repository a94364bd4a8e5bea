"""`tools/mutation.py --cluster`: mutants run by the mutant servers of a real
Dask scheduler and two workers on 127.0.0.1 (started as tests/test_cluster.py
starts them, with tools/ on the workers' PYTHONPATH), with the verdicts of
the runner at home."""
import json
import os
import subprocess
import sys

import pytest

from .test_cluster import Cluster
from .test_sim import ROOT

TOOL = os.path.join(ROOT, 'tools', 'mutation.py')


def _runs_default():
    # the id of `def runs(decoded, fuse=True)`'s flipped default, wherever
    # fusion.py's edits have moved that line
    with open(os.path.join(ROOT, 'pipvm', 'engine', 'fusion.py')) as f:
        line = next(i for i, text in enumerate(f, 1) if text.startswith('def runs(decoded, fuse=True)'))
    return 'pipvm/engine/fusion.py:%d:23:True -> False' % line


def _view_line(start):
    # the line of view.py that starts so, wherever edits have moved it
    with open(os.path.join(ROOT, 'pipvm', 'game', 'view.py')) as f:
        return next(i for i, text in enumerate(f, 1) if text.startswith(start))


# id -> its verdict at seed 1, 10 examples: two faults the view property
# sees at once, and fusion.py's equivalent (every caller passes fuse).
EXPECTED = {
    'pipvm/game/view.py:%d:25:True -> False' % _view_line('def view(game, seat, log=True,'): 'killed',
    'pipvm/game/view.py:%d:7:drop Not' % _view_line('    if not log:'): 'killed',
    _runs_default(): 'survived',
}


@pytest.fixture
def cluster(tmp_path, monkeypatch):
    monkeypatch.setenv('PYTHONPATH', os.pathsep.join([os.path.join(ROOT, 'tools'), ROOT]))
    c = Cluster(str(tmp_path))
    yield c
    c.stop()


def verdicts(tmp_path, name, *where):
    out = tmp_path / name
    p = subprocess.run([sys.executable, TOOL, '--ids', *EXPECTED, '--examples', '10',
                        '--seed', '1', '--json', str(out), *where],
                       capture_output=True, cwd=ROOT, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:].decode()
    return {r['id']: r['result'] for r in map(json.loads, out.read_text().splitlines())}


def test_mutants_on_the_cluster_get_the_verdicts_they_get_at_home(cluster, tmp_path):
    there = verdicts(tmp_path, 'there.jsonl', '--cluster', cluster.address)
    assert there == EXPECTED
    assert verdicts(tmp_path, 'home.jsonl') == there


def test_the_runner_takes_the_mutants_in_the_order_their_ids_are_given(tmp_path):
    # --ids-file's order is the run's (a list sorted cheapest first runs so)
    ids = list(EXPECTED)[::-1]
    f = tmp_path / 'ids.txt'
    f.write_text('\n'.join(ids) + '\n')
    p = subprocess.run([sys.executable, TOOL, '--ids-file', str(f), '--list'],
                       capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert p.returncode == 0, p.stderr[-3000:]
    assert p.stdout.splitlines()[:-1] == ids
