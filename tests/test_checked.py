"""What the checker hands out: `check` returns a Checked value (the symbol table, every
expression's type as a Type value, the locals' types, texts with placeholders parsed once), and
its consumers read it instead of checking again."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.dsl import ast
from referee.dsl import checker as checker_module
from referee.dsl.checks import CHECKS, check
from referee.dsl.parser import parse
from referee.dsl.program import build_program, load_program
from referee.dsl.templates import Placeholder, parse_template
from referee.dsl.types import UNKNOWN, ListOf, Named, NoneValue, OptionalOf, Real, ZoneOf, type_of
from referee.interpreter.engine import load_game
from referee.interpreter.lsp.server import analyse
from tests.type_texts import ANY, compatible, describe, written

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "games" / "variants").glob("*.rules"))

RULES = '''game "Labels" { players 2 }
enum Colour { red, blue }
component Card { colour: Colour, value: int } label "{colour} {value}"
zone deck: pile of Card hidden
zone hand[Player]: row of Card owner
var total: int = 0
fn half(n: int): real = n / 2
action take(c in hand[current] where c.value > 0 else "{c} is worth nothing") "take {c} for {c.value + 1}" {
    require total < 10 else "the total is {total}"
    let worth = c.value
    total += worth
    log "took {c}"
}
flow { turns from 1 { play take } }
'''


def checked_of(text: str = RULES):
    module, errors = parse(text, "labels.rules")
    assert errors == [], errors
    program, errors, sources = build_program(module, "labels.rules", {"labels.rules": text})
    assert errors == [], errors
    return check(program, sources)


def expressions(checked, cls):
    return [node for node in checked.expressions.values() if isinstance(node, cls)]


# ---- Type values ----------------------------------------------------------------------------

TEXTS = ("int", "real", "bool", "text", "Player", "none", "any", "Card", "Card?", "list[int]", "list[Card?]",
         "list[list[int]]", "zone[Card]", "list[Card]?", "list[any]", "Direction?")


@pytest.mark.parametrize("text", TEXTS)
def test_a_type_value_gives_its_text_and_its_words_back(text):
    t = type_of(text)
    assert t.text == text
    assert t.describe() == describe(text)
    assert t.written() == written(text)


def test_type_values_are_made_of_parts():
    assert type_of("list[Card?]") == ListOf(OptionalOf(Named("Card")))
    assert type_of("zone[Card]") == ZoneOf(Named("Card"))
    assert type_of("real") == Real() and type_of("none") == NoneValue() and type_of(ANY) is UNKNOWN
    assert OptionalOf(Named("Card")).without_none() == Named("Card")
    assert ListOf(Named("int")).describe() == "a list of int"
    assert ListOf(UNKNOWN).describe() == "a list"
    assert ZoneOf(Named("Card")).describe() == "a zone of Card"
    assert ListOf(ListOf(Named("int"))).written() == "list of list of int"
    assert Named("int").describe() == "a number" and Real().describe() == "a fraction"
    assert Named("int").fits(Real()) and not Real().fits(Named("int"))
    assert OptionalOf(Named("Card")).may_be_none() and not Named("Card").may_be_none()


@pytest.mark.slow
def test_every_type_the_games_have_round_trips():
    seen = set()
    for path in GAME_FILES:
        program, _, sources = load_program(str(path))
        seen |= {t.text for t in check(program, sources).types.values()}
    assert len(seen) > 30
    for text in seen:
        t = type_of(text)
        assert t.text == text and t.describe() == describe(text)
        assert t.fits(t) and compatible(text, text)


# ---- templates ------------------------------------------------------------------------------

def test_a_template_is_parsed_into_text_and_placeholders():
    template = parse_template("take {c} for {c.value + 1}!")
    assert template.parts == ("take ", Placeholder("c", 5, 8, True), " for ", Placeholder("c.value + 1", 13, 26, False), "!")
    assert [p.inside for p in template.placeholders] == ["c", "c.value + 1"]
    assert template.placeholders[0].named and not template.placeholders[1].named
    assert template.placeholders[1].written == "{c.value + 1}"
    assert template.split() == ([("take ", template.placeholders[0]), (" for ", template.placeholders[1])], "!")


@pytest.mark.parametrize("text", ["", "plain", "{a}{b}", "{{a}}", "{a", "a}", "{}", "x {a b} y", "{a\nb}"])
def test_a_template_finds_what_the_regular_expression_found(text):
    """The placeholders are those of `\\{([^{}]*)\\}`, which the checker and the engine used."""
    template = parse_template(text)
    found = [(m.group(1), m.start(), m.end()) for m in re.finditer(r"\{([^{}]*)\}", text)]
    assert [(p.inside, p.start, p.end) for p in template.placeholders] == found
    assert "".join(p if isinstance(p, str) else p.written for p in template.parts) == text


# ---- the Checked value ----------------------------------------------------------------------

def test_check_returns_the_diagnostics_and_what_it_found():
    checked = checked_of()
    assert checked.diagnostics == [] and checked.ok
    assert set(checked.symbols.components) == {"Card"} and set(checked.symbols.actions) == {"take"}
    assert checked.symbols.members["red"] == "Colour" and checked.symbols.members["north"] == "Direction"
    assert checked.program.modules["labels.rules"].items     # each file's syntax tree


def test_every_expression_has_a_type_value():
    checked = checked_of()
    assert set(checked.types) == set(checked.expressions)
    divisions = [n for n in expressions(checked, ast.Binary) if n.op == "/"]
    assert [checked.type_of(n) for n in divisions] == [Real()]
    hands = [n for n in expressions(checked, ast.Subscript) if isinstance(n.obj, ast.Name) and n.obj.id == "hand"]
    assert {checked.type_of(n) for n in hands} == {ZoneOf(Named("Card"))}
    values = [n for n in expressions(checked, ast.Attribute) if n.name == "value"]
    assert values and {checked.type_of(n) for n in values} == {Named("int")}
    assert checked.type_of(ast.Integer(ast.Span("x", 1, 1, 1, 2), 3)) is None     # never typed


def test_locals_have_their_types_by_the_span_of_their_binding():
    checked = checked_of()
    action = checked.symbols.actions["take"]
    assert checked.local_types[action.binders[0].span] == Named("Card")
    let = next(s for s in action.body if isinstance(ast.untag(s)[0], ast.Let))
    assert checked.local_types[ast.untag(let)[0].span] == Named("int")
    assert checked.argument_types["take", "c"] == Named("Card")
    half = checked.symbols.functions["half"]
    assert checked.local_types[half.parameters[0].span] == Named("int")


def test_texts_with_placeholders_are_parsed_once_with_their_expressions():
    checked = checked_of()
    assert {"take {c} for {c.value + 1}", "{colour} {value}", "the total is {total}", "took {c}",
            "{c} is worth nothing"} <= set(checked.templates)
    label = checked.templates["take {c} for {c.value + 1}"]
    assert [p.inside for p in label.placeholders] == ["c", "c.value + 1"]
    node = checked.label_expressions["take", "c.value + 1"]
    assert isinstance(node, ast.Binary) and checked.type_of(node) == Named("int")
    reasons = {inside: node for (_, inside), node in checked.placeholder_nodes.items()}
    assert set(reasons) == {"c", "total"}
    assert checked.type_of(reasons["total"]) == Named("int")


def test_the_checks_are_a_table_of_small_functions():
    assert len(CHECKS) == len(set(CHECKS)) > 10
    assert all(callable(c) and c.__name__.startswith("check_") for c in CHECKS)


# ---- its consumers check nothing again ------------------------------------------------------

@pytest.fixture
def checkers_made(monkeypatch):
    made = []
    original = checker_module.Checker.__init__

    def counting(self, *args, **kwargs):
        made.append(self)
        original(self, *args, **kwargs)
    monkeypatch.setattr(checker_module.Checker, "__init__", counting)
    return made


def test_loading_a_game_checks_it_once_and_the_compiler_reads_that_check(checkers_made):
    game, diagnostics, _ = load_game(str(ROOT / "games" / "tic-tac-toe.rules"))
    assert diagnostics == [] and game is not None
    assert len(checkers_made) == 1
    assert game.compiler.types is checkers_made[0] is game.compiler.checked.typer


def test_the_language_server_checks_a_file_once(checkers_made):
    analysis = analyse(str(ROOT / "games" / "tic-tac-toe.rules"))
    assert analysis.diagnostics == [] and analysis.index is not None
    assert len(checkers_made) == 1
    assert analysis.index.checked.typer is checkers_made[0]


@pytest.mark.parametrize("name, new", [("check", "referee.dsl.checks"), ("PLACEHOLDER_TEXT", "referee.dsl.templates")])
def test_an_import_from_the_checker_of_what_moved_names_the_new_place(name, new):
    with pytest.raises(ImportError, match=f"is {new}.{name} now"):
        exec(f"from referee.dsl.checker import {name}", {})
