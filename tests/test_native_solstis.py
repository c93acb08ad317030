"""Solstis natively (issue 24): its kernel (lists of cells, squares, groups, the choices inside
its procedures, texts offered as choices, a list variable) plays the games the Python engine
plays, move for move, none handed to Python. Compiled once per run at most (Numba's cache keeps
it between runs); benchmarks/same_games.py checks 200 games of each option."""
import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.play.simulate import simulate_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.kernel import load_kernel  # noqa: E402


@pytest.fixture(scope="module")
def solstis():
    game, diagnostics, _ = load_game("games/solstis.rules", players=2)
    assert game is not None, diagnostics
    return load_kernel(game)


def test_solstis_plays_the_python_games(solstis):
    seeds = range(1, 21)
    handed = []

    def in_python(seed):
        handed.append(seed)
        return simulate_game(solstis.game, seed, 10_000)
    native = solstis.records(seeds, 10_000, in_python)
    python = [simulate_game(solstis.game, seed, 10_000) for seed in seeds]
    assert native == python and handed == []
    assert {tuple(r["winners"]) for r in python} >= {(1,), (2,)}


def test_solstis_stopped_at_max_moves_is_the_python_record(solstis):
    """A game cut in the middle of a turn (between the choices inside it) stops where Python's does."""
    seeds = range(1, 11)
    for max_moves in (7, 19):
        native = solstis.records(seeds, max_moves, lambda seed, cut=max_moves: simulate_game(solstis.game, seed, cut))
        assert native == [simulate_game(solstis.game, seed, max_moves) for seed in seeds]
