"""Front-end errors, formatted exactly as the reference interpreter prints them."""


class PipError(Exception):
    """A positioned error: `Error: Line L, Col C: MESSAGE`."""

    def __init__(self, pos, message):
        super().__init__(message)
        self.pos = pos
        self.message = message

    def __str__(self):
        if self.pos is None:
            return 'Error: ' + self.message
        return 'Error: Line %d, Col %d: %s' % (self.pos[0], self.pos[1], self.message)


class PipSyntaxError(PipError):
    """The reference names only the line of a syntax error."""

    def __init__(self, line, token=None):
        super().__init__(None, 'syntax error')
        self.line = line
        self.token = token          # the unexpected Lexeme, None at end of file

    def __str__(self):
        return 'Error: syntax error on line %d' % self.line
