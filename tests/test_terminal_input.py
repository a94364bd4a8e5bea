"""Playing at an interactive terminal: `pipvm run` on a pseudo-terminal gets
readline (Tab completes the options on offer, the arrow keys recall earlier
answers) and easy answers, and Ctrl-C leaves the terminal as it found it.
Several people at one terminal pass it between turns: the screen is
cleared, and each sees only what their seat may see."""
import os
import pty
import select
import signal
import subprocess
import sys
import termios
import time

import pytest

from pipvm.engine import engines

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')
UP = b'\x1b[A'
CLEAR = b'\x1b[H\x1b[2J\x1b[3J'
EUCHRE = os.path.join(ROOT, 'examples', 'euchre.pip')


class Terminal:
    """`pipvm ARGS` with a pseudo-terminal for its standard input and output."""

    def __init__(self, *args):
        self.master, self.slave = pty.openpty()
        self.modes = termios.tcgetattr(self.slave)
        env = dict(os.environ, TERM='xterm', INPUTRC=os.devnull)   # no user key bindings
        self.process = subprocess.Popen([sys.executable, '-m', 'pipvm', *args], stdin=self.slave,
                                        stdout=self.slave, stderr=self.slave, env=env)
        self.seen = b''
        self.at = 0                 # where the last text waited for ended

    def wait_for(self, text, timeout=30):
        """Read until text appears after the last one waited for; the output up to it."""
        end = time.monotonic() + timeout
        while text not in self.seen[self.at:]:
            assert time.monotonic() < end, (text, self.seen[self.at:])
            if select.select([self.master], [], [], 0.1)[0]:
                self.seen += os.read(self.master, 4096)
        start, self.at = self.at, self.seen.index(text, self.at) + len(text)
        return self.seen[start:self.at]

    def type(self, keys):
        os.write(self.master, keys)

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(30)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def terminal():
    made = []
    yield lambda *args: made.append(Terminal(*args)) or made[-1]
    for t in made:
        t.close()


def take(t, name):
    """Wait for the terminal to be passed to name, and take it."""
    t.wait_for(b'Pass to %s - press Enter. ' % name)
    t.type(b'\r')


def test_completion_history_and_easy_answers_on_a_terminal(terminal):
    t = terminal('run', '--seed', '1', HIGH_CARD)
    t.wait_for(b'Your choice? ')
    t.type(b'2\r')
    for name in (b'Ann', b'Bob'):
        t.wait_for(b': ')
        t.type(name + b'\r')
    take(t, b'Ann')
    t.wait_for(b'Your choice? ')                 # Ann: Three of Diamonds, Four of Spades, ...
    t.type(b'fo\t')                              # Tab completes the only option starting so
    t.wait_for(b'Four of Spades')
    t.type(b'\r')
    t.wait_for(b'Ann played Four of Spades.')
    take(t, b'Bob')
    t.wait_for(b'Your choice? ')                 # Bob: Four of Hearts, Six of Hearts, Six of Spades, ...
    t.type(b'six\r')                             # two options start so
    t.wait_for(b"I'm sorry, I didn't understand.")
    t.wait_for(b'Your choice? ')
    t.type(UP + b' of s\r')                      # the last answer again, and more
    t.wait_for(b'Bob played Six of Spades.')
    take(t, b'Ann')
    t.wait_for(b'Round 2')
    t.wait_for(b'Your choice? ')
    t.type(b'1\r')                               # a number: the first option
    t.wait_for(b'Ann played Three of Diamonds.')


