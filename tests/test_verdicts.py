"""`pipvm sim`: no figure a designer can misread, and reports that stop
when the answer is known (intervals valid however the run stopped)."""
import argparse
import json
import os
import random

import pytest

from pipvm.design import metrics, sim
from pipvm.play.seats import seating

from .util import DATA, run_cli, run_cli_split

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLIMB = os.path.join(DATA, 'design', 'climb.pip')
THREE_OF_SIX = os.path.join(DATA, 'bots', 'three_of_six.pip')
HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')


def sim_json(*argv):
    status, out, err = run_cli_split(['sim', *argv, '--json'])
    assert status == 0, err
    return json.loads(out)


def sim_json_and_text(*argv):
    """`pipvm sim ARGV`'s report as --json gives it, and its text as the
    command prints it (the same report's words: one run, not two;
    test_a_first_seat_advantage_through_0_is_marked_not_significant
    checks that the text is the command's)."""
    s = sim_json(*argv)
    return s, sim.format_report(s)


# --- figures resting on too few finished games ----------------------------------

def test_a_game_random_seats_never_finish_says_so_instead_of_a_balance():
    # Climb: random seats hit the step limit; before, "balance by seat: 1.000"
    # stood beside "fairness 0.00 0.00" with no word of why.
    argv = [CLIMB, '--games', '12', '--max-steps', '300', '--precision', '0', '--jobs', '1']
    s, text = sim_json_and_text(*argv)
    assert s['balance']['seats'] is None and s['balance']['finished'] == 0
    assert s['random_unfinished'] == {'games': 12, 'winners': 0, 'step_limit': 12}
    assert ('  random seats hardly ever finish this game: 0 of 12 games with every seat random '
            'had a winner (12 stopped at the step limit); seat a thinking bot (--skill) to '
            'measure the game with players that finish it\n') in text
    assert ('  balance, fairness and first-seat advantage not measured: 0 of those games had a '
            'winner, and they need 10\n') in text
    assert 'balance by seat' not in text and 'fairness 0.00' not in text


def test_when_random_seats_never_finish_the_verdict_rests_on_the_thinking_games():
    argv = [CLIMB, '--games', '12', '--max-steps', '300', '--seat', '1=mc:4', '--precision', '0',
            '--jobs', '1']
    s, text = sim_json_and_text(*argv)
    b = s['balance']
    assert b['from'] == 'every seat mc:4 (random seats hardly ever finish)'
    assert b['finished'] >= 10 and b['seats'] is not None
    assert s['random_unfinished']['winners'] == 0
    assert s['skill'][0]['random_share'] == 0.0
    assert '12 stopped at the step limit); the verdict rests on the thinking games\n' in text
    assert 'balance by seat: ' in text


def test_a_patience_measures_its_thinking_seat_and_no_balance():
    # Golf: one seat, which random play never solves.  There are no seats to
    # weigh against each other: no balance line, and the verdict is the
    # thinking seat's (that its games are not played twice: the test below)
    golf = os.path.join(ROOT, 'examples', 'golf.pip')
    s, text = sim_json_and_text(golf, '--games', '12', '--seat', '1=mc:1', '--precision', '0',
                                '--jobs', '1')
    assert s['balance'] == {'seats': None, 'teams': None, 'from': None}
    assert s['random_unfinished']['winners'] == 0 and len(s['skill']) == 1
    assert 'had a winner (0 stopped at the step limit); the verdict rests on the thinking games\n' in text
    assert 'balance' not in text and 'fairness' not in text
    # the score says how well it went: the cards cleared (0..35) as seated,
    # and the thinking seat's beside random play's in the same deals
    row, k = s['scores'][0], s['skill'][0]
    assert row['name'] == 'Ada' and 0 <= row['min'] <= row['mean'] <= row['max'] < 35
    assert k['score'] == row['mean'] and 0 <= k['random_score'] < 35
    assert 'score at the end: Ada mean %.1f (%d..%d)\n' % (row['mean'], row['min'], row['max']) in text
    assert '; score %.1f on average, %.1f under random play\n' % (k['score'], k['random_score']) in text


