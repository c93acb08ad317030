"""A seat's observation (table.Table.observation) drawn as HTML and SVG, as the terminal draws it.

Nothing here knows a game, and nothing here reads a state: the drawing is a function of what
the seat is shown (its view, its legal moves) and of the rules file's public declarations (the
zones' kinds of visibility, the rule texts). So a seat's page can hold no more than its view.

    fragment(observed, info)      # the part of the page that changes with the game
    page(observed, info, base)    # the whole page: the fragment, the typed-move form, the rules
"""
from __future__ import annotations

import math
import re
from html import escape

from ..engine import PUBLIC
from ..engine.render import (border_between, column_labels, entry_title, hex_symbol, legend_lines, named_cells, parts_lines,
                      part_names, render_status, split_key, view_sections, zone_parts)

GRID_CELL = 44           # pixels: a grid cell at least (wider for long marks)
HEX_WIDTH = 58           # pixels: a hex, side to side (pointy top)
SEAT = re.compile(r"(?<![\w@])P([1-9][0-9]*)(?![\w@])")      # a seat's name in a mark or a text


def seat_class(text: str) -> str:
    """'seat2' for a mark or label that names P2 first (its colour), else ''."""
    found = SEAT.search(text or "")
    return f" seat{(int(found.group(1)) - 1) % 8 + 1}" if found else ""


def seated(text: str) -> str:
    """Escaped text with every seat's name in its colour."""
    pieces, at = [], 0
    for found in SEAT.finditer(text):
        pieces.append(escape(text[at:found.start()]))
        pieces.append(f'<b class="{seat_class(found.group(0)).strip()}">{escape(found.group(0))}</b>')
        at = found.end()
    pieces.append(escape(text[at:]))
    return "".join(pieces)


# ---- the moves ---------------------------------------------------------------------------

def move_buttons(observed: dict) -> str:
    """The legal moves as buttons, numbered as the terminal numbers them ('#3' where moves are
    named by numbers), grouped by the action they play, in the terminal's order."""
    groups = observed.get("legal_groups") or []
    if not groups:
        return ""
    mark = observed.get("number_mark", "")
    notes = observed.get("notes") or {}
    out = ['<section class="moves" aria-label="your legal moves"><h2>Your move</h2>']
    for group in groups:
        out.append(f'<div class="group"><h3>{escape(group["title"])}</h3>')
        for number, name in group["moves"]:
            note = f' <small>({escape(notes[name])})</small>' if name in notes else ""
            out.append(f'<button type="button" class="move" data-move="{escape(name)}">'
                       f'<span class="n">{mark}{number}.</span> {escape(name)}{note}</button>')
        out.append("</div>")
    out.append("</section>")
    return "".join(out)


def clickable_cells(observed: dict, labels) -> dict:
    """{cell label: (number, move name)} for the cells that exactly one legal move names: a
    click there plays it (the numbers the terminal shows on a hex map's empty hexes)."""
    names = observed.get("legal") or []
    return {label: (numbers[0], names[numbers[0] - 1])
            for label, numbers in named_cells(names, set(labels)).items() if len(numbers) == 1}


# ---- boards --------------------------------------------------------------------------------

def svg_text(x, y, text, css="", size=None, anchor="middle") -> str:
    style = f' font-size="{size}"' if size else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" class="{css}"{style}>'
            f'{escape(text)}</text>')


def cell_group(cell, shape: str, x, y, targets, mark: str, lines_at) -> str:
    """A cell: its shape, its marks (one per line, in their seat's colour), a title naming it,
    and, where one legal move names it, that move to play on a click."""
    label = cell["label"]
    marks = cell.get("marks") or []
    target = targets.get(label)
    attributes = f' data-move="{escape(target[1])}" class="cell target"' if target else ' class="cell"'
    parts = [f'<g{attributes}><title>{escape(label)}{" · " + escape(target[1]) if target else ""}</title>', shape]
    for k, text in enumerate(marks):
        parts.append(svg_text(x, lines_at(k, len(marks)), text, "mark" + seat_class(text)))
    if target and not marks:
        parts.append(svg_text(x, lines_at(0, 1), f"({mark}{target[0]})", "number"))
    parts.append("</g>")
    return "".join(parts)


