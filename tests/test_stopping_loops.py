"""A function whose body is `any` or `all` over a domain is a loop that stops at the answer
(codegen.stopping_loop: no generator made and resumed per item), with every form of the
aggregate (a filter, a value, both, neither) answering as the aggregate does: checked against
the same game compiled with coverage, whose functions keep the aggregate (a function a rule tag
stands on counts its calls: no loop), at every decision of random games."""
import random

from referee.interpreter.engine import load_game
from tests.compiled_support import function_source

STOPS = """
game "Stops" { players 2 }
board Cell: grid 5 by 5
component Stone { weight: int } label "stone {weight}"
zone supply: pile of Stone public
zone stone[Player, Cell]: set of Stone public
var rounds: int = 0
setup {
  for k in 1..30 {
    create 1 Stone { weight: k } in supply
  }
  shuffle supply
}

@R-1 "a rule, for coverage to count"
fn any_plain(p: Player): bool = any(c in Cell where size(stone[p, c]) > 0)
@R-2 "a rule, for coverage to count"
fn any_value(p: Player): bool = any(c in Cell where size(stone[p, c]) == 1: c.row == 1)
@R-3 "a rule, for coverage to count"
fn any_only_value(p: Player): bool = any(c in Cell: size(stone[p, c]) > 1)
@R-4 "a rule, for coverage to count"
fn all_plain(p: Player): bool = all(c in Cell where size(stone[p, c]) < 2)
@R-5 "a rule, for coverage to count"
fn all_value(p: Player): bool = all(c in Cell where size(stone[p, c]) > 0: size(stone[p, c]) == 1)
@R-6 "a rule, for coverage to count"
fn all_only_value(p: Player): bool = all(c in Cell: size(stone[p, c]) < 3)
@R-7 "a rule, for coverage to count"
fn any_heavy(p: Player): bool = any(x in supply where x.weight > rounds + p)
@R-8 "a rule, for coverage to count"
fn all_light(): bool = all(x in supply: x.weight < 25)
@R-9 "a rule, for coverage to count"
fn any_stone(p: Player): bool = any(x in stone[p, Cell(1, 1)])

action place(c in Cell) "place {c}" {
  move top(supply) to stone[current, c]
  rounds += 1
}
action lift(c in Cell where size(stone[current, c]) > 0) "lift {c}" {
  move all of stone[current, c] to supply
}
flow { turns from 1 until size(supply) == 0 or rounds > 40 { play place, lift } }
"""


def test_any_and_all_bodies_are_loops_that_answer_as_the_aggregates(write_rules):
    path = str(write_rules(STOPS))
    game, diagnostics, _ = load_game(path)
    plain, more, _ = load_game(path, coverage=True)
    assert diagnostics == [] and more == []
    names = list(game.compiler.types.functions)
    module, kept = game.compiler.module_source(), plain.compiler.module_source()
    for name in names:
        assert "break" in function_source(module, f"fn_{name}"), name
        assert "break" not in function_source(kept, f"fn_{name}"), name
    seen = set()
    rng = random.Random(2)
    for seed in range(8):
        state, other = game.new_initial_state(seed), plain.new_initial_state(seed)
        while not state.is_terminal():
            for name in names:
                parameters = game.compiler.types.functions[name].parameters
                for env in ([{"p": p} for p in game.seats] if parameters else [{}]):
                    answer = game.functions[name](state, env)
                    assert answer == plain.functions[name](other, env), (name, env)
                    seen.add((name, answer))
            move = rng.choice(state.legal_moves()).name
            state.apply(move)
            other.apply(move)
    # every function answered both ways at some decision: the loops' two exits were taken
    assert seen == {(name, answer) for name in names for answer in (True, False)}
