"""One contestant of benchmarks/compare.py, in its own process.

    python benchmarks/worker.py engine      the engine found on PYTHONPATH (referee.interpreter, or an
                                            older commit's top-level interpreter)
    python benchmarks/worker.py reference   the hand-written games in benchmarks/references

It reads one JSON command a line on stdin and answers one JSON line on stdout:

    {"load": KEY, "rules": PATH, "players": N, "options": [...]}   -> {"loaded": KEY} or {"error": TEXT}
    {"run": KEY, "seconds": T}      random playouts of seeds 0, 1, 2, ... until T seconds have
                                    passed (whole playouts only) -> {"playouts", "moves",
                                    "cpu_seconds" (this process's CPU time), "wall_seconds"}
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
        chosen = known[:seeds]
        digest = hashlib.sha1(repr(chosen).encode()).hexdigest()[:12]
        return {"moves": sum(moves for moves, _ in chosen), "outcomes": digest}


def main():
    kind = sys.argv[1]
    channel = sys.stdout
    sys.stdout = sys.stderr         # nothing the engine prints can garble the answers
    if kind == "engine":
        worker = Worker(load_engine_game)
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
