"""The checker's typing of the standard functions' calls (dsl/builtins.py STDLIB_SIGNATURES):
each argument against its signature, the result's T the first argument's element type, and
what a board's geometry allows (E226: the lines and directions of a grid or a hex map, the
routes of a map of places and routes). A mixin of `Checker`, which gives `error`, `whole`,
`arity`, the boards and the enums; the maps' functions are MapTyping's.
"""
from __future__ import annotations

from . import ast
from .builtins import CELL, DIRECTION, ELEMENT, FEWEST_ARGUMENTS, LIST, STDLIB_SIGNATURES, ZONE
from .map_typing import MAP_FUNCTIONS
from .types import (FRACTION, INT, NONE, PLAYER, TEXT, UNKNOWN, ListOf, Named, OptionalOf, Type, element_type,
                    named_type)

# the direction functions: they take cells, their cell results are of the first cell's board
GEOMETRY_BY_CELL = ("surrounding", "directions", "toward", "ray", "between", "distance")
# the functions of a board's rows and columns, which a map of places and routes has not
LINES_AND_DIRECTIONS = ("surrounding", "directions", "toward", "ray", "between", "has_line", "squares")
INT_OR_NONE = OptionalOf(INT)


def instantiated(result: Type, element: Type) -> Type:
    """A standard function's result type, its T the element type of the first argument."""
    if result == ELEMENT:
        return element
    if isinstance(result, OptionalOf):
        return instantiated(result.base, element).or_none()
    if isinstance(result, ListOf):
        return ListOf(instantiated(result.element, element))
    return result


class StandardCalls:
    """Checker's typing of a call of a standard function."""

    def standard_call(self, node, args: list[Type]) -> Type:
        """A call of a standard function: its arguments checked against its signature, its
        result's T the element type of the first argument."""
        params, result = STDLIB_SIGNATURES[node.name]
        if not FEWEST_ARGUMENTS.get(node.name, len(params)) <= len(node.arguments) <= len(params):
            self.arity(node, len(params))
        first = args[0] if args else UNKNOWN
        if node.name in MAP_FUNCTIONS:
            return self.map_function(node, args)
        if node.name == "index":
            return self.member_index(first, node)
        if node.name == "flatten":
            first = self.inner_list(first, node)
        if node.name == "abs" and args and args[0].is_fraction():
            return FRACTION          # abs keeps a fraction a fraction
        for given, expected, arg in zip(args, params, node.arguments):
            self.standard_argument(node.name, given, expected, arg.span)
        if node.name in LINES_AND_DIRECTIONS and self.map_kind(element_type(first) if first.is_list() else first) is not None:
            self.error("E226", f"{node.name} works on a grid or a hex map: a map of places and routes has no "
                               "lines, directions or squares", node.span,
                       "on a map: neighbors, adjacent, distance, reachable, groups, connected, longest_trail")
        if node.name == "connected":
            self.check_routes(args[2] if len(args) > 2 else UNKNOWN, node.arguments[2] if len(args) > 2 else node, "connected",
                           first.without_none())
        if node.name == "distance" and self.map_kind(first) is not None:
            return INT_OR_NONE        # (no route may join them)
        element = element_type(first)
        if node.name in ("neighbors",) or node.name in GEOMETRY_BY_CELL:
            element = first.without_none()
        return instantiated(result, element)

    def standard_argument(self, name: str, given: Type, expected, span):
        """An argument of a standard function: `expected` a type, or a kind of argument."""
        if expected in (INT, PLAYER) and not self.whole(given, span, f"what {name} takes here"):
            return
        if expected in (LIST, ZONE) and not (given.is_list() or given.is_zone() or given == UNKNOWN
                                             or name == "size" and (given.without_none() == TEXT or given.is_set() or given.is_map())):
            self.error("E306", f"{name} takes a list or a zone here, not {given.describe()}", span)
        elif expected in (TEXT, ListOf(TEXT)) and (given == NONE or not given.fits(expected) or given.is_zone()):
            self.error("E303", f"{name} takes {expected.describe()} here, not {given.describe()}", span)
        elif expected in (INT, PLAYER) and (given == NONE or not given.fits(expected)):
            self.error("E303", f"{name} takes {expected.describe()} here, not {given.describe()}", span)
        elif expected == DIRECTION and not given.fits(expected):
            self.error("E303", f"{name} takes a Direction here, not {given.describe()}", span)
        elif expected == CELL and name in (*GEOMETRY_BY_CELL, "connected") and given != NONE \
                and named_type(given) not in self.boards and given != UNKNOWN:
            self.error("E303", f"{name} takes a cell of a board here, not {given.describe()}", span)

    def map_kind(self, t: Type):
        """PlacesShape or RoutesShape when t is a place or a route, else None."""
        board = self.boards.get(named_type(t))
        return type(board.shape) if board is not None and isinstance(board.shape, (ast.PlacesShape, ast.RoutesShape)) \
            else None

    def check_routes(self, t: Type, node, what: str, places: Type = UNKNOWN):
        """E226 unless t is a route (or a list of routes) of a routes board, between places of type `places`."""
        route = (element_type(t) if t.is_list() else t).without_none()
        if t == UNKNOWN or route == UNKNOWN:
            return
        if self.map_kind(route) is not ast.RoutesShape or not (t.is_list() or what == "longest_trail"):
            self.error("E226", f"{what} takes routes (of a routes board), not {t.describe()}", node.span,
                       "e.g. filter(r in Route where owner[r] == p)" if what == "connected" else None)
        elif places not in (UNKNOWN, Named(self.boards[named_type(route)].shape.places)):
            board = self.boards[named_type(route)]
            self.error("E226", f"the routes of {route} join places of {board.shape.places}, not of {places}", node.span)

    def member_index(self, given: Type, node) -> Type:
        """index(m): m a member of an enum (or none: then the index is none)."""
        if given != UNKNOWN and named_type(given) not in self.enums:
            self.error("E303", f"index takes a member of an enum, not {given.describe()}", node.arguments[0].span,
                       "a position in a list is found by a loop: first(k in 1..size(L) where L[k] == x)")
        return INT_OR_NONE if given.may_be_none() else INT

    def inner_list(self, given: Type, node) -> Type:
        """flatten(L): L a list of lists; the type of the inner lists (what T stands for)."""
        inner = element_type(given) if given.is_list() else UNKNOWN
        if not (inner.is_list() or inner == UNKNOWN):
            self.error("E306", f"flatten takes a list of lists, not {given.describe()}", node.arguments[0].span)
            return UNKNOWN
        return inner
