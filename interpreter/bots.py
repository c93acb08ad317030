"""Simple players for any game. A bot's `choose(state)` returns one of `state.legal_moves()`.

    RandomBot(seed)   a uniformly random legal move; the same seed gives the same choices
    FirstBot()        always the first legal move (deterministic, handy in tests)
"""
from __future__ import annotations

import random


class Bot:
    kind = "bot"

    def choose(self, state):
        raise NotImplementedError


class RandomBot(Bot):
    kind = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state):
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move to choose from")
        return moves[self.rng.randrange(len(moves))]


class FirstBot(Bot):
    kind = "first"

    def choose(self, state):
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal move to choose from")
        return moves[0]


KINDS = {"random": RandomBot, "first": FirstBot}
