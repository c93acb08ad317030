"""Text rendering of what one player sees (the dict made by `State.view(player)`).

Nothing here knows a game: zones, variables and boards are drawn from their names and labels.

    render_view(view)                 # the whole view, several lines
    render_view(view, defaults=...)   # hide variables still at their declared default
    render_board(board)               # one board as a grid of marks
    render_status(view)               # one line: turn, whose move, scores
"""
from __future__ import annotations

import re
import shutil
from collections import Counter

COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"
CELL_WIDTH_CAP = 9
INDEXED = re.compile(r"^([^\[\]]+)\[(.*)\]$")


def width() -> int:
    return max(60, min(110, shutil.get_terminal_size((100, 24)).columns))


# ---- small pieces --------------------------------------------------------------------------

def player(p) -> str:
    return "chance" if p == -1 else f"P{p}"      # -1: the chance player (explicit chance)


def number(value) -> str:
    """1.0 -> '1', 2.5 -> '2.5', 3 -> '3'."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def scores_text(scores) -> str:
    return " · ".join(f"{player(p)} {number(v)}" for p, v in enumerate(scores, start=1))


def winners_text(winners) -> str:
    if not winners:
        return "no winner (draw)"
    names = [player(p) for p in winners]
    if len(names) == 1:
        return f"{names[0]} wins"
    return f"{', '.join(names[:-1])} and {names[-1]} win (shared)"


def split_key(label: str):
    """'hand[P1]' -> ('hand', ['P1']); 'place[Asia, 3]' -> ('place', ['Asia', '3']);
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
        shown = entry.get("shown")
        if shown:       # a `reveal` showed some of them to this player
            return [f"{count} hidden, shown to you: " +
                    ", ".join(f"{item_text(item, None)} (#{item['position']})" for item in shown)], ", "
        return [f"{count} hidden"], ", "
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


def render_zones(zones: dict) -> list:
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
                lines.extend(wrap(f"  {label}: ", parts, sep=sep))
            continue
        # several indices: one line per prefix, the last index inside it ("place[Asia, _]: 1 ... · 3 ...")
        rows = {}
        for label, index, entry in entries:
            prefix = ", ".join(index[:-1])
            rows.setdefault(prefix, []).append((index[-1] if index else "", entry, index))
        for prefix, parts in rows.items():
            shown = [f"{last}: {zone_contents(entry, index)}" for last, entry, index in parts]
            lines.extend(wrap(f"  {name}[{prefix}, …]  ", shown))
    return lines


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
        entries.sort(key=lambda e: index_order(e[0]))
        if len(entries) == 1 and not entries[0][0]:
            lines.append(f"  {name}: {entries[0][1] or '-'}")      # an empty list: '-', not nothing
            continue
        parts = [f"{','.join(index)}={value}" for index, value in entries]
        lines.extend(wrap(f"  {name}: ", parts))
    return lines


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


