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
    report = mutation.summarize([name], {})
    assert '| `%s` | 2 | 0 | 1 | 0 | 1 | 0 | 0.0%% | 100.0%% |' % path in report


def test_the_trees_mutation_results_name_their_targets():
    for name in os.listdir(mutation.RESULTS):
        rows = mutation.read_results(os.path.join(mutation.RESULTS, name))
        assert rows, name
        for mutant_id, row in rows.items():
            assert mutation.results_file(mutation.RESULTS, mutant_id.split(':')[0]).endswith(name)
            assert row['status'] in mutation.KINDS + ('equivalent',) and row['commit'], row
