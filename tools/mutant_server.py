"""A mutant runner that imports the project once: tools/mutation.py's engine.

    python tools/mutant_server.py SEED EXAMPLES      (requests on stdin, JSON a line)

The server imports the project and the fuzz properties once.  For each
mutant it forks a child, which takes the mutated module and every project
module that imports it (directly or not, as the files' import statements
say) out of sys.modules, serves the mutated text for that one file through
an import hook, imports them again (so every `from x import y` is bound to
the mutant), and calls the file's properties in turn, cheapest and most
often killing first, stopping at the first failure.  The real files are
never written.  A child over its time is killed with its process group.

Request: {"mutant": {...}, "timeout": s, "suite_timeout": s, "fuzz": bool, "suite": bool}
(fuzz: run the properties; suite: then, if they pass, the file's suite
tests under pytest in a second child).  Reply: {"result": killed | killed
by suite | survived | timeout | unchanged | no tests, "seconds": s, "by":
the property or suite that failed}.  Or {"reach": FILE, "timeout": s}: the
file's properties run on the real code with its lines traced (imports
included), each example's lines recorded apart (coverage.py's dynamic
contexts); reply {"result": survived (they pass) or killed, "examples":
[[property index, args, kwargs] in the order
hypothesis ran them], "by_line": {line: [indexes into examples]},
"outside": [lines run outside every example: imports, generation]}.  Or
{"suite_reach": FILE, "timeout": s}: the same for the file's suite tests,
each test apart; reply {"result", "tests": [node ids in the order they
ran], "by_line": {line: [indexes into tests]}, "outside": [...], "seconds":
[each test's, setup and teardown included]}.  A mutant request's "examples"
and "tests", when given, replace the properties' full runs (the examples
are called as hypothesis called them) and the file's suite tests; its
"first", when given, are suite tests run before the properties (a kill
there is final: "killed by suite", by "suite (run first)"; with
"first_timeout", so is running over it: "timeout", an endless loop).  A reply's
"stages" says the seconds of each stage run.

run_remote is the same for a Dask worker (tools/mutation.py --cluster):
each worker thread keeps one server.
"""
import ast
import importlib
import importlib.abc
import importlib.util
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROJECT = ('pipvm', 'compiler', 'disasm', 'tests')


def module_name(path):
    return path[:-3].replace('/', '.')


def _project_modules():
    return [n for n, m in list(sys.modules.items())
            if n.split('.')[0] in PROJECT and getattr(m, '__file__', None)]


def _imports(name):
    """The project modules a loaded module's file imports (anywhere in it)."""
    module = sys.modules[name]
    with open(module.__file__, encoding='utf-8') as f:
        tree = ast.parse(f.read())
    package = module.__package__ or ''
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                parts = package.split('.')
                parts = parts[:len(parts) - node.level + 1]
                base = '.'.join(parts + ([base] if base else []))
            names = [base] + ['%s.%s' % (base, a.name) for a in node.names]
        else:
            continue
        for n in names:
            parts = n.split('.')
            if parts[0] in PROJECT:
                out.update('.'.join(parts[:i]) for i in range(1, len(parts) + 1))
    return out


def dependents(target):
    """The loaded project modules that import target, directly or not, and target."""
    graph = {n: _imports(n) for n in _project_modules()}
    out, grew = {target}, True
    while grew:
        grew = False
        for n, deps in graph.items():
            if n not in out and deps & out:
                out.add(n)
                grew = True
    return out


def stale(target, purged):
    """Names of objects defined in a purged module but held by a module that is
    not purged (a registry the import graph does not show): these would keep
    the real code in the child.  Must be empty for the runner to be sound."""
    out = []
    for n in _project_modules():
        if n in purged:
            continue
        for k, v in vars(sys.modules[n]).items():
            values = list(v.values()) if isinstance(v, dict) else list(v) if isinstance(
                v, (list, tuple, set)) else [v]
            for x in values:
                if getattr(x, '__module__', None) in purged and not isinstance(x, type(sys)):
                    out.append('%s.%s' % (n, k))
    return sorted(set(out))


