"""Mutation score of the fuzz properties: how many small faults they find.

    python tools/mutation.py [--only FILE ...] [--sample N] [--range A:B] [--ids ID ...]
                             [--jobs J | --cluster ADDRESS|local] [--suite [--full-suite]]
                             [--all-examples] [--run-unreached]
                             [--examples 200] [--seed 1] [--timeout 120] [--json OUT]
                             [--list] [--summarize OUT ...]

Mutants are made deterministically with `ast` from the files of TARGETS
(the engine, the game API, the VM-only functions of pipvm/core/runtime.py,
compiler/codegen/generator.py): an operator or comparison swapped, a constant changed
by one (True/False flipped, a string changed), an index or slice bound off
by one, the first two arguments of a call swapped, a statement removed.
The file's fuzz properties (PROPERTIES) run against each at a fixed seed
and budget (200 examples; CI runs 100), without shrinking, with a timeout: killed
when one fails, survived when all pass.  With --suite, the file's suite
tests (SUITE) then run on the survivors: only those that run a line of the
mutated statement on the real code (recorded once per file, each test's
lines apart), or all of them with --full-suite.

Each of --jobs mutant servers (tools/mutant_server.py) imports the project
once and forks a child per mutant, which imports the mutated module and
everything that imports it from the mutated text; the real files are never
written.  Before the mutants of a file, its properties run once on the real
code, each example's lines traced apart: they must pass, and a mutant runs
only the examples that run its statement (called with their recorded
arguments; --all-examples: every one), none if no example does (it survives
them without a run: the run would be the same).  --cluster runs
the mutants as tasks of a Dask scheduler (the `cluster` extra), each worker
with its own server; --fresh-copies is the first engine (a project copy, a
fresh pytest per mutant), kept to check the server against.  Each result is
appended to --json as it comes, so a campaign can run in chunks and be added
up (--summarize).  Needs the `test` extra.
"""
import argparse
import ast
import concurrent.futures
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

from fuzz_coverage import BELIEF, TARGETS  # noqa: E402  (one list of what the fuzzer answers for)
import mutant_server  # noqa: E402

# Parts of the targets the differential fuzzer does not play through: it
# cannot see a fault there, other tests do.  qualified name prefix -> why
OUT_OF_SCOPE = {
    'pipvm/engine/vm.py': {
        'Machine.fork': 'copying a game: tests/fuzz/test_game_object.py tests it',
        'Copier': 'copying a game: tests/fuzz/test_game_object.py tests it',
    },
}

# The fuzz properties that answer for each file (module of tests/fuzz,
# function), in the order they run against a mutant: the one that kills
# most, cheapest, first; the first failure stops the run.  The others cannot
# see a mutant of the file, or see it through these.
_VM = ('test_fuzz', 'test_vm_matches_reference')
_CLOSURES = ('test_pure', 'test_closures_match_the_loop')
_QUIET = ('test_game_object', 'test_a_quiet_game_plays_as_a_watched_one')
_UNSET = ('test_game_object', 'test_a_quiet_game_plays_as_a_watched_one_with_a_local_left_unset')
_FORK = ('test_game_object', 'test_a_fork_at_any_decision_plays_as_the_original')
_VIEWS = ('test_views', 'test_views_show_what_the_reference_table_lets_each_seat_see')
_WORLDS = ('test_views', 'test_determinization_as_bots_use_it')
_API = ('test_game_object', 'test_the_game_object_keeps_its_contract_with_drivers')
_SOLVE = ('test_relabel', 'test_relabel_solves_what_brute_force_solves')
_SOLVE_BUDGET = ('test_relabel', 'test_relabel_gives_up_within_its_budget')
_SEARCH = ('test_relabel', 'test_relabel_search_spends_what_its_order_and_checks_say')
_BELIEF = ('test_views', 'test_a_seats_belief_carried_through_a_game')
PROPERTIES = {
    # (play_out's answers in the loop: _API; a hand-made file's unset local: _UNSET;
    # the shuffles a Dealer records and SetChoice.relabelled: _WORLDS)
    'pipvm/engine/vm.py': (_VM, _CLOSURES, _QUIET, _FORK, _API, _UNSET, _WORLDS),
    'pipvm/engine/generated_cases.py': (_VM, _CLOSURES, _QUIET, _FORK, _UNSET),
    'pipvm/engine/bodies.py': (_VM, _CLOSURES, _QUIET, _FORK),
    'pipvm/engine/fusion.py': (_VM, _QUIET),
    'pipvm/engine/pure.py': (_VM, _CLOSURES, _QUIET),
    'pipvm/engine/quiet.py': (_QUIET, _VM, _UNSET),
    'pipvm/core/runtime.py': (_VM,),
    'compiler/codegen/generator.py': (_VM,),
    # (_VM plays the table through game.Game: the set-up questions, the endings)
    'pipvm/game/game.py': (_API, _VM, _FORK, _QUIET, _WORLDS, _VIEWS),
    'pipvm/game/view.py': (_VIEWS,),
    'pipvm/game/determinize.py': (_WORLDS, _VIEWS),
    **{part: (_WORLDS, _BELIEF) for part in BELIEF},
    'pipvm/game/relabel.py': (_SOLVE, _SOLVE_BUDGET, _SEARCH, _WORLDS, _BELIEF),
}

