"""Games of bots played to their end, the one simulation core: `simulate`, `analyze`,
`tournament` and `bench` play through it, in this process or in the worker pools."""
from __future__ import annotations

import time
from pathlib import Path

from referee.dsl.diagnostics import Diagnostic

from ..runtime import CHANCE
from ..runtime.errors import IllegalMove, RulesRuntimeError
from ..tools.gamelog import json_scores, write_log
from ..tools.verify import failure_kind
from .bots import RandomBot, make_bot


def runtime_text(error, game=None) -> str:
    """'runtime error: <message>' and where in the rules file, with the source line."""
    message = error.message
    lines = [f"runtime error: {message}"]
    span = getattr(error, "span", None)
    if span is not None:
        source = game.sources.get(span.file) if game is not None else None
        rendered = Diagnostic("E700", message, span).render(source).splitlines()
        lines.append(f"  at {span}")
        lines.extend(line for line in rendered[1:] if not line.startswith("  help:"))
    return "\n".join(lines)


def seat_bots(kinds, seed, shared_random=None, rollouts=None) -> dict:
    """{seat: bot} for {seat: kind} (human seats left out): every random seat shares one
    generator seeded with the game's seed, so that the same seed plays the same game
    (rollouts: the search bots' native playouts, or None)."""
    shared_random = shared_random or RandomBot(seed)
    return {p: shared_random if kind == "random" else make_bot(kind, seed + p, rollouts)
            for p, kind in kinds.items() if kind != "human"}


def play_out(game, seed, max_moves, before_move=None, bots=None, native_rollouts=False):
    """One game of bots (`bots`: {seat: kind}, default all random): (state, moves, error text or
    None, error kind or None: verify's failure kinds). before_move(state, move) is called with
    each move chosen, before it is played. native_rollouts: the search bots play their
    playouts in the game's native kernel (the same moves, faster)."""
    kinds = bots or {p: "random" for p in range(1, game.num_players + 1)}
    rollouts = None
    if native_rollouts:
        from ..native.rollouts import rollouts_of
        rollouts = rollouts_of(game)
    shared = RandomBot(seed)
    players = seat_bots(kinds, seed, shared, rollouts=rollouts)
    players[CHANCE] = shared            # (explicit chance: its nodes sampled by the random seats' generator)
    moves = []
    state = None
    try:
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal() and len(moves) < max_moves:
            move = players[state.current_player()].choose(state)
            if before_move is not None:
                before_move(state, move)
            moves.append(move.name)
            state.apply(move)
    except RulesRuntimeError as error:
        return state, moves, runtime_text(error, game), failure_kind(error)
    except IllegalMove as error:          # a listed move refused: an engine inconsistency
        return state, moves, f"runtime error: a legal move was refused: {error.reason}", "illegal-move"
    return state, moves, None, None


def simulate_game(game, seed, max_moves, log_dir=None, rules_path=None, bots=None, details=False,
                  native_rollouts=False) -> dict:
    """Play one game of `simulate` (and write its log into log_dir): what the summary needs of
    it, small and picklable, so that a worker process can play it as well as this one. With
    coverage, its counts of the game's play (not of the scores or the log read after it).
    bots: {seat: kind} (default all random). details (for `analyze`): also the number of legal
    moves at each move ("branching") and the moves played per seat and action ("actions").
    native_rollouts: as play_out takes it."""
    if game.coverage is not None:
        game.coverage.reset()
    branching, actions = [], {}

    def count_move(state, move):
        branching.append(len(state.legal_moves()))
        per_seat = actions.setdefault(state.current_player(), {})
        name = game.actions[move.action].name if move.kind == "action" else f"({move.kind})"
        per_seat[name] = per_seat.get(name, 0) + 1
    state, moves, error, error_kind = play_out(game, seed, max_moves, count_move if details else None, bots,
                                                  native_rollouts)
    record = {"seed": seed, "error": error, "error_kind": error_kind, "moves": moves if error is not None else None,
              "length": len(moves), "finished": False, "winners": [], "scores": [],
              "outcome": None, "team": None, "returns": [],
              "log": None, "log_error": None,
              "coverage": game.coverage.take() if game.coverage is not None else None}
    if error is None and state.is_terminal():
        try:
            record.update(finished=True, winners=list(state.winners), scores=json_scores(state),
                          outcome=state.outcome(), team=state.winning_team(), returns=list(state.returns()))
        except RulesRuntimeError as failed:       # a score or a return that cannot be computed
            record.update(finished=False, error=runtime_text(failed, game), error_kind=failure_kind(failed),
                          moves=moves)
    if details:
        record.update(branching=branching, actions=actions)
    if log_dir and state is not None:
        path = Path(log_dir) / f"game-{seed}.json"
        try:
            write_log(path, game, state, rules_path, moves=moves, seed=seed)
            record["log"] = str(path)
        except OSError as error_:
            record["log_error"] = f"referee: cannot write the log {path}: {error_.strerror or error_}"
    return record


def bench_playouts(game, first_seed, stride, seconds, max_moves) -> dict:
    """Random playouts of seeds first_seed, first_seed + stride, ... for `seconds`, each stopped
    after max_moves: how many finished, how many moves were played, in how long, and the
    (seed, text) of a runtime error if one stopped them."""
    playouts = moves = 0
    seed = first_seed
    started = time.perf_counter()
    deadline = started + seconds
    while True:
        bot = RandomBot(seed)
        try:
            state = game.new_initial_state(seed=seed)
            count = 0
            while not state.is_terminal() and count < max_moves:
                state.apply(bot.choose(state))
                count += 1
                if not count & 63 and playouts and time.perf_counter() > deadline:
                    break           # (the first playout is played to its end: a figure needs one)
        except RulesRuntimeError as error:
            return {"playouts": playouts, "moves": moves, "seconds": time.perf_counter() - started,
                    "error": (seed, runtime_text(error, game))}
        moves += count
        if state.is_terminal():
            playouts += 1
        seed += stride
        if time.perf_counter() > deadline:
            break
    return {"playouts": playouts, "moves": moves, "seconds": time.perf_counter() - started, "error": None}
