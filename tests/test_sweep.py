"""`pipvm sweep`: one sim per combination of --vary values, in one table."""
import base64
import json
import os
import re
import subprocess
import sys

import pytest

from .test_sim import ROOT, sim_json, without_timing
from .util import run_cli, run_cli_split

HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')


def sweep_json(*argv):
    status, out, _ = run_cli_split(['sweep', *argv, '--json'])
    assert status == 0, out
    return json.loads(out)


def test_each_row_is_the_sim_of_its_variant():
    s = sweep_json(HIGH_CARD, '--vary', 'rounds=1,3', '--games', '30', '--players', '3')
    assert s['vary'] == {'rounds': ['1', '3']} and len(s['variants']) == 2
    for row, rounds in zip(s['variants'], ('1', '3')):
        assert row['vary'] == {'rounds': rounds}
        report = sim_json(HIGH_CARD, '--set', 'rounds=' + rounds, '--games', '30',
                          '--players', '3')
        assert without_timing(row['report']) == without_timing(report)
        seat = report['seats'][1]
        assert row['metrics']['seat2'] == {'value': seat['share'], 'ci95': seat['ci95']}
        assert row['metrics']['length'] == {'value': report['length']['mean']}
    assert [m['key'] for m in s['metrics']] == ['seat1', 'seat2', 'seat3', 'completed',
                                                'no_winner', 'timeouts', 'errors', 'balance',
                                                'length', 'turns', 'steps']


def test_every_combination_in_order_and_fixed_settings_kept(tmp_path):
    path = tmp_path / 'g.pip'
    path.write_text('Game "G" requires 2 players.\nNumber a = 1.\nNumber b = 1.\nNumber c = 1.\n'
                    'Action main {\n  if a + b + c > 4 { winner players->first. }\n'
                    '  if c == 7 { winner players->last. }\n}\n')
    s = sweep_json(str(path), '--vary', 'a=1,2', '--vary', 'b=1,3', '--set', 'c=1', '--games', '4')
    assert [r['vary'] for r in s['variants']] == [
        {'a': '1', 'b': '1'}, {'a': '1', 'b': '3'}, {'a': '2', 'b': '1'}, {'a': '2', 'b': '3'}]
    assert s['set'] == {'c': '1'}
    assert [r['report']['set'] for r in s['variants']][3] == {'c': '1', 'a': '2', 'b': '3'}
    assert [r['metrics']['seat1']['value'] for r in s['variants']] == [0.0, 1.0, 0.0, 1.0]
    status, out = run_cli(['sweep', str(path), '--vary', 'a=1,2', '--vary', 'b=1,3',
                           '--games', '4', '--set', 'c=7', '--precision', '0'])
    lines = out.decode().splitlines()
    assert status == 0 and lines[0] == ('G: 4 variants, 4 games each (seeds 1..4), 2 players, '
                                        '--bots random --players 2 --set c=7')
    assert lines[1].split() == ['a', 'b', 'seat', '1', 'Ada', 'seat', '2', 'Ben',
                                'completed', 'no', 'winner', 'timeouts', 'errors', 'balance',
                                'decisions', 'turns', 'steps']
    assert lines[2].split()[:5] == ['1', '1', '100.0%', '(51.0-100.0%)', '0.0%']
    assert len(lines) == 7 and lines[6].endswith('games/s')


def test_a_variant_whose_games_fail_says_so_with_its_first_error():
    # Beggar My Neighbour starting with a card owed reads an undefined
    # value: the table once showed only "completed 30%", the errors unsaid.
    path = os.path.join(ROOT, 'examples', 'beggar_my_neighbour.pip')
    s = sweep_json(path, '--vary', 'owed=0,1', '--games', '10', '--precision', '0')
    clean, failing = (row['metrics']['errors']['value'] for row in s['variants'])
    assert clean == 0 and failing > 0.3
    assert s['variants'][1]['metrics']['steps']['value'] > 0
    status, out = run_cli(['sweep', path, '--vary', 'owed=0,1', '--games', '10', '--precision', '0'])
    text = out.decode()
    assert status == 0 and text.count('first error of ') == 1
    assert 'first error of owed=1: seed ' in text and 'Undefined value (replay: pipvm run ' in text


def test_a_team_game_has_a_column_per_team():
    s = sweep_json(os.path.join(ROOT, 'examples', 'euchre.pip'), '--vary', 'power=1,2',
                   '--games', '3')
    assert [m['key'] for m in s['metrics']] == ['team1', 'team2', 'completed', 'no_winner',
                                                'timeouts', 'errors', 'balance', 'length', 'turns',
                                                'steps']


