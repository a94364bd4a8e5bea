"""`pipvm sim --report FILE.html`: one self-contained page, rendered for real
in headless Chromium (installed by .ci/run): its plots must load and show."""
import json
import os
import re
import subprocess
import sys

import pytest

from . import browser
from .util import run_cli, run_cli_split

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THREE_OF_SIX = os.path.join(ROOT, 'tests', 'data', 'bots', 'three_of_six.pip')
PLOTS = 4              # win shares, depth curve, lead histories, branching (length is fixed)

# Appended to a copy of the page: once everything has loaded, the natural
# size of each image is written into the DOM, which --dump-dom prints.
PROBE = ('<script>window.addEventListener("load", () => document.body.setAttribute('
         '"data-sizes", Array.from(document.images, i => i.naturalWidth + "x" + '
         'i.naturalHeight).join(" ")));</script>')


def chromium(*args, cwd):
    return subprocess.run(
        [browser.chromium(), '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
         '--user-data-dir=' + str(cwd / 'profile'), *args],
        capture_output=True, timeout=120, cwd=cwd)


@pytest.fixture(scope='module')
def report(tmp_path_factory):
    folder = tmp_path_factory.mktemp('report')
    path = folder / 'report.html'
    status, out, _ = run_cli_split(['sim', THREE_OF_SIX, '--games', '20', '--seat', '1=ismcts:10',
                           '--depth', '2,10', '--report', str(path), '--json'])
    assert status == 0
    return folder, path, json.loads(out)


def test_the_page_holds_every_plot_and_the_measures(report):
    _, path, summary = report
    page = path.read_text()
    assert page.startswith('<!DOCTYPE html>')
    assert page.count('<img alt=') == page.count('src="data:image/png;base64,') == PLOTS
    assert '<link' not in page and 'src="http' not in page          # self-contained
    for words in ('balance (seats)', 'decision moves', 'skill (seat 1)', 'skill gap (seat 1)',
                  'no world (seat 1)', 'drama', 'decisiveness', 'lead changes'):
        assert '<td>%s</td>' % words in page
    assert '<td>%s</td>' % summary['lead']['decisiveness'] in page
    # where the seating measures come from, said beside them
    assert ('they come from the games with every seat random, not the seats as given.' in page
            and '(games with every seat random)</td>' in page)
    # the game always lasts 6 decisions: a sentence, not a one-bar histogram
    assert '<p>Every game lasts 6 decisions and 6 turns.</p>' in page
    assert 'alt="distribution of game length"' not in page
    assert 'alt="the thinking seat&#x27;s win share by budget"' in page
    assert '<td>1 (Ada)</td><td>%d</td><td>0 (0.0%%)</td>' % (
        summary['thinking']['1']['decisions']) in page
    assert '; the same seat wins %.1f%% when every seat plays at random' % (
        100 * summary['skill'][0]['random_share']) in page


def test_the_page_says_a_seat_moved_round_the_table_is_compared_with_every_seat(tmp_path):
    path = tmp_path / 'r.html'
    status, out, _ = run_cli_split(['sim', THREE_OF_SIX, '--games', '4', '--seat', '1=mc:2', '--rotate',
                                    '--report', str(path), '--json'])
    (k,) = json.loads(out)['skill']
    assert status == 0
    assert ('The mc:2 bot of seat 1, moved round the table game by game, wins %.1f%%' % (100 * k['share'])
            in path.read_text())
    assert '; the same seats win %.1f%% when every seat plays at random' % (
        100 * k['random_share']) in path.read_text()


