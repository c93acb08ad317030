"""A variable of type int may declare the range of its values (`var face: int in 1..sides`):
its bounds are known before the game starts, its initial value is inside, and a write outside
is a located runtime error, never stored (search bots draw unseen values from the range)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError

GAME = """game "Ranges" { players 2 }
param sides: int in 2..9 = 6
param low: int in 0..9 = 1
var face[Player]: int in low..sides owner = 1
var streak: int? in 0..3 = none
action set(n in 0..10) "set {n}" { face[current] = n }
action add(n in 1..4) "add {n}" { streak = streak == none ? n - 1 : streak + n }
action raise_by(n in 1..4) "raise {n}" { face[current] += n }
flow { turns from 1 { play set, add, raise_by } }
"""


def load(write_rules, text=GAME, **params):
    return load_game(str(write_rules(text)), params=params)


def test_writes_inside_the_range_are_stored(write_rules):
    game, diagnostics, _ = load(write_rules)
    assert diagnostics == [] and game.var_ranges == {"face": (1, 6), "streak": (0, 3)}
    state = game.new_initial_state(0)
    state.apply("set 6")
    state.apply("add 1")
    assert state.vars[("face", 1)] == 6 and state.vars["streak"] == 0


@pytest.mark.parametrize("moves, message", [
    (["set 0"], "face is given 0, outside its range 1..6"),
    (["set 7"], "face is given 7, outside its range 1..6"),
    (["set 5", "set 1", "raise 2"], "face is given 7, outside its range 1..6"),
    (["add 4"], "streak is given 3"),          # 3 is inside: no error yet
])
def test_a_write_outside_the_range_is_a_located_error_and_changes_nothing(write_rules, moves, message):
    game = load(write_rules)[0]
    state = game.new_initial_state(0)
    *before, last = moves
    for move in before:
        state.apply(move)
    if message.startswith("streak"):
        state.apply(last)
        assert state.vars["streak"] == 3
        with pytest.raises(RulesRuntimeError, match="streak is given 7, outside its range 0..3") as raised:
            state.apply("add 4")
        last = "add 4"
    else:
        kept = dict(state.vars)
        with pytest.raises(RulesRuntimeError, match=message) as raised:
            state.apply(last)
        assert state.vars == kept                  # never stored
    line = next(k for k, text in enumerate(GAME.splitlines(), 1) if f'"{last.split()[0]}' in text
                or (last.startswith("raise") and "raise_by" in text))
    assert raised.value.span is not None and raised.value.span.line == line


def test_the_range_follows_the_params_given_when_loading(write_rules):
    game = load(write_rules, sides=9)[0]
    state = game.new_initial_state(0)
    state.apply("set 9")
    assert game.var_ranges["face"] == (1, 9) and state.vars[("face", 1)] == 9


def test_params_that_leave_the_initial_value_outside_are_a_diagnostic(write_rules):
    game, diagnostics, _ = load(write_rules, low=3)
    assert game is None
    [diagnostic] = diagnostics
    assert diagnostic.code == "E213" and "'face' starts at 1, outside its range 3..6" in diagnostic.message
    assert diagnostic.span.line == 4 and "= 3" in diagnostic.hint


def test_a_range_that_holds_no_value_is_a_diagnostic_under_both_bounds(write_rules):
    game, diagnostics, _ = load(write_rules, low=8, sides=7)
    [diagnostic] = diagnostics
    assert diagnostic.code == "E213" and "the range of 'face', 8..7, holds no value" in diagnostic.message
    span = diagnostic.span
    assert (span.line, span.column, span.end_column) == (4, 26, 36)      # low..sides (the end excluded)
    assert "smaller bound first" in diagnostic.hint


@pytest.mark.parametrize("declaration, message", [
    ("var flag: bool in 0..1", "only an int variable has a range of values, not true/false"),
    ("var m: int in 1..(count(p in players: p > 0)) = 1", "must be known before the game starts, but it reads"),
    ('var m: int in 1..("six") = 1', "the bounds of the range of 'm' are whole numbers"),
])
def test_the_checker_refuses_ranges_it_cannot_know(write_rules, declaration, message):
    text = GAME.replace('var streak: int? in 0..3 = none', 'var streak: int? in 0..3 = none\n' + declaration)
    game, diagnostics, _ = load(write_rules, text)
    assert game is None and [d.code for d in diagnostics] == ["E213"] and message in diagnostics[0].message


def test_a_literal_outside_the_range_is_an_error_when_the_game_is_compiled(write_rules):
    text = GAME.replace("face[current] = n", "face[current] = 9")
    game, diagnostics, _ = load(write_rules, text)
    assert game is None and "face is given 9, outside its range 1..6" in diagnostics[0].message
    assert diagnostics[0].span.line == 6


def test_visibility_words_still_start_statements_after_an_expression(write_rules):
    """The range's bounds are no open expressions, so `owner` may follow them while a
    statement after an expression may still start with a variable named `owner`."""
    text = GAME.replace("var streak: int? in 0..3 = none", "var streak: int? in 0..3 = none\nvar owner: int = 0") \
        .replace("face[current] = n }", "face[current] = n\n owner = n }")
    game, diagnostics, _ = load(write_rules, text)
    assert diagnostics == []


@pytest.fixture(scope="module")
def wide_game(tmp_path_factory):
    path = tmp_path_factory.mktemp("ranges") / "wide.rules"
    path.write_text(GAME.replace("n in 0..10", "n in -3..12"), encoding="utf-8")
    return load_game(str(path))[0]


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=-3, max_value=12))
def test_every_value_is_either_stored_inside_the_range_or_refused(wide_game, n):
    state = wide_game.new_initial_state(0)
    try:
        state.apply(f"set {n}")
    except RulesRuntimeError:
        assert not 1 <= n <= 6
    else:
        assert 1 <= n <= 6 and state.vars[("face", 1)] == n
