"""`--set NAME=VALUE`: a variant plays exactly as the file edited to declare
that value would, on both engines and from a .pipc; every bad setting is one
`Error:` line before anything runs."""
import json
import os
import shlex
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, assume, given, seed, settings
from hypothesis import strategies as st

from compiler.pip import frontend
from compiler.pip.language import PIP
from pipvm.core import plain
from pipvm.play import loader, overrides
from pipvm.isa import pipc

from .test_sim import GAMES, ROOT, sim_json
from .fuzz import harness
from .fuzz.budget import EXAMPLES, SEED
from .fuzz.programs import cases
from .fuzz.test_fuzz import REPLAY
from .util import run_cli

VARIANT = '''Game "Variant test" requires 2 players.

Number target = 3 + 2.
Number twice = target * 2.
Boolean loud = target > 4 and target < 100.
String greeting = "hello".
Rank high = Q.
Suit trump = H.
Number later.
Area table labeled "Table" is faceup.
Deck deck = standard.

Action main {
  message players "target {target} twice {twice} loud {loud} {greeting} {high} {trump}".
  if defined later { message players "later {later}". }
  winner players->first.
}
'''

# (--set, the declaration it stands for, as it is in VARIANT and as edited)
EDITS = [
    ('target=9', 'Number target = 3 + 2.', 'Number target = 9.'),
    ('target=-200', 'Number target = 3 + 2.', 'Number target = 0 - 200.'),
    ('loud=false', 'Boolean loud = target > 4 and target < 100.', 'Boolean loud = False.'),
    ('greeting=hi there', 'String greeting = "hello".', 'String greeting = "hi there".'),
    ('high=K', 'Rank high = Q.', 'Rank high = K.'),
    ('high=7', 'Rank high = Q.', 'Rank high = 7.'),
    ('trump=spades', 'Suit trump = H.', 'Suit trump = S.'),
    ('trump=C', 'Suit trump = H.', 'Suit trump = C.'),
    ('later=4', 'Number later.', 'Number later = 4.'),
]


def transcript(argv):
    status, out = run_cli(['run', *argv, '--bots', 'random', '--seed', '1', '--players', '2'])
    assert status == 0, out
    return out


@pytest.fixture
def variant(tmp_path):
    path = tmp_path / 'variant.pip'
    path.write_text(VARIANT)
    compiled = tmp_path / 'variant.pipc'
    assert run_cli(['compile', str(path), '-o', str(compiled)]) == (0, b'')
    return path, compiled


@pytest.mark.parametrize('setting,declared,edited', EDITS, ids=[e[0] for e in EDITS])
def test_a_setting_plays_as_the_edited_declaration(variant, tmp_path, setting, declared, edited):
    path, compiled = variant
    assert declared in VARIANT
    edited_path = tmp_path / 'edited.pip'
    edited_path.write_text(VARIANT.replace(declared, edited))
    want = transcript([str(edited_path)])
    assert want != transcript([str(path)])                # the setting changes something
    assert transcript([str(path), '--set', setting]) == want
    assert transcript([str(path), '--set', setting, '--engine', 'reference']) == want
    assert transcript([str(compiled), '--set', setting]) == want


def test_several_settings_and_later_initialisers_see_them(variant):
    path, _ = variant
    out = transcript([str(path), '--set', 'target=200', '--set', 'greeting=yo',
                      '--set', 'trump=D', '--set', 'high=seven'])
    assert b'target 200 twice 400 loud False yo Seven Diamonds' in out


