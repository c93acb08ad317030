"""Sets (issue 25, gap 5): `set of T` for variables, locals, parameters and results; `{...}`,
`s + t`, `x in s` as one lookup, `size`, going through a set in the language's order of values,
its text in views and logs; refused with located diagnostics where it does not apply; no
native form (a note); the repetition example of docs/language.md played."""
from __future__ import annotations

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.native.rules_source import NotNative, render
from referee.interpreter.runtime.sets import new_set, set_items

from .conftest import ROOT
from .test_enum_order import docs_example, load      # (the docs' whole programs, loaded clean)

HEAD = 'game "G" {\n  players 2\n}\nenum Strain { spades, hearts, clubs }\n'
TAIL = 'action pass "pass" { }\nflow {\n  turns from 1 {\n    play pass\n    finish\n  }\n}\n'


def value_of(write_rules, expression, result="bool", declarations=""):
    """An expression's value as the log shows it, by a function logged at the setup."""
    text = HEAD + declarations + f"fn probe(): {result} = {expression}\nsetup {{\n  log \"{{probe()}}\"\n}}\n" + TAIL
    return load(write_rules, text).new_initial_state(0).log[0]


def diagnostics_of(write_rules, text):
    game, diagnostics, _ = load_game(str(write_rules(HEAD + text + TAIL)))
    assert game is None
    return [(d.code, d.span.line, d.span.column, d.message) for d in diagnostics]


def test_a_set_holds_each_value_once_in_the_order_of_values(write_rules):
    assert value_of(write_rules, "{3, 1, 2} + {2, 5, 1}", "set of int") == "1, 2, 3, 5"
    assert value_of(write_rules, "size({3, 1, 2} + {2, 5, 1})", "int") == "4"
    assert value_of(write_rules, "{clubs, spades} + {hearts}", "set of Strain") == "spades, hearts, clubs"
    assert value_of(write_rules, "{}", "set of int") == ""


def test_membership_of_values_and_of_lists(write_rules):
    assert value_of(write_rules, "2 in {1, 2} and 3 not in {1, 2}") == "yes"
    assert value_of(write_rules, "[1, 2] in {[1, 2], [2]} and [2, 1] not in {[1, 2]}") == "yes"
    assert value_of(write_rules, "hearts in {hearts} and clubs not in {hearts}") == "yes"


def test_aggregates_and_loops_go_through_a_set_in_order(write_rules):
    assert value_of(write_rules, "map(x in {[2], [1, 5], [1]}: size(x))", "list of int") == "1, 2, 1"
    assert value_of(write_rules, "filter(s in {clubs, hearts, spades} where s != hearts)", "list of Strain") == "spades, clubs"
    assert value_of(write_rules, "sum(x in {4, 4, 1}: x) + count(x in {7, 8})", "int") == "7"
    text = HEAD + 'var order: list of int = []\nsetup {\n  for x in {30, 10, 20} {\n    order = order + [x]\n  }\n' \
        '  log "{order}"\n}\n' + TAIL
    assert load(write_rules, text).new_initial_state(0).log == ["10, 20, 30"]


def test_a_set_variable_a_parameter_and_a_move_over_a_set(write_rules):
    text = HEAD + ('var seen: set of Strain = {}\n'
                   'fn fresh(s: set of Strain, x: Strain): bool = x not in s\n'
                   'action mark(x in Strain where fresh(seen, x)) "mark {x}" {\n  seen = seen + {x}\n}\n'
                   'action again_from(x in seen) "from {x}" { }\n'
                   'flow {\n  turns from 1 until size(seen) == 3 {\n    play mark, again_from\n  }\n}\n')
    state = load(write_rules, text).new_initial_state(0)
    assert state.legal_move_names() == ["mark spades", "mark hearts", "mark clubs"]
    state.apply("mark clubs")
    state.apply("mark spades")
    assert state.legal_move_names() == ["mark hearts", "from spades", "from clubs"]
    assert state.view(1)["vars"]["seen"] == "spades, clubs"
    state.apply("mark hearts")
    assert state.is_terminal()


def test_the_order_never_depends_on_hashing():
    values = new_set([[3, 1], [1], [1, 2], [], [1, 2]], None)
    assert len(values) == 4 and set_items(values, {}) == [[], [1], [1, 2], [3, 1]]
    assert set_items(new_set(["b", "a", "c"], None), {"c": 1, "a": 2, "b": 3}) == ["c", "a", "b"]


