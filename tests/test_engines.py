"""Which engine plays: the compiled tier unless `--engine` names another,
from the one constant pipvm.engine.engines.DEFAULT, everywhere a game is
played (run, sim, sweep, the cluster's workers, records, the game object
the web table and the bots use); `vm`, the loop's earlier name, still taken."""
import json
import os
import subprocess
import sys

import pytest

from pipvm import cli
from pipvm.design import cluster
from pipvm.engine import engines
from pipvm.game.game import Game
from pipvm.isa import pipc
from pipvm.play import loader
from pipvm.core.rng import OCamlRandom
from pipvm.play.table import SilentConsole, Table, TableGame

from .util import run_cli, run_cli_split

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')
THREE_HEARTS = os.path.join(ROOT, 'examples', 'three_hearts.pip')


def test_the_default_is_the_compiled_tier():
    assert engines.DEFAULT == engines.COMPILED
    assert engines.named('vm') == engines.LOOP
    with pytest.raises(ValueError, match="expected compiled, loop or reference, not 'vm2'"):
        engines.named('vm2')


@pytest.mark.parametrize('argv', [['run', 'g.pip'], ['sim', 'g.pip'],
                                  ['sweep', 'g.pip', '--vary', 'n=1,2']])
def test_every_command_takes_its_engine_from_the_constant(argv):
    parser = cli.build_parser()
    assert parser.parse_args(argv).engine == engines.DEFAULT
    for name in engines.NAMES:
        assert parser.parse_args(argv + ['--engine', name]).engine == name
    assert parser.parse_args(argv + ['--engine', 'vm']).engine == engines.LOOP


def test_an_unknown_engine_is_one_line_and_status_2():
    p = subprocess.run([sys.executable, '-m', 'pipvm', 'run', '--engine', 'jit', HIGH_CARD],
                       capture_output=True)
    assert p.returncode == 2 and p.stdout == b''
    assert p.stderr.splitlines()[-1] == (b"pipvm run: error: argument --engine: "
                                         b"expected compiled, loop or reference, not 'jit'")


def _image(factory):
    """The vm.Image an engine factory's games run on."""
    game = factory(Table(SilentConsole(), players=2), OCamlRandom(1))
    assert isinstance(game, TableGame)
    return game.game.image


def test_the_loader_and_the_game_object_load_for_the_engine_named():
    program = loader.load_program(HIGH_CARD)
    assert _image(loader.load_engine(HIGH_CARD)[1]).compiled
    assert _image(loader.vm_engine(program)).compiled
    assert not _image(loader.load_engine(HIGH_CARD, 'loop')[1]).compiled
    assert not _image(loader.load_engine(HIGH_CARD, 'vm')[1]).compiled
    # the web table and the bots' worlds: a Game of a program, and its forks
    game = Game(program, seed=1, players=2, names=['A', 'B'])
    assert game.image.compiled and game.fork().image is game.image


def test_every_engine_plays_the_same_game_by_name():
    argv = ['run', '--bots', 'random', '--players', '3', '--seed', '4', THREE_HEARTS]
    default = run_cli(argv)
    assert default[0] == 0 and b'The game was won by' in default[1]
    for name in (*engines.NAMES, 'vm'):
        assert run_cli(argv + ['--engine', name]) == default, name


def test_sim_names_its_engine_and_the_replay_command_only_another():
    argv = ['sim', THREE_HEARTS, '--games', '3', '--precision', '0', '--jobs', '1', '--json',
            '--max-steps', '50']
    for extra, engine in (([], engines.DEFAULT), (['--engine', 'vm'], engines.LOOP)):
        status, out, _ = run_cli_split(argv + extra)
        report = json.loads(out)
        assert status == 0 and report['engine'] == engine
        commands = [report['step_limit']['replay']]
        assert commands[0] and (('--engine' in commands[0]) == (engine != engines.DEFAULT))


def test_a_cluster_worker_plays_the_engine_it_is_sent():
    program = loader.load_program(THREE_HEARTS)
    data, words = pipc.dump(program), ['--bots', 'random', '--players', '3']
    replies = [cluster.play_chunk(data, words, 1000, 4, 3, engine=name)
               for name in (engines.COMPILED, engines.LOOP)]
    assert replies[0] == replies[1] and 'games' in replies[0]
    assert cluster.play_chunk(data, words, 1000, 4, 3, engine=engines.REFERENCE) == {
        'error': 'Error: --engine reference: the reference engine runs sources, not bytecode'}
    status, out = run_cli(['sim', THREE_HEARTS, '--cluster', 'tcp://127.0.0.1:1',
                           '--engine', 'reference'])
    assert (status, out) == (1, b'Error: --cluster sends the workers bytecode, which the '
                                b'reference engine does not run: drop --engine reference\n')