@pytest.mark.parametrize('setting,message', [
    ('nope=1', "--set nope=1: {path} declares no global 'nope'"),
    ('table=1', "--set table=1: 'table' is an Area; only a Number, Boolean, String, Rank or "
                "Suit can be set"),
    ('deck=1', "'deck' is a CardList; only a Number"),
    ('main=1', "'main' is an action; only a Number"),
    ('target=seven', "--set target=seven: 'target' is a Number, so the value must be a whole "
                     "number"),
    ('target=1.5', "'target' is a Number, so the value must be a whole number"),
    ('target=' + '9' * 5000, "'target' is a Number, so the value must be a whole number"),
    ('loud=yes', "'loud' is a Boolean, so the value must be True or False"),
    ('high=\u00b2', "'high' is a Rank, so the value must be A, 2 to 10"),
    ('high=14', "'high' is a Rank, so the value must be A, 2 to 10, J, Q, K or a rank name"),
    ('trump=X', "'trump' is a Suit, so the value must be C, H, S, D or a suit name"),
    ('greeting=\u20ac', "'greeting' is a String, so the value must be Latin-1 text"),
], ids=lambda v: v[:24])
def test_bad_settings_are_one_line_before_anything_runs(variant, setting, message):
    path, compiled = variant
    for file in (path, compiled):
        for command in ('run', 'sim'):
            status, out = run_cli([command, str(file), '--set', setting, '--players', '2'])
            text = out.decode('latin-1')
            assert status == 1 and text.count('\n') == 1 and text.startswith('Error: ')
            assert message.format(path=file) in text, text


def test_a_name_set_twice_is_an_error(variant):
    status, out = run_cli(['run', str(variant[0]), '--set', 'target=1', '--set', 'target=2'])
    assert (status, out) == (1, b'Error: --set target=2: target is set twice\n')


def test_a_version_1_file_still_loads_but_has_no_types_to_set(variant, tmp_path):
    _, compiled = variant
    program = pipc.load(compiled.read_bytes(), 'v.pipc')
    assert program.global_types[:6] == ['Number', 'Number', 'Boolean', 'String', 'Rank', 'Suit']
    old = pipc.dump(plain.evolve(program, global_types=None))
    assert old[4] == 1
    old_path = tmp_path / 'old.pipc'
    old_path.write_bytes(old)
    assert transcript([str(old_path)]) == transcript([str(compiled)])
    status, out = run_cli(['run', str(old_path), '--set', 'target=1'])
    assert status == 1 and b'has no global types (compiled by an older pipvm)' in out


def test_a_bad_global_type_tag_is_corrupt(variant):
    data = bytearray(variant[1].read_bytes())
    program = pipc.load(bytes(data), 'v.pipc')
    types_at = data.index(b'deck', 9) + 4               # the last global name, then its types
    assert data[types_at:types_at + len(program.global_types)] == bytes(
        pipc.GLOBAL_TYPES.index(t) for t in program.global_types)
    data[types_at] = len(pipc.GLOBAL_TYPES)
    from .test_pipc import load_error, with_checksum
    assert load_error(with_checksum(bytes(data[9:]))) == 'Error: g.pipc: corrupt (bad global type)'


def settable(path):
    """(name, a value of its type) for each global --set can change."""
    from pipvm.play.loader import load_program
    program = load_program(path)
    values = {'Number': '3', 'Boolean': 'True', 'String': 'x y', 'Rank': 'J', 'Suit': 'Hearts'}
    return [(n, values[t]) for n, t in zip(program.global_names, program.global_types)
            if t in values]


@pytest.mark.parametrize('path', GAMES, ids=os.path.basename)
def test_settings_play_alike_on_both_engines_in_every_game(path):
    """The VM's program compiled from the checked program with the values
    against the reference's checked program with them."""
    sets = [a for n, v in settable(path) for a in ('--set', '%s=%s' % (n, v))]
    assert sets or 'high_card' not in path
    argv = ['run', path, *sets, '--bots', 'random', '--seed', '2', '--max-steps', '3000']
    vm = run_cli(argv)
    assert vm == run_cli(argv + ['--engine', 'reference'])
    assert b'Error: --set' not in vm[1]


