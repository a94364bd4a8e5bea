"""The architecture's layers (README, "Layout"), enforced with import-linter:
the contract in pyproject.toml passes, and the same check fails on a layer
order that the code does not keep, so it is not vacuous."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def lint(config):
    code = ('import sys; from importlinter.cli import lint_imports; '
            'sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))')
    return subprocess.run([sys.executable, '-c', code, config], cwd=ROOT,
                          capture_output=True, text=True)


def test_the_layers_contract_is_kept():
    done = lint(os.path.join(ROOT, 'pyproject.toml'))
    assert done.returncode == 0, done.stdout + done.stderr
    assert '1 kept, 0 broken' in done.stdout


def test_a_layer_order_the_code_breaks_is_caught(tmp_path):
    config = tmp_path / 'upside_down.toml'
    config.write_text('[tool.importlinter]\n'
                      'root_packages = ["pipvm", "compiler", "disasm"]\n'
                      '[[tool.importlinter.contracts]]\n'
                      'name = "engine below the file format"\n'
                      'type = "layers"\n'
                      'layers = ["pipvm.isa", "pipvm.engine"]\n')
    done = lint(str(config))
    assert done.returncode != 0
    assert 'pipvm.engine.vm -> pipvm.isa' in done.stdout


def import_cycles(*packages):
    """Each import cycle among the packages' modules (imports inside
    functions count), as 'a -> b -> a'; one per strongly connected set."""
    import grimp
    graph = grimp.build_graph(*packages, cache_dir=None)
    imports = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):                               # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(imports[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                members.add(w)
                if w == v:
                    break
            if len(members) > 1:
                first = min(members)
                back = min(m for m in imports[first] if m in members)
                chain = graph.find_shortest_chain(importer=back, imported=first)
                cycles.append(' -> '.join((first,) + tuple(chain)))
    for module in sorted(imports):
        if module not in index:
            visit(module)
    return cycles


def test_no_module_imports_itself_round_a_cycle():
    assert import_cycles('pipvm', 'compiler', 'disasm') == []


def test_an_import_cycle_is_named(tmp_path, monkeypatch):
    package = tmp_path / 'circular'
    package.mkdir()
    (package / '__init__.py').write_text('')
    (package / 'a.py').write_text('from circular import b\n')
    (package / 'b.py').write_text('def late():\n    from circular import c\n')
    (package / 'c.py').write_text('import circular.a\n')
    (package / 'd.py').write_text('from circular import a\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles('circular') == ['circular.a -> circular.b -> circular.c -> circular.a']