@pytest.mark.parametrize("text, expected", [
    ("fn f(): bool = 1 in {hearts}\n", ("E303", 5, 16, "a set of Strain never holds a number")),
    ("fn f(): set of int = {1, hearts}\n", ("E303", 5, 22, "the items of a set are of one type, but these are 'Strain' and a number")),
    ("var s: set of int? = {}\n", ("E303", 5, 15, "a set cannot hold none, but this is 'int?'")),
    ("zone deck: pile of Strain\nfn f(): bool = size({deck}) > 0\n", ("E303", 6, 22, "a set holds values, not a zone of Strain: a zone is a place whose content changes")),
    ("fn f(): set of int = {1} + 2\n", ("E303", 5, 28, "'+' joins two sets, but this is a number")),
    ("fn f(): set of int = {1} + {hearts}\n", ("E303", 5, 28, "a set of int cannot take the items of a set of Strain")),
    ("var s: set of int = {}\nfn f(): list of int = reversed(s)\n", ("E306", 6, 32, "reversed takes a list or a zone here, not a set of int")),
])
def test_what_a_set_refuses_is_located(write_rules, text, expected):
    assert expected in diagnostics_of(write_rules, text)


def native_refusal(write_rules, declaration) -> tuple:
    """(the rules file, the note of the native renderer's refusal) of a game with a declaration."""
    path = write_rules(HEAD + declaration + "\n" + TAIL)
    game, _, _ = load_game(str(path))
    with pytest.raises(NotNative) as refused:
        render(game)
    return path, refused.value.note()


def test_a_set_of_texts_in_a_game_that_makes_texts_has_no_native_form_yet(write_rules):
    """(Sets of texts in other games, and of other values, play natively: tests/test_native_values.py.)"""
    path, note = native_refusal(write_rules, "var seen: set of text = {}\nfn named(): text = text_of(3)")
    assert note == (f"{path}:5: a set or a map of texts in a game that makes texts in play (their codes do not "
                    "follow the order of texts)")


def test_the_docs_repetition_example_never_repeats_a_position(write_rules):
    game = load(write_rules, docs_example("No repeats"))
    for seed in range(5):
        state = game.new_initial_state(seed)
        positions = [(0, 0, 0)]
        while not state.is_terminal():
            state.apply(state.legal_move_names()[seed % len(state.legal_move_names())])
            positions.append(tuple(int(x) for x in state.view(1)["vars"]["dials"].split(", ")))
        assert len(set(positions)) == len(positions) and state.log[-1] == f"{len(positions)} positions seen"
        # every dial at every step is stuck at the end: each position one turn away was seen
        assert all(tuple((d + 1) % 3 if j == k else d for j, d in enumerate(positions[-1])) in positions
                   for k in range(3))


def test_openspiel_encodes_a_set_of_members_and_refuses_another_set(write_rules):
    from referee.interpreter.adapters.action_space import ActionSpaceError
    from referee.interpreter.adapters.openspiel_game import load_openspiel_game
    marking = HEAD + ('var seen: set of Strain = {}\naction mark(x in Strain where x not in seen) "mark {x}" {\n'
                      '  seen = seen + {x}\n}\nflow {\n  turns from 1 until size(seen) == 3 {\n    play mark\n  }\n}\n')
    game = load_openspiel_game(write_rules(marking))
    state = game.new_initial_state()
    at, items = game.encoding.var_at["seen"]
    assert items == ["spades", "hearts", "clubs"]
    state.apply_action(state.legal_actions()[2])        # mark clubs
    state.apply_action(state.legal_actions()[0])        # mark spades
    assert list(state.observation_tensor(0)[at:at + 3]) == [1, 0, 2]     # place in the set's order, 0 if absent
    path = write_rules(marking.replace("var seen: set of Strain = {}", "var seen: set of Strain = {}\n"
                                       "var numbers: set of int = {1}"), "numbers.rules")
    with pytest.raises(ActionSpaceError, match=r"numbers.rules:6:.*cannot encode 'numbers', a set of int"):
        load_openspiel_game(path)


def test_a_compiled_module_imports_the_set_functions_only_when_its_game_has_sets(write_rules):
    from referee.interpreter.compile.module import ENGINE_LINKED
    game = load(write_rules, docs_example("No repeats"))
    source = game.compiler.module_source()
    (imported,) = [line for line in source.splitlines() if line.startswith("from referee.interpreter.runtime.sets ")]
    assert imported == "from referee.interpreter.runtime.sets import (frozen, new_set, union)"
    given = {name for line in source.splitlines() if line.endswith(" = None") and not line.startswith(" ")
             for name in line[:-len(" = None")].split(" = ")}
    assert {name for name in given if not name.startswith("_ins")} <= set(ENGINE_LINKED)
    plain, _, _ = load_game(str(ROOT / "games" / "tic-tac-toe.rules"))
    assert "runtime.sets" not in plain.compiler.module_source()


def test_label_and_size_of_a_set_take_it_whole(write_rules):
    assert value_of(write_rules, "label({[2, 1], [1]})", "text") == "1, 2, 1"
    assert value_of(write_rules, "size({hearts, spades, hearts})", "int") == "2"
