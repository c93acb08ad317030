"""A function that goes over a range up to a variable declared to reach far (`1..columns`,
`var columns: int in 1..48`) is as costly as one over a board of that size: cached, and its
cached values follow the variable and the zones it reads."""
import random

from referee.interpreter.engine import load_game

SLOTS = """
game "Slots" { players 2 }
component Chip { value: int } label "chip {value}"
zone supply: pile of Chip public
zone slot[1..60]: stack of Chip public
var open_slots: int in 1..60 = 3
var few: int in 1..5 = 2
setup {
  for v in 1..30 { create 1 Chip { value: v } in supply }
  shuffle supply
}
fn tops(): list of Chip = map(k in 1..open_slots where size(slot[k]) > 0: top(slot[k]))
fn tops_in(ks: list of int): list of Chip = map(k in ks where size(slot[k]) > 0: top(slot[k]))
fn first_few(): list of Chip = map(k in 1..few where size(slot[k]) > 0: top(slot[k]))
action drop(k in 1..open_slots) "drop {k}" {
  move top(supply) to slot[k]
}
action widen "widen" {
  require open_slots < 60
  open_slots += 1
}
flow { turns from 1 until size(supply) == 0 { play drop, widen } }
"""


def test_a_function_over_a_range_up_to_a_far_reaching_variable_is_cached_and_follows_it(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(SLOTS)))
    assert diagnostics == []
    assert "tops" in game.compiler.memoized
    assert "first_few" not in game.compiler.memoized       # 1..5 at most: not worth a cache
    compiled = game.compiler.codegen.namespace
    rng = random.Random(1)
    widened = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            reach = list(range(1, state.vars.get("open_slots", 3) + 1))
            assert compiled["fn_tops"](state) == compiled["fn_tops_in"](state, reach)
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
            widened += move.name == "widen"
            state.apply(move)
    assert widened > 3
