"""A small generic harness for rule-by-rule scenario tests.

Nothing here knows a game: a test names its rules file, its component types, zones, variables
and moves. The harness loads a game once per (path, options, players), builds a position by
moving entities between zones and setting variables, then plays moves by their text names.

    sc = Scenario.new(path, players=2, seed=0)
    stone = sc.take("Card", ("draw", 1), label="stone house")
    sc.fill(("hand", 1), [stone], spill=("draw", 1))
    sc.set_var("round", 3)
    sc.play("build stone house on X 3")
    reason = sc.refuse("build ...", "burned")       # IllegalMove raised, state unchanged

Zone contents are lists, bottom first and top last (the engine's convention).
"""
from __future__ import annotations

import functools
import random
from fractions import Fraction
from pathlib import Path
from typing import Iterable, Optional

from referee.dsl.diagnostics import RulesError
from referee.interpreter.engine import load_game
from referee.interpreter.runtime import random_source
from referee.interpreter.runtime.errors import IllegalMove
from referee.interpreter.tools.leaks import find_leak

ROOT = Path(__file__).resolve().parents[1]
_UNSET = object()


@functools.lru_cache(maxsize=None)
def _load(path: str, options: tuple, players: Optional[int], params: tuple = ()):
    game, diagnostics, sources = load_game(path, options=options, players=players, params=dict(params))
    if game is None:
        raise RulesError(diagnostics, sources)
    return game


def load(path, options: Iterable[str] = (), players: Optional[int] = None, params: Optional[dict] = None):
    """The compiled game, loaded once per (path, options, players, params: {name: value} of
    typed params); a rules error raises RulesError with every diagnostic rendered."""
    return _load(str(Path(path).resolve()), tuple(sorted(options)), players, tuple(sorted((params or {}).items())))


def play_out(state, rng):
    """Play uniformly random legal moves (drawn from the `random.Random` rng) until the end;
    returns the finished state (the same object)."""
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_moves()))
    return state


def leaks_along_random_games(game, seeds: Iterable[int], moves: int, every: int) -> list:
    """What find_leak reports for each seat every `every` moves of random games (the first
    `moves` moves of each seed): [(seed, move number, seat, message)], empty when nothing leaks."""
    found = []
    for seed in seeds:
        state, rng = game.new_initial_state(seed), random.Random(seed)
        for step in range(moves):
            if state.is_terminal():
                break
            if step % every == 0:
                for seat in range(1, game.num_players + 1):
                    message = find_leak(state, seat, random_source.seed_state(seed * 10 + seat))
                    if message is not None:
                        found.append((seed, step, seat, message))
            state.apply(rng.choice(state.legal_moves()))
    return found


def planted(path, folder, old: str, new: str) -> Path:
    """A copy of a rules file, in `folder`, with the text `old` replaced by `new` (a leak
    planted, to check that the leak finder finds it)."""
    text = Path(path).read_text(encoding="utf-8")
    assert old in text
    copy = Path(folder) / "planted.rules"
    copy.write_text(text.replace(old, new), encoding="utf-8")
    return copy


def expected_returns(state, key=None, memo=None) -> tuple:
    """Each player's exact expected return (Fractions) from `state` when every player picks
    uniformly among the legal moves: the game tree walked through clones of the engine's
    states. Chance is the state's own (drawn from its seed), so arrange it first. With `key`
    (state -> hashable), positions with the same key are computed once (kept in `memo`)."""
    if state.is_terminal():
        return tuple(Fraction(r) for r in state.returns())
    memo = {} if memo is None else memo
    mark = key(state) if key is not None else None
    if mark is not None and mark in memo:
        return memo[mark]
    moves = state.legal_move_names()
    totals = [Fraction(0)] * state.game.num_players
    for move in moves:
        child = state.clone()
        child.apply(move)
        totals = [t + r for t, r in zip(totals, expected_returns(child, key, memo))]
    value = tuple(t / len(moves) for t in totals)
    if mark is not None:
        memo[mark] = value
    return value


def snapshot(s) -> tuple:
    """Everything a move may change, in a comparable form."""
    zones = {k: tuple(v) for k, v in s.zones.items() if v}
    return (zones, dict(s.vars), tuple(s.loc), s.current, s.pc, s.extra, s.terminal,
            tuple(s.winners), tuple(s.history), tuple(s.log), s.turn, s.rng, s.pending)


