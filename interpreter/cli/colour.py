"""The colour of interpreter/console.py: the plain text of each output with rich styles added
(never a character changed: tests compare the two), and tables as rich tables of the same cells.

Each seat's name (P1, P2...) and marks are in the seat's colour, the seat to move in reverse;
refusals and errors are red, board coordinates and legends dim.
"""
from __future__ import annotations

import re

from rich.console import Console
from rich.padding import Padding
from rich.table import Table as RichTable
from rich.text import Text

from referee.dsl.diagnostics import RulesError

from ..engine.render import legend_lines, split_key, view_sections, whose_turn
from ..tools.report import Table
from .plain import Plain

# P1, P2, ... in these colours, in turn (red is kept for errors and refusals)
SEAT_COLOURS = ("cyan", "magenta", "yellow", "green", "bright_blue", "dark_orange", "bright_white", "purple")
SEAT = re.compile(r"(?<![\w@])P([1-9][0-9]*)(?![\w@])")       # a seat's name, not part of a word
BORDERS = re.compile(r"[│╱╲─]+")                               # between the parts of a board
TARGET = re.compile(r"\(#?[0-9]+\)")                              # a listed move's number on its hex
ERROR, GOOD, LABEL, QUIET = "bold red", "bold green", "bold", "dim"
# words of the summaries that say something went wrong or right (styles only: the text is kept)
REPORT_STYLES = (
    (re.compile(r"^[a-z][a-z0-9 ]*:(?= |$)", re.M), LABEL),                 # 'wins:', 'length in moves:'
    (re.compile(r"runtime errors? [1-9][0-9]*|first runtime error[^:\n]*:|^ *runtime error:.*$"
                r"|[0-9]+ problem\(s\)|[1-9][0-9]* errors?$|<- never$", re.M), ERROR),
    (re.compile(r"(?<=: )ok$", re.M), GOOD),
    (re.compile(r"(?<=  )#+$", re.M), "green"),                            # a histogram's bars
    (re.compile(r"<- (?!never$).*$", re.M), "yellow"),                     # coverage of one branch only
)

# the Markdown of `rulebook`: headings, quoted rules texts, code
MARKDOWN_STYLES = (
    (re.compile(r"^#+ .*$", re.M), "bold cyan"),
    (re.compile(r"^> .*$", re.M), "italic"),
    (re.compile(r"`[^`\n]*`"), "yellow"),
)


def seat_style(seat: int) -> str:
    return SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)]


class Colour(Plain):
    """The same text in colour, written by a rich Console (standard output's unless given:
    tests give one that records)."""
    colour = True

    def __init__(self, terminal=None, stderr=False):
        if terminal is None:
            # no markup, emoji or guessed highlighting in the text, and no wrapping: the
            # characters are the plain text's
            terminal = Console(force_terminal=True, highlight=False, markup=False, emoji=False, soft_wrap=True,
                               stderr=stderr)
        self.terminal = terminal

    def print(self, text):
        self.terminal.print(text, soft_wrap=True)

    def line(self, text=""):
        self.print(styled_line(text))

    def view(self, view, defaults=None):
        self.print(styled_view(view, defaults))

    def refusal(self, text):
        self.print(styled_refusal(text))

    def diagnostics(self, diagnostics, sources):
        self.print(styled_diagnostics(diagnostics, sources))

    def error(self, text):
        self.print(styled_error(text))

    def markdown(self, text):
        self.print(styled_line(text, MARKDOWN_STYLES))

    def report(self, items):
        for item in items:
            if isinstance(item, Table):
                self.table(item)
            else:
                self.print(styled_line(item, REPORT_STYLES))

    def table(self, table: Table):
        """A rich Table of the same cells, laid out as the plain one (no box, two spaces
        between columns) and as wide as it needs, whatever the terminal's width."""
        width = max(self.terminal.width, *(len(line) for line in table.lines()))
        for line in self.terminal.render_lines(rich_table(table), self.terminal.options.update(width=width), pad=False):
            text = Text.assemble(*((segment.text, segment.style) for segment in line))
            text.rstrip()                   # the plain lines have no trailing spaces
            self.print(text)


