"""Mutation score of the fuzz properties: how many small faults they find.

    python tools/mutation.py [--only FILE ...] [--sample N] [--range A:B] [--ids ID ...]
                             [--jobs J | --cluster ADDRESS|local]
                             [--suite [--full-suite] [--suite-first [SECONDS]]] [--no-quick]
                             [--reach-cache DIR] [--cheap-first]
                             [--all-examples] [--run-unreached]
                             [--examples 200] [--seed 1] [--timeout 120]
                             [--results tools/mutation-results [--as-of COMMIT] [--unsettled]]
                             [--json OUT]
                             [--list] [--summarize [FILE ...]]

Mutants are made deterministically with `ast` (tools/mutation_plan.py) from
the files of TARGETS
(the engine, the game API, the VM-only functions of pipvm/core/runtime.py,
compiler/codegen/generator.py): an operator or comparison swapped, a constant changed
by one (True/False flipped, a string changed), an index or slice bound off
by one, the first two arguments of a call swapped, a statement removed.
The file's fuzz properties (PROPERTIES) run against each at a fixed seed
and budget (200 examples; CI runs 50), without shrinking, with a timeout: killed
when one fails, survived when all pass.  With --suite, the file's suite
tests (SUITE) then run on the survivors: only those that run a line of the
mutated statement on the real code (recorded once per file, each test's
lines apart), or all of them with --full-suite.  With --suite-first,
the quickest of those (FIRST_SECONDS of them, or as many seconds as it
says, as timed on the real code) run before the properties, and a mutant they kill is not run on the
properties: where the suite kills most mutants (rules.py, actions.py) a
kill takes seconds, not the properties' minutes, and "fuzz alone" becomes
a lower bound.  For the compiled tier's generators (QUICK: actions.py,
fors.py, answers.py, regions.py) --suite --suite-first are the default, and
the first tests begin with QUICK's sweep (every example on the whole tier
against the loop), the quickest of its tests first (--no-quick: as before).

Each of --jobs mutant servers (tools/mutant_server.py) imports the project
once and forks a child per mutant, which imports the mutated module and
everything that imports it from the mutated text; the real files are never
written.  Before the mutants of a file, its properties run once on the real
code, each example's lines traced apart: they must pass, and a mutant runs
only the examples that run its statement (called with their recorded
arguments; --all-examples: every one), none if no example does (it survives
them without a run: the run would be the same).  These reach records (and
the suite's) are kept in --reach-cache by a hash of every file they depend
on, so the chunks of a campaign trace them once.  --cluster runs
the mutants as tasks of a Dask scheduler (the `cluster` extra), each worker
with its own server; --fresh-copies is the first engine (a project copy, a
fresh pytest per mutant), kept to check the server against.

Each verdict is kept as it comes, so a campaign can run in chunks: --results
DIR puts it in DIR/MODULE.tsv (one row per mutant id: its latest status,
what killed it or why it is equivalent, the commit it was measured at; the
tree's are in tools/mutation-results, and a mutant is classified as
equivalent by editing its row there), --json appends the whole reply to a
log.  --summarize adds them up.  Needs the `test` extra.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

from mutation_plan import (  # noqa: E402  (re-exported: tools/mutants_by_tests.py, tests/test_tools.py)
    OUT_OF_SCOPE, PROPERTIES, QUICK, SUITE, TARGETS, TESTS_VARIABLE, all_mutants, apply,
    mutants_of, suite_tests)
import mutant_server  # noqa: E402


# --- the results kept in the tree ---------------------------------------------------

RESULTS = os.path.join(ROOT, 'tools', 'mutation-results')
COLUMNS = ('id', 'status', 'by', 'commit')
HEADER = """\
# The mutants of %s (tools/mutation.py): the latest verdict on each id, one a line.
# status: killed (by the fuzz properties), killed by suite, timeout (counts as killed),
# survived, unchanged (the edit changes nothing), or equivalent (classified by hand:
# `by` says why).  by: what killed it (property or exception; suite), or why it lives.
# commit: the commit it was measured at (+: the file had uncommitted changes); an id
# names a line of the file at that commit.  The runs themselves are in the git log.
"""


def results_file(directory, path):
    """The results file of a target (pipvm/engine/vm.py -> DIRECTORY/vm.tsv)."""
    return os.path.join(directory, os.path.basename(path)[:-3] + '.tsv')


def read_results(name):
    """{id: row} of one results file (row: a dict of COLUMNS)."""
    out = {}
    with open(name, encoding='utf-8') as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            row = dict(zip(COLUMNS, line.rstrip('\n').split('\t')))
            if row['id'] != 'id':
                out[row['id']] = row
    return out


def _order(mutant_id):
    path, line, col, what = mutant_id.split(':', 3)
    return int(line), int(col), what


def write_results(name, path, rows):
    with open(name, 'w', encoding='utf-8') as f:
        f.write(HEADER % path + '\t'.join(COLUMNS) + '\n')
        for i in sorted(rows, key=_order):
            f.write('\t'.join(rows[i][c] for c in COLUMNS) + '\n')


def merge(rows, result, commit):
    """Put one run's result into rows.  A later verdict replaces an earlier,
    but a mutant that survives the fuzz properties alone keeps an earlier
    kill by the suite (not run this time), and one classified as equivalent
    stays so while it survives or times out (the machine's load)."""
    status, was = result['result'], rows.get(result['id'])
    if status == 'no tests':            # the runner was broken: no verdict
        return
    if was and (was['status'] == 'killed by suite' and status == 'survived'
                or was['status'] == 'equivalent' and status in ('survived', 'timeout')):
        return
    by = ' '.join(str(result.get('by', '')).split())
    rows[result['id']] = {'id': result['id'], 'status': status, 'by': by, 'commit': commit}


def measured_commit(path, as_of='HEAD'):
    """as_of's short hash (HEAD's, or --as-of's: a branch's base, where the
    file is as in the tree), with a + when path differs from it."""
    def git(*a):
        return subprocess.run(['git', *a], cwd=ROOT, capture_output=True, text=True)
    head = git('rev-parse', '--short', as_of).stdout.strip() or 'unknown'
    return head + ('+' if git('diff', '--quiet', as_of, '--', path).returncode else '')


class Keep:
    """Where each result goes as it comes, so an interrupted run keeps what
    it did: a JSON line to --json, a row of --results's file for its target."""

    def __init__(self, json_name=None, directory=None, as_of='HEAD'):
        self.json = open(json_name, 'a') if json_name else None
        self.directory, self.commits, self.as_of = directory, {}, as_of
        if directory:
            os.makedirs(directory, exist_ok=True)

    def __call__(self, result):
        if self.json:
            self.json.write(json.dumps(result) + '\n')
            self.json.flush()
        if self.directory:
            path = result['file']
            if path not in self.commits:
                self.commits[path] = measured_commit(path, self.as_of)
            name = results_file(self.directory, path)
            rows = read_results(name) if os.path.exists(name) else {}
            merge(rows, result, self.commits[path])
            write_results(name, path, rows)

    def close(self):
        if self.json:
            self.json.close()


def as_results(rows):
    """Rows of results files as summary() reads runs, and {id: why} of the
    equivalent ones."""
    results, equivalent = [], {}
    for row in rows:
        status = row['status']
        if status == 'equivalent':
            equivalent[row['id']] = row['by']
            status = 'survived'
        results.append({'id': row['id'], 'file': row['id'].split(':')[0],
                        'line': _order(row['id'])[0], 'result': status})
    return results, equivalent


def tree_equivalents(directory=RESULTS):
    """{id: why} of the mutants classified as equivalent in the tree's files."""
    out = {}
    for name in sorted(os.listdir(directory)) if os.path.isdir(directory) else ():
        if name.endswith('.tsv'):
            out.update(as_results(read_results(os.path.join(directory, name)).values())[1])
    return out


# --- running them -----------------------------------------------------------------

def copy_project(dest):
    for name in ('pipvm', 'compiler', 'disasm', 'tests', 'examples', 'docs'):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(dest, name),
                        ignore=shutil.ignore_patterns('__pycache__', '.hypothesis'))
    for name in ('pyproject.toml', 'README.md'):       # some tests read them
        shutil.copy(os.path.join(ROOT, name), dest)
    # A failure counts, not its shrunk form: skip hypothesis's shrinking.
    with open(os.path.join(dest, 'tests', 'conftest.py'), 'a') as f:
        f.write('\nfrom hypothesis import Phase\n'
                "settings.register_profile('mutation', deadline=None, phases=[Phase.generate])\n"
                "settings.load_profile('mutation')\n")


