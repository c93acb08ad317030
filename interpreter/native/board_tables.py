"""A game's board as constant tables of a kernel module, and the board functions of the rules
(`Cell(r, c)`, `toward`, `ray`, `directions`, `between`, `has_line`) rendered over them.

One grid or hex map is handled (its cells are the ids 0..n-1, in reading order, as the engine
numbers them; a second is refused, `NotNative`), beside any maps of places and routes (their
cells the ids after, board by board: maps_source.py's tables). Per cell: its row and
column, its neighbour one step along each direction of the `Direction` enum (-1: off the board
or a direction the board has not, as north on a hex map) and along each line direction of
`has_line` (board_graph.py: surrounding and distance; cell_lists_source.py: the neighbours)."""
from __future__ import annotations

import numpy as np
from referee.dsl.types import INT, ListOf, Named, OptionalOf

from .board_graph import graph_call
from .hex_lines import hex_between_call
from .maps_source import MAP_KINDS, maps_arrays
from .not_native import NotNative

SOME_DIRECTION = OptionalOf(Named("Direction"))     # (the built-in enum: a step's direction, or none)


class BoardTables:
    def __init__(self, game):
        self.game = game
        self.geometries = dict(game.geometries)
        self.ids = 0
        self.grid = False       # a grid or a hex map among the boards (its tables: BOARD_*)
        self.maps = any(g.kind in MAP_KINDS for g in self.geometries.values())
        if not self.geometries:
            return
        spans = {name: game.program.get(name).span for name in self.geometries}
        grids = [name for name, g in self.geometries.items() if g.kind in ("grid", "hex")]
        if len(grids) > 1:
            raise NotNative("more than one grid or hex board has no native form yet", spans[grids[1]])
        for name, g in self.geometries.items():
            if g.kind not in ("grid", "hex", *MAP_KINDS):
                raise NotNative(f"the board {name}: a board of kind {g.kind} has no native form yet", spans[name])
        every = [cell for g in self.geometries.values() for cell in g.cells]
        if every != list(range(len(every))):
            raise NotNative("the boards' cells are not numbered 0..n-1 in order", spans[list(self.geometries)[0]])
        self.ids = len(every)
        if not grids:
            return
        self.grid = True
        self.name, self.geometry = grids[0], self.geometries[grids[0]]
        geometry = self.geometry
        span = spans[self.name]
        if list(geometry.cells) != list(range(len(geometry.cells))):
            raise NotNative(f"the board {self.name}: its cells are not numbered 0..n-1 in reading order", span)
        self.directions = list(game.enum_members.get("Direction", ()))
        if any(d not in self.directions for d in geometry.deltas) or \
                list(geometry.deltas) != [d for d in self.directions if d in geometry.deltas]:
            raise NotNative(f"the board {self.name}: its directions are not the Direction enum's", span)

    def kind_of(self, name) -> str | None:
        """The kind of the board whose cells are of type `name` (grid, hex, places, routes), or None."""
        found = self.geometries.get(name)
        return found.kind if found is not None else None

    def range_of(self, name: str) -> tuple:
        """(the first cell id, how many) of a board's cells."""
        cells = self.geometries[name].cells
        return (cells[0] if cells else 0), len(cells)

    def arrays(self) -> dict:
        """The board's tables by their names in a kernel module: name -> (values, numpy dtype, shape)."""
        if not self.grid:
            return maps_arrays(self.geometries, self.ids)
        g = self.geometry
        where = {eid: rc for rc, eid in g.at.items()}

        def step(cell, delta):
            if delta is None:
                return -1
            r, c = where[cell]
            return g.at.get((r + delta[0], c + delta[1]), -1)
        units = [[-1] * 3 for _ in range(3)]
        for k, d in enumerate(self.directions):
            dr, dc = g.deltas.get(d, (9, 9))
            if abs(dr) <= 1 and abs(dc) <= 1:
                units[dr + 1][dc + 1] = k
        bits, shifts = self.line_bits(where)
        cells, directions = len(g.cells), len(self.directions)
        return {"BOARD_BIT": (bits, "uint64", (cells,)), "BOARD_SHIFT": (shifts, "int64", (len(shifts),)),
                "BOARD_ROW": ([where[c][0] for c in g.cells], "int64", (cells,)),
                "BOARD_COL": ([where[c][1] for c in g.cells], "int64", (cells,)),
                "BOARD_STEP": ([step(c, g.deltas.get(d)) for c in g.cells for d in self.directions], "int64",
                               (cells, directions)),
                "BOARD_LINE": ([step(c, delta) for c in g.cells for delta in g.steps], "int64", (cells, len(g.steps))),
                "BOARD_AT": ([g.at.get((r, c), -1) for r in range(g.rows + 2) for c in range(g.cols + 2)], "int64",
                             (g.rows + 2, g.cols + 2)),
                "BOARD_UNIT": ([u for row in units for u in row], "int64", (3, 3)),
                "BOARD_DIRECTIONS": ([k for k, d in enumerate(self.directions) if d in g.deltas], "int64",
                                     (len(g.deltas),)),
                "BOARD_IS_HEX": ([int(g.kind == "hex")], "int64", (1,)), **maps_arrays(self.geometries, self.ids)}

    def constants(self) -> list:
        """The tables as a kernel module's global arrays (which Numba takes as constants)."""
        return [f"{name} = np.array({values}, dtype=np.{dtype}).reshape({shape})"
                for name, (values, dtype, shape) in self.arrays().items()]

    def numpy_arrays(self) -> dict:
        """The tables as numpy arrays, as the kernel module holds them."""
        return {name: np.array(values, dtype=dtype).reshape(shape) for name, (values, dtype, shape) in self.arrays().items()}

    def line_bits(self, where) -> tuple:
        """Each cell's bit and each line direction's shift, laid out as stdlib's line_bits lays
        them (rows with empty columns between them, so that a step never wraps), when the board
        fits one 64-bit word; else no bits and the shifts [-1] (has_line then walks the lines)."""
        g = self.geometry
        rows = [r for r, _ in where.values()]
        cols = [c for _, c in where.values()]
        pad = max(abs(dc) for _, dc in g.steps)
        width = max(cols) - min(cols) + 1 + pad
        positions = [(where[c][0] - min(rows)) * width + (where[c][1] - min(cols)) for c in g.cells]
        if max(positions) >= 64 or any(dr * width + dc <= 0 for dr, dc in g.steps):
            return [0] * len(g.cells), [-1]
        return [1 << p for p in positions], [dr * width + dc for dr, dc in g.steps]

    def call(self, renderer, node, scope) -> str:
        name, args = node.name, node.arguments

        def arg(k, t):
            return renderer.expr(args[k], scope, t)
        cell = getattr(self, "name", None)
        some_cell = OptionalOf(Named(cell))
        if name == cell and len(args) == 2:
            return f"board_at(BOARD_AT, {arg(0, INT)}, {arg(1, INT)})"
        if name == "toward":
            return f"toward(BOARD_STEP, {arg(0, some_cell)}, {arg(1, SOME_DIRECTION)})"
        if name == "ray":
            return f"ray(BOARD_STEP, {arg(0, some_cell)}, {arg(1, SOME_DIRECTION)})"
        if name == "directions":
            return f"directions_of(BOARD_DIRECTIONS, {arg(0, some_cell)})"
        if name == "between" and self.grid and self.geometry.kind != "grid":
            return hex_between_call(renderer, self, arg(0, some_cell), arg(1, some_cell))
        if name == "between":
            return f"between(BOARD_ROW, BOARD_COL, BOARD_UNIT, BOARD_STEP, {arg(0, some_cell)}, {arg(1, some_cell)})"
        if name == "has_line":
            return f"has_line(BOARD_LINE, BOARD_BIT, BOARD_SHIFT, {arg(0, ListOf(Named(str(cell))))}, {arg(1, INT)})"
        graphed = graph_call(renderer, node, scope, cell) if self.grid else None
        if graphed is None:
            raise NotNative(f"the function {name} has no native form yet", node.span)
        return graphed

