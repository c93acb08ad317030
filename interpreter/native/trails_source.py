"""The aggregate `longest_trail(r in ROUTES where C: W)` in a native kernel (a mixin of
rules_source.KernelSource): the routes that pass C with their weights (none weighs 0, a route
named twice counts once, its first weight), then the search runtime/maps.longest_trail does,
as a loop over an explicit stack (Numba's cache cannot load a recursive function): from the
places of odd degree of each network of routes, a network whose every place has an even degree
its total (an Euler circuit), every place with a negative weight.

The work: Python charges each route a trail takes to the step's work budget and stops the
step past MAX_STEP_WORK. The kernel counts the same units (the same search, so the same count)
in the slot TRAIL_WORK over the whole game, not the step: past half the budget (the other half
left for the step's other work, which the kernel does not count) the game is played again in
Python (the error slot), which stops where its budget says. A game whose trails cost less never
comes near Python's limit, so its moves are the same.
"""
from __future__ import annotations

from referee.dsl import ast
from referee.dsl.limits import MAX_STEP_WORK

TRAIL_LIMIT = MAX_STEP_WORK // 2      # the units of trail search a kernel's game spends at most


def uses_trails(program) -> bool:
    """Whether the rules have a `longest_trail` (the kernel then keeps its work in a slot)."""
    return any(isinstance(node, ast.Aggregate) and node.kind == "longest_trail" for node in ast.walk(program.parts()))


class TrailsSource:
    """`longest_trail` for KernelSource's visit_Aggregate (its loop over the binder's domain)."""

    def extra_slots(self) -> tuple:
        return ("TRAIL_WORK",) if uses_trails(self.program) else ()

    @staticmethod
    def trail_room(kind: str, capacity: str) -> list:
        """The weights' room beside the routes' (`out`) of a longest_trail."""
        return [f"weights = np.empty({capacity}, dtype=np.int64)"] if kind == "longest_trail" else []

    def trail_parts(self, value: str, var: str, node) -> tuple:
        """(before, each, after) of a longest_trail's loop: the routes and their weights, then the search."""
        weight = "1" if node.value is None else value
        return (["n = 0"],
                [f"out[n] = {var}", f"w = {weight}", f"weights[n] = 0 if w == {-(2 ** 63)} else w", "n += 1"],
                ["return longest_trail_of(S, ROUTE_ENDS, out[:n], weights[:n])"])


TRAIL_FUNCTIONS = f'''
TRAIL_LIMIT = {TRAIL_LIMIT}
''' + '''

@njit
def trail_network(first, inc_other, place, seen, members):
    """The places of the network of `place` (marked in seen) into members: how many."""
    seen[place] = True
    members[0] = place
    n, k = 1, 0
    while k < n:
        p = members[k]
        k += 1
        for at in range(first[p], first[p + 1]):
            other = inc_other[at]
            if not seen[other]:
                seen[other] = True
                members[n] = other
                n += 1
    return n


@njit
def walk_trails(S, first, inc_other, inc_route, inc_weight, used, start, best):
    """The best total of the trails from `start` over the routes not used yet (maps.walk_trails),
    each route taken one unit of TRAIL_WORK (past TRAIL_LIMIT: the error slot, -1)."""
    m = len(used)
    places = np.empty(m + 1, dtype=np.int64)
    at = np.empty(m + 1, dtype=np.int64)
    totals = np.empty(m + 1, dtype=np.int64)
    taken = np.empty(m + 1, dtype=np.int64)
    depth = 0
    places[0], at[0], totals[0] = start, first[start], 0
    if 0 > best:
        best = 0
    while depth >= 0:
        p = places[depth]
        k = at[depth]
        if k == first[p + 1]:
            if depth > 0:
                used[taken[depth]] = False
            depth -= 1
            continue
        at[depth] = k + 1
        route = inc_route[k]
        if used[route]:
            continue
        S[TRAIL_WORK] += 1
        if S[TRAIL_WORK] > TRAIL_LIMIT:
            S[ERROR] = 1
            return -1
        used[route] = True
        depth += 1
        other = inc_other[k]
        places[depth], at[depth], taken[depth] = other, first[other], route
        totals[depth] = totals[depth - 1] + inc_weight[k]
        if totals[depth] > best:
            best = totals[depth]
    return best


@njit
def longest_trail_of(S, ends, listed, listed_weights):
    """The greatest total weight of a trail of the routes listed (runtime/maps.longest_trail)."""
    routes = np.empty(len(listed), dtype=np.int64)
    weights = np.empty(len(listed), dtype=np.int64)
    m = 0
    for i in range(len(listed)):
        route = listed[i]
        if route < 0 or ends[route, 0] < 0:
            S[ERROR] = 1        # (not a route: the engine's error)
            return 0
        again = False
        for j in range(m):
            if routes[j] == route:
                again = True
        if not again:
            routes[m], weights[m] = route, listed_weights[i]
            m += 1
    local = np.full(ends.shape[0], -1, dtype=np.int64)
    a = np.empty(m, dtype=np.int64)
    b = np.empty(m, dtype=np.int64)
    P = 0
    negative = False
    for k in range(m):
        for side in range(2):
            place = ends[routes[k], side]
            if local[place] < 0:
                local[place] = P
                P += 1
        a[k], b[k] = local[ends[routes[k], 0]], local[ends[routes[k], 1]]
        negative = negative or weights[k] < 0
    first = np.zeros(P + 1, dtype=np.int64)
    for k in range(m):
        first[a[k] + 1] += 1
        first[b[k] + 1] += 1
    for p in range(P):
        first[p + 1] += first[p]
    fill = first[:P].copy()
    inc_other = np.empty(2 * m, dtype=np.int64)
    inc_route = np.empty(2 * m, dtype=np.int64)
    inc_weight = np.empty(2 * m, dtype=np.int64)
    for k in range(m):
        for x, y in ((a[k], b[k]), (b[k], a[k])):
            inc_other[fill[x]], inc_route[fill[x]], inc_weight[fill[x]] = y, k, weights[k]
            fill[x] += 1
    used = np.zeros(m, dtype=np.bool_)
    best = 0
    if negative:
        for p in range(P):
            best = walk_trails(S, first, inc_other, inc_route, inc_weight, used, p, best)
            if best < 0:
                return 0
        return best
    seen = np.zeros(P, dtype=np.bool_)
    members = np.empty(P, dtype=np.int64)
    in_network = np.zeros(m, dtype=np.bool_)
    for p in range(P):
        if seen[p]:
            continue
        n = trail_network(first, inc_other, p, seen, members)
        odd = False
        for j in range(n):
            q = members[j]
            if (first[q + 1] - first[q]) % 2:
                odd = True
                best = walk_trails(S, first, inc_other, inc_route, inc_weight, used, q, best)
                if best < 0:
                    return 0
        if not odd:         # (an Euler circuit through the whole network: its total)
            total = 0
            for j in range(n):
                q = members[j]
                for at in range(first[q], first[q + 1]):
                    route = inc_route[at]
                    if not in_network[route]:
                        in_network[route] = True
                        total += inc_weight[at]
            if total > best:
                best = total
    return best
'''
