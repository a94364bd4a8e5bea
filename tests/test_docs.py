"""The manual's and the tutorial's examples run, and show what they say.

How docs/language.md and docs/tutorial.md are written so that this test can
run them (each document is one session in a fresh directory, its fenced
blocks taken in order):

- ```pip            a whole program, saved as `game.pip`;
  ```pip file=NAME  the same, saved as NAME (the text says which name).
  A program not followed by a console block must pass `pipvm check`
  silently; one followed by a console block is run by that block instead.
- ```text file=NAME  any other file the commands use (e.g. a script of
  answers), saved as NAME.
- ```console  commands and what they print: a line `$ pipvm ARGS` (with an
  optional `< FILE` for standard input) is run, and the lines after it, up
  to the next `$ `, are its output, stdout and stderr merged as a terminal
  shows them.  A line `...` stands for any number of lines (the banner,
  say), `...` within a line for any text (timings).
  The exit status must be 0 unless the output shows an `Error: ` message.
  Every `pipvm run` of a source is also run with `--engine reference`,
  which must print the same.
- Any other block (```sh for a command that waits for a person, say) is
  shown, not run.
"""
import os
import re
import shlex

import pytest

from .test_tools import ROOT
from .util import run_cli

DOCS = os.path.join(ROOT, 'docs')
FENCE = re.compile(r'^```([^\n]*)\n(.*?)^```$', re.M | re.S)


def blocks(path):
    """(line number, language, options, text) of each fenced block."""
    with open(path, encoding='utf-8') as f:
        doc = f.read()
    for m in FENCE.finditer(doc):
        lang, *opts = m.group(1).split()
        line = doc.count('\n', 0, m.start()) + 1
        yield line, lang, dict(o.split('=', 1) for o in opts), m.group(2)


def commands(text):
    """(command line, expected output lines) of a console block."""
    out = []
    for line in text.splitlines():
        if line.startswith('$ '):
            out.append((line[2:], []))
        else:
            assert out, 'a console block starts with a command'
            out[-1][1].append(line)
    return out


def run(command):
    """Run one `pipvm ...` command line here: (status, merged output)."""
    argv = shlex.split(command)
    assert argv[0] == 'pipvm', command
    stdin = b''
    if '<' in argv:
        at = argv.index('<')
        with open(argv[at + 1], 'rb') as f:
            stdin = f.read()
        argv = argv[:at] + argv[at + 2:]
    status, out = run_cli(argv[1:], stdin)
    return argv, status, out.decode('latin-1')


def pattern(expected):
    """A regex for expected output lines: a line `...` stands for any number
    of lines, `...` within a line for any text."""
    parts = []
    for line in expected:
        if line == '...':
            parts.append(r'(?:[^\n]*\n)*?')
        else:
            parts.append('[^\n]*'.join(map(re.escape, line.split('...'))) + r'\n')
    return re.compile(''.join(parts))


def check_command(command, expected, where):
    argv, status, out = run(command)
    if not pattern(expected).fullmatch(out):
        raise AssertionError('%s: `%s` printed:\n%s' % (where, command, out))
    assert (status != 0) == any('Error: ' in line for line in expected), where
    if argv[1] == 'run' and argv[2].endswith('.pip'):
        assert run(command + ' --engine reference')[1:] == (status, out), where


def run_document(name):
    path = os.path.join(DOCS, name)
    pending = None                 # a program not yet checked or run
    count = 0
    for line, lang, opts, text in blocks(path):
        where = '%s line %d' % (name, line)
        if lang == 'console':
            for command, expected in commands(text):
                check_command(command, expected, where)
                count += 1
            pending = None
            continue
        if pending:
            assert run_cli(['check', pending]) == (0, b''), pending_where
        pending = None
        if lang == 'pip' or 'file' in opts:
            file = opts.get('file', 'game.pip')
            with open(file, 'w', encoding='latin-1') as f:
                f.write(text)
            if lang == 'pip':
                pending, pending_where = file, where
                count += 1
    if pending:
        assert run_cli(['check', pending]) == (0, b''), pending_where
    return count


