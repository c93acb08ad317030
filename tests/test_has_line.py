"""has_line(cells, n) reads the cells as bits and shifts them along each line direction; it
must say what walking the board cell by cell says, on grids and on hex maps with holes."""
import functools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from tests.conftest import GAMES

BOARDS = {"tic-tac-toe": "Cell", "connect-four": "Cell", "titicaca": "Map", "othello": "Square"}


@functools.cache             # (at first use, not when collecting)
def board(name):
    game, diagnostics, _ = load_game(str(GAMES / f"{name}.rules"))
    assert diagnostics == []
    return game, game.geometries[BOARDS[name]]


def walked_line(geometry, cells, length) -> bool:
    """The plain definition: some cell starts `length` cells in a row, one step apart along
    one of the board's line directions, every one of them chosen."""
    chosen = set(cells)
    where = {eid: rc for rc, eid in geometry.at.items()}
    for cell in chosen:
        row, col = where[cell]
        for dr, dc in geometry.steps:
            if all(geometry.at.get((row + k * dr, col + k * dc)) in chosen for k in range(length)):
                return True
    return False


@pytest.mark.parametrize("name", sorted(BOARDS))
@given(data=st.data())
def test_has_line_says_what_walking_the_board_says(name, data):
    game, geometry = board(name)
    has_line = game.board_functions["has_line"]
    cells = data.draw(st.lists(st.sampled_from(geometry.cells), max_size=len(geometry.cells), unique=True))
    length = data.draw(st.integers(min_value=1, max_value=6))
    if cells:
        assert has_line(cells, length) == walked_line(geometry, cells, length)
    else:
        assert has_line(cells, length) is False


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_every_straight_run_is_a_line_and_a_run_across_an_edge_is_not(name):
    game, geometry = board(name)
    has_line = game.board_functions["has_line"]
    where = {eid: rc for rc, eid in geometry.at.items()}
    for cell, (row, col) in where.items():
        for dr, dc in geometry.steps:
            run = [geometry.at.get((row + k * dr, col + k * dc)) for k in range(3)]
            if None not in run:
                assert has_line(run, 3)
    # the last cell of a row and the first of the next stand next to each other in reading
    # order, never in a line
    rows = sorted({r for r, _ in where.values()})
    for upper, lower in zip(rows, rows[1:]):
        end = max((c for r, c in where.values() if r == upper))
        start = min((c for r, c in where.values() if r == lower))
        pair = [geometry.at[(upper, end)], geometry.at[(lower, start)]]
        assert has_line(pair, 2) == walked_line(geometry, pair, 2)
