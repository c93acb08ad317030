"""Lists of lists and deep recursion in native kernels (issue 24): checkers' jumps (a recursion
through four functions that return lists of lists of squares, an action whose argument is one
of those lists) render as Numba's own recursion (recursion_heads.py): one head that calls
itself, the others inlined into it, at any depth, and checkers plays Python's games move for
move. A group rendered by copies by depth (forced here with `copies_forced`: procedures still
are) spends one depth per round (recursion.deeper_calls), and too many copies are refused."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.dsl.types import INT, ListOf, Named, OptionalOf  # noqa: E402
from referee.interpreter.native.cell_lists_source import is_nested  # noqa: E402
from referee.interpreter.native import recursion  # noqa: E402
from referee.interpreter.native.recursion import deeper_calls, depths_of, recursive_groups  # noqa: E402
from referee.interpreter.native.recursion_heads import RecursionHeadsSource, has_cycle, head_of  # noqa: E402
from referee.interpreter.native.rules_source import NotNative  # noqa: E402
from referee.interpreter.native.rules_source import render  # noqa: E402
from tests.native_support import kernel_of, natively  # noqa: E402


def loaded(path, players=2):
    game, diagnostics, _ = load_game(str(path), players=players)
    assert game is not None, diagnostics
    return game


@pytest.fixture
def copies_forced(monkeypatch):
    """Every recursive group rendered by copies by depth, as before recursion_heads.py."""
    def no_heads(self, groups):
        self.recursing = None
        return {}
    monkeypatch.setattr(RecursionHeadsSource, "native_groups", no_heads)


@pytest.fixture
def copies_allowed(copies_forced, monkeypatch):
    monkeypatch.setattr(recursion, "MOST_COPIES", 1000)


def test_checkers_plays_the_python_games():
    records = natively(kernel_of("games/checkers.rules", 2), range(1, 9))
    assert {r["outcome"] for r in records} == {"win", "draw"}


def test_checkers_jumps_are_one_head_that_calls_itself():
    source = render(loaded("games/checkers.rules"))
    # jumps_along lies on every cycle (its own, and from -> along -> toward -> on -> from)
    assert "@njit(cache=True)\ndef rec_jumps_along(" in source
    for other in ("jumps_from", "jumps_toward", "jumps_on"):
        assert f"@njit(inline='always')\ndef fn_{other}(" in source
    assert "_d0(" not in source and "fn_jumps_on_d" not in source
    assert source.rstrip().endswith("rec_jumps_along.disable_compile()")
    # the wrapper gives the head its arguments in the signature's types (a literal 1 is an int64)
    assert "rec_jumps_along(S, np.int64(cur), np.ascontiguousarray(L_ds), np.int64(L_i)," in source


def test_a_test_that_reads_no_binder_is_asked_once_before_the_loops():
    """The step's `require not can_play(jump)` reads neither `from` nor `to`: once a listing (it
    lists every jump), not once a square; a test that draws is left in its loop."""
    from referee.dsl import ast
    from referee.interpreter.native.listing_source import reads_binder_or_draws
    game = loaded("games/checkers.rules")
    source = render(game)
    moves = source.split("def moves_step(")[1].split("@njit")[0]
    assert "    listed_step = legal_step_0(S, cur)\n    for L_from in range(0, 32):\n        if not listed_step: break" in moves
    assert "any_jump" in source.split("def legal_step_0(")[1].split("@njit")[0]
    assert "any_jump" not in source.split("def legal_step_1(")[1].split("@njit")[0]
    step = next(a for a in game.program.of_kind(ast.Action) if a.name == "step")
    require = ast.untag(step.body[0])[0].condition
    assert not reads_binder_or_draws(require, step.binders)
    assert reads_binder_or_draws(step.binders[0].condition, step.binders)
    draws = ast.Call(require.span, "pick", (ast.Range(require.span, ast.Integer(require.span, 1), ast.Integer(require.span, 2)),))
    assert reads_binder_or_draws(draws, step.binders)


def test_checkers_by_copies_is_refused_for_its_copies_with_its_line(copies_forced):
    game = loaded("games/checkers.rules")
    with pytest.raises(NotNative) as refused:
        render(game)
    assert refused.value.note() == ("games/checkers.rules:45: a recursion through 4 functions (jumps_along, "
                                    "jumps_from, jumps_on, jumps_toward): its 64 copies by depth compile too slowly yet")


def test_only_the_calls_that_close_a_cycle_go_deeper():
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


def test_a_head_lies_on_every_cycle_or_there_is_none():
    calls = {"a": {"a", "b"}, "b": {"c"}, "c": {"a"}}
    assert head_of(frozenset(calls), calls, ["b", "c", "a"]) == "a"
    two_cycles = {"a": {"a", "b"}, "b": {"b", "a"}}      # a and b each call themselves: no one head
    assert head_of(frozenset(two_cycles), two_cycles, ["a", "b"]) is None


NAMES = "abcde"


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(NAMES), st.sets(st.sampled_from(NAMES)), min_size=1))
def test_the_head_found_cuts_every_cycle(calls):
    group = frozenset(calls)
    calls = {name: callees & group for name, callees in calls.items()}
    head = head_of(group, calls, list(NAMES))

    def without(name):
        return {n: callees - {name} for n, callees in calls.items() if n != name}
    if head is not None:
        assert not has_cycle(without(head))
    else:
        assert all(has_cycle(without(name)) for name in group)


SQUARES = ListOf(Named("Square"))


@pytest.mark.parametrize("t, nested", [(ListOf(SQUARES), True), (OptionalOf(ListOf(ListOf(INT))), True),
                                       (SQUARES, False), (INT, False)])
def test_a_list_of_lists_is_told_by_its_type(t, nested):
    assert is_nested(t) == nested
