"""Every game of examples/recycle/ through the tools, as a designer runs them
(`sys.executable -m pipvm`): `check`; `run` with its answer script
(`NAME.answers`, made for `--seed 1`) on the VM and on the reference
interpreter, the same transcript; `sim` of 1,000 random games, none stuck,
with the design report; and `serve`, one request answered.

The simulations are the slow part: one process a game, `--jobs 1`, about
5 to 40 s each on a quiet machine (docs/recycle.md, "Examples")."""
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

import pytest

from compiler.recycle.frontend import game_name, read_source

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, 'examples', 'recycle')
GAMES = sorted(f[:-8] for f in os.listdir(EXAMPLES) if f.endswith('.recycle'))
END = re.compile(rb'(The game was won by [^\n]+|No winner has been declared\.)\n\Z')


def pipvm(*argv, stdin=b'', timeout=600):
    p = subprocess.run([sys.executable, '-m', 'pipvm', *argv], input=stdin, capture_output=True,
                       timeout=timeout, cwd=ROOT)
    return p.returncode, p.stdout, p.stderr


def source(name):
    return os.path.join(EXAMPLES, name + '.recycle')


def test_every_example_has_answers():
    assert len(GAMES) >= 10
    assert sorted(f[:-8] for f in os.listdir(EXAMPLES) if f.endswith('.answers')) == GAMES


@pytest.mark.parametrize('name', GAMES)
def test_check(name):
    assert pipvm('check', source(name)) == (0, b'', b'')


@pytest.mark.parametrize('name', GAMES)
def test_run_with_its_answers_on_every_engine(name):
    with open(os.path.join(EXAMPLES, name + '.answers'), 'rb') as f:
        answers = f.read()
    status, vm, err = pipvm('run', '--seed', '1', source(name), stdin=answers)
    assert (status, err) == (0, b''), err
    # every answer was an option, and the game ran to its end
    assert b"I'm sorry" not in vm and END.search(vm), vm[-300:]
    # one `Your choice?` a line but the names: the count, then each decision
    assert vm.count(b'Your choice?') == answers.count(b'\n') - vm.count(b'Enter a name')
    for engine in ('loop', 'reference'):      # (vm: the default engine's)
        assert pipvm('run', '--seed', '1', '--engine', engine, source(name), stdin=answers) == \
            (0, vm, b''), engine


@pytest.mark.parametrize('name', GAMES)
def test_sim_1000_random_games_none_stuck_and_the_report(name, tmp_path):
    report = tmp_path / (name + '.html')
    start = time.monotonic()
    status, out, err = pipvm('sim', '--games', '1000', '--precision', '0', '--jobs', '1', '--json',
                             '--report', str(report), source(name))
    assert status == 0, err
    result = json.loads(out)
    assert result['games'] == 1000
    assert result['step_limit']['count'] == 0 and result['errors']['count'] == 0
    won = sum(s['wins'] for s in (result['teams'] or result['seats']))
    assert won > 0
    page = report.read_text(encoding='utf-8')
    assert result['game'] in page and '1000' in page.replace(',', '')
    print('%s: sim of 1000 games and the report in %.1f s' % (name, time.monotonic() - start))


@pytest.mark.parametrize('name', GAMES)
def test_serve_answers_a_request(name):
    server = subprocess.Popen([sys.executable, '-m', 'pipvm', 'serve', '--port', '0', '--seed', '1',
                               '--bots', 'random', '--bot-pause', '0', source(name)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        line = server.stdout.readline().decode()
        url = re.search(r'(http://\S+/play/\S+/)', line)
        assert url, (line, server.stderr.read() if server.poll() is not None else '')
        with urllib.request.urlopen(url.group(1) + 'state', timeout=60) as r:
            state = json.loads(r.read())
        assert r.status == 200 and state['game'] == game_name(read_source(source(name)))
        assert state['seat'] is None and 'decision' in state      # a spectator's view
    finally:
        server.terminate()
        server.wait(timeout=30)
