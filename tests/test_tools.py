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
