"""Dynamic checks of a rules file: play many random games, watch for broken invariants, dead
ends, runtime errors and endless games, and shrink each failure to a short replayable list of
moves.

Random games are driven by a seeded list of choice numbers (the k-th picks
legal[k % len(legal)]). Shrinking works on the move names that were played: it drops chunks,
as delta debugging does, and keeps a candidate only if it still replays and fails the same way.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Optional

import attrs

from ..runtime import random_source
from ..runtime.errors import RulesRuntimeError
from .leaks import find_leak

SHRINK_BUDGET = 1500      # replays at most, per failure


@attrs.define
class Failure:
    kind: str             # invariant, runtime-error, dead-end, endless, conservation, duplicate-moves, leak
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
    first (every component in play in exactly one zone, a destroyed one in none; legal move names unique), then the game's
    declared invariants."""
    seen = Counter()
    for key, items in state.zones.items():
        for item in items:
            seen[item] += 1
            if state.loc[item] != key:
                return "conservation", f"component {item} lies in {key} but is recorded in {state.loc[item]}"
    geometries = state.game.geometries
    existing = {eid for type_name, eids in state.by_type.items() if type_name not in geometries for eid in eids}
    components = [eid for eid, entity in enumerate(state.entities) if entity["__type__"] not in geometries]
    for eid in components:
        if seen[eid] != (eid in existing):          # (a destroyed component is in no zone)
            return "conservation", f"component {eid} ({state.entities[eid]['__label__']}) is in {seen[eid]} zones"
    if not state.is_terminal():
        names = [m.name for m in state.legal_moves()]
        if len(names) != len(set(names)):
            twice = [n for n, k in Counter(names).items() if k > 1]
            return "duplicate-moves", f"two legal moves share the name {twice[0]!r}"
    if state.is_terminal():
        state.scores()          # the end must be scorable: an error here is the game's (located)
        state.returns()
    broken = state.broken_invariants()
    if broken:
        return "invariant", f"{broken[0]}: the invariant does not hold"
    return None


def failure_kind(error) -> str:
    name = type(error).__name__
    return {"DeadEnd": "dead-end", "SameNamedMoves": "duplicate-moves"}.get(name, "runtime-error")


LEAK_EVERY = 6        # moves between two leak probes (one seat each time, in turn)


def leak_problem(state, seats=None, move=None, flows=False) -> Optional[tuple]:
    """("leak", message) if a seat (of `seats`, default all) is shown something that depends on
    what it may not see, now or after `move` (a name); the twin states are drawn from the seed
    and the number of moves. What the probes run is not counted in the rule coverage."""
    coverage = state.game.coverage
    counted = list(coverage.counts) if coverage is not None else None
    try:
        for seat in seats or range(1, state.game.num_players + 1):
            rng = random_source.seed_state(state.seed * 1_000_003 + len(state.history) * 101 + seat)
            message = find_leak(state, seat, rng, move, flows)
            if message:
                return "leak", message
        return None
    finally:
        if counted is not None:
            coverage.counts[:] = counted


def run(game, seed, max_moves=10_000, leaks=True):
    """Play one random game (choices drawn from a source seeded by `seed`), probing for leaks
    every LEAK_EVERY moves (unless `leaks` is false; with leaks="flows", also what the probed
    move carries from hidden to shown: see leaks.find_leak).
    Returns (failure or None, number of moves, state)."""
    used = 0
    policy = random_source.seed_state(seed * 31 + 7)
    state = None
    playing = []          # the move being played: a move that fails is undone, but it led there

    def fail(kind, message):
        return Failure(kind, message, seed, game.num_players, (list(state.history) if state else []) + playing)

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
            playing = [moves[pick].name]
            if leaks and (used + seed) % LEAK_EVERY == 0:
                # the probed moves and seats vary with the seed
                problem = leak_problem(state, [1 + ((used + seed) // LEAK_EVERY) % game.num_players],
                                       playing[0], leaks == "flows")
                if problem:
                    return fail(*problem), used, state
            state.apply(moves[pick])
            playing = []
            problem = state_problem(state)
            if problem:
                return fail(*problem), used, state
    except RulesRuntimeError as error:
        kind = failure_kind(error)
        message = str(error)
        return fail(kind, message), used, state
    return None, used, state


def replay_names(game, seed, names, leaks=False, flows=False):
    """Replay moves by name; the failure they lead to, or None (also None when a name is not
    legal where it stands: such a candidate does not reproduce anything). With `leaks` (true,
    or a list of seats), the state the moves lead to is probed for leaks too, and with `flows`
    what the last move carries from hidden to shown."""
    state = None
    playing = []
    try:
        state = game.new_initial_state(seed)
        problem = state_problem(state)
        for number, name in enumerate(names, start=1):
            if problem:
                break
            if state.is_terminal() or name not in state.legal_move_names():
                return None
            playing = [name]
            if leaks and number == len(names):
                # what the seats see of the last move (and, with flows, what it carries)
                problem = leak_problem(state, leaks if isinstance(leaks, list) else None, name, flows)
                if problem:
                    return Failure(*problem, seed, game.num_players, list(state.history) + playing)
            state.apply(name)
            playing = []
            problem = state_problem(state)
    except RulesRuntimeError as error:
        kind = failure_kind(error)
        return Failure(kind, str(error), seed, game.num_players, (list(state.history) if state else []) + playing)
    if not problem and leaks:
        problem = leak_problem(state, leaks if isinstance(leaks, list) else None)
    if problem:
        return Failure(*problem, seed, game.num_players, list(state.history))
    return None


def leak_seats(failure):
    """The seat a leak was found for (a list of one), or False for other failures."""
    found = re.search(r"\bP(\d+)'s ", failure.message) if failure.kind == "leak" else None
    return [int(found.group(1))] if found else False


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
                found = replay_names(game, failure.seed, candidate, leaks=leak_seats(failure),
                                     flows=" played, " in failure.message)
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


def outcome(game, seed, max_moves=10_000, leaks=True) -> tuple:
    """What one random game contributes to a report: (failure or None, number of moves).
    Small and picklable, so that worker processes can play the games (see parallel.py)."""
    failure, used, _ = run(game, seed, max_moves=max_moves, leaks=leaks)
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


def verify(game, games=100, seed=0, max_moves=10_000, shrink_failures=True, leaks=True, on_game=None,
           native=None) -> Report:
    """Play `games` random games (seeds seed, seed+1, ...); keep the first failure of each kind,
    shrunk. Every game is played: a report never stops early. on_game() is called after each
    game (a progress line). native: the game's native/verify_games.VerifyKernel, which plays
    the games natively (those it does not pass clean are played here: the same outcomes)."""
    if game.coverage is not None:
        game.coverage.reset()

    def played():
        if native is not None:
            for found in native.outcomes(range(seed, seed + games), max_moves,
                                         lambda s: outcome(game, s, max_moves, leaks)):
                yield found
                if on_game is not None:
                    on_game()
            return
        for i in range(games):
            yield outcome(game, seed + i, max_moves, leaks)
            if on_game is not None:
                on_game()
    report = collect(played())
    if game.coverage is not None:
        report.coverage = game.coverage.take()     # before shrinking, which plays more
    if shrink_failures:
        report.failures = [shrink(game, failure) for failure in report.failures]
    return report
