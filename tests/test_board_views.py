"""Board drawings in views: one per board for what is indexed by [Board], one per seat for what
is indexed by [Player, Board], with the visibility of each zone and variable; and their text
rendering. Also: a game's compiled functions can be asked for their value in a state."""
from __future__ import annotations

from referee.interpreter.engine import load_game
from referee.interpreter.engine.render import render_board, render_view

OWN_BOARDS = '''
game "Gardens" {
  players 2
}
enum Plant { rose, fern }
component Seed { plant: Plant } label "{plant}"
board Bed: grid 2 by 3 where not (row == 2 and col == 3)
zone sack: pile of Seed hidden
zone planted[Player, Bed]: stack of Seed public
zone buried[Player, Bed]: set of Seed owner
var watered[Player, Bed]: bool = false
var shade[Bed]: int = 0

fn planted_count(p: Player): int = count(c in Bed where size(planted[p, c]) > 0)

setup {
  create 6 Seed { plant: rose } in sack
  create 6 Seed { plant: fern } in sack
}

action plant(c in Bed where size(planted[current, c]) == 0) "plant {c}" {
  deal 1 from sack to planted[current, c]
  deal 1 from sack to buried[current, c]
  watered[current, c] = true
}

flow {
  turns from 1 until size(sack) < 2 or all(p in players: planted_count(p) == 5) {
    play plant
  }
}
'''


def garden(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(OWN_BOARDS)))
    assert game is not None, diagnostics
    return game


def marks(board):
    return {cell["label"]: cell["marks"] for cell in board["cells"]}


def test_player_boards_are_drawn_once_per_seat(write_rules):
    game = garden(write_rules)
    s = game.new_initial_state(seed=1)
    s.apply("plant a1")
    s.apply("plant b2")
    boards = s.view(1)["boards"]
    assert set(boards) == {"Bed", "Bed[P1]", "Bed[P2]"}
    assert boards["Bed[P1]"]["player"] == 1 and boards["Bed[P2]"]["player"] == 2
    assert len(boards["Bed[P1]"]["cells"]) == 5, "only the cells that exist"
    rose_or_fern = {"rose", "fern"}
    mine = marks(boards["Bed[P1]"])
    # a1: the watered mark, the planted seed, the buried seed (P1 owns it)
    assert mine["a1"][0] == "yes" and set(mine["a1"][1:]) <= rose_or_fern and len(mine["a1"]) == 3
    assert all(not m for label, m in mine.items() if label != "a1")
    theirs = marks(boards["Bed[P2]"])
    # P1 sees P2's watered mark and planted seed, not the seed P2 buried
    assert len(theirs["b2"]) == 2 and theirs["b2"][0] == "yes"
    assert len(marks(s.view(2)["boards"]["Bed[P2]"])["b2"]) == 3
    assert set(boards["Bed[P1]"]["zones"]) == {"planted", "buried"}


def test_a_board_with_only_player_layers_has_no_shared_drawing(write_rules, tmp_path):
    text = OWN_BOARDS.replace("var shade[Bed]: int = 0\n", "")
    path = tmp_path / "own.rules"
    path.write_text(text)
    game, diagnostics, _ = load_game(str(path))
    assert game is not None, diagnostics
    assert set(game.new_initial_state().view(1)["boards"]) == {"Bed[P1]", "Bed[P2]"}


def test_several_marks_are_drawn_on_several_lines(write_rules):
    game = garden(write_rules)
    s = game.new_initial_state(seed=1)
    s.apply("plant a1")
    board = s.view(1)["boards"]["Bed[P1]"]
    lines = render_board(board)
    first = next(i for i, line in enumerate(lines) if line.strip().startswith("1"))
    stacked = [line for line in lines[first:-1] if line.strip()]      # the last line labels the columns
    assert stacked[0].split()[:2] == ["1", "yes"] and len(stacked) == 3
    assert lines[-1].split() == ["a", "b", "c"]         # as on top: 'plant a1' names cells by letter
    text = render_view(s.view(1))
    assert "P1's Bed:" in text and "P2's Bed:" in text       # in words, not 'Bed[P1]' (issue 26)
    # the zones drawn whole on the boards are not listed again
    assert "planted[" not in text and "buried[" not in text


def test_a_games_functions_can_be_asked(write_rules):
    game = garden(write_rules)
    s = game.new_initial_state(seed=1)
    s.apply("plant a1")
    s.apply("plant a1")
    s.apply("plant c1")
    assert game.functions["planted_count"](s, {"p": 1}) == 2
    assert game.functions["planted_count"](s, {"p": 2}) == 1
