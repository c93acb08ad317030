"""Titicaca in native playouts (issue 24): a hex map, a list variable, simultaneous bids,
`play optional` (its skip), rankings with ties broken by a later key and regions merged over
the map play the Python games move for move, natively (none handed back to Python). One kernel
is compiled here, at 3 players (Numba's cache keeps it between runs); benchmarks/same_games.py
checks every player count and the wide map."""
import pytest

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from tests.native_support import kernel_of, natively  # noqa: E402


@pytest.fixture(scope="module")
def titicaca():
    return kernel_of("games/titicaca.rules", 3)


def test_titicaca_plays_the_python_games(titicaca):
    python = natively(titicaca, range(1, 21))
    assert len({tuple(r["winners"]) for r in python}) > 1


def test_titicaca_analyze_details_are_the_python_ones(titicaca):
    """Each move's number of legal moves (a skip counted) and the moves per seat and action."""
    natively(titicaca, (3, 4), details=True)
