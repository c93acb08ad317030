"""The game's random stream (runtime/random_source.py) inside a Numba kernel: the same
splitmix64 draws, in uint64 arithmetic, so that a native playout draws exactly what the Python
path draws from the same state.

Every constant is a uint64 (a Python int mixed with a uint64 would make Numba compute in
floats), and `(state * n) >> 64` is the high half of a 128-bit product, written with 32-bit
halves (Numba has no 128-bit integers).
"""
import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MULTIPLIER_1 = np.uint64(0xBF58476D1CE4E5B9)
MULTIPLIER_2 = np.uint64(0x94D049BB133111EB)
LOW_32 = np.uint64(0xFFFFFFFF)
S27, S30, S31, S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)
ONE = np.uint64(1)


@njit(cache=True, inline="always")
def mix(x):
    """splitmix64's step: the next state after x (random_source.mix)."""
    x = x + GOLDEN
    x = (x ^ (x >> S30)) * MULTIPLIER_1
    x = (x ^ (x >> S27)) * MULTIPLIER_2
    return x ^ (x >> S31)


@njit(cache=True, inline="always")
def high_product(a, b):
    """The high 64 bits of the 128-bit product a * b (both uint64): the four products of the
    32-bit halves, the middle ones added with the carry of the low one (none overflows)."""
    a_low, a_high = a & LOW_32, a >> S32
    b_low, b_high = b & LOW_32, b >> S32
    low_low = a_low * b_low
    high_low = a_high * b_low
    low_high = a_low * b_high
    middle = (low_low >> S32) + (high_low & LOW_32) + low_high
    return a_high * b_high + (high_low >> S32) + (middle >> S32)


@njit(cache=True)
def below(state, n):
    """A number in 0..n-1 (n >= 1) and the next state (random_source.below)."""
    state = mix(state)
    return np.int64(high_product(state, np.uint64(n))), state


@njit(cache=True)
def shuffle(state, items):
    """Shuffle the array `items` in place (Fisher-Yates, random_source.shuffle's draws); returns
    the next state."""
    for i in range(len(items) - 1, 0, -1):
        state = mix(state)
        j = np.int64(high_product(state, np.uint64(i + 1)))
        items[i], items[j] = items[j], items[i]
    return state


def as_state(value: int) -> np.uint64:
    """A Python random state (an int 0..2**64-1) as the kernel's uint64. Called from Python,
    the kernels need it: Numba hands a uint64 back as a Python int, which it would type as
    int64 on the next call."""
    return np.uint64(value)
