"""`referee verify`: random games at every player count, their failures shrunk and reported."""
from __future__ import annotations

from ...tools import coverage
from ...tools.gamelog import write_log
from ...tools.verify import verify
from ..common import describe, load, log_folder, print_json
from ..errors import CANNOT_WRITE, ERRORS, OK, CliError
from ..progress import Progress, wanted
from ..workers import jobs_of, played_here, task_pool


def cmd_verify(args) -> int:
    """Play random games at every player count asked for; report broken invariants, dead ends,
    runtime errors and endless games, each shrunk to a short replayable list of moves."""
    from ...play import parallel
    probe = load(args.file, args.option, args.players, params=args.param, chance=args.chance)
    low, high = probe.player_range
    counts = [args.players] if args.players else list(range(low, high + 1))
    jobs = min(jobs_of(args, workers_write_logs=False), args.n * len(counts))     # this process writes them
    progress = Progress(args.n * len(counts), "verifying", enabled=wanted(args))
    played = 0

    def counted(more):
        nonlocal played
        played += more
        progress.update(played)
    loaded = {count: load(args.file, args.option, count, args.coverage, args.param, chance=args.chance) for count in counts}
    kernels = verify_kernels(args, loaded)
    try:
        if kernels:
            reports = {count: verify(loaded[count], games=args.n, seed=args.seed, max_moves=args.max_moves,
                                     leaks=args.leaks, on_game=lambda: counted(1), native=kernels.get(count))
                       for count in counts}
        elif not played_here(args, jobs):
            # the games of every count are played by the workers (or the cluster's); the reports are the same
            with task_pool(jobs, args, probe, counts[0]) as pool:
                reports = parallel.verify_reports(pool, jobs, counts, args.n, args.seed, args.max_moves,
                                                  leaks=args.leaks, on_games=counted)
        else:
            reports = {count: verify(loaded[count], games=args.n, seed=args.seed, max_moves=args.max_moves,
                                     leaks=args.leaks, on_game=lambda: counted(1)) for count in counts}
    finally:
        progress.close()
    results = []
    failed = False
    for count in counts:
        game, report = loaded[count], reports[count]
        results.append((game, report))
        for number, failure in enumerate(report.failures, start=1):
            failed = True
            if args.log:
                path = log_folder(args.log) / f"failure-{count}p-{failure.kind}-{number}.json"
                state = game.new_initial_state(failure.seed)
                try:
                    write_log(path, game, state, args.file, moves=failure.moves, seed=failure.seed)
                except OSError as error:
                    raise CliError(f"referee: cannot write the log {path}: {error.strerror or error}", CANNOT_WRITE)
                failure.log = str(path)
    covered = verify_coverage(results) if args.coverage else None
    if args.json:
        print_json({"rules": args.file, "options": sorted(args.option or []),
                    "params": probe.typed_param_values(), "results": [
            {"players": game.num_players, **report.to_json(),
             "logs": [f.log for f in report.failures]} for game, report in results],
            **({"coverage": covered} if covered is not None else {})})
        return ERRORS if failed else OK
    args.console.report(verify_lines(results, covered))
    return ERRORS if failed else OK


def verify_kernels(args, loaded) -> dict:
    """{player count: its VerifyKernel} for the counts that verify natively (--engine native or
    auto); for the others, a one-line note on stderr saying why not."""
    if args.engine == "python":
        return {}
    from ...native.engine_choice import native_verify
    from ...native.verify_games import LARGEST_SEED, seeds_fit
    from ...play.bots import hidden_information
    kernels = {}
    for count, game in loaded.items():
        hidden = hidden_information(game) if args.leaks else None
        why = ("--coverage counts the rules' coverage" if args.coverage else
               f"leaks are probed in Python, and {hidden} (--no-leaks verifies natively)" if hidden else
               f"the seeds are beyond {LARGEST_SEED}" if not seeds_fit([args.seed, args.seed + args.n - 1]) else None)
        kernel, note = native_verify(game, args.engine, why)
        if note is not None:
            args.errors.error(f"{note} ({count} players)" if len(loaded) > 1 else note)
        if kernel is not None:
            kernels[count] = kernel
    return kernels


def verify_lines(results, covered) -> list:
    """verify's report: per player count, its games and each failure with its moves; the
    coverage after."""
    lines = []
    for game, report in results:
        status = "ok" if not report.failures else f"{len(report.failures)} problem(s)"
        lines.append(f"{describe(game)}: {report.games} games, {report.finished} finished, "
                     f"{report.moves} moves, invariants {len(game.invariants)}: {status}")
        for failure in report.failures:
            lines.append(f"  {failure.kind}: {failure.message}")
            lines.append(f"    seed {failure.seed}, {len(failure.moves)} move(s) after shrinking:")
            lines.extend(f"      {number:3d}. {name}" for number, name in enumerate(failure.moves[:40], start=1))
            if len(failure.moves) > 40:
                lines.append(f"      ... {len(failure.moves) - 40} more")
            if failure.log:
                lines.append(f"    replay it: referee replay {failure.log}")
    if covered is not None:
        lines += ["", *coverage.render(covered)]
    return lines


def verify_coverage(results) -> dict:
    """The coverage of verify's games, at every player count played, added up (each count's
    game has the same places: they come from the same rules)."""
    first = results[0][0].coverage
    total = None
    for game, report in results:
        if game.coverage.signature() != first.signature():
            raise AssertionError("the player counts of a game compiled to different coverage places")
        total = coverage.add(total, report.coverage)
    return coverage.report(first, total, sum(report.games for _, report in results))