def rich_table(table: Table):
    shown = RichTable(box=None, pad_edge=False, padding=(0, 1), show_edge=False, header_style="bold")
    for heading, how in zip(table.header, table.alignments()):
        shown.add_column(heading, justify=how, no_wrap=True)
    for row in table.rows:
        shown.add_row(*(styled_line(cell, REPORT_STYLES) for cell in row))
    return Padding(shown, (0, 0, 0, len(table.indent))) if table.indent else shown


# ---- styles over the plain text ------------------------------------------------------------

def colour_seats(text):
    """Each seat's name (P1, P2...) in its colour."""
    for match in SEAT.finditer(text.plain):
        text.stylize(seat_style(int(match.group(1))), match.start(), match.end())
    return text


def styled_line(plain: str, styles=()):
    text = colour_seats(Text(plain))
    for pattern, style in styles:
        text.highlight_regex(pattern, style)
    return text


def styled_refusal(plain: str):
    text = Text(plain)
    text.stylize("red")
    head = plain.find(":")
    text.stylize(ERROR, 0, head + 1 if head >= 0 else len(plain))
    return text


def styled_diagnostics(diagnostics, sources):
    """RulesError's text, styled as every error text is (styled_error)."""
    return styled_error(RulesError(diagnostics, sources).render())


# the lines of an error's text (diagnostics as Diagnostic.render writes them, argparse's usage)
DIAGNOSTIC_HEAD = re.compile(r"^.+?:\d+:\d+: (error|warning)\[[A-Z]\d+\]")
GUTTER = re.compile(r"^ *\d* \|")          # ' |', '12 | source line', ' | ^^^'
HELP = re.compile(r"^ +help:")
USAGE_GOES_ON = re.compile(r"^ +\S")            # an argparse usage line wrapped
QUIET_LINE = re.compile(r"^(\(.*\)| +at .*)$")   # '(after 12 moves; seed 5)', '  at x.rules:3:7'


def styled_error(plain: str):
    """What goes to standard error, in colour: a diagnostic's where and what in bold with
    'error[E202]' in red (a warning's in yellow), its source line's gutter blue and caret line
    red, 'help:' in cyan; 'note:' in yellow; argparse's usage, '  at FILE:LINE:COL' and a line in
    parentheses dim; any other line is an error said in words: red, up to its first
    ':' in bold ('referee: x.rules: no such file', 'runtime error: ...')."""
    parts, in_usage = [], False
    for line in plain.split("\n"):
        in_usage = line.startswith("usage:") or (in_usage and bool(USAGE_GOES_ON.match(line)))
        head = DIAGNOSTIC_HEAD.match(line)
        if head:
            shown = Text(line, style="bold")
            shown.stylize(ERROR if head.group(1) == "error" else "bold yellow", head.start(1), head.end())
        elif GUTTER.match(line):
            shown = Text(line)
            gutter = GUTTER.match(line).end()
            shown.stylize("blue", 0, gutter)
            if line[gutter:].strip(" ^") == "" and "^" in line:
                shown.stylize(ERROR, gutter)
        elif HELP.match(line):
            shown = Text(line)
            shown.stylize("bold cyan", 0, HELP.match(line).end())
        elif in_usage:
            shown = Text(line, style=QUIET)
        elif line.startswith("note:"):
            shown = colour_seats(Text(line))
            shown.stylize("bold yellow", 0, len("note:"))
        elif QUIET_LINE.match(line):
            shown = Text(line, style=QUIET)
        else:
            shown = colour_seats(styled_refusal(line)) if line else Text(line)
        parts.append(shown)
    return Text("\n").join(parts)


def styled_view(view: dict, defaults=None):
    """render_view's text, section by section: the title and whose turn it is (that seat's
    name in reverse), each board's marks in their seats' colours, coordinates and legends dim,
    headings bold, every seat's name in its colour."""
    parts = []
    for section in view_sections(view, defaults):
        text = colour_seats(Text("\n".join(section.lines)))
        if section.kind == "head":
            style_head(text, view)
        elif section.kind == "rule":
            text.stylize(QUIET)
        elif section.kind == "board":
            style_board(text, section, view)
        elif section.kind in ("zones", "variables", "events", "parts"):
            text.stylize(LABEL, 0, len(section.lines[0]))
        elif section.kind == "choice":
            text.stylize(LABEL)
        parts.append(text)
    return Text("\n").join(parts)


