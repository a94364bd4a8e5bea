"""`pipvm sim --cluster`: a real Dask scheduler and two workers on 127.0.0.1,
started with the Dask command line as a user would (beside sys.executable,
never from the PATH).  The reports must be the ones `--jobs 1` gives, also
when a worker is killed in the middle of a run."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from .test_sim import ROOT, sim_json, without_timing
from .util import run_cli, run_cli_split, without_progress

EXAMPLES = os.path.join(ROOT, 'examples')
START_SECONDS = 60


def _start(tmp, name, *argv):
    log = open(os.path.join(tmp, name + '.log'), 'wb')
    return subprocess.Popen([sys.executable, '-m', *argv], cwd=tmp, stdout=log,
                            stderr=subprocess.STDOUT)


def _wait_for(what, check, seconds=START_SECONDS):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError('timed out waiting for ' + what)


class Cluster:
    def __init__(self, tmp):
        self.tmp, self.procs = tmp, []
        info = os.path.join(tmp, 'scheduler.json')
        self.procs.append(_start(tmp, 'scheduler', 'distributed.cli.dask_scheduler',
                                 '--host', '127.0.0.1', '--port', '0', '--no-dashboard',
                                 '--scheduler-file', info))
        _wait_for('the scheduler', lambda: os.path.exists(info) and os.path.getsize(info))
        with open(info) as f:
            self.address = json.load(f)['address']
        self.workers = [self.add_worker(n) for n in (1, 2)]
        from distributed import Client
        self.client = Client(self.address, timeout=START_SECONDS, set_as_default=False)
        self.client.wait_for_workers(2, timeout=START_SECONDS)
        self.address_of = {pid: addr for addr, pid in self.client.run(os.getpid).items()}

    def add_worker(self, n):
        # --no-nanny: the worker is this process, so killing it kills the worker.
        p = _start(self.tmp, 'worker%d' % n, 'distributed.cli.dask_worker', self.address,
                   '--host', '127.0.0.1', '--nthreads', '1', '--no-nanny', '--no-dashboard',
                   '--local-directory', self.tmp)
        self.procs.append(p)
        return p

    def busy(self, worker):
        """Is this worker process playing a chunk now?"""
        return bool(self.client.processing().get(self.address_of[worker.pid]))

    def stop(self):
        self.client.close()
        for p in reversed(self.procs):
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


@pytest.fixture(scope='module')
def cluster(tmp_path_factory):
    c = Cluster(str(tmp_path_factory.mktemp('dask')))
    yield c
    c.stop()


def sim_process(cluster, argv):
    return subprocess.Popen([sys.executable, '-m', 'pipvm', 'sim', *argv, '--json',
                             '--cluster', cluster.address],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)


@pytest.mark.parametrize('argv', [
    ['examples/three_hearts.pip', '--games', '120', '--seed', '5'],
    ['examples/euchre.pip', '--games', '12', '--seat', '3=first'],
    ['examples/high_card.pip', '--games', '40', '--players', '3', '--set', 'rounds=2'],
], ids=['three_hearts', 'euchre-teams', 'high_card-set'])
def test_the_cluster_report_is_the_one_jobs_1_gives(cluster, argv):
    p = sim_process(cluster, argv)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0 and without_progress(err) == b'', err
    report = json.loads(out)
    assert without_timing(report) == without_timing(sim_json(*argv, '--jobs', '1'))
    assert report['timing']['cluster'] == cluster.address and report['timing']['workers'] == 2


def test_thinking_stats_come_back_from_the_workers(cluster):
    # Seat 2's bot thinks at each of its 3 plays of Three of Six, whichever
    # seat --rotate gives it; the depth series and the baseline are played there too.
    argv = ['tests/data/bots/three_of_six.pip', '--games', '12', '--seat', '2=ismcts:4',
            '--rotate', '--depth', '2']
    p = sim_process(cluster, argv)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0 and without_progress(err) == b'', err
    report = json.loads(out)
    assert without_timing(report) == without_timing(sim_json(*argv, '--jobs', '1'))
    assert report['thinking']['2']['decisions'] == 36 and report['thinking']['2']['seconds'] > 0
    assert [d['iterations'] for d in report['depth']] == [2] and report['depth'][0]['decisions'] == 36


def test_errors_and_step_limits_come_back_with_their_replay(cluster, tmp_path):
    from .test_sim import FRAGILE, RUNAWAY
    for text in (FRAGILE, RUNAWAY):
        path = tmp_path / 'g.pip'
        path.write_text(text)
        argv = [str(path), '--games', '8', '--max-steps', '300']
        p = sim_process(cluster, argv)
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        assert without_timing(json.loads(out)) == without_timing(sim_json(*argv))


def test_a_sweep_on_the_cluster_is_the_sweep_at_home(cluster):
    argv = ['sweep', 'examples/high_card.pip', '--vary', 'rounds=1,3', '--games', '30', '--json']
    p = subprocess.run([sys.executable, '-m', 'pipvm', *argv, '--cluster', cluster.address],
                       capture_output=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    there, home = json.loads(p.stdout), json.loads(run_cli_split(argv)[1])
    for a, b in zip(there['variants'], home['variants'], strict=True):
        assert a['metrics'] == b['metrics']
        assert without_timing(a['report']) == without_timing(b['report'])


def test_a_task_is_plain_data_both_ways_and_the_bytes_are_validated():
    from pipvm.design import cluster, sim
    from pipvm.play import loader
    from pipvm.isa import pipc
    from pipvm.core.errors import PipError
    from pipvm.play.seats import seating
    program = loader.load_program(os.path.join(EXAMPLES, 'three_hearts.pip'))
    data, words = pipc.dump(program), ['--bots', 'random', '--players', '3']
    reply = cluster.play_chunk(data, words, 1000, 4, 3)
    assert json.loads(json.dumps(reply)) == reply
    local, _ = sim.simulate(loader.vm_engine(program, 1000),
                            sim.sim_seating(program, seating('random', (), 3)), [4, 5, 6])
    assert cluster._results(reply, [4, 5, 6]) == local
    with pytest.raises(PipError, match='malformed result for seeds 4..7'):
        cluster._results(reply, [4, 5, 6, 7])
    flipped = data[:-1] + bytes([data[-1] ^ 1])
    assert cluster.play_chunk(flipped, words, 1000, 4, 3) == {
        'error': 'Error: the program sent to this worker: corrupt (checksum mismatch)'}
    assert cluster.play_chunk(data, ['--bots', 'human'], 1000, 4, 3) == {
        'error': "Error: sim seats must be bots (random, first, mc[:N] or ismcts[:N]), not 'human'"}


def test_without_dask_one_line_says_what_to_install(tmp_path):
    fake = tmp_path / 'distributed'
    fake.mkdir()
    (fake / '__init__.py').write_text("raise ImportError('no dask here')\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    p = subprocess.run([sys.executable, '-m', 'pipvm', 'sim', 'examples/high_card.pip',
                        '--cluster', 'tcp://127.0.0.1:1'], capture_output=True, env=env, cwd=ROOT)
    assert (p.returncode, p.stdout, p.stderr) == (
        1, b'', b"Error: --cluster needs Dask: pip install 'pipvm[cluster]'\n")


def test_bad_addresses_are_one_line(cluster):
    for address, message in (('nonsense', 'not a scheduler address'),
                             ('tcp://127.0.0.1:1', 'cannot reach the Dask scheduler')):
        p = subprocess.run([sys.executable, '-m', 'pipvm', 'sim', 'examples/high_card.pip',
                            '--cluster', address], capture_output=True, cwd=ROOT, timeout=60)
        assert p.returncode == 1 and p.stdout == b''
        assert p.stderr.startswith(b'Error: ') and message.encode() in p.stderr
        assert p.stderr.count(b'\n') == 1, p.stderr


# Every game played (--precision 0): these tests are about games lost or kept, and
# the default stops once the answer is known, long before 600.
ARGV = ['examples/three_hearts.pip', '--games', '600', '--seed', '3', '--precision', '0']


def test_ctrl_c_reports_the_games_finished_so_far(cluster):
    # A game takes about a millisecond: 600 could all be over before the key is
    # pressed (the report is then whole, and exit 0), so this run is far longer.
    argv = ARGV[:2] + ['60000'] + ARGV[3:]
    p = sim_process(cluster, argv)
    # A few chunks done (the first among them, as a rule), and time to hear of them.
    _wait_for('chunks to finish', lambda: sum(map(len, cluster.client.has_what().values())) >= 4)
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, err
    report = json.loads(out)
    assert report['interrupted'] and report['games'] < 60000
    if report['games']:         # a prefix of the seeds, as --jobs 1 plays them
        same = sim_json(ARGV[0], '--games', str(report['games']), '--seed', '3', '--precision', '0')
        stopped = dict(same['stopping'], reason='interrupted', most=60000)
        assert without_timing(report) == dict(without_timing(same), interrupted=True,
                                              stopping=stopped)


def test_a_worker_killed_mid_run_loses_no_games(cluster):
    """Last in this module: it leaves one worker."""
    p = sim_process(cluster, ARGV)
    victim = cluster.workers[0]
    _wait_for('the victim to play', lambda: cluster.busy(victim))
    victim.kill()
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0, err
    report = json.loads(out)
    assert report['games'] == 600
    assert without_timing(report) == without_timing(sim_json(*ARGV, '--jobs', '1'))
