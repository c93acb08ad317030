"""`between(a, b)` on a hex map in a native kernel (for board_tables.BoardTables): the cells
strictly between two hexes on a line, as the engine finds them (runtime/stdlib.py
`line_direction`): a row (the same row, columns an even number apart: n = |dc| / 2 steps east or
west) or a diagonal (|dr| == |dc|: n steps), walked along the step table; none for cells on no
line, for the same cell, or where a hole of the map breaks the line. Rendered only into the
kernels of rules that call it (its helper and its table of unit steps), so the others' sources,
and their cached compiles, stay as they were.
"""
from __future__ import annotations

HEX_BETWEEN = '''
@njit
def hex_between(rows, cols, units, step, a, b):
    """The hexes strictly between a and b on a line of the map, else none (stdlib.between)."""
    if a < 0 or b < 0:
        return np.empty(0, dtype=np.int64)
    dr, dc = rows[b] - rows[a], cols[b] - cols[a]
    if dr == 0 and dc != 0 and dc % 2 == 0:
        n = abs(dc) // 2
    elif dr != 0 and abs(dr) == abs(dc):
        n = abs(dr)
    else:
        return np.empty(0, dtype=np.int64)
    direction = units[dr // n + 1, dc // n + 2]
    if direction < 0:
        return np.empty(0, dtype=np.int64)
    cells = np.empty(n, dtype=np.int64)
    at = a
    for k in range(n):
        at = step[at, direction]
        if at < 0:                  # (the line is broken by a hole of the map)
            return np.empty(0, dtype=np.int64)
        cells[k] = at
    return cells[:n - 1].copy()'''


def hex_between_call(renderer, tables, a: str, b: str) -> str:
    """The kernel's call of hex_between (its helper and the map's unit steps defined once)."""
    if not getattr(renderer, "hex_between_defined", False):
        renderer.hex_between_defined = True
        units = [[-1] * 5 for _ in range(3)]
        for k, direction in enumerate(tables.directions):
            dr, dc = tables.geometry.deltas.get(direction, (9, 9))
            if abs(dr) <= 1 and abs(dc) <= 2:
                units[dr + 1][dc + 2] = k
        renderer.defs.append(f"BOARD_HEX_UNIT = np.array({[u for row in units for u in row]!r}, "
                             "dtype=np.int64).reshape((3, 5))")
        renderer.defs.append(HEX_BETWEEN.strip())
    return f"hex_between(BOARD_ROW, BOARD_COL, BOARD_HEX_UNIT, BOARD_STEP, {a}, {b})"
