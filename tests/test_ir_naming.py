"""The functions that name moves built as IR (compile/lower_naming.py): a move's name joined
from its pieces, its arguments' texts, the gaps of empty values closed as the engine closes
them, and the generated namers of a game as the engine used to write them; the Type values the
compiler takes apart answer as the type texts did."""
import re

import pytest
from referee.dsl.parser import parse_expression
from referee.dsl.types import INT, ListOf, OptionalOf, element_type, type_of
from referee.interpreter.compile import ir
from referee.interpreter.compile.lower_functions import prologue
from referee.interpreter.compile.lower_naming import gaps_closed, identifier, or_empty
from referee.interpreter.compile.render_python import expression, render_function
from referee.interpreter.engine import load_game
from referee.interpreter.engine.labels import closed_gaps
from referee.interpreter.runtime.values import EMPTY_VALUE

from tests.golden import ROOT
from tests.type_texts import element_of, strip_optional

A0, A1 = ir.Local("a0"), ir.Local("a1")


@pytest.mark.parametrize("pieces, text", [
    ((), "''"),
    ((ir.Constant("pass"),), "'pass'"),
    ((ir.ArgumentText(A0, "label"),), '(_E[a0]["__label__"] if a0 is not None else "none")'),
    ((ir.Constant("bid "), or_empty(ir.Call("_k3", (A0,)))), "'bid ' + (_k3(a0) or '\\x00')"),
    ((ir.ArgumentText(A0, "label"), ir.Constant(" on "), ir.ArgumentText(A1, "seat")),
     '(_E[a0]["__label__"] if a0 is not None else "none") + \' on \' + ("P" + str(a1) if a1 is not None else "none")'),
])
def test_a_joined_text_brackets_each_piece_that_is_not_one_term(pieces, text):
    assert expression(ir.JoinedText(pieces)) == text


def test_a_long_joined_text_is_joined_by_a_call_not_a_deep_sum():
    pieces = tuple(ir.Constant(str(k)) for k in range(17))
    text = expression(ir.JoinedText(pieces))
    assert text.startswith("''.join(('0', '1', ") and text.endswith("'16',))")
    assert eval(text) == "".join(map(str, range(17)))
    assert expression(ir.JoinedText(pieces[:16])).count(" + ") == 15


def test_an_argument_shown_as_a_label_binds_the_entities_and_a_seat_does_not():
    label = ir.Function("name_x", ("s", "a0"), (ir.Return(ir.JoinedText((ir.ArgumentText(A0, "label"),))),))
    seat = ir.Function("name_y", ("s", "a0"), (ir.Return(ir.JoinedText((ir.ArgumentText(A0, "seat"),))),))
    assert prologue(label.body, {}) == (ir.Assign("_E", ir.ReadState("entities")),)
    assert prologue(seat.body, {}) == ()


@pytest.mark.parametrize("text", ["take \x00 now", "\x00 first", "last \x00", "\x00", "a \x00 \x00 b", "none here"])
def test_the_generated_gaps_closing_is_the_engines(text):
    rendered = render_function(ir.Function("name_t", ("s", "a0"), gaps_closed(ir.Local("a0"))))
    namespace: dict = {}
    exec("\n".join([rendered.header + ":"] + rendered.lines), namespace)
    assert namespace["name_t"](None, text) == closed_gaps(text)
    assert rendered.lines[1] == f"    if {EMPTY_VALUE!r} in t:"


@pytest.mark.parametrize("name", ["bear_off", "take", "x9", "é_card", "a-b c"])
def test_an_identifier_is_what_the_engine_made_of_an_action_name(name):
    assert identifier(name) == re.sub(r"\W", "_", name)


@pytest.mark.parametrize("path", [str(ROOT / "games" / "backgammon.rules"), str(ROOT / "games" / "titicaca.rules")])
def test_a_games_namers_are_ir_functions_without_host_source(path, monkeypatch):
    game, diagnostics, _ = load_game(path)
    assert not [d for d in diagnostics if d.severity == "error"]
    compiler, defined = game.compiler, []
    define = compiler.define
    monkeypatch.setattr(compiler, "define", lambda function, *rest, **named: defined.append(function) or define(
        function, *rest, **named))
    again = [compiler.move_namer(action, parts, tail)[0] for action, (parts, tail) in zip(game.actions, game.templates)]
    assert [f.name for f in defined] == [f"name_{action.name}" for action in game.actions]
    s = game.new_initial_state(0)
    moves = s.legal_moves()
    assert moves and [namer(s, *m.args) for m in moves for namer in [again[m.action]]] == [m.name for m in moves]


@pytest.mark.parametrize("text", ["int", "Card", "Card?", "list[int]", "list[Card?]", "list[list[int]]", "zone[Card]",
                                  "list[Card]?", "list[any]", "any", "none", "real"])
def test_the_type_values_the_compiler_takes_apart_answer_as_their_texts_did(text):
    t = type_of(text)
    assert element_type(t).text == element_of(text)
    assert t.without_none().text == strip_optional(text)
    # (a list that may be none starts as a list: its text's test was the base type's)
    assert isinstance(t.without_none(), ListOf) == text.startswith("list[")
    assert isinstance(t, OptionalOf) == text.endswith("?")


def test_a_nodes_type_value_is_the_checkers_and_a_node_the_compiler_made_is_typed_in_its_scope():
    game, _, _ = load_game(str(ROOT / "games" / "titicaca.rules"))
    compiler = game.compiler
    nodes = [node for node in compiler.checked.expressions.values() if id(node) in compiler.checked.types]
    scope = compiler.types.globals
    assert nodes and all(compiler.type_value(n, scope) is compiler.checked.types[id(n)] for n in nodes)
    made = parse_expression("size(players) + 1", nodes[0].span)
    assert id(made) not in compiler.checked.types and compiler.type_value(made, scope) == INT
    assert compiler.type_value(parse_expression("[1, 2]", nodes[0].span), scope) == ListOf(INT)
