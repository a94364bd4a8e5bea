"""Front-end errors, formatted exactly as the reference interpreter prints them."""
from pipvm.errors import PipError  # noqa: F401  (shared with the VM)


class PipSyntaxError(PipError):
    """The reference names only the line of a syntax error."""

    def __init__(self, line, token=None):
        super().__init__(None, 'syntax error')
        self.line = line
        self.token = token          # the unexpected Lexeme, None at end of file

    def __str__(self):
        return 'Error: syntax error on line %d' % self.line
