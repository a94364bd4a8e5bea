"""Carry a results file's rows to a newer commit's lines.

    python tools/mutation_carry.py FILE [TO]     (TO: default HEAD)

An id names a line of its target at the commit its row was measured at
(tools/mutation.py's results).  When the target changes, the rows of the
mutants whose statement is unchanged (the same lines of source, the edit at
the same place in them) are carried to that statement's new lines, their
verdict kept and `by` saying where it was reached; the others are dropped,
to be run again (tools/mutation.py --unsettled).  Each row is carried from
its own commit (a file's rows may come from several); rows already at TO
stay.
"""
import argparse
import collections
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

from mutation import RESULTS, read_results, results_file, write_results  # noqa: E402
from mutation_plan import mutants_of  # noqa: E402


def _keys(path, text):
    """{id: the mutant's statement's source, its place in it, what it does}:
    two commits' mutants with one key are the same edit of the same statement."""
    lines = text.split('\n')
    out = {}
    for m in mutants_of(path, text):
        first, last = m['span']
        _, line, col, what = m['id'].split(':', 3)
        out[m['id']] = ('\n'.join(lines[first - 1:last]), int(line) - first, int(col), what)
    return out


def carry_ids(path, old_text, new_text):
    """{old id: new id} of the mutants whose statement is unchanged.  Where a
    key is held by several (the same statement written twice), they pair in
    order only if both commits hold as many."""
    by_key = collections.defaultdict(lambda: ([], []))
    for k, (keys) in enumerate((_keys(path, old_text), _keys(path, new_text))):
        for i, key in keys.items():
            by_key[key][k].append(i)
    out = {}
    for old, new in by_key.values():
        if len(old) == len(new):
            out.update(zip(old, new))
    return out


def carry(rows, ids_from, now):
    """rows (a results file's) carried: each measured at its commit c through
    ids_from(c) to its new id at now; those already at now kept; the rest
    dropped."""
    out, ids = {}, {}
    for i, row in rows.items():
        was = row['commit'].rstrip('+')
        if was == now:
            out[i] = row
            continue
        if was not in ids:
            ids[was] = ids_from(was)
        if i in ids[was]:
            by = '%s (at %s; the statement unchanged at %s)' % (row['by'], was, now)
            out[ids[was][i]] = dict(row, id=ids[was][i], by=by.strip(), commit=now)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('file', help='the target, e.g. pipvm/engine/actions.py')
    ap.add_argument('now', nargs='?', default='HEAD')
    ap.add_argument('--results', default=RESULTS)
    args = ap.parse_args()

    def git(*a):
        return subprocess.run(['git', *a], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout
    now = git('rev-parse', '--short', args.now).strip()
    new_text = git('show', '%s:%s' % (now, args.file))

    def ids_from(was):
        try:
            old_text = git('show', '%s:%s' % (was, args.file))
        except subprocess.CalledProcessError:
            return {}           # (a commit this clone lacks: its rows dropped)
        return carry_ids(args.file, old_text, new_text)
    name = results_file(args.results, args.file)
    rows = read_results(name)
    out = carry(rows, ids_from, now)
    write_results(name, args.file, out)
    print('%s: %d rows, %d carried or kept, %d dropped' % (name, len(rows), len(out),
                                                          len(rows) - len(out)))


if __name__ == '__main__':
    main()
