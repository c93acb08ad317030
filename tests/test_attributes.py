"""x.a = value: a component's attribute that changes (a crowned draughts piece)."""
import pytest

from referee.interpreter.engine import load_game

GAME = """
game "Crown" {
  players 2
  score p: kings(p)
}
board Sq: grid 7 by 7
component Piece { king: bool, steps: int } label "{king} piece"
zone at[Sq]: stack of Piece public
zone row[Player]: row of Piece public
var moves: int = 0
setup {
  for p in players {
    create 2 Piece { king: false, steps: 0, owner: p } in row[p]
  }
  move top(row[1]) to at[Sq(1, 1)]
}
# over the 49 cells of the board: a cached function, which must see the crowning
fn crowned_on_board(): int = count(c in Sq where size(at[c]) > 0 and top(at[c]).king)
fn kings(p: Player): int = count(x in row[p] where x.king) + (p == 1 ? crowned_on_board() : 0)
action crown(x in row[current] where not x.king) "crown {x}" {
  x.king = true
  x.steps += 2
  moves += 1
}
action crown_on_board "crown the piece on the board" {
  require crowned_on_board() == 0 else "already crowned"
  let x = top(at[Sq(1, 1)])
  x.king = true
  moves += 1
}
action wait "wait" { moves += 1 }
flow {
  turns from 1 until moves >= 6 {
    play crown, crown_on_board, wait
  }
}
"""


@pytest.fixture
def game(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(GAME)))
    assert diagnostics == []
    return game


def labels(state, key):
    return [state.entities[x]["__label__"] for x in state.zones[key]]


def test_a_changed_attribute_changes_labels_names_and_what_reads_it(game):
    state = game.new_initial_state(0)
    assert state.legal_move_names() == ["crown no piece", "crown the piece on the board", "wait"]
    before = state.clone()
    state.apply("crown no piece")                      # P1 crowns its piece in row[1]
    assert labels(state, ("row", 1)) == ["yes piece"]
    piece = state.zones[("row", 1)][0]
    assert state.entities[piece]["steps"] == 2 and state.scores() == [1, 0]
    state.apply("crown the piece on the board")         # P2 crowns P1's piece on the board
    assert state.scores() == [2, 0]                     # the cached count saw the change
    assert "crown the piece on the board" not in state.legal_move_names()
    assert labels(before, ("row", 1)) == ["no piece"] and before.scores() == [0, 0]     # a clone keeps its own
    assert labels(game.new_initial_state(0), ("row", 1)) == ["no piece"]              # and so do new games


def test_attributes_of_board_cells_and_unknown_attributes_are_refused(write_rules):
    bad = GAME.replace("  x.steps += 2\n", "  x.speed = 1\n")
    _, diagnostics, _ = load_game(str(write_rules(bad)))
    assert [d.code for d in diagnostics] == ["E203"] and "no attribute 'speed'" in diagnostics[0].message
    bad = GAME.replace("  x.steps += 2\n", "  let c = Sq(1, 1)\n  c.row = 2\n")
    _, diagnostics, _ = load_game(str(write_rules(bad)))
    assert "E209" in [d.code for d in diagnostics] and "cells never change" in diagnostics[-1].message
    bad = GAME.replace("  x.steps += 2\n", "  x.steps = true\n")
    _, diagnostics, _ = load_game(str(write_rules(bad)))
    assert [d.code for d in diagnostics] == ["E303"]


def test_a_failed_move_after_a_change_leaves_the_attribute_as_it_was(write_rules):
    text = GAME.replace("  moves += 1\n}\naction crown_on_board", "  moves += 1\n  moves = moves // (moves - moves)\n}\naction crown_on_board", 1)
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    with pytest.raises(Exception, match="division by zero"):
        state.apply("crown no piece")
    assert labels(state, ("row", 1)) == ["no piece"] and state.legal_move_names()[0] == "crown no piece"


def test_identical_components_share_a_signature_number_that_follows_a_changed_attribute(game):
    """The listings dedupe identical components by a number per signature (a small negative
    int, hashed at once): equal for identical components, different otherwise, and the
    number of the new attributes once one changes."""
    state = game.new_initial_state(0)
    same = game.column_index["__same__"]
    (in_row,) = state.zones[("row", 1)]
    (on_board,) = [x for key, items in state.zones.items() if key[0] == "at" for x in items]
    theirs = state.zones[("row", 2)]
    column = state.columns[same]
    assert column[in_row] == column[on_board] < 0           # identical: one number
    assert column[theirs[0]] == column[theirs[1]] < 0
    assert column[in_row] != column[theirs[0]]               # (the owner differs)
    state.apply("crown no piece")
    column = state.columns[same]
    assert column[in_row] not in (column[on_board], column[theirs[0]]) and column[in_row] < 0
    for x in (in_row, on_board, theirs[0]):
        assert game.signature_numbers[state.entities[x]["__same__"]] == column[x]
