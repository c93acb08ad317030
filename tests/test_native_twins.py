"""Identical components that an action's filter or its guard tells apart (by their place in a
zone, by a variable holding one): the Python engine lists their moves, merged after the filter
(compile/lower_listing.py tells_twins_apart), as native playouts do (interpreter/native/
alike_source.py). tests/native/twins.rules, one kernel compiled per run at most."""
import pytest

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from tests.native_support import kernel_of, natively  # noqa: E402

TWINS = "tests/native/twins.rules"


def names_at_start(path=TWINS):
    game, diagnostics, _ = load_game(path, players=2)
    assert game is not None, diagnostics
    return game.new_initial_state(1).legal_move_names()


def test_a_twin_the_filter_or_the_guard_keeps_is_listed_though_an_earlier_twin_fails_it():
    # heap, bottom to top: chip 1 (x3, the third marked), chip 2 (x2), chip 1 (x2): the top
    # chip 1 and the marked one are twins (one move), the bottom one only may be swapped
    assert names_at_start() == ["take chip 1", "swap chip 1"]


def test_twins_told_apart_play_the_python_games_natively():
    records = natively(kernel_of(TWINS, 3), range(1, 61))
    assert all(r["finished"] for r in records)
    assert {tuple(r["winners"]) for r in records} >= {(1,), (2,)}
