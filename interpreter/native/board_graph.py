"""A board's directions and distances in a native kernel (for board_tables.BoardTables):
`surrounding` and `distance` over its tables, and the cells' attributes of a hex map (a number
or none, an enum member) coded as columns. A grid and a hex map alike: their cells are the ids
0..n-1 in reading order. (The graph functions over the neighbours, `neighbors`, `adjacent`,
`largest_group`, `reachable`, `bordering`, are cell_lists_source.py's.)

The functions keep the engine's answers (runtime/stdlib.py board_functions): none for a cell
gives an empty list, and `distance` of none is the engine's error (the game is played in Python).
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import Named, OptionalOf, named_type

from .not_native import NotNative

INT_NONE = -(2 ** 63)


def cell_column(game, values: list):
    """A cell attribute's values coded (ints, none INT_NONE; enum members by position, none -1),
    or None when they are of another kind (not laid out: a read of it is refused)."""
    present = [v for v in values if v is not None]
    if all(v.__class__ is int for v in present):
        return [INT_NONE if v is None else v for v in values]
    for members in game.enum_members.values():
        if present and all(v.__class__ is str and v in members for v in present):
            return [-1 if v is None else members.index(v) for v in values]
    return None


GRAPH_CALLS = {"surrounding": ("surrounding_of", 1), "distance": ("cell_distance", 2)}     # name -> (function, cells)


def graph_call(renderer, node, scope, cell: str):
    """`surrounding` or `distance` as a kernel call, or None for another function."""
    found = GRAPH_CALLS.get(node.name)
    if found is None:
        return None
    function, cells = found
    if len(node.arguments) != cells:
        raise NotNative(f"{node.name} with {len(node.arguments)} arguments", node.span)
    values = "".join(", " + renderer.expr(argument, scope, OptionalOf(Named(cell))) for argument in node.arguments)
    return f"{function}(S{values})"


def neighbour_loop(renderer, domain, scope, var: str):
    """A binder's loop over `neighbors(c)` (the rules' function): over the row of the
    neighbours' table itself, no list made (the table never changes); else None."""
    if not (isinstance(domain, ast.Call) and domain.name == "neighbors" and len(domain.arguments) == 1
            and domain.name not in renderer.functions and renderer.boards.geometries):
        return None
    board = named_type(renderer.type_of(domain.arguments[0]))
    cell = renderer.expr(domain.arguments[0], scope, OptionalOf(Named(board)))
    return [f"items_{var} = near_row(CELL_NEAR, {cell})", f"for {var} in items_{var}:"], f"len(items_{var})"


GRAPH_FUNCTIONS = '''
@njit
def near_row(near, cell):
    """A cell's neighbours as a view of the table's row (none: no cells)."""
    if cell < 0:
        return near[0, :0]
    n = 0
    while n < near.shape[1] and near[cell, n] >= 0:
        n += 1
    return near[cell, :n]


@njit
def surrounding_of(S, cell):
    """The cells one step away along each of the board's directions, in the Direction order."""
    out = np.empty(BOARD_STEP.shape[1], dtype=np.int64)
    n = 0
    if cell >= 0:
        for d in BOARD_DIRECTIONS:
            if BOARD_STEP[cell, d] >= 0:
                out[n] = BOARD_STEP[cell, d]
                n += 1
    return out[:n]


@njit
def cell_distance(S, a, b):
    """King moves on a grid, hex steps on a hex map; none: the engine's error."""
    if a < 0 or b < 0:
        S[ERROR] = 1
        return 0
    dr, dc = abs(BOARD_ROW[a] - BOARD_ROW[b]), abs(BOARD_COL[a] - BOARD_COL[b])
    if BOARD_IS_HEX[0]:
        return dr + max(0, (dc - dr) // 2)
    return max(dr, dc)
'''
