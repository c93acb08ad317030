"""The standard library: generic functions any game may call. Nothing here knows a game.

Each function takes the state first; zones arrive as lists (bottom first, top last).
"""
from __future__ import annotations

import itertools
from math import comb

from referee.dsl.limits import MAX_INT_DIGITS, MAX_LIST, MAX_STEP_WORK, MAX_TEXT

from . import maps, random_source
from .errors import UnlocatedRulesError


def size(s, items):
    return len(items)


def top(s, items):
    return items[-1] if items else None


def bottom(s, items):
    return items[0] if items else None


def next_seat(s, player):
    if player is None:
        raise UnlocatedRulesError("next of none: it takes a player")
    return player % s.game.num_players + 1


def previous_seat(s, player):
    if player is None:
        raise UnlocatedRulesError("previous of none: it takes a player")
    return (player - 2) % s.game.num_players + 1


def reversed_list(s, items):
    return list(reversed(items))


def pick(s, items):
    if not items:
        return None
    index, s.rng = random_source.below(s.rng, len(items))
    return items[index]


def absolute(s, value):
    if value is None:
        raise UnlocatedRulesError("abs of none: it takes a number")
    return abs(value)


# ---- lists of lists: which dice to keep, the cards of several hands ----
def subsets(s, items, k=None):
    """The lists of items taken from the list, each keeping the list's order: of k items when
    k is given, else of every size from none up (in that order, then in the list's order);
    each list once (of [6, 2, 6]: [6] once)."""
    if items is None:
        raise UnlocatedRulesError("subsets of none: it takes a list")
    n = len(items)
    if k is not None and k.__class__ is not int:
        raise UnlocatedRulesError("subsets of a size that is none: the size is a number")
    sizes = range(n + 1) if k is None else range(k, k + 1) if 0 <= k <= n else range(0)
    count = sum(comb(n, j) for j in sizes)
    if count > MAX_LIST:
        raise UnlocatedRulesError(f"subsets of {n} items would make {count:,} lists, beyond the limit of "
                                  f"{MAX_LIST:,} (see the limits in docs/language.md)")
    text_work(s, count * max(n, 1))
    chosen = (c for j in sizes for c in itertools.combinations(items, j))
    try:        # equal items make equal lists (two 6s: [6] once), listed once, where first made
        return [list(c) for c in dict.fromkeys(chosen)]
    except TypeError:       # (items that are lists: kept as they come)
        return [list(c) for j in sizes for c in itertools.combinations(items, j)]


def member_index(s, member):
    """An enum member's position in its enum, from 1 (none of none)."""
    return s.game.member_positions.get(member)


def flatten(s, lists):
    """The items of the lists one after the other, in order."""
    if lists is None or any(inner is None for inner in lists):
        raise UnlocatedRulesError("flatten of none: it takes a list of lists")
    out = [item for inner in lists for item in inner]
    text_work(s, len(out))
    return out


# ---- texts: a start position or a setting written in a notation, read in setup ----
def text_given(name, text):
    if text.__class__ is not str:
        raise UnlocatedRulesError(f"{name} of {'none' if text is None else repr(text)}: it takes a text")
    return text


def text_work(s, size):
    """A text or list function's work, by the characters or items it goes through: charged to
    the step's work budget (a long text split in a loop is work that multiplies). A param's
    value is computed once, as the game loads, outside any step (no state)."""
    if s is None:
        return
    budget = s.game.step_budget
    budget[1] -= size
    if budget[1] < 0:
        raise UnlocatedRulesError(f"this step did more than {MAX_STEP_WORK:,} units of work "
                                  "(see the limits in docs/language.md)")


def char_at(s, text, index):
    """The character at a position counted from 1 (as a list's items are), or none outside."""
    text_given("char_at", text)
    if index is None:
        raise UnlocatedRulesError("char_at of none: the position is a number")
    return text[index - 1] if 1 <= index <= len(text) else None


def split_text(s, text, separator):
    """The parts of the text between the separators (a text without one is one part)."""
    text_given("split_text", text)
    text_given("split_text", separator)
    if not separator:
        raise UnlocatedRulesError("split_text by an empty text: the separator is at least one character")
    text_work(s, len(text))
    return text.split(separator)


def join(s, texts, separator):
    """The texts one after the other, the separator between two: at most MAX_TEXT characters."""
    text_given("join", separator)
    for text in texts:
        text_given("join", text)
    size = sum(map(len, texts)) + len(separator) * max(len(texts) - 1, 0)
    if size > MAX_TEXT:
        raise UnlocatedRulesError(f"join would make a text of {size:,} characters, beyond the limit of {MAX_TEXT:,} "
                                  "(see the limits in docs/language.md)")
    text_work(s, size)
    return separator.join(texts)


