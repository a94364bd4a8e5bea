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
