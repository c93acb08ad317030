"""Lists of a board's cells and lists of lists in a native kernel (a mixin of
rules_source.KernelSource): `squares`, `groups`, `largest_group`, `bordering`, `reachable`,
`neighbors` and `adjacent` over the board's tables, with the engine's orders (runtime/stdlib.py);
a list of lists as a Numba typed List of int64 arrays (`size`, loops and aggregates over it,
`best`/`worst`/`sorted` of lists by their keys; its literals, `+`, `map`/`filter` making one:
nested_source.py).

A list of cells is an int64 array of cell ids, as every list of the kernel; the board's cells
are the ids 0..n-1 in reading order (board_tables.py), so "in reading order" is ascending ids.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import BOOL, INT, ListOf, Named, OptionalOf, Type, element_type, named_type

from .not_native import NotNative

CELL_FUNCTIONS = ("squares", "groups", "largest_group", "bordering", "reachable", "neighbors", "adjacent")


def untag(node):
    return ast.untag(node)[0]


def is_nested(t: Type) -> bool:
    """Whether t is a list of lists (a typed List of arrays in the kernel)."""
    t = t.without_none()
    return isinstance(t, ListOf) and isinstance(t.element.without_none(), ListOf)


class CellListsSource:
    """The board's list functions and lists of lists for KernelSource (its `expr`, `define`,
    `boards`, `fresh`, `type_of`...)."""

    def cell_tables(self) -> list:
        """The board's neighbours (-1 padded) and its 2x2 blocks by their first cell (stdlib
        blocks: the cell, right, above, above right; -1 where none starts), as module constants."""
        if not self.boards.geometries:
            return []
        near, blocks = [], []       # (every board's cells, by id: a map's cells follow a grid's)
        for g in self.boards.geometries.values():
            near += [list(g.neighbors[c]) for c in g.cells]
            where = {eid: rc for rc, eid in g.at.items()}
            for cell in g.cells:
                row, col = where.get(cell, (None, None))
                block = [None] if row is None else \
                    [g.at.get((row + dr, col + dc)) for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1))]
                blocks.append([-1] * 4 if None in block else block)
        width = max([len(n) for n in near] + [1])
        rows = [n + [-1] * (width - len(n)) for n in near]
        return [f"CELL_NEAR = np.array({rows}, dtype=np.int64).reshape(({len(rows)}, {width}))",
                f"CELL_BLOCK = np.array({blocks}, dtype=np.int64).reshape(({len(blocks)}, 4))"]

    def cell_list_call(self, node, scope):
        """A board's list function, rendered; None for other calls."""
        mapped = self.map_call(node, scope)
        if mapped is not None:
            return mapped
        if node.name in CELL_FUNCTIONS and node.name not in self.functions:
            return self.cell_call(node, scope)
        return None

    def cell_call(self, node, scope, board=None) -> str:
        """A list function over the neighbours' table, of the grid's cells or of `board`'s."""
        name, args = node.name, node.arguments
        cell = board or getattr(self.boards, "name", None)
        if cell is None:
            raise NotNative(f"{name} without a board", node.span)
        cells, some_cell = ListOf(Named(cell)), OptionalOf(Named(cell))
        if name == "adjacent" and len(args) == 2:
            return f"cells_adjacent(CELL_NEAR, {self.expr(args[0], scope, some_cell)}, {self.expr(args[1], scope, some_cell)})"
        if name == "neighbors" and len(args) == 1:
            return f"cell_neighbours(CELL_NEAR, {self.expr(args[0], scope, some_cell)})"
        if name == "reachable" and len(args) == 2:
            return f"cells_reachable(CELL_NEAR, {self.expr(args[0], scope, cells)}, {self.expr(args[1], scope, cells)})"
        if len(args) != 1:
            raise NotNative(f"{name} of {len(args)} arguments", node.span)
        for argument in args:
            if named_type(element_type(self.type_of(argument))) != cell:
                raise NotNative(f"{name} of other than the cells of {cell}", node.span)
        given = self.expr(args[0], scope, cells)
        if name == "squares":
            return f"cell_squares(CELL_BLOCK, {given})"
        if name == "bordering":
            return f"cells_bordering(CELL_NEAR, {given})"
        return f"cell_{name}(CELL_NEAR, {given})"

    # ---- lists of lists -------------------------------------------------------------------
    def visit_Ranking(self, node, scope, want):
        """best/worst/sorted over a list of lists: the rows' indexes ranked (lists_source's
        extreme_of, sorted_by_keys), then those rows."""
        domain_type = self.type_of(node.binder.domain)
        if not is_nested(domain_type):
            return super().visit_Ranking(node, scope, want)
        binder, kind = node.binder, node.kind
        self.refuse_ranking(node)
        name, var = self.fresh(f"rank_{kind}_"), self.fresh("x")
        inner = scope.child(**{binder.name: var})
        each = [f"{var} = rows[j]"]
        if binder.condition is not None:
            each += [f"if not ({self.expr(binder.condition, inner, BOOL)}): continue"]
        for k, key in enumerate(node.keys):
            t = self.type_of(key).without_none()
            if t not in (INT, BOOL):
                raise NotNative(f"a ranking by a {t.text}", key.span)
            each += [f"k{k} = np.int64({self.expr(key, inner, self.type_of(key))})",
                     f"if k{k} == {self.none_of(INT)}:", f"    k{k} = 0", f"ranks[n, {k}] = k{k}"]
        each += ["at[n] = j", "n += 1"]
        ranked = "sorted_by_keys(at[:n], ranks[:n])" if kind == "sorted" else \
            f"extreme_of(at[:n], ranks[:n], {kind == 'best'})"
        body = [f"rows = {self.expr(binder.domain, scope, domain_type)}", "n = 0",
                "at = np.empty(len(rows), dtype=np.int64)",
                f"ranks = np.empty((len(rows), {len(node.keys)}), dtype=np.int64)",
                "for j in range(len(rows)):", *("    " + line for line in each),
                "out = List.empty_list(ROW)", f"for j in {ranked}:", "    out.append(rows[j])", "return out"]
        self.define(f"def {name}(S, cur{scope.params()}):", body)
        return f"{name}(S, cur{''.join(', ' + v for v in scope.names.values())})"


