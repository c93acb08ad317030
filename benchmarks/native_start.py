"""A native kernel's start-up, loaded from the cache (issue 24: "later runs load from the cache
in under a second"), against the Python path's, in one interleaved run.

    python benchmarks/native_start.py                      the four games, 5 rounds
    python benchmarks/native_start.py --only continents --rounds 9

Per game and round, in new processes run from this checkout's root:
- "python -n 1" and "native -n 1": the CPU and wall seconds of a whole `python -m referee
  simulate RULES -n 1 --seed 1 --json --engine python|native` process (its resource usage);
- the native start's parts, in one process (CPU seconds): Numba's import (engine_choice's
  import_numba), the kernel's source rendered, its module written or found and imported (the
  njit functions made, none compiled), and the first call (Numba's registries and its cache
  load: the kernel is not compiled again; a first unmeasured run compiles it if it must).
The children read and write bytecode as an installed package has it (a temporary
PYTHONPYCACHEPREFIX, filled by the first run), as compile_time.py does. The figures are the
medians (min-max) over the rounds; nothing here is a timed test.
"""
import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import compile_time  # noqa: E402

GAMES = {"continents 6p": ("continents", 6), "titicaca 5p": ("titicaca", 5), "solstis 2p": ("solstis", 2),
         "tic-tac-toe": ("tic-tac-toe", 2)}

# run in the child: the parts of a native start, CPU seconds, as JSON
PARTS = """
import json, sys, time
sys.setrecursionlimit(10000)
from referee.interpreter.engine import load_game
game, diagnostics, _ = load_game(sys.argv[1], players=int(sys.argv[2]))
figures, last = {}, time.process_time()
def part(name):
    global last
    now = time.process_time()
    figures[name] = now - last
    last = now
from referee.interpreter.native.engine_choice import import_numba
import_numba()
part("import numba")
from referee.interpreter.native import kernel, rules_source
part("import the renderer")
source = rules_source.render(game)
part("render")
module, digest = kernel.load_module(source)
part("module")
ready = kernel.Kernel(game, module, digest)
ready.compile()
part("first call")
figures["from cache"] = ready.from_cache
print(json.dumps(figures))
"""


def simulate(rules, players, engine):
    """(CPU seconds, wall seconds) of a whole simulate -n 1 process."""
    command = [sys.executable, "-m", "referee", "simulate", rules, "--players", str(players), "-n", "1",
               "--seed", "1", "--json", "--engine", engine]
    started = time.perf_counter()
    _, cpu = compile_time.run(command, ROOT)
    return cpu, time.perf_counter() - started


def measure(rules, players):
    figures = {}
    for engine in ("python", "native"):
        figures[f"{engine} -n 1 CPU"], figures[f"{engine} -n 1 wall"] = simulate(rules, players, engine)
    out, _ = compile_time.run([sys.executable, "-c", PARTS, rules, str(players)], ROOT)
    parts = json.loads(out.strip().splitlines()[-1])
    if not parts.pop("from cache"):
        raise RuntimeError(f"{rules} {players}p: the kernel was compiled, not loaded from the cache")
    figures.update(parts)
    figures["kernel start (the parts)"] = sum(parts.values())
    return figures


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", action="append", default=[], help="a game whose name holds this (repeatable)")
    args = parser.parse_args(argv)
    games = {name: g for name, g in GAMES.items() if not args.only or any(o in name for o in args.only)}
    with tempfile.TemporaryDirectory(prefix="native-start-pyc-") as caches:
        compile_time.BYTECODE[ROOT] = Path(caches)
        for rules, players in games.values():       # bytecode, and the kernel compiled if it must be
            compile_time.run([sys.executable, "-m", "referee", "simulate", f"games/{rules}.rules", "--players",
                              str(players), "-n", "1", "--engine", "native"], ROOT)
        rounds = []
        for k in range(args.rounds):
            rounds.append({name: measure(f"games/{rules}.rules", players) for name, (rules, players) in games.items()})
            print(f"round {k + 1}/{args.rounds} done", file=sys.stderr)
    print(f"seconds, median (min-max) of {len(rounds)} rounds")
    for name in games:
        print(f"\n{name}")
        for figure in rounds[0][name]:
            values = [r[name][figure] for r in rounds]
            print(f"  {figure:<26} {statistics.median(values):6.3f} ({min(values):.3f}-{max(values):.3f})")
        extra = [r[name]["native -n 1 CPU"] - r[name]["python -n 1 CPU"] for r in rounds]
        print(f"  {'native - python, CPU':<26} {statistics.median(extra):6.3f} ({min(extra):.3f}-{max(extra):.3f})")


if __name__ == "__main__":
    main()
