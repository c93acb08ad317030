"""squares(cells): every 2x2 block of the board lying wholly in the cells, in the board's
order of the blocks' first cells; the same as the plain test of every block of the board, on
grids with holes, with cells given twice or in any order."""
from hypothesis import given
from hypothesis import strategies as st

from tests.test_bordering import board


def plain_squares(geometry, cells):
    where = {eid: rc for rc, eid in geometry.at.items()}
    found = []
    for eid in geometry.cells:
        row, col = where[eid]
        block = [geometry.at.get((row + dr, col + dc)) for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1))]
        if None not in block and all(c in cells for c in block):
            found.append(block)
    return found


@given(data=st.data())
def test_squares_are_the_blocks_of_the_board_inside_the_cells(data):
    for name in ("solstis", "othello"):
        game, geometry = board(name)
        cells = data.draw(st.lists(st.sampled_from(geometry.cells), max_size=2 * len(geometry.cells)))
        assert game.board_functions["squares"](cells) == plain_squares(geometry, cells)


def test_squares_of_a_full_board_and_of_nothing():
    game, geometry = board("solstis")
    squares = game.board_functions["squares"]
    assert squares([]) == []
    everything = list(reversed(geometry.cells))
    assert squares(everything) == plain_squares(geometry, everything)
    assert len(squares(everything)) == 9 + 9 + 7 + 5 + 3       # Solstis: rows of 10, 10, 10, 8, 6, 4 cells


def test_the_most_squares_a_board_has_bounds_what_squares_returns():
    game, geometry = board("solstis")
    everything = list(geometry.cells)
    assert game.board_functions["most_squares"]() == len(game.board_functions["squares"](everything)) == 33