class Scenario:
    """A state plus helpers to arrange a position and check what moves do."""

    def __init__(self, state):
        self.s = state

    @classmethod
    def new(cls, path, options: Iterable[str] = (), players: Optional[int] = None, seed: int = 0):
        return cls(load(path, options, players).new_initial_state(seed=seed))

    # ---- reading ----
    @property
    def game(self):
        return self.s.game

    def zone(self, key) -> list:
        """The ids in a zone, bottom first (a copy)."""
        return list(self.s.zones.get(key, ()))

    def where(self, eid):
        """The key of the zone holding an entity (None if it is nowhere)."""
        return self.s.loc[eid]

    def attr(self, eid, name):
        return self.s.entities[eid].get(name)

    def label(self, eid) -> str:
        return self.s.entities[eid]["__label__"]

    def seen(self, seat: int, zone: str):
        """The labels seat sees in a zone: its items, or those a reveal showed it; None if nothing."""
        entry = self.s.view(seat)["zones"].get(zone, {})
        if "items" in entry:
            return [i["label"] for i in entry["items"]]
        if "shown" in entry:
            return [i["label"] for i in entry["shown"]]
        return None

    def labels(self, key) -> list:
        return [self.label(x) for x in self.zone(key)]

    def var(self, key, default=_UNSET):
        """A variable's value (key: "name" or ("name", index...)); one never set has its
        declared initial value unless `default` is given."""
        if default is _UNSET:
            name = key if isinstance(key, str) else key[0]
            default = self.game.var_defaults[name]
        return self.s.vars.get(key, default)

    def find(self, type_name: str, zone=_UNSET, label: Optional[str] = None, **attributes) -> list:
        """Ids of the entities of a type whose attributes match; with `zone`, only those in it
        (in the zone's order, bottom first)."""
        if zone is _UNSET:
            pool = self.s.by_type.get(type_name, ())
        else:
            pool = self.zone(zone)
        out = []
        for eid in pool:
            entity = self.s.entities[eid]
            if entity["__type__"] != type_name:
                continue
            if label is not None and entity["__label__"] != label:
                continue
            if all(entity.get(k) == v for k, v in attributes.items()):
                out.append(eid)
        return out

    def one(self, type_name: str, zone=_UNSET, label: Optional[str] = None, **attributes) -> int:
        """The single entity that matches (an error if none or several)."""
        found = self.find(type_name, zone, label, **attributes)
        assert len(found) == 1, f"expected one {type_name} {label or ''} {attributes}, found {len(found)}"
        return found[0]

    def take(self, type_name: str, zone, label: Optional[str] = None, n: Optional[int] = None,
             exclude: Iterable[int] = (), **attributes):
        """Matching entities from a zone, from the top down (one id, or a list of n ids), leaving
        out those in `exclude`. They are not moved; pass them to put/fill."""
        exclude = set(exclude)
        found = [x for x in reversed(self.find(type_name, zone, label, **attributes))
                 if x not in exclude]
        wanted = 1 if n is None else n
        assert len(found) >= wanted, (
            f"only {len(found)} {type_name} {label or ''} {attributes} in {zone}, {wanted} wanted")
        return found[0] if n is None else found[:wanted]

    # ---- arranging a position ----
    def edited(self):
        """Forget what was computed from the old position (the legal-move cache, and a stopped
        step's own continuation: a choice made now replays the step from before it)."""
        self.s.changed()
        if self.s.pending is not None:
            self.s.pending.steps = None

    def put(self, ids, key, under: bool = False):
        """Move entities, in order, onto a zone (or under it: the first id ends lowest)."""
        ids = [ids] if isinstance(ids, int) else list(ids)
        for eid in (reversed(ids) if under else ids):
            self.s.move(eid, key, under)
        self.edited()

    def fill(self, key, ids, spill=None, spill_under: bool = False):
        """Make a zone hold exactly `ids` (bottom first). Entities already there and not wanted
        go to `spill` (required if there are any)."""
        ids = [ids] if isinstance(ids, int) else list(ids)
        leaving = [x for x in self.zone(key) if x not in ids]
        if leaving:
            assert spill is not None, f"{key} holds {len(leaving)} entities; say where they go"
            self.put(leaving, spill, under=spill_under)
        self.put(ids, key)
        assert self.zone(key) == ids
        self.edited()

    def empty(self, key, to, under: bool = False):
        self.fill(key, [], spill=to, spill_under=under)

    def set_var(self, key, value):
        self.s.vars[key] = value
        self.edited()

    def set_vars(self, values: dict):
        for key, value in values.items():
            self.s.vars[key] = value
        self.edited()

    # ---- playing ----
    def moves(self) -> list:
        return self.s.legal_move_names()

    def can(self, name: str) -> bool:
        wanted = " ".join(name.lower().split())
        return any(" ".join(m.lower().split()) == wanted for m in self.moves())

    def play(self, *names: str):
        """Apply moves by name, in order; a refused one fails the test with its reason."""
        for name in names:
            try:
                self.s.apply(name)
            except IllegalMove as error:
                raise AssertionError(f"move {name!r} refused: {error.reason}\n"
                                     f"legal: {self.moves()[:20]}") from None
        return self

    def refuse(self, name: str, *words: str) -> str:
        """Check that a move is refused with IllegalMove, that the state is unchanged, and that
        the reason mentions every one of `words` (case-insensitive). Returns the reason."""
        before = snapshot(self.s)
        try:
            self.s.apply(name)
        except IllegalMove as error:
            reason = error.reason
        else:
            raise AssertionError(f"move {name!r} was accepted")
        assert snapshot(self.s) == before, f"refusing {name!r} changed the state"
        for word in words:
            assert word.lower() in reason.lower(), f"reason {reason!r} does not mention {word!r}"
        assert not self.can(name)
        return reason

    def clone(self) -> "Scenario":
        return Scenario(self.s.clone())

    # ---- asking the rules ----
    def call(self, name: str, **args):
        """The value of one of the game's functions (`fn name(...)`) in the current position,
        its parameters given by name: sc.call("score_of", p=1)."""
        return self.game.functions[name](self.s, dict(args))

    def run(self, name: str, **args):
        """Run one of the game's procedures (`proc name(...)`) on the position, its parameters
        given by name: sc.run("score_region", r=cell). What it changes stays changed."""
        self.game.procedures[name](self.s, dict(args))
        self.edited()

    def cell(self, board: str, row: int, col: int) -> int:
        """The id of a grid cell (an error if the board has no such cell)."""
        return self.game.geometries[board].at[(row, col)]

    def prompt(self) -> Optional[str]:
        """The question of the choice the game waits for, or None."""
        return self.s.pending.prompt if self.s.pending is not None else None