@pytest.mark.parametrize('engine', engines.NAMES)
def test_people_at_one_terminal_pass_it_and_see_only_their_own_cards(terminal, engine):
    t = terminal('run', '--seed', '1', '--players', '2', '--engine', engine, HIGH_CARD)
    for name in (b'Ann', b'Bob'):
        t.wait_for(b': ')
        t.type(name + b'\r')
    assert CLEAR not in t.wait_for(b'Pass to Ann - press Enter. ')   # nothing secret shown yet
    t.type(b'\r')
    ann = t.wait_for(b'Your choice? ')
    assert b'Four of Spades' in ann and b'Six of Spades' not in ann   # Ann's hand, not Bob's
    t.type(b'Four of Spades\r')
    # Ann's lines are wiped before Bob is asked to take the terminal
    passing = t.wait_for(b'Pass to Bob - press Enter. ')
    assert passing.endswith(CLEAR + b'Pass to Bob - press Enter. ')
    t.type(b'\r')
    bob = t.wait_for(b'Your choice? ')
    assert b'Ann played Four of Spades.' in bob and b'Six of Spades' in bob
    assert b'Three of Diamonds' not in bob            # Ann's hand is not shown again
    t.type(UP + b'\r')                               # Bob's arrow keys do not recall Ann's answer
    refused = t.wait_for(b"I'm sorry, I didn't understand.")
    assert b'Four of Spades' not in refused
    t.wait_for(b'Your choice? ')
    t.type(b'Six of Spades\r')
    t.wait_for(b'Bob played Six of Spades.')
    take(t, b'Ann')
    assert b'Bob played Six of Spades.' in t.wait_for(b'Your choice? ')   # what Ann missed


def test_one_person_against_bots_at_a_terminal_sees_only_their_seat(terminal):
    t = terminal('run', '--seed', '2', '--players', '4', '--bots', 'random', '--seat', '1=human',
                 EUCHRE)
    t.wait_for(b'Enter a name for Player 1 on team 1: ')
    t.type(b'Ann\r')
    shown = t.wait_for(b'Your choice? ')
    assert b'Pass to' not in shown and CLEAR not in shown      # nobody to pass it to
    assert b'Ann: Your hand:' in shown and b'Ben: ' not in shown
    assert b'Cleo: Choose' not in shown
    t.process.send_signal(signal.SIGINT)
    assert t.process.wait(30) == 130


def test_numbered_options_on_a_terminal(terminal):
    t = terminal('run', '--seed', '1', '--numbered', HIGH_CARD)
    assert b'  2\r\n  3\r\n  4\r\n' in t.wait_for(b'Your choice? ')   # numbers are answered as written
    t.type(b'2\r')
    for name in (b'Ann', b'Bob'):
        t.wait_for(b': ')
        t.type(name + b'\r')
    take(t, b'Ann')
    assert b'  1. Three of Diamonds\r\n  2. Four of Spades\r\n' in t.wait_for(b'Your choice? ')
    t.type(b'5\r')
    t.wait_for(b'Ann played Queen of Hearts.')


def test_ctrl_c_while_reading_restores_the_terminal(terminal):
    t = terminal('run', '--seed', '1', HIGH_CARD)
    t.wait_for(b'Your choice? ')
    time.sleep(0.3)                              # readline has the terminal in its own modes
    assert termios.tcgetattr(t.slave) != t.modes
    t.process.send_signal(signal.SIGINT)
    assert t.process.wait(30) == 130
    t.wait_for(b'Interrupted.')
    assert termios.tcgetattr(t.slave) == t.modes


def test_a_resumed_game_hands_the_terminal_over_only_for_new_answers(terminal, tmp_path):
    record = str(tmp_path / 'game.json')
    t = terminal('run', '--seed', '1', '--players', '2', '--record', record, HIGH_CARD)
    for name in (b'Ann', b'Bob'):
        t.wait_for(b': ')
        t.type(name + b'\r')
    take(t, b'Ann')
    t.wait_for(b'Your choice? ')
    t.type(b'Four of Spades\r')
    t.wait_for(b'Pass to Bob - press Enter. ')
    t.process.send_signal(signal.SIGINT)
    assert t.process.wait(30) == 130
    t = terminal('run', '--resume', record)
    # Ann's answer is given again without waiting; then Bob is asked to take it
    shown = t.wait_for(b'Pass to Bob - press Enter. ')
    assert b'Pass to Ann' not in shown and b'Ann played Four of Spades.' in shown
    assert shown.endswith(CLEAR + b'Pass to Bob - press Enter. ')
    t.type(b'\r')
    assert b'Six of Spades' in t.wait_for(b'Your choice? ')
