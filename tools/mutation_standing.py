#!/usr/bin/env python3
"""Where every target of tools/mutation.py stands now: its mutants (the
ids of the tree's text), how many have a verdict in tools/mutation-results
and which; one Markdown table (docs/fuzzing.md, "Where each module stands").

    python tools/mutation_standing.py [--results DIR]

A row of an id the file no longer has (its line changed since: carry the
results with tools/mutation_carry.py first) counts nowhere.
"""
import argparse
import os

from mutation import read_results, results_file
from mutation_plan import ROOT, TARGETS, mutants_of

KILLED = ('killed', 'killed by suite', 'timeout')


def standing(path, directory):
    """(mutants, killed, equivalent, alive, without a verdict) of one target."""
    ids = {m['id'] for m in mutants_of(path)}
    name = results_file(directory, path)
    rows = read_results(name) if os.path.exists(name) else {}
    status = [rows[i]['status'] for i in ids if i in rows]
    killed = sum(s in KILLED for s in status)
    # ('unchanged': the edit changes nothing the file compiles to)
    equivalent = status.count('equivalent') + status.count('unchanged')
    return (len(ids), killed, equivalent, len(status) - killed - equivalent,
            len(ids) - len(status))


def table(directory):
    lines = ['| module | mutants | killed | equivalent | alive | without a verdict |',
             '| --- | ---: | ---: | ---: | ---: | ---: |']
    for path in sorted(TARGETS):
        lines.append('| `%s` | %d | %d | %d | %d | %d |' % ((path,) + standing(path, directory)))
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--results', default=os.path.join(ROOT, 'tools', 'mutation-results'))
    print(table(ap.parse_args().results))


if __name__ == '__main__':
    main()
