"""Lists of cells, lists of lists, list variables and texts in native kernels (issue 24):
tests/native/cell-lists.rules (squares, groups, largest_group, bordering, reachable, neighbors,
adjacent, the best of a list of lists, a list variable plain and per player, texts compared,
pick of a zone) gives the games Python gives, move for move, none handed to Python. Its kernel
is compiled once per run at most (Numba's cache keeps it between runs)."""
import pytest

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402
from tests.native_support import kernel_of, natively  # noqa: E402

CELL_LISTS = "tests/native/cell-lists.rules"


@pytest.fixture(scope="module")
def cell_lists():
    return kernel_of(CELL_LISTS, 2)


def test_lists_of_cells_play_the_python_games(cell_lists):
    python = natively(cell_lists, range(1, 41))
    assert len({tuple(r["scores"]) for r in python}) > 5         # (games that differ)


def kernel_source(tmp_path, text: str) -> str:
    path = tmp_path / "game.rules"
    path.write_text(text)
    game, diagnostics, _ = load_game(str(path), players=2)
    assert game is not None, diagnostics
    return render(game)


GAME = '''game "G" {{
  players 2
}}
{declarations}
action go "go" {{
  {effect}
}}
flow {{
  turns from 1 until done {{
    play go
  }}
}}
'''


def test_a_list_variable_is_a_row_of_the_state_and_its_writes_are_checked(tmp_path):
    source = kernel_source(tmp_path, GAME.format(declarations="var done: bool = false\nvar seats: list of Player = []",
                                                 effect="seats = map(p in players: p)\n  done = size(seats) > 1"))
    assert "list_write(S, " in source and "list_read(S, " in source


def test_a_list_variable_s_first_value_is_written_by_the_setup(tmp_path):
    source = kernel_source(tmp_path, GAME.format(declarations="var done: bool = false\nvar seats: list of int = [1, 5]",
                                                 effect="done = true"))
    assert "] = np.array([2, 1, 5])" in source.split("def setup(S, cur):")[1].split("def ")[0]


def test_a_list_variable_that_starts_past_its_room_is_refused_with_its_line(tmp_path):
    with pytest.raises(NotNative) as refused:
        kernel_source(tmp_path, GAME.format(declarations="var done: bool = false\nvar seats: list of Player = [1, 2, 1]",
                                            effect="done = true"))
    assert "longer than its room" in str(refused.value.note()) and ":5" in refused.value.note()


def test_texts_are_coded_by_their_literal_braces_and_all(tmp_path):
    source = kernel_source(tmp_path, GAME.format(declarations="var done: bool = false",
                                                 effect='done = "a" != "b" and "{current}" == "{current}"'))
    assert "(0 != 1)" in source and "(2 == 2)" in source
