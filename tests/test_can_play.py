"""can_play(ACTION[, PLAYER]): whether an action has a legal move now (for that player)."""
import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import IllegalMove

GAME = """
game "Take or pass" { players 2 }
var heap: int = 4
var passes: int = 0
action take(n in 1..2 where n <= heap and n != current) "take {n}" {
  heap -= n
  passes = 0
}
action pass "pass" {
  require not can_play(take) else "you can take, so you must"
  passes += 1
}
flow {
  turns from 1 until passes >= 2 or not (can_play(take, 1) or can_play(take, 2)) {
    play take, pass
  }
}
"""


def load(write_rules, text=GAME):
    game, diagnostics, _ = load_game(str(write_rules(text)))
    return game, diagnostics


def test_pass_only_when_the_action_has_no_legal_move(write_rules):
    game, diagnostics = load(write_rules)
    assert diagnostics == []
    state = game.new_initial_state(0)
    assert state.legal_move_names() == ["take 2"]              # P1 may not take 1: a take is legal
    with pytest.raises(IllegalMove, match="you can take, so you must"):
        state.apply("pass")
    state.apply("take 2")                                       # heap 2
    assert state.legal_move_names() == ["take 1"]              # P2 may not take 2
    state.apply("take 1")                                       # heap 1: P1 can take nothing
    assert state.current_player() == 1 and state.legal_move_names() == ["pass"]
    state.apply("pass")
    # asked for another player: P2 can still take 1, so the game goes on
    assert not state.is_terminal() and state.current_player() == 2
    state.apply("take 1")                                       # heap 0: nobody can take
    assert state.is_terminal()

@pytest.mark.parametrize("call, code", [("can_play(nothing)", "E205"), ("can_play(take, true)", "E303"),
                                        ("can_play()", "E208"), ("can_play(heap)", "E205")])
def test_can_play_is_checked(write_rules, call, code):
    _, diagnostics = load(write_rules, GAME.replace("not can_play(take)", call))
    assert [d.code for d in diagnostics] == [code]