@pytest.mark.parametrize('name,at_least', [('language.md', 40), ('tutorial.md', 8)])
def test_every_example_runs_as_shown(name, at_least, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # A sim without a terminal logs its progress every 30 s: on a loaded
    # machine that line fell between the shown outputs' lines.
    from pipvm.design import sim
    monkeypatch.setattr(sim.Progress, 'LINE_EVERY', float('inf'))
    assert run_document(name) >= at_least


def test_the_runner_notices_a_wrong_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / 'game.pip').write_text('Game "g" requires 1 players.\nAction main { }\n')
    check_command('pipvm run game.pip --bots first', [
        '-' * 42, 'Welcome to g', '-' * 42, '...', 'Enter a name for Player 1: ...',
        'No winner has been declared.'], 'ok')
    for wrong in (['Welcome to ...'], ['...', 'No winner has been declared'], ['...', 'Ada']):
        with pytest.raises(AssertionError):
            check_command('pipvm run game.pip --bots first', wrong, 'wrong')
    with pytest.raises(AssertionError):
        check_command('pipvm check game.pip', ['Error: ...'], 'status')


# Where the language's error messages are made: the manual must name each.
MESSAGE_SOURCES = ['compiler/pip/lexer.py', 'compiler/pip/checker.py', 'compiler/pip/checks.py',
                   'compiler/pip/calls.py', 'compiler/reference/pip.py',
                   'pipvm/core/runtime.py', 'pipvm/engine/vm.py']
MESSAGE = re.compile(r"""(?:\bfail|\bFault|PipError)\([^'"\n]*?(['"])((?:(?!\1).)+)\1""")


def error_messages():
    for path in MESSAGE_SOURCES:
        with open(os.path.join(ROOT, path), encoding='utf-8') as f:
            for m in MESSAGE.finditer(f.read()):
                if m.group(2)[0].isupper():
                    yield m.group(2)


def test_the_manual_gives_every_error_message():
    messages = set(error_messages())
    assert {'Division by zero', "Can't skip past Let", 'Unterminated string',
            'Expected type %s but found type %s'} <= messages
    with open(os.path.join(DOCS, 'language.md'), encoding='utf-8') as f:
        manual = f.read()
    for message in messages:
        for piece in re.split('%[sdr]', message.replace("\\'", "'")):
            assert piece in manual, message


def test_the_manual_lists_the_lexers_keywords():
    from compiler.pip.lexer import KEYWORDS
    with open(os.path.join(DOCS, 'language.md'), encoding='utf-8') as f:
        manual = f.read()
    section = manual[manual.index('**Keywords**'):manual.index('(`leaving` is reserved')]
    listed = ' '.join(re.findall(r'`([^`]*)`', section)).split()
    literals = {'True', 'False', 'A', 'K', 'Q', 'J', 'C', 'H', 'S', 'D'}
    assert sorted(listed) == sorted(set(KEYWORDS) - literals)


# The README: its first command plays as shown, with the base package only;
# its second installs the test extra and runs the tests as .ci/run does; its
# table lists every example with the players its heading requires.
README = os.path.join(ROOT, 'README.md')


def readme_commands():
    with open(README, encoding='utf-8') as f:
        return [line[4:] for line in f if line.startswith('    python3 ') or line.startswith('    .venv/')]


def test_the_readmes_first_command_installs_the_base_package_and_plays_as_shown(monkeypatch):
    first = readme_commands()[0]
    install, play = first.split(' && .venv/bin/pipvm ')
    assert install == 'python3 -m venv .venv && .venv/bin/pip install -q -e .', install
    text = next(text for _, lang, _, text in blocks(README) if lang == 'text')
    monkeypatch.chdir(ROOT)
    assert '--echo' in play and 'Your choice? 2' in text
    check_command('pipvm ' + play.strip(), text.splitlines(), 'README')


def test_the_readmes_test_command_is_the_one_ci_runs():
    second = readme_commands()[1]
    assert second == ".venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest\n"
    with open(os.path.join(ROOT, '.ci', 'run'), encoding='utf-8') as f:
        ci = f.read()
    assert re.search(r"pip\" install -q -e '\.\[test[],]", ci)
    assert re.search(r'python" -m pytest( |$)', ci, re.M)


def test_the_readme_lists_every_example_with_its_players():
    with open(README, encoding='utf-8') as f:
        rows = dict(re.findall(r'^\| `(\w+\.pip)` \| ([^|]+) \|', f.read(), re.M))
    folder = os.path.join(ROOT, 'examples')
    assert sorted(rows) == sorted(n for n in os.listdir(folder) if n.endswith('.pip'))
    for name, players in rows.items():
        with open(os.path.join(folder, name), encoding='latin-1') as f:
            m = re.search(r'^Game "[^"]*" requires (\d+) (?:to (\d+) )?(players|teams of \d+)',
                          f.read(), re.M)
        low, high, unit = m.groups()
        said = low if high in (None, low) else '%s–%s' % (low, high)
        assert players.strip() == (said if unit == 'players' else '%s %s' % (said, unit)), name
