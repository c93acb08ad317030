"""One contestant of benchmarks/compare.py, in its own process.

    python benchmarks/worker.py engine      the engine found on PYTHONPATH (referee.interpreter, or an
                                            older commit's top-level interpreter)
    python benchmarks/worker.py reference   the hand-written games in benchmarks/references
    python benchmarks/worker.py native      the native kernel (interpreter/native) of the engine on
                                            PYTHONPATH: batches of games, one compiled call each

It reads one JSON command a line on stdin and answers one JSON line on stdout:

    {"load": KEY, "rules": PATH, "players": N, "options": [...]}   -> {"loaded": KEY} or {"error": TEXT}
                                    (native: also "load_seconds", the kernel's compile or cache
                                    load, and "from_cache")
    {"run": KEY, "seconds": T}      random playouts of seeds 0, 1, 2, ... until T seconds have
                                    passed (whole playouts only) -> {"playouts", "moves",
                                    "cpu_seconds" (this process's CPU time), "wall_seconds"}
                                    (native: also "handed_to_python", games the kernel flags)
    {"check": KEY, "seeds": N}      the moves and outcomes of seeds 0..N-1 -> {"moves", "outcomes"}
    {"quit": true}

Games are loaded (and compiled) once, before any timing. The random policy is that of
interpreter.bots.RandomBot(seed): random.Random(seed), then moves[rng.randrange(len(moves))].
"""
import hashlib
import importlib
import json
import os
import random
import sys
import time
from pathlib import Path

MAX_MOVES = 100_000     # a random game this long is taken for one that never ends
NATIVE_BATCH = 200      # games per call of a native kernel (a long game: fewer, so a slice keeps to its time)


def engine():
    """The engine package of the checkout on PYTHONPATH: referee.interpreter, or the top-level
    interpreter of a commit from before the single package (asked by the checkout's folders, not
    by trying imports: an installed referee would answer for an older checkout)."""
    checkout = Path(os.environ.get("PYTHONPATH", ".").split(os.pathsep)[0]).resolve()
    if (checkout / "referee" / "__init__.py").is_file():
        return importlib.import_module("referee.interpreter")
    return importlib.import_module("interpreter")


def load_engine_game(rules, players, options):
    load_game = importlib.import_module(engine().__name__ + ".engine").load_game
    game, diagnostics, _ = load_game(rules, options=tuple(options), players=players)
    if game is None:
        raise ValueError("; ".join(getattr(d, "message", str(d)) for d in diagnostics) or f"cannot load {rules}")
    return game


def load_reference_game(rules, players, options):
    import references
    name = Path(rules).stem
    if name not in references.BY_RULES:
        raise ValueError(f"no reference for {name}")
    if players != 2 or options:
        raise ValueError(f"the reference for {name} has 2 players and no options")
    return importlib.import_module("references." + references.BY_RULES[name]).Game()


def load_native_game(rules, players, options):
    """The native kernel of the engine's game, compiled or loaded from Numba's cache (an engine
    with no interpreter/native, or a game it does not render, answers an error)."""
    game = load_engine_game(rules, players, options)
    try:
        kernels = importlib.import_module(engine().__name__ + ".native.kernel")
    except ModuleNotFoundError as missing:
        raise ValueError(f"this checkout has no native kernels ({missing})") from None
    return NativeBatches(kernels.load_kernel(game))


