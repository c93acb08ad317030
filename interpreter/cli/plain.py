"""The plain console: what a command prints as it is, without colour (a pipe, a file, --plain,
NO_COLOR, --json); console.py chooses it or colour.py's, which styles the same text."""
from __future__ import annotations

import sys

from referee.dsl.diagnostics import RulesError

from ..tools.report import plain_lines


class Plain:
    """Text as it is: what a pipe, a file, --plain, NO_COLOR and --json get (on standard
    output, or with stderr on standard error: looked up at each write, as print does)."""
    colour = False

    def __init__(self, stderr=False):
        self.stderr = stderr

    def write(self, text):
        (sys.stderr if self.stderr else sys.stdout).write(f"{text}\n")

    def line(self, text=""):
        self.write(text)

    def view(self, view, defaults=None):
        from ..engine.render import render_view    # (here: `check` draws no view, and starts without it)
        self.write(render_view(view, defaults))

    def refusal(self, text):
        self.write(text)

    def error(self, text):
        """A command's error or note for standard error: a runtime error, a usage mistake,
        rendered diagnostics."""
        self.write(text)

    def diagnostics(self, diagnostics, sources):
        self.write(RulesError(diagnostics, sources).render())

    def report(self, items):
        for line in plain_lines(items):
            self.write(line)

    def markdown(self, text):
        self.write(text)
