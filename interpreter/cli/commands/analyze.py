"""`referee analyze` and `referee tournament`: a balance report of games between bots, and bots
against each other, seats rotated. (analyze and tournament, which bring html, are imported
when these commands run: start-up.)"""
from __future__ import annotations

import argparse
import time

from ...play import simulate
from ...tools import coverage
from ..common import describe, load, print_summary, write_text
from ..errors import OK, RUNTIME, UNAVAILABLE, CliError, UsageError
from ..progress import Progress, wanted
from ..seats import note_ismcts_secrets, parse_bots, refuse_mcts_on_hidden_information, tournament_bots
from ..workers import jobs_of, native_rollouts, played_here, pooled_records, simulated_games


def analysis_bots(args, game) -> dict:
    """{seat: kind} of --bot: every seat a bot, random where no --bot names it."""
    kinds = {p: "random" for p in range(1, game.num_players + 1)}
    kinds.update(parse_bots(args.bot or [], game.num_players))
    if "human" in kinds.values():
        raise UsageError("argument --bot: analyze plays bots only: a seat cannot be human here")
    refuse_mcts_on_hidden_information(game, kinds)
    note_ismcts_secrets(args, game, kinds)
    return kinds


def analysed(args, game, kinds, label):
    """The analyze.Tally of args.n games of `game` (loaded from args.file) between `kinds`."""
    from ...tools import analyze
    tally = analyze.Tally(game.num_players, args.max_moves)
    progress = Progress(args.n, label, enabled=wanted(args))
    games = simulated_games(args, game, min(jobs_of(args), args.n), progress, kinds, details=True)
    try:
        for record in games:
            tally.add(record)
    finally:
        games.close()                   # stops the workers, if any
        progress.close()
    return tally


def cmd_analyze(args) -> int:
    """A balance report of N games between bots: seats' win rates, draws, lengths, branching,
    actions, scores, endless games and errors; with --against, what changed from a base file."""
    from ...tools import analyze
    game = load(args.file, args.option, args.players, args.coverage, args.param, chance=args.chance)
    kinds = analysis_bots(args, game)
    base = load(args.against, args.option, game.num_players, params=args.param, chance=args.chance) if args.against else None
    if args.html:
        try:
            analyze.pyplot()             # before the games, not after them
        except analyze.NoMatplotlib as missing:
            raise CliError(f"referee: {missing}", UNAVAILABLE)
    started = time.perf_counter()
    tally = analysed(args, game, kinds, "analysing")
    bots = {str(p): kind for p, kind in kinds.items()}
    report = {"rules": args.file, "title": game.title or "game", "players": game.num_players,
              "options": sorted(game.options), "params": game.typed_param_values(), "bots": bots,
              "seed": args.seed, "games": args.n, "max_moves": args.max_moves,
              "description": f"{describe(game)} · {args.n} games (seeds {args.seed}..{args.seed + args.n - 1}) · "
                             + " · ".join(f"P{p}: {kind}" for p, kind in bots.items()),
              "figures": tally.figures()}
    base_tally = None
    if base is not None:
        base_args = argparse.Namespace(**{**vars(args), "file": args.against, "coverage": False})
        base_tally = analysed(base_args, base, kinds, "analysing the base")
        report["against"] = {"rules": args.against, "title": base.title or "game", "figures": base_tally.figures(),
                             "changes": analyze.compare(tally, base_tally)}
    if args.coverage:
        report["coverage"] = coverage.report(game.coverage, tally.coverage, args.n, invariants=False)
    report["seconds"] = round(time.perf_counter() - started, 3)
    if args.html:
        scores = {"this file": tally.scores, **({"base": base_tally.scores} if base_tally else {})}
        write_text(args.html, analyze.html_report(report, scores))
    lines = analysis_lines(report) + ([f"\nreport written to {args.html}"] if args.html else [])
    print_summary(args, report, lines)
    return RUNTIME if report["figures"]["errors"]["count"] else OK


