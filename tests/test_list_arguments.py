"""An action's argument over a set of lists is a list as the rules see it: equal to a list literal
and to the same list met in a `for` loop, in the action's filter and in its effect (the engine keeps
it hashable, a move being looked up by its arguments)."""
from referee.interpreter.engine import load_game

PICKS = """
game "List arguments" {
  players 2
  score p: points[p]
}

var points[Player]: int = 0
var rounds: int = 0

action pick(l in [[1, 2], [2, 3], [1, 2, 3], [3]] where l != [3]) "pick {l}" {
  if l == [1, 2] {
    points[current] += 10
  }
  for m in [[1, 2], [2, 3]] {
    if m == l {
      points[current] += 1
    }
  }
  if [1, 2, 3] != l {
    points[current] += 100
  }
}

flow {
  turns from 1 until rounds >= 4 {
    rounds += 1
    play pick
  }
}
"""


def test_a_list_argument_equals_the_lists_it_holds(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(PICKS)), players=2)
    assert game is not None, diagnostics
    state = game.new_initial_state(0)
    assert state.legal_move_names() == ["pick 1, 2", "pick 2, 3", "pick 1, 2, 3"]
    state.apply("pick 1, 2")
    assert state.scores() == [111, 0]
    state.apply("pick 2, 3")
    assert state.scores() == [111, 101]
    state.apply("pick 1, 2, 3")
    assert state.scores() == [111, 101]