# The rest of the suite that answers for each file: run (with --suite) on the
# mutants the fuzz properties leave alive.
SUITE = {
    'pipvm/engine/vm.py': ['tests/test_vm.py', 'tests/test_run.py', 'tests/test_regressions.py',
                           'tests/test_fusion.py', 'tests/test_pipc.py', 'tests/test_game.py',
                           'tests/test_extensions.py', 'tests/test_ext_options.py',
                           'tests/test_ext_sets.py', 'tests/test_determinization.py',
                           'tests/test_quiet.py'],
    # the handlers and closure factories run for every program, the
    # extensions' (aggregates, sets, options) for theirs
    'pipvm/engine/generated_cases.py': ['tests/test_vm.py', 'tests/test_run.py',
                                        'tests/test_regressions.py', 'tests/test_fusion.py',
                                        'tests/test_shapes.py', 'tests/test_extensions.py',
                                        'tests/test_ext_sets.py', 'tests/test_game.py'],
    'pipvm/engine/bodies.py': ['tests/test_vm.py', 'tests/test_run.py', 'tests/test_regressions.py',
                               'tests/test_extensions.py', 'tests/test_game.py'],
    'pipvm/engine/fusion.py': ['tests/test_fusion.py', 'tests/test_vm.py', 'tests/test_run.py'],
    'pipvm/engine/pure.py': ['tests/test_vm.py', 'tests/test_run.py', 'tests/test_regressions.py',
                             'tests/test_shapes.py'],
    'pipvm/engine/quiet.py': ['tests/test_vm.py', 'tests/test_sim.py', 'tests/test_game.py',
                              'tests/test_quiet.py'],
    'pipvm/core/runtime.py': ['tests/test_vm.py', 'tests/test_run.py', 'tests/test_regressions.py'],
    'compiler/codegen/generator.py': ['tests/test_vm.py', 'tests/test_run.py', 'tests/test_regressions.py'],
    'pipvm/game/game.py': ['tests/test_game.py', 'tests/test_bots.py', 'tests/test_seats.py'],
    'pipvm/game/view.py': ['tests/test_game.py', 'tests/test_bots.py', 'tests/test_web_api.py',
                           'tests/test_extensions.py'],
    'pipvm/game/determinize.py': ['tests/test_game.py', 'tests/test_bots.py',
                                  'tests/test_determinization.py'],
    **{part: ['tests/test_beliefs_pinned.py', 'tests/test_beliefs.py',
              'tests/test_determinization.py', 'tests/test_game.py', 'tests/test_bots.py']
       for part in BELIEF},
    'pipvm/game/relabel.py': ['tests/test_relabel.py', 'tests/test_beliefs.py',
                              'tests/test_determinization.py',
                              'tests/test_ext_sets.py'],
}

EQUIVALENT = os.path.join(ROOT, 'tools', 'mutants_equivalent.tsv')

TESTS_VARIABLE = 'PIPVM_MUTATION_TESTS'     # --tests, handed to the servers


