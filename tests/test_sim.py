"""`pipvm sim`: results independent of --jobs, step limits, errors and their replay."""
import glob
import json
import os
import shlex

import pytest

from pipvm.play import loader
from pipvm.design import sim
from pipvm.play.seats import Seating, parse_kind

from .util import DATA, run_cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = sorted(glob.glob(os.path.join(ROOT, 'examples', '*.pip'))
               + glob.glob(os.path.join(DATA, 'full', '*.pip')))


def sim_json(*argv):
    status, out = run_cli(['sim', *argv, '--json'])
    assert status == 0, out
    return json.loads(out)


def without_timing(report):
    return {k: v for k, v in report.items() if k != 'timing'}


@pytest.mark.parametrize('path', GAMES, ids=lambda p: os.path.basename(os.path.dirname(p))
                         + '/' + os.path.basename(p))
def test_same_results_whatever_the_number_of_jobs(path):
    one = sim_json(path, '--games', '6', '--seed', '11', '--jobs', '1', '--max-steps', '20000')
    two = sim_json(path, '--games', '6', '--seed', '11', '--jobs', '2', '--max-steps', '20000')
    assert without_timing(one) == without_timing(two)
    assert one['timing']['jobs'] == 1 and two['timing']['jobs'] == 2
    ended = (sum(s['wins'] for s in one['seats']) + sum(w['wins'] for w in one['other_winners'])
             + one['no_winner'] + one['step_limit']['count'] + one['errors']['count'])
    assert one['games'] == 6 and (ended == 6 or one['teams'])
    if one['teams']:
        assert sum(t['wins'] for t in one['teams']) + one['no_winner'] + one['step_limit'][
            'count'] + one['errors']['count'] == 6


def test_each_game_is_a_function_of_its_seed():
    # Games 3..5 of a run from seed 1 are the games of a run from seed 3.
    path = os.path.join(ROOT, 'examples', 'three_hearts.pip')
    program, engine = loader.load_engine(path)
    seating = sim.sim_seating(program, Seating(default=parse_kind('random')))
    whole, _ = sim.simulate(engine, seating, list(range(1, 6)))
    tail, _ = sim.simulate(engine, seating, list(range(3, 6)), jobs=2)
    assert whole[2:] == tail
    assert len({r.options for r in whole}) > 1          # the games do differ


RUNAWAY = '''Game "Runaway" requires 2 players.
Number n = 0.
Action main {
  forever { n += 1. }
}
'''


def test_a_runaway_game_stops_at_max_steps_and_is_reported(tmp_path):
    path = tmp_path / 'runaway.pip'
    path.write_text(RUNAWAY)
    report = sim_json(str(path), '--games', '3', '--seed', '5', '--max-steps', '500')
    assert report['step_limit']['count'] == 3 and report['step_limit']['first_seed'] == 5
    replay = shlex.split(report['step_limit']['replay'])
    assert replay == ['pipvm', 'run', str(path), '--seed', '5', '--bots', 'random',
                      '--players', '2', '--max-steps', '500']
    status, out = run_cli(replay[1:])
    assert status == 1
    assert out.endswith(b'Error: the game was stopped after 500 steps (--max-steps)\n')
    text = run_cli(['sim', str(path), '--games', '2', '--max-steps', '500'])[1].decode()
    assert 'stopped at 500 steps: 2' in text and 'first stopped: seed 1' in text


FRAGILE = '''Game "Fragile" requires 2 players.
Action main {
  let p be players->first.
  ask p {
    "Win" { winner p. }
    "Break" { let c be p->hand->top. }
  }
}
'''


def test_errors_give_the_first_failing_seed_and_a_command_that_replays_it(tmp_path):
    path = tmp_path / 'fragile.pip'
    path.write_text(FRAGILE)
    report = sim_json(str(path), '--games', '40', '--seed', '100')
    errors = report['errors']
    assert 0 < errors['count'] < 40 and errors['count'] + report['seats'][0]['wins'] == 40
    assert errors['message'] == "Error: Line 6, Col 33: Can't get item from empty list"
    status, out = run_cli(shlex.split(errors['replay'])[1:])
    assert status == 1 and out.endswith((errors['message'] + '\n').encode())
    # ...and no earlier seed fails: it is the first.
    for seed in range(100, errors['first_seed']):
        assert run_cli(['run', str(path), '--seed', str(seed), '--bots', 'random',
                        '--players', '2'])[0] == 0


def test_the_text_report():
    path = os.path.join(ROOT, 'examples', 'high_card.pip')
    status, out = run_cli(['sim', path, '--games', '30', '--players', '3', '--seat', '2=first'])
    text = out.decode()
    assert status == 0
    assert text.startswith('High Card: 30 games (seeds 1..30), 3 players, '
                           '--bots random --players 3 --seat 2=first\n')
    assert '  seat 2  Ben ' in text and 'length: mean 15.0 decisions, median 15' in text
    assert 'games/s (1 job)' in text


def test_wilson_interval():
    assert sim.wilson(5, 10) == [0.2366, 0.7634]
    assert sim.wilson(0, 10) == [0.0, 0.2775]
    assert sim.wilson(10, 10) == [0.7225, 1.0]


def test_sim_seats_must_be_bots():
    path = os.path.join(ROOT, 'examples', 'high_card.pip')
    assert run_cli(['sim', path, '--seat', '1=human']) == (
        1, b"Error: sim seats must be bots (random, first, mc[:N] or ismcts[:N]), not 'human'\n")


def test_a_dead_worker_is_one_clear_error():
    def dies(table, rng):
        os._exit(3)
    program = loader.load_program(os.path.join(ROOT, 'examples', 'high_card.pip'))
    seating = sim.sim_seating(program, Seating(default=parse_kind('random')))
    with pytest.raises(sim.PipError, match='a simulation process stopped unexpectedly'):
        sim.simulate(dies, seating, list(range(10)), jobs=2)


def test_progress_bar_redraws_in_place_and_clears():
    import io
    stream = io.StringIO()
    bar = sim.Progress(40, stream)
    bar(10)                 # too soon after the start: not drawn
    bar(40)                 # the last one always is
    bar.clear()
    text = stream.getvalue()
    assert '\r[' + '#' * 30 + '] 40/40 games' in text and '10/40' not in text
    assert text.endswith('\r')
