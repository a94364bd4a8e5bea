"""Differential fuzzing of RECYCLE: generated programs (recycle_programs.py)
played by the VM, on the program the RECYCLE checker lowers, and by the
reference interpreter on RECYCLE's own syntax tree, with random seats: the
transcripts (errors included) are the same."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.recycle_programs import recycle_programs
from tests.util import run_cli


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=recycle_programs(), seed=st.integers(1, 1000))
def test_reference_matches_vm_on_generated_recycle(tmp_path, source, seed):
    path = tmp_path / 'fuzzed.recycle'
    path.write_text(source)
    argv = ['run', '--bots', 'random', '--seed', str(seed), str(path)]
    vm = run_cli(argv)
    if vm[1].startswith(b'Error: Line') and b'Welcome' not in vm[1]:
        return                  # the checker refused it: nothing to play
    assert run_cli(argv[:-1] + ['--engine', 'reference', str(path)]) == vm, source
