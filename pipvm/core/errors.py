"""Errors a user can cause, formatted exactly as the reference prints them.

They live here, not in the compiler, because running a .pipc raises them too
and must not import the compiler.
"""


class PipError(Exception):
    """A positioned error: `Error: Line L, Col C: MESSAGE` (or `Error: MESSAGE`)."""

    hint = None                 # a second line of help (syntax errors have one)

    def __init__(self, pos, message):
        super().__init__(message)
        self.pos = pos
        self.message = message

    def __str__(self):
        if self.pos is None:
            return 'Error: ' + self.message
        return 'Error: Line %d, Col %d: %s' % (self.pos[0], self.pos[1], self.message)


class Fault(Exception):
    """A run-time error raised by an operation that does not know its position;
    the VM adds the position of the instruction that was running (of its
    part-th part, in a superinstruction)."""

    def __init__(self, message, part=0):
        super().__init__(message)
        self.message = message
        self.part = part


class InputEnded(Exception):
    """Standard input ended while a seat was being asked something."""

    def __init__(self, waiting_for):
        super().__init__(waiting_for)
        self.waiting_for = waiting_for

    def __str__(self):
        return 'Error: input ended while waiting for ' + self.waiting_for


class StepLimit(Exception):
    """A game ran for more steps (loop iterations and action calls) than allowed."""

    def __init__(self, limit):
        super().__init__(limit)
        self.limit = limit

    def __str__(self):
        return 'Error: the game was stopped after %d steps (--max-steps)' % self.limit


class GameOver(Exception):
    """`winner X.`: carries the winner's name.  The other endings
    (extension, pipvm/core/endings.py) carry their line, the seats placed in
    order (groups) and whether the seats they leave out come first."""

    def __init__(self, winner, line=None, groups=None, rest_first=False, loser=None):
        super().__init__(winner)
        self.winner = winner
        self.line = line
        self.groups = groups
        self.rest_first = rest_first
        self.loser = loser