def test_a_game_that_keeps_no_score_shows_none():
    # Agram never sets a score: no line of zeros; Three of Six adds ranks
    agram = os.path.join(ROOT, 'examples', 'agram.pip')
    s, text = sim_json_and_text(agram, '--games', '6', '--precision', '0')
    assert s['scores'] == [] and 'score at the end' not in text
    s, text = sim_json_and_text(THREE_OF_SIX, '--games', '6', '--precision', '0')
    assert [row['seat'] for row in s['scores']] == [1, 2] and 'score at the end: Ada mean ' in text


def test_games_with_every_seat_thinking_are_not_played_again():
    # when random seats hardly ever finish, balance comes from a series with
    # every seat the thinking bot, added unless the seats as given are that
    # already: a patience's one seat, or every seat given the same bot
    unfinished = [argparse.Namespace(ending='no winner')] * 12
    for players, seats, added in ((1, ['1=mc:1'], False), (2, ['1=mc:1'], True),
                                  (2, ['1=mc:1', '2=mc:1'], False)):
        seated = seating('random', seats, players)
        series = [('seated', seated), ('random', None)]
        variant = argparse.Namespace(seating=seated, thinking=[0])
        assert sim._add_thinking(series, {'seated': [], 'random': unfinished}, variant) is added
        assert len(series) == 2 + added


def test_a_few_finished_games_are_too_few_for_a_balance():
    # Three of Six always has a winner, but 6 games are too few to weigh seats by.
    s = sim_json(THREE_OF_SIX, '--games', '6', '--precision', '0')
    assert s['balance']['finished'] == 6 and s['balance']['seats'] is None
    assert 'random_unfinished' not in s
    assert sim_json(THREE_OF_SIX, '--games', '10', '--precision', '0')['balance']['seats']


# --- intervals through 0 ----------------------------------------------------------

def test_an_interval_that_reaches_0_as_printed_is_not_significant():
    # "+50.0% (+0.0% to +81.2%)" was called significant: its low end was 0.0004.
    assert not metrics.excludes_zero([0.0004, 0.812])
    assert not metrics.excludes_zero([-0.3, -0.0004])
    assert metrics.excludes_zero([0.0005, 0.812]) and metrics.excludes_zero([-0.3, -0.0006])
    k = {'gap': 0.5, 'gap_ci95': [0.0004, 0.812],
         'significant': metrics.excludes_zero([0.0004, 0.812])}
    assert sim.gap_words(k) == 'gap +50.0% (+0.0% to +81.2%), not significant'


def test_a_first_seat_advantage_through_0_is_marked_not_significant():
    s = sim_json(HIGH_CARD, '--players', '3', '--games', '60', '--precision', '0')
    seats = s['balance']['seats']
    lo, hi = seats['first_advantage_ci95']
    assert seats['first_significant'] == metrics.excludes_zero([lo, hi])
    text = run_cli(['sim', HIGH_CARD, '--players', '3', '--games', '60', '--precision', '0'])[1]
    assert (', not significant' in text.decode().split('first seat advantage')[1].split('\n')[0]
            ) == (not seats['first_significant'])
    assert sim.SEQUENCES not in text.decode()           # fixed-n intervals
    # sim_json_and_text's premise: the text is the JSON's report in words (but the clock's line)
    assert text.decode('latin-1').splitlines()[:-1] == sim.format_report(s).splitlines()[:-1]


# --- --rotate ---------------------------------------------------------------------

def test_under_rotate_the_table_says_what_it_counts_and_shows_the_bots_row():
    argv = [THREE_OF_SIX, '--games', '12', '--seat', '2=mc:2', '--rotate', '--precision', '0']
    s, text = sim_json_and_text(*argv)
    (k,) = s['skill']
    assert ('  (--rotate: the rows count the seats of the table; the bots given by --seat moved '
            'round it game by game)\n') in text
    lo, hi = k['ci95']
    assert '  bot of seat 2, mc:2: won %d (%s, %s - %s) wherever it sat\n' % (
        k['wins'], sim.percent(k['share']), sim.percent(lo), sim.percent(hi)) in text
    assert '(--rotate' not in run_cli(['sim', *argv[:-3], '--precision', '0'])[1].decode()


# --- progress counts each series apart ---------------------------------------------