def render_board(board: dict) -> list:
    """A grid: the highest row at the top, row 1 at the bottom, columns lettered a, b, c...
    A hex map: rows from the top as drawn, each hex at its drawn position."""
    cells = board.get("cells", [])
    if not cells:
        return ["  (no cells)"]
    texts = {(c["row"], c["col"]): cell_text(c) for c in cells}
    w = max(len(t) for t in texts.values())
    rows = board.get("rows") or max(r for r, _ in texts)
    cols = board.get("cols") or max(c for _, c in texts)
    lines = []
    if board.get("kind") == "hex":
        # each hex on two lines: its symbol as drawn in the rules file, then its marks
        symbols = {(c["row"], c["col"]): hex_symbol(c["label"]) for c in cells}
        marked = {(c["row"], c["col"]): cell_text(c) for c in cells if c.get("marks")}
        w = max(len(t) for t in [*symbols.values(), *marked.values()])
        step = (w + 2) // 2         # half the distance between two hexes side by side
        for row in range(1, rows + 1):
            for texts in (symbols, marked):
                if not any((row, col) in texts for col in range(cols + 1)):
                    continue
                line = [" "] * ((cols + 2) * step + w)
                for col in range(0, cols + 1):
                    if (row, col) in texts:
                        start = col * step
                        line[start:start + w] = list(texts[(row, col)].center(w))
                lines.append("  " + "".join(line).rstrip())
        # drop the empty left margin shared by every line
        margin = min((len(l) - len(l.lstrip()) for l in lines if l.strip()), default=0)
        return ["  " + l[margin:] for l in lines]
    # a grid cell with several marks shows one per line ("red 3" over "bee")
    stacked = {(c["row"], c["col"]): [cell_text({"marks": [m]}) for m in c.get("marks") or []] or [cell_text(c)]
               for c in cells}
    w = max(len(t) for marks in stacked.values() for t in marks)
    label_w = len(str(rows))
    letters = [COLUMN_LETTERS[c - 1] if c <= len(COLUMN_LETTERS) else str(c) for c in range(1, cols + 1)]
    lines.append("  " + " " * label_w + "  " + " ".join(l.center(w) for l in letters).rstrip())
    for row in range(rows, 0, -1):
        height = max((len(stacked.get((row, col), ())) for col in range(1, cols + 1)), default=1) or 1
        for line in range(height):
            body = " ".join((stacked[(row, col)][line] if (row, col) in stacked and line < len(stacked[(row, col)])
                             else " ").center(w) for col in range(1, cols + 1))
            head = str(row).rjust(label_w) if line == 0 else " " * label_w
            lines.append(f"  {head}  {body.rstrip()}")
    return lines


# ---- the whole view ------------------------------------------------------------------------

def render_status(view: dict) -> str:
    """One line: turn, whose move, scores."""
    parts = [f"turn {view.get('turn', 0)}"]
    if view.get("terminal"):
        parts.append("game over: " + winners_text(view.get("winners", [])))
    elif view.get("choice"):
        parts.append(f"{player(view['choice'].get('chooser'))} to choose")
    elif view.get("current") is not None:
        parts.append(f"{player(view['current'])} to move")
    if view.get("scores") is not None:
        parts.append("scores " + scores_text(view["scores"]))
    return " · ".join(parts)


def render_view(view: dict, defaults: dict = None) -> str:
    """Readable text for one player's view. `defaults` maps a variable's name to the label
    of its declared default value; variables at their default are then left out."""
    lines = []
    title = view.get("game") or "game"
    me = view.get("player")
    head = f"{title} · " + render_status(view)
    if me:
        head += f" · view of {player(me)}"
    elif me == 0:               # PUBLIC: a viewer who owns nothing
        head += " · spectator's view"
    lines.append(head)
    lines.append("─" * min(len(head), width()))
    choice = view.get("choice")
    if choice and not view.get("terminal"):
        lines.append(f"{player(choice.get('chooser'))} must choose: {choice.get('prompt', '')}")
    if view.get("sealed"):
        lines.append("sealed moves from: " + ", ".join(player(p) for p in view["sealed"]))
    for name, board in (view.get("boards") or {}).items():
        lines.append(f"{name}:")
        lines.extend(render_board(board))
    # zones that a board drawing shows whole (one item per cell) are not listed again, nor the
    # variables it draws as parts (a letter per part)
    drawn = {z for board in (view.get("boards") or {}).values() for z in board.get("zones", ())}
    zones = {label: entry for label, entry in (view.get("zones") or {}).items()
             if not (split_key(label)[0] in drawn and entry.get("count", 0) <= 1)}
    parts = {v for board in (view.get("boards") or {}).values() for v in board.get("parts", ())}
    zone_lines = render_zones(zones)
    if zone_lines:
        lines.append("zones:")
        lines.extend(zone_lines)
    values = {label: value for label, value in (view.get("vars") or {}).items() if split_key(label)[0] not in parts}
    var_lines = render_vars(values, defaults, view.get("boards"))
    if var_lines:
        lines.append("variables:")
        lines.extend(var_lines)
    if view.get("log"):
        lines.append("recent events:")
        lines.extend(f"  {line}" for line in view["log"])
    return "\n".join(lines)


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