@pytest.mark.parametrize('argv,message', [
    (['--vary', 'rounds=1,x'], "Error: --set rounds=x: 'rounds' is a Number, so the value "
                               "must be a whole number\n"),
    (['--vary', 'nope=1'], "Error: --set nope=1: %s declares no global 'nope'\n" % HIGH_CARD),
    (['--vary', 'rounds=1', '--vary', 'rounds=2'], 'Error: --vary: a global is varied twice\n'),
    (['--vary', 'rounds=1', '--set', 'rounds=2'], 'Error: --set rounds=1: rounds is set twice\n'),
])
def test_every_variant_is_checked_before_any_game(argv, message):
    assert run_cli(['sweep', HIGH_CARD, '--games', '3', *argv]) == (1, message.encode())


def test_the_html_report_has_a_plot_per_metric_group(tmp_path):
    out = tmp_path / 'r.html'
    status, text = run_cli(['sweep', HIGH_CARD, '--vary', 'rounds=1,2,4', '--games', '20',
                            '--report', str(out)])
    assert status == 0 and text.startswith(b'High Card: 3 variants')
    page = out.read_text()
    assert page.startswith('<!DOCTYPE html>') and 'High Card: sweep over rounds' in page
    assert re.findall(r'<h2>([^<]*)</h2>', page) == ['win share', 'endings', 'balance', 'length']
    images = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(images) == 4
    assert all(base64.b64decode(i).startswith(b'\x89PNG\r\n') for i in images)


def test_without_matplotlib_one_line_says_what_to_install(tmp_path):
    fake = tmp_path / 'matplotlib'
    fake.mkdir()
    (fake / '__init__.py').write_text("raise ImportError('no matplotlib here')\n")
    p = subprocess.run([sys.executable, '-m', 'pipvm', 'sweep', HIGH_CARD, '--vary', 'rounds=1',
                        '--games', '2', '--report', str(tmp_path / 'r.html')],
                       capture_output=True, env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert (p.returncode, p.stderr) == (
        1, b"Error: --report needs matplotlib: pip install 'pipvm[report]'\n")
    assert not (tmp_path / 'r.html').exists()


def test_ctrl_c_prints_the_variants_so_far_and_exits_130():
    import signal
    import time
    p = subprocess.Popen([sys.executable, '-m', 'pipvm', 'sweep', HIGH_CARD, '--vary',
                          'rounds=1,2', '--games', '1000000', '--precision', '0',
                          '--jobs', '1'],     # (the CPU time read below is this process's)
                         stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    # Well into the first variant's million games: by the child's own CPU time,
    # not the wall clock, which a loaded machine stretches past its start-up.
    ticks = os.sysconf('SC_CLK_TCK')
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        with open('/proc/%d/stat' % p.pid) as f:
            utime, stime = f.read().rsplit(')', 1)[1].split()[11:13]
        if (int(utime) + int(stime)) / ticks > 2.5:
            break
        time.sleep(0.1)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    lines = out.decode().splitlines()
    assert p.returncode == 130 and err == b''
    assert re.match(r'High Card: 1 variant, \d+ games each', lines[0])      # those played
    assert re.fullmatch(r'  interrupted: 1 of 2 variants played, the last only \d+ games',
                        lines[-1])


def test_the_table_carries_skill_its_significance_and_the_no_world_share(tmp_path):
    # Three of Six with the number of plays a global: one play is nearly luck.
    from .test_sim import THREE_OF_SIX
    with open(THREE_OF_SIX) as f:
        text = f.read()
    path = tmp_path / 'plays.pip'
    path.write_text(text.replace('if round > 3 {', 'if round > plays {').replace(
        'Rule any_card', 'Number plays = 3.\nRule any_card'))
    argv = [str(path), '--vary', 'plays=1,3', '--games', '80', '--seat', '2=ismcts:6']
    s = sweep_json(*argv)
    keys = [m['key'] for m in s['metrics']]
    assert keys[-5:] == ['length', 'turns', 'steps', 'skill2', 'no_world2']
    lines = run_cli(['sweep', *argv])[1].decode().splitlines()
    assert lines[-2] == '  balance: from the games with every seat random, not the seats as given'
    for row, line in zip(s['variants'], lines[2:4]):
        report, m = row['report'], row['metrics']
        (k,) = report['skill']
        assert m['skill2'] == {'value': k['gap'], 'ci95': k['gap_ci95'],
                               'significant': k['significant']}
        assert line.endswith('%+.1f%%%s        0.0%%' % (100 * k['gap'],
                                                      '' if k['significant'] else ' n.s.'))
        t = report['thinking']['2']
        assert m['no_world2'] == {'value': t['no_world'] / t['decisions']}
        assert m['turns'] == {'value': report['duration']['turns']['mean']}
        assert m['no_winner']['value'] == round(report['no_winner'] / 80, 4)
    # one play in a game: no significant gap; three: thinking pays
    assert [r['metrics']['skill2']['significant'] for r in s['variants']] == [False, True]