def grid_svg(board: dict, values: dict, targets: dict, mark: str) -> str:
    """A grid as the terminal draws it: the highest row on top, the columns labelled on top and
    under it as players type them (column_labels), rows numbered at the left; lines between
    the parts a variable splits it into."""
    cells = board["cells"]
    rows = board.get("rows") or max(c["row"] for c in cells)
    cols = board.get("cols") or max(c["col"] for c in cells)
    longest = max([len(m) for c in cells for m in c.get("marks") or []] + [2])
    size = max(GRID_CELL, 9 * longest + 12)
    left, top = 28, 24
    width, height = left + cols * size + 8, top + rows * size + 26
    parts = part_names(board, values)
    out = [f'<svg class="board grid" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img">']
    for col, label in enumerate(column_labels(board, cols), start=1):
        x = left + (col - 0.5) * size
        out.append(svg_text(x, top - 8, label, "coordinate"))
        out.append(svg_text(x, top + rows * size + 18, label, "coordinate"))
    for row in range(1, rows + 1):
        out.append(svg_text(left - 8, top + (rows - row + 0.5) * size + 5, str(row), "coordinate", anchor="end"))
    for cell in cells:
        x0, y0 = left + (cell["col"] - 1) * size, top + (rows - cell["row"]) * size
        shape = f'<rect x="{x0}" y="{y0}" width="{size}" height="{size}"/>'

        def lines_at(k, n, y0=y0):
            return y0 + size / 2 + 5 + (k - (n - 1) / 2) * 16
        out.append(cell_group(cell, shape, x0 + size / 2, y0, targets, mark, lines_at))
    for cell in cells:          # the borders between parts, over the cells
        r, c = cell["row"], cell["col"]
        x0, y0 = left + (c - 1) * size, top + (rows - r) * size
        if border_between(parts, (r, c), (r, c + 1)):
            out.append(f'<line class="border" x1="{x0 + size}" y1="{y0}" x2="{x0 + size}" y2="{y0 + size}"/>')
        if border_between(parts, (r, c), (r - 1, c)):
            out.append(f'<line class="border" x1="{x0}" y1="{y0 + size}" x2="{x0 + size}" y2="{y0 + size}"/>')
    out.append("</svg>")
    return "".join(out)


def hex_corner(cx, cy, radius, k):
    """Corner k of a pointy-top hex: 0 on top, then clockwise."""
    angle = math.radians(-90 + 60 * k)
    return cx + radius * math.cos(angle), cy + radius * math.sin(angle)


def hex_svg(board: dict, values: dict, targets: dict, mark: str) -> str:
    """A hex map in the terminal's layout: a hex named SYMBOL@ROW.COL stands in row ROW
    (counted from the top) and column COL (half a hex each), row numbers down the left and
    column numbers across the top; its symbol on top, its marks under it."""
    cells = board["cells"]
    rows = board.get("rows") or max(c["row"] for c in cells)
    cols = board.get("cols") or max(c["col"] for c in cells)
    radius = HEX_WIDTH / math.sqrt(3)
    step_x, step_y = HEX_WIDTH / 2, radius * 1.5
    left, top = 30, 26 + radius

    def centre(row, col):
        return left + col * step_x, top + (row - 1) * step_y
    width = int(left + (cols + 2) * step_x)
    height = int(top + (rows - 1) * step_y + radius + 8)
    parts = part_names(board, values)
    out = [f'<svg class="board hex" viewBox="0 0 {width} {height}" width="{width}" height="{height}" role="img">']
    for col in range(1, cols + 1):
        out.append(svg_text(left + col * step_x, 14, str(col), "coordinate", size=10))
    for row in range(1, rows + 1):
        out.append(svg_text(12, centre(row, 0)[1] + 4, str(row), "coordinate", size=10))
    for cell in cells:
        cx, cy = centre(cell["row"], cell["col"])
        corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in (hex_corner(cx, cy, radius - 1, k) for k in range(6)))
        symbol = hex_symbol(cell["label"])
        shape = (f'<polygon points="{corners}"/>' + svg_text(cx, cy - radius / 3, symbol, "symbol", size=11))

        def lines_at(k, n, cy=cy):
            return cy + 8 + (k - (n - 1) / 2) * 11
        out.append(cell_group(cell, shape, cx, cy, targets, mark, lines_at))
    # a border between two neighbours in different parts: their shared side (corners k, k+1)
    sides = {(0, 2): (1, 2), (1, 1): (2, 3), (1, -1): (3, 4)}
    for cell in cells:
        r, c = cell["row"], cell["col"]
        cx, cy = centre(r, c)
        for (dr, dc), (a, b) in sides.items():
            if border_between(parts, (r, c), (r + dr, c + dc)):
                (x1, y1), (x2, y2) = hex_corner(cx, cy, radius, a), hex_corner(cx, cy, radius, b)
                out.append(f'<line class="border" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}"/>')
    out.append("</svg>")
    return "".join(out)