class Serve(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports one module from a text instead of its file."""

    def __init__(self, name, path, text):
        self.name, self.path, self.text = name, path, text

    def find_spec(self, name, path, target=None):
        if name != self.name:
            return None
        return importlib.util.spec_from_file_location(name, self.path, loader=self)

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        exec(compile(self.text, self.path, 'exec'), module.__dict__)


def install(path, text):
    """In the child: the mutated text for path, and everything importing it
    imported again, in the order they were first imported."""
    name = module_name(path)
    purged = dependents(name)
    order = [n for n in _project_modules() if n in purged]
    for n in order:
        del sys.modules[n]
    sys.meta_path.insert(0, Serve(name, os.path.join(ROOT, path), text))
    for n in order:
        importlib.import_module(n)


def properties(path):
    from mutation_plan import PROPERTIES
    return [getattr(importlib.import_module('tests.fuzz.' + m), f) for m, f in PROPERTIES[path]]


def _encode(value):
    """A property's argument as plain data (a generated Case, an int, or
    JSON data that reads back the same)."""
    if type(value).__name__ == 'Case':
        return {'Case': [value.source, value.seed, list(value.answers)]}
    if type(value) is int:
        return value
    if type(value) in (list, dict) and json.loads(json.dumps(value)) == value:
        return {'Plain': value}
    raise TypeError('a property argument the runner cannot keep: %r' % (value,))


def _decode(value):
    if isinstance(value, dict) and 'Plain' in value:
        return value['Plain']
    if isinstance(value, dict):
        from tests.fuzz.programs import Case
        source, seed, answers = value['Case']
        return Case(source, seed, tuple(answers))
    return value


def _fuzz_reach(path):
    """Run the properties with the lines of path each example runs recorded
    apart (coverage.py's dynamic contexts; the module imported again under
    the tracer, its import-time lines outside every example): the reply of
    a reach request."""
    import coverage
    full = os.path.join(ROOT, path)
    cov = coverage.Coverage(data_file=None, include=[full], config_file=False)
    cov.start()
    cov.switch_context('')
    examples = []

    def recording(k, inner):
        def run(*args, **kwargs):
            examples.append([k, [_encode(a) for a in args],
                             {n: _encode(v) for n, v in kwargs.items()}])
            cov.switch_context(str(len(examples) - 1))
            try:
                return inner(*args, **kwargs)
            finally:
                cov.switch_context('')
        return run
    install(path, _original(path))
    for k, test in enumerate(properties(path)):
        test.hypothesis.inner_test = recording(k, test.hypothesis.inner_test)
        test()
    cov.stop()
    by_line, outside = {}, []
    for n, contexts in cov.get_data().contexts_by_lineno(full).items():
        if '' in contexts:
            outside.append(n)
        by_line[n] = sorted(int(c) for c in contexts if c)
    return {'result': 'survived', 'examples': examples,
            'by_line': by_line, 'outside': outside}


def _replay(path, examples):
    """The properties' examples given (indexes into properties(path), the
    arguments as _encode keeps them) called as hypothesis called them, in
    order; the first failure propagates."""
    tests = properties(path)
    for module in {sys.modules[t.__module__] for t in tests}:
        module.event = lambda *a, **k: None         # hypothesis's statistics: no run here
    for k, args, kwargs in examples:
        tests[k].hypothesis.inner_test(*map(_decode, args),
                                       **{n: _decode(v) for n, v in kwargs.items()})


def _suite_reach(path, tests):
    """Run the suite tests (every one if tests is None) with each test's
    lines of path recorded: the reply of a suite_reach request."""
    import coverage
    import pytest
    full = os.path.join(ROOT, path)
    cov = coverage.Coverage(data_file=None, include=[full], config_file=False)
    cov.start()
    cov.switch_context('')

    class PerTest:
        """Names coverage's context after the test running, its setup and
        teardown included."""
        def __init__(self):
            self.tests = []

        @pytest.hookimpl(tryfirst=True)
        def pytest_runtest_protocol(self, item, nextitem):
            self.tests.append(item.nodeid)
            cov.switch_context(item.nodeid)

        def pytest_runtest_logfinish(self, nodeid, location):
            cov.switch_context('')

        def pytest_runtest_logreport(self, report):       # setup, call and teardown
            self.seconds[report.nodeid] = self.seconds.get(report.nodeid, 0.0) + report.duration
    plugin = PerTest()
    plugin.seconds = {}
    install(path, _original(path))      # its module lines run again, outside every test
    status = pytest.main(['-q', '-x', '-n', '0', '-p', 'no:cacheprovider'] + tests, plugins=[plugin])
    cov.stop()
    if status != 0:
        return {'result': 'no tests' if status == 5 else 'killed', 'by': 'suite'}
    index = {t: i for i, t in enumerate(plugin.tests)}
    by_line, outside = {}, []
    for n, contexts in cov.get_data().contexts_by_lineno(full).items():
        if '' in contexts:
            outside.append(n)
        by_line[n] = sorted(index[c] for c in contexts if c)
    return {'result': 'survived', 'tests': plugin.tests, 'by_line': by_line, 'outside': outside,
            'seconds': [round(plugin.seconds.get(t, 0.0), 3) for t in plugin.tests]}


def _child(path, text, job, write, only=None):
    """Run job on text (installed for path when not None): only is the suite
    tests (job 'suite') or the properties' examples (job 'fuzz') to run, all
    when None."""
    os.setpgid(0, 0)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0), os.dup2(null, 1), os.dup2(null, 2)
    by = 'import'
    try:
        if job == 'reach':
            by = 'the properties on the real code'
            reply = _fuzz_reach(path)
        elif job == 'suite_reach':
            from mutation_plan import suite_tests
            os.chdir(ROOT)
            reply = _suite_reach(path, suite_tests(path))
        elif job == 'fuzz':
            install(path, text)
            if only is None:
                for test in properties(path):
                    by = test.__name__
                    test()
            else:
                by = 'its examples'
                _replay(path, only)
            reply = {'result': 'survived'}
        else:
            install(path, text)
            import pytest
            from mutation_plan import suite_tests
            os.chdir(ROOT)
            status = pytest.main(['-q', '-x', '-n', '0', '-p', 'no:cacheprovider']
                                 + (suite_tests(path) if only is None else only))
            reply = ({'result': 'survived'} if status == 0 else {'result': 'no tests'}
                     if status == 5 else {'result': 'killed', 'by': 'suite'})
    except BaseException as e:
        reply = {'result': 'killed', 'by': '%s: %s' % (by, type(e).__name__)}
    os.write(write, json.dumps(reply).encode())
    os._exit(0)


def run_child(path, text, job, timeout, only=None):
    """Fork a child to run job ('fuzz', 'reach', 'suite' or 'suite_reach') on
    the text: its reply."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        _child(path, text, job, write, only)
    os.close(write)
    data, deadline = b'', time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([read], [], [], left)[0]:
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            data = None
            break
        chunk = os.read(read, 65536)
        if not chunk:
            break
        data += chunk
    os.close(read)
    os.waitpid(pid, 0)
    if data is None:
        return {'result': 'timeout'}
    if not data:           # died without a word (a crash of the mutated code)
        return {'result': 'killed', 'by': 'crash'}
    return json.loads(data)


