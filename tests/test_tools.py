"""The development tools stay in step with the code they edit."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

import inject_bugs  # noqa: E402


def test_every_injected_bug_still_finds_its_place():
    # A bug whose text no longer occurs once would make inject_bugs.py stop.
    for name, (path, old, new, _) in inject_bugs.BUGS.items():
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            assert f.read().count(old) == 1, name
        assert old != new


import fuzz_coverage  # noqa: E402
import mutation  # noqa: E402


def test_mutants_are_made_the_same_way_each_time_and_each_changes_the_code():
    path = 'pipvm/core/runtime.py'
    mutants = mutation.mutants_of(path)
    assert mutants == mutation.mutants_of(path)
    with open(os.path.join(ROOT, path), encoding='utf-8') as f:
        text = f.read()
    kinds = set()
    for m in mutants:
        new = mutation.apply(m, text)
        assert new is not None and new != text, m['id']
        compile(new, path, 'exec')
        kinds.add(m['what'].split()[0])
    # operators, comparisons, constants, off-by-ones, swapped arguments, removals
    assert {'Sub', 'Lt', 'LtE', '0', '1', 'index', 'swap', 'remove', 'string'} <= kinds, kinds
    # only the VM-only functions: nothing from new_deck, which the reference shares
    assert not any(fuzz_coverage.owner(fuzz_coverage.functions(path), m['line']) == 'new_deck'
                   for m in mutants)


def test_the_measured_parts_name_real_functions():
    for path, wanted in fuzz_coverage.TARGETS.items():
        names = {name for _, _, name in fuzz_coverage.functions(path)}
        assert set(wanted or ()) <= names, path
    for path, parts in mutation.OUT_OF_SCOPE.items():
        names = {name for _, _, name in fuzz_coverage.functions(path)}
        for part in parts:
            assert any(n == part or n.startswith(part + '.') for n in names), part


def test_mutation_results_keep_the_latest_verdict_of_each_mutant(tmp_path):
    path = 'pipvm/game/view.py'
    a, b = path + ':22:25:True -> False', path + ':41:7:drop Not'
    keep = mutation.Keep(directory=str(tmp_path))
    keep({'id': a, 'file': path, 'result': 'survived', 'by': 'not reached by its properties'})
    keep({'id': b, 'file': path, 'result': 'killed', 'by': 'its examples:\tAssertionError'})
    keep({'id': a, 'file': path, 'result': 'killed by suite', 'by': 'suite'})
    name = mutation.results_file(str(tmp_path), path)
    rows = mutation.read_results(name)
    assert [rows[i]['status'] for i in (a, b)] == ['killed by suite', 'killed']
    assert rows[b]['by'] == 'its examples: AssertionError'        # one row, one line
    assert rows[a]['commit'] == mutation.measured_commit(path)
    # a row may name another commit (--as-of: a branch's base), with a + where
    # the file is not there as in the tree (the first commit's view.py)
    root = mutation.subprocess.run(['git', 'rev-list', '--max-parents=0', 'HEAD'], cwd=ROOT,
                                   capture_output=True, text=True).stdout.split()[0]
    assert mutation.measured_commit(path, 'HEAD') == mutation.measured_commit(path)
    at_root = mutation.measured_commit(path, root)
    assert root.startswith(at_root[:-1]) and at_root.endswith('+')
    # a fuzz-only survival keeps the suite's kill; an equivalent stays so while it lives
    keep({'id': a, 'file': path, 'result': 'survived'})
    rows = mutation.read_results(name)
    rows[b].update(status='equivalent', by='why')
    mutation.write_results(name, path, rows)
    keep({'id': b, 'file': path, 'result': 'timeout'})
    keep({'id': b + '!', 'file': path, 'result': 'no tests'})
    rows = mutation.read_results(name)
    assert sorted(rows) == [a, b]
    assert (rows[a]['status'], rows[b]['status'], rows[b]['by']) == ('killed by suite', 'equivalent', 'why')
    # a campaign goes on with the mutants no row names
    assert [m['id'] for m in mutation.unsettled(mutation.mutants_of(path), str(tmp_path))] == [
        m['id'] for m in mutation.mutants_of(path) if m['id'] not in (a, b)]
    report = mutation.summarize([name], {})
    assert '| `%s` | 2 | 0 | 1 | 0 | 1 | 0 | 0.0%% | 100.0%% |' % path in report


def test_the_trees_mutation_results_name_their_targets():
    for name in os.listdir(mutation.RESULTS):
        rows = mutation.read_results(os.path.join(mutation.RESULTS, name))
        assert rows, name
        for mutant_id, row in rows.items():
            assert mutation.results_file(mutation.RESULTS, mutant_id.split(':')[0]).endswith(name)
            assert row['status'] in mutation.KINDS + ('equivalent',) and row['commit'], row


def test_a_reach_record_is_traced_once_and_kept_while_the_tree_is_the_same(tmp_path):
    import argparse
    args = argparse.Namespace(seed=1, examples=10)
    calls = []

    def run(request):
        calls.append(request)
        return {'result': 'survived' if request.get('pass', True) else 'killed', 'n': len(calls)}
    cache = mutation.ReachCache(str(tmp_path), args)
    request = {'reach': 'pipvm/game/view.py', 'timeout': 1}
    assert cache(run, request)['n'] == 1
    assert cache(run, request)['n'] == 1 and len(calls) == 1        # read back, not run
    # another job, file, seed or tree is another record
    assert cache(run, {'suite_reach': 'pipvm/game/view.py', 'timeout': 1})['n'] == 2
    assert cache(run, {'reach': 'pipvm/engine/vm.py', 'timeout': 1})['n'] == 3
    other = mutation.ReachCache(str(tmp_path), argparse.Namespace(seed=2, examples=10))
    assert other(run, request)['n'] == 4
    other.salt['reach', 'pipvm/game/view.py'] += ' a file changed'
    assert other(run, request)['n'] == 5
    # a record of properties that fail is never kept; no directory keeps nothing
    failing = dict(request, reach='pipvm/game/game.py', **{'pass': False})
    assert cache(run, failing)['n'] == 6 and cache(run, failing)['n'] == 7
    assert mutation.ReachCache(None, args)(run, request)['n'] == 8
    assert mutation.tree_key() == mutation.tree_key() != mutation.tree_key(suite=False)
    # a suite's record depends on its own test modules, not on the others
    suite = mutation.suite_tests('pipvm/engine/rules.py')
    assert mutation.tree_key(False, suite) not in (mutation.tree_key(False),
                                                   mutation.tree_key(False, ['tests/test_vm.py']))
    # the properties' record does not depend on the suite's test modules
    inputs = {os.path.relpath(f, ROOT) for f in mutation._inputs(suite=False)}
    assert 'tests/fuzz/test_fuzz.py' in inputs and 'tests/fuzz/harness.py' in inputs
    assert 'tests/util.py' in inputs and 'tools/mutation_plan.py' in inputs
    assert 'tests/test_rules.py' not in inputs and 'tools/mutation.py' not in inputs
    assert 'tests/test_rules.py' in {os.path.relpath(f, ROOT) for f in mutation._inputs(True)}


def test_the_suite_first_runs_the_quickest_tests_that_run_the_line():
    import argparse
    seconds = {'a': 5.0, 'b': 0.5, 'c': 30.0, 'd': 1.0}
    assert mutation.fastest(['a', 'b', 'c', 'd'], seconds, 10) == ['b', 'd', 'a']
    assert mutation.fastest(['c', 'a'], seconds, 1) == ['a']            # one at least
    tested = {'tests': ['a', 'b', 'c', 'd'], 'outside': {1}, 'lines': {5, 6},
              'by_line': {5: {0, 2}, 6: {1, 3}}, 'seconds': seconds}
    mutant = {'span': [5, 5]}
    args = argparse.Namespace(suite_only=False, timeout=1, suite_timeout=1, suite=True,
                              all_examples=False, suite_first=10.0)
    req = mutation.request(mutant, args, None, tested)
    assert (req['first'], req['tests']) == (['a'], ['c'])
    assert req['first_timeout'] == 1                # (never past --suite-timeout)
    args.suite_timeout = 1000                       # (5 s times FIRST_TIMES, or the floor)
    assert mutation.request(mutant, args, None, tested)['first_timeout'] == max(
        mutation.FIRST_FLOOR, 5.0 * mutation.FIRST_TIMES)
    args.suite_timeout = 1
    args.suite_first = None
    req = mutation.request(mutant, args, None, tested)
    assert 'first' not in req and req['tests'] == ['a', 'c']
    # a module-level line: every suite test, the quickest first
    args.suite_first = 10.0
    req = mutation.request({'span': [1, 1]}, args, None, tested)
    assert (req['first'], req['tests']) == (['b', 'd', 'a'], ['c'])
    args.suite_first = 100.0                    # the whole suite before the properties
    req = mutation.request({'span': [1, 1]}, args, None, tested)
    assert (req['first'], req['tests']) == (['b', 'd', 'a', 'c'], [])


def test_a_mutant_the_first_suite_tests_kill_is_not_run_on_the_properties(monkeypatch):
    import mutant_server
    jobs = []

    def child(kill):
        def run_child(path, text, job, timeout, only=None):
            jobs.append((job, only))
            return {'result': 'killed', 'by': 'suite'} if job == 'suite' and only == kill \
                else {'result': 'survived'}
        return run_child
    path = 'pipvm/game/view.py'
    mutant = next(m for m in mutation.mutants_of(path))
    request = {'mutant': mutant, 'timeout': 1, 'suite_timeout': 1, 'fuzz': True, 'suite': True,
               'examples': [], 'first': ['t1'], 'tests': ['t2']}
    monkeypatch.setattr(mutant_server, 'run_child', child(['t1']))
    reply = mutant_server.run(request)
    assert (reply['result'], reply['by']) == ('killed by suite', 'suite (run first)')
    assert jobs == [('suite', ['t1'])] and set(reply['stages']) == {'first'}
    # passed: the properties, then the rest of the suite
    jobs.clear()
    monkeypatch.setattr(mutant_server, 'run_child', child(['t2']))
    reply = mutant_server.run(request)
    assert jobs == [('suite', ['t1']), ('fuzz', []), ('suite', ['t2'])]
    assert reply['result'] == 'killed by suite' and set(reply['stages']) == {'first', 'fuzz', 'suite'}
    # the first tests over their time are no verdict, but the reply says so
    monkeypatch.setattr(mutant_server, 'run_child', lambda path, text, job, timeout, only=None:
                        {'result': 'timeout' if job == 'suite' else 'survived'})
    reply = mutant_server.run(dict(request, tests=[]))
    assert (reply['result'], reply['by']) == ('survived', 'the suite timed out')
    monkeypatch.setattr(mutant_server, 'run_child', child(['t2']))
    jobs.clear()
    reply = mutant_server.run(dict(request, tests=[]))
    assert jobs == [('suite', ['t1']), ('fuzz', [])] and reply == dict(reply, result='survived')
    assert 'by' not in reply
    # with first_timeout (the runner's: their time on the real code, times
    # FIRST_TIMES), running over it is a verdict: an endless loop
    limits = []
    monkeypatch.setattr(mutant_server, 'run_child', lambda path, text, job, timeout, only=None:
                        limits.append(timeout) or {'result': 'timeout'})
    reply = mutant_server.run(dict(request, first_timeout=0.5))
    assert limits == [0.5] and reply['result'] == 'timeout' and '0.5 s' in reply['by']


def test_cheap_first_runs_the_mutants_the_fewest_examples_reach_first():
    reached = {'f.py': {'examples': ['e0', 'e1', 'e2'], 'outside': {1}, 'lines': {1, 5, 6},
                        'by_line': {1: {0}, 5: {0, 1}, 6: {2}}}}
    mutants = [{'id': i, 'file': 'f.py', 'span': span}
               for i, span in (('a', [1, 1]), ('b', [5, 5]), ('c', [6, 6]), ('d', [9, 9]))]
    assert [m['id'] for m in mutation.cheap_first(mutants, reached)] == ['d', 'c', 'b', 'a']
    assert mutation.cheap_first(mutants, {}) == mutants


def test_the_generators_sweep_runs_first_of_the_suite():
    import argparse
    path = 'pipvm/engine/actions.py'
    sweep = mutation.QUICK[path]
    assert sweep and all(t in mutation.SUITE[path] and os.path.exists(os.path.join(ROOT, t))
                         for t in sweep)
    s1, s2 = sweep[0] + '::t[a]', sweep[0] + '::t[b]'
    seconds = {'a': 0.1, s1: 3.0, s2: 0.5, 'c': 30.0}
    tested = {'tests': ['a', s1, s2, 'c'], 'outside': set(), 'lines': {5},
              'by_line': {5: {0, 1, 2, 3}}, 'seconds': seconds}
    args = argparse.Namespace(suite_only=False, timeout=1, suite_timeout=1, suite=True,
                              all_examples=False, suite_first=1.0, no_quick=False)
    mutant = {'file': path, 'span': [5, 5]}
    # its tests that run the line, the quickest first, then the quickest others
    req = mutation.request(mutant, args, None, tested)
    assert (req['first'], req['tests']) == ([s2, s1, 'a'], ['c'])
    args.no_quick = True                        # as before: the quickest, whatever they are
    req = mutation.request(mutant, args, None, tested)
    assert (req['first'], req['tests']) == (['a', s2], [s1, 'c'])
    # another file's mutants: no sweep first
    args.no_quick = False
    req = mutation.request(dict(mutant, file='pipvm/engine/vm.py'), args, None, tested)
    assert req['first'] == ['a', s2]


def test_rows_are_carried_to_a_commit_where_their_statement_is_unchanged():
    import mutation_carry
    path = 'pipvm/engine/fors.py'
    old = 'X = 1\n\n\ndef f(a):\n    return a + X\n\n\ndef g(b):\n    return b - 1\n'
    new = '"""doc"""\nX = 1\n\n\ndef f(a):\n    return a + X\n\n\ndef g(b):\n    return b - 2\n'
    ids = mutation_carry.carry_ids(path, old, new)
    at = {m['id'] for m in mutation.mutants_of(path, new)}
    assert set(ids.values()) <= at
    # the unchanged statements' mutants, one line down; the changed one's not
    assert ids[path + ':1:4:1 -> 2'] == path + ':2:4:1 -> 2'
    assert ids[path + ':5:11:Add -> Sub'] == path + ':6:11:Add -> Sub'
    assert not any(i.startswith(path + ':9:') for i in ids)
    rows = {i: {'id': i, 'status': 'killed by suite', 'by': 'suite', 'commit': 'aaa'}
            for i in (path + ':1:4:1 -> 2', path + ':9:15:1 -> 2')}
    rows[path + ':7:0:x'] = {'id': path + ':7:0:x', 'status': 'killed', 'by': '', 'commit': 'bbb'}
    # (a row of a third commit, carried by its own ids: each commit's are asked once)
    rows[path + ':5:11:Add -> Sub'] = {'id': path + ':5:11:Add -> Sub', 'status': 'killed',
                                       'by': 'fuzz', 'commit': 'ccc'}
    asked = []

    def ids_from(was):
        asked.append(was)
        return ids
    out = mutation_carry.carry(rows, ids_from, 'bbb')
    assert sorted(asked) == ['aaa', 'ccc']
    assert sorted(out) == [path + ':2:4:1 -> 2', path + ':6:11:Add -> Sub', path + ':7:0:x']
    row = out[path + ':2:4:1 -> 2']
    assert row['commit'] == 'bbb' and row['status'] == 'killed by suite' and 'aaa' in row['by']
    assert 'ccc' in out[path + ':6:11:Add -> Sub']['by']


def test_edits_of_nodes_starting_at_one_place_have_ids_of_their_own():
    # `a + b + c`'s two additions and `a <= x <= b`'s two comparisons start
    # at one line and column: one id for both kept only one verdict of two
    path = 'pipvm/engine/fors.py'
    text = 'def f(a, b, c, x):\n    return a + b + c, a <= x <= b\n'
    ids = [m['id'] for m in mutation.mutants_of(path, text)]
    assert len(ids) == len(set(ids))
    assert {path + ':2:11:Add -> Sub', path + ':2:11:Add -> Sub (2)',
            path + ':2:22:LtE -> Lt', path + ':2:22:LtE -> Lt (2)'} <= set(ids)


import mutation_standing  # noqa: E402


def test_the_standing_counts_each_id_of_the_tree_s_text_once(tmp_path):
    path = 'pipvm/game/view.py'
    ids = [m['id'] for m in mutation.mutants_of(path)]
    rows = {i: {'id': i, 'status': s, 'by': '', 'commit': 'x'}
            for i, s in zip(ids, ('killed', 'killed by suite', 'timeout', 'equivalent', 'survived'))}
    stale = path + ':9999:1:drop Not'        # a line the file no longer has counts nowhere
    rows[stale] = {'id': stale, 'status': 'killed', 'by': '', 'commit': 'x'}
    mutation.write_results(mutation.results_file(str(tmp_path), path), path, rows)
    assert mutation_standing.standing(path, str(tmp_path)) == (len(ids), 3, 1, 1, len(ids) - 5)
    line = [t for t in mutation_standing.table(str(tmp_path)).split('\n') if path in t]
    assert line == ['| `%s` | %d | 3 | 1 | 1 | %d |' % (path, len(ids), len(ids) - 5)]
