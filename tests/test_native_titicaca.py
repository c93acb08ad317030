"""Titicaca in native playouts (issue 24): a hex map, a list variable, simultaneous bids,
`play optional` (its skip), rankings with ties broken by a later key and regions merged over
the map play the Python games move for move, natively (none handed back to Python). One kernel
is compiled here, at 3 players (Numba's cache keeps it between runs); benchmarks/same_games.py
checks every player count and the wide map."""
import pytest

from referee.interpreter.play.simulate import simulate_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from tests.test_native_hexes import handed_back, kernel_of  # noqa: E402


@pytest.fixture(scope="module")
def titicaca():
    return kernel_of("games/titicaca.rules", 3)


def test_titicaca_plays_the_python_games(titicaca):
    assert handed_back(titicaca, range(1, 21)) == 0


def test_titicaca_analyze_details_are_the_python_ones(titicaca):
    """Each move's number of legal moves (a skip counted) and the moves per seat and action."""
    def in_python(seed):
        return simulate_game(titicaca.game, seed, 10_000, details=True)
    assert [titicaca.detailed(seed, 10_000, in_python) for seed in (3, 4)] == [in_python(3), in_python(4)]