def boards_html(observed: dict, legends: dict) -> str:
    out = []
    values = observed.get("vars") or {}
    mark = observed.get("number_mark", "")
    for name, board in (observed.get("boards") or {}).items():
        board = dict(board)
        if legends.get(split_key(name)[0]):
            board["symbols"] = legends[split_key(name)[0]]
        cells = board.get("cells") or []
        targets = clickable_cells(observed, [c["label"] for c in cells])
        if not cells:
            drawing = "<p>(no cells)</p>"
        elif board.get("kind") == "hex":
            drawing = hex_svg(board, values, targets, mark)
        else:
            drawing = grid_svg(board, values, targets, mark)
        if board.get("kind") == "hex" and any(not c.get("marks") and c["label"] in targets for c in cells):
            board["targets"] = targets        # legend_lines says what the numbers on empty hexes are
        legend = legend_lines(board) + parts_lines(board, values, name)
        notes = "".join(f"<li>{seated(line.strip())}</li>" for line in legend)
        out.append(f'<figure class="board-figure"><figcaption>{escape(entry_title(*split_key(name)))}</figcaption>{drawing}'
                   + (f'<ul class="legend">{notes}</ul>' if notes else "") + "</figure>")
    return f'<section class="boards">{"".join(out)}</section>' if out else ""


# ---- zones, variables, the log -------------------------------------------------------------

def zone_html(label: str, entry: dict, yours: bool) -> str:
    name, index = split_key(label)
    texts, separator = zone_parts(entry, index)
    hidden = entry.get("items") is None
    cards = []
    for text in texts:
        css = "card back" if hidden else "card" + seat_class(text)
        cards.append(f'<span class="{css}">{escape(text)}</span>')
    joiner = '<span class="over">over</span>' if separator.strip() == "over" else ""
    kind = escape(entry.get("kind", ""))
    return (f'<div class="zone{" yours" if yours else ""}" data-zone="{escape(label)}">'
            f'<span class="zone-name">{seated(entry_title(*split_key(label)))}</span> <span class="kind">{kind}</span> '
            f'<span class="cards">{joiner.join(cards)}</span></div>')


def zones_html(observed: dict, private: set, facing: frozenset = frozenset()) -> str:
    """The zones the view lists (not those a board drawing shows whole), the seat's own
    private zones first, under 'yours', then its own `others` zones (which it sees face down)."""
    seat = f"P{observed.get('seat')}"
    drawn = {z for board in (observed.get("boards") or {}).values() for z in board.get("zones", ())}
    yours, held, others = [], [], []
    for label, entry in (observed.get("zones") or {}).items():
        name, index = split_key(label)
        if name in drawn and entry.get("count", 0) <= 1:
            continue
        mine = (name in private or name in facing) and seat in index
        (others if not mine else yours if name in private else held).append(zone_html(label, entry, mine))
    out = []
    if yours:
        out.append(f'<section class="zones yours"><h2>Yours (only you see them)</h2>{"".join(yours)}</section>')
    if held:
        out.append(f'<section class="zones yours"><h2>Yours (the others see them, not you)</h2>{"".join(held)}</section>')
    if others:
        out.append(f'<section class="zones"><h2>Zones</h2>{"".join(others)}</section>')
    return "".join(out)


def section_lines(observed: dict, kind: str, defaults: dict) -> list:
    """The lines of the terminal's section `kind` of the view ('variables', 'events'), each
    item once: the lines it wraps are joined again."""
    for section in view_sections(observed, defaults):
        if section.kind != kind:
            continue
        items = []
        for line in section.lines[1:]:
            if items and line.startswith("   "):       # a wrapped line goes on the item above
                items[-1] += " " + line.strip()
            else:
                items.append(line.strip())
        return items
    return []


def variables_html(observed: dict, defaults: dict) -> str:
    items = section_lines(observed, "variables", defaults)
    if not items:
        return ""
    return '<section class="variables"><h2>Variables</h2><ul>' + "".join(
        f"<li>{seated(item)}</li>" for item in items) + "</ul></section>"


