"""groups(cells) and reachable(starts, through): the same as their plain definitions (the
connected parts of the cells, in the order their first cells come, each in the board's order;
the cells of `through` joined to a start by steps inside `through`), on grids with holes and
on hex maps, with cells given twice or in any order; a value that is no cell is an error."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.interpreter.runtime.errors import RulesRuntimeError
from tests.test_bordering import BOARDS, board


def plain_groups(geometry, cells):
    chosen, out, placed = set(cells), [], set()
    for start in cells:
        if start in placed:
            continue
        part = {start}
        while True:      # grown until no cell of the chosen joins it
            more = {n for c in part for n in geometry.neighbors[c] if n in chosen} - part
            if not more:
                break
            part |= more
        placed |= part
        out.append([c for c in geometry.cells if c in part])
    return out


def plain_reachable(geometry, starts, through):
    allowed = set(through)
    reached = {c for c in starts if c in allowed}
    while True:
        more = {n for c in reached for n in geometry.neighbors[c] if n in allowed} - reached
        if not more:
            break
        reached |= more
    return [c for c in through if c in reached]


@pytest.mark.parametrize("name", sorted(BOARDS))
@given(data=st.data())
def test_groups_and_reachable_are_what_their_plain_definitions_say(name, data):
    game, geometry = board(name)
    cells = data.draw(st.lists(st.sampled_from(geometry.cells), max_size=2 * len(geometry.cells)))
    starts = data.draw(st.lists(st.sampled_from(geometry.cells), max_size=6))
    assert game.board_functions["groups"](cells) == plain_groups(geometry, cells)
    assert game.board_functions["reachable"](starts, cells) == plain_reachable(geometry, starts, cells)


def test_a_value_that_is_no_cell_is_an_error():
    game, geometry = board("solstis")
    with pytest.raises(RulesRuntimeError, match="not a board cell"):
        game.board_functions["groups"]([geometry.cells[0], "a1"])
    with pytest.raises(RulesRuntimeError, match="not a board cell"):
        game.board_functions["reachable"]([1.5], [geometry.cells[0], 1.5])
    assert game.board_functions["groups"]([]) == [] and game.board_functions["reachable"]([], []) == []
