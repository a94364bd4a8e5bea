"""The command line: exit statuses and messages, end to end in a subprocess."""
import os
import subprocess
import sys

from .util import DATA

GAME = os.path.join(DATA, 'full', 'crazy_eights.pip')


def pipvm(*args, stdin=None):
    p = subprocess.run([sys.executable, '-m', 'pipvm', *args], capture_output=True,
                       input=stdin, timeout=120)
    return p.returncode, p.stdout.decode('latin-1'), p.stderr.decode('latin-1')


def test_check_valid_program_prints_nothing():
    assert pipvm('check', GAME) == (0, '', '')


def test_missing_file_is_one_clear_line(tmp_path):
    missing = str(tmp_path / 'nope.pip')
    assert pipvm('check', missing) == (1, '', 'Error: cannot read %s: No such file or directory\n' % missing)
    assert pipvm('parse', str(tmp_path))[2] == 'Error: cannot read %s: Is a directory\n' % tmp_path


def test_errors_go_to_stderr_with_status_1(tmp_path):
    bad = tmp_path / 'bad.pip'
    bad.write_bytes(b'Game "g" requires 2 players.\nNumber n = True.\n')
    assert pipvm('check', str(bad)) == (1, '', 'Error: Line 2, Col 1: Expected type Number but found type Boolean\n')
    bad.write_bytes(b'Game "g" requires 2 players.\n\nDeck d foo.\n')
    assert pipvm('parse', str(bad)) == (1, '', 'Error: syntax error on line 3\n  at column 8, '
                                        'found "foo"; expected "." to end the declaration or '
                                        '"=" to give it a value\n')


def test_parse_keeps_bytes_as_written(tmp_path):
    src = tmp_path / 'b.pip'
    src.write_bytes('Game "Caf\u00e9 \u2660" requires 2 players.\n'.encode('utf-8'))
    rc, out, err = pipvm('parse', str(src))
    assert (rc, err) == (0, '')
    assert out.encode('latin-1') == src.read_bytes()


def test_usage_errors_exit_2():
    rc, _, err = pipvm('frobnicate')
    assert rc == 2 and 'invalid choice' in err


def test_module_and_script_entry_points_agree():
    # The console script installed with this interpreter: it sits beside
    # sys.executable, whatever is (or is not) on the PATH.
    script = os.path.join(os.path.dirname(sys.executable), 'pipvm')
    assert pipvm('parse', GAME)[1] == subprocess.run(
        [script, 'parse', GAME], capture_output=True).stdout.decode('latin-1')


EXAMPLE = os.path.join(os.path.dirname(DATA), '..', 'examples', 'high_card.pip')


def test_compile_writes_beside_the_source_or_to_o(tmp_path):
    src = tmp_path / 'g.pip'
    src.write_bytes(open(EXAMPLE, 'rb').read())
    assert pipvm('compile', str(src)) == (0, '', '')
    assert (tmp_path / 'g.pipc').read_bytes().startswith(b'PIPC')
    out = tmp_path / 'other.pipc'
    assert pipvm('compile', str(src), '-o', str(out)) == (0, '', '')
    assert out.read_bytes() == (tmp_path / 'g.pipc').read_bytes()


def test_compile_error_writes_nothing(tmp_path):
    src = tmp_path / 'bad.pip'
    src.write_bytes(b'Game "g" requires 2 players.\nAction main { x = 1. }\n')
    assert pipvm('compile', str(src)) == (1, '', "Error: Line 2, Col 15: Unknown identifier 'x'\n")
    assert not (tmp_path / 'bad.pipc').exists()


def test_bad_pipc_is_one_line(tmp_path):
    bad = tmp_path / 'bad.pipc'
    bad.write_bytes(b'hello')
    for command in ('run', 'dis'):
        assert pipvm(command, str(bad)) == (1, '', 'Error: %s: not a pipvm bytecode file\n' % bad)


def test_run_errors_follow_the_output_on_stderr():
    rc, out, err = pipvm('run', '--seed', '1', EXAMPLE, stdin=b'2\nAnn\n')
    assert rc == 1
    assert out.endswith('Enter a name for Player 2: ')
    assert err == 'Error: input ended while waiting for the name of Player 2\n'


