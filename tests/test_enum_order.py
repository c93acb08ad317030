"""Enums in order (issue 25, gap 7): `<` `<=` `>` `>=` between members of one enum by declared
order, `index(m)` from 1, `Enum[k]`, an action with a member's name; refused with located
diagnostics where they do not apply; the example of docs/language.md played."""
from __future__ import annotations

import re

import pytest

from referee.interpreter.engine import load_game

from .conftest import ROOT


def docs_example(title):
    """The whole program of docs/language.md whose game has that title."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    (found,) = [b for b in re.findall(r"^```rules\n(.*?)^```$", text, re.S | re.M) if b.startswith(f'game "{title}"')]
    return found


def load(write_rules, text):
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert not diagnostics, [d.render() for d in diagnostics]
    return game


def diagnostics_of(write_rules, text):
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert game is None
    return [(d.code, d.span.line, d.span.column, d.message) for d in diagnostics]


MEMBERS = ("clubs", "diamonds", "hearts", "spades", "notrump")
HEAD = 'game "G" {\n  players 2\n}\nenum Strain { ' + ", ".join(MEMBERS) + ' }\nenum Colour { red, black }\n'
TAIL = 'action pass "pass" { }\nflow {\n  turns from 1 {\n    play pass\n    finish\n  }\n}\n'


def value_of(write_rules, expression, result="bool", declarations=""):
    """An expression's value, by a function the game logs at its setup."""
    text = HEAD + declarations + f"fn probe(): {result} = {expression}\nsetup {{\n  log \"{{probe()}}\"\n}}\n" + TAIL
    return load(write_rules, text).new_initial_state(0).log[0]


def test_the_docs_example_promotes_in_declared_order(write_rules):
    game = load(write_rules, docs_example("Ranks"))
    state = game.new_initial_state(0)
    # an action named as a member (captain) and the promotions above recruit, up to captain
    assert state.legal_move_names() == ["captain", "promote to sergeant", "promote to captain"]
    state.apply("promote to sergeant")
    assert state.log == [] and state.legal_move_names() == ["captain", "promote to sergeant", "promote to captain"]
    state.apply("promote to sergeant")
    assert state.legal_move_names() == ["captain", "promote to captain"]
    state.apply("promote to captain")
    assert state.log[-1] == "P1 is one step from general" and state.is_terminal()


@pytest.mark.parametrize("op", ["<", "<=", ">", ">=", "==", "!="])
def test_members_compare_as_their_positions(write_rules, op):
    """The pairs a binder's filter keeps (a move's listing), and a function's value in an effect."""
    text = HEAD + (f'action pair(a in Strain, b in Strain where a {op} b) "{{a}} {{b}}" {{\n'
                   f'  log "{{a {op} b}}"\n}}\n') + TAIL.replace("play pass", "play pair, pass")
    state = load(write_rules, text).new_initial_state(0)
    expected = [f"{a} {b}" for a in MEMBERS for b in MEMBERS if eval(f"{MEMBERS.index(a)} {op} {MEMBERS.index(b)}")]
    assert state.legal_move_names()[:-1] == expected
    state.apply(expected[-1])
    assert state.log == ["yes"]


def test_index_counts_from_one_and_the_enum_is_a_list_of_its_members(write_rules):
    assert value_of(write_rules, "index(clubs) + index(notrump) * 10", "int") == "51"
    assert value_of(write_rules, "Strain[2]", "Strain?") == "diamonds"
    assert value_of(write_rules, "Strain[6] == none and Strain[0] == none") == "yes"
    assert value_of(write_rules, "filter(s in Strain where s >= hearts)", "list of Strain") == "hearts, spades, notrump"


def test_none_is_in_no_order_and_has_no_index(write_rules):
    nothing = "fn nothing(): Strain? = none\n"
    assert value_of(write_rules, "nothing() < spades or nothing() >= clubs or spades > nothing()",
                    declarations=nothing) == "no"
    assert value_of(write_rules, "index(nothing()) == none", declarations=nothing) == "yes"


def test_orders_and_index_refused_where_they_do_not_apply(write_rules):
    text = HEAD + ("fn a(): bool = red < hearts\n"
                   "fn b(): bool = hearts > 2\n"
                   "fn c(): int = index(3)\n"
                   "fn index_of(): int = index(Strain)\n") + TAIL
    assert diagnostics_of(write_rules, text) == [
        ("E303", 6, 16, "'<' compares numbers or members of one enum, but this is 'Colour'"),
        ("E303", 6, 22, "'<' compares numbers or members of one enum, but this is 'Strain'"),
        ("E303", 7, 16, "'>' compares numbers or members of one enum, but this is 'Strain'"),
        ("E303", 8, 21, "index takes a member of an enum, not a number"),
        ("E303", 9, 28, "index takes a member of an enum, not a list of Strain"),
    ]


def test_index_is_a_reserved_name_and_members_still_clash_with_other_declarations(write_rules):
    text = HEAD + "var index: int = 0\nvar spades: int = 0\n" + TAIL
    assert [(code, line) for code, line, _, _ in diagnostics_of(write_rules, text)] == [("E211", 6), ("E201", 4)]
