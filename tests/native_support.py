"""What the native tests share (issue 24): a game's kernel loaded once per test process, compiled
under a lock, and the one check that a kernel plays the Python engine's games.

    kernel = kernel_of("games/solstis.rules", 2)          # (options=..., params={...} too)
    records = natively(kernel, range(1, 21))              # == simulate_game's, none handed back
    played = same_games(kernel, seeds, max_moves=7)       # == simulate_game's; played.handed: the
                                                          # seeds the kernel handed back to Python
    cached_on_disk(kernel, "cells_reachable")             # (a function a test calls itself)

`kernel_of` remembers each (rules file, players, options, params) in the process, so the test
modules of one xdist worker share a kernel; two workers never compile one kernel at once (a file
lock beside the kernel in the cache: the second waits, then loads it from Numba's cache). A test
module that compiles kernels is kept on one worker by `conftest.py` (an xdist_group per module;
pyproject.toml's `--dist loadgroup`), so that its module fixtures are built once.
`same_games` plays each game once in Python and once natively; a game the kernel hands back is
given Python's record of it (which is what `Kernel.records`' in_python would play again).
"""
from __future__ import annotations

import contextlib
import fcntl
import functools
from typing import NamedTuple

from referee.interpreter.engine import load_game
from referee.interpreter.native.kernel import cache_folder, load_kernel
from referee.interpreter.play.simulate import simulate_game


@functools.cache
def game_of(path: str, players: int, options: tuple = (), params: tuple = ()):
    """The game loaded (params: (name, value) pairs), checked to have loaded."""
    game, diagnostics, _ = load_game(path, players=players, options=list(options), params=dict(params) or None)
    assert game is not None, diagnostics
    return game


def kernel_of(path, players: int, options=(), params=None):
    """The game's native kernel, compiled (or loaded from Numba's cache): one per process."""
    return cached_kernel(str(path), players, tuple(options), tuple(sorted((params or {}).items())))


@functools.cache
def cached_kernel(path: str, players: int, options: tuple, params: tuple):
    return compiled(load_kernel(game_of(path, players, options, params)))


def compiled(kernel):
    """The kernel (a Kernel, NativeRollouts or VerifyKernel: what has .hash and .compile()),
    compiled while holding its lock."""
    with kernel_lock(kernel.hash):
        kernel.compile()
    return kernel


def cached_on_disk(kernel, *names) -> None:
    """The kernel's functions a test calls from Python itself, kept in Numba's cache beside the
    kernel as its playouts are: a later run loads them instead of compiling each again (the
    kernel's file never changes under its hash, which holds the helpers' too)."""
    for name in names:
        getattr(kernel.module, name).enable_caching()


@contextlib.contextmanager
def kernel_lock(digest: str):
    """Held by one process at a time per kernel: a second xdist worker waits for the first's
    compile, then finds it in Numba's cache instead of compiling it again beside it."""
    folder = cache_folder()
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"kernel_{digest}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


class Played(NamedTuple):
    records: list       # simulate_game's records of the seeds, which the kernel's equal
    handed: list        # the seeds the kernel handed back to Python, in order


def same_games(kernel, seeds, max_moves: int = 10_000, details: bool = False) -> Played:
    """Asserts that the kernel's records of these seeds (with details: analyze's branching and
    actions too) are simulate_game's; each game is played once each way."""
    seeds = list(seeds)
    python = {seed: simulate_game(kernel.game, seed, max_moves, details=details) for seed in seeds}
    handed = []

    def in_python(seed):
        handed.append(seed)
        return python[seed]
    native = kernel.records(seeds, max_moves, in_python, details=details)
    records = [python[seed] for seed in seeds]
    assert native == records, f"the native records differ from Python's (seeds {seeds[0]}..., max_moves {max_moves})"
    return Played(records, handed)


def natively(kernel, seeds, max_moves: int = 10_000, details: bool = False) -> list:
    """same_games, and none of the games handed back to Python: simulate_game's records."""
    played = same_games(kernel, seeds, max_moves, details)
    assert played.handed == [], f"handed back to Python: seeds {played.handed}"
    return played.records
