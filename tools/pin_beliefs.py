#!/usr/bin/env python3
"""Write (--write) or compare the record of tests/pinned_beliefs.py: the
thinking seat's worlds and their cost at fixed seeds.  Without --write it
prints, case by case, the first decision that differs from the record."""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
from tests import pinned_beliefs as pinned  # noqa: E402


def main():
    write = '--write' in sys.argv[1:]
    old = {} if write or not os.path.exists(pinned.RECORD) else pinned.load()
    new, differ = {}, 0
    for case in pinned.CASES:
        k = pinned.key(*case)
        new[k] = list(pinned.record(*case))
        was = old.get(k)
        if not write and was != new[k]:
            differ += 1
            i = next((i for i, (a, b) in enumerate(zip(was or [], new[k])) if a != b),
                     min(len(was or []), len(new[k])))
            print('%s: decision %d: %s, recorded %s' % (
                k, i + 1, new[k][i] if i < len(new[k]) else 'none',
                was[i] if was and i < len(was) else 'none'))
        else:
            print('%s: %d decisions%s' % (k, len(new[k]), '' if write else ', as recorded'),
                  flush=True)
    if write:
        os.makedirs(os.path.dirname(pinned.RECORD), exist_ok=True)
        with open(pinned.RECORD, 'w', encoding='utf-8') as f:
            json.dump(new, f, indent=1)
            f.write('\n')
        print('wrote', os.path.relpath(pinned.RECORD, ROOT))
    sys.exit(1 if differ else 0)


if __name__ == '__main__':
    main()