def analysis_lines(report) -> list:
    from ...tools import analyze
    lines = [f"{report['description']} · {report['seconds']:.2f} s", *analyze.text_lines(report["figures"])]
    against = report.get("against")
    if against:
        lines += ["", f"base: {against['rules']} · the same bots, seeds and --max-moves",
                  *analyze.text_lines(against["figures"]),
                  "", f"changes from {against['rules']} to {report['rules']}:",
                  *analyze.comparison_lines(against["changes"])]
    if report.get("coverage"):
        lines += ["", *coverage.render(report["coverage"])]
    return lines


def tournament_rollouts(args, game, specs) -> bool:
    """Whether the search bots' playouts are native (--engine; a one-line note when it was asked
    and they cannot be, or when no bot searches)."""
    from ...play.bots import searches
    if any(searches(spec) for spec in specs):
        return native_rollouts(args, game)
    if args.engine != "python":
        args.errors.error("referee: playing in Python, not natively: no bot of this tournament searches "
                          "(natively, a tournament plays the mcts and ismcts bots' playouts)")
    return False


def tournament_records(args, game, games, jobs, progress, rollouts=False):
    """The records of simulate_game of `games` ((seed, {seat: kind}) pairs), in their order:
    played here with one job, else by worker processes (rollouts: the search bots' playouts
    are native)."""
    from ...play import parallel
    if played_here(args, jobs):
        for i, (seed, kinds) in enumerate(games):
            yield simulate.simulate_game(game, seed, args.max_moves, bots=kinds, native_rollouts=rollouts)
            progress.update(i + 1)
        return
    yield from pooled_records(args, game, jobs, progress, parallel.tournament_chunk,
                              [(part, args.max_moves, rollouts) for part in parallel.chunks(games, jobs)])


def cmd_tournament(args) -> int:
    """Bots against each other, seats rotated: per bot its results, win rate and rating, and
    a pairwise table."""
    from ...play import tournament
    game = load(args.file, args.option, args.players, params=args.param, chance=args.chance)
    specs = tournament_bots(args.bot)
    refuse_mcts_on_hidden_information(game, dict(enumerate(specs)))
    note_ismcts_secrets(args, game, dict(enumerate(specs)))
    labels = tournament.labels_of(specs)
    count = tournament.seating_count(len(specs), game.num_players)
    if count > tournament.MOST_SEATINGS:
        raise UsageError(f"argument --bot: {len(specs)} bots in {game.num_players} seats make {count} seatings, "
                         f"more than a tournament plays ({tournament.MOST_SEATINGS}): give fewer bots")
    seating_list = tournament.seatings(len(specs), game.num_players)
    plan = tournament.schedule(args.n, seating_list, args.seed)
    games = [(seed, {p: specs[bot] for p, bot in enumerate(seating, start=1)}) for seed, seating in plan]
    rollouts = tournament_rollouts(args, game, specs)          # (a compile is not the games' time)
    progress = Progress(len(games), "playing", enabled=wanted(args))
    started = time.perf_counter()
    records = tournament_records(args, game, games, min(jobs_of(args), len(games)), progress, rollouts)
    try:
        played = [(seed, seating, record) for (seed, seating), record in zip(plan, records)]
    finally:
        records.close()                 # stops the workers, if any
        progress.close()
    rounds = len(plan) // len(seating_list)
    report = {"rules": args.file, "title": game.title or "game", "players": game.num_players,
              "options": sorted(game.options), "params": game.typed_param_values(), "bots": labels,
              "seed": args.seed, "games": len(plan), "rounds": rounds,
              "seatings": [[labels[bot] for bot in seating] for seating in seating_list],
              "max_moves": args.max_moves,
              "description": f"{describe(game)} · {len(plan)} games: {rounds} rounds × {len(seating_list)} seatings "
                             f"(round r: seed {args.seed}+r in every seating)",
              "figures": tournament.figures(labels, played, args.seed),
              "results": [{"seed": seed, "seats": [labels[bot] for bot in seating], "winners": record["winners"],
                           "returns": record["returns"], "finished": record["finished"],
                           "error": record["error"] is not None}
                          for seed, seating, record in played]}
    report["seconds"] = round(time.perf_counter() - started, 3)
    report["description"] += f" · {report['seconds']:.2f} s"
    print_summary(args, report, tournament.text_lines(report))
    return RUNTIME if report["figures"]["errors"]["count"] else OK
