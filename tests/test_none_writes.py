"""A value that may be none, written where the declared type has no '?': the checker lets it
through (rules often know the value is there), and the write stops the game with a located
runtime error when it is none, storing nothing (docs/language.md, "none, and how it
propagates")."""
import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError

HEAD = """game "G" { players 2 }
component Card { value: int }
zone deck: pile of Card
zone pile: pile of Card
var x: int = 0
var maybe: int? = none
"""
FLOW = """flow { turns from 1 until x > 3 { play take } }
"""
ACTION = 'action take "take" { '
LINE = 9            # the action's line
# each: the action's body, the value that may be none (where the error points)
WRITES = {
    "a variable": ("x = top(pile).value", "top(pile).value"),
    "a variable with indexes": ("points[current] = top(pile).value", "top(pile).value"),
    "an attribute": ("let c = top(deck) c.value = first(d in pile).value", "first(d in pile).value"),
    "an attribute from a local that may be none": ("let v = top(pile).value let c = top(deck) c.value = v", "v"),
}


def game_with(write_rules, body, setup="setup { create 2 Card { value: 3 } in deck }"):
    text = HEAD + "var points[Player]: int = 0\n" + setup + "\n" + \
        ACTION + body + " x += 1 }\n" + FLOW
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert diagnostics == []
    return game


@pytest.mark.parametrize("where", WRITES)
def test_none_written_where_the_type_has_no_question_mark_is_a_located_error(write_rules, where):
    body, value = WRITES[where]
    column = len(ACTION) + body.rindex(value) + 1
    state = game_with(write_rules, body).new_initial_state(seed=1)
    before = dict(state.vars)
    with pytest.raises(RulesRuntimeError) as raised:
        state.apply("take")
    assert "holds a number, but is given none here" in str(raised.value)
    assert "'int?'" in str(raised.value)
    assert (raised.value.span.line, raised.value.span.column) == (LINE, column)
    assert dict(state.vars) == before          # nothing stored, the move undone


def test_a_value_that_is_there_is_written(write_rules):
    """The same writes, with the value present: the game goes on (the check costs a test)."""
    body = "move top(deck) to pile x = top(pile).value let c = top(deck) c.value = top(pile).value"
    state = game_with(write_rules, body).new_initial_state(seed=1)
    state.apply("take")
    assert state.vars["x"] == 3 + 1
    assert [state.entities[e]["value"] for e in state.zones["deck"]] == [3]


def test_an_optional_variable_takes_none(write_rules):
    state = game_with(write_rules, "maybe = top(pile).value").new_initial_state(seed=1)
    state.apply("take")
    assert state.vars.get("maybe") is None and state.vars["x"] == 1


def test_a_created_attribute_that_is_none_is_a_located_error(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(
        HEAD + "setup { create 1 Card { value: top(pile).value } in deck }\n"
        'action take "take" { x += 1 }\n' + FLOW)))
    assert diagnostics == []
    with pytest.raises(RulesRuntimeError) as raised:
        game.new_initial_state(seed=1)
    assert "Card.value holds a number, but is given none here" in str(raised.value)
    assert (raised.value.span.line, raised.value.span.column) == (7, 32)


def test_adding_none_is_arithmetic_on_none_at_its_line(write_rules):
    state = game_with(write_rules, "x += top(pile).value").new_initial_state(seed=1)
    with pytest.raises(RulesRuntimeError, match="arithmetic on 'none'") as raised:
        state.apply("take")
    assert raised.value.span.line == LINE


def test_a_procedure_given_none_where_its_parameter_has_no_question_mark_is_a_located_error(write_rules):
    """A call writes its procedure's parameters: the same check as a variable's write."""
    game, diagnostics, _ = load_game(str(write_rules(
        HEAD + "proc keep(c: Card) { x += c.value }\n"
        'action take "take" { keep(top(pile)) }\n' + FLOW)))
    assert diagnostics == []
    state = game.new_initial_state(seed=1)
    with pytest.raises(RulesRuntimeError) as raised:
        state.apply("take")
    assert "'c' of keep holds 'Card', but is given none here (declare it 'Card?'" in str(raised.value)
    assert (raised.value.span.line, raised.value.span.column) == (8, 27)