def args_for(path, **options):
    args = argparse.Namespace(file=path, engine='vm', max_steps=100000, cluster=None, skill=None,
                              depth=None, think_all=False, rotate=False, seed=1, jobs=1,
                              games=5, precision=0)
    args.__dict__.update(options)
    return args


def test_progress_counts_each_series_apart():
    # --games 5 with a thinking seat used to read "4/10 games" for the
    # random baseline's games added to the others.
    args = args_for(THREE_OF_SIX)
    calls = []
    sim.play(args, sim.prepare(args, seating('random', ['1=mc:2'])),
             lambda counts, decisions=0: calls.append(counts))
    assert calls[-1] == [('as seated', 5, 5), ('every seat random', 5, 5)]
    assert all(most == 5 and 0 <= done <= 5 for counts in calls for _, done, most in counts)
    assert any(counts[0][1] < 5 for counts in calls)          # counted as they came


# --- reports that stop when the answer is known ------------------------------------

def coin_runs(p, runs, stop, most, rng):
    """How many of `runs` runs of coin flips (heads with chance p) ended
    with an interval that missed p, each run looking after every 5 flips
    and stopping when stop(interval, p) or after `most` flips."""
    missed = 0
    for _ in range(runs):
        cs = metrics.ConfidenceSequence(0.2)
        while len(cs.seen) < most:
            cs.extend(rng.random() < p for _ in range(5))
            if stop(cs.interval(), p):
                break
        lo, hi = cs.interval()
        missed += not lo <= p <= hi
    return missed


@pytest.fixture
def coarse(monkeypatch):
    monkeypatch.setattr(metrics, 'GRID', 200)     # fast; the interval is widened by a step


def test_confidence_sequences_keep_their_coverage_when_the_run_stops_as_it_likes(coarse):
    rng = random.Random(59)
    # As the report stops: once the interval is narrower than 0.2.
    narrow = lambda ci, p: ci[1] - ci[0] < 0.2          # noqa: E731
    for p in (0.1, 0.5, 0.75):
        assert coin_runs(p, 60, narrow, 400, rng) <= 3      # 95%: at most 5% of 60
    # The worst stopping rule there is: stop the moment the interval misses
    # the truth.  A fixed-n 95% interval looked at every 5 flips fails so in
    # far more than 5% of the runs; the confidence sequence does not.
    spiteful = lambda ci, p: not ci[0] <= p <= ci[1]     # noqa: E731
    assert coin_runs(0.5, 60, spiteful, 300, rng) <= 3
    wilson_missed = 0
    for _ in range(60):
        heads = n = 0
        while n < 300:
            heads += sum(rng.random() < 0.5 for _ in range(5))
            n += 5
            lo, hi = metrics.wilson_bounds(heads, n)
            if not lo <= 0.5 <= hi:
                wilson_missed += 1
                break
    assert wilson_missed > 10                           # the test can tell the two apart


# Seat 4's wins in Nap (4 random seats, seeds 1..150): none in the first 30.
EARLY_RUN = ('000000000000000000000000000000101010000000010010010010001010'
             '001101000000010110000000110000001000000010000001100001000100'
             '110001001010011001001000000100')


def interval_after(outcomes, monkeypatch, gone):
    monkeypatch.setattr(metrics, 'GONE', gone)
    cs = metrics.ConfidenceSequence(0.2)
    cs.extend(outcomes)
    return cs.interval()


def test_an_early_run_of_games_does_not_shut_out_their_own_share(monkeypatch):
    outcomes = [int(c) for c in EARLY_RUN]
    share = sum(outcomes) / len(outcomes)
    assert share == 0.22
    # The running intersection alone (GONE 1: a mean out is gone) shut 22%
    # out for good, and the report printed 22.0% beside 7.4% - 21.0%.
    lo, hi = interval_after(outcomes, monkeypatch, 1)
    assert hi < share
    lo, hi = interval_after(outcomes, monkeypatch, 20)
    assert lo <= share <= hi


