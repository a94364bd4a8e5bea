"""`pipvm sim --cluster ADDRESS`: games played by the workers of a running
Dask distributed scheduler (`pip install 'pipvm[cluster]'`).

Only plain data travels.  Each task is a call of this module's play_chunk,
which Dask names by reference (pipvm is installed on every worker), with the
variant's .pipc bytes, the seating as its command-line words and ints; each
worker validates the bytes with pipc.load, exactly as it would a file, before
playing.  The answer is a list of ints and strings per game.  A worker that
dies mid-run loses nothing: the scheduler runs its chunks again elsewhere,
and the results are kept by chunk, so each seed counts once and the report
is the one `--jobs 1` gives.
"""
import atexit
import hashlib

import attrs

from pipvm.play import loader, seats
from pipvm.engine import engines
from pipvm.isa import pipc
from pipvm.design import playing
from pipvm.core.deepstack import deep
from pipvm.core.errors import PipError

CONNECT_SECONDS = 5            # to reach the scheduler
WORKER_SECONDS = 30            # for a first worker to join it
CHUNK_GAMES = 100              # at most, per task: a task costs a few ms of Dask's time
_clients = {}                  # address -> Client, in the process that runs pipvm
_images = {}                   # on a worker: (digest, max_steps, seats, engine) -> (factory, seating)


def play_chunk(data, seating_words, max_steps, first_seed, count, rotate=False,
               engine=engines.DEFAULT):
    """Play seeds first_seed.. first_seed+count-1 (with rotate, the seating
    turned as playing.play_one does) on the VM engine named (engines.COMPILED
    or LOOP): {'games': [Result fields as a list, per game]}, or {'error':
    the Error: line} if the program is refused."""
    key = (hashlib.sha256(data).hexdigest(), max_steps, tuple(seating_words), engine)
    try:
        if key not in _images:
            if engines.named(engine) == engines.REFERENCE:
                raise ValueError('the reference engine runs sources, not bytecode')
            program = pipc.load(data, 'the program sent to this worker')
            seating = playing.sim_seating(program, seats.from_options(seating_words))
            if len(_images) > 16:
                _images.clear()
            _images[key] = (loader.vm_engine(program, max_steps, engine=engine), seating)
        factory, seating = _images[key]
    except PipError as e:
        return {'error': str(e)}
    except ValueError as e:             # an engine no worker plays
        return {'error': 'Error: --engine %s: %s' % (engine, e)}
    seeds = range(first_seed, first_seed + count)
    games = deep(lambda: [playing.play_one(factory, seating, s, rotate) for s in seeds])
    return {'games': [list(attrs.astuple(r)) for r in games]}


def _results(reply, seeds):
    """The Results in a worker's reply, which must be one per seed of its chunk."""
    try:
        games = [playing.Result(*row) for row in reply['games']]
    except (KeyError, TypeError):
        games = None
    if games is None or [r.seed for r in games] != list(seeds):
        raise PipError(None, 'a cluster worker sent a malformed result for seeds %d..%d'
                       % (seeds[0], seeds[-1]))
    return games


def _first_line(e):
    text = str(e)
    return text.splitlines()[0] if text else type(e).__name__


def connect(address):
    """A Client of the scheduler at address with at least one worker: one per
    address for the whole process (a sweep plays its variants through it)."""
    client = _clients.get(address)
    if client is not None and client.status == 'running':
        return client
    try:
        import distributed
    except ImportError:
        raise PipError(None, "--cluster needs Dask: pip install 'pipvm[cluster]'") from None
    from distributed.comm import parse_address, registry
    from distributed.comm.addressing import parse_host_port
    try:                       # before Client: a half-made one hangs as it is collected
        scheme, location = parse_address(address)
        parse_host_port(location)
        if scheme not in registry.backends:
            raise ValueError('unknown protocol %r' % scheme)
    except ValueError as e:
        raise PipError(None, '--cluster %s: not a scheduler address (%s)' % (address, e)) from None
    try:
        client = distributed.Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except Exception as e:
        raise PipError(None, 'cannot reach the Dask scheduler at %s (%s)'
                       % (address, _first_line(e))) from None
    try:
        client.wait_for_workers(1, timeout=WORKER_SECONDS)
    except Exception:
        client.close()
        raise PipError(None, 'no Dask worker joined the scheduler at %s within %d s'
                       % (address, WORKER_SECONDS)) from None
    _clients[address] = client
    atexit.register(client.close)
    return client


def simulate(address, program, seating, seeds, max_steps, progress=None, rotate=False,
             engine=engines.DEFAULT):
    """As sim.simulate, on the cluster, on the VM engine named: (Results in
    seed order, interrupted, how many workers the scheduler had at the start)."""
    client = connect(address)
    import distributed
    data, words = pipc.dump(program), seating.options()
    workers = len(client.scheduler_info()['workers'])
    threads = sum(client.nthreads().values()) or 1
    chunks = playing.chunked(seeds, threads, CHUNK_GAMES)
    futures = [client.submit(play_chunk, data, words, max_steps, chunk[0], len(chunk), rotate,
                             engine, pure=False)
               for chunk in chunks]
    where = {f.key: i for i, f in enumerate(futures)}
    done, played, decisions, interrupted = [None] * len(chunks), 0, 0, False
    try:
        for future in distributed.as_completed(futures, loop=client.loop):
            i = where[future.key]
            try:
                reply = future.result()
            except Exception as e:          # e.g. KilledWorker: a chunk killed its workers
                raise PipError(None, 'the cluster could not play seeds %d..%d (%s)' % (
                    chunks[i][0], chunks[i][-1], _first_line(e))) from None
            if isinstance(reply, dict) and 'error' in reply:
                raise PipError(None, 'a cluster worker refused the game: %s' % reply['error'])
            done[i] = games = _results(reply, chunks[i])
            played += len(games)
            decisions += sum(r.decisions for r in games)
            if progress:
                progress(played, decisions)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        client.cancel(futures)
    out = []
    for results in done:           # the games of every seed up to the first chunk not back
        if results is None:
            break
        out += results
    return out, interrupted, workers
