"""A game's native kernel: its source rendered (rules_source.py), written into the kernel cache
under the hash of that source (which holds the options, params and player count it was
rendered for), imported from there and compiled by Numba, whose own cache (`cache=True`) sits
beside it: the first run of a game pays its compile once, later runs load it.

`Kernel.records(seeds, max_moves, in_python)` gives simulate_game's records of those seeds: the
kernel plays the games; a game it flags (a runtime error, a dead end, a value outside its
coding) is played again in Python (`in_python(seed)`, given by the caller: play/ is a layer
above this one), which gives its exact record.
"""
from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import os
import sys
import time
from pathlib import Path

import numpy as np

from .decisions_source import CHOICE
from .rules_source import NotNative, render
from .teams_source import outcome_of

CACHE_ENV = "REFEREE_NATIVE_CACHE"
FINISHED, STOPPED, TO_PYTHON = 0, 1, 2
NO_TRAIL = np.zeros(1, dtype=np.int64)      # (no details asked)
COMPILE_RECURSION = 20_000                  # Python's recursion limit while a kernel compiles
DETAILED_MOVES = 1_000_000                  # the moves of one game analyze records at most natively
CHOICE_NAME = "(choice)"                    # a decision inside a step, as simulate_game's details name it


def cache_folder() -> Path:
    given = os.environ.get(CACHE_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "referee" / "native"


class Kernel:
    def __init__(self, game, module, source_hash: str):
        self.game, self.module, self.hash = game, module, source_hash
        self.compile_seconds = None
        self.from_cache = None          # (after compile: whether Numba loaded it from its cache)
        self.start_seconds = None       # (engine_choice: Numba's import to the kernel ready)

    def compile(self) -> float:
        """Compile (or load from the cache) by playing one game: the seconds it took."""
        if self.compile_seconds is None:
            started = time.perf_counter()
            self.play(np.arange(1, dtype=np.int64), 1)
            self.compile_seconds = time.perf_counter() - started
            self.from_cache = sum(self.module.playouts.stats.cache_hits.values()) > 0
        return self.compile_seconds

    def play(self, seeds, max_moves: int, trail=None):
        """(status, length, winners mask, scores, returns) arrays of the games of these seeds
        (trail: see `details`)."""
        with deep_compiles():
            return self.module.playouts(np.asarray(seeds, dtype=np.int64), int(max_moves),
                                        NO_TRAIL if trail is None else trail)

    def records(self, seeds, max_moves: int, in_python, details: bool = False) -> list:
        """simulate_game's records of these seeds (with details: analyze's branching and
        actions too); in_python(seed): that record, played in Python (for a game the kernel
        flags)."""
        seeds = list(seeds)
        if details:
            return [self.detailed(seed, max_moves, in_python) for seed in seeds]
        status, length, winners, scores, returns = self.play(seeds, max_moves)
        out = []
        for k, seed in enumerate(seeds):
            if status[k] == TO_PYTHON:
                out.append(in_python(seed))
                continue
            out.append(self.record(seed, status[k], int(length[k]), int(winners[k]), scores[k], returns[k]))
        return out

    def detailed(self, seed: int, max_moves: int, in_python) -> dict:
        """One game's record with the number of legal moves at each move ("branching") and the
        moves played per seat and action ("actions"), as simulate_game(details=True) gives."""
        trail = np.empty(3 * min(max_moves, DETAILED_MOVES) + 3, dtype=np.int64)
        status, length, winners, scores, returns = self.play([seed], max_moves, trail)
        if status[0] == TO_PYTHON:
            return in_python(seed)
        record = self.record(seed, status[0], int(length[0]), int(winners[0]), scores[0], returns[0])
        moves = trail[:3 * int(length[0])].reshape(-1, 3)
        actions: dict = {}
        for _, action, seat in moves.tolist():
            per_seat = actions.setdefault(seat, {})
            if action == CHOICE:
                name = CHOICE_NAME
            else:
                name = self.module.ACTION_NAMES[action] if action >= 0 else "(skip)"
            per_seat[name] = per_seat.get(name, 0) + 1
        record.update(branching=moves[:, 0].tolist(), actions=actions)
        return record

    def bench(self, first_seed: int, seconds: float, max_moves: int, in_python) -> dict:
        """bench_playouts natively: games of seeds first_seed, first_seed + 1, ... in batches
        until `seconds` have passed (a batch grows until a call takes a tenth of a second); a
        game the kernel flags is played again in Python, and a runtime error stops the run."""
        playouts = moves = 0
        seed, batch = first_seed, 16
        started = time.perf_counter()
        deadline = started + seconds
        while True:
            called = time.perf_counter()
            status, length, _, _, _ = self.play(range(seed, seed + batch), max_moves)
            for k in np.flatnonzero(status == TO_PYTHON):
                record = in_python(seed + int(k))
                if record["error"] is not None:
                    return {"playouts": playouts, "moves": moves, "seconds": time.perf_counter() - started,
                            "error": (seed + int(k), record["error"])}
                status[k], length[k] = (FINISHED if record["finished"] else STOPPED), record["length"]
            playouts += int(np.count_nonzero(status == FINISHED))
            moves += int(length.sum())
            seed += batch
            now = time.perf_counter()
            if now > deadline:
                break
            if now - called < 0.1:
                batch *= 2
        return {"playouts": playouts, "moves": moves, "seconds": time.perf_counter() - started, "error": None}

    def record(self, seed, status, length, mask, scores, returns) -> dict:
        game, players = self.game, range(1, self.game.num_players + 1)
        record = {"seed": seed, "error": None, "error_kind": None, "moves": None, "length": length,
                  "finished": False, "winners": [], "scores": [], "outcome": None, "team": None, "returns": [],
                  "log": None, "log_error": None, "coverage": None}
        if status == FINISHED:
            ended = outcome_of(game, mask)
            win_returns = [1.0 if p in ended["winners"] else 0.0 for p in players]
            lost_returns = [-1.0 for p in players] if ended["outcome"] == "lost" else win_returns
            record.update(finished=True, **ended,
                          scores=[whole_or_float(v) for v in scores] if game.score is not None else win_returns,
                          returns=[float(v) for v in returns] if game.declared_returns is not None else lost_returns)
        return record


def whole_or_float(score) -> int | float:
    """A score as the record's JSON number: an int score, or a real one (a float64 array:
    reals_source.py) whose value is the float json_scores gives (equal to a whole one)."""
    return int(score) if score.dtype.kind == "i" else float(score)


@contextlib.contextmanager
def deep_compiles():
    """Numba compiles a function's callees inside its own compile: a recursive function's copies
    by depth (recursion.py) nest beyond Python's default recursion limit."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, COMPILE_RECURSION))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def seeds_fit(seeds) -> bool:
    """Whether the kernel seeds these bots itself (one-word seeds, as random.Random's)."""
    from .bot_random import SEEDABLE
    return all(0 <= s < SEEDABLE for s in seeds)


HELPERS = ("bot_random.py", "kernel_helpers.py", "random_stream.py")


def helpers_digest() -> str:
    """The hash of the modules a kernel calls: part of its source, so that a kernel compiled
    against other helpers is not loaded from Numba's cache (which checks the kernel file only)."""
    here = Path(__file__).resolve().parent
    return hashlib.sha256(b"".join((here / name).read_bytes() for name in HELPERS)).hexdigest()[:20]


def load_kernel(game) -> Kernel:
    """The game's kernel, rendered and imported (compiled on first use); NotNative if it has none."""
    module, digest = load_module(render(game))
    return Kernel(game, module, digest)


def load_module(rendered: str) -> tuple:
    """(the module of a kernel's source, imported from the kernel cache, the hash it is kept under)."""
    source = rendered + f"# compiled against the helpers {helpers_digest()}\n"
    digest = hashlib.sha256(source.encode()).hexdigest()[:20]
    folder = cache_folder()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"kernel_{digest}.py"
    if not path.exists():           # (rewritten, its mtime would void Numba's cache)
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(source)
        partial.replace(path)
    name = f"referee_native_kernel_{digest}"
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return module, digest


__all__ = ["Kernel", "NotNative", "load_kernel", "load_module", "cache_folder", "seeds_fit"]