def test_ctrl_c_is_one_line_and_status_130():
    import signal
    import time
    p = subprocess.Popen([sys.executable, '-m', 'pipvm', 'run', EXAMPLE], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.read(len('-' * 42) + 1)       # the game has started and waits for an answer
    time.sleep(0.3)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 130
    assert err == b'\nInterrupted.\n'


def test_reference_engine_runs_sources_not_bytecode(tmp_path):
    out = str(tmp_path / 'g.pipc')
    assert pipvm('compile', GAME, '-o', out)[0] == 0
    assert pipvm('run', '--engine', 'reference', out) == (
        1, '', 'Error: %s: the reference engine runs sources, not bytecode\n' % out)
    bad = tmp_path / 'bad.pip'
    bad.write_bytes(b'Game "g" requires 2 players.\nNumber n = True.\n')
    assert pipvm('run', '--engine', 'reference', str(bad)) == (
        1, '', 'Error: Line 2, Col 1: Expected type Number but found type Boolean\n')


def test_check_json_lists_the_errors_for_editors(tmp_path):
    import json
    assert pipvm('check', '--json', GAME) == (0, '[]\n', '')
    bad = tmp_path / 'bad.pip'
    cases = [
        (b'Game "g" requires 2 players.\n\nDeck d foo.\n', 3, 8,
         'syntax error: found "foo"; expected "." to end the declaration or "=" to give it a value'),
        (b'Game "g" requires 2 players.\nNumber n = True.\n', 2, 1,
         'Expected type Number but found type Boolean'),
        (b'Game "g" requires 2 players.\nAction main {\n', 3, 1,
         'syntax error: found the end of the file; expected "}" to close the block opened on '
         'line 2 or a statement'),
    ]
    for source, line, column, message in cases:
        bad.write_bytes(source)
        rc, out, err = pipvm('check', '--json', str(bad))
        assert (rc, err) == (1, '')
        assert json.loads(out) == [{'file': str(bad), 'line': line, 'column': column,
                                    'message': message}]
    missing = str(tmp_path / 'nope.pip')
    rc, out, _ = pipvm('check', '--json', missing)
    assert rc == 1 and json.loads(out) == [{
        'file': missing, 'line': None, 'column': None,
        'message': 'cannot read %s: No such file or directory' % missing}]


def test_version_comes_from_the_package_metadata():
    from importlib.metadata import version
    assert pipvm('--version') == (0, 'pipvm %s\n' % version('pipvm'), '')


def test_every_command_help_ends_with_examples_that_parse(capsys):
    import shlex
    import pytest
    from pipvm.cli import EXAMPLES, build_parser
    commands = build_parser()._subparsers._group_actions[0].choices
    assert set(commands) == set(EXAMPLES)
    for name in commands:
        with pytest.raises(SystemExit):
            build_parser().parse_args([name, '--help'])
        text = capsys.readouterr().out
        examples = EXAMPLES[name].split('\n')
        assert 1 <= len(examples) <= 2
        assert text.endswith('examples:\n' + ''.join('  %s\n' % e for e in examples))
        for example in examples:
            words = shlex.split(example, comments=True)
            words = words[:words.index('<')] if '<' in words else words
            assert words[0] == 'pipvm'
            assert build_parser().parse_args(words[1:]).command == name


def test_echo_shows_piped_answers_as_a_terminal_shows_them_typed():
    from .util import run_cli
    game = EXAMPLE
    with open(game[:-4] + '.answers', 'rb') as f:
        answers = f.read() + b'Ace of Clubs\n'        # one answer too many: never read
    _, typed = run_cli(['run', '--seed', '1', game], answers, echo=True)
    rc, out, err = pipvm('run', '--seed', '1', '--echo', game, stdin=answers)
    assert (rc, out.encode('latin-1'), err) == (0, typed, '')
    assert 'Your choice? 2\nThis game has 2 players.\n' in out
    assert 'Ace of Clubs' not in out
    # off by default: piped answers stay unseen, as in the golden transcripts
    assert pipvm('run', '--seed', '1', game, stdin=answers)[1] == run_cli(
        ['run', '--seed', '1', game], answers)[1].decode('latin-1') != out


def test_a_source_language_comes_from_lang_or_the_extension(tmp_path):
    """The registry of front ends (pipvm.languages entry points): an extension
    no language reads is one line naming --lang; --lang reads any file."""
    game = tmp_path / 'game.txt'
    game.write_bytes(open(GAME, 'rb').read())
    unknown = 'Error: %s: no language reads .txt files; name one with --lang (installed: pip, recycle)\n'
    for command in ('parse', 'check', 'compile', 'dis'):
        assert pipvm(command, str(game)) == (1, '', unknown % game)
    assert pipvm('run', str(game), '--bots', 'random', '--players', '2')[::2] == (1, unknown % game)
    assert pipvm('check', '--lang', 'pip', str(game)) == (0, '', '')
    assert pipvm('parse', '--lang', 'pip', str(game)) == pipvm('parse', GAME)
    assert pipvm('check', '--lang', 'cobol', GAME) == (
        1, '', 'Error: --lang cobol: no such language (installed: pip, recycle)\n')
    # Pip's source read as RECYCLE: RECYCLE's own error, one positioned line
    rc, out, err = pipvm('check', '--lang', 'recycle', GAME)
    assert (rc, out, err.count('\n')) == (1, '', 1) and err.startswith('Error: Line 1, Col ')
    played = pipvm('run', '--lang', 'pip', str(game), '--bots', 'random', '--players', '2',
                   '--seed', '3')
    assert played[0] == 0 and played == pipvm('run', GAME, '--bots', 'random', '--players', '2',
                                              '--seed', '3')


def test_recycle_files_go_through_every_tool_by_their_extension(tmp_path):
    """RECYCLE is registered beside Pip: .recycle and .gdl sources are
    checked, printed, compiled, disassembled and played like .pip ones."""
    agram = os.path.join(os.path.dirname(EXAMPLE), 'recycle', 'agram.recycle')
    assert pipvm('check', agram) == (0, '', '')
    gdl = tmp_path / 'agram.gdl'
    gdl.write_bytes(open(agram, 'rb').read())
    assert pipvm('parse', str(gdl)) == pipvm('parse', agram)
    assert pipvm('compile', '-o', str(tmp_path / 'a.pipc'), agram) == (0, '', '')
    played = pipvm('run', '--bots', 'random', '--seed', '3', agram)
    assert played[0] == 0 and 'The game was won by' in played[1]
    assert pipvm('run', '--bots', 'random', '--seed', '3', str(tmp_path / 'a.pipc')) == played
    assert 'WINNER' in pipvm('dis', agram)[1]
    assert pipvm('run', '--engine', 'reference', '--bots', 'random', '--seed', '3', agram) == played


def test_pip_is_registered_as_a_language():
    from importlib.metadata import entry_points
    from pipvm.play import languages
    from compiler.pip.language import PIP
    assert [ep.value for ep in entry_points(group=languages.GROUP, name='pip')] == [
        'compiler.pip.language:PIP']
    assert languages.for_path('x/GAME.PIP') is PIP and languages.named('pip') is PIP


def test_a_bare_skill_before_the_game_leaves_the_game_its_file():
    # argparse gives `--skill`'s optional KIND the next word: the game's file
    from pipvm.cli import build_parser
    from pipvm.play.seats import SKILL

    def parsed(*words):
        args = build_parser(list(words)).parse_args(list(words))
        args.checked(args)
        return args.file, args.skill
    assert parsed('sim', '--skill', 'game.pip') == ('game.pip', SKILL)
    assert parsed('sweep', '--vary', 'n=1,2', '--skill', 'game.pipc') == ('game.pipc', SKILL)
    assert parsed('sim', '--skill', 'mc:5', 'game.pip') == ('game.pip', 'mc:5')
    assert parsed('sim', 'game.pip', '--skill') == ('game.pip', SKILL)
    assert parsed('sim', 'game.pip') == ('game.pip', None)
    status, out, err = pipvm('sim', '--skill', 'mc')
    assert (status, err.splitlines()[-1]) == (
        2, 'pipvm sim: error: the following arguments are required: GAME.pipc|GAME.pip')


def test_the_usage_line_shows_a_needed_game_as_required():
    # sim and sweep take the file as optional only for `--skill GAME.pip`;
    # run and serve can go without one (--resume, --lobby)
    def usage(command):
        status, out, err = pipvm(command, '--help')
        assert status == 0, err
        return ' '.join(out.partition('\n\n')[0].split())
    for command in ('sim', 'sweep'):
        assert usage(command).endswith('] GAME.pipc|GAME.pip'), usage(command)
    for command in ('run', 'serve'):
        assert usage(command).endswith('[GAME.pipc|GAME.pip]'), usage(command)


def test_serve_will_not_let_seat_1_answer_a_count_that_leaves_out_a_seat_named():
    # The terminal offers seat 1 only the counts that seat every --seat; a
    # served table's seat 1 may answer any count, and 2 players left the bot
    # at seat 4 out without a word.  Now serve asks for --players first.
    nap = os.path.join(DATA, '..', '..', 'examples', 'nap.pip')
    status, out, err = pipvm('serve', nap, '--seat', '4=random', '--port', '0')
    assert status == 1 and out == ''
    assert err == 'Error: --seat 4: fewer players would leave it out; give --players 4, 5 or 6\n'
    status, out, err = pipvm('serve', nap, '--seat', '7=random', '--port', '0')
    assert status == 1 and err == 'Error: --seat 7: this game has at most 6 players\n'
