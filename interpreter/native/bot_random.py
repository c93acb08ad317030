"""The RandomBot's draws inside a Numba kernel: Python's `random.Random(seed)` (MT19937, seeded
by init_by_array as CPython does) and `randrange(n)` (getrandbits of n's bit length, drawn
again while the number is n or more), so that a native playout chooses the same move among the
same legal moves, in the same order, as `play/bots.py`'s RandomBot.

The generator is a uint32 array of 625 words: the 624 of the state and the position in it.
"""
import numpy as np
from numba import njit

N, M = 624, 397
MATRIX_A, UPPER, LOWER = np.uint32(0x9908B0DF), np.uint32(0x80000000), np.uint32(0x7FFFFFFF)
SEEDABLE = 1 << 32          # the seeds whose key is one word (others: seeded in Python)


@njit(cache=True)
def init_genrand(mt, s):
    mt[0] = np.uint32(s)
    for i in range(1, N):
        previous = np.uint64(mt[i - 1])
        mt[i] = np.uint32((np.uint64(1812433253) * (previous ^ (previous >> np.uint64(30))) + np.uint64(i))
                          & np.uint64(0xFFFFFFFF))


@njit(cache=True)
def seeded(seed):
    """The generator of random.Random(seed), for 0 <= seed < 2**32 (CPython's init_by_array
    over the one-word key [seed])."""
    mt = np.zeros(N + 1, dtype=np.uint32)
    init_genrand(mt, 19650218)
    mask = np.uint64(0xFFFFFFFF)
    i, j = 1, 0
    for _ in range(N):
        previous = np.uint64(mt[i - 1])
        mixed = (np.uint64(mt[i]) ^ ((previous ^ (previous >> np.uint64(30))) * np.uint64(1664525))) & mask
        mt[i] = np.uint32((mixed + np.uint64(seed) + np.uint64(j)) & mask)
        i += 1
        j = 0                                   # (a key of one word)
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    for _ in range(N - 1):
        previous = np.uint64(mt[i - 1])
        mixed = (np.uint64(mt[i]) ^ ((previous ^ (previous >> np.uint64(30))) * np.uint64(1566083941))) & mask
        mt[i] = np.uint32((mixed - np.uint64(i)) & mask)
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = np.uint32(0x80000000)
    mt[N] = np.uint32(N)
    return mt


@njit(cache=True)
def next_word(mt):
    """The next 32-bit output (genrand_uint32)."""
    if mt[N] >= N:
        for k in range(N):
            y = (mt[k] & UPPER) | (mt[(k + 1) % N] & LOWER)
            value = mt[(k + M) % N] ^ (y >> np.uint32(1))
            if y & np.uint32(1):
                value ^= MATRIX_A
            mt[k] = value
        mt[N] = 0
    y = mt[mt[N]]
    mt[N] += np.uint32(1)
    y ^= y >> np.uint32(11)
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


@njit(cache=True)
def below(mt, n):
    """random.Random.randrange(n) for 1 <= n < 2**32: getrandbits(n.bit_length()), again
    while it is n or more."""
    bits = 0
    while (1 << bits) <= n:
        bits += 1
    shift = np.uint32(32 - bits)
    r = np.int64(next_word(mt) >> shift)
    while r >= n:
        r = np.int64(next_word(mt) >> shift)
    return r


def generator(rng) -> np.ndarray:
    """A Python random.Random's state as the kernel's array (any seed)."""
    version, words, gauss = rng.getstate()
    return np.array(words, dtype=np.uint32)


def restore(rng, mt: np.ndarray) -> None:
    """Put the kernel's generator back into the Python random.Random it came from."""
    rng.setstate((3, tuple(int(w) for w in mt), None))
