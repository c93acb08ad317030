"""What the native renderer's writes call (compile/render_native_writes.py, HELPERS): plain
functions that Numba compiles (`namespace()` gives them compiled, with numpy as `np`), and
NativeStop, the one exception a native function raises: err[0] says why (a site of
Places.errors, -1 the game's end, -2 winners that are not seats), err[1] the value."""
from __future__ import annotations

import functools

import numpy as np

from .random_stream import shuffle


class NativeStop(Exception):
    """A native function stopped: the game ended (finish) or the rules erred (err says which)."""


def native_error(err, site, value):
    """err[0], err[1] = site, value; then a NativeStop (a site of 0 never stops: a typed value)."""
    err[0] = site
    err[1] = value
    if site != 0:
        raise NativeStop()
    return value


def finish_winners(winners, winners_len, err, given):
    """The game ends (runtime finish): the seats given, sorted, each once, are the winners (one
    that is not a seat: site -2, the value it); then a NativeStop whose site is -1."""
    seats = winners.shape[0]
    seen = np.zeros(seats + 1, np.bool_)
    for p in given:
        if p < 1 or p > seats:
            native_error(err, -2, p)
        seen[p] = True
    n = 0
    for p in range(1, seats + 1):
        if seen[p]:
            winners[n] = p
            n += 1
    winners_len[0] = n
    native_error(err, -1, 0)


def zone_remove(items, lengths, cell, x):
    """Component x out of the zone at `cell` (a row of items, its length): the top without a
    scan, else the items above it moved down one (State.move)."""
    n = lengths[cell]
    for i in range(n - 1, -1, -1):
        if items[cell, i] == x:
            for j in range(i, n - 1):
                items[cell, j] = items[cell, j + 1]
            lengths[cell] = n - 1
            return


def zone_insert(items, lengths, cell, x, under):
    """Component x onto the top of the zone at `cell`, or under its bottom."""
    n = lengths[cell]
    if under:
        for j in range(n, 0, -1):
            items[cell, j] = items[cell, j - 1]
        items[cell, 0] = x
    else:
        items[cell, n] = x
    lengths[cell] = n + 1


def shuffle_zone(rng, items):
    """The zone's items shuffled by the random stream rng[0] (random_source.shuffle's draws)."""
    rng[0] = shuffle(rng[0], items)


@functools.cache
def namespace() -> dict:
    """The helpers compiled by Numba, with numpy as np: what a module of native functions binds."""
    import numba
    njit = numba.njit(cache=True)
    out: dict = {"np": np, "NativeStop": NativeStop}
    compiled = {function.__name__: njit(function) for function in (native_error, zone_remove, zone_insert,
                                                                    shuffle_zone)}
    globals()["native_error"] = compiled["native_error"]     # (finish_winners calls the compiled one)
    out.update(compiled, finish_winners=njit(finish_winners))
    return out
