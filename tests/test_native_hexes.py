"""Hex maps in native playouts (issue 24): a hex map's cells as ids with attribute columns (a
number or none, an enum member), its steps and neighbours as tables, and the graph functions
over them (neighbors, adjacent, surrounding, distance, largest_group, reachable, bordering,
between) give the engine's answers, and tests/native/hexes.rules (with components made after
the cells, an attribute of none and `play optional`) plays the Python games move for move. One
kernel is compiled here (Numba's cache keeps it between runs)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.board_tables import BoardTables  # noqa: E402
from tests.native_support import cached_on_disk, game_of, kernel_of, same_games  # noqa: E402

HEXES = "tests/native/hexes.rules"
CELLS = 23          # the hexes of tests/native/hexes.rules


GRAPH_FUNCTIONS = ("cell_largest_group", "cells_reachable", "cells_bordering", "cell_neighbours", "surrounding_of",
                   "cells_adjacent", "cell_distance")


@pytest.fixture(scope="module")
def hexes():
    kernel = kernel_of(HEXES, 3)
    cached_on_disk(kernel, *GRAPH_FUNCTIONS)     # (called below from Python: compiled once, not per run)
    return kernel


def test_the_hex_game_plays_the_python_games(hexes):
    played = same_games(hexes, range(1, 61))
    assert len({tuple(r["winners"]) for r in played.records}) > 1
    assert len(played.handed) < 6        # (dead ends only: the engine's error)


def test_the_optional_plays_skip_as_the_engine_does(hexes):
    """`play optional`: the move skip listed last (the branching counts it), played as Python's."""
    python = same_games(hexes, range(1, 21), details=True).records
    assert any("(skip)" in moves for record in python for moves in record["actions"].values())


def test_a_hex_maps_tables_are_the_engines_geometry(hexes):
    tables = BoardTables(hexes.game).numpy_arrays()
    geometry = hexes.game.geometries["Land"]
    assert len(geometry.cells) == CELLS and tables["BOARD_IS_HEX"][0] == 1
    near = hexes.module.CELL_NEAR
    for cell in geometry.cells:
        count = int(np.count_nonzero(near[cell] >= 0))
        assert tuple(near[cell, :count]) == geometry.neighbors[cell] and set(near[cell, count:]) <= {-1}
    north, south = 0, 4                                     # (a hex map has neither)
    assert set(tables["BOARD_STEP"][:, north]) == {-1} and set(tables["BOARD_STEP"][:, south]) == {-1}
    assert list(tables["BOARD_DIRECTIONS"]) == [1, 2, 3, 5, 6, 7]


cell_lists = st.lists(st.integers(0, CELLS - 1), max_size=CELLS)


@settings(max_examples=150, deadline=None)
@given(cell_lists, cell_lists, st.integers(-1, CELLS - 1), st.integers(0, CELLS - 1))
def test_the_graph_functions_answer_as_the_engine_on_a_hex_map(hexes, starts, through, a, b):
    engine, kernel = hexes.game.board_functions, hexes.module
    S, near = np.zeros(kernel.STATE_SIZE, dtype=np.int64), kernel.CELL_NEAR
    cells = np.array(through, dtype=np.int64)
    assert list(kernel.cell_largest_group(near, cells)) == engine["largest_group"](through)
    assert list(kernel.cells_reachable(near, np.array(starts, dtype=np.int64), cells)) == engine["reachable"](starts, through)
    assert list(kernel.cells_bordering(near, cells)) == engine["bordering"](through)
    cell = None if a < 0 else a
    assert list(kernel.cell_neighbours(near, a)) == engine["neighbors"](cell)
    assert list(kernel.surrounding_of(S, a)) == engine["surrounding"](cell)
    assert kernel.cells_adjacent(near, a, b) == engine["adjacent"](cell, b)
    if cell is not None:
        assert kernel.cell_distance(S, a, b) == engine["distance"](a, b)
    assert not S[kernel.ERROR]


def test_between_answers_as_the_engine_on_a_hex_map(hexes):
    """Every pair of hexes (and none): the cells strictly between them on a row or a diagonal,
    none off a line or across a hole of the map (hexes.rules' map has holes)."""
    engine, kernel = hexes.game.board_functions, hexes.module
    rows, cols = kernel.BOARD_ROW, kernel.BOARD_COL
    lined = 0
    for a in range(-1, CELLS):
        for b in range(-1, CELLS):
            found = list(kernel.hex_between(rows, cols, kernel.BOARD_HEX_UNIT, kernel.BOARD_STEP, a, b))
            assert found == engine["between"](None if a < 0 else a, None if b < 0 else b), (a, b)
            lined += len(found) > 1
    assert lined > 10


def test_the_distance_of_none_is_played_in_python(hexes):
    S = np.zeros(hexes.module.STATE_SIZE, dtype=np.int64)
    hexes.module.cell_distance(S, -1, 3)
    assert S[hexes.module.ERROR] == 1


def test_each_test_of_a_listing_is_asked_in_the_loop_of_its_deepest_binder():
    """Titicaca's associate(a in regions(), b in regions()): `require touch(home(), a)` reads only
    a, so it is asked once per a (as the Python path's listing hoists it); the others per pair."""
    from referee.dsl import ast
    from referee.interpreter.native.listing_source import binder_levels
    game = game_of("games/titicaca.rules", 3)
    associate = next(a for a in game.program.of_kind(ast.Action) if a.name == "associate")
    requires = [ast.untag(s)[0].condition for s in associate.body if isinstance(ast.untag(s)[0], ast.Require)]
    per_a, per_pair = binder_levels(associate.binders, requires)
    assert per_a == [requires[3]] and per_pair == requires[:3] + requires[4:]
