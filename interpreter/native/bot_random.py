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
    mts = mt.reshape((1, N + 2))
    seed_lanes(mts, mts, mts, mts, np.uint64(seed), np.uint64(seed), np.uint64(seed), np.uint64(seed))


@njit(cache=True, inline="always")
def first_step(word, previous, key):
    return ((word ^ ((previous ^ (previous >> U30)) * np.uint64(1664525))) + key) & WORD


@njit(cache=True, inline="always")
def second_step(word, previous, at):
    return ((word ^ ((previous ^ (previous >> U30)) * np.uint64(1566083941))) - at) & WORD


LANES = 4       # (seed_lanes seeds four at once)


@njit(cache=True)
def seed_lanes(m0, m1, m2, m3, k0, k1, k2, k3):
    """seeded(k) into row 0 of m for each (m, k) of the four (the same array may be given more
    than once with the same key). CPython's init_by_array for a one-word key, unrolled: its
    first pass over words 1..623 then word 1 again, its second over 2..623 then 1 (word 0,
    a copy of word 623 at each wrap, is the previous word in hand). Each word's previous one
    stays in a local, not read back, and four seeds' chains (1,247 dependent steps each) are interleaved so that the processor runs them side
    by side."""
    p0 = p1 = p2 = p3 = INIT[0]
    for at in range(1, N):          # (the first pass reads the words of INIT)
        word = INIT[at]
        p0, p1, p2, p3 = first_step(word, p0, k0), first_step(word, p1, k1), first_step(word, p2, k2), first_step(word, p3, k3)
        m0[0, at], m1[0, at], m2[0, at], m3[0, at] = p0, p1, p2, p3
    p0, p1 = first_step(m0[0, 1], p0, k0), first_step(m1[0, 1], p1, k1)
    p2, p3 = first_step(m2[0, 1], p2, k2), first_step(m3[0, 1], p3, k3)
    m0[0, 1], m1[0, 1], m2[0, 1], m3[0, 1] = p0, p1, p2, p3
    for step in range(2, N + 1):
        at = step if step < N else 1
        down = np.uint64(at)
        p0, p1 = second_step(m0[0, at], p0, down), second_step(m1[0, at], p1, down)
        p2, p3 = second_step(m2[0, at], p2, down), second_step(m3[0, at], p3, down)
        m0[0, at], m1[0, at], m2[0, at], m3[0, at] = p0, p1, p2, p3
    for m in (m0, m1, m2, m3):
        m[0, 0] = np.uint64(0x80000000)
        m[0, N] = np.uint64(N)
        m[0, N + 1] = np.uint64(N)


@njit(cache=True)
def seed_group(mts, seeds, first):
    """The generators of seeds[first:first + LANES] into the rows of mts (LANES of them),
    seeded side by side (past the last seed, the last one again)."""
    last = len(seeds) - 1
    seed_lanes(mts[0:1], mts[1:2], mts[2:3], mts[3:4], np.uint64(seeds[first]), np.uint64(seeds[min(first + 1, last)]),
               np.uint64(seeds[min(first + 2, last)]), np.uint64(seeds[min(first + 3, last)]))


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
