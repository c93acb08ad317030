"""A search bot's generator when its playouts are native: a `random.Random` whose state lives
in the uint64 array the rollout kernel draws from (bot_random.py's layout: 624 words, the
position, how many words of the round are twisted), so that a playout hands the kernel the
array itself instead of copying random.Random's state there and back (getstate and setstate
turn 625 words into Python ints each way: more than a whole playout of a small board game costs natively).

Its two primitives draw as CPython's do (MT19937's next 32-bit word; `random()` from two words,
`getrandbits(k)` from ceil(k / 32) words, the first the lowest); every other method of
random.Random is written over them in Python, so `randrange`, `shuffle`, `choice`, ... give what
random.Random(seed) gives, draw for draw.
"""
from __future__ import annotations

import random

import numpy as np
from numba import njit

from .bot_random import N, below, next_word, twist_word

RANDOM_SCALE = 1.0 / 9007199254740992.0         # 2**-53
LARGEST_BELOW = 1 << 32                         # bot_random.below draws below n < 2**32


@njit(cache=True)
def random_of(mt):
    """random.random(): 53 bits from two words (genrand_res53)."""
    a = next_word(mt) >> np.uint64(5)
    b = next_word(mt) >> np.uint64(6)
    return (np.float64(a) * 67108864.0 + np.float64(b)) * RANDOM_SCALE


@njit(cache=True)
def words_into(mt, out):
    """The next len(out) 32-bit words."""
    for k in range(len(out)):
        out[k] = next_word(mt)


@njit(cache=True)
def twisted_whole(mt):
    """The words of the round not twisted yet, twisted (what random.Random's state holds)."""
    while np.int64(mt[N + 1]) < N:
        twist_word(mt, np.int64(mt[N + 1]))
        mt[N + 1] = np.uint64(np.int64(mt[N + 1]) + 1)


class SharedRandom(random.Random):
    """random.Random(seed)'s draws, its state in `self.mt` (see the module's docstring)."""

    def seed(self, a=None, version=2):
        super().seed(a, version)
        self.mt = np.empty(N + 2, dtype=np.uint64)
        self.setstate(super().getstate())

    def getstate(self):
        twisted_whole(self.mt)
        return (3, tuple(self.mt[:N + 1].tolist()), None)

    def setstate(self, state):
        self.mt[:N + 1] = state[1]
        self.mt[N + 1] = N                  # (every word of the round twisted already)

    def random(self):
        return float(random_of(self.mt))

    def getrandbits(self, k):
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        words = np.empty(-(-k // 32), dtype=np.uint64)
        words_into(self.mt, words)
        value = 0
        for position, word in enumerate(words.tolist()):
            if k - 32 * position < 32:          # the last word, partly: its high bits
                word >>= 32 - (k - 32 * position)
            value |= word << (32 * position)
        return value

    def _randbelow(self, n):
        if n < LARGEST_BELOW:
            return int(below(self.mt, n))
        return self._randbelow_with_getrandbits(n)


__all__ = ["SharedRandom"]
