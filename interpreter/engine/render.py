"""Text rendering of what one player sees (the dict made by `State.view(player)`).

Nothing here knows a game: zones, variables and boards are drawn from their names and labels.

    render_view(view)                 # the whole view, several lines
    render_view(view, defaults=...)   # hide variables still at their declared default
    render_board(board, values)       # one board: a grid of marks, or a hex map
    render_status(view)               # one line: turn (or round), whose move, scores
    view_sections(view)               # the text of render_view in its parts, for colouring it
    symbol_legends(game, state)       # what each symbol of a hex map stands for, by board
    at_the_table(view, legends, names)  # a view with those legends and the numbered moves' hexes
"""
from __future__ import annotations

import re
import shutil
from collections import Counter
from fractions import Fraction
from typing import NamedTuple

COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"
CELL_WIDTH_CAP = 9
INDEXED = re.compile(r"^([^\[\]]+)\[(.*)\]$")


def width() -> int:
    return max(60, min(110, shutil.get_terminal_size((100, 24)).columns))


# ---- small pieces --------------------------------------------------------------------------

def player(p) -> str:
    return "chance" if p == -1 else f"P{p}"      # -1: the chance player (explicit chance)


def number(value) -> str:
    """1.0 -> '1', 2.5 -> '2.5', 3 -> '3', and a float that is a fraction of the rules
    (returns() gives -1/3 as -0.333...) -> '-1/3', as labels show fractions."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float) and len(repr(value)) > 8:
        near = Fraction(value).limit_denominator(1000)
        if float(near) == value:
            return str(near)
    return str(value)


def scores_text(scores) -> str:
    return " · ".join(f"{player(p)} {number(v)}" for p, v in enumerate(scores, start=1))


def winners_text(winners, outcome=None) -> str:
    """How a game ended, in words: its winners, and its outcome when it says more (State.outcome)."""
    if outcome == "lost":
        return "every player loses"
    if not winners:
        return "no winner (draw)"
    names = [player(p) for p in winners]
    if len(names) == 1:
        return f"{names[0]} wins"
    return f"{', '.join(names[:-1])} and {names[-1]} win ({'team' if outcome == 'team' else 'shared'})"


def split_key(label: str):
    """'hand[P1]' -> ('hand', ['P1']); 'place[north, 3]' -> ('place', ['north', '3']);
    'round' -> ('round', [])."""
    match = INDEXED.match(label)
    if not match:
        return label, []
    return match.group(1), [part.strip() for part in match.group(2).split(",")]


def wrap(head: str, parts, indent: int = 4, sep: str = " · ") -> list:
    """'head' followed by the parts joined with `sep`, wrapped to the terminal width between
    parts (never inside one); continuation lines are indented under the first part."""
    limit = width()
    pad = " " * (len(head) if len(head) <= 30 else indent)
    lines, current, fresh = [], head, True
    for part in parts:
        piece = part if fresh else sep + part
        if not fresh and len(current) + len(piece) > limit:
            lines.append(current + sep.rstrip())
            current, piece = pad, part
        current += piece
        fresh = False
    lines.append(current.rstrip())
    return lines


def index_order(text):
    """Natural sort key for index labels: 'P2' before 'P10', '3' before '12'."""
    if isinstance(text, (list, tuple)):
        return [index_order(part) for part in text]
    return [(0, int(piece), "") if piece.isdigit() else (1, 0, piece)
            for piece in re.split(r"(\d+)", text) if piece]


# ---- zones ---------------------------------------------------------------------------------

def item_text(item, hide_owner=None) -> str:
    label = item.get("label", "?")
    owner = item.get("owner")
    if owner is None or owner == hide_owner or player(owner) in label.split():
        return label
    return f"{label} ({player(owner)})"


def zone_contents(entry, index) -> str:
    """The contents of one zone as one text."""
    parts, sep = zone_parts(entry, index)
    return sep.join(parts)


def zone_parts(entry, index):
    """The contents of one zone: (texts, separator): its items, or how many are hidden."""
    count = entry.get("count", 0)
    kind = entry.get("kind", "")
    if count == 0:
        return ["empty"], ", "
    items = entry.get("items")
    if items is None:
        shown, known = entry.get("shown"), entry.get("known")
        text = f"{count} hidden"
        if shown:       # a `reveal` showed some of them to this player
            text += ", shown to you: " + ", ".join(f"{item_text(item, None)} (#{item['position']})" for item in shown)
        if known:       # `reveal x.colour to ...` told this player some of their attributes
            text += ", known to you: " + ", ".join(
                f"{item['type']} {' '.join(f'{k} {v}' for k, v in item['known'].items())} (#{item['position']})"
                for item in known)
        return [text], ", "
    # cards in 'hand[P1]' need not each say '(P1)'
    owners = {item.get("owner") for item in items}
    hide_owner = None
    if len(owners) == 1:
        (only,) = owners
        if only is not None and player(only) in index:
            hide_owner = only
    texts = [item_text(item, hide_owner) for item in items]
    if kind == "set":
        # order does not matter: each label once with its count, sorted by label ('card 2'
        # before 'card 10'): "12× token, 2× card 3, card 5"
        counted = Counter(texts)
        return [counted_text(n, t) for t, n in sorted(counted.items(), key=lambda e: index_order(e[0]))], ", "
    # a pile, a row or a stack keeps its order (the game's: a top, a hand put back in order);
    # only neighbours that read the same are counted together: "2× token, card 3, token"
    runs = []
    for text in texts:
        if runs and runs[-1][0] == text:
            runs[-1][1] += 1
        else:
            runs.append([text, 1])
    counted = [counted_text(n, t) for t, n in runs]
    if kind == "stack":
        # the top (last) first: "queen over knight"
        return list(reversed(counted)), " over "
    return counted, ", "


def counted_text(n, text) -> str:
    return f"{n}× {text}" if n > 1 else text


SEAT = re.compile(r"P\d+")


def entry_title(name: str, index) -> str:
    """A zone's or variable's entry in the game's words, not index syntax: 'hand', ['P2'] ->
    "P2's hand"; 'display', ['1'] -> 'display 1'; 'deck', [] -> 'deck'."""
    if len(index) == 1 and SEAT.fullmatch(index[0]):
        return f"{index[0]}'s {name}"
    return " ".join([name, *index])


def render_zones(zones: dict, columns: dict = None) -> list:
    """The zones, each entry as "P2's hand: ...", and a zone indexed twice (a place of a
    region) as a table: its first index down, its second across (or the other way round
    when that fits the width better). `columns`: {zone: every label of its second index}."""
    groups = {}
    for label, entry in zones.items():
        name, index = split_key(label)
        groups.setdefault(name, []).append((label, index, entry))
    lines = []
    for name, entries in groups.items():
        entries.sort(key=lambda e: index_order(e[1]))
        if all(len(index) <= 1 for _, index, _ in entries):
            for label, index, entry in entries:
                parts, sep = zone_parts(entry, index)
                lines.extend(wrap(f"  {entry_title(name, index)}: ", parts, sep=sep))
            continue
        if all(len(index) == 2 for _, index, _ in entries):
            cells = {tuple(index): table_cell(entry, index) for _, index, entry in entries}
            lines.extend(table_lines(name, cells, (columns or {}).get(name)))
            continue
        # more indices: one line per prefix, the last index inside it ("place north 2  1: ... · 3: ...")
        rows = {}
        for label, index, entry in entries:
            prefix = " ".join(index[:-1])
            rows.setdefault(prefix, []).append((index[-1] if index else "", entry, index))
        for prefix, parts in rows.items():
            shown = [f"{last}: {zone_contents(entry, index)}" for last, entry, index in parts]
            lines.extend(wrap(f"  {name} {prefix}  ", shown))
    return lines


def table_cell(entry, index) -> str:
    """A zone's contents in a table's cell: a stack as 'top/under', '.' when empty."""
    if entry.get("count", 0) == 0:
        return "."
    parts, sep = zone_parts(entry, index)
    return ("/" if sep == " over " else ", ").join(parts)


def table_lines(name: str, cells: dict, columns=None, in_order=False) -> list:
    """{(row, column): text} as a table headed by `name`, the first index down and the second
    across, '.' where no entry is; transposed when that fits the width and this does not
    (cells cut to fit when neither does). `columns`, every label of the second index (a
    zone's, whose empty entries a view leaves out), puts the second index down: a table that
    keeps its shape as the game goes. `in_order`: the columns as the cells come (a variable's
    entries come in the order of its indexes' domains: an enum's members as declared), else
    sorted by their labels."""
    rows = list(dict.fromkeys(r for r, _ in cells))
    seen = list(dict.fromkeys(c for _, c in cells))
    if not in_order:
        seen.sort(key=index_order)
    cols = list(columns) + [c for c in seen if c not in columns] if columns else seen

    def layout(down, across, text):
        head = max([len(name)] + [len(r) for r in down])
        widths = [max([len(c)] + [len(text(r, c)) for r in down]) for c in across]
        return head, widths

    def drawn(down, across, text, cap=None):
        head, widths = layout(down, across, text)
        if cap is not None:
            widths = [min(w, cap) for w in widths]
        cut = (lambda t, w: t if len(t) <= w else t[:w - 1] + "…")
        out = ["  " + name.ljust(head) + "  " + "  ".join(c.ljust(w) for c, w in zip(across, widths))]
        out += ["  " + r.ljust(head) + "  " + "  ".join(cut(text(r, c), w).ljust(w) for c, w in zip(across, widths))
                for r in down]
        return [line.rstrip() for line in out]

    def straight(r, c):
        return cells.get((r, c), ".")

    def turned(r, c):
        return cells.get((c, r), ".")

    limit = width()
    options = [drawn(rows, cols, straight), drawn(cols, rows, turned)]
    if columns:
        options.reverse()
    for lines in options:
        if max(len(line) for line in lines) <= limit:
            return lines
    # neither fits: the one with fewer columns, its cells cut to share the width
    down, across, text = (rows, cols, straight) if len(cols) <= len(rows) or not columns else (cols, rows, turned)
    head, _ = layout(down, across, text)
    cap = max(4, (limit - 4 - head) // max(1, len(across)) - 2)
    return drawn(down, across, text, cap)


# ---- variables -----------------------------------------------------------------------------

def board_marked(boards: dict):
    """(cell label, mark) pairs that a board drawing already shows."""
    shown = set()
    for board in boards.values():
        for cell in board.get("cells", []):
            for mark in cell.get("marks", []):
                shown.add((cell.get("label"), mark))
    return shown


def render_vars(values: dict, defaults=None, boards=None) -> list:
    defaults = defaults or {}
    on_boards = board_marked(boards or {})
    drawn = {v for board in (boards or {}).values() for v in board.get("vars", [])}
    groups = {}
    for label, value in values.items():
        name, index = split_key(label)
        if name in defaults and value == defaults[name]:
            continue
        if name in drawn and value == "none":
            continue           # an empty cell of a board drawing
        if len(index) == 1 and (index[0], value) in on_boards:
            continue
        groups.setdefault(name, []).append((index, value))
    lines = []
    for name, entries in groups.items():
        # in the view's order, the order of the indexes' domains: an enum's members as declared
        if len(entries) == 1 and not entries[0][0]:
            lines.append(f"  {name}: {entries[0][1] or '-'}")      # an empty list: '-', not nothing
            continue
        if all(len(index) == 2 for index, _ in entries):        # roll[P1, 1]: a table, seats down
            distinct = [{index[k] for index, _ in entries} for k in (0, 1)]
            if min(len(values) for values in distinct) > 1:
                lines.extend(table_lines(name, {tuple(index): str(value) for index, value in entries}, in_order=True))
                continue
            # one die each, one seat: the index that varies alone ('roll: P1=5 · P2=2')
            varying = 0 if len(distinct[1]) == 1 else 1
            entries = [([index[varying]], value) for index, value in entries]
        parts = [f"{','.join(index)}={value}" for index, value in entries]
        lines.extend(wrap(f"  {name}: ", parts))
    return lines


def with_flow_state(view: dict) -> dict:
    """A copy of `view` whose text lists the variables the rules mark `bookkeeping` too, under
    a heading of their own (the flow state a player does not need: `replay --all`, `view all`
    at the prompt)."""
    return {**view, "flow_state_shown": True}


# ---- boards --------------------------------------------------------------------------------

def cell_text(cell) -> str:
    marks = cell.get("marks") or []
    if not marks:
        return "."
    text = "/".join(marks)
    return text if len(text) <= CELL_WIDTH_CAP else text[:CELL_WIDTH_CAP - 1] + "…"


def hex_symbol(label: str) -> str:
    """A hex cell's symbol as drawn in the rules file ('F' of 'F@3.4', '07' of '07@2.13')."""
    return label.split("@", 1)[0]


class Spot(NamedTuple):
    """Where a cell's marks stand in a board drawing: line `line` of render_board's lines,
    from column `start`, shows `text`: the marks joined by '/' (cut to fit if need be)."""
    line: int
    start: int
    text: str
    marks: tuple
    cell: dict


GRID_MIN_WIDTH = 2  # a grid cell's width at least: a player's mark, P1
HEX_WIDTH = 5       # a hex's text, its symbol or its marks, is cut to this many characters
HEX_STEP = 3        # characters per hex-map column: hexes side by side (2 columns apart) stand 6 apart


def part_names(board: dict, values: dict):
    """(row, col) -> the parts the cell belongs to, one per variable that splits the board into
    parts (read from the view's variables: what the viewer may see), or None without such a
    variable. 'none' is a cell in no part."""
    parts = board.get("parts") or []
    if not parts:
        return None
    seat = f"P{board['player']}, " if board.get("player") else ""
    return {(c["row"], c["col"]): tuple(values.get(f"{v}[{seat}{c['label']}]", "none") for v in parts)
            for c in board.get("cells", [])}


def border_between(parts, a, b) -> bool:
    """Whether a border stands between cells a and b: both on the board, in different parts,
    and one of them in a part."""
    if parts is None or a not in parts or b not in parts or parts[a] == parts[b]:
        return False
    return any(name != "none" for name in parts[a] + parts[b])


SINGULAR = {"hexes": "hex", "cells": "cell"}


def parts_lines(board: dict, values: dict, title: str) -> list:
    """The parts a variable splits the board into, each under the name of the cell that names
    it, with its cells in reading order: what a move that names a part by one cell ('the
    region of S@5.2') takes in. Parts of one cell are listed together on the last line."""
    names = part_names(board, values)
    if names is None:
        return []
    word = "hexes" if board.get("kind") == "hex" else "cells"
    label_at = {(c["row"], c["col"]): c["label"] for c in board.get("cells", [])}
    order = sorted(label_at, key=lambda at: (at[0], at[1]))
    lines = []
    for k, variable in enumerate(board.get("parts", ())):
        members = {}
        for at in order:
            part = names[at][k]
            if part != "none":
                members.setdefault(part, []).append(label_at[at])
        if not members:
            continue
        lines.append(f"{variable}: the parts of {title}, each named by one of its {word}:")
        alone = []
        for part, cells in members.items():
            if len(cells) == 1 and cells[0] == part:
                alone.append(part)
                continue
            lines.extend(wrap(f"  {part}: ", cells, sep=", "))
        if alone:
            lines.extend(wrap(f"  one {SINGULAR[word]} each: ", alone, sep=", "))
    return lines


def legend_lines(board: dict) -> list:
    """What the drawing's symbols, coordinates, lines and move numbers mean: the same lines
    whatever the marks (the move numbers' line only while a human chooses)."""
    lines = []
    if board.get("symbols"):
        lines.extend(wrap("  ", board["symbols"]))
    if board.get("kind") == "hex":
        lines.append("  a hex is SYMBOL@ROW.COL: its row at the left, its column on top (half a hex each)")
    if board.get("parts"):
        # every side of a part is drawn, against a cell in no part too: an outline
        lines.append(f"  lines outline the parts of {', '.join(board['parts'])}, listed below")
    if board.get("targets"):
        lines.append("  (3): an empty hex where move 3 of the list below plays")
    return lines


def symbol_legends(game, state) -> dict:
    """{hex map's name: ['W water', 'H hill', ..., '01..12 field']}: for each symbol of the
    drawing, the attributes its legend entry gives (those the same on every hex of that
    symbol), the numbered hexes as one range. A player reads the map by them."""
    legends = {}
    for name, geometry in game.geometries.items():
        if geometry.kind != "hex":
            continue
        groups = {}
        for cell in geometry.cells:
            entity = state.entities[cell]
            symbol = hex_symbol(entity["__label__"])
            groups.setdefault("#" if symbol.isdigit() else symbol, []).append((symbol, entity))
        entries = []
        for symbol in sorted(groups, key=lambda k: (k == "#", k)):
            members = groups[symbol]
            shared = [value for key, value in members[0][1].items()
                      if not key.startswith("__") and key not in ("row", "col", "number")
                      and all(entity.get(key) == value for _, entity in members)]
            if symbol == "#":
                numbers = sorted((entity["number"], shown) for shown, entity in members)
                symbol = numbers[0][1] if len(numbers) == 1 else f"{numbers[0][1]}..{numbers[-1][1]}"
            texts = [("yes" if v else "no") if isinstance(v, bool) else str(v) for v in shared if v is not None]
            if symbol[0].isdigit():
                texts = [", ".join(texts) + " (numbered)" if texts else "numbered"]
            if texts:
                entries.append(f"{symbol} {', '.join(texts)}")
        legends[name] = entries
    return legends


def named_cells(names, labels) -> dict:
    """{cell label: [numbers of the moves whose name holds that label as a word]} (from 1)."""
    found = {}
    for number, name in enumerate(names, start=1):
        for word in set(re.split(r"[\s,()]+", name)):
            if word in labels:
                found.setdefault(word, []).append(number)
    return found


def at_the_table(view: dict, legends: dict = None, names=None, mark: str = "") -> dict:
    """A copy of `view` for a human at the terminal: each hex map with the legend of its
    symbols, and, while that human chooses among the moves `names` (numbered from 1, `mark`
    before the number: '#' where moves are named by numbers), on each empty hex that one
    listed move names, and only one, that move's number: where a move plays is found on the
    map, not searched for in a long list."""
    boards = {}
    for board_name, board in (view.get("boards") or {}).items():
        board = dict(board)
        base = split_key(board_name)[0]
        if (legends or {}).get(base):
            board["symbols"] = legends[base]
        if names and board.get("kind") == "hex":
            empty = {c["label"] for c in board.get("cells", []) if not c.get("marks")}
            targets = {label: f"({mark}{numbers[0]})" for label, numbers in named_cells(names, empty).items()
                       if len(numbers) == 1 and len(f"({mark}{numbers[0]})") <= HEX_WIDTH}
            if targets:
                board["targets"] = targets
        boards[board_name] = board
    return {**view, "boards": boards}


def place(line: list, start: int, text: str):
    line[start:start + len(text)] = list(text)


def render_hex_board(board: dict, values: dict, spots: list = None) -> list:
    """Each hex on two lines, its symbol then its marks (cut to HEX_WIDTH, and then written
    whole under the legend), at its drawn place; row numbers down the left, column numbers
    across the top. On a board split into parts, a line between two rows holds the borders
    ('╲', '╱'), and '│' stands between hexes side by side. The layout is the same whatever
    the marks."""
    cells = board["cells"]
    rows = board.get("rows") or max(c["row"] for c in cells)
    cols = board.get("cols") or max(c["col"] for c in cells)
    at = {(c["row"], c["col"]): c for c in cells}
    parts = part_names(board, values)
    targets = board.get("targets") or {}      # empty hexes where a listed move plays: its number
    label_width = len(str(rows))
    half = HEX_WIDTH // 2

    def x(col):                                   # the middle of a hex in that column
        return label_width + 1 + half + col * HEX_STEP

    size = x(cols) + half + 2
    head = [" "] * size
    for col in range(1, cols + 1):
        number = str(col)
        place(head, x(col) - len(number) + 1, number)     # the number's last digit over the middle
    lines = ["".join(head).rstrip()]
    cut = []            # (label, marks) of the hexes whose marks do not fit
    for row in range(1, rows + 1):
        symbols, marks, between = [" "] * size, [" "] * size, [" "] * size
        place(symbols, 0, str(row).rjust(label_width))
        for (r, col), cell in at.items():
            if r != row:
                continue
            middle = x(col)
            symbol = hex_symbol(cell["label"])[:half + 1]
            place(symbols, middle - len(symbol) + 1, symbol)      # by its last character, as drawn in the rules
            text = "/".join(cell.get("marks") or []) or targets.get(cell["label"], "")
            if len(text) > HEX_WIDTH:
                cut.append((cell["label"], text))
                text = text[:HEX_WIDTH - 1] + "…"
            place(marks, middle - half, text.center(HEX_WIDTH))
            if spots is not None and text and cell.get("marks"):
                # its line once the row's symbols line is added; +2: the indent added below
                start = 2 + middle - half + text.center(HEX_WIDTH).index(text)
                spots.append(Spot(len(lines) + 1, start, text, tuple(cell["marks"]), cell))
            if border_between(parts, (row, col), (row, col + 2)):
                symbols[middle + HEX_STEP] = marks[middle + HEX_STEP] = "│"
            if border_between(parts, (row, col), (row + 1, col + 1)):
                between[middle + half] = "╱"
            if border_between(parts, (row, col), (row + 1, col - 1)):
                between[middle - half] = "╲"
        lines += ["".join(symbols).rstrip(), "".join(marks).rstrip()]
        if row < rows and parts is not None:
            lines.append("".join(between).rstrip())
    whole = [f"  {label}: {text}" for label, text in sorted(cut, key=lambda c: index_order(c[0]))]
    return [("  " + line).rstrip() for line in lines] + legend_lines(board) + whole


def column_labels(board: dict, cols: int) -> list:
    """A grid's column labels, one labelling, the one players type: the letters of its cell
    labels ('c' of 'c3'), or the numbers 1, 2, 3... where no move names a cell (the board's
    "columns" is "numbers": a move names a column by its number)."""
    if board.get("columns") == "numbers":
        return [str(c) for c in range(1, cols + 1)]
    return [COLUMN_LETTERS[c - 1] if c <= len(COLUMN_LETTERS) else str(c) for c in range(1, cols + 1)]


def grid_cell_width(board: dict) -> int:
    """The width of a grid's cells as drawn alone: its widest mark (each mark on its own line),
    its widest column label, at least GRID_MIN_WIDTH (a player's mark, P1, added to an empty
    grid moves nothing)."""
    cells = board.get("cells") or []
    cols = board.get("cols") or max([c["col"] for c in cells] + [1])
    marks = [len(cell_text({"marks": [m]})) for c in cells for m in c.get("marks") or []]
    return max(marks + [len(label) for label in column_labels(board, cols)] + [GRID_MIN_WIDTH])


def render_board(board: dict, values: dict = None, spots: list = None, cell_width: int = None) -> list:
    """A grid: the highest row at the top, row 1 at the bottom, the columns labelled above and
    below as players type them (column_labels), the rows numbered at the left. A hex map: see
    render_hex_board. `values` (the view's variables) places the borders of the parts a
    variable splits the board into. `spots`, a list, receives a Spot for each cell's marks as
    drawn (for colouring them). `cell_width`: the width of the cells, at least (the boards of
    one set, one per seat, drawn alike)."""
    cells = board.get("cells", [])
    if not cells:
        return ["  (no cells)"]
    values = values or {}
    if board.get("kind") == "hex":
        return render_hex_board(board, values, spots)
    rows = board.get("rows") or max(c["row"] for c in cells)
    cols = board.get("cols") or max(c["col"] for c in cells)
    parts = part_names(board, values)
    # a grid cell with several marks shows one per line ("red 3" over "ant")
    stacked = {(c["row"], c["col"]): [cell_text({"marks": [m]}) for m in c.get("marks") or []] or [cell_text(c)]
               for c in cells}
    w = max(grid_cell_width(board), cell_width or 0)
    label_w = len(str(rows))
    letters = column_labels(board, cols)

    def joined(texts, row):
        """The cells of a row side by side, '│' between two parts."""
        text = texts[0]
        for col in range(2, cols + 1):
            text += ("│" if border_between(parts, (row, col - 1), (row, col)) else " ") + texts[col - 1]
        return text

    lines = ["  " + " " * label_w + "  " + " ".join(l.center(w) for l in letters).rstrip()]
    at = {(c["row"], c["col"]): c for c in cells}
    for row in range(rows, 0, -1):
        height = max((len(stacked.get((row, col), ())) for col in range(1, cols + 1)), default=1) or 1
        for line in range(height):
            texts = [(stacked[(row, col)][line] if (row, col) in stacked and line < len(stacked[(row, col)])
                      else " ").center(w) for col in range(1, cols + 1)]
            if spots is not None:
                for col in range(1, cols + 1):
                    marks = (at.get((row, col)) or {}).get("marks") or []
                    if line < len(marks):       # one mark per line of a cell
                        shown = stacked[(row, col)][line]
                        start = 2 + label_w + 2 + (col - 1) * (w + 1) + texts[col - 1].index(shown)
                        spots.append(Spot(len(lines), start, shown, (marks[line],), at[(row, col)]))
            head = str(row).rjust(label_w) if line == 0 else " " * label_w
            lines.append(f"  {head}  {joined(texts, row).rstrip()}")
        if parts is not None and row > 1:
            under = [("─" if border_between(parts, (row, col), (row - 1, col)) else " ") * w
                     for col in range(1, cols + 1)]
            lines.append(("  " + " " * label_w + "  " + " ".join(under)).rstrip())
    lines.append(lines[0])
    return lines + legend_lines(board)


def board_set_widths(boards: dict) -> dict:
    """{board name: the cell width of its grids}: the widest of the set ('Yard[P1]', 'Yard[P2]'),
    so that the boards of one set, one per seat, have their columns one above the other."""
    widths = {}
    for name, board in boards.items():
        if board.get("kind") != "hex" and board.get("cells"):
            base = split_key(name)[0]
            widths[base] = max(widths.get(base, 0), grid_cell_width(board))
    return widths


# ---- the whole view ------------------------------------------------------------------------

def whose_turn(view: dict):
    """The part of the status line that says whose turn it is, or that the game is over (None
    when it says neither)."""
    if view.get("terminal"):
        return "game over: " + winners_text(view.get("winners", []), view.get("outcome"))
    if view.get("choice"):
        return f"{player(view['choice'].get('chooser'))} to choose"
    if view.get("current") is not None:
        return f"{player(view['current'])} to move"
    return None


def render_status(view: dict) -> str:
    """One line: the turn (or the variables the rules mark `status`, a round counter: 'round
    3'), whose move, scores."""
    values = view.get("vars") or {}
    parts = [f"{name} {values[name]}" for name, how in (view.get("display") or {}).items()
             if how == "status" and name in values] or [f"turn {view.get('turn', 0)}"]
    turn = whose_turn(view)
    if turn is not None:
        parts.append(turn)
    if view.get("scores") is not None:
        parts.append("scores " + scores_text(view["scores"]))
    return " · ".join(parts)


class Section(NamedTuple):
    """A part of a view's text: `kind` says what its lines are ('head', 'rule', 'choice',
    'sealed', 'board', 'zones', 'variables', 'events'); a board's has its drawing's spots."""
    kind: str
    lines: list
    board: dict = None
    spots: list = None


def view_sections(view: dict, defaults: dict = None) -> list:
    """The text of one player's view in its sections, in order (render_view joins them)."""
    sections = []
    title = view.get("game") or "game"
    me = view.get("player")
    head = f"{title} · " + render_status(view)
    if me:
        head += f" · view of {player(me)}"
    elif me == 0:               # PUBLIC: a viewer who owns nothing
        head += " · spectator's view"
    sections.append(Section("head", [head]))
    sections.append(Section("rule", ["─" * min(len(head), width())]))
    choice = view.get("choice")
    if choice and not view.get("terminal"):
        sections.append(Section("choice", [f"{player(choice.get('chooser'))} must choose: {choice.get('prompt', '')}"]))
    if view.get("sealed"):
        sections.append(Section("sealed", ["sealed moves from: " + ", ".join(player(p) for p in view["sealed"])]))
    widths = board_set_widths(view.get("boards") or {})
    for name, board in (view.get("boards") or {}).items():
        spots = []
        drawing = render_board(board, view.get("vars") or {}, spots, widths.get(split_key(name)[0]))
        # the spots' lines counted from the section's first line, the board's name
        spots = [spot._replace(line=spot.line + 1) for spot in spots]
        # a seat's board in words: "P1's Yard", not 'Yard[P1]'
        sections.append(Section("board", [f"{entry_title(*split_key(name))}:", *drawing], board, spots))
        listed = parts_lines(board, view.get("vars") or {}, name)
        if listed:
            sections.append(Section("parts", listed, board))
    # zones that a board drawing shows whole (one item per cell) are not listed again, nor the
    # variables it draws as parts (a letter per part)
    drawn = {z for board in (view.get("boards") or {}).values() for z in board.get("zones", ())}
    zones = {label: entry for label, entry in (view.get("zones") or {}).items()
             if not (split_key(label)[0] in drawn and entry.get("count", 0) <= 1)}
    parts = {v for board in (view.get("boards") or {}).values() for v in board.get("parts", ())}
    zone_lines = render_zones(zones, view.get("table_columns"))
    if zone_lines:
        sections.append(Section("zones", ["zones:", *zone_lines]))
    # nor those the rules mark `bookkeeping` (flow state) or `status` (on the status line)
    unlisted = parts | set(view.get("display") or ())
    values = {label: value for label, value in (view.get("vars") or {}).items() if split_key(label)[0] not in unlisted}
    var_lines = render_vars(values, defaults, view.get("boards"))
    if var_lines:
        sections.append(Section("variables", ["variables:", *var_lines]))
    if view.get("flow_state_shown"):
        flow = {name for name, how in (view.get("display") or {}).items() if how == "bookkeeping"}
        values = {label: value for label, value in (view.get("vars") or {}).items() if split_key(label)[0] in flow}
        flow_lines = render_vars(values)
        if flow_lines:
            sections.append(Section("variables", ["flow state (marked bookkeeping in the rules):", *flow_lines]))
    if view.get("log"):
        sections.append(Section("events", ["recent events:", *(f"  {line}" for line in view["log"])]))
    return sections


def render_view(view: dict, defaults: dict = None) -> str:
    """Readable text for one player's view. `defaults` maps a variable's name to the label
    of its declared default value; variables at their default are then left out."""
    return "\n".join(line for section in view_sections(view, defaults) for line in section.lines)


def view_defaults(game) -> dict:
    """{variable name: label of its declared default}, for `render_view(view, defaults)`: the
    variables indexed by board cells or components, whose entries at their starting value the
    text leaves out (one per cell or component; the board drawing shows the others). Every
    other value is shown, at its starting value too (a count still at its start, an empty heap)."""
    out = {}
    for name, meta in getattr(game, "var_meta", {}).items():
        if not any(t in game.geometries or t in game.types.components for t in meta[2]):
            continue
        try:
            out[name] = game.labeler(meta[3])(None, game.var_defaults.get(name))
        except Exception:           # a default that needs a state to label: always show it
            continue
    return out
