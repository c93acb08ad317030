"""What a command prints: in colour on a terminal, else plain text, decided once per command.

Plain text when standard output (for what goes to standard error: standard error) is not a terminal, with --plain, when NO_COLOR is set to
anything but the empty string (https://no-color.org), when TERM is 'dumb', and always with
--json. The colour (interpreter/colour.py) is a layer of styles over the plain text: each
coloured output is the very text the plain output prints (views, diagnostics, report lines),
or a table of the same cells, with styles added, so that the two show the same characters and
cannot drift apart. rich is imported only for colour: plain output and --json pay nothing for it.

    console = for_command(args)               # Plain() or colour.Colour()
    console.line("P2: b1")                    # one line, the seats' names in their colours
    console.view(view, defaults)              # render_view's text, marks in their seats' colours
    console.refusal("refused: ...")           # an illegal move, in red
    console.diagnostics(diagnostics, sources) # check's messages, the caret line in red
    errors = for_errors(args)                 # the same choice for standard error:
    errors.error("referee: x.rules: no such file")   # errors and notes, diagnostics as check's
    console.report([line, Table(...), ...])   # summaries: lines and tables
    console.markdown(text)                    # rulebook's Markdown, headings and code styled
"""
from __future__ import annotations

import os
import sys

from ..tools.report import Table  # noqa: F401  (the tables of a report, for the commands)
from .plain import Plain

# ---- deciding ----------------------------------------------------------------------------

def wants_colour(args, stream=None, environ=None) -> bool:
    """Whether a command run with `args` writes colour on `stream` (standard output)."""
    stream = stream or sys.stdout
    environ = os.environ if environ is None else environ
    if getattr(args, "json", False) or getattr(args, "plain", False):
        return False
    if environ.get("NO_COLOR", "") != "" or environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):      # a closed or unusual stream
        return False


def for_command(args, stream=None, environ=None, stderr=False):
    """The console of one command: colour.Colour() or Plain(), decided here once (with
    stderr, the console of its standard error)."""
    if wants_colour(args, stream or (sys.stderr if stderr else sys.stdout), environ):
        from .colour import Colour
        return Colour(stderr=stderr)
    return Plain(stderr=stderr)


def for_errors(args, stream=None, environ=None):
    """The console of a command's standard error (errors, diagnostics, notes), coloured by
    the same rules as its output, but decided on standard error: `referee play x 2>log` keeps
    the log plain and the table coloured."""
    return for_command(args, stream, environ, stderr=True)
