"""The standard library: generic functions any game may call. Nothing here knows a game.

Each function takes the state first; zones arrive as lists (bottom first, top last).
"""
from __future__ import annotations

from . import random_source
from .errors import RulesRuntimeError


def size(s, items):
    return len(items)


def top(s, items):
    return items[-1] if items else None


def bottom(s, items):
    return items[0] if items else None


def next_seat(s, player):
    return player % s.game.num_players + 1


def previous_seat(s, player):
    return (player - 2) % s.game.num_players + 1


def reversed_list(s, items):
    return list(reversed(items))


def pick(s, items):
    if not items:
        return None
    index, s.rng = random_source.below(s.rng, len(items))
    return items[index]


def absolute(s, value):
    return abs(value)


def geometry_of(s, cell):
    geometry = s.game.geometry_by_cell.get(cell)
    if geometry is None:
        raise RulesRuntimeError(f"{cell!r} is not a board cell")
    return geometry


def neighbors(s, cell):
    if cell is None:
        return []
    return list(geometry_of(s, cell).neighbors[cell])


def adjacent(s, a, b):
    if a is None or b is None:
        return False
    return b in geometry_of(s, a).neighbors[a]


def has_line(s, cells, length):
    """Whether `length` of the cells stand in a row along one of the board's line directions."""
    if length <= 0:
        return True
    chosen = set(cells)
    if not chosen:
        return False
    geometry = geometry_of(s, next(iter(chosen)))
    position = {eid: rc for rc, eid in geometry.at.items()}
    for eid in chosen:
        row, col = position[eid]
        for dr, dc in geometry.steps:
            # count only from the start of a run
            if geometry.at.get((row - dr, col - dc)) in chosen:
                continue
            run, r, c = 0, row, col
            while geometry.at.get((r, c)) in chosen:
                run += 1
                r, c = r + dr, c + dc
            if run >= length:
                return True
    return False


def groups(s, cells):
    """Connected components of the cells (through board adjacency), each in reading order."""
    chosen = set(cells)
    seen = set()
    out = []
    for start in cells:
        if start in seen:
            continue
        geometry = geometry_of(s, start)
        component, frontier = [], [start]
        seen.add(start)
        while frontier:
            cell = frontier.pop()
            component.append(cell)
            for other in geometry.neighbors[cell]:
                if other in chosen and other not in seen:
                    seen.add(other)
                    frontier.append(other)
        order = {eid: i for i, eid in enumerate(geometry.cells)}
        out.append(sorted(component, key=order.__getitem__))
    return out


def largest_group(s, cells):
    best = []
    for group in groups(s, cells):
        if len(group) > len(best):
            best = group
    return best


def reachable(s, starts, through):
    """The cells of `through` connected to any of `starts` by steps inside `through`."""
    allowed = set(through)
    seen = set()
    frontier = [c for c in starts if c in allowed]
    seen.update(frontier)
    while frontier:
        cell = frontier.pop()
        for other in geometry_of(s, cell).neighbors[cell]:
            if other in allowed and other not in seen:
                seen.add(other)
                frontier.append(other)
    return [c for c in through if c in seen]


def squares(s, cells):
    """Every 2x2 block of grid cells that lies wholly inside the given cells."""
    chosen = set(cells)
    if not chosen:
        return []
    geometry = geometry_of(s, next(iter(chosen)))
    position = {eid: rc for rc, eid in geometry.at.items()}
    out = []
    for eid in geometry.cells:
        if eid not in chosen:
            continue
        row, col = position[eid]
        block = [geometry.at.get((row + dr, col + dc)) for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1))]
        if all(b in chosen for b in block):
            out.append(block)
    return out


FUNCTIONS = {
    "size": size, "top": top, "bottom": bottom, "next": next_seat, "previous": previous_seat,
    "reversed": reversed_list, "pick": pick, "abs": absolute,
    "neighbors": neighbors, "adjacent": adjacent, "has_line": has_line, "groups": groups,
    "largest_group": largest_group, "reachable": reachable, "squares": squares,
}
