"""A patch between two views (RFC 6902 JSON Patch, as boardgame.io sends
between a seat's filtered states): what a live channel sends after an
answer instead of the whole view.  Only the three operations a view needs:
`replace` and `remove` at a path, `add` at a path (a list's end is `-`).
The page applies them in table.js (applyPatch)."""


def diff(old, new, path=''):
    """The operations that turn old into new (both plain JSON data)."""
    if old == new:
        return []
    if type(old) is dict and type(new) is dict:
        # (equal values are skipped before any path is made: most of a view
        # is as it was, and comparing is done in C)
        ops = []
        for key in old:
            if key not in new:
                ops.append({'op': 'remove', 'path': path + '/' + _escape(key)})
        for key, value in new.items():
            if key in old:
                was = old[key]
                if was == value:
                    continue
                where = path + '/' + _escape(key)
                if type(value) in (dict, list) and type(was) is type(value):
                    ops += diff(was, value, where)
                else:
                    ops.append({'op': 'replace', 'path': where, 'value': value})
            else:
                ops.append({'op': 'add', 'path': path + '/' + _escape(key), 'value': value})
        return ops
    if type(old) is list and type(new) is list:
        if len(old) == len(new):
            ops = []
            for i, (a, b) in enumerate(zip(old, new)):
                if a != b:
                    ops += diff(a, b, '%s/%d' % (path, i))
            # many changed items: one replacement is smaller and as cheap
            if len(ops) <= len(new):
                return ops
        elif len(new) > len(old) and new[:len(old)] == old:
            return [{'op': 'add', 'path': path + '/-', 'value': v} for v in new[len(old):]]
    return [{'op': 'replace', 'path': path, 'value': new}]


def apply(doc, ops):
    """doc with ops applied, in place (as the page does): the client's side,
    for tests and the load benchmark."""
    for op in ops:
        keys = [_unescape(k) for k in op['path'].split('/')[1:]]
        if not keys:
            doc = op['value']
            continue
        parent = doc
        for k in keys[:-1]:
            parent = parent[int(k)] if type(parent) is list else parent[k]
        last = keys[-1]
        if type(parent) is list:
            if op['op'] == 'add' and last == '-':
                parent.append(op['value'])
            elif op['op'] == 'remove':
                del parent[int(last)]
            else:
                parent[int(last)] = op['value']
        elif op['op'] == 'remove':
            del parent[last]
        else:
            parent[last] = op['value']
    return doc


def _escape(key):
    key = str(key)
    return key.replace('~', '~0').replace('/', '~1') if '~' in key or '/' in key else key


def _unescape(key):
    return key.replace('~1', '/').replace('~0', '~')
