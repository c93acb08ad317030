"""Board geometry, built once per game: cells, their neighbours and the lines through them."""
from __future__ import annotations

import re

import attrs

COLUMN_LETTERS = "abcdefghijklmnopqrstuvwxyz"

# The directions (the built-in enum Direction), clockwise from north, and their (drow, dcol)
# on each kind of board. A grid's row 1 is at the bottom, so north is row + 1; a hex map's rows
# count from the top and its hexes stand 2 columns apart, so it has no north and no south.
DIRECTIONS = ("north", "north_east", "east", "south_east", "south", "south_west", "west", "north_west")
GRID_DELTAS = ((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1))
HEX_DELTAS = (None, (-1, 1), (0, 2), (1, 1), None, (1, -1), (0, -2), (-1, -1))


@attrs.define
class Geometry:
    name: str
    cells: list                       # entity ids, in reading order
    at: dict                          # (row, col) -> entity id
    neighbors: dict                   # entity id -> tuple of entity ids
    steps: tuple                      # (drow, dcol) line directions, one per axis
    kind: str                         # "grid" or "hex"
    deltas: dict = attrs.field(factory=dict)   # direction name -> (drow, dcol), the board's own
    rows: int = 0
    cols: int = 0
    ends: dict = attrs.field(factory=dict)     # a routes board: route -> (its two places)


def grid_cells(rows: int, cols: int):
    """(row, col, label, attributes) for a rows x cols grid; row 1 is drawn at the bottom."""
    for row in range(1, rows + 1):
        for col in range(1, cols + 1):
            letter = COLUMN_LETTERS[col - 1] if col <= len(COLUMN_LETTERS) else f"c{col}-"
            yield row, col, f"{letter}{row}", {}


def hex_cells(drawing: str, legend: dict):
    """Cells of a hex map drawn in text: each hex is two characters and hexes in a row stand
    4 characters apart; a hex's neighbours are beside it (4 apart) and on the rows above and
    below, 2 characters left and right. A two-digit number is a numbered hex; any other symbol
    is looked up in the legend. Rows count from the top; col is the character position // 2."""
    lines = drawing.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    for row, line in enumerate(lines, start=1):
        for match in re.finditer(r"\S+", line):
            symbol = match.group()
            end = match.end()
            attributes = {}
            if symbol.isdigit():
                attributes["number"] = int(symbol)
                attributes.update(legend.get("#", {}))
            else:
                if symbol not in legend:
                    raise ValueError(f"symbol '{symbol}' of the map is not in its legend")
                attributes["number"] = None
                attributes.update(legend[symbol])
            yield row, end // 2, f"{symbol}@{row}.{end // 2}", attributes


def build_geometry(name, kind, placed):
    """placed: list of (entity id, row, col)."""
    at = {(row, col): eid for eid, row, col in placed}
    if kind == "grid":
        near = ((0, 1), (1, 0), (0, -1), (-1, 0))
        steps = ((0, 1), (1, 0), (1, 1), (1, -1))
    else:
        near = ((0, 2), (0, -2), (1, 1), (1, -1), (-1, 1), (-1, -1))
        steps = ((0, 2), (1, 1), (1, -1))
    neighbors = {}
    for eid, row, col in placed:
        neighbors[eid] = tuple(at[(row + dr, col + dc)] for dr, dc in near if (row + dr, col + dc) in at)
    rows = max((r for _, r, _ in placed), default=0)
    cols = max((c for _, _, c in placed), default=0)
    deltas = {d: delta for d, delta in zip(DIRECTIONS, GRID_DELTAS if kind == "grid" else HEX_DELTAS)
              if delta is not None}
    return Geometry(name, [eid for eid, _, _ in placed], at, neighbors, steps, kind, deltas, rows, cols)


def route_labels(ends: list) -> list:
    """The label of each route, given its two places' names in written order: 'a-b', and for
    the second and later routes joining the same two places 'a-b/2', 'a-b/3'..."""
    seen: dict = {}
    labels = []
    for a, b in ends:
        pair = frozenset((a, b))
        seen[pair] = seen.get(pair, 0) + 1
        labels.append(f"{a}-{b}" + (f"/{seen[pair]}" if seen[pair] > 1 else ""))
    return labels


def map_geometry(name, kind, eids, neighbors, ends=None):
    """The geometry of a places or a routes board: no rows, columns or lines, only the
    neighbours (places joined by a route; routes sharing a place) and each route's ends."""
    return Geometry(name, list(eids), {}, {eid: tuple(neighbors.get(eid, ())) for eid in eids}, (), kind,
                    ends={route: tuple(pair) for route, pair in (ends or {}).items()})


def place_neighbors(places: list, routes_ends: list) -> dict:
    """place -> the places joined to it by a route, each once, in the places' order."""
    order = {eid: k for k, eid in enumerate(places)}
    joined: dict = {eid: set() for eid in places}
    for a, b in routes_ends:
        joined[a].add(b)
        joined[b].add(a)
    return {eid: sorted(near, key=order.__getitem__) for eid, near in joined.items()}


def route_neighbors(routes: list, routes_ends: list) -> dict:
    """route -> the other routes that share a place with it, in the routes' order."""
    order = {eid: k for k, eid in enumerate(routes)}
    at_place: dict = {}
    for route, ends in zip(routes, routes_ends):
        for place in ends:
            at_place.setdefault(place, set()).add(route)
    return {route: tuple(sorted((at_place[ends[0]] | at_place[ends[1]]) - {route}, key=order.__getitem__))
            for route, ends in zip(routes, routes_ends)}
