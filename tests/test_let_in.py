"""let NAME = VALUE in EXPR: a local name inside an expression; recursion in functions."""
import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError

GAME = """
game "Let in" { players 2 }
var heap: int = 9
fn double_rest(n: int): int = let rest = heap - n in rest * 2
fn ok(n: int): bool = let r = double_rest(n) in r >= 0 and r != 2
fn countdown(n: int): int = n <= 0 ? 0 : 1 + countdown(n - 1)
action take(n in 1..3 where ok(n) and countdown(n) == n) "take {n}" { heap -= n }
flow {
  turns from 1 until heap == 0 { play take }
  finish winners [previous(current)]
}
"""


def load(write_rules, text=GAME):
    game, diagnostics, _ = load_game(str(write_rules(text)))
    return game, diagnostics


def test_a_local_name_inside_a_function(write_rules):
    game, diagnostics = load(write_rules)
    assert diagnostics == []
    state = game.new_initial_state(0)
    assert game.functions["double_rest"](state, {"n": 2}) == 14
    state.apply("take 3")
    state.apply("take 3")                   # heap 3: taking 2 would leave 1, doubled 2: refused
    assert state.legal_move_names() == ["take 1", "take 3"]


def test_let_in_checks_its_parts(write_rules):
    _, diagnostics = load(write_rules, GAME.replace("let rest = heap - n in rest * 2", "let heap = 3 in heap * 2"))
    assert [d.code for d in diagnostics] == ["E210"]
    _, diagnostics = load(write_rules, GAME.replace("let rest = heap - n in rest * 2", "let rest = heap - n in rest and true"))
    assert diagnostics and diagnostics[0].code in ("E301", "E303")


def test_a_recursion_without_end_is_a_located_runtime_error(write_rules):
    game, diagnostics = load(write_rules, GAME.replace("n <= 0 ? 0 : 1 + countdown(n - 1)", "1 + countdown(n - 1)"))
    assert diagnostics == []
    with pytest.raises(RulesRuntimeError, match=r":6:\d+: runtime error: functions call each other too deeply .*: a function that calls itself without end\?"):
        game.new_initial_state(0)
