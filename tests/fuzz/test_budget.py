"""The fuzz seed alone decides what the properties draw (budget.seed_alone)."""
import importlib
import sys

from hypothesis import HealthCheck, Phase, given, seed, settings

from tests.fuzz import budget
from tests.fuzz.programs import cases


def drawn(n):
    """The first n cases drawn at seed 1, with the fuzz properties' settings."""
    out = []

    @seed(1)
    @settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(cases())
    def collect(case):
        out.append((case.source, case.seed, case.answers))
    collect()
    return out


def test_a_module_loaded_between_two_runs_changes_no_draw(tmp_path, monkeypatch):
    # A project module first imported by some other test (or edited) brings
    # its literals; Hypothesis's own would then draw some of them instead.
    before = drawn(25)
    (tmp_path / 'late_module.py').write_text(
        'LITERALS = %r\n' % ([n for n in range(-40, 300)] + ['x%d' % n for n in range(200)]))
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module('late_module')
    try:
        assert drawn(25) == before
    finally:
        del sys.modules['late_module']


def test_importing_the_budget_turns_the_literals_off():
    from hypothesis.internal.conjecture import providers
    assert budget.SEED is not None      # (the fuzz properties' settings are imported)
    if hasattr(providers, '_get_local_constants'):
        assert not any(providers._get_local_constants().set_for_type(t)
                       for t in ('integer', 'float', 'bytes', 'string'))
