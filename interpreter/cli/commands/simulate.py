"""`referee simulate` and `referee bench`: many games of random bots summarised, and random
playouts timed."""
from __future__ import annotations

import json
import shlex
import time

from ...play import simulate
from ...tools import coverage
from ..common import describe, load, log_folder, param_text, print_json, print_summary
from ..errors import CANNOT_WRITE, OK, RUNTIME, CliError
from ..progress import Progress, Ticking, wanted
from ..workers import jobs_of, native_kernel, simulated_games, worker_pool


def cmd_simulate(args) -> int:
    game = load(args.file, args.option, args.players, args.coverage, args.param, chance=args.chance)
    n, base, players = args.n, args.seed, game.num_players
    if args.log:
        log_folder(args.log)
    wins = [0] * players
    score_sums = [0.0] * players
    return_sums = [0.0] * players
    lengths = []
    draws = shared = team_wins = lost = finished = unfinished = errors = 0
    by_team: dict = {}                  # team label -> the games its members won together
    first_error = None
    counted = None
    progress = Progress(n, "simulating", enabled=wanted(args))
    started = time.perf_counter()
    games = simulated_games(args, game, min(jobs_of(args), n), progress)
    try:
        for record in games:
            seed, error = record["seed"], record["error"]
            counted = coverage.add(counted, record["coverage"])
            if error is not None:
                errors += 1
                if first_error is None:
                    first_error = {"seed": seed, "message": error, "moves": record["moves"]}
            elif record["finished"]:
                finished += 1
                lengths.append(record["length"])
                if record["outcome"] == "lost":
                    lost += 1
                elif not record["winners"]:
                    draws += 1
                elif record["outcome"] == "team":
                    team_wins += 1
                    by_team[record["team"]] = by_team.get(record["team"], 0) + 1
                elif len(record["winners"]) > 1:
                    shared += 1
                for p, value in enumerate(record["returns"]):
                    return_sums[p] += value
                for p in record["winners"]:
                    wins[p - 1] += 1
                for p, value in enumerate(record["scores"]):
                    score_sums[p] += value
            else:
                unfinished += 1
            if record["log_error"]:
                raise CliError(record["log_error"], CANNOT_WRITE)
            if record["log"] and first_error is not None and first_error["seed"] == seed:
                first_error["log"] = record["log"]
    finally:
        games.close()                   # stops the workers, if any
        progress.close()
    seconds = time.perf_counter() - started
    summary = {
        "rules": args.file, "players": players, "options": sorted(game.options),
        "params": game.typed_param_values(), "seed": base,
        "games": n, "finished": finished, "unfinished": unfinished, "runtime_errors": errors,
        "max_moves": args.max_moves,
        "wins": {str(p): wins[p - 1] for p in range(1, players + 1)}, "draws": draws,
        "shared_wins": shared,
        # (a game with teams: the wins of a whole team; a game that may end lost: those lost by all)
        **({"team_wins": team_wins, "wins_by_team": dict(sorted(by_team.items()))} if game.teams is not None else {}),
        **({"lost": lost} if game.may_lose else {}),
        "length": ({"mean": round(sum(lengths) / len(lengths), 2), "min": min(lengths), "max": max(lengths)}
                   if lengths else None),
        "mean_scores": ({str(p): round(score_sums[p - 1] / finished, 3) for p in range(1, players + 1)}
                        if finished else None),
        # with `returns` declared: each seat's mean payoff over the finished games
        "mean_returns": ({str(p): round(return_sums[p - 1] / finished, 3) for p in range(1, players + 1)}
                         if finished and game.declared_returns is not None else None),
        "first_error": first_error,
        "seconds": round(seconds, 3),
    }
    if first_error is not None:
        first_error["replay"] = replay_command(args, game, first_error["seed"])
    if args.coverage:
        summary["coverage"] = coverage.report(game.coverage, counted, n, invariants=False)
    lines = summary_lines(summary, game)
    if args.coverage:
        lines += ["", *coverage.render(summary["coverage"])]
    print_summary(args, summary, lines)
    return RUNTIME if errors else OK


def replay_command(args, game, seed) -> str:
    parts = ["referee", "play", args.file, "--players", str(game.num_players), "--seed", str(seed),
             "--bot", "all=random", "--brief"]
    for option in sorted(game.options):
        parts += ["--option", option]
    for name, value in game.given_params.items():
        parts += ["--param", shlex.quote(f"{name}={param_text(value)}")]     # (a text may hold spaces)
    return " ".join(parts)


def team_shares(s, share) -> str:
    """Each team's wins, after the count of team wins: ': red 3 (10%), blue 5 (17%)'."""
    teams = s.get("wins_by_team")
    return ": " + ", ".join(f"{team} {share(count)}" for team, count in teams.items()) if teams else ""


