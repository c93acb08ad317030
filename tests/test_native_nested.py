"""Lists of lists and deep recursion in native kernels (issue 24): checkers' jumps (a recursion
through four functions that return lists of lists of squares, an action whose argument is one
of those lists) render natively once the group's copies are allowed (MOST_COPIES: their compile
grows with the square of the copies, so checkers is refused by default). Only the calls that
close a cycle of calls go a copy deeper (recursion.deeper_calls), so a chain of jumps spends one
depth per round."""
import pytest

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.dsl.types import INT, ListOf, Named, OptionalOf  # noqa: E402
from referee.interpreter.native.cell_lists_source import is_nested  # noqa: E402
from referee.interpreter.native import recursion  # noqa: E402
from referee.interpreter.native.recursion import deeper_calls, depths_of, recursive_groups  # noqa: E402
from referee.interpreter.native.rules_source import NotNative  # noqa: E402
from referee.interpreter.native.rules_source import render  # noqa: E402


def loaded(path, players=2):
    game, diagnostics, _ = load_game(str(path), players=players)
    assert game is not None, diagnostics
    return game


@pytest.fixture
def copies_allowed(monkeypatch):
    monkeypatch.setattr(recursion, "MOST_COPIES", 1000)


def test_checkers_is_refused_for_its_copies_with_its_line():
    game = loaded("games/checkers.rules")
    with pytest.raises(NotNative) as refused:
        render(game)
    assert refused.value.note() == ("games/checkers.rules:45: a recursion through 4 functions (jumps_along, "
                                    "jumps_from, jumps_on, jumps_toward): its 64 copies by depth compile too slowly yet")


def test_only_the_calls_that_close_a_cycle_go_deeper(copies_allowed):
    program = loaded("games/checkers.rules").program
    groups = recursive_groups(program)
    assert set(groups) == {"jumps_from", "jumps_along", "jumps_toward", "jumps_on"}
    assert deeper_calls(program, groups) == {("jumps_along", "jumps_along"), ("jumps_on", "jumps_from")}


def test_the_copies_by_depth_and_the_paths_coded_by_position(copies_allowed):
    source = render(loaded("games/checkers.rules"))
    depths = depths_of(recursive_groups(loaded("games/checkers.rules").program)["jumps_on"])
    assert depths == 16
    assert f"def fn_jumps_on_d{depths - 1}(" in source and f"def fn_jumps_on_d{depths}(" not in source
    # a copy calls the next function of the chain at its own depth, the one closing the cycle a depth deeper
    assert "def fn_jumps_from_d3(S, cur, L_origin, L_at, L_p, L_r, L_taken):\n    return fn_jumps_along_d3(" in source
    assert "fn_jumps_from_d4(" in source.split("def fn_jumps_on_d3(")[1].split("@njit")[0]
    # the jump's move codes its path's position among the paths; playing it lists them again
    assert "for at_L_path in range(len(items_L_path)):" in source
    assert "L_path = items_L_path[(move >> 10) & 1023]" in source


SQUARES = ListOf(Named("Square"))


@pytest.mark.parametrize("t, nested", [(ListOf(SQUARES), True), (OptionalOf(ListOf(ListOf(INT))), True),
                                       (SQUARES, False), (INT, False)])
def test_a_list_of_lists_is_told_by_its_type(t, nested):
    assert is_nested(t) == nested