class CopyWorker:
    """The first engine (--fresh-copies): a private copy of the project, and a
    fresh interpreter and pytest per mutant.  Kept to check the server against."""

    def __init__(self, args):
        self.dir = tempfile.mkdtemp(prefix='pipvm-mutant-')
        copy_project(self.dir)
        self.args = args

    def run(self, req):
        mutant = req['mutant']
        path = os.path.join(self.dir, mutant['file'])
        with open(os.path.join(ROOT, mutant['file']), encoding='utf-8') as f:
            original = f.read()
        text = apply(mutant, original)
        if text is None:
            return {'result': 'unchanged', 'seconds': 0.0}
        shutil.rmtree(os.path.join(self.dir, '.hypothesis'), ignore_errors=True)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        env = dict(os.environ, PYTHONPATH=self.dir, PYTHONDONTWRITEBYTECODE='1',
                   PIPVM_FUZZ_SEED=str(self.args.seed), PIPVM_FUZZ_EXAMPLES=str(self.args.examples))
        pytest = [sys.executable, '-m', 'pytest', '-q', '-x', '-n', '0', '-p', 'no:cacheprovider']
        start = time.time()
        try:
            result = ('survived' if self.args.suite_only else
                      self._pytest(pytest + ['tests/fuzz', '-k', ' or '.join(
                          f for _, f in PROPERTIES[mutant['file']])], env, self.args.timeout))
            if result == 'survived' and (self.args.suite or self.args.suite_only):
                if self._pytest(pytest + suite_tests(mutant['file']), env,
                                self.args.suite_timeout) == 'killed':
                    result = 'killed by suite'
        finally:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(original)
        return {'result': result, 'seconds': round(time.time() - start, 1)}

    def _pytest(self, cmd, env, timeout):
        try:
            status = subprocess.run(cmd, cwd=self.dir, env=env, capture_output=True,
                                    timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            return 'timeout'
        if status == 5:
            return 'no tests'           # nothing selected: the runner is broken
        return 'survived' if status == 0 else 'killed'

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def _selected(record, span, key):
    """The examples or tests of a reach record (key: which) that run a line of
    span, in their order; None (all of them) if a line of it runs outside
    every one (at import: a mutant there changes what every one sees)."""
    if not record['outside'].isdisjoint(span):
        return None
    which = set().union(*(record['by_line'].get(n, ()) for n in span))
    return [record[key][i] for i in sorted(which)]


def request(mutant, args, reached=None, tested=None):
    """What a mutant server is asked to do with a mutant (tools/mutant_server.py).
    reached and tested: which of the file's properties' examples and suite
    tests run each line on the real code (reach, suite_reach).  A mutant
    differs from the real code only in one statement, so an example or test
    that runs none of its lines runs as it did on the real code and passes:
    only the others are run, and a mutant no example runs survives the
    properties without a run."""
    span = range(mutant['span'][0], mutant['span'][1] + 1)
    fuzz = not args.suite_only and (reached is None or not reached['lines'].isdisjoint(span))
    out = {'mutant': mutant, 'timeout': args.timeout, 'suite_timeout': args.suite_timeout,
           'fuzz': fuzz, 'suite': args.suite or args.suite_only,
           'unreached': not fuzz and not args.suite_only}
    if fuzz and reached is not None and not args.all_examples:
        out['examples'] = _selected(reached, span, 'examples')
    if tested is not None:
        out['tests'] = _selected(tested, span, 'tests')
        if getattr(args, 'suite_first', None) and out['suite']:
            tests = tested['tests'] if out['tests'] is None else out['tests']
            seconds = tested.get('seconds', {})
            quick = () if getattr(args, 'no_quick', False) else QUICK.get(mutant.get('file'), ())
            sweep = sorted((t for t in tests if t.split('::')[0] in quick),
                           key=lambda t: seconds.get(t, 0.0))
            out['first'] = sweep + fastest([t for t in tests if t not in sweep], seconds,
                                           args.suite_first)
            out['tests'] = [t for t in tests if t not in out['first']]
            # (their time on the real code, times FIRST_TIMES: past it, an endless loop)
            out['first_timeout'] = min(args.suite_timeout, max(FIRST_FLOOR, FIRST_TIMES * sum(
                seconds.get(t, args.suite_first) for t in out['first'])))
    return out


FIRST_SECONDS = 20.0        # --suite-first: the suite tests run before the properties
FIRST_TIMES, FIRST_FLOOR = 10, 60.0    # the first tests over this: a timeout (killed)


def fastest(tests, seconds, budget):
    """The quickest of tests (seconds: {test: its time on the real code}), the
    quickest first, as many as fit in budget seconds (one at least)."""
    out, spent = [], 0.0
    for t in sorted(tests, key=lambda t: seconds.get(t, budget)):
        if out and spent + seconds.get(t, budget) > budget:
            break
        out.append(t)
        spent += seconds.get(t, budget)
    return out


REACH_SECONDS = 3600           # the properties once, traced
REACH_CACHE = os.path.join(tempfile.gettempdir(), 'pipvm-mutation-reach')
# What a reach record depends on: the project's code, tests and examples,
# and the tools that say what to run and trace it.
_REACH_INPUTS = ('pipvm', 'compiler', 'disasm', 'tests', 'examples', 'tools/mutation_plan.py',
                 'tools/mutant_server.py', 'tools/fuzz_coverage.py')
_NOT_INPUTS = ('__pycache__', '.hypothesis', '.pytest_cache')


def _inputs(suite):
    """The files a reach record depends on (the suite's: all; the properties':
    not the suite's test modules, tests/test_*.py, which they never import)."""
    for top in _REACH_INPUTS:
        full = os.path.join(ROOT, top)
        if os.path.isfile(full):
            yield full
        for base, dirs, names in sorted(os.walk(full)):
            dirs[:] = sorted(d for d in dirs if d not in _NOT_INPUTS)
            for name in sorted(names):
                if suite or not (base == os.path.join(ROOT, 'tests') and name.startswith('test_')):
                    yield os.path.join(base, name)


def tree_key(suite=True, tests=()):
    """A hash of every file a reach record depends on (suite: every test
    module; else only the files of tests, node ids or files): a record is
    reused only while none of them changes."""
    h = hashlib.sha256(('%s %s' % (sys.version, sys.executable)).encode())
    named = sorted({os.path.join(ROOT, t.split('::')[0]) for t in tests})
    for full in list(_inputs(suite)) + named:
        h.update(os.path.relpath(full, ROOT).encode() + b'\0')
        with open(full, 'rb') as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


class ReachCache:
    """Reach records kept on disk by what they depend on (tree_key, the seed
    and budget, the job, the file, the suite tests named), so the chunks of
    a campaign trace the properties and the suite once, not once a chunk.
    directory None: nothing kept."""

    def __init__(self, directory, args):
        self.directory, self.args, self.salt = directory, args, {}

    def name(self, job, path):
        if (job, path) not in self.salt:       # a suite's: its own test modules only
            tests = suite_tests(path) if job == 'suite_reach' else ()
            self.salt[job, path] = '%s %d %d %s' % (
                tree_key(False, tests), self.args.seed, self.args.examples, '\n'.join(tests))
        key = hashlib.sha256(('%s %s %s' % (self.salt[job, path], job, path)).encode()).hexdigest()
        return os.path.join(self.directory, '%s-%s.json' % (job, key[:32]))

    def __call__(self, run, request):
        """run(request)'s reply, read from the cache when it was kept."""
        job = 'reach' if 'reach' in request else 'suite_reach'
        if self.directory is None:
            return run(request)
        name = self.name(job, request[job])
        if os.path.exists(name):
            with open(name, encoding='utf-8') as f:
                return json.load(f)
        reply = run(request)
        if reply['result'] == 'survived':          # only a record of passing runs is kept
            os.makedirs(self.directory, exist_ok=True)
            with open(name + '.tmp', 'w', encoding='utf-8') as f:
                json.dump(reply, f)
            os.replace(name + '.tmp', name)
        return reply


def _record(reply, key):
    return {key: reply[key], 'outside': set(reply['outside']),
            'lines': {int(n) for n in reply['by_line']},
            'by_line': {int(n): set(ts) for n, ts in reply['by_line'].items()},
            'seconds': dict(zip(reply[key], reply.get('seconds', ())))}


def reach(files, run, args, cache=None):
    """{file: which examples of its properties run each line on the real code}
    (empty with --run-unreached).  run: a function that sends a server a
    request.  The properties must pass on the real code, or no verdict means
    anything."""
    out = {}
    try:
        import coverage  # noqa: F401  (the tracer; the `dev` extra)
    except ImportError:
        print('coverage.py is not installed (the dev extra): every mutant is run', flush=True)
        return out
    if args.run_unreached or args.suite_only:
        return out
    for f in sorted(files):
        reply = (cache or ReachCache(None, args))(run, {'reach': f, 'timeout': REACH_SECONDS})
        if reply['result'] != 'survived':
            raise SystemExit('the properties for %s fail on the real code (%s): no verdict '
                             'would mean anything' % (f, reply.get('by', reply['result'])))
        out[f] = _record(reply, 'examples')
        print('%s: %d lines run by its properties (%d examples)'
              % (f, len(out[f]['lines']), len(reply['examples'])), flush=True)
    return out


def suite_reach(files, run, args, cache=None):
    """{file: which of its suite tests run each line, on the real code}
    (empty with --full-suite, or without the suite stage).  The suite must
    pass on the real code."""
    out = {}
    if not (args.suite or args.suite_only) or args.full_suite or args.fresh_copies:
        return out
    for f in sorted(files):
        reply = (cache or ReachCache(None, args))(run, {'suite_reach': f, 'timeout': REACH_SECONDS})
        if reply['result'] != 'survived':
            raise SystemExit('the suite tests of %s fail on the real code (%s): no verdict '
                             'would mean anything' % (f, reply['result']))
        out[f] = _record(reply, 'tests')
        print('%s: %d suite tests, %d lines run by them' % (f, len(reply['tests']),
                                                           len(out[f]['lines'])), flush=True)
    return out


class ServerWorker:
    """The default engine: a server process that imports the project once."""

    def __init__(self, args):
        self.server, self.args = mutant_server.Server(args.seed, args.examples), args

    def run(self, req):
        return self.server.run(req)

    def close(self):
        self.server.close()


def _report(results, mutant, reply, keep, lock):
    with lock:
        results.append(dict(mutant, **reply))
        print('%-9s %5.1fs  %s%s' % (reply['result'], reply['seconds'], mutant['id'],
                                     '  (%s)' % reply['by'] if reply.get('by') else ''),
              flush=True)
        if keep:
            keep(results[-1])


def campaign(mutants, args, keep=None):
    """Run the mutants; each result is also handed to keep (a Keep) as it
    comes, so an interrupted chunk keeps its results."""
    if args.cluster:
        return cluster_campaign(mutants, args, keep)
    results = []
    lock = threading.Lock()
    make = CopyWorker if args.fresh_copies else ServerWorker
    workers = [make(args) for _ in range(args.jobs)]
    free = list(workers)
    files = {m['file'] for m in mutants}
    cache = ReachCache(getattr(args, 'reach_cache', None) or None, args)
    reached = {} if args.fresh_copies else reach(files, workers[0].run, args, cache)
    tested = suite_reach(files, workers[0].run, args, cache)
    if getattr(args, 'cheap_first', False):
        mutants = cheap_first(mutants, reached)

    def one(mutant):
        with lock:
            worker = free.pop()
        try:
            reply = worker.run(request(mutant, args, reached.get(mutant['file']),
                                       tested.get(mutant['file'])))
        finally:
            with lock:
                free.append(worker)
        _report(results, mutant, reply, keep, lock)

    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            list(pool.map(one, mutants))
    finally:
        for w in workers:
            w.close()
    return results


def cluster_campaign(mutants, args, keep=None):
    """The mutants as tasks of a Dask scheduler (`--cluster ADDRESS`, or
    `--cluster local` for a LocalCluster of --jobs single-threaded workers),
    each run by its worker's mutant server.  Only plain data travels: the
    mutant's description, the seed and budget; the worker makes the mutant
    from its own checkout (tools/ on its PYTHONPATH)."""
    from pipvm.design.cluster import connect
    import distributed
    local = None
    if args.cluster == 'local':
        os.environ['PYTHONPATH'] = os.pathsep.join(
            [os.path.join(ROOT, 'tools'), ROOT, os.environ.get('PYTHONPATH', '')])
        local = distributed.LocalCluster(n_workers=args.jobs, threads_per_worker=1,
                                         host='127.0.0.1', dashboard_address=None)
        address = local.scheduler_address
    else:
        address = args.cluster
    client = connect(address)
    results, lock = [], threading.Lock()
    def run(req):
        return client.submit(mutant_server.run_remote, req, args.seed, args.examples,
                             pure=False).result()
    files = {m['file'] for m in mutants}
    cache = ReachCache(getattr(args, 'reach_cache', None) or None, args)
    reached, tested = reach(files, run, args, cache), suite_reach(files, run, args, cache)
    futures = {client.submit(mutant_server.run_remote,
                             request(m, args, reached.get(m['file']), tested.get(m['file'])),
                             args.seed, args.examples, pure=False): m for m in mutants}
    try:
        for future in distributed.as_completed(futures, loop=client.loop):
            _report(results, futures[future], future.result(), keep, lock)
    finally:
        client.cancel(list(futures))
        if local is not None:
            client.close()
            local.close()
    return results


KINDS = ('killed', 'killed by suite', 'survived', 'timeout', 'unchanged', 'no tests')


def summary(results, equivalent=None):
    """Per file and in all: the counts, and the score of the fuzz properties
    alone and with the suite, over the mutants not classified as equivalent
    (equivalent: {id: why})."""
    equivalent = equivalent or {}
    lines = ['| file | mutants | killed by fuzz | + by suite | survived | equivalent | '
             'timed out | fuzz alone | fuzz + suite |', '|' + ' --- |' * 9]
    files = sorted({r['file'] for r in results})
    for name in files + [None]:
        rs = [r for r in results if name is None or r['file'] == name]
        count = {k: sum(r['result'] == k for r in rs) for k in KINDS}
        # an equivalent mutant that timed out did so for the machine's load
        for k in ('survived', 'timeout'):
            count['%s, equivalent' % k] = sum(r['result'] == k and r['id'] in equivalent for r in rs)
            count[k] -= count['%s, equivalent' % k]
        eq = count['survived, equivalent'] + count['timeout, equivalent']
        real = count['killed'] + count['killed by suite'] + count['survived'] + count['timeout']
        fuzz = count['killed'] + count['timeout']
        both = fuzz + count['killed by suite']
        lines.append('| %s | %d | %d | %d | %d | %d | %d | %s | %s |' % (
            '`%s`' % name if name else 'all', len(rs) - count['unchanged'], count['killed'],
            count['killed by suite'], count['survived'], eq, count['timeout'],
            '%.1f%%' % (100.0 * fuzz / real) if real else '-',
            '%.1f%%' % (100.0 * both / real) if real else '-'))
    if any(r['result'] == 'no tests' for r in results):
        lines.append('some runs selected no tests: the runner is broken')
    survivors = sorted((r for r in results if r['result'] in ('survived', 'killed by suite')
                        or r['result'] == 'timeout' and r['id'] in equivalent),
                       key=lambda r: (r['file'], r['line']))
    if survivors:
        lines.append('\nalive after the fuzz properties (timed out counts as killed):')
        lines += ['  %s%s%s' % (r['id'], {'survived': '', 'timeout': ' [timed out]'}.get(
                                    r['result'], ' [killed by suite]'),
                                ' [equivalent: %s]' % equivalent[r['id']]
                                if r['id'] in equivalent else '') for r in survivors]
    return '\n'.join(lines)


def summarize(names, equivalent):
    """summary() of the results in these files: results files (MODULE.tsv) and
    --json's, whose runs are merged in the order given."""
    rows = {}
    for name in names:
        if name.endswith('.tsv'):
            rows.update(read_results(name))
            continue
        with open(name) as f:
            for line in f:
                merge(rows, json.loads(line), '')
    results, classified = as_results(rows.values())
    return summary(results, dict(equivalent, **classified))


def cheap_first(mutants, reached):
    """The mutants in the order of how many of the properties' examples run
    their statement (reached: reach's records), the list's order among
    equals: a module-level line runs before every example, so all of them."""
    def cost(m):
        record = reached.get(m['file'])
        if record is None:
            return 0
        span = range(m['span'][0], m['span'][1] + 1)
        which = _selected(record, span, 'examples')
        return len(record['examples']) if which is None else len(which)
    return sorted(mutants, key=cost)


def unsettled(mutants, directory):
    """The mutants whose ids have no row in directory's results files."""
    settled = set()
    for f in {m['file'] for m in mutants}:
        name = results_file(directory, f)
        settled |= set(read_results(name)) if os.path.exists(name) else set()
    return [m for m in mutants if m['id'] not in settled]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--only', nargs='+', metavar='FILE', help='mutate only these files')
    ap.add_argument('--sample', type=int, help='a fixed random sample of N mutants')
    ap.add_argument('--range', help='A:B, run only mutants A..B-1 of the (sampled) list')
    ap.add_argument('--ids', nargs='+', help='run only the mutants with these ids, in this order')
    ap.add_argument('--ids-file', metavar='FILE',
                    help='run only the mutants whose ids are the lines of FILE (ids hold '
                         'spaces), in its order')
    ap.add_argument('--jobs', type=int, default=1, help='mutants run at once (servers or workers)')
    ap.add_argument('--cluster', metavar='ADDRESS',
                    help="run on a Dask scheduler ('local': a LocalCluster of --jobs workers)")
    ap.add_argument('--run-unreached', action='store_true',
                    help='run the properties also on mutants in statements they never run')
    ap.add_argument('--fresh-copies', action='store_true',
                    help='the first engine: a project copy and a fresh pytest per mutant')
    ap.add_argument('--examples', type=int, default=200, help='per property (CI: 50; the scores and reach in docs/fuzzing.md: 200)')
    ap.add_argument('--seed', type=int, default=1, help='the fuzz seed (also samples mutants)')
    ap.add_argument('--timeout', type=float, default=120, help='seconds per mutant')
    ap.add_argument('--suite-timeout', type=float, default=900, help='seconds for the suite tests')
    ap.add_argument('--json', help='append the results here, one JSON object a line')
    ap.add_argument('--results', metavar='DIR',
                    help="keep each mutant's verdict in DIR/MODULE.tsv as it comes "
                         '(the tree\'s: tools/mutation-results)')
    ap.add_argument('--cheap-first', action='store_true',
                    help='run the mutants that the fewest examples reach first (after '
                         '--range: it orders the chunk)')
    ap.add_argument('--unsettled', action='store_true',
                    help="only the mutants with no row in --results's files (before "
                         '--sample and --range)')
    ap.add_argument('--as-of', metavar='COMMIT', default='HEAD',
                    help="the commit --results's rows name (default HEAD): a branch's base, "
                         'where the mutated file is as in the tree (a + says it is not)')
    ap.add_argument('--summarize', nargs='*', metavar='FILE',
                    help='run nothing: add up the results in these files (MODULE.tsv, or '
                         "--json's, taken in order); none: the tree's results")
    ap.add_argument('--list', action='store_true', help='only list the mutants')
    ap.add_argument('--suite', action='store_true',
                    help="run the file's suite tests (SUITE) on the fuzz properties' survivors")
    ap.add_argument('--all-examples', action='store_true',
                    help="every example of the properties for each mutant, not only those "
                         "that run its line")
    ap.add_argument('--full-suite', action='store_true',
                    help='every suite test for each mutant, not only those that run its line')
    ap.add_argument('--tests', nargs='+', metavar='TEST',
                    help="the suite stage runs these tests instead of the file's SUITE "
                         '(not with --cluster)')
    ap.add_argument('--suite-first', nargs='?', type=float, const=FIRST_SECONDS, metavar='SECONDS',
                    help="with --suite: the quickest suite tests that run the mutant's line "
                         '(SECONDS of them, as timed on the real code; default %g) before the '
                         'properties; a mutant they kill is not run on the properties, so '
                         '"fuzz alone" is then a lower bound' % FIRST_SECONDS)
    ap.add_argument('--no-quick', action='store_true',
                    help="not QUICK's defaults for its files (--suite --suite-first, its "
                         'sweep tests run first): as the runner was before them')
    ap.add_argument('--reach-cache', metavar='DIR', default=REACH_CACHE,
                    help='keep the reach records here, reused while no file they depend on '
                         "changes (default: %(default)s; '' keeps none)")
    ap.add_argument('--suite-only', action='store_true',
                    help='only the suite tests: for --ids the fuzz properties left alive')
    args = ap.parse_args()
    equivalent = tree_equivalents()
    if args.summarize is not None:
        print(summarize(args.summarize or [os.path.join(RESULTS, n) for n in sorted(
            os.listdir(RESULTS)) if n.endswith('.tsv')], equivalent))
        return
    if args.tests:
        if args.cluster:
            ap.error('--tests: not with --cluster (the workers would not see them)')
        os.environ[TESTS_VARIABLE] = '\n'.join(args.tests)
    for f in args.only or ():
        if f not in TARGETS:
            ap.error('--only: %s is not one of %s' % (f, ', '.join(TARGETS)))
    mutants = all_mutants(args.only)
    if args.ids_file:
        with open(args.ids_file, encoding='utf-8') as f:
            args.ids = (args.ids or []) + [line.rstrip('\n') for line in f if line.strip()]
    if args.ids:
        # in the order given: a list can put the cheapest first
        place = {k: i for i, k in enumerate(dict.fromkeys(args.ids))}
        mutants = sorted((m for m in mutants if m['id'] in place), key=lambda m: place[m['id']])
    if args.unsettled:
        if not args.results:
            ap.error('--unsettled: with --results')
        mutants = unsettled(mutants, args.results)
    if args.sample is not None and args.sample < len(mutants):
        mutants = random.Random(args.seed).sample(mutants, args.sample)
    if args.range:
        a, _, b = args.range.partition(':')
        mutants = mutants[int(a or 0):int(b) if b else None]
    if mutants and not args.no_quick and {m['file'] for m in mutants} <= QUICK.keys():
        # the compiled tier's generators: the suite first, its sweep first of all
        args.suite = True
        args.suite_first = args.suite_first or FIRST_SECONDS
    if args.list:
        for m in mutants:
            print(m['id'])
        print('%d mutants' % len(mutants))
        return
    keep = Keep(args.json, args.results, args.as_of)
    try:
        results = campaign(mutants, args, keep)
    finally:
        keep.close()
    print(summary(results, equivalent))


if __name__ == '__main__':
    main()