def test_the_interval_holds_all_the_intersection_holds(monkeypatch, coarse):
    # So it keeps the intersection's coverage; and where the games' mean
    # lies inside the intersection, it is the intersection.
    rng = random.Random(11)
    for run in range(30):
        p = rng.choice((0.1, 0.25, 0.5))
        outcomes = [rng.random() < p for _ in range(rng.randrange(1, 200))]
        lo0, hi0 = interval_after(outcomes, monkeypatch, 1)
        lo, hi = interval_after(outcomes, monkeypatch, 20)
        assert lo <= lo0 and hi0 <= hi
        if lo0 <= sum(outcomes) / len(outcomes) <= hi0:
            assert (lo, hi) == (lo0, hi0)


def test_a_gap_sequence_holds_the_true_difference(coarse):
    rng = random.Random(7)
    iv = sim.Intervals(0.3)
    missed = 0
    for run in range(40):
        mine = [rng.random() < 0.7 for _ in range(150)]
        theirs = [rng.random() < 0.4 for _ in range(150)]
        lo, hi = iv.gap(('gap', run), mine, theirs)
        missed += not lo <= 0.3 <= hi
    assert missed <= 2


def test_a_report_stops_once_every_interval_it_reads_is_narrow_and_says_so():
    s = sim_json(HIGH_CARD, '--players', '3', '--games', '1000', '--jobs', '1')
    st = s['stopping']
    assert st['reason'] == 'precision' and st['precision'] == 0.2 and st['most'] == 1000
    assert 100 < s['games'] < 1000
    assert all(hi - lo < 0.2 for lo, hi in (r['ci95'] for r in s['seats']))
    assert st['width'] == pytest.approx(max(r['ci95'][1] - r['ci95'][0] for r in s['seats']))
    # The intervals are the confidence sequences of the games in seed order.
    seat1 = s['seats'][0]
    assert seat1['ci95'] != metrics.wilson(seat1['wins'], s['games'])
    text = run_cli(['sim', HIGH_CARD, '--players', '3', '--games', '1000', '--jobs', '1'])[1]
    assert ('  stopped after %d games (at most 1000): every interval the verdict reads is '
            'narrower than 20.0%%; the widest, ' % s['games']) in text.decode()
    # and says they are sequences: equal shares side by side may differ
    assert '\n  %s\n' % sim.SEQUENCES in text.decode()
    # the same report whatever the number of jobs
    two = sim_json(HIGH_CARD, '--players', '3', '--games', '1000', '--jobs', '2')
    assert {k: v for k, v in two.items() if k != 'timing'} == {
        k: v for k, v in s.items() if k != 'timing'}


def test_a_thinking_report_stops_on_the_skill_gap_too():
    s = sim_json(THREE_OF_SIX, '--seat', '1=ismcts:10', '--games', '400', '--precision', '0.35',
                 '--jobs', '1')
    (k,) = s['skill']
    assert s['stopping']['reason'] == 'precision' and s['games'] < 400
    assert k['gap_ci95'][1] - k['gap_ci95'][0] < 0.35 and k['significant']


def test_precision_is_a_width_from_0_up_to_1():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, '-m', 'pipvm', 'sim', HIGH_CARD, '--precision', '2'],
                          capture_output=True, timeout=60)
    assert done.returncode == 2 and done.stderr.endswith(
        b"argument --precision: expected a width from 0 up to 1, not '2'\n")


def test_the_help_names_precision_and_its_default():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, '-m', 'pipvm', 'sim', '--help'], capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    words = ' '.join(done.stdout.decode().split())
    assert ('--precision W stop once every 95% interval the verdict reads (win shares, skill '
            'gaps) is narrower than W; default: 0.2; 0: play all --games') in words
    assert "default: the machine's cores, for games long enough to pay for them" in words


def test_jobs_default_to_the_cores_where_processes_pay():
    # Three of Six with a thinking seat: seconds of games, every core.
    s = sim_json(THREE_OF_SIX, '--seat', '1=mc:10', '--games', '60', '--precision', '0')
    assert s['timing']['jobs'] == sim.default_jobs() == len(os.sched_getaffinity(0))
    # 40 games of High Card: a few hundredths of a second, less than a process costs.
    assert sim_json(HIGH_CARD, '--players', '3', '--games', '40')['timing']['jobs'] == 1
    assert sim_json(HIGH_CARD, '--players', '3', '--games', '40', '--jobs', '2')['timing'][
        'jobs'] == 2