def summary_lines(s, game) -> list:
    lines = [f"{describe(game)} · {s['games']} games (seeds {s['seed']}..{s['seed'] + s['games'] - 1}) "
             f"in {s['seconds']:.2f} s"]
    parts = [f"finished {s['finished']}"]
    if s["unfinished"]:
        parts.append(f"unfinished {s['unfinished']} (stopped at --max-moves {s['max_moves']})")
    parts.append(f"runtime errors {s['runtime_errors']}")
    lines.append(" · ".join(parts))
    finished = s["finished"]

    def share(count):
        return f"{count} ({100 * count / finished:.0f}%)" if finished else str(count)
    lines.append("wins: " + " · ".join(f"P{p} {share(c)}" for p, c in s["wins"].items())
                 + f" · draws {share(s['draws'])} · shared wins {share(s['shared_wins'])}"
                 + (f" · team wins {share(s['team_wins'])}{team_shares(s, share)}" if "team_wins" in s else "")
                 + (f" · lost by all {share(s['lost'])}" if "lost" in s else ""))
    if s["length"]:
        length = s["length"]
        lines.append(f"length in moves: mean {length['mean']:.1f} · min {length['min']} · max {length['max']}")
    if s["mean_scores"]:
        lines.append("mean scores: " + " · ".join(f"P{p} {v:g}" for p, v in s["mean_scores"].items()))
    if s["mean_returns"]:
        lines.append("mean returns: " + " · ".join(f"P{p} {v:g}" for p, v in s["mean_returns"].items()))
    error = s["first_error"]
    if error:
        lines.append(f"first runtime error: seed {error['seed']}, at move {len(error['moves'])}:")
        lines.extend("  " + line for line in error["message"].splitlines())
        lines.append(f"  moves: {json.dumps(error['moves'])}")
        if error.get("log"):
            lines.append(f"  log: {error['log']} (referee replay {error['log']})")
        lines.append(f"  to watch it: {error['replay']}")
    return lines


def native_start(kernel) -> str:
    """bench's line on the kernel's start (not counted in its playouts/s)."""
    how = "loaded from the cache" if kernel.from_cache else "compiled"
    whole = f"; {kernel.start_seconds:.2f} s with Numba's import" if kernel.start_seconds is not None else ""
    return f"native kernel {how} in {kernel.compile_seconds:.2f} s{whole} (not counted)"


def cmd_bench(args) -> int:
    from ...play import parallel
    game = load(args.file, args.option, args.players, args.coverage, args.param, chance=args.chance)
    jobs = jobs_of(args)
    kernel = native_kernel(args, game, [args.seed])
    compiled = None
    if kernel is not None:
        compiled = kernel.compile()
        with Ticking(args.seconds, "benchmarking", enabled=wanted(args)):
            parts = [kernel.bench(args.seed, args.seconds, args.max_moves,
                                  lambda seed: simulate.simulate_game(game, seed, args.max_moves))]
        jobs = 1
    elif jobs <= 1:
        with Ticking(args.seconds, "benchmarking", enabled=wanted(args)):
            parts = [simulate.bench_playouts(game, args.seed, 1, args.seconds, args.max_moves)]
    else:
        # N workers, each with its own seeds (S+j, S+j+N, ...), all started at once, once
        # every one has loaded the game; the figures are their sums over the time budget
        with worker_pool(jobs, args, game) as pool:
            pool.wait_ready()
            tasks = [pool.submit(parallel.bench_task, game.num_players, args.seed + j, jobs, args.seconds,
                                 args.max_moves) for j in range(jobs)]
            with Ticking(args.seconds, "benchmarking", enabled=wanted(args)):
                parts = [pool.take(task) for task in tasks]
    failed = [part["error"] for part in parts if part["error"] is not None]
    if failed:
        seed, text = min(failed)
        raise CliError(f"{text}\n(in the playout of seed {seed}; see 'referee simulate {args.file} -n 1 --seed {seed}')",
                       RUNTIME)
    playouts = sum(part["playouts"] for part in parts)
    moves = sum(part["moves"] for part in parts)
    elapsed = max(part["seconds"] for part in parts)
    result = {
        "rules": args.file, "players": game.num_players, "options": sorted(game.options),
        "params": game.typed_param_values(), "jobs": jobs, "max_moves": args.max_moves, "seconds": round(elapsed, 3), "playouts": playouts, "moves": moves,
        "playouts_per_second": round(playouts / elapsed, 2),
        "moves_per_second": round(moves / elapsed, 1),
        "mean_moves_per_game": round(moves / playouts, 2) if playouts else None,
        "coverage": args.coverage,
        "engine": "native" if kernel is not None else "python",
        **({"compile_seconds": round(compiled, 3), "kernel_from_cache": kernel.from_cache,
            "native_start_seconds": round(kernel.start_seconds or compiled, 3)} if compiled is not None else {}),
    }
    if args.json:
        print_json(result)
    else:
        workers = (f" · {jobs} worker processes" if jobs > 1 else "") + (" · counting rule coverage" if args.coverage else "")
        mean = result["mean_moves_per_game"]
        args.console.report([f"{describe(game)} · random playouts for {elapsed:.2f} s{workers}",
                             *([native_start(kernel)] if compiled is not None else []),
                             f"playouts: {playouts} ({result['playouts_per_second']:.1f}/s)",
                             f"moves: {moves} ({result['moves_per_second']:.0f}/s)",
                             f"mean moves per game: {mean:.1f}" if mean is not None else
                             "mean moves per game: n/a (no playout finished in time)"])
    return OK
