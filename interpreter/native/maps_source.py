"""Maps of places and routes in a native kernel (a mixin of rules_source.KernelSource): the
boards' tables (each route's two places, `ROUTE_ENDS`; the neighbours of every cell of every
board, cell_lists_source.py's `CELL_NEAR`), and the map functions over them with the engine's
answers (runtime/maps.py, runtime/stdlib.py): `neighbors`, `adjacent`, `reachable`, `groups`,
`largest_group`, `bordering` (cell_lists_source.py's functions over the same table), `distance`
(the fewest routes, none when no route joins them), `connected(a, b, routes)`, a route's `ends`
and lists compared with `==` (`x.ends == r.ends`). The aggregate `longest_trail` is
trails_source.py's.

The cells of the maps are ids after a grid's (board_tables.py): their ids follow the boards'
order, so one table indexed by id covers every board.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.types import ListOf, Named, OptionalOf, element_type, named_type

from .not_native import NotNative

MAP_KINDS = ("places", "routes")
MAP_CALLS = ("neighbors", "adjacent", "reachable", "groups", "largest_group", "bordering", "distance", "connected")


def untag(node):
    return ast.untag(node)[0]


def maps_arrays(geometries: dict, ids: int) -> dict:
    """The maps' tables by their names (values, numpy dtype, shape); none without a routes board."""
    ends = [[-1, -1] for _ in range(ids)]
    for g in geometries.values():
        if g.kind == "routes":
            for route in g.cells:
                ends[route] = list(g.ends[route])
    if not any(g.kind == "routes" for g in geometries.values()):
        return {}
    return {"ROUTE_ENDS": ([x for pair in ends for x in pair], "int64", (ids, 2))}


class MapsSource:
    """The map functions for KernelSource (its `expr`, `type_of`, `boards`, `functions`...)."""

    def map_board_of(self, node) -> str | None:
        """The map board whose cells (or lists of them) `node` gives, else None."""
        t = self.type_of(node).without_none()
        named = named_type(element_type(t) if isinstance(t, ListOf) else t)
        return named if self.boards.kind_of(named) in MAP_KINDS else None

    def map_call(self, node, scope):
        """A map function's call rendered; None where the arguments are no map's cells."""
        name, args = node.name, node.arguments
        if name not in MAP_CALLS or name in self.functions or not args:
            return None
        board = self.map_board_of(args[0])
        if board is None:
            return None
        cell = OptionalOf(Named(board))
        if name == "connected" and len(args) == 3:
            routes = self.map_board_of(args[2])
            return (f"map_connected(S, ROUTE_ENDS, {self.expr(args[0], scope, cell)}, {self.expr(args[1], scope, cell)}, "
                    f"{self.expr(args[2], scope, ListOf(Named(str(routes))))})")
        if name == "distance" and len(args) == 2:
            return f"map_distance(S, CELL_NEAR, {self.expr(args[0], scope, cell)}, {self.expr(args[1], scope, cell)})"
        if name in ("connected", "distance"):
            raise NotNative(f"{name} of {len(args)} arguments on a map", node.span)
        return self.cell_call(node, scope, board)       # (one table of neighbours for every board)

    def visit_Attribute(self, node, scope, want):
        """A route's `ends`: its two places as a list (of none: the engine's error)."""
        if self.is_ends(node):
            return f"route_ends(S, ROUTE_ENDS, {self.expr(node.obj, scope, self.type_of(node.obj))})"
        return super().visit_Attribute(node, scope, want)

    def is_ends(self, node) -> bool:
        return isinstance(node, ast.Attribute) and node.name == "ends" \
            and self.boards.kind_of(named_type(self.type_of(node.obj))) == "routes"

    def lists_compared(self, node, scope):
        """`a == b` or `a != b` of two lists of one coded type (cells, members, ints), else None."""
        left, right = untag(node.left), untag(node.right)
        if node.op not in ("==", "!=") or isinstance(left, ast.Nothing) or isinstance(right, ast.Nothing):
            return None
        t = self.type_of(left).without_none()
        if not isinstance(t, ListOf) or isinstance(t.element.without_none(), ListOf) \
                or self.type_of(right).without_none() != t:
            return None
        if self.is_ends(left) and self.is_ends(right):       # (two routes' ends: no list made)
            same = (f"same_ends(S, ROUTE_ENDS, {self.expr(left.obj, scope, self.type_of(left.obj))}, "
                    f"{self.expr(right.obj, scope, self.type_of(right.obj))})")
        else:
            same = f"same_items({self.expr(left, scope, t)}, {self.expr(right, scope, t)})"
            self.compares_lists = True          # (its helper is rendered without a map too)
        return same if node.op == "==" else f"(not {same})"


MAP_FUNCTIONS = '''
@njit
def route_ends(S, ends, route):
    if route < 0 or ends[route, 0] < 0:
        S[ERROR] = 1
        return np.empty(0, dtype=np.int64)
    return ends[route].copy()


@njit
def same_ends(S, ends, a, b):
    """Whether two routes join the same two places, as written (`a.ends == b.ends`)."""
    if a < 0 or b < 0 or ends[a, 0] < 0 or ends[b, 0] < 0:
        S[ERROR] = 1
        return False
    return ends[a, 0] == ends[b, 0] and ends[a, 1] == ends[b, 1]


@njit
def same_items(a, b):
    if len(a) != len(b):
        return False
    for k in range(len(a)):
        if a[k] != b[k]:
            return False
    return True


@njit
def map_connected(S, ends, a, b, routes):
    """Whether a chain of the routes joins place a to place b (a place is joined to itself;
    none: not joined), as runtime/maps.connected."""
    if a < 0 or b < 0:
        return False
    for route in routes:
        if route < 0 or ends[route, 0] < 0:
            S[ERROR] = 1        # (not a route: the engine's error)
            return False
    reached = np.zeros(ends.shape[0], dtype=np.bool_)
    reached[a] = True
    grown = True
    while grown:
        grown = False
        for route in routes:
            x, y = ends[route, 0], ends[route, 1]
            if reached[x] != reached[y]:
                reached[x] = True
                reached[y] = True
                grown = True
    return reached[b]


@njit
def map_distance(S, near, a, b):
    """The fewest steps between neighbours from a to b, INT_NONE when nothing joins them (as
    runtime/maps.steps_between); none given: the engine's error."""
    if a < 0 or b < 0:
        S[ERROR] = 1
        return 0
    steps = np.full(near.shape[0], -1, dtype=np.int64)
    steps[a] = 0
    frontier = np.empty(near.shape[0], dtype=np.int64)
    frontier[0] = a
    head, tail = 0, 1
    while head < tail:
        cell = frontier[head]
        head += 1
        for other in near[cell]:
            if other >= 0 and steps[other] < 0:
                steps[other] = steps[cell] + 1
                frontier[tail] = other
                tail += 1
    return steps[b] if steps[b] >= 0 else np.iinfo(np.int64).min
'''
