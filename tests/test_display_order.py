"""How views read (issue 25, gap 10): a variable's entries in the order of its indexes' domains
(an enum's members as declared, in a table too); a {list} or {text} that comes out empty
in a log line or a public text closes its gap; the example of docs/language.md."""
from __future__ import annotations

from referee.interpreter.engine import load_game
from referee.interpreter.engine.render import table_lines

from .test_enum_order import docs_example

HELD = docs_example("Held ranks")


def load(write_rules, text):
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert not diagnostics, [d.render() for d in diagnostics]
    return game


def test_a_table_of_a_variable_indexed_by_an_enum_has_its_members_in_declared_order(write_rules):
    state = load(write_rules, HELD).new_initial_state(0)
    for move in ("take mike", "take zulu", "take alpha"):
        state.apply(move)
    lines = str(state).splitlines()
    (head,) = [line for line in lines if line.strip().startswith("held")]
    assert head.split() == ["held", "zulu", "alpha", "mike"]
    assert list(state.view(1)["vars"])[:3] == ["held[P1, zulu]", "held[P1, alpha]", "held[P1, mike]"]


def test_a_table_sorts_its_columns_by_label_unless_they_come_in_order():
    cells = {("P1", "b"): "1", ("P1", "a10"): "2", ("P1", "a9"): "3", ("P2", "b"): "4"}
    assert table_lines("x", cells)[0].split() == ["x", "a9", "a10", "b"]
    assert table_lines("x", cells, in_order=True)[0].split() == ["x", "b", "a10", "a9"]


def test_an_empty_list_in_a_log_line_leaves_no_gap(write_rules):
    state = load(write_rules, HELD).new_initial_state(0)
    state.apply("take alpha")
    state.apply("take mike")
    assert state.log == ["P1 took alpha; before", "P2 took mike; 2 before"]


GAPS = """game "Gaps" {
  players 2
}
var said: text = ""
action take(xs in [[], [1]]) "take {xs} now" public "takes {xs} now" {
  log "took {xs} {said} now"
}
flow {
  turns from 1 {
    play take
    finish
  }
}
"""


def test_empty_lists_and_texts_close_their_gaps_in_names_logs_and_public_texts(write_rules):
    state = load(write_rules, GAPS).new_initial_state(0)
    # (a literal list of lists with an empty one is a list of lists of numbers: its moves list)
    assert state.legal_move_names() == ["take now", "take 1 now"]
    state.apply("take now")
    assert state.log == ["took now"] and state.public_history == [(1, "takes now")]
