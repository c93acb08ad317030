"""Throughput of `referee simulate` with 1 worker, 2 worker processes and a Dask cluster of 2,
and the memory a worker process needs once it has compiled the game.

    python benchmarks/cluster.py [RULES] [-n GAMES] [--repeat R]

Each mode runs `simulate RULES -n GAMES` R times in this process (cli.main) and keeps the best
games/s of its `seconds`; `--cluster local:2` counts starting the cluster, so the running
cluster (the same 2 workers, already up, given by address) is measured too. Memory: the
resident set (VmRSS of /proc/PID/status, Linux) of one --jobs worker after it has loaded the
game, and of a Dask worker before and after its first task compiled it.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.interpreter.play import cluster, parallel          # noqa: E402
from referee.interpreter.cli.main import main                     # noqa: E402
from referee.interpreter.engine import load_game             # noqa: E402


def resident_mib(pid="self") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/PID/status")


def worker_resident_mib(game, *args):
    """A task: the resident set of the worker process that runs it (its game compiled)."""
    return resident_mib()


def games_per_second(rules, games, repeat, *flags) -> float:
    best = 0.0
    for _ in range(repeat):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            code = main(["simulate", rules, "-n", str(games), "--json", *flags])
        if code != 0:
            raise SystemExit(f"simulate {' '.join(flags)} exited {code}")
        best = max(best, games / json.loads(out.getvalue())["seconds"])
    return best


def main_():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", nargs="?", default=str(ROOT / "games" / "continents.rules"))
    parser.add_argument("-n", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    import distributed
    rates = {"--jobs 1": games_per_second(options.rules, options.n, options.repeat, "--jobs", "1"),
             "--jobs 2": games_per_second(options.rules, options.n, options.repeat, "--jobs", "2"),
             "--cluster local:2 (started for the run)":
                 games_per_second(options.rules, options.n, options.repeat, "--cluster", "local:2")}
    game, _, _ = load_game(options.rules)
    with parallel.Pool(1, options.rules, [], game.num_players) as pool:
        pool.wait_ready()
        jobs_worker = resident_mib(pool.workers[0].process.pid)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address="127.0.0.1:0") as local:
        rates["--cluster tcp://... (2 workers already running)"] = games_per_second(
            options.rules, options.n, options.repeat, "--cluster", local.scheduler_address)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address="127.0.0.1:0") as local, \
            distributed.Client(local) as client:
        before = max(client.run(resident_mib).values())
        pool = cluster.ClusterPool(client, cluster.source_of(game, options.rules, []))
        after = next(pool.map_ordered(worker_resident_mib, game.num_players, [()]))
    print(f"{Path(options.rules).name}, {options.n} games, best of {options.repeat}:")
    for mode, rate in rates.items():
        print(f"  {mode:50} {rate:8.0f} games/s")
    print(f"  this process (the game compiled)                   {resident_mib():8.1f} MiB resident")
    print(f"  a --jobs worker (the game compiled)                {jobs_worker:8.1f} MiB resident")
    print(f"  a Dask worker, before / after compiling the game   {before:8.1f} / {after:.1f} MiB resident")


if __name__ == "__main__":
    main_()