def _original(path, originals={}):
    if path not in originals:
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            originals[path] = f.read()
    return originals[path]


def run(request):
    """One request (see the module's doc) in this process: the reply."""
    from mutation_plan import apply
    for job in ('reach', 'suite_reach'):
        if job in request:
            return run_child(request[job], None, job, request['timeout'])
    mutant = request['mutant']
    path = mutant['file']
    text = apply(mutant, _original(path))
    if text is None:
        return {'result': 'unchanged', 'seconds': 0.0}
    start = clock = time.time()
    stages = {}

    def stage(name):
        nonlocal clock
        now = time.time()
        stages[name] = round(now - clock, 1)
        clock = now
    suite_timeout = request.get('suite_timeout', request['timeout'])
    first = request.get('first') if request.get('suite') else None
    if first:
        limit = request.get('first_timeout')
        reply = run_child(path, text, 'suite', limit or suite_timeout, first)
        stage('first')
        if reply['result'] == 'killed' or reply['result'] == 'timeout' and limit:
            return {'result': 'killed by suite' if reply['result'] == 'killed' else 'timeout',
                    'by': 'suite (run first)%s' % (' over %g s: an endless loop' % limit
                                                   if reply['result'] == 'timeout' else ''),
                    'stages': stages, 'seconds': round(time.time() - start, 1)}
        first_timed_out = reply['result'] == 'timeout'     # (not a verdict, as below)
    reply = {'result': 'survived'}
    if request.get('fuzz', True):
        reply = run_child(path, text, 'fuzz', request['timeout'], request.get('examples'))
        stage('fuzz')
    elif request.get('unreached'):
        reply['by'] = 'not reached by its properties'
    tests = request.get('tests')
    if reply['result'] == 'survived' and request.get('suite') and tests == []:
        if not first:
            reply['by'] = 'no suite test runs it'
    elif reply['result'] == 'survived' and request.get('suite'):
        reply = run_child(path, text, 'suite', suite_timeout, tests)
        stage('suite')
        if reply['result'] == 'killed':
            reply['result'] = 'killed by suite'
        elif reply['result'] == 'timeout':      # not a verdict: the suite is slow
            reply = {'result': 'survived', 'by': 'the suite timed out'}
    if first and first_timed_out and reply['result'] == 'survived':
        reply['by'] = 'the suite timed out'
    reply['stages'] = stages
    reply['seconds'] = round(time.time() - start, 1)
    return reply


