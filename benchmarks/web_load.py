"""Load on one web table server: many tables played at once by scripted humans and by bots.

    python benchmarks/web_load.py                    # 50 tables, the figures of benchmarks/README.md
    python benchmarks/web_load.py --tables 200 --json

Starts `referee serve --lobby --tables 0 --port 0 --log-dir TMP` on 127.0.0.1 (a process of its
own), starts the tables through the lobby's JSON interface (a mix: tic-tac-toe between two
humans and against a random bot, Kuhn poker against a random bot, Love Letter between two
humans), and plays every human seat from this process with asyncio and httpx: each waits for
its turn (state.json?after=V, the long poll), then posts a random legal move with the version it
saw. Every move posted is timed from the request to the answer (the server applies it, writes
the log, and answers the seat's new view). At the end every table's log (written as `play
--log` writes it) must hold a finished game, and every move a human had accepted at the place
its answer gave it: no move lost. Traffic goes to 127.0.0.1 only; the run is bounded in moves
per game and in time (--seconds), and stops the server itself.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
# (game, its bots): the tables are started in this order, again and again
MIX = [("tic-tac-toe", {}), ("tic-tac-toe", {"2": "random"}), ("kuhn-poker", {"2": "random"}), ("love-letter", {})]
# the suite's mix (tests/test_web_load.py): the same 50 tables at once, shorter games
SHORT_MIX = [("tic-tac-toe", {}), ("tic-tac-toe", {"2": "random"}), ("kuhn-poker", {"2": "random"}), ("kuhn-poker", {})]
MOST_MOVES = 600            # per seat and game: a bound, far over any game of the mix


def start_server(log_dir: str, mix):
    """`referee serve` with a lobby offering the games of the mix: (process, lobby URL)."""
    games = sorted({f"games/{name}.rules" for name, _ in mix})
    process = subprocess.Popen([sys.executable, "-m", "referee", "serve", *games, "--lobby", "--tables", "0",
                                "--host", "127.0.0.1", "--port", "0", "--log-dir", log_dir],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    line = process.stdout.readline().strip()
    if not line.startswith("lobby: http://127.0.0.1:"):
        process.kill()
        raise RuntimeError(f"the server did not start: {line!r}")
    return process, line.split(" ", 1)[1]


async def human(client, url, seat, rng, accepted, latencies, deadline):
    """Play one seat to the end of its game: wait for its turn, post a random legal move."""
    state = (await client.get(url + "/state.json")).raise_for_status().json()
    for _ in range(MOST_MOVES * 4):
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url}: the game did not end in time")
        if state["finished"]:
            return
        if state["to_move"] != seat:        # wait for a change (another seat's move, a bot's)
            params = {"after": state["version"], "wait": 5}
            state = (await client.get(url + "/state.json", params=params)).raise_for_status().json()
            continue
        move = rng.choice(state["legal"])
        started = time.perf_counter()
        response = await client.post(url + "/move", json={"move": move, "after": state["version"]})
        latencies.append(time.perf_counter() - started)
        if response.status_code != 200:
            raise AssertionError(f"{url}: {move!r} refused: {response.text}")
        state = response.json()          # the seat's view after its move: its turn again, maybe
        accepted.append((move, state["version"]))
    raise AssertionError(f"{url}: over {MOST_MOVES} moves")


async def play(lobby: str, tables: int, seconds: float, seed: int, mix=MIX) -> dict:
    deadline = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=4 * tables + 10, max_keepalive_connections=4 * tables + 10)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        started = []
        for k in range(tables):
            game, bots = mix[k % len(mix)]
            answer = await client.post(lobby + "/tables", json={"game": game, "bots": bots})
            started.append((game, answer.raise_for_status().json()))
        latencies, accepted = [], {}
        players = []
        began = time.perf_counter()
        for k, (game, made) in enumerate(started):
            for seat, url in made["seats"].items():
                mine = accepted.setdefault(made["table"], [])
                players.append(human(client, url, int(seat), random.Random(seed * 1000 + k * 10 + int(seat)),
                                     mine, latencies, deadline))
        await asyncio.gather(*players)
        wall = time.perf_counter() - began
    return {"tables": [(game, made["table"]) for game, made in started], "accepted": accepted,
            "latencies": latencies, "seconds": wall}


def checked(played: dict, log_dir: str) -> dict:
    """Every game finished and every accepted move in its log, where its answer placed it."""
    moves = human_moves = 0
    for game, name in played["tables"]:
        log = json.loads((Path(log_dir) / f"{name}.json").read_text())
        if not log["result"]["terminal"]:
            raise AssertionError(f"{name}: the game is unfinished in its log")
        for move, version in played["accepted"].get(name, []):
            if log["moves"][version - 1] != move:
                raise AssertionError(f"{name}: the move {move!r} is not in the log where it was played")
        moves += len(log["moves"])
        human_moves += len(played["accepted"].get(name, []))
    latencies = sorted(played["latencies"])
    p99 = latencies[min(len(latencies) - 1, int(round(0.99 * (len(latencies) - 1))))]
    return {"tables": len(played["tables"]), "finished": len(played["tables"]), "moves": moves,
            "human_moves": human_moves, "bot_moves": moves - human_moves,
            "median_ms": round(statistics.median(latencies) * 1000, 2), "p99_ms": round(p99 * 1000, 2),
            "max_ms": round(latencies[-1] * 1000, 2), "seconds": round(played["seconds"], 2),
            "moves_per_second": round(moves / played["seconds"], 1)}


def run(tables: int = 50, seconds: float = 120.0, seed: int = 0, mix=MIX) -> dict:
    """Start a server, play `tables` tables of the mix on it, stop it: the figures
    (AssertionError when a game is unfinished or a move was lost, TimeoutError past `seconds`)."""
    with tempfile.TemporaryDirectory() as log_dir:
        process, lobby = start_server(log_dir, mix)
        try:
            played = asyncio.run(asyncio.wait_for(play(lobby, tables, seconds, seed, mix), seconds + 10))
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        return checked(played, log_dir)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables played at once (default 50)")
    parser.add_argument("--seconds", type=float, default=120.0, help="the run's bound in time (default 120)")
    parser.add_argument("--seed", type=int, default=0, help="the humans' random moves")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = run(args.tables, args.seconds, args.seed)
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    print(f"{figures['tables']} tables at once, all finished: {figures['moves']} moves "
          f"({figures['human_moves']} posted by humans, {figures['bot_moves']} by bots), none lost")
    print(f"a human's move, request to answer: median {figures['median_ms']} ms, "
          f"99th percentile {figures['p99_ms']} ms, max {figures['max_ms']} ms")
    print(f"{figures['seconds']} s, {figures['moves_per_second']} moves/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
