"""Lists of lists in a native kernel (a mixin of rules_source.KernelSource): the board's
`squares` and `groups` (with the engine's orders, runtime/stdlib.py; the other graph functions
are board_graph.py's) and a list of lists as a Numba typed List of int64 arrays (`size`, loops
and aggregates over it, `best`/`worst`/`sorted` of lists by their keys).

A list of cells is an int64 array of cell ids, as every list of the kernel; the board's cells
are the ids 0..n-1 in reading order (board_tables.py), so "in reading order" is ascending ids.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import element_of, strip_optional

from .not_native import NotNative

CELL_FUNCTIONS = ("squares", "groups")


def untag(node):
    return ast.untag(node)[0]


def is_nested(t: str) -> bool:
    """Whether t is a list of lists (a typed List of arrays in the kernel)."""
    t = strip_optional(t)
    return t.startswith("list[") and strip_optional(element_of(t)).startswith("list[")


class CellListsSource:
    """The board's list functions and lists of lists for KernelSource (its `expr`, `define`,
    `boards`, `fresh`, `type_of`...)."""

    def cell_tables(self) -> list:
        """The board's 2x2 blocks by their first cell (stdlib.blocks: the cell, right, above,
        above right; -1 where none starts), as a module constant."""
        if not self.boards.geometries or self.boards.geometry.kind != "grid":
            return []
        g = self.boards.geometry
        where = {eid: rc for rc, eid in g.at.items()}
        blocks = []
        for cell in g.cells:
            row, col = where[cell]
            block = [g.at.get((row + dr, col + dc)) for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1))]
            blocks.append([-1] * 4 if None in block else block)
        return [f"CELL_BLOCK = np.array({blocks}, dtype=np.int64).reshape(({len(blocks)}, 4))"]

    def cell_list_call(self, node, scope):
        """A board's list function, rendered; None for other calls."""
        if node.name in CELL_FUNCTIONS and node.name not in self.functions:
            return self.cell_call(node, scope)
        return None

    def cell_call(self, node, scope) -> str:
        name, args = node.name, node.arguments
        cell = getattr(self.boards, "name", None)
        if cell is None or (name == "squares" and self.boards.geometry.kind != "grid"):
            raise NotNative(f"{name} without a grid", node.span)
        if len(args) != 1 or strip_optional(element_of(self.type_of(args[0]))) != cell:
            raise NotNative(f"{name} of other than a list of the cells of {cell}", node.span)
        return f"cell_{name}(S, {self.expr(args[0], scope, f'list[{cell}]')})"

    # ---- lists of lists -------------------------------------------------------------------
    def refuse_nested_aggregate(self, node) -> None:
        if node.kind in ("filter", "map") and is_nested(self.type_of(node)):
            raise NotNative(f"a {node.kind} that makes a list of lists has no native form yet", node.span)

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
            each += [f"if not ({self.expr(binder.condition, inner, 'bool')}): continue"]
        for k, key in enumerate(node.keys):
            t = strip_optional(self.type_of(key))
            if t not in ("int", "bool"):
                raise NotNative(f"a ranking by a {t}", key.span)
            each += [f"k{k} = np.int64({self.expr(key, inner, self.type_of(key))})",
                     f"if k{k} == {self.none_of('int')}:", f"    k{k} = 0", f"ranks[n, {k}] = k{k}"]
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
def cell_squares(S, cells):
    """Every 2x2 block wholly among the cells, in the board's order of blocks (stdlib.squares)."""
    marked = marked_cells(S, cells)
    out = List.empty_list(ROW)
    for c in range(CELL_BLOCK.shape[0]):
        if marked[c] and CELL_BLOCK[c, 0] >= 0 and marked[CELL_BLOCK[c, 1]] and marked[CELL_BLOCK[c, 2]] \\
                and marked[CELL_BLOCK[c, 3]]:
            out.append(CELL_BLOCK[c].copy())
    return out


@njit
def cell_groups(S, cells):
    """The connected groups of the cells, in the order of their first cell among the cells, each
    in reading order (stdlib.groups; board_graph's marked_cells and spread_from)."""
    left = marked_cells(S, cells)
    out = List.empty_list(ROW)
    frontier = np.empty(len(NEIGHBOUR_COUNT), dtype=np.int64)
    group = np.empty(len(NEIGHBOUR_COUNT), dtype=np.int64)
    for start in cells:
        if start < 0 or start >= len(NEIGHBOUR_COUNT) or not left[start]:
            continue
        left[start] = False
        frontier[0] = start
        n = spread_from(left, frontier, 1, group, 0)
        out.append(np.sort(group[:n]))
    return out
'''
