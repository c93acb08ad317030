"""after PROC(args): EXPR -- a condition read on the state a procedure would leave (lookahead)."""
import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import IllegalMove

GAME = """
game "Safe heap" { players 2 }
var heap: int = 7
var taken[Player]: int = 0
proc take(n: int) {
  heap -= n
  taken[current] += n
}
fn leaves(n: int): int = after take(n): heap
action grab(n in 1..3 where n <= heap) "take {n}" {
  require heap <= 3 or leaves(n) != 1 else "you may not leave a single one"
  require (after take(n): taken[current]) <= 6 else "at most 6 in all"
  take(n)
}
flow {
  turns from 1 until heap == 0 {
    play grab
  }
  finish winners [previous(current)]
}
"""


@pytest.fixture
def game(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(GAME)))
    assert diagnostics == []
    return game


def test_a_move_is_refused_for_what_it_would_leave(game):
    state = game.new_initial_state(0)
    state.apply("take 3")                                   # heap 4
    assert state.legal_move_names() == ["take 1", "take 2"]   # taking 3 would leave 1
    with pytest.raises(IllegalMove, match="you may not leave a single one"):
        state.apply("take 3")


def test_looking_ahead_changes_nothing(game):
    state = game.new_initial_state(0)
    before = (dict(state.vars), list(state.history), {k: list(v) for k, v in state.zones.items()})
    assert game.functions["leaves"](state, {"n": 2}) == 5
    state.legal_moves()
    assert (dict(state.vars), list(state.history), {k: list(v) for k, v in state.zones.items()}) == before


def test_a_condition_on_what_the_procedure_adds_up(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(GAME.replace("var heap: int = 7", "var heap: int = 20"))))
    assert diagnostics == []
    state = game.new_initial_state(0)
    for name in ("take 3", "take 1", "take 2", "take 1"):     # P1 has taken 5, heap 13
        state.apply(name)
    assert state.current_player() == 1 and state.legal_move_names() == ["take 1"]
    with pytest.raises(IllegalMove, match="at most 6 in all"):
        state.apply("take 2")
