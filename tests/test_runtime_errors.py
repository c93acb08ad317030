"""A rules bug found while playing is a located RulesRuntimeError, never a Python error."""
import pytest

from interpreter.engine import load_game
from interpreter.errors import RulesRuntimeError

GAME = """
game "Broken" {
  players 2
}
board Cell: grid 3 by 3
var mark[Cell]: Player? = none
var length: int? = none

action put(c in Cell where mark[c] == none) "{c}" {
  mark[c] = current
}

flow {
  turns from 1 {
    play put
    if has_line(filter(c in Cell where mark[c] == current), length) {
      finish winners [current]
    }
  }
}
"""


def test_a_library_function_given_none_is_a_located_rules_error(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(GAME)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    with pytest.raises(RulesRuntimeError) as raised:
        state.apply(state.legal_moves()[0])
    message = str(raised.value)
    assert "TypeError while playing 'a1'" in message
    assert raised.value.span is not None and raised.value.span.line == 16


def test_geometry_of_something_that_is_no_cell_is_a_rules_error(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(GAME)))
    assert diagnostics == []
    state = game.new_initial_state(0)
    from interpreter import stdlib
    with pytest.raises(RulesRuntimeError, match="is not a board cell"):
        stdlib.neighbors(state, 10_000)