def style_head(text, view):
    title = view.get("game") or "game"
    text.stylize("bold", 0, len(title))
    turn = whose_turn(view)
    at = text.plain.find(turn, len(title)) if turn else -1
    if at < 0:
        return
    if view.get("terminal"):
        text.stylize(GOOD, at, at + len(turn))
        return
    seat = view["choice"].get("chooser") if view.get("choice") else view.get("current")
    style = f"bold reverse {seat_style(seat)}" if isinstance(seat, int) and seat > 0 else "bold reverse"
    text.stylize(style, at, at + len(turn))


def style_board(text, section, view):
    """The board's name bold; its coordinates (the column letters or numbers, the row
    numbers) and legend dim, the borders grey, each mark in its seat's colour, the numbers
    of the listed moves on their hexes bold."""
    lines, board = section.lines, section.board
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)

    def whole_line(k, style):
        text.stylize(style, starts[k], starts[k] + len(lines[k]))
    whole_line(0, LABEL)
    if len(lines) < 3:                                      # '(no cells)'
        return
    hexes = board.get("kind") == "hex"
    cut = sum(1 for spot in section.spots or () if hexes and spot.text.endswith("…"))
    legend = len(legend_lines(board))
    drawing_end = len(lines) - legend - cut                 # after it: the legend, then the cut marks
    whole_line(1, QUIET)                                    # the columns on top
    if not hexes:
        whole_line(drawing_end - 1, QUIET)                  # a grid's column numbers at the bottom
    for k in range(drawing_end, drawing_end + legend):
        whole_line(k, QUIET)
    rows = board.get("rows") or max(c["row"] for c in board["cells"])
    row_label = re.compile(rf"^  (?=[ 0-9]{{{len(str(rows))}}}(?: |$))( *[0-9]+)")
    for k in range(2, drawing_end):
        label = row_label.match(lines[k])
        if label:
            text.stylize(QUIET, starts[k] + label.start(1), starts[k] + label.end(1))
        for border in BORDERS.finditer(lines[k]):
            text.stylize("bright_black", starts[k] + border.start(), starts[k] + border.end())
        if board.get("targets"):
            for target in TARGET.finditer(lines[k]):
                text.stylize("bold", starts[k] + target.start(), starts[k] + target.end())
    owners = owners_by_cell(view, board)
    for spot in section.spots or ():
        here = owners.get(spot.cell.get("label"), {})
        at = starts[spot.line] + spot.start
        end = at + len(spot.text)
        for mark in spot.marks:
            seat = here.get(mark) or seat_named(mark)
            if seat and at < end:
                text.stylize(f"bold {seat_style(seat)}", at, min(at + len(mark), end))
            at += len(mark) + 1                             # and the '/' between two marks


def seat_named(mark: str):
    """The seat a mark names: 'P2' or 'P2 man' -> 2."""
    match = SEAT.match(mark)
    return int(match.group(1)) if match and match.start() == 0 else None


def owners_by_cell(view, board) -> dict:
    """{cell label: {component label: owner}} of the components of the board's drawn zones
    (as the view shows them), for the labels that one owner only has in that cell."""
    seat = f"P{board['player']}" if board.get("player") else None
    found = {}
    for label, entry in (view.get("zones") or {}).items():
        name, index = split_key(label)
        if name not in board.get("zones", ()) or not index or (seat is not None and index[0] != seat):
            continue
        here = found.setdefault(index[-1], {})
        for item in entry.get("items") or ():
            here.setdefault(item.get("label"), set()).add(item.get("owner"))
    return {cell: {label: min(owners) for label, owners in labels.items()
                   if len(owners) == 1 and isinstance(min(owners), int) and min(owners) > 0}
            for cell, labels in found.items()}