def log_html(observed: dict) -> str:
    moves = observed.get("moves") or []
    events = observed.get("log") or []
    out = ['<section class="log"><h2>Moves</h2><ol class="moves-seen">']
    out += [f"<li>{seated(line)}</li>" for line in moves] or ["<li><i>none yet</i></li>"]
    out.append("</ol>")
    if events:
        out.append('<h2>Events</h2><ul class="events">' + "".join(f"<li>{seated(line)}</li>" for line in events) + "</ul>")
    out.append("</section>")
    return "".join(out)


def status_html(observed: dict) -> str:
    seat = observed.get("seat")
    line = render_status(observed)
    you = "You are watching" if seat == PUBLIC else f"You are P{seat}"
    out = [f'<header class="status"><span class="you{seat_class(f"P{seat}")}">{you}</span> · '
           f'{seated(line)}</header>']
    if observed.get("finished"):
        result = observed.get("result") or {}
        scores = result.get("scores") or []
        scores_text = " · ".join(f"P{p} {s}" for p, s in enumerate(scores, start=1))
        out.append(f'<p class="result">Game over: {seated(result.get("text", ""))}'
                   + (f" · scores {seated(scores_text)}" if scores else "") + "</p>")
    elif observed.get("to_move") == seat:
        out.append('<p class="turn yours">Your turn</p>')
    elif observed.get("to_move") is not None:
        out.append(f'<p class="turn">Waiting for {seated("P" + str(observed["to_move"]))}</p>')
    choice = observed.get("choice")
    if choice and not observed.get("finished"):
        out.append(f'<p class="choice">{seated("P" + str(choice.get("chooser")))} must choose: '
                   f'{escape(str(choice.get("prompt", "")))}</p>')
    if observed.get("sealed"):
        out.append("<p>sealed moves from: " + seated(", ".join(f"P{p}" for p in observed["sealed"])) + "</p>")
    if observed.get("stopped"):
        out.append(f'<p class="refusal">{escape(observed["stopped"])}</p>')
    return "".join(out)


def fragment(observed: dict, info: dict) -> str:
    """The part of a seat's page that changes with the game (sent again on every change).
    `info`: what the rules file declares for every seat alike ('private': the names of zones
    each seat sees its own of, 'facing': of those it sees all but its own of, 'legends' of hex maps' symbols, 'defaults' of variables)."""
    return (f'<div id="table" data-version="{observed.get("version", 0)}" '
            f'data-to-move="{observed.get("to_move") or ""}" data-finished="{str(bool(observed.get("finished"))).lower()}" '
            f'data-can-undo="{str(bool(observed.get("can_undo"))).lower()}">'
            + status_html(observed)
            + '<div class="columns"><div class="main">' + boards_html(observed, info.get("legends") or {})
            + move_buttons(observed) + zones_html(observed, info.get("private") or set(), info.get("facing") or frozenset())
            + '</div><div class="side">' + variables_html(observed, info.get("defaults") or {})
            + log_html(observed) + "</div></div></div>")


def rules_html(rules: list) -> str:
    if not rules:
        return "<p>This rules file has no rule texts (rule tags).</p>"
    return "<dl>" + "".join(f"<dt>{escape(rule_id)}</dt>" + "".join(f"<dd>{escape(text)}</dd>" for text in texts)
                            for rule_id, texts in rules) + "</dl>"


TYPED_MOVE_FORM = """<form id="typed" autocomplete="off"><label for="typed-move">Type a move</label>
<input id="typed-move" name="move" placeholder="its name, a few of its words, or its number">
<button type="submit">Play</button> <button type="button" id="undo">Undo</button></form>
"""


def page(observed: dict, info: dict, static: str) -> str:
    """A seat's whole page: the fragment, the typed-move form, undo, the rules. `static` is the
    path of the static files; the script finds the seat's URL in the page's own address."""
    watching = observed.get("seat") == PUBLIC
    title = escape(f"{observed.get('game') or 'game'} · {'watching' if watching else 'P' + str(observed.get('seat'))}")
    form = "" if watching else TYPED_MOVE_FORM
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title}</title><link rel="stylesheet" href="{static}/table.css"></head>
<body>
<h1>{escape(observed.get('game') or 'game')}</h1>
{fragment(observed, info)}
{form}<p id="refusal" class="refusal" role="alert"></p>
<details class="rules"><summary>Rules</summary>{rules_html(info.get('rules') or [])}</details>
<script src="{static}/table.js"></script>
</body></html>
"""
