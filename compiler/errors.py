"""Front-end errors, formatted exactly as the reference interpreter prints them."""
from pipvm.core.errors import PipError  # noqa: F401  (shared with the VM)


class PipSyntaxError(PipError):
    """The reference names only the line of a syntax error; pipvm adds a
    second line, its `hint`: the column, what was found, what was expected."""

    def __init__(self, line, token=None, pos=None, found=None, advice=None):
        super().__init__(pos, 'syntax error')
        self.line = line
        self.token = token          # the unexpected Lexeme, None at end of file
        if advice is None:
            return
        self.detail = 'found %s; %s' % (found, advice)
        if token is None:
            self.hint = 'at the end of the file; ' + advice
        elif pos[0] == line:
            self.hint = 'at column %d, %s' % (pos[1], self.detail)
        else:
            self.hint = 'at line %d, column %d, %s' % (pos[0], pos[1], self.detail)

    def __str__(self):
        return 'Error: syntax error on line %d' % self.line