def test_the_page_renders_with_its_images_in_a_real_browser(report):
    folder, path, _ = report
    probe = folder / 'probe.html'
    probe.write_text(path.read_text().replace('</body>', PROBE + '</body>'))
    done = chromium('--dump-dom', probe.as_uri(), cwd=folder)
    sizes = re.search(r'data-sizes="([^"]*)"', done.stdout.decode())
    assert sizes, done.stderr.decode()[-2000:]
    sizes = [tuple(map(int, s.split('x'))) for s in sizes.group(1).split()]
    assert len(sizes) == PLOTS and all(w > 200 and h > 150 for w, h in sizes), sizes

    shot = folder / 'shot.png'
    chromium('--screenshot=' + str(shot), '--window-size=1000,2600', path.as_uri(), cwd=folder)
    from matplotlib.image import imread
    pixels = imread(str(shot))[:, :, :3]
    assert pixels.shape[:2] == (2600, 1000)
    ink = (pixels < 0.9).any(axis=2)
    assert ink.mean() > 0.02                       # not a blank page
    # the bars of the win shares as seated (#4c78a8) and at random (#9d9d9d), and the
    # depth curve (#e45756) are drawn
    for rgb, least in (((0x4c, 0x78, 0xa8), 500), ((0x9d, 0x9d, 0x9d), 500),
                       ((0xe4, 0x57, 0x56), 200)):
        near = (abs(pixels * 255 - rgb) < 8).all(axis=2)
        assert near.sum() > least, rgb


def test_a_game_of_varying_length_gets_its_histograms(tmp_path):
    path = tmp_path / 'r.html'
    status, _ = run_cli(['sim', os.path.join(ROOT, 'examples', 'crazy_eights.pip'), '--games',
                         '10', '--report', str(path)])
    page = path.read_text()
    assert status == 0 and 'Every game lasts' not in page
    assert page.count('<img alt=') == 3                 # win shares, lengths, branching
    assert 'alt="distribution of game length"' in page
    assert 'every seat random, as seated' in page        # one series: no second set of bars
    assert 'The seats as given play differently' not in page


def test_the_page_warns_of_a_seat_that_found_no_world(tmp_path, monkeypatch):
    from pipvm.play import bots
    monkeypatch.setattr(bots.Thinker, 'worlds', lambda self, game, seat: [])
    path = tmp_path / 'r.html'
    assert run_cli(['sim', THREE_OF_SIX, '--games', '2', '--seat', '1=ismcts:2', '--report',
                    str(path)])[0] == 0
    page = path.read_text()
    assert ('<p>warning: seat 1 (Ada) found no consistent world at 100.0% of its decisions and '
            'answered them at random</p>') in page
    assert '<td>1 (Ada)</td><td>6</td><td>6 (100.0%)</td>' in page
    assert '<td>no world (seat 1)</td><td>100.0%</td>' in page


def test_without_matplotlib_report_is_one_line_before_any_game(tmp_path):
    # A meta-path finder that refuses matplotlib, then the command line.
    code = ('import sys\n'
            'class No:\n'
            '    def find_spec(self, name, path, target=None):\n'
            '        if name.split(".")[0] == "matplotlib": raise ImportError(name)\n'
            'sys.meta_path.insert(0, No())\n'
            'from pipvm.cli import main\n'
            'sys.exit(main(sys.argv[1:]))\n')
    done = subprocess.run([sys.executable, '-c', code, 'sim', THREE_OF_SIX, '--games', '100000',
                           '--report', str(tmp_path / 'r.html')],
                          capture_output=True, timeout=60, cwd=ROOT)
    assert (done.returncode, done.stdout) == (1, b'')
    assert done.stderr == b"Error: --report needs matplotlib: pip install 'pipvm[report]'\n"
    assert not (tmp_path / 'r.html').exists()


def test_the_json_report_has_the_design_measures():
    status, out, _ = run_cli_split(['sim', THREE_OF_SIX, '--games', '12', '--seat', '2=mc:4', '--json'])
    s = json.loads(out)
    assert status == 0
    assert set(s['balance']['seats']) == {'fairness', 'balance', 'first_advantage',
                                          'first_advantage_ci95', 'first_significant'}
    assert s['completion']['winner'] + s['no_winner'] / 12 == pytest.approx(1, abs=1e-4)
    assert s['duration']['decisions']['median'] == 6 and s['duration']['turns']['mean'] == 6
    assert s['decision_moves'] == 1.0 and s['branching_course'][0] == 6.0
    (k,) = s['skill']
    assert k['seat'] == 2 and k['gap'] == round(k['share'] - k['random_share'], 4)
    assert s['lead']['games'] >= 1 and 0 <= s['lead']['decisiveness'] <= 1
    # random play has no lead history and no skill
    status, out, _ = run_cli_split(['sim', THREE_OF_SIX, '--games', '12', '--json'])
    s = json.loads(out)
    assert s['lead'] is None and 'skill' not in s


