"""The architecture's layers (README, "Layout"), enforced with import-linter:
the contracts in pyproject.toml pass, and fail on code that breaks them, so
they are not vacuous; and the whole tree (the packages, tests, and the
scripts in tools/ and benchmarks/) has no import circle."""
import ast
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def lint(config, root=ROOT):
    code = ('import sys; from importlinter.cli import lint_imports; '
            'sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))')
    env = dict(os.environ, PYTHONPATH=root)
    return subprocess.run([sys.executable, '-c', code, config], cwd=root,
                          capture_output=True, text=True, env=env)


def test_the_layers_contracts_are_kept():
    done = lint(os.path.join(ROOT, 'pyproject.toml'))
    assert done.returncode == 0, done.stdout + done.stderr
    assert '4 kept, 0 broken' in done.stdout


def test_a_runtime_that_imports_a_front_end_and_a_front_end_that_imports_the_runtime_break_it(
        tmp_path):
    """The contracts on a copy of the tree where the loader imports Pip's
    front end again (as it did before the registry) and the front end
    imports the loader."""
    for package in ('pipvm', 'compiler', 'disasm'):
        shutil.copytree(os.path.join(ROOT, package), tmp_path / package,
                        ignore=shutil.ignore_patterns('__pycache__'))
    shutil.copy(os.path.join(ROOT, 'pyproject.toml'), tmp_path)
    for name, line in (('pipvm/play/loader.py', 'from compiler.pip import frontend\n'),
                       ('compiler/pip/printer.py', 'from pipvm.play import loader\n')):
        path = tmp_path / name
        path.write_text(line + path.read_text())
    done = lint(str(tmp_path / 'pyproject.toml'), str(tmp_path))
    assert done.returncode != 0
    assert 'Contracts: 2 kept, 2 broken.' in done.stdout, done.stdout + done.stderr
    assert 'pipvm.play.loader -> compiler.pip.frontend' in done.stdout
    assert 'compiler.pip.printer -> pipvm.play.loader' in done.stdout


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


SCRIPT_FOLDERS = ('tools', 'benchmarks')


def script_imports(folder, modules):
    """{'folder.script': modules it imports} for the scripts of a folder that
    puts itself on sys.path (so its scripts import each other by bare name):
    the imports of its scripts and of the packages' modules (the deepest one
    named), inside functions too."""
    scripts = {f[:-3] for f in os.listdir(folder) if f.endswith('.py')}
    out = {}
    for script in scripts:
        with open(os.path.join(folder, script + '.py'), encoding='utf-8') as f:
            tree = ast.parse(f.read())
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module] + [node.module + '.' + a.name for a in node.names]
            else:
                continue
            for name in names:
                if name.startswith(os.path.basename(folder) + '.'):     # tools.mutation
                    name = name.partition('.')[2]
                if name.split('.')[0] in scripts:
                    found.add('%s.%s' % (os.path.basename(folder), name.split('.')[0]))
                while name and name not in modules:
                    name = name.rpartition('.')[0]
                if name:
                    found.add(name)
        out['%s.%s' % (os.path.basename(folder), script)] = found
    return out


def import_cycles(*packages, scripts=()):
    """Each import cycle among the packages' modules and the scripts of the
    folders in scripts (imports inside functions count), as 'a -> b -> a';
    one per strongly connected set."""
    import grimp
    graph = grimp.build_graph(*packages, cache_dir=None)
    imports = {m: graph.find_modules_directly_imported_by(m) for m in graph.modules}
    for folder in scripts:
        imports.update(script_imports(folder, graph.modules))
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
                cycles.append(' -> '.join((first,) + shortest_chain(imports, back, first)))
    for module in sorted(imports):
        if module not in index:
            visit(module)
    return cycles


def shortest_chain(imports, start, end):
    """The modules from start to end along imports, breadth first."""
    came, todo = {start: None}, [start]
    for module in todo:
        if module == end:
            chain = []
            while module is not None:
                chain.append(module)
                module = came[module]
            return tuple(reversed(chain))
        for m in sorted(imports.get(module, ())):
            if m not in came:
                came[m] = module
                todo.append(m)


def test_no_module_imports_itself_round_a_cycle(monkeypatch):
    monkeypatch.syspath_prepend(ROOT)
    assert import_cycles('pipvm', 'compiler', 'disasm', 'tests',
                         scripts=[os.path.join(ROOT, f) for f in SCRIPT_FOLDERS]) == []


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


def test_scripts_that_import_each_other_are_a_cycle(tmp_path, monkeypatch):
    """As tools/mutation.py and tools/mutant_server.py did: each imports the
    other by bare name (one inside a function), and one imports a package;
    or through the folder's name, were it a package."""
    package = tmp_path / 'circular'
    package.mkdir()
    (package / '__init__.py').write_text('')
    (package / 'a.py').write_text('')
    scripts = tmp_path / 'tools'
    scripts.mkdir()
    (scripts / 'runner.py').write_text('import sys\nimport server\nfrom circular.a import x\n')
    (scripts / 'server.py').write_text('def late():\n    from runner import PROPERTIES\n')
    (scripts / 'alone.py').write_text('import runner\n')
    (scripts / 'other.py').write_text('from tools import third\n')
    (scripts / 'third.py').write_text('from tools.other import y\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    assert sorted(import_cycles('circular', scripts=[str(scripts)])) == [
        'tools.other -> tools.third -> tools.other', 'tools.runner -> tools.server -> tools.runner']
    assert script_imports(str(scripts), {'circular', 'circular.a'})['tools.runner'] == {
        'tools.server', 'circular.a'}