def playout(game, seed):
    """Play seed's random game to its end; return (moves played, returns)."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    played = 0
    while not state.is_terminal():
        if played == MAX_MOVES:
            raise RuntimeError(f"seed {seed}: no end after {MAX_MOVES} moves")
        moves = state.legal_moves()
        state.apply(moves[rng.randrange(len(moves))])
        played += 1
    return played, tuple(state.returns())


class NativeBatches:
    """A game's native kernel played in batches of the games of seeds seed, seed + 1, ..., one
    compiled call each (the RandomBot's draws, as playout's): how benchmarks/native.py and the
    native worker time it."""

    def __init__(self, kernel, batch=NATIVE_BATCH, label=None):
        self.kernel, self.batch, self.label = kernel, batch, label
        self.seed = self.moves = self.handed_to_python = 0
        self.to_python = sys.modules[type(kernel).__module__].TO_PYTHON

    def compile(self):
        """The seconds of the kernel's first call (its compile, or its load from Numba's cache)."""
        return self.kernel.compile()

    def slice(self, seconds):
        """Batches until `seconds` of wall clock have passed (one at least): the games played."""
        played = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline or not played:
            status, length, _, _, _ = self.kernel.play(range(self.seed, self.seed + self.batch), MAX_MOVES)
            self.seed += self.batch
            played += self.batch
            self.moves += int(length.sum())
            self.handed_to_python += int((status == self.to_python).sum())
        return played

    def results(self, game, seeds):
        """(moves, returns) of the games of seeds 0..seeds-1, as playout gives them (a game the
        kernel flags played in Python)."""
        status, length, winners, scores, returns = self.kernel.play(range(seeds), MAX_MOVES)
        out = []
        for seed in range(seeds):
            if status[seed] == self.to_python:
                out.append(playout(game, seed))
            else:
                record = self.kernel.record(seed, status[seed], int(length[seed]), int(winners[seed]),
                                            scores[seed], returns[seed])
                out.append((record["length"], tuple(record["returns"])))
        return out


class Worker:
    def __init__(self, load):
        self.load_game = load
        self.games = {}
        self.results = {}       # key -> [(moves, returns) of seed 0, 1, ...]

    def record(self, key, seed, result):
        known = self.results[key]
        if seed == len(known):
            known.append(result)
        elif known[seed] != result:
            raise RuntimeError(f"{key}: seed {seed} played differently the second time")

    def load(self, command):
        key = command["load"]
        self.games[key] = self.load_game(command["rules"], command["players"], command["options"])
        self.results[key] = []
        self.record(key, 0, playout(self.games[key], 0))      # a warm-up game
        return {"loaded": key}

    def run(self, command):
        key, game = command["run"], self.games[command["run"]]
        playouts = moves = 0
        started, started_cpu = time.perf_counter(), time.process_time()
        deadline = started + command["seconds"]
        while True:
            result = playout(game, playouts)
            self.record(key, playouts, result)
            playouts += 1
            moves += result[0]
            if time.perf_counter() >= deadline:
                break
        return {"playouts": playouts, "moves": moves, "cpu_seconds": time.process_time() - started_cpu,
                "wall_seconds": time.perf_counter() - started}

    def check(self, command):
        key, seeds = command["check"], command["seeds"]
        game, known = self.games[key], self.results[key]
        for seed in range(len(known), seeds):
            self.record(key, seed, playout(game, seed))
        return summary(known[:seeds])


class NativeWorker:
    """The native contestant: each game's kernel, its slices played in batches from seed 0."""

    def __init__(self):
        self.games, self.kernels = {}, {}

    def load(self, command):
        key = command["load"]
        self.games[key] = load_engine_game(command["rules"], command["players"], command["options"])
        batches = self.kernels[key] = load_native_game(command["rules"], command["players"], command["options"])
        seconds = batches.compile()
        return {"loaded": key, "load_seconds": seconds, "from_cache": getattr(batches.kernel, "from_cache", None)}

    def run(self, command):
        batches = self.kernels[command["run"]]
        batches.seed = batches.moves = batches.handed_to_python = 0
        started, started_cpu = time.perf_counter(), time.process_time()
        playouts = batches.slice(command["seconds"])
        return {"playouts": playouts, "moves": batches.moves, "cpu_seconds": time.process_time() - started_cpu,
                "wall_seconds": time.perf_counter() - started, "handed_to_python": batches.handed_to_python}

    def check(self, command):
        key = command["check"]
        return summary(self.kernels[key].results(self.games[key], command["seeds"]))


def summary(results):
    """The total moves and a digest of the (moves, returns) of a list of games (returns as
    floats: the kernel's and the engine's compare alike)."""
    normalized = [(moves, tuple(float(v) for v in returns)) for moves, returns in results]
    digest = hashlib.sha1(repr(normalized).encode()).hexdigest()[:12]
    return {"moves": sum(moves for moves, _ in results), "outcomes": digest}


def main():
    kind = sys.argv[1]
    channel = sys.stdout
    sys.stdout = sys.stderr         # nothing the engine prints can garble the answers
    if kind in ("engine", "native"):
        worker = Worker(load_engine_game) if kind == "engine" else NativeWorker()
        hello = {"interpreter": str(Path(engine().__file__).parent)}
    else:
        sys.path.insert(0, str(Path(__file__).parent))
        worker = Worker(load_reference_game)
        hello = {"interpreter": None}
    channel.write(json.dumps(hello) + "\n")
    channel.flush()
    for line in sys.stdin:
        command = json.loads(line)
        if "quit" in command:
            break
        try:
            if "load" in command:
                answer = worker.load(command)
            elif "run" in command:
                answer = worker.run(command)
            else:
                answer = worker.check(command)
        except Exception as error:     # reported to compare.py, which goes on without this config
            answer = {"error": f"{type(error).__name__}: {error}"}
        channel.write(json.dumps(answer) + "\n")
        channel.flush()


if __name__ == "__main__":
    main()
