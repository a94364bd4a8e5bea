"""A hand-made file's decision that cannot be shown or answered: the verifier checks no
kinds, so a file may deal Numbers into a hand, and a `play` then offers
them.  The game ends with one line of invalid bytecode at the `play`, as
the machine's own operations fail on a value of the wrong kind, never a
traceback: at the terminal on every engine that runs bytecode, in the Game
API (which the web table and the bots use) and in a simulation."""
import random

import pytest

from compiler.codegen.assembler import Assembler
from compiler.pip import frontend
from pipvm.engine.vm import Image
from pipvm.game.game import Game
from pipvm.isa import pipc
from tests.fuzz import harness
from tests.util import run_cli, run_cli_split

GAME = '''Game "g" requires 2 players.
Deck deck = standard.
Rule any(p, c, pile) = True.
Area table labeled "Table" is faceup.
Action numbers {
  let kept be [7; 7; 8].
  deal 2 from deck to players->first.
}
Action turn {
  play any from players->first to table.
}
Action main {
  numbers().
  forever { turn(). rotate players. }
}
'''
# (the PLAY of `turn`, which main calls: the paused frame's, not main's)
ERROR = "Error: invalid bytecode at offset 6 of action turn ('bool' object has no attribute 'name')"


def _dealing(text, source, kept=lambda ins: True):
    """text's file with `numbers` dealing from source(program) (an
    instruction, name and operands, which may set the program's constants)
    instead of the deck, keeping the instructions kept(ins) allows."""
    program = harness.compile_checked(frontend.check_text(text))
    deal_from = source(program)
    n = [c.name for c in program.codes].index('numbers')
    asm = Assembler()
    for ins in pipc.decode(program.codes[n].code):
        name, args = ins.op.name, list(ins.args)
        if name == 'LOAD_GLOBAL':           # (the deck)
            name, args = deal_from
        if kept(ins):
            asm.emit(name, *args, pos=(6, 3))
    old = program.codes[n]
    program.codes[n] = pipc.Code('action', 'numbers', old.local_names, bytes(asm.code),
                                 asm.lines)
    return pipc.dump(program)


def _numbers(program):
    k = program.consts.index((7, 7, 8))
    program.consts[k] = (1, True)
    return 'LIST_CONST', [k]


def _hand_of_numbers():
    """GAME's file with `numbers` dealing from the list constant, made
    [1, True], instead of the deck (`kept`'s own code left out): the first
    player's hand holds them."""
    return _dealing(GAME, _numbers, lambda ins: not (
        ins.op.name == 'STORE_LOCAL' or ins.op.name == 'LIST_CONST' and ins.offset == 0))


PLAYERS = GAME.replace('  let kept be [7; 7; 8].\n', '  let kept be [players].\n  rotate kept.\n')
PLAYED = ("Error: invalid bytecode at offset 6 of action turn "
          "('Player' object has no attribute 'last_played_by')")


def _hand_of_players():
    """PLAYERS' file with `numbers` dealing the local list of the players
    instead of the deck: the first player's hand holds the players, whose
    names the decision shows; the card played cannot be marked played."""
    return _dealing(PLAYERS, lambda program: ('LOAD_LOCAL', [0]))


def _run(data, engine, tmp_path, answers):
    """`pipvm run` of the file data on engine: (status, stdout, stderr)."""
    path = tmp_path / 'g.pipc'
    path.write_bytes(data)
    return run_cli_split(['run', '--engine', engine, '--seed', '1', str(path)], answers)


@pytest.mark.parametrize('engine', ['compiled', 'loop'])
def test_a_hand_of_players_answered_or_played_out_is_one_line_of_invalid_bytecode(
        engine, tmp_path):
    # the decision is shown (a Player has a name); answering it, at the
    # terminal, in the Game API or in a bot's playout from it, fails outside
    # the loop, as invalid bytecode at the paused instruction too
    status, out, err = _run(_hand_of_players(), engine, tmp_path, b'2\na\nb\na\n')
    assert status == 1 and err.decode() == PLAYED + '\n', err
    assert b'Choose a card' in out
    program = pipc.load(_hand_of_players(), '<hand-made>')
    g = Game(Image(program, compiled=engine == 'compiled'), seed=1, players=2,
             names=['a', 'b'])
    assert g.decision.options == ('a', 'b')
    answered, played = g.fork(), g.fork()
    answered.answer(0)
    played.play_out(random.Random(1))
    for end in (answered, played):
        assert end.ending.kind == 'error' and str(end.ending.error) == PLAYED


@pytest.mark.parametrize('engine', ['compiled', 'loop'])
def test_a_hand_of_numbers_played_at_the_terminal_is_one_line_of_invalid_bytecode(
        engine, tmp_path):
    status, out, err = _run(_hand_of_numbers(), engine, tmp_path, b'2\na\nb\n1\n')
    assert status == 1 and err.decode() == ERROR + '\n', err
    assert b'Choose a card' not in out


def test_a_hand_of_numbers_ends_the_game_object_s_game_and_a_simulation_s_in_an_error(tmp_path):
    program = pipc.load(_hand_of_numbers(), '<hand-made>')
    for compiled in (True, False):
        g = Game(Image(program, compiled=compiled), seed=1, players=2, names=['a', 'b'])
        assert g.decision is None and g.ending.kind == 'error'
        assert str(g.ending.error) == ERROR
    path = tmp_path / 'g.pipc'
    path.write_bytes(_hand_of_numbers())
    status, out = run_cli(['sim', str(path), '--games', '2'])
    assert status == 0 and b'errors: 2' in out and b'invalid bytecode' in out, out
