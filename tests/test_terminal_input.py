"""Playing at an interactive terminal: `pipvm run` on a pseudo-terminal gets
readline (Tab completes the options on offer, the arrow keys recall earlier
answers) and easy answers, and Ctrl-C leaves the terminal as it found it."""
import os
import pty
import select
import signal
import subprocess
import sys
import termios
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HIGH_CARD = os.path.join(ROOT, 'examples', 'high_card.pip')
UP = b'\x1b[A'


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


def test_completion_history_and_easy_answers_on_a_terminal(terminal):
    t = terminal('run', '--seed', '1', HIGH_CARD)
    t.wait_for(b'Your choice? ')
    t.type(b'2\r')
    for name in (b'Ann', b'Bob'):
        t.wait_for(b': ')
        t.type(name + b'\r')
    t.wait_for(b'Your choice? ')                 # Ann: Three of Diamonds, Four of Spades, ...
    t.type(b'fo\t')                              # Tab completes the only option starting so
    t.wait_for(b'Four of Spades')
    t.type(b'\r')
    t.wait_for(b'Ann played Four of Spades.')
    t.wait_for(b'Your choice? ')                 # Bob: Four of Hearts, Six of Hearts, Six of Spades, ...
    t.type(b'six\r')                             # two options start so
    t.wait_for(b"I'm sorry, I didn't understand.")
    t.wait_for(b'Your choice? ')
    t.type(UP + b' of s\r')                      # the last answer again, and more
    t.wait_for(b'Bob played Six of Spades.')
    t.wait_for(b'Round 2')
    t.wait_for(b'Your choice? ')
    t.type(b'1\r')                               # a number: the first option
    t.wait_for(b'Ann played Three of Diamonds.')


def test_numbered_options_on_a_terminal(terminal):
    t = terminal('run', '--seed', '1', '--numbered', HIGH_CARD)
    assert b'  2\r\n  3\r\n  4\r\n' in t.wait_for(b'Your choice? ')   # numbers are answered as written
    t.type(b'2\r')
    for name in (b'Ann', b'Bob'):
        t.wait_for(b': ')
        t.type(name + b'\r')
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
