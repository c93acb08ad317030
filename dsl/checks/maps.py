"""The checks of maps: the places of a `places` board and the routes of a `routes` board
(docs/language.md, "Boards")."""
from __future__ import annotations

from .. import ast
from ..builtins import BUILTIN_VALUES
from ..checker import Checker
from ..diagnostics import did_you_mean
from ..types import BOOL, INT, NONE, TEXT, UNKNOWN, Named

ROUTE_VALUE_TYPES = (INT, BOOL, TEXT, NONE, UNKNOWN)


def check_maps(c: Checker):
    for board in c.boards.values():
        if isinstance(board.shape, ast.PlacesShape):
            check_places(c, board)
        elif isinstance(board.shape, ast.RoutesShape):
            check_routes(c, board)


def check_places(c: Checker, board):
    seen = set()
    for place in board.shape.places:
        name = place.name
        if name in seen:
            c.error("E223", f"the place '{name}' is named twice in {board.name}", place.span,
                    "each place is written once; two routes may join the same two places")
        elif c.places.get(name) != board.name:
            c.error("E223", f"'{name}' is a place of {c.places[name]} too", place.span,
                    "a place's name is its value: give the places of each map names of their own")
        elif name in c.members:
            c.error("E223", f"the place '{name}' has the name of a member of the enum {c.members[name]}", place.span,
                    "a place is written by its bare name, as an enum member: give it a name of its own")
        elif name in c.program.declarations or name in BUILTIN_VALUES:
            c.error("E223", f"the place '{name}' has the name of a declaration", place.span,
                    "a place is written by its bare name: give it a name of its own")
        seen.add(name)


def check_routes(c: Checker, board):
    shape = board.shape
    places_board = c.boards.get(shape.places)
    if places_board is None or not isinstance(places_board.shape, ast.PlacesShape):
        maps = [b.name for b in c.boards.values() if isinstance(b.shape, ast.PlacesShape)]
        c.error("E221", f"routes join the places of a places board, and '{shape.places}' is not one", shape.span,
                did_you_mean(shape.places, maps) or "declare the places first: board NAME: places { a, b, ... }")
        return
    places = [p.name for p in places_board.shape.places]
    first = shape.routes[0] if shape.routes else None
    types = {}          # attribute -> its type, from the first route giving it
    for route in shape.routes:
        for end in (route.start, route.end):
            if end.name not in places:
                c.error("E221", f"'{end.name}' is not a place of {shape.places}", end.span,
                        did_you_mean(end.name, places) or f"its places: {', '.join(places)}")
        if route.start.name == route.end.name:
            c.error("E222", f"a route joins two places, and this one goes from '{route.start.name}' to itself",
                    route.span, "write the two places it joins")
        names = [i.name for i in route.inits]
        if "ends" in names:
            init = route.inits[names.index("ends")]
            c.error("E224", "'ends' is the attribute every route has (its two places)", init.span,
                    "give the attribute another name")
        expected = [i.name for i in first.inits]
        if route is not first and sorted(names) != sorted(expected):
            missing, extra = sorted(set(expected) - set(names)), sorted(set(names) - set(expected))
            what = (f"gives {', '.join(extra)}" if extra else "") + (" and " if extra and missing else "") \
                + (f"lacks {', '.join(missing)}" if missing else "")
            c.error("E224", f"every route gives the attributes the first one gives ({', '.join(expected) or 'none'}): "
                            f"this one {what or 'gives one twice'}", route.span,
                    "routes are one type: give each route the same attributes")
    for init, t in c.legend(board.name)[1]:
        if t.without_none() not in ROUTE_VALUE_TYPES and not (isinstance(t, Named) and t.name in c.enums):
            c.error("E225", f"a route's attribute is a number, a text, true/false or an enum member, not {t.describe()}",
                    init.value.span)
        elif init.name in types and not t.fits(types[init.name]):
            c.error("E225", f"'{init.name}' is {types[init.name].describe()} on another route, not {t.describe()}",
                    init.value.span)
        else:
            types.setdefault(init.name, t)
