"""Solstis natively (issue 24): its kernel (lists of cells, squares, groups, the choices inside
its procedures, texts offered as choices, a list variable) plays the games the Python engine
plays, move for move, none handed to Python. Compiled once per run at most (Numba's cache keeps
it between runs); benchmarks/same_games.py checks 200 games of each option."""
import pytest

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from tests.native_support import kernel_of, natively, same_games  # noqa: E402


@pytest.fixture(scope="module")
def solstis():
    return kernel_of("games/solstis.rules", 2)


def test_solstis_plays_the_python_games(solstis):
    python = natively(solstis, range(1, 21))
    assert {tuple(r["winners"]) for r in python} >= {(1,), (2,)}


def test_solstis_stopped_at_max_moves_is_the_python_record(solstis):
    """A game cut in the middle of a turn (between the choices inside it) stops where Python's does."""
    for max_moves in (7, 19):
        same_games(solstis, range(1, 11), max_moves)
