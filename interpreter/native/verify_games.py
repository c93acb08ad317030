"""`referee verify --engine native`: verify's random games played in the game's verify kernel
(verify_source.py), a game it does not pass clean played again in Python (tools/verify), which
finds and words its failure; the outcomes are the ones tools/verify.outcome gives."""
from __future__ import annotations

import time

import numpy as np

from .kernel import load_module
from .verify_source import names_distinct, render_verify

LARGEST_SEED = (2 ** 63 - 7) // 31         # (seed * 31 + 7, verify's policy seed, fits an int64)


class VerifyKernel:
    def __init__(self, game):
        names_distinct(game)
        self.game = game
        self.module, self.hash = load_module(render_verify(game))
        self.compile_seconds = None

    def compile(self) -> float:
        if self.compile_seconds is None:
            started = time.perf_counter()
            self.module.verify_games(np.arange(1, dtype=np.int64), 1)
            self.compile_seconds = time.perf_counter() - started
        return self.compile_seconds

    def outcomes(self, seeds, max_moves: int, in_python) -> list:
        """tools/verify.outcome's (failure or None, number of moves) of each seed: natively for
        the games that pass clean, in_python(seed) for the others."""
        seeds = list(seeds)
        clean, length = self.module.verify_games(np.asarray(seeds, dtype=np.int64), int(max_moves))
        return [(None, int(length[k])) if clean[k] else in_python(seed) for k, seed in enumerate(seeds)]


def seeds_fit(seeds) -> bool:
    return all(0 <= s <= LARGEST_SEED for s in seeds)


__all__ = ["VerifyKernel", "seeds_fit"]
