"""bordering(cells): the cells next to one of the cells and not among them, in the board's order;
the same as the plain filter over the board that docs/language.md gives, on grids with holes and
on hex maps, and usable in a rules file."""
import functools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError
from tests.conftest import GAMES

BOARDS = {"solstis": "Pos", "titicaca": "Map", "othello": "Square"}


@functools.cache             # (at first use, not when collecting)
def board(name):
    game, diagnostics, _ = load_game(str(GAMES / f"{name}.rules"))
    assert diagnostics == []
    return game, game.geometries[BOARDS[name]]


@pytest.mark.parametrize("name", sorted(BOARDS))
@given(data=st.data())
def test_bordering_is_the_filter_over_the_board_it_stands_for(name, data):
    game, geometry = board(name)
    bordering = game.board_functions["bordering"]
    cells = data.draw(st.lists(st.sampled_from(geometry.cells), max_size=len(geometry.cells)))
    plain = [c for c in geometry.cells
             if c not in cells and any(n in cells for n in geometry.neighbors[c])]
    assert bordering(cells) == plain


def test_bordering_of_nothing_is_empty_and_of_a_non_cell_is_an_error():
    game, geometry = board("solstis")
    bordering = game.board_functions["bordering"]
    assert bordering([]) == []
    with pytest.raises(RulesRuntimeError, match="not a board cell"):
        bordering([geometry.cells[0], None])


def test_a_rules_file_asks_for_the_cells_bordering_its_own(write_rules):
    game, diagnostics, _ = load_game(str(write_rules("""
game "Spread" { players 2 }
board Cell: grid 3 by 3
var owner[Cell]: Player? = none
fn mine(p: Player): list of Cell = filter(c in Cell where owner[c] == p)
action claim(c in Cell where owner[c] == none and (size(mine(current)) == 0 or c in bordering(mine(current))))
  "claim {c}" {
  owner[c] = current
}
flow { turns from 1 until all(c in Cell: owner[c] != none) or not can_play(claim) { play claim } }
""")))
    assert diagnostics == []
    state = game.new_initial_state(0)
    state.apply("claim b2")
    state.apply("claim a1")
    assert sorted(m.name for m in state.legal_moves()) == ["claim a2", "claim b1", "claim b3", "claim c2"]
    state.apply("claim b3")
    assert sorted(m.name for m in state.legal_moves()) == ["claim a2", "claim b1"]