def prepare(seed, examples):
    """Import the project and the fuzz properties once, at the seed and budget,
    with the settings a mutant runs under (no shrinking, no example database)."""
    os.environ['PIPVM_FUZZ_SEED'], os.environ['PIPVM_FUZZ_EXAMPLES'] = str(seed), str(examples)
    for p in (ROOT, os.path.join(ROOT, 'tools')):
        if p not in sys.path:
            sys.path.insert(0, p)
    from hypothesis import Phase, settings
    # A failure counts, not its shrunk form; nothing is replayed from a database.
    settings.register_profile('mutation', deadline=None, database=None, phases=[Phase.generate])
    settings.load_profile('mutation')
    from mutation_plan import PROPERTIES
    for path in PROPERTIES:
        properties(path)
        importlib.import_module(module_name(path))
    for path in PROPERTIES:
        name = module_name(path)
        held = stale(name, dependents(name))
        if held:
            raise SystemExit('mutant server: %s is held by modules that do not import it: %s'
                             % (name, ', '.join(held)))


def serve(seed, examples):
    prepare(seed, examples)
    for line in sys.stdin:
        print(json.dumps(run(json.loads(line))), flush=True)


class Server:
    """A server process, from the runner's side."""

    def __init__(self, seed, examples):
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), str(seed), str(examples)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT, text=True)

    def run(self, request):
        self.proc.stdin.write(json.dumps(request) + '\n')
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError('the mutant server died (exit %s)' % self.proc.wait())
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


_servers = threading.local()


def run_remote(request, seed, examples):
    """A Dask task: one request, run by this worker thread's server (started
    on first use, again if it died)."""
    server = getattr(_servers, 'server', None)
    if server is None or server.key != (seed, examples) or server.proc.poll() is not None:
        if server is not None:
            server.proc.kill()
        server = _servers.server = Server(seed, examples)
        server.key = (seed, examples)
    return server.run(request)


if __name__ == '__main__':
    signal.signal(signal.SIGINT, signal.SIG_IGN)      # the runner stops us by closing stdin
    serve(int(sys.argv[1]), int(sys.argv[2]))
