"""Dynamic checks of a rules file: play many random games, watch for broken invariants, dead
ends, runtime errors and endless games, and shrink each failure to a short replayable list of
moves.

Random games are driven by a seeded list of choice numbers (the k-th picks
legal[k % len(legal)]). Shrinking works on the move names that were played: it drops chunks,
as delta debugging does, and keeps a candidate only if it still replays and fails the same way.
"""
from __future__ import annotations

from collections import Counter
from typing import Optional

import attrs

from . import random_source
from .errors import RulesRuntimeError

SHRINK_BUDGET = 1500      # replays at most, per failure


@attrs.define
class Failure:
    kind: str             # invariant, runtime-error, dead-end, endless, conservation, duplicate-moves
    message: str
    seed: int
    players: int
    moves: list           # move names from the start, replayable with `seed`
    log: Optional[str] = None   # where a replayable log of it was written

    def key(self):
        # what makes two failures "the same" while shrinking
        return (self.kind, self.message.split(":")[0])

    def to_json(self):
        return {"kind": self.kind, "message": self.message, "seed": self.seed,
                "players": self.players, "moves": list(self.moves)}


def state_problem(state) -> Optional[tuple]:
    """(kind, message) for what is wrong with a state, or None. The engine's own promises come
    first (every component in exactly one zone; legal move names unique), then the game's
    declared invariants."""
    seen = Counter()
    for key, items in state.zones.items():
        for item in items:
            seen[item] += 1
            if state.loc[item] != key:
                return "conservation", f"component {item} lies in {key} but is recorded in {state.loc[item]}"
    components = [eid for eid, entity in enumerate(state.entities)
                  if entity["__type__"] not in state.game.geometries]
    for eid in components:
        if seen[eid] != 1:
            return "conservation", f"component {eid} ({state.entities[eid]['__label__']}) is in {seen[eid]} zones"
    if not state.is_terminal():
        names = [m.name for m in state.legal_moves()]
        if len(names) != len(set(names)):
            twice = [n for n, k in Counter(names).items() if k > 1]
            return "duplicate-moves", f"two legal moves share the name {twice[0]!r}"
    broken = state.broken_invariants()
    if broken:
        return "invariant", f"{broken[0]}: the invariant does not hold"
    return None


def run(game, seed, max_moves=10_000):
    """Play one random game (choices drawn from a source seeded by `seed`).
    Returns (failure or None, number of moves, state)."""
    used = 0
    policy = random_source.seed_state(seed * 31 + 7)
    state = None

    def fail(kind, message):
        return Failure(kind, message, seed, game.num_players, list(state.history) if state else [])

    try:
        state = game.new_initial_state(seed)
        problem = state_problem(state)
        if problem:
            return fail(*problem), used, state
        while not state.is_terminal():
            if used >= max_moves:
                return fail("endless", f"no end after {max_moves} moves"), used, state
            moves = state.legal_moves()
            pick, policy = random_source.below(policy, len(moves))
            used += 1
            state.apply(moves[pick])
            problem = state_problem(state)
            if problem:
                return fail(*problem), used, state
    except RulesRuntimeError as error:
        kind = "dead-end" if type(error).__name__ == "DeadEnd" else "runtime-error"
        message = str(error)
        return fail(kind, message), used, state
    return None, used, state


def replay_names(game, seed, names):
    """Replay moves by name; the failure they lead to, or None (also None when a name is not
    legal where it stands: such a candidate does not reproduce anything)."""
    state = None
    try:
        state = game.new_initial_state(seed)
        problem = state_problem(state)
        for name in names:
            if problem:
                break
            if state.is_terminal() or name not in state.legal_move_names():
                return None
            state.apply(name)
            problem = state_problem(state)
    except RulesRuntimeError as error:
        kind = "dead-end" if type(error).__name__ == "DeadEnd" else "runtime-error"
        return Failure(kind, str(error), seed, game.num_players, list(state.history) if state else [])
    if problem:
        return Failure(*problem, seed, game.num_players, list(state.history))
    return None


def shrink(game, failure: Failure, budget=SHRINK_BUDGET) -> Failure:
    """A failure of the same kind reached by as few moves as we can find: drop chunks of the
    move list (halves, quarters, ... single moves) while the rest still replays and fails."""
    if failure.kind == "endless":
        return failure
    best = failure
    tries = 0
    changed = True
    while changed and tries < budget:
        changed = False
        size = max(1, len(best.moves) // 2)
        while size >= 1 and tries < budget:
            start = 0
            while start < len(best.moves) and tries < budget:
                candidate = best.moves[:start] + best.moves[start + size:]
                tries += 1
                found = replay_names(game, failure.seed, candidate)
                if found is not None and found.key() == failure.key() and len(found.moves) < len(best.moves):
                    best = found
                    changed = True
                else:
                    start += size
            size //= 2
    return best


@attrs.define
class Report:
    games: int = 0
    finished: int = 0
    moves: int = 0
    failures: list = attrs.Factory(list)
    coverage: Optional[list] = None     # a game compiled with coverage: the counts of these games

    def to_json(self):
        return {"games": self.games, "finished": self.finished, "moves": self.moves,
                "failures": [f.to_json() for f in self.failures]}


def outcome(game, seed, max_moves=10_000) -> tuple:
    """What one random game contributes to a report: (failure or None, number of moves).
    Small and picklable, so that worker processes can play the games (see parallel.py)."""
    failure, used, _ = run(game, seed, max_moves=max_moves)
    return failure, used


def collect(outcomes) -> Report:
    """The report of outcomes given in seed order: counts, and the first failure of each kind
    (not shrunk yet)."""
    report = Report()
    kinds = set()
    for failure, used in outcomes:
        report.games += 1
        report.moves += used
        if failure is None:
            report.finished += 1
            continue
        if failure.key() in kinds:
            continue
        kinds.add(failure.key())
        report.failures.append(failure)
    return report


def verify(game, games=100, seed=0, max_moves=10_000, shrink_failures=True) -> Report:
    """Play `games` random games (seeds seed, seed+1, ...); keep the first failure of each kind,
    shrunk. Every game is played: a report never stops early."""
    if game.coverage is not None:
        game.coverage.reset()
    report = collect(outcome(game, seed + i, max_moves) for i in range(games))
    if game.coverage is not None:
        report.coverage = game.coverage.take()     # before shrinking, which plays more
    if shrink_failures:
        report.failures = [shrink(game, failure) for failure in report.failures]
    return report
