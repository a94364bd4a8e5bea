"""A list's size in a composed run (pipvm/engine/actions.py): a name the
run sets once, to `len(...)`, holds an int of at least 0, so DIV of two of
them (`runtime.divide(int(a), int(b))`, the table's body: Oh Hell's
`best->stash->size / players->size`) is floor division where the divisor
is not 0 (truncation toward zero and floor agree on numbers of at least
0; the int() of an int is itself), runtime.divide's fault where it is."""
import re

_DIVIDE = re.compile(r'runtime\.divide\(int\((\w+)\), int\((\w+)\)\)')


def sized(text):
    """text (a run's statements) with its sizes' division written out."""
    if 'runtime.divide(int(' not in text:
        return text
    import ast          # (here: a game without a DIV never pays its 0.6 ms import)
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    stores, sizes = {}, {}          # name -> how often it is set; a size -> the line setting it
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == 'len'):
            sizes[node.targets[0].id] = node.lineno
    starts = [0] + [m.end() for m in re.finditer('\n', text)]     # (a line's first character)

    def divided(m):
        a, b = m.group(1), m.group(2)
        line = next(k for k in range(len(starts), 0, -1) if starts[k - 1] <= m.start())
        if not all(stores.get(x) == 1 and sizes.get(x, line) < line for x in (a, b)):
            return m.group(0)
        return '(%s // %s if %s else runtime.divide(%s, %s))' % (a, b, b, a, b)
    return _DIVIDE.sub(divided, text)
