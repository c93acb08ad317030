"""The random stream inside a Numba kernel (interpreter/native/random_stream.py) draws what the
Python one (runtime/random_source.py) draws: the same numbers, the same next states, the same
shuffles, for any state and size."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.runtime import random_source

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native import random_stream  # noqa: E402

STATES = st.integers(0, 2**64 - 1)
SIZES = st.one_of(st.integers(1, 100), st.integers(1, 2**63 - 1))


@settings(max_examples=400, deadline=None)
@given(STATES, SIZES)
def test_below_draws_the_same_number_and_next_state(state, n):
    value, after = random_stream.below(random_stream.as_state(state), n)
    assert (int(value), int(after)) == random_source.below(state, n)


@settings(max_examples=200, deadline=None)
@given(STATES, st.integers(1, 8))
def test_a_run_of_draws_follows_the_same_stream(seed, n):
    python_state = random_source.seed_state(seed)
    native_state = random_stream.as_state(python_state)
    for _ in range(20):
        value, native_state = random_stream.below(random_stream.as_state(native_state), n)
        expected, python_state = random_source.below(python_state, n)
        assert int(value) == expected and int(native_state) == python_state


@settings(max_examples=300, deadline=None)
@given(STATES, st.integers(0, 80))
def test_shuffle_gives_the_same_order_and_next_state(state, size):
    items = list(range(size))
    array = np.arange(size, dtype=np.int64)
    after = random_stream.shuffle(random_stream.as_state(state), array)
    assert int(after) == random_source.shuffle(state, items)
    assert array.tolist() == items


def test_the_high_product_carries_at_the_extremes():
    top = 2**64 - 1
    for a, b in ((top, top), (top, 1), (2**32, 2**32), (2**63, 2), (0x9E3779B97F4A7C15, top)):
        assert int(random_stream.high_product(np.uint64(a), np.uint64(b))) == (a * b) >> 64
