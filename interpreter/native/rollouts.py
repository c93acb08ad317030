"""MCTS and ISMCTS playouts in a game's rollout kernel (rollout_source.py): a Python state at a
decision written into the kernel's state array, random moves played natively from there to the
end, the returns read back. The moves are drawn from the bot's own `random.Random`, whose state
goes into the kernel (bot_random.py draws exactly as randrange does) and comes back after: a
native playout gives the returns the Python playout gives and leaves the generator where it
leaves it, so a bot picks the same moves on either engine. A state the kernel cannot hold or
a playout it flags (a runtime error, a dead end) is played in Python from the generator's state
before it, which gives the exact same result.
"""
from __future__ import annotations

import itertools
import time
import weakref

import numpy as np

from .kernel import load_module
from .not_native import NotNative
from .rollout_source import render_rollouts
from .rules_source import MOST_MOVES
from .shared_random import SharedRandom, twisted_whole
from .teams_source import ALL_LOST

FINISHED, STOPPED = 0, 1
# what state_array sets (EXTRA: 0 as the template has it, a state with `again` pending is refused)
WRITTEN_SLOTS = {"TERMINAL", "WINNERS", "ERROR", "STOPPED", "MOVES", "CURRENT", "RNG", "EXTRA"}
WORDS = 624                     # random.Random's state: 624 words and the position in them


class NativeRollouts:
    """The playouts of one loaded game (its players, options and params) in its kernel."""

    def __init__(self, game):
        source, text = render_rollouts(game)
        if game.zone_meta or game.types.components:
            raise NotNative("zones and components: a rollout does not write them from a Python state yet",
                            game.program.game.span)
        # (without them, the components' part of the array is the board cells' places, in no zone
        # (-1), the next id and the cells' attribute columns: the same in every state)
        columns = list(zip(source.columns.values(), source.column_values))
        static = (source.components + 1) + len(columns) * source.components
        static += source.depth_cell is not None        # (the recursion's depth: 0, as the setup leaves it)
        written = sum(int(np.prod([size for _, size, _ in slot.axes])) for slot in source.vars.values())
        if set(source.slots) != WRITTEN_SLOTS or source.size != written + len(source.slots) + static:
            raise NotNative("the kernel keeps state that a rollout does not write from a Python state yet "
                            f"(slots {sorted(set(source.slots) - WRITTEN_SLOTS)}, "
                            f"{source.size - written - len(source.slots) - static} cells beside the variables)")
        self.game = game
        self.module, self.hash = load_module(text)
        self.slots, self.play_at, self.turns = source.slots, source.play_at, tuple(source.resumed_turns)
        self.template = np.zeros(source.size, dtype=np.int64)
        self.template[source.loc_at:source.loc_at + source.components] = -1     # (as the kernel's setup)
        for offset, values in columns:
            self.template[offset:offset + source.components] = values
        self.cells: dict = {}           # a key of State.vars -> (its place in the array, its type)
        for name, slot in source.vars.items():
            sizes = [size for _, size, _ in slot.axes]
            cells = int(np.prod(sizes)) if sizes else 1
            self.template[slot.offset:slot.offset + cells] = slot.default
            values = [members or range(first, first + size) for first, size, members in slot.axes]
            for k, indexes in enumerate(itertools.product(*values)):
                self.cells[(name, *indexes) if indexes else name] = (slot.offset + k, slot.type)
        self.code_of = source.code_of
        self.buf = np.empty(MOST_MOVES, dtype=np.int64)
        self.mt = np.empty(WORDS + 2, dtype=np.uint64)
        self.seats = np.zeros(max(1, len(self.turns)), dtype=np.int64)
        self.out = np.zeros(game.num_players, dtype=np.float64)     # (returns may be reals)
        self.compile_seconds = None

    def state_array(self, s):
        """The kernel's array of the state s, or None when it holds what the kernel does not."""
        if s.pending is not None or s.extra or not s.env.keys() <= set(self.turns):
            return None
        S = self.template.copy()
        cells = self.cells
        for key, value in s.vars.items():
            cell = cells.get(key)
            if cell is None:
                return None
            if value.__class__ is int and -2 ** 63 < value < 2 ** 63:
                S[cell[0]] = value
            else:
                S[cell[0]] = self.code_of(value, cell[1], None)
        S[self.slots["CURRENT"]] = s.current
        S[self.slots["RNG"]] = np.uint64(s.rng).astype(np.int64)
        for k, key in enumerate(self.turns):
            self.seats[k] = s.env.get(key, 0)
        return S

    def generator(self, seed) -> SharedRandom:
        """A search bot's random.Random(seed), its state where the kernel draws from."""
        return SharedRandom(seed)

    def returns(self, s, rng, max_moves: int):
        """The returns of a random playout from s (at most max_moves moves) drawn from rng, as
        play/bots.playout gives them, rng left where that leaves it; None when the kernel cannot
        play it (s and rng untouched: play it in Python). rng: a generator of `generator`
        (the kernel draws from its array), or any random.Random (its state copied there and back)."""
        resume = self.play_at.get(s.pc)
        S = None if resume is None or s.terminal else self.state_array(s)
        if S is None:
            return None
        shared = rng.__class__ is SharedRandom
        if shared:
            mt = rng.mt
            self.mt[:] = mt                  # (to go back to, if the kernel hands the playout to Python)
        else:
            mt = self.mt
            mt[:WORDS + 1] = rng.getstate()[1]
            mt[WORDS + 1] = WORDS            # (every word of the round twisted already)
        status = self.module.rollout(S, mt, self.buf, resume, self.seats, max_moves, self.out)
        if status not in (FINISHED, STOPPED):
            if shared:
                mt[:] = self.mt
            return None
        if not shared:
            twisted_whole(mt)
            rng.setstate((3, tuple(mt[:WORDS + 1].tolist()), None))
        players = range(1, self.game.num_players + 1)
        if status == STOPPED:
            return [0.0] * len(players)
        if self.game.declared_returns is not None:
            return [float(v) for v in self.out]
        mask = int(S[self.slots["WINNERS"]])
        if mask & ALL_LOST:             # (`finish lost`: every seat loses)
            return [-1.0] * len(players)
        return [1.0 if mask >> p & 1 else 0.0 for p in players]

    def compile(self) -> float:
        """Compile the kernel (or load it from Numba's cache) with a call that stops at once
        (no move allowed): the seconds it took. A kernel Numba refuses raises here, where the
        engine's choice falls back, not in the middle of a search."""
        if self.compile_seconds is None:
            started = time.perf_counter()
            self.mt[:] = SharedRandom(0).mt
            self.module.rollout(self.template.copy(), self.mt, self.buf, 1, self.seats, 0, self.out)
            self.compile_seconds = time.perf_counter() - started
        return self.compile_seconds


LOADED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def rollouts_of(game) -> NativeRollouts:
    """The game's NativeRollouts, made once per process (a worker loads the kernel from the
    disk cache); NotNative if the game has none."""
    found = LOADED.get(game)
    if found is None:
        found = LOADED[game] = NativeRollouts(game)
    return found


__all__ = ["NativeRollouts", "rollouts_of"]