def suite_tests(path):
    """The suite tests run on path's mutants: SUITE's, or those --tests named."""
    named = os.environ.get(TESTS_VARIABLE)
    return named.split('\n') if named else SUITE[path]

_SWAP_BIN = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
             ast.Mod: ast.FloorDiv, ast.BitAnd: ast.BitOr, ast.BitOr: ast.BitAnd}
_SWAP_CMP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt,
             ast.Eq: ast.NotEq, ast.NotEq: ast.Eq, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
             ast.In: ast.NotIn, ast.NotIn: ast.In}


# --- making mutants -------------------------------------------------------------

def _docstrings(tree):
    """ids of the string constants that are docstrings (never mutated)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first))
                out.add(id(first.value))
    return out


def _scopes(tree):
    """{id(node): qualified name of its innermost function or class}."""
    out = {}

    def visit(node, name):
        for child in ast.iter_child_nodes(node):
            inner = name
            if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
                inner = (name + '.' if name else '') + child.name
            out[id(child)] = inner
            visit(child, inner)
    visit(tree, '')
    return out


def _edits(node):
    """[(description, function that edits this node in place)] for one node."""
    out = []
    kind = type(node)
    if kind is ast.BinOp and type(node.op) in _SWAP_BIN:
        new = _SWAP_BIN[type(node.op)]
        out.append(('%s -> %s' % (type(node.op).__name__, new.__name__),
                    lambda n, new=new: setattr(n, 'op', new())))
    elif kind is ast.Compare:
        for i, op in enumerate(node.ops):
            if type(op) in _SWAP_CMP:
                new = _SWAP_CMP[type(op)]

                def swap(n, i=i, new=new):
                    n.ops[i] = new()
                out.append(('%s -> %s' % (type(op).__name__, new.__name__), swap))
    elif kind is ast.BoolOp:
        new = ast.Or if type(node.op) is ast.And else ast.And
        out.append(('%s -> %s' % (type(node.op).__name__, new.__name__),
                    lambda n, new=new: setattr(n, 'op', new())))
    elif kind is ast.UnaryOp and type(node.op) in (ast.Not, ast.USub):
        out.append(('drop %s' % type(node.op).__name__, 'unwrap'))
    elif kind is ast.Constant:
        v = node.value
        if type(v) is bool:
            out.append(('%r -> %r' % (v, not v), lambda n: setattr(n, 'value', not n.value)))
        elif type(v) is int:
            out.append(('%d -> %d' % (v, v + 1), lambda n: setattr(n, 'value', n.value + 1)))
            out.append(('%d -> %d' % (v, v - 1), lambda n: setattr(n, 'value', n.value - 1)))
        elif type(v) is str:
            out.append(('string %r changed' % v[:20], lambda n: setattr(n, 'value', n.value + '!')))
    elif kind is ast.Subscript:
        s = node.slice
        if isinstance(s, ast.Slice):
            for part in ('lower', 'upper'):
                if getattr(s, part) is not None and not isinstance(getattr(s, part), ast.Constant):
                    out.append(('slice %s + 1' % part,
                                lambda n, part=part: setattr(n.slice, part, _plus_one(getattr(n.slice, part)))))
        elif not isinstance(s, (ast.Constant, ast.Tuple)):
            out.append(('index + 1', lambda n: setattr(n, 'slice', _plus_one(n.slice))))
    elif kind is ast.Call and len(node.args) >= 2 and not any(
            isinstance(a, ast.Starred) for a in node.args[:2]):
        def swap_args(n):
            n.args[0], n.args[1] = n.args[1], n.args[0]
        out.append(('swap arguments 1 and 2', swap_args))
    return out


def _plus_one(expr):
    return ast.BinOp(expr, ast.Add(), ast.Constant(1))


def _statements(tree, docstrings):
    """Statements that can be removed: (parent body, index) for each."""
    for node in ast.walk(tree):
        for field in ('body', 'orelse', 'finalbody'):
            body = getattr(node, field, None)
            if not isinstance(body, list):
                continue
            for i, stmt in enumerate(body):
                if (isinstance(stmt, ast.stmt) and id(stmt) not in docstrings
                        and not isinstance(stmt, (ast.FunctionDef, ast.ClassDef, ast.Import,
                                                  ast.ImportFrom, ast.Pass, ast.Global))):
                    yield node, field, i, stmt


def mutants_of(path):
    """[mutant dict] for one file, in a fixed order.  A mutant is named by its
    file, line, column and what it does; applying it re-parses the file and
    edits the node found by the same walk."""
    with open(os.path.join(ROOT, path), encoding='utf-8') as f:
        text = f.read()
    tree = ast.parse(text)
    docstrings = _docstrings(tree)
    scopes = _scopes(tree)
    wanted = TARGETS[path]
    skip = OUT_OF_SCOPE.get(path, {})

    def keep(node):
        name = scopes.get(id(node), '')
        if any(name == p or name.startswith(p + '.') for p in skip):
            return False
        return wanted is None or name.split('.')[0] in wanted

    out = []
    holder = _enclosing(tree)

    def add(node, what, how):
        s = holder.get(id(node), node)
        out.append({'id': '%s:%d:%d:%s' % (path, node.lineno, node.col_offset, what),
                    'file': path, 'line': node.lineno, 'what': what, 'how': how,
                    'span': [s.lineno, s.end_lineno]})
    for k, node in enumerate(ast.walk(tree)):
        if id(node) in docstrings or not keep(node) or not hasattr(node, 'lineno'):
            continue
        for j, (what, _) in enumerate(_edits(node)):
            add(node, what, ('node', k, j))
    for _, _, _, stmt in _statements(tree, docstrings):
        if keep(stmt):
            add(stmt, 'remove `%s`' % ast.unparse(stmt).split('\n')[0][:40],
                ('stmt', stmt.lineno, stmt.col_offset))
    return out


def _enclosing(tree):
    """{id(node): the innermost statement holding it (itself, for a statement;
    for a `nonlocal` declaration, its function's def: it runs no line of its
    own, so a mutant removing it is reached wherever the function runs)}."""
    out = {}

    def visit(node, stmt):
        for child in ast.iter_child_nodes(node):
            inner = (stmt if isinstance(child, ast.Nonlocal)
                     else child if isinstance(child, ast.stmt) else stmt)
            out[id(child)] = inner
            visit(child, inner)
    visit(tree, None)
    return out


def apply(mutant, text):
    """The text of the file with the mutant applied (None if it changes nothing)."""
    tree = ast.parse(text)
    how = mutant['how']
    if how[0] == 'node':
        _, k, j = how
        node = list(ast.walk(tree))[k]
        _, edit = _edits(node)[j]
        if edit == 'unwrap':
            _replace(tree, node, node.operand)
        else:
            edit(node)
    else:
        _, line, col = how
        docstrings = _docstrings(tree)
        for parent, field, i, stmt in _statements(tree, docstrings):
            if (stmt.lineno, stmt.col_offset) == (line, col):
                getattr(parent, field)[i] = ast.Pass()
                break
    new = ast.unparse(ast.fix_missing_locations(tree))
    return None if new == ast.unparse(ast.parse(text)) else new


def _replace(tree, old, new):
    for node in ast.walk(tree):
        for field, value in ast.iter_fields(node):
            if value is old:
                setattr(node, field, new)
                return
            if isinstance(value, list):
                for i, v in enumerate(value):
                    if v is old:
                        value[i] = new
                        return


def all_mutants(only=None):
    out = []
    for path in TARGETS:
        if only is None or path in only:
            out += mutants_of(path)
    return out


# --- running them -----------------------------------------------------------------

def copy_project(dest):
    for name in ('pipvm', 'compiler', 'disasm', 'tests', 'examples'):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(dest, name),
                        ignore=shutil.ignore_patterns('__pycache__', '.hypothesis'))
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
    return out


REACH_SECONDS = 3600           # the properties once, traced


def _record(reply, key):
    return {key: reply[key], 'outside': set(reply['outside']),
            'lines': {int(n) for n in reply['by_line']},
            'by_line': {int(n): set(ts) for n, ts in reply['by_line'].items()}}


def reach(files, run, args):
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
        reply = run({'reach': f, 'timeout': REACH_SECONDS})
        if reply['result'] != 'survived':
            raise SystemExit('the properties for %s fail on the real code (%s): no verdict '
                             'would mean anything' % (f, reply.get('by', reply['result'])))
        out[f] = _record(reply, 'examples')
        print('%s: %d lines run by its properties (%d examples)'
              % (f, len(out[f]['lines']), len(reply['examples'])), flush=True)
    return out


def suite_reach(files, run, args):
    """{file: which of its suite tests run each line, on the real code}
    (empty with --full-suite, or without the suite stage).  The suite must
    pass on the real code."""
    out = {}
    if not (args.suite or args.suite_only) or args.full_suite or args.fresh_copies:
        return out
    for f in sorted(files):
        reply = run({'suite_reach': f, 'timeout': REACH_SECONDS})
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
            keep.write(json.dumps(results[-1]) + '\n')
            keep.flush()


def campaign(mutants, args, keep=None):
    """Run the mutants; each result is also appended to the file `keep` as it
    comes (one JSON object a line), so an interrupted chunk keeps its results."""
    if args.cluster:
        return cluster_campaign(mutants, args, keep)
    results = []
    lock = threading.Lock()
    make = CopyWorker if args.fresh_copies else ServerWorker
    workers = [make(args) for _ in range(args.jobs)]
    free = list(workers)
    files = {m['file'] for m in mutants}
    reached = {} if args.fresh_copies else reach(files, workers[0].run, args)
    tested = suite_reach(files, workers[0].run, args)

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
    reached, tested = reach(files, run, args), suite_reach(files, run, args)
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


def load_equivalent(path):
    """{mutant id: why it is equivalent}, from lines `ID<TAB>why` (# comments)."""
    out = {}
    if path and os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            for line in f:
                if line.strip() and not line.startswith('#'):
                    mid, _, why = line.rstrip('\n').partition('\t')
                    out[mid] = why
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--only', nargs='+', metavar='FILE', help='mutate only these files')
    ap.add_argument('--sample', type=int, help='a fixed random sample of N mutants')
    ap.add_argument('--range', help='A:B, run only mutants A..B-1 of the (sampled) list')
    ap.add_argument('--ids', nargs='+', help='run only the mutants with these ids')
    ap.add_argument('--ids-file', metavar='FILE',
                    help='run only the mutants whose ids are the lines of FILE (ids hold spaces)')
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
    ap.add_argument('--summarize', nargs='+', metavar='JSON',
                    help='run nothing: add up the results kept in these files')
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
    ap.add_argument('--suite-only', action='store_true',
                    help='only the suite tests: for --ids the fuzz properties left alive')
    ap.add_argument('--equivalent', default=EQUIVALENT,
                    help='mutants classified as equivalent (ID<TAB>why a line)')
    args = ap.parse_args()
    equivalent = load_equivalent(args.equivalent)
    if args.summarize:
        latest = {}
        for name in args.summarize:
            with open(name) as f:
                for line in f:
                    r = json.loads(line)
                    # a later run of a mutant replaces an earlier, but a run
                    # of the fuzz properties alone that it survives keeps
                    # the suite's earlier kill (the suite was not run)
                    was = latest.get(r['id'])
                    if not (was and was['result'] == 'killed by suite' and r['result'] == 'survived'):
                        latest[r['id']] = r
        print(summary(list(latest.values()), equivalent))
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
        wanted = set(args.ids)
        mutants = [m for m in mutants if m['id'] in wanted]
    if args.sample is not None and args.sample < len(mutants):
        mutants = random.Random(args.seed).sample(mutants, args.sample)
    if args.range:
        a, _, b = args.range.partition(':')
        mutants = mutants[int(a or 0):int(b) if b else None]
    if args.list:
        for m in mutants:
            print(m['id'])
        print('%d mutants' % len(mutants))
        return
    keep = open(args.json, 'a') if args.json else None
    try:
        results = campaign(mutants, args, keep)
    finally:
        if keep:
            keep.close()
    print(summary(results, equivalent))


if __name__ == '__main__':
    main()
