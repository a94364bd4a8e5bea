"""Ctrl-C in `pipvm sim` and `pipvm sweep` stops the games, never the report
of the games played (pipvm/design/interrupts.py)."""
import io
import json
import os
import signal

import pytest

from pipvm import cli
from pipvm.design import interrupts, sim, sweep

from .test_sim import ROOT, sim_json, without_timing

HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')


def _press():
    os.kill(os.getpid(), signal.SIGINT)


def _press_at_first_summary(monkeypatch):
    """Press the key as sim first summarises a round; the calls so far
    (clear them to press again)."""
    summarise, calls = sim.summarise, []

    def pressed_now(*a, **k):
        calls.append(1)
        if len(calls) == 1:
            _press()
        return summarise(*a, **k)
    monkeypatch.setattr(sim, 'summarise', pressed_now)
    return calls


def test_held_notes_the_key_and_heard_raises():
    with interrupts.held():
        _press()
        assert interrupts.pressed()
        with pytest.raises(KeyboardInterrupt):
            with interrupts.heard():
                _press()
        with pytest.raises(KeyboardInterrupt):   # a second press is heard
            _press()
    assert signal.getsignal(signal.SIGINT) is not interrupts._hold


@pytest.mark.parametrize('module', [sim, sweep])
def test_ctrl_c_while_a_round_is_summarised_ends_the_run_with_its_report(
        module, monkeypatch, capsys):
    """The key pressed as the first round (20 games) is summarised, outside any
    game: the run stops there, and the report of those games is written."""
    _press_at_first_summary(monkeypatch)
    argv = [HIGH_CARD, '--seed', '5', '--json', '--jobs', '1']
    if module is sweep:
        argv += ['--vary', 'rounds=3,5']
    status = cli.main([module.__name__.rsplit('.', 1)[1], *argv])
    report = json.loads(capsys.readouterr().out)
    assert status == 130
    if module is sweep:
        assert len(report['variants']) == 1
        report = report['variants'][0]['report']
    assert report['interrupted'] and report['games'] == sim.FIRST_ROUND
    first = ['--set', 'rounds=3'] if module is sweep else []     # the sweep's first variant
    same = sim_json(HIGH_CARD, '--seed', '5', '--games', str(sim.FIRST_ROUND), *first)
    assert without_timing(report) == dict(
        without_timing(same), interrupted=True,
        stopping=dict(same['stopping'], reason='interrupted', most=report['stopping']['most'],
                      precision=report['stopping']['precision']))


def test_ctrl_c_as_a_variant_ends_stops_the_sweep_before_the_next(monkeypatch, capsys):
    """Pressed at the first variant's last summary (its 20 games are all it
    plays), the key is held; the next variant is not begun, so the table has
    no row of 0 games, and says how many variants were played."""
    calls = _press_at_first_summary(monkeypatch)
    argv = ['sweep', HIGH_CARD, '--seed', '5', '--games', str(sim.FIRST_ROUND), '--jobs', '1',
            '--vary', 'rounds=3,5,7']
    assert cli.main(argv + ['--json']) == 130
    report = json.loads(capsys.readouterr().out)
    assert report['interrupted'] and report['variants_planned'] == 3
    (row,) = report['variants']
    assert row['report']['games'] == sim.FIRST_ROUND and not row['report'].get('interrupted')
    calls.clear()
    assert cli.main(argv) == 130
    assert capsys.readouterr().out.splitlines()[-1] == '  interrupted: 1 of 3 variants played'
