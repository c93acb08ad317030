"""How a command stops: its exit codes (docs/cli.md), and the errors that carry them to main."""
from __future__ import annotations

OK, ERRORS, USAGE, UNFINISHED = 0, 1, 2, 3
BAD_INPUT, MISSING_FILE, UNAVAILABLE, RUNTIME, CANNOT_WRITE = 65, 66, 69, 70, 73


class CliError(Exception):
    """Stops a command: `message` goes to stderr, `code` is the exit code."""

    def __init__(self, message, code):
        super().__init__(message)
        self.message = message
        self.code = code


class UsageError(CliError):
    """A mistake of the command line (exit 2), said in argparse's style by main:
    'referee play: error: argument --players: ...' under the command's usage line."""

    def __init__(self, message, parser=None):
        super().__init__(message, USAGE)
        self.parser = parser
