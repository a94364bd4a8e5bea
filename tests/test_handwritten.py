"""The hand-written Crazy Eights of benchmarks/ plays the same game as the
Pip program, so the VM's throughput as a ratio of it keeps its meaning."""
import json
import os
import sys

from .util import DATA, run_cli, run_cli_split

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                'benchmarks'))
import handwritten                                          # noqa: E402
import handwritten_crazy_eights                             # noqa: E402

# Seeds are fixed on both sides, so this passes or fails the same every run.
# A change to the game shows as several standard errors: leaving out the
# eights, or offering "Draw" as two options, or never passing the turn.
TOLERANCE = 3.0


def test_statistics_agree_with_pipvm_sim():
    status, out, _ = run_cli_split(['sim', os.path.join(DATA, 'full', 'crazy_eights.pip'),
                           '--games', '300', '--json'])
    assert status == 0, out
    report = json.loads(out)
    assert report['step_limit']['count'] == report['errors']['count'] == 0
    vm = handwritten.from_report(report)
    hw = handwritten.stats(handwritten_crazy_eights.simulate(3000))
    rows = handwritten.compare(vm, hw)
    assert [what for what, *_ in rows] == ['mean decisions', 'branching',
                                           'seat 1 wins', 'seat 2 wins']
    assert all(abs(z) < TOLERANCE for *_, z in rows), handwritten.format_comparison(rows)