def test_docs_metrics_defines_every_measure_of_the_report():
    status, out, _ = run_cli_split(['sim', THREE_OF_SIX, '--games', '12', '--seat', '1=mc:2', '--json'])
    s = json.loads(out)
    with open(os.path.join(ROOT, 'docs', 'metrics.md')) as f:
        doc = f.read()
    depth = json.loads(run_cli_split(['sim', THREE_OF_SIX, '--games', '2', '--seat', '1=mc:2',
                                '--depth', '1', '--json'])[1])['depth']
    keys = (list(s['balance']['seats']) + list(s['completion']) + list(s['lead'])
            + list(s['skill'][0]) + list(s['thinking']['1']) + list(depth[0])
            + list(s['balance']) + ['decision_moves', 'branching_course', 'duration.decisions',
                                    'duration.turns', 'balance.seats', 'balance.teams',
                                    'thinking', 'depth', 'rotate', 'win_shares',
                                    'random_unfinished', 'stopping'] + list(s['stopping']))
    missing = [k for k in keys if '`%s`' % k not in doc and k not in ('seat', 'name', 'games')]
    assert not missing


def test_a_team_game_draws_team_bars_against_an_even_share_of_the_teams():
    # Only teams win Euchre: bars for the four seats would all be 0, and the
    # even share to compare the teams with is 1/2, not 1/4.
    from pipvm.design import report
    status, out, _ = run_cli_split(['sim', os.path.join(ROOT, 'examples', 'euchre.pip'), '--players', '4',
                           '--games', '4', '--json'])
    assert status == 0
    summary = json.loads(out)
    assert not any(r['wins'] for r in summary['seats'])
    ax = report.win_shares(summary).axes[0]
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels and all(label.startswith('team ') for label in labels)
    (even,) = [line for line in ax.get_lines() if line.get_label().startswith('1 / ')]
    assert list(even.get_ydata()) == [0.5, 0.5] and even.get_label() == '1 / teams'


def test_a_share_outside_its_interval_still_gets_its_bars():
    # A confidence sequence can rule out its games' own share; matplotlib
    # refused the negative length the page asked of it (a traceback).
    from pipvm.design import report
    status, out, _ = run_cli_split(['sim', os.path.join(ROOT, 'examples', 'high_card.pip'),
                                    '--players', '2', '--games', '4', '--json'])
    assert status == 0
    summary = json.loads(out)
    row = max(summary['seats'], key=lambda r: r['share'])
    assert row['share'] > 0
    row['ci95'] = [row['share'] / 4, row['share'] / 2]
    from pipvm.design.html import error_bars
    assert error_bars([row['share']], [row['ci95']]) == [[row['share'] * 3 / 4], [0.0]]
    assert report.win_shares(summary).axes


def test_a_team_games_lead_history_has_one_line_per_team():
    # Partners share one chance of winning: a line per seat would draw each twice.
    from pipvm.design import report
    status, out, _ = run_cli_split(['sim', os.path.join(ROOT, 'examples', 'euchre.pip'), '--players', '4',
                           '--games', '1', '--json'])
    summary = json.loads(out)
    assert status == 0 and report.lines_of(summary) == [('team 1: Ada, Cleo', 0), ('team 2: Ben, Dev', 1)]
    status, out, _ = run_cli_split(['sim', os.path.join(ROOT, 'examples', 'high_card.pip'), '--players', '3',
                           '--games', '1', '--json'])
    assert report.lines_of(json.loads(out)) == [('Ada', 0), ('Ben', 1), ('Cleo', 2)]


