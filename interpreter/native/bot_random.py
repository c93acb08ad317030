"""The RandomBot's draws inside a Numba kernel: Python's `random.Random(seed)` (MT19937, seeded
by init_by_array as CPython does) and `randrange(n)` (getrandbits of n's bit length, drawn
again while the number is n or more), so that a native playout chooses the same move among the
same legal moves, in the same order, as `play/bots.py`'s RandomBot.

The generator is a uint64 array of 626: the 624 words of the state (each below 2**32), the
position in it, and how many words of the current round are twisted. The twist is done a word
at a time, as the draws reach it (word k needs the old words k and k + 1 and word k + 397, old
below 227 and twisted beyond): the same words as CPython's whole twist, but a game of a few
dozen draws twists a few dozen words, not 624.
"""
import numpy as np
from numba import njit

N, M = 624, 397
SEEDABLE = 1 << 32          # the seeds whose key is one word (others: seeded in Python)
WORD = np.uint64(0xFFFFFFFF)
MATRIX_A, UPPER, LOWER = np.uint64(0x9908B0DF), np.uint64(0x80000000), np.uint64(0x7FFFFFFF)
U1, U7, U11, U15, U18, U30 = (np.uint64(k) for k in (1, 7, 11, 15, 18, 30))
TEMPER_B, TEMPER_C = np.uint64(0x9D2C5680), np.uint64(0xEFC60000)


def genrand_words(s: int) -> np.ndarray:
    """init_genrand(s)'s 624 words (computed once, in Python: every seed starts from them)."""
    words = [s]
    for i in range(1, N):
        previous = words[-1]
        words.append((1812433253 * (previous ^ (previous >> 30)) + i) & 0xFFFFFFFF)
    return np.array(words, dtype=np.uint64)


INIT = genrand_words(19650218)


@njit(cache=True)
def seeded(seed):
    """The generator of random.Random(seed), for 0 <= seed < 2**32 (CPython's init_by_array
    over the one-word key [seed]): 625 uint64 (each word below 2**32, then the position)."""
    mt = np.empty(N + 2, dtype=np.uint64)
    seed_into(mt, seed)
    return mt


@njit(cache=True)
def seed_into(mt, seed):
    """seeded(seed), written into the array mt (a kernel seeds one array game after game)."""
    mt[:N] = INIT
    key = np.uint64(seed)
    i = 1
    for j in range(N):          # (a key of one word: j of the reference is always 0)
        previous = mt[i - 1]
        mixed = (mt[i] ^ ((previous ^ (previous >> U30)) * np.uint64(1664525))) & WORD
        mt[i] = (mixed + key) & WORD
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    for _ in range(N - 1):
        previous = mt[i - 1]
        mixed = (mt[i] ^ ((previous ^ (previous >> U30)) * np.uint64(1566083941))) & WORD
        mt[i] = (mixed - np.uint64(i)) & WORD
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = np.uint64(0x80000000)
    mt[N] = np.uint64(N)
    mt[N + 1] = np.uint64(N)


@njit(cache=True, inline="always")
def twist_word(mt, k):
    """Word k of the next round, in place (the step of CPython's twist for k)."""
    following = k + 1 if k + 1 < N else 0
    ahead = k + M if k + M < N else k + M - N
    y = (mt[k] & UPPER) | (mt[following] & LOWER)
    value = mt[ahead] ^ (y >> U1)
    if y & U1:
        value ^= MATRIX_A
    mt[k] = value


@njit(cache=True)
def next_word(mt):
    """The next 32-bit output (genrand_uint32), as a uint64."""
    position = np.int64(mt[N])
    if position >= N:                   # a new round: none of its words twisted yet
        position = 0
        mt[N + 1] = np.uint64(0)
    if np.int64(mt[N + 1]) <= position:
        twist_word(mt, position)
        mt[N + 1] = np.uint64(position + 1)
    y = mt[position]
    mt[N] = np.uint64(position + 1)
    y ^= y >> U11
    y ^= (y << U7) & TEMPER_B
    y ^= (y << U15) & TEMPER_C
    y ^= y >> U18
    return y


@njit(cache=True)
def below(mt, n):
    """random.Random.randrange(n) for 1 <= n < 2**32: getrandbits(n.bit_length()), again
    while it is n or more."""
    bits = 0
    while (1 << bits) <= n:
        bits += 1
    shift = np.uint64(32 - bits)
    r = np.int64(next_word(mt) >> shift)
    while r >= n:
        r = np.int64(next_word(mt) >> shift)
    return r
