"""Native playouts where they once differed from the Python path (issue 24):
tests/native/mismatches.rules. A move's argument over a list that holds a value twice is listed
once, the first, as engine/moves.py `named_once` lists it; a dead end reached exactly at
max_moves is the dead-end error, as simulate_game records it, not an unfinished game."""
import pytest

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from tests.native_support import kernel_of, same_games  # noqa: E402

MISMATCHES = "tests/native/mismatches.rules"
SEEDS = range(1, 41)


@pytest.fixture(scope="module")
def mismatches():
    return kernel_of(MISMATCHES, 2)


def dead_ends(records) -> list:
    return [r["seed"] for r in records if r["error_kind"] == "dead-end"]


def test_values_met_twice_are_one_move(mismatches):
    played = same_games(mismatches, SEEDS, details=True)       # (details: each listing's size)
    finished = [r for r in played.records if r["finished"]]
    assert len(finished) > 30 and len({tuple(r["scores"]) for r in finished}) > 10
    assert played.handed == dead_ends(played.records)     # (the kernel flags a dead end: Python records it)


def test_a_dead_end_at_max_moves_is_the_dead_end_error(mismatches):
    played = same_games(mismatches, SEEDS, max_moves=8)
    assert played.handed == dead_ends(played.records) != []