def test_each_length_bar_stands_on_its_own_whole_number():
    # Lengths 44..49 once split into six equal bins drew 47's games under a
    # bar between 46.5 and 47.3 and left a gap where no length was missing.
    from types import SimpleNamespace
    from pipvm.design import report
    lengths = [44, 45, 45, 46, 47, 47, 47, 49]
    games = [SimpleNamespace(decisions=n, turns=n) for n in lengths]
    ax = report.lengths(games, ['decisions']).axes[0]
    bars = {round(p.get_x() + p.get_width() / 2, 6): p.get_height() for p in ax.patches}
    assert bars == {n: lengths.count(n) for n in range(44, 50)}
    wide = [SimpleNamespace(decisions=n, turns=n) for n in range(0, 500, 7)]
    assert len(report.lengths(wide, ['decisions']).axes[0].patches) == 40


def test_a_game_without_choices_says_so_instead_of_zero_lengths(tmp_path):
    # Old Maid: nobody decides anything, so a length of 0 decisions and a
    # branching of 0 are not findings; the text and the page say why.
    path = tmp_path / 'r.html'
    status, out = run_cli(['sim', os.path.join(ROOT, 'examples', 'old_maid.pip'), '--games',
                           '6', '--players', '3', '--report', str(path)])
    text, page = out.decode(), path.read_text()
    assert status == 0
    assert '  no seat ever has a choice: the deal and the shuffles decide every game' in text
    assert 'length: mean' not in text and 'options per decision' not in text
    assert '<p>No seat ever has a choice: the deal and the shuffles decide' in page
    assert '<p>None: no seat ever has a choice.</p>' in page
    # its length, in the steps --max-steps counts: the win shares and that
    assert page.count('<img alt=') == 2 and 'game length in steps' in page
    assert re.search(r'  duration in steps: mean [\d.]+, median [\d.]+, sd [\d.]+, \d+\.\.\d+ ', text)
    assert '<td>duration (steps)</td><td>' in page
    assert 'Every game lasts' not in page
    # no thinking bot could lead: seating one is no advice, and the measures
    # of choices are no zeros
    assert 'no bot can think ahead' in page and '--seat 1=ismcts' not in page
    for name in ('duration (decisions)', 'duration (turns)', 'decision moves', 'branching'):
        assert '<td>%s</td><td>does not apply</td>' % name in page


@pytest.mark.parametrize('name', ['beggar_my_neighbour.pip', 'high_card.pip'])
def test_the_engines_count_a_games_steps_alike(name):
    steps = {}
    for engine in ('compiled', 'loop', 'reference'):
        status, out, _ = run_cli_split(['sim', os.path.join(ROOT, 'examples', name), '--games', '12',
                                        '--precision', '0', '--jobs', '1', '--engine', engine,
                                        '--json'])
        assert status == 0
        steps[engine] = json.loads(out)['duration']['steps']
    assert steps['compiled'] == steps['loop'] == steps['reference']
    assert steps['compiled']['min'] > 0


def test_a_game_stopped_at_its_step_limit_took_the_limit():
    status, out, _ = run_cli_split(['sim', os.path.join(ROOT, 'examples', 'beggar_my_neighbour.pip'),
                                    '--games', '5', '--precision', '0', '--jobs', '1',
                                    '--max-steps', '40', '--json'])
    s = json.loads(out)
    assert status == 0 and s['step_limit']['count'] == 5
    assert s['duration']['steps']['min'] == s['duration']['steps']['max'] == 40


def test_a_game_without_choices_has_no_skill_figure():
    status, out, _ = run_cli_split(['sim', os.path.join(ROOT, 'examples', 'old_maid.pip'), '--games',
                           '3', '--players', '3', '--seat', '1=ismcts:5', '--json'])
    report = json.loads(out)
    assert status == 0 and 'skill' not in report and 'depth' not in report
    assert report['thinking']['1']['decisions'] == 0


def test_a_game_with_choices_gets_no_such_sentence():
    status, out = run_cli(['sim', os.path.join(ROOT, 'examples', 'high_card.pip'), '--games',
                           '4', '--players', '2'])
    assert status == 0 and 'no seat ever has a choice' not in out.decode()