CELL_LIST_FUNCTIONS = '''
ROW = types.int64[::1]


@njit
def marked_cells(near, cells):
    marked = np.zeros(near.shape[0], dtype=np.bool_)
    for c in cells:
        if 0 <= c < near.shape[0]:
            marked[c] = True
    return marked


@njit
def flood(near, left, frontier, top, reached):
    """From the cells of frontier[:top], every cell still left joined to them, taken out of
    left and written into reached: how many."""
    n = 0
    while top:
        top -= 1
        cell = frontier[top]
        reached[n] = cell
        n += 1
        for other in near[cell]:
            if other >= 0 and left[other]:
                left[other] = False
                frontier[top] = other
                top += 1
    return n


@njit
def cell_squares(blocks, cells):
    """Every 2x2 block wholly among the cells, in the board's order of blocks (stdlib.squares)."""
    marked = marked_cells(blocks, cells)
    out = List.empty_list(ROW)
    for c in range(blocks.shape[0]):
        if marked[c] and blocks[c, 0] >= 0 and marked[blocks[c, 1]] and marked[blocks[c, 2]] and marked[blocks[c, 3]]:
            out.append(blocks[c].copy())
    return out


@njit
def cell_groups(near, cells):
    """The connected groups of the cells, in the order of their first cell among the cells, each
    in reading order (stdlib.groups)."""
    left = marked_cells(near, cells)
    out = List.empty_list(ROW)
    frontier = np.empty(near.shape[0], dtype=np.int64)
    for start in cells:
        if not (0 <= start < near.shape[0]) or not left[start]:
            continue
        left[start] = False
        group = np.empty(near.shape[0], dtype=np.int64)
        frontier[0] = start
        n = flood(near, left, frontier, 1, group)
        out.append(np.sort(group[:n]))
    return out


@njit
def cell_largest_group(near, cells):
    """The first of the largest groups (stdlib.largest_group)."""
    best = np.empty(0, dtype=np.int64)
    for group in cell_groups(near, cells):
        if len(group) > len(best):
            best = group
    return best


@njit
def cells_reachable(near, starts, through):
    """The cells of `through`, in its order, joined to one of `starts` inside it (stdlib.reachable)."""
    left = marked_cells(near, through)
    frontier = np.empty(len(starts) + near.shape[0], dtype=np.int64)
    top = 0
    for c in starts:
        if 0 <= c < near.shape[0] and left[c]:
            left[c] = False
            frontier[top] = c
            top += 1
    flood(near, left, frontier, top, np.empty(near.shape[0], dtype=np.int64))
    out = np.empty(len(through), dtype=np.int64)
    n = 0
    for c in through:
        if not (0 <= c < near.shape[0] and left[c]):
            out[n] = c
            n += 1
    return out[:n]


@njit
def cells_bordering(near, cells):
    """The cells next to one of the cells and not among them, in reading order (stdlib.bordering)."""
    chosen = marked_cells(near, cells)
    found = np.zeros(near.shape[0], dtype=np.bool_)
    for c in range(near.shape[0]):
        if chosen[c]:
            for other in near[c]:
                if other >= 0 and not chosen[other]:
                    found[other] = True
    return np.flatnonzero(found).astype(np.int64)


@njit
def cell_neighbours(near, cell):
    if cell < 0:
        return np.empty(0, dtype=np.int64)
    n = 0
    while n < near.shape[1] and near[cell, n] >= 0:
        n += 1
    return near[cell, :n].copy()


@njit
def cells_adjacent(near, a, b):
    if a < 0 or b < 0:
        return False
    for other in near[a]:
        if other == b:
            return True
    return False
'''