def to_int(s, text):
    """The whole number a text writes ('12', '-3', ' 7 '), or none when it writes none."""
    text = text_given("to_int", text).strip()
    digits = text[1:] if text[:1] in ("-", "+") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_INT_DIGITS:
        return None
    return int(text)


def text_of(s, number):
    """A whole number written as a text."""
    if number.__class__ is not int:
        raise UnlocatedRulesError(f"text_of of {'none' if number is None else repr(number)}: it takes a whole number")
    return str(number)


class Boards:
    """A game's boards: their geometries by name and by cell (filled as the game declares them),
    and their functions (board_functions), made once."""

    def __init__(self, geometries=None):
        self.geometries = dict(geometries or {})
        self.geometry_by_cell = {eid: g for g in self.geometries.values() for eid in g.cells}
        self.functions = board_functions(self)
        for name, function in self.functions.items():
            function.made_by = ("board_function", (self, name))     # (how a compiled module makes it)

    def neighbor_table(self) -> dict:
        """cell -> the tuple of its neighbours, on every board."""
        return {cell: geometry.neighbors[cell] for cell, geometry in self.geometry_by_cell.items()}


def board_function(boards, name):
    """One of the functions of `boards` (Boards), by name."""
    return boards.functions[name]


def board_functions(game):
    """The geometry functions of a game's boards (game: a Boards, or what has its geometries and
    neighbor_table), each precomputed once per board on first use: neighbours, the cells of
    every line of a length, the 2x2 blocks, reading order. They take cells (no state): a board
    never changes during a game."""
    cache = {}

    def geometry_of(cell):
        geometry = game.geometry_by_cell.get(cell) if isinstance(cell, int) else None
        if geometry is None:
            raise UnlocatedRulesError(f"{cell!r} is not a board cell")
        return geometry

    def order_of(geometry):
        key = ("order", geometry.name)
        if key not in cache:
            cache[key] = {eid: k for k, eid in enumerate(geometry.cells)}
        return cache[key]

    def blocks(geometry):
        key = ("blocks", geometry.name)
        if key not in cache:
            position = {eid: rc for rc, eid in geometry.at.items()}
            out = []
            for eid in geometry.cells:
                row, col = position[eid]
                block = tuple(geometry.at.get((row + dr, col + dc)) for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1)))
                if None not in block:
                    out.append(block)
            cache[key] = out
        return cache[key]

    def neighbors(cell):
        if cell is None:
            return []
        return list(geometry_of(cell).neighbors[cell])

    def adjacent(a, b):
        if a is None or b is None:
            return False
        return b in geometry_of(a).neighbors[a]

    def has_line(cells, length):
        """Whether `length` of the cells stand in a row along one of the board's line directions."""
        if length is None:
            raise UnlocatedRulesError("has_line of none: the length of a line is a number")
        if length <= 0:
            return True
        if not cells or length > len(cells):      # (so a length far beyond the board costs nothing)
            return False
        geometry = geometry_of(next(iter(cells)))
        bits, shifts = line_bits(geometry)
        chosen = 0
        for cell in cells:
            chosen |= bits[cell]
        # per direction, the bits where a run of `length` starts: a few shifts and ands of the
        # whole set at once instead of a test per cell and run
        for shift in shifts:
            starts = chosen
            for k in range(1, length):
                starts &= chosen >> (k * shift)
                if not starts:
                    break
            else:
                return True
        return False

    def line_bits(geometry):
        """(cell -> its bit, the shift of one step along each line direction): the bits laid
        out row by row with empty columns between the rows, as many as the widest step, so that
        a step never wraps from one row's end to the next row's start onto a cell."""
        key = ("line bits", geometry.name)
        if key not in cache:
            where = position(geometry)
            rows = [r for r, _ in where.values()] or [0]
            cols = [c for _, c in where.values()] or [0]
            pad = max(abs(dc) for _, dc in geometry.steps)
            width = max(cols) - min(cols) + 1 + pad
            bits = {eid: 1 << ((r - min(rows)) * width + (c - min(cols))) for eid, (r, c) in where.items()}
            # every line direction goes up a row, or right along one: a positive shift
            cache[key] = (bits, tuple(dr * width + dc for dr, dc in geometry.steps))
        return cache[key]

    def groups(cells):
        """Connected components of the cells (through board adjacency), each in reading order."""
        left = set(cells)       # (the cells not in a group yet: one test per neighbour)
        out = []
        for start in cells:
            if start not in left:
                continue
            geometry = geometry_of(start)
            near = geometry.neighbors
            left.remove(start)
            component, frontier = [], [start]
            while frontier:
                cell = frontier.pop()
                component.append(cell)
                for other in near[cell]:
                    if other in left:
                        left.remove(other)
                        frontier.append(other)
            if len(component) > 1:
                component.sort(key=order_of(geometry).__getitem__)
            out.append(component)
        return out

    def largest_group(cells):
        best = []
        for group in groups(cells):
            if len(group) > len(best):
                best = group
        return best

    def reachable(starts, through):
        """The cells of `through` connected to any of `starts` by steps inside `through`."""
        left = set(through)     # (the cells not reached yet: one test per neighbour)
        frontier = [c for c in starts if c in left]
        left.difference_update(frontier)
        table = neighbour_table()
        while frontier:
            cell = frontier.pop()
            near = table.get(cell) if cell.__class__ is int else None
            for other in near if near is not None else geometry_of(cell).neighbors[cell]:
                if other in left:
                    left.remove(other)
                    frontier.append(other)
        return [c for c in through if c not in left]

    def bordering(cells):
        """The cells next to one of the cells and not among them, in reading order: the cells
        not among them that have a neighbour among them (adjacency goes both ways)."""
        chosen = set(cells)
        found = set()
        table = neighbour_table()
        for cell in chosen:
            near = table.get(cell) if cell.__class__ is int else None
            found.update(near if near is not None else geometry_of(cell).neighbors[cell])
        found -= chosen
        return sorted(found, key=reading_order().__getitem__)

    def neighbour_table():
        """cell -> its neighbours, every board's cells (a lookup where geometry_of would be a
        call per cell; a value that is no cell is not in it: geometry_of says what it is)."""
        if "neighbours" not in cache:
            cache["neighbours"] = game.neighbor_table()
        return cache["neighbours"]

    def reading_order():
        """cell -> its place in reading order, board after board (the order of declaration)."""
        if "reading order" not in cache:
            cache["reading order"] = {eid: (k, n) for k, geometry in enumerate(game.geometries.values())
                                      for n, eid in enumerate(geometry.cells)}
        return cache["reading order"]

    def block_starts(geometry):
        """cell -> (the place of its block among blocks(geometry), the block, its other three
        cells) for the cells a 2x2 block starts at."""
        key = ("block starts", geometry.name)
        if key not in cache:
            cache[key] = {block[0]: (k, block, *block[1:]) for k, block in enumerate(blocks(geometry))}
        return cache[key]

    def starts_by_cell():
        """cell -> block_starts of its board, for every board's cells."""
        if "starts by cell" not in cache:
            cache["starts by cell"] = {cell: block_starts(geometry) for geometry in game.geometries.values()
                                       for cell in geometry.cells}
        return cache["starts by cell"]

    def squares(cells):
        """Every 2x2 block of grid cells that lies wholly inside the given cells, in the order
        of blocks(), of the board of one of them."""
        chosen = set(cells)
        if not chosen:
            return []
        first = next(iter(chosen))
        starts = starts_by_cell().get(first) if isinstance(first, int) else None
        if starts is None:
            starts = block_starts(geometry_of(first))      # (not a cell: geometry_of says so)
        # the blocks starting at a chosen cell (fewer than the board's blocks), put in order
        # (a loop: cheaper than a comprehension's frame for ~20 cells)
        found = []
        get = starts.get
        for cell in chosen:
            start = get(cell)
            if start is not None and start[2] in chosen and start[3] in chosen and start[4] in chosen:
                found.append(start)
        if len(found) > 1:
            found.sort()
        return [list(start[1]) for start in found]

    # ---- directions: the step table of a board, built once on first use ----
    def step_table(geometry):
        """cell -> {direction: the next cell that way}, the directions leading off the board left out."""
        key = ("steps", geometry.name)
        if key not in cache:
            where = position(geometry)
            table = {}
            for eid in geometry.cells:
                row, col = where[eid]
                table[eid] = {d: geometry.at[(row + dr, col + dc)] for d, (dr, dc) in geometry.deltas.items()
                              if (row + dr, col + dc) in geometry.at}
            cache[key] = table
        return cache[key]

    def ray_table(geometry):
        """(cell, direction) -> the tuple of cells from the cell that way up to the edge or a hole,
        nearest first; filled on demand (a large board pays only for the rays asked)."""
        key = ("rays", geometry.name)
        if key not in cache:
            cache[key] = {}
        return cache[key]

    def directions(cell):
        if cell is None:
            return []
        return list(geometry_of(cell).deltas)

    def toward(cell, direction):
        if cell is None or direction is None:
            return None
        return step_table(geometry_of(cell))[cell].get(direction)

    def ray_of(geometry, cell, direction):
        rays = ray_table(geometry)
        found = rays.get((cell, direction))
        if found is None:
            table = step_table(geometry)
            out = []
            at = table[cell].get(direction)
            while at is not None:
                out.append(at)
                at = table[at].get(direction)
            found = rays[(cell, direction)] = tuple(out)
        return found

    def ray(cell, direction):
        if cell is None or direction is None:
            return []
        geometry = geometry_of(cell)
        if direction not in geometry.deltas:
            return []
        return list(ray_of(geometry, cell, direction))

    def position(geometry):
        key = ("position", geometry.name)
        if key not in cache:
            cache[key] = {eid: rc for rc, eid in geometry.at.items()}
        return cache[key]

    def line_direction(geometry, a, b):
        """(direction, number of steps) from a to b when b lies on a line from a, else None."""
        where = position(geometry)
        (ra, ca), (rb, cb) = where[a], where[b]
        dr, dc = rb - ra, cb - ca
        if dr == 0 and dc == 0:
            return None
        if geometry.kind == "grid":
            if not (dr == 0 or dc == 0 or abs(dr) == abs(dc)):
                return None
            n = max(abs(dr), abs(dc))
        else:
            if dr == 0 and dc % 2 == 0:
                n = abs(dc) // 2
            elif abs(dr) == abs(dc):
                n = abs(dr)
            else:
                return None
        unit = (dr // n, dc // n)
        for d, delta in geometry.deltas.items():
            if delta == unit:
                return d, n
        return None

    def between(a, b):
        if a is None or b is None:
            return []
        geometry = geometry_of(a)
        if geometry_of(b) is not geometry:
            return []
        found = line_direction(geometry, a, b)
        if found is None:
            return []
        d, n = found
        cells = ray_of(geometry, a, d)
        if len(cells) < n:            # the line is broken by a hole of the board
            return []
        return list(cells[:n - 1])

    def distance(a, b):
        if a is None or b is None:
            raise UnlocatedRulesError("distance of none: both cells must be given")
        geometry = geometry_of(a)
        if geometry_of(b) is not geometry:
            raise UnlocatedRulesError(f"distance between cells of two boards ({geometry.name}, {geometry_of(b).name})")
        if geometry.kind in maps.MAP_KINDS:      # the fewest routes (or none): no rows and columns
            return maps.steps_between(cache.setdefault(("distances", geometry.name), {}), geometry, a, b)
        where = position(geometry)
        (ra, ca), (rb, cb) = where[a], where[b]
        dr, dc = abs(ra - rb), abs(ca - cb)
        if geometry.kind == "grid":
            return max(dr, dc)
        return dr + max(0, (dc - dr) // 2)

    def surrounding(cell):
        if cell is None:
            return []
        return list(step_table(geometry_of(cell))[cell].values())

    def all_steps():
        """cell -> {direction: next cell}, on every board: what compiled code reads for toward."""
        if "all_steps" not in cache:
            merged = {}
            for geometry in game.geometries.values():
                merged.update(step_table(geometry))
            cache["all_steps"] = merged
        return cache["all_steps"]

    def most_squares():
        """The most 2x2 blocks a board has: what squares() returns at most (for work.py)."""
        return max((len(blocks(geometry)) for geometry in game.geometries.values()), default=0)

    return {"all_steps": all_steps, "most_squares": most_squares, "neighbors": neighbors, "adjacent": adjacent, "has_line": has_line, "groups": groups,
            "largest_group": largest_group, "reachable": reachable, "squares": squares, "bordering": bordering,
            "directions": directions, "toward": toward, "ray": ray, "between": between,
            "distance": distance, "surrounding": surrounding}


def on_board(name):
    """A geometry function called with the state first, as the other library functions."""
    def call(s, *args):
        return s.game.board_functions[name](*args)
    call.__name__ = name
    return call


GEOMETRY = ("neighbors", "adjacent", "has_line", "groups", "largest_group", "reachable", "squares",
            "directions", "toward", "ray", "between", "distance", "surrounding", "bordering")
neighbors, adjacent, has_line, groups, largest_group, reachable, squares = (on_board(n) for n in GEOMETRY[:7])


FUNCTIONS = {
    "size": size, "top": top, "bottom": bottom, "next": next_seat, "previous": previous_seat,
    "reversed": reversed_list, "pick": pick, "abs": absolute,
    "char_at": char_at, "split_text": split_text, "join": join, "to_int": to_int, "text_of": text_of,
    "subsets": subsets, "flatten": flatten,
    "index": member_index,
    "connected": maps.connected, "longest_trail": maps.longest_trail,
    **{name: on_board(name) for name in GEOMETRY},
}
