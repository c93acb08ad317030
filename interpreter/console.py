"""What a command prints: in colour on a terminal, else plain text, decided once per command.

Plain text when standard output is not a terminal, with --plain, when NO_COLOR is set to
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
    console.report([line, Table(...), ...])   # summaries: lines and tables
    console.markdown(text)                    # rulebook's Markdown, headings and code styled
"""
from __future__ import annotations

import os
import sys

import attrs

from referee.dsl.diagnostics import RulesError

from .render import render_view


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


def for_command(args, stream=None, environ=None):
    """The console of one command: colour.Colour() or Plain(), decided here once."""
    if wants_colour(args, stream, environ):
        from .colour import Colour
        return Colour()
    return Plain()


# ---- tables --------------------------------------------------------------------------------

def cells(row) -> tuple:
    return tuple(str(cell) for cell in row)


@attrs.frozen
class Table:
    """Columns of text two spaces apart under `indent`: the first column left-aligned, the
    others right-aligned, unless `align` gives 'left' or 'right' per column."""
    header: tuple = attrs.field(converter=cells)
    rows: tuple = attrs.field(converter=lambda rows: tuple(cells(row) for row in rows))
    indent: str = ""
    align: tuple = ()

    def alignments(self) -> tuple:
        return self.align or ("left", *("right",) * (len(self.header) - 1))

    def lines(self) -> list:
        rows = [self.header, *self.rows]
        widths = [max(len(row[i]) for row in rows) for i in range(len(self.header))]
        return [(self.indent + "  ".join(cell.ljust(w) if how == "left" else cell.rjust(w)
                                         for cell, w, how in zip(row, widths, self.alignments()))).rstrip()
                for row in rows]


def plain_lines(items) -> list:
    """A report's lines and tables as text lines."""
    lines = []
    for item in items:
        if isinstance(item, Table):
            lines.extend(item.lines())
        else:
            lines.append(item)
    return lines


# ---- plain -------------------------------------------------------------------------------

class Plain:
    """Text as it is: what a pipe, a file, --plain, NO_COLOR and --json get."""
    colour = False

    def write(self, text):
        sys.stdout.write(f"{text}\n")

    def line(self, text=""):
        self.write(text)

    def view(self, view, defaults=None):
        self.write(render_view(view, defaults))

    def refusal(self, text):
        self.write(text)

    def diagnostics(self, diagnostics, sources):
        self.write(RulesError(diagnostics, sources).render())

    def report(self, items):
        for line in plain_lines(items):
            self.write(line)

    def markdown(self, text):
        self.write(text)
