"""MCTS and ISMCTS playouts in a game's rollout kernel (rollout_source.py): a Python state at a
decision written into the kernel's state array, random moves played natively from there to the
end, the returns read back. The moves are drawn from the bot's own `random.Random`, whose state
goes into the kernel (bot_random.py draws exactly as randrange does) and comes back after: a
native playout gives the returns the Python playout gives and leaves the generator where it
leaves it, so a bot picks the same moves on either engine. A state paused inside a step
resumes at the step, its draws so far forced (paused_state.py). A state the kernel cannot hold or
a playout it flags (a runtime error, a dead end) is played in Python from the generator's state
before it, which gives the exact same result.
"""
from __future__ import annotations

import time
import weakref

import numpy as np

from .kernel import load_module
from .rollout_source import render_rollouts
from .rules_source import MOST_MOVES
from .shared_random import SharedRandom, twisted_whole
from .state_writer import StateWriter
from .flow_env import FlowEnvWriter
from .not_native import NotNative
from .paused_state import PausedWriter
from .teams_source import ALL_LOST

FINISHED, STOPPED = 0, 1
WORDS = 624                     # random.Random's state: 624 words and the position in them


class NativeRollouts:
    """The playouts of one loaded game (its players, options and params) in its kernel."""

    def __init__(self, game):
        source, text = render_rollouts(game)
        self.writer = StateWriter(source)       # (NotNative: a part of the kernel's state it cannot write)
        self.game = game
        self.module, self.hash = load_module(text)
        self.play_at, self.flow_env = source.play_at, FlowEnvWriter(source)
        self.paused = PausedWriter(source)
        self.slots, self.template = source.slots, self.writer.template
        self.buf = np.empty(MOST_MOVES, dtype=np.int64)
        self.mt = np.empty(WORDS + 2, dtype=np.uint64)
        self.out = np.zeros(game.num_players, dtype=np.float64)     # (returns may be reals)
        self.compile_seconds = None

    def state_array(self, s):
        """The kernel's array of the state s (paused in a step: of the state before the step,
        its draws so far forced), or None when it holds what the kernel does not."""
        resumed = self.resumed(s)
        return None if resumed is None else resumed[0]

    def resumed(self, s):
        """(S, the decision's number, F) of a state under way, or None: played in Python."""
        if s.terminal:
            return None
        forced = ()
        if s.pending is not None:
            paused = self.paused.resumed(s)
            if isinstance(paused, NotNative):
                return None
            s, resume, forced = paused
        else:
            resume = self.play_at.get(s.pc)
        if resume is None:
            return None
        S = self.writer.write(s)
        if S is None:
            return None
        F = self.flow_env.write(s.env)
        if F is None:
            return None
        if forced:
            self.paused.write_forced(S, forced)
        return S, resume, F

    def why_python(self, s) -> str:
        """Why a playout from s stays in Python (a paused step: its construct and rules line)."""
        if s.pending is not None:
            paused = self.paused.resumed(s)
            if isinstance(paused, NotNative):
                return paused.note()
            s = paused[0]
        elif self.play_at.get(s.pc) is None:
            return "pc"
        if self.writer.write(s) is None:
            return "S"
        return "F" if self.flow_env.write(s.env) is None else "kernel"

    def generator(self, seed) -> SharedRandom:
        """A search bot's random.Random(seed), its state where the kernel draws from."""
        return SharedRandom(seed)

    def returns(self, s, rng, max_moves: int):
        """The returns of a random playout from s (at most max_moves moves) drawn from rng, as
        play/bots.playout gives them, rng left where that leaves it; None when the kernel cannot
        play it (s and rng untouched: play it in Python). rng: a generator of `generator`
        (the kernel draws from its array), or any random.Random (its state copied there and back)."""
        resumed = self.resumed(s)
        if resumed is None:
            return None
        S, resume, F = resumed
        shared = rng.__class__ is SharedRandom
        if shared:
            mt = rng.mt
            self.mt[:] = mt                  # (to go back to, if the kernel hands the playout to Python)
        else:
            mt = self.mt
            mt[:WORDS + 1] = rng.getstate()[1]
            mt[WORDS + 1] = WORDS            # (every word of the round twisted already)
        status = self.module.rollout(S, mt, self.buf, resume, F, max_moves, self.out)
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
        (a decision number of none: the flow runs nothing, whatever the template's state would
        make it do): the seconds it took. A kernel Numba refuses raises here, where the
        engine's choice falls back, not in the middle of a search."""
        if self.compile_seconds is None:
            started = time.perf_counter()
            self.mt[:] = SharedRandom(0).mt
            self.module.rollout(self.template.copy(), self.mt, self.buf, -1, self.flow_env.write({}), 0, self.out)
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
