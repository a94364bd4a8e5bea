"""The console of `pipvm run`: a person at an interactive terminal gets easy
answers (answers.match) and readline, with Tab completion of the options on
offer and a history of what was typed; piped and scripted input keeps the
original's exact answers.  What is printed is the same either way, but for
--echo: answers from a pipe or a file are then shown after their prompts, as
a terminal shows what is typed (off by default: the golden transcripts are
those of the original, which never echoed).
"""
import sys

from pipvm.play.table import Console

_saved_modes = []               # (fd, termios attributes) to put back on Ctrl-C


def console(easy=False, numbered=False, echo=False):
    """The console for a game at this process's standard input and output.
    easy: accept easy answers even when the input is not a terminal;
    numbered: number the options (and accept their numbers);
    echo: show each answer read when the input is not a terminal."""
    interactive = _isatty(sys.stdin)
    made = (ReadlineConsole() if interactive and _isatty(sys.stdout) and _readline()
            else Console() if interactive or not echo else EchoConsole())
    made.easy = easy or numbered or interactive
    made.screen = interactive and _isatty(sys.stdout)      # people can hand it over
    made.numbered = numbered
    return made


def _isatty(stream):
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _readline():
    try:
        import readline
    except ImportError:         # e.g. Windows: answers are read without editing
        return None
    return readline


class EchoConsole(Console):
    """A Console that shows each line it reads after its prompt, so that a
    game played from a file reads as the dialogue it stands for."""

    def read_line(self, prompt):
        line = super().read_line(prompt)
        if line is not None:
            self.write(line + '\n')
        return line


class ReadlineConsole(Console):
    """A Console reading through readline.  The dialogue's text stands for
    bytes (Latin-1), the terminal's for characters: convert at the border,
    so an answer typed in the terminal's encoding matches the option shown."""

    def __init__(self):
        super().__init__()
        import termios
        self.readline = readline = _readline()
        self.encoding = sys.stdin.encoding or 'utf-8'
        self.offered = []
        self.histories = {}        # each person's answers, recalled by their arrow keys only
        self.holder = None
        readline.set_completer(self.complete)
        readline.set_completer_delims('')            # an option is the whole line
        if 'libedit' in (readline.__doc__ or ''):
            readline.parse_and_bind('bind ^I rl_complete')
        else:
            readline.parse_and_bind('tab: complete')
        fd = sys.stdin.fileno()
        _saved_modes.append((fd, termios.tcgetattr(fd)))

    def read_line(self, prompt):
        return self.read_choice(prompt, [])

    def read_choice(self, prompt, options):
        head, _, last = prompt.rpartition('\n')
        if head:
            self.write(head + '\n')
        self.stdout.flush()
        self.offered = [self._shown(o) for o in options]
        try:
            line = input(self._shown(last))
        except EOFError:
            return None
        except UnicodeDecodeError:   # bytes the terminal's encoding cannot read
            return ''
        finally:
            self.offered = []
        return line.encode(self.encoding, 'surrogateescape').decode('latin-1')

    def hand_over(self, seat):
        readline = self.readline
        self.histories[self.holder] = [readline.get_history_item(i)
                                       for i in range(1, readline.get_current_history_length() + 1)]
        readline.clear_history()
        for line in self.histories.get(seat, ()):
            readline.add_history(line)
        self.holder = seat

    def _shown(self, text):
        return text.encode('latin-1', 'replace').decode(self.encoding, 'surrogateescape')

    def complete(self, text, state):
        """readline's completer: the options that start with what is typed."""
        typed = text.strip().casefold()
        matches = [o for o in self.offered if o.casefold().startswith(typed)]
        return matches[state] if state < len(matches) else None


def restore():
    """Put the terminal back as it was, for a Ctrl-C in the middle of a line
    (the process then leaves at once, without readline's own clean-up)."""
    if not _saved_modes:
        return
    import termios
    for fd, modes in _saved_modes:
        try:
            termios.tcsetattr(fd, termios.TCSADRAIN, modes)
        except (termios.error, OSError):
            pass
