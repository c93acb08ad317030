"""The library functions of maps of places and routes (docs/language.md, "Boards"): the
fewest routes between two places, whether some routes join two places, and the longest trail
of a list of routes. Nothing here knows a game: a route is an entity whose board's geometry
gives its two places (boards.map_geometry)."""
from __future__ import annotations

from referee.dsl.limits import MAX_STEP_WORK

from .boards import map_geometry
from .errors import UnlocatedRulesError

MAP_KINDS = ("places", "routes")


def steps_between(distances: dict, geometry, a, b):
    """The fewest steps between neighbours from a to b (none when nothing joins them): a
    breadth-first search from a, kept in `distances` for the next question about a."""
    found = distances.get(a)
    if found is None:
        found = distances[a] = {a: 0}
        frontier = [a]
        while frontier:
            following = []
            for cell in frontier:
                for other in geometry.neighbors[cell]:
                    if other not in found:
                        found[other] = found[cell] + 1
                        following.append(other)
            frontier = following
    return found.get(b)


def route_ends(s, route) -> tuple:
    geometry = s.game.geometry_by_cell.get(route) if route.__class__ is int else None
    if geometry is None or geometry.kind != "routes":
        raise UnlocatedRulesError(f"{route!r} is not a route")
    return geometry.ends[route]


def connected(s, a, b, routes) -> bool:
    """Whether a chain of the routes joins place a to place b (a place is joined to itself)."""
    if a is None or b is None:
        return False
    joined: dict = {}
    for route in routes:
        x, y = route_ends(s, route)
        joined.setdefault(x, []).append(y)
        joined.setdefault(y, []).append(x)
    reached, frontier = {a}, [a]
    while frontier:
        for other in joined.get(frontier.pop(), ()):
            if other not in reached:
                reached.add(other)
                frontier.append(other)
    return b in reached


def longest_trail(s, weighted) -> int:
    """The greatest total weight of a trail of the routes (route, weight): routes each used at
    most once, each sharing a place with the next (places may come again); 0 for no routes.
    A depth-first search from every place over the routes not used yet: exponential in the
    worst case, so each step is charged to the step's work budget (docs/language.md, "Limits")."""
    incident: dict = {}
    seen = set()
    for route, weight in weighted:
        if route in seen:
            continue        # a route is one route, however often the list names it
        seen.add(route)
        k = len(seen) - 1
        a, b = route_ends(s, route)
        incident.setdefault(a, []).append((k, b, weight or 0))
        incident.setdefault(b, []).append((k, a, weight or 0))
    used = [False] * len(seen)
    budget = s.game.step_budget if s is not None else [0, MAX_STEP_WORK]
    best = 0
    for place in trail_starts(incident):
        if place.__class__ is tuple:          # a network whose every place has an even degree
            best = max(best, place[1])
        else:
            best = walk_trails(incident, used, budget, place, 0, best)
    return best


def walk_trails(incident: dict, used: list, budget: list, place, total, best):
    """The best total of the trails from `place` over the routes not used yet, `best` at least.
    (A function of the module, not a closure: a recursive closure is a reference cycle, which
    only the garbage collector frees.)"""
    if total > best:
        best = total
    for k, other, weight in incident[place]:
        if not used[k]:
            budget[1] -= 1
            if budget[1] < 0:
                raise UnlocatedRulesError(f"this step did more than {MAX_STEP_WORK:,} units of work "
                                          "(see the limits in docs/language.md)")
            used[k] = True
            best = walk_trails(incident, used, budget, other, total + weight, best)
            used[k] = False
    return best


def trail_starts(incident: dict) -> list:
    """Where a longest trail may start. With no negative weight, a longest trail extended at its
    ends while it can be stays longest, and then ends where every route is used: at a place of
    odd degree (an open trail), or it is a closed trail through a whole network of even degrees
    (an Euler circuit: its total, given as (None, total)). So the search starts only at the
    places of odd degree, and a network of even degrees is its total; with a negative weight,
    at every place."""
    if any(weight < 0 for routes in incident.values() for _, _, weight in routes):
        return list(incident)
    starts: list = []
    seen: set = set()
    for place in incident:
        if place in seen:
            continue
        network, frontier = [place], [place]
        seen.add(place)
        while frontier:
            for _, other, _ in incident[frontier.pop()]:
                if other not in seen:
                    seen.add(other)
                    network.append(other)
                    frontier.append(other)
        odd = [p for p in network if len(incident[p]) % 2]
        if odd:
            starts.extend(odd)
        else:
            starts.append((None, sum({k: weight for p in network for k, _, weight in incident[p]}.values())))
    return starts


# what a compiled module whose game has maps imports from here (only then: the modules of the
# games without maps do not change)
ON_USE = {"connected": connected, "longest_trail": longest_trail, "map_geometry": map_geometry}
