"""A board as a graph in a native kernel (for board_tables.BoardTables): each cell's neighbours
as a precomputed table (the engine's order: Geometry.neighbors), and the rules' graph functions
over it: `neighbors`, `adjacent`, `surrounding`, `distance`, `largest_group`, `reachable`,
`bordering`; the cells' attributes of a hex map (a number or none, an enum member) coded as
columns. A grid and a hex map alike: their cells are the ids 0..n-1 in reading order, so a
group sorted by id is in reading order.

The functions keep the engine's answers (runtime/stdlib.py board_functions): none for a cell
gives an empty list or false, and `distance` of none is the engine's error (the game is played
in Python); a group's first found on a tie; `reachable` keeps the order of its second list.
"""
from __future__ import annotations

from referee.dsl.types import ListOf, Named, OptionalOf

from .not_native import NotNative

INT_NONE = -(2 ** 63)


def neighbour_arrays(geometry) -> dict:
    """NEIGHBOURS (cells x the most any cell has, -1 after its own) and NEIGHBOUR_COUNT, as
    board_tables.arrays gives its tables: name -> (values, dtype, shape)."""
    cells = list(geometry.cells)
    widest = max((len(geometry.neighbors[c]) for c in cells), default=0) or 1
    rows = [list(geometry.neighbors[c]) + [-1] * (widest - len(geometry.neighbors[c])) for c in cells]
    return {"NEIGHBOURS": ([x for row in rows for x in row], "int64", (len(cells), widest)),
            "NEIGHBOUR_COUNT": ([len(geometry.neighbors[c]) for c in cells], "int64", (len(cells),))}


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


GRAPH_CALLS = {
    # name -> (the kernel function, the types of its arguments given the board's cell type)
    "neighbors": ("neighbours_of", ("cell?",)),
    "adjacent": ("cells_adjacent", ("cell?", "cell?")),
    "surrounding": ("surrounding_of", ("cell?",)),
    "distance": ("cell_distance", ("cell?", "cell?")),
    "largest_group": ("largest_group_of", ("list",)),
    "reachable": ("reachable_of", ("list", "list")),
    "bordering": ("bordering_of", ("list",)),
}


def graph_call(renderer, node, scope, cell: str):
    """A graph function of the rules as a kernel call, or None for another function."""
    found = GRAPH_CALLS.get(node.name)
    if found is None:
        return None
    function, kinds = found
    if len(node.arguments) != len(kinds):
        raise NotNative(f"{node.name} with {len(node.arguments)} arguments", node.span)
    values = []
    for argument, kind in zip(node.arguments, kinds):
        t = renderer.type_of(argument)
        if kind == "list" and not isinstance(t.without_none(), ListOf):
            raise NotNative(f"{node.name} of a {t.text}", node.span)
        values.append(renderer.expr(argument, scope, t if kind == "list" else OptionalOf(Named(cell))))
    return f"{function}(S{''.join(', ' + v for v in values)})"


def hex_refused(name: str, geometry, span) -> None:
    """What a hex map does not have natively yet (the function's text: a grid's)."""
    if geometry.kind != "grid" and name == "between":
        raise NotNative("between on a hex map has no native form yet", span)


GRAPH_FUNCTIONS = '''
@njit
def neighbours_of(S, cell):
    """neighbors(cell): a new array (none: no cells)."""
    if cell < 0:
        return np.empty(0, dtype=np.int64)
    return NEIGHBOURS[cell, :NEIGHBOUR_COUNT[cell]].copy()


@njit
def cells_adjacent(S, a, b):
    if a < 0 or b < 0:
        return False
    for k in range(NEIGHBOUR_COUNT[a]):
        if NEIGHBOURS[a, k] == b:
            return True
    return False


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


@njit
def marked_cells(S, cells):
    """A mark per board cell for the cells given (one that is no cell: the engine's error)."""
    marked = np.zeros(len(NEIGHBOUR_COUNT), dtype=np.bool_)
    for c in cells:
        if c < 0 or c >= len(NEIGHBOUR_COUNT):
            S[ERROR] = 1
        else:
            marked[c] = True
    return marked


@njit
def spread_from(left, frontier, n, out, m):
    """Cells reached from frontier[:n] through the cells still marked in `left` (unmarked as
    reached), appended to out[m:]: the new length of out."""
    while n > 0:
        n -= 1
        cell = frontier[n]
        out[m] = cell
        m += 1
        for k in range(NEIGHBOUR_COUNT[cell]):
            other = NEIGHBOURS[cell, k]
            if left[other]:
                left[other] = False
                frontier[n] = other
                n += 1
    return m


@njit
def largest_group_of(S, cells):
    """The largest connected group of the cells, in reading order; the first found on a tie."""
    left = marked_cells(S, cells)
    frontier = np.empty(len(NEIGHBOUR_COUNT), dtype=np.int64)
    group = np.empty(len(NEIGHBOUR_COUNT), dtype=np.int64)
    best = np.empty(0, dtype=np.int64)
    for start in cells:
        if start < 0 or start >= len(NEIGHBOUR_COUNT) or not left[start]:
            continue
        left[start] = False
        frontier[0] = start
        m = spread_from(left, frontier, 1, group, 0)
        if m > len(best):
            best = np.sort(group[:m])
    return best


@njit
def reachable_of(S, starts, through):
    """The cells of `through` (in its order) joined to one of `starts` by steps inside it."""
    left = marked_cells(S, through)
    frontier = np.empty(len(NEIGHBOUR_COUNT) + len(starts), dtype=np.int64)
    n = 0
    for c in starts:
        if 0 <= c < len(NEIGHBOUR_COUNT) and left[c]:
            frontier[n] = c
            n += 1
    for k in range(n):
        left[frontier[k]] = False
    spread_from(left, frontier, n, np.empty(len(NEIGHBOUR_COUNT) + len(starts), dtype=np.int64), 0)
    out = np.empty(len(through), dtype=np.int64)
    m = 0
    for c in through:
        if not left[c]:
            out[m] = c
            m += 1
    return out[:m]


@njit
def bordering_of(S, cells):
    """The cells next to one of the cells and not among them, in reading order."""
    chosen = marked_cells(S, cells)
    found = np.zeros(len(NEIGHBOUR_COUNT), dtype=np.bool_)
    for c in cells:
        if 0 <= c < len(NEIGHBOUR_COUNT):
            for k in range(NEIGHBOUR_COUNT[c]):
                found[NEIGHBOURS[c, k]] = True
    out = np.empty(len(NEIGHBOUR_COUNT), dtype=np.int64)
    m = 0
    for c in range(len(NEIGHBOUR_COUNT)):
        if found[c] and not chosen[c]:
            out[m] = c
            m += 1
    return out[:m]
'''
