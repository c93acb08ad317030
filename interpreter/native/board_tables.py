"""A game's board as constant tables of a kernel module, and the board functions of the rules
(`Cell(r, c)`, `toward`, `ray`, `directions`, `between`, `has_line`) rendered over them.

One grid board is handled (its cells are the ids 0..n-1, in reading order, as the engine
numbers them); a hex map or a second board is refused (`NotNative`). Per cell: its row and
column, its neighbour one step along each direction of the `Direction` enum (-1: off the board)
and along each line direction of `has_line`."""
from __future__ import annotations

from .not_native import NotNative


class BoardTables:
    def __init__(self, game):
        self.game = game
        self.geometries = dict(game.geometries)
        self.ids = 0
        if not self.geometries:
            return
        if len(self.geometries) > 1:
            raise NotNative("more than one board has no native form yet",
                            game.program.get(list(self.geometries)[1]).span)
        (self.name, self.geometry), = self.geometries.items()
        geometry = self.geometry
        span = game.program.get(self.name).span
        if geometry.kind != "grid" or list(geometry.cells) != list(range(len(geometry.cells))):
            raise NotNative(f"the board {self.name}: only a grid has a native form yet", span)
        self.ids = len(geometry.cells)
        self.directions = list(game.enum_members.get("Direction", ()))
        if list(geometry.deltas) != self.directions:
            raise NotNative(f"the board {self.name}: its directions are not the Direction enum's", span)

    def range_of(self, name: str) -> tuple:
        return 0, self.ids

    def constants(self) -> list:
        if not self.geometries:
            return []
        g = self.geometry
        where = {eid: rc for rc, eid in g.at.items()}
        rows = [where[c][0] for c in g.cells]
        cols = [where[c][1] for c in g.cells]

        def step(cell, delta):
            r, c = where[cell]
            return g.at.get((r + delta[0], c + delta[1]), -1)
        steps = [[step(c, g.deltas[d]) for d in self.directions] for c in g.cells]
        lines = [[step(c, delta) for delta in g.steps] for c in g.cells]
        at = [[g.at.get((r, c), -1) for c in range(g.cols + 2)] for r in range(g.rows + 2)]
        units = [[-1] * 3 for _ in range(3)]
        for k, d in enumerate(self.directions):
            dr, dc = g.deltas[d]
            if abs(dr) <= 1 and abs(dc) <= 1:
                units[dr + 1][dc + 1] = k
        return [f"BOARD_ROW = np.array({rows}, dtype=np.int64)",
                f"BOARD_COL = np.array({cols}, dtype=np.int64)",
                f"BOARD_STEP = np.array({steps}, dtype=np.int64).reshape({len(g.cells)}, {len(self.directions)})",
                f"BOARD_LINE = np.array({lines}, dtype=np.int64).reshape({len(g.cells)}, {len(g.steps)})",
                f"BOARD_AT = np.array({at}, dtype=np.int64)",
                f"BOARD_UNIT = np.array({units}, dtype=np.int64)",
                f"BOARD_DIRECTIONS = np.arange({len(self.directions)}, dtype=np.int64)"]

    def call(self, renderer, node, scope) -> str:
        name, args = node.name, node.arguments

        def arg(k, t):
            return renderer.expr(args[k], scope, t)
        cell = getattr(self, "name", None)
        if name == cell and len(args) == 2:
            return f"board_at(BOARD_AT, {arg(0, 'int')}, {arg(1, 'int')})"
        if name == "toward":
            return f"toward(BOARD_STEP, {arg(0, cell + '?')}, {arg(1, 'Direction?')})"
        if name == "ray":
            return f"ray(BOARD_STEP, {arg(0, cell + '?')}, {arg(1, 'Direction?')})"
        if name == "directions":
            return f"directions_of(BOARD_DIRECTIONS, {arg(0, cell + '?')})"
        if name == "between":
            return f"between(BOARD_ROW, BOARD_COL, BOARD_UNIT, BOARD_STEP, {arg(0, cell + '?')}, {arg(1, cell + '?')})"
        if name == "has_line":
            return f"has_line(BOARD_LINE, {arg(0, 'list[' + str(cell) + ']')}, {arg(1, 'int')})"
        raise NotNative(f"the function {name} has no native form yet", node.span)