def test_the_sim_report_shows_the_settings_and_replays_them(tmp_path):
    path = os.path.join(ROOT, 'examples', 'high_card.pip')
    report = sim_json(path, '--games', '20', '--set', 'rounds=2')
    assert report['set'] == {'rounds': '2'} and report['length']['mean'] == 4.0
    assert sim_json(path, '--games', '20')['set'] == {}
    status, out = run_cli(['sim', path, '--games', '5', '--set', 'rounds=2'])
    assert out.decode().splitlines()[0].endswith('--bots random --players 2 --set rounds=2')
    broken = tmp_path / 'broken.pip'
    broken.write_text('Game "B" requires 2 players.\nNumber d = 1.\n'
                      'Action main {\n  let x be 10 / d.\n  message players "{x}".\n}\n')
    report = sim_json(str(broken), '--games', '3', '--set', 'd=0')
    replay = shlex.split(report['errors']['replay'])
    assert '--set' in replay and replay[replay.index('--set') + 1] == 'd=0'
    status, out = run_cli(replay[1:])
    assert status == 1 and out.endswith(report['errors']['message'].encode() + b'\n')
    assert json.loads(json.dumps(report)) == report


# --- generated programs -----------------------------------------------------------

VALUES = {
    'Number': st.integers(-50, 50).map(str),
    'Boolean': st.sampled_from(['True', 'false']),
    'String': st.text(st.characters(min_codepoint=32, max_codepoint=255), max_size=6),
    'Rank': st.sampled_from(['A', '2', '10', 'J', 'q', 'King', 'seven']),
    'Suit': st.sampled_from(['C', 'h', 'Spades', 'diamonds']),
}


@seed(SEED)
@settings(max_examples=max(50, EXAMPLES // 4), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(cases(), st.data())
def test_settings_in_generated_programs_play_alike_on_both_engines(case, data):
    """The bytecode rewrite against the syntax-tree rewrite, on programs with
    every kind of initialiser (jumps in and/or, globals declared without one)."""
    checked = frontend.check_text(case.source)
    program = harness.compile_checked(checked)
    settable = [(n, t) for n, t in zip(program.global_names, program.global_types)
                if t in VALUES]
    assume(settable)
    chosen = data.draw(st.lists(st.sampled_from(settable), min_size=1, unique=True))
    sets = [(name, data.draw(VALUES[t])) for name, t in chosen]
    # The .pipc's way (constants in its init code) against the source's (literals
    # in the checked program before code generation).
    initial = overrides.Initial(sets, 'g.pipc')
    variant = pipc.load(pipc.dump(program), 'g.pipc', initial)
    assert [s.name for s in initial.settings] == [n for n, _ in chosen]
    declared = PIP.declarations(checked)
    assert overrides.resolve(declared, sets, 'g.pip') == initial.settings
    variant_checked = PIP.with_values(checked, overrides.values(initial.settings))
    vm = harness.run(loader.vm_engine(variant, harness.MAX_STEPS), case.seed, case.answers)
    ref = harness.run(harness.reference_engine(variant_checked), case.seed, case.answers)
    assert (vm.transcript, vm.ending, vm.state) == (ref.transcript, ref.ending, ref.state), REPLAY


def test_a_pipc_variant_imports_nothing_of_the_compiler(variant):
    script = ('import sys\n'
              'from pipvm import cli\n'
              'status = cli.main(["run", sys.argv[1], "--set", "target=9", "--bots", "random",\n'
              '                   "--players", "2", "--seed", "1"])\n'
              'bad = sorted(m for m in sys.modules if m.split(".")[0] in ("sly", "compiler"))\n'
              'sys.stderr.write("status=%d modules=%s\\n" % (status, bad))\n')
    p = subprocess.run([sys.executable, '-c', script, str(variant[1])], capture_output=True,
                       cwd=ROOT)
    assert p.stderr.decode().splitlines()[-1] == 'status=0 modules=[]'
    assert b'target 9 twice 18' in p.stdout
