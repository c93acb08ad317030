"""What the native tests share (issue 24): a game's kernel loaded once per test process, compiled
under a lock, and the one check that a kernel plays the Python engine's games.

    kernel = kernel_of("games/solstis.rules", 2)          # (options=..., params={...} too)
    records = natively(kernel, range(1, 21))              # == simulate_game's, none handed back
    played = same_games(kernel, seeds, max_moves=7)       # == simulate_game's; played.handed: the
                                                          # seeds the kernel handed back to Python
    cached_on_disk(kernel, "cells_reachable")             # (a function a test calls itself)
    native = native_functions(text, ["f"], namespace)     # generated functions, compiled once a source

`kernel_of` remembers each (rules file, players, options, params) in the process, so the test
modules of one xdist worker share a kernel; two workers never compile one kernel at once (a file
lock beside the kernel in the cache: the second waits, then loads it from Numba's cache). A test
module that compiles kernels is kept on one worker by `conftest.py` (an xdist_group per module;
`--dist loadgroup`, which conftest.py sets when xdist runs), so that its module fixtures are built once.
`same_games` plays each game once in Python and once natively; a game the kernel hands back is
given Python's record of it (which is what `Kernel.records`' in_python would play again).
`native_functions` compiles the functions of a generated source (render_native's, say) as a
kernel is compiled: from a file in the kernel cache, so that Numba's cache keeps them for the next
run (text run by exec is compiled again in every run, a second or more a function).
"""
from __future__ import annotations

import contextlib
import fcntl
import functools
import hashlib
import sys
from pathlib import Path
from typing import NamedTuple

from referee.interpreter.engine import load_game
from referee.interpreter.native.kernel import HELPERS, cache_folder, load_kernel, load_module
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


NATIVE = Path(__file__).resolve().parent.parent / "interpreter" / "native"


def native_functions(text: str, names, namespace=None, on_disk: bool = True) -> dict:
    """{name: Numba's compiled function} of the functions `names` of a generated source, in
    order (a later one may call an earlier one), bound beside `namespace`. on_disk: the source is
    kept in the kernel cache as a kernel's is (named by its hash, with what the namespace binds
    and the hash of its functions' modules in a comment), and Numba caches its compiles beside it; else it
    is run by exec and compiled each time (a source generated at random, no run sees again)."""
    import numba
    if on_disk:
        namespace = namespace or {}
        module, _ = load_module(f"{text}\n# beside:\n# {bound(namespace)}\n# their modules {callees_digest(namespace)}\n")
        compile_ = numba.njit(cache=True)
    else:
        module, compile_ = type(sys)("generated"), numba.njit
        exec(text, module.__dict__)
    module.__dict__.update(namespace or {})         # (read by Numba when it compiles, not before)
    out = {}
    for name in names:
        found = module.__dict__[name]
        out[name] = module.__dict__[name] = found if isinstance(found, numba.core.dispatcher.Dispatcher) \
            else compile_(found)        # (a source met before in this process: compiled then)
    return out


def bound(namespace: dict) -> str:
    """What the namespace binds, as text that stays the same from run to run: a function by its
    name, a value by its repr (a compiled caller keeps what it read of them)."""
    def said(value):
        if callable(value):
            function = getattr(value, "py_func", value)       # (a Numba dispatcher: its Python function)
            return f"{function.__module__}.{function.__qualname__}"
        return repr(value).replace("\n", " ")
    return "; ".join(f"{key}: {said(value)}" for key, value in sorted(namespace.items()))


def callees_digest(namespace: dict) -> str:
    """The hash of the modules whose functions the namespace binds, and of the helpers a kernel
    calls (a caller compiled against other callees is not loaded from Numba's cache, which checks
    the caller's own file only)."""
    names = {getattr(getattr(value, "py_func", value), "__module__", None) for value in namespace.values() if callable(value)}
    files = {Path(sys.modules[name].__file__) for name in names if name in sys.modules and sys.modules[name].__file__}
    return hashlib.sha256(b"".join(path.read_bytes() for path in sorted(files | {NATIVE / name for name in HELPERS}))).hexdigest()
