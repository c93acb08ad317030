"""Text params and the text functions (issue 25, gap 9): `param start: text = "..."` given with
load_game's params and `--param`, checked and bounded; char_at, split_text, join, to_int,
text_of and size of a text, checked with located diagnostics and run; a start position read
from a notation (the example of docs/language.md)."""
from __future__ import annotations

import json
import re
import types
from fractions import Fraction

import pytest

from referee.dsl.limits import MAX_TEXT
from referee.interpreter import runtime
from referee.interpreter.engine import load_game
from referee.interpreter.runtime import stdlib
from referee.interpreter.runtime.errors import RulesRuntimeError, UnlocatedRulesError
from referee.interpreter.tools.gamelog import given_params, logged_params, read_log, replay

from .conftest import ROOT
from .test_cli import run


def docs_example(title):
    """The whole program of docs/language.md whose game has that title."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```rules\n(.*?)^```$", text, re.S | re.M)
    (found,) = [b for b in blocks if b.startswith(f'game "{title}"')]
    return found


POSITION = docs_example("Tic-tac-toe from a position")


@pytest.fixture
def position_game(write_rules):
    return str(write_rules(POSITION, "position.rules"))


def load(path, **kw):
    game, diagnostics, _ = load_game(path, **kw)
    assert not diagnostics, [d.render() for d in diagnostics]
    return game


def marks(state):
    """The position in the example's notation, read from its log line after a move."""
    return state.log[-1].split("position: ")[1]


def state_of(**budget):
    """A stand-in for a state: what the text functions read (the step's work budget)."""
    return types.SimpleNamespace(game=types.SimpleNamespace(step_budget=[1, budget.get("work", 10**8)]))


# ---- the text functions, as the runtime runs them ----

def test_char_at_counts_from_one_and_is_none_outside():
    s = state_of()
    assert [stdlib.char_at(s, "x.o", i) for i in (0, 1, 2, 3, 4, -1)] == [None, "x", ".", "o", None, None]
    with pytest.raises(UnlocatedRulesError, match="char_at of none: it takes a text"):
        stdlib.char_at(s, None, 1)


def test_split_text_and_join_undo_each_other():
    s = state_of()
    assert stdlib.split_text(s, "x.o/.x./..o", "/") == ["x.o", ".x.", "..o"]
    assert stdlib.split_text(s, "abc", "/") == ["abc"]
    assert stdlib.split_text(s, "a//b/", "/") == ["a", "", "b", ""]
    assert stdlib.split_text(s, "a, b", ", ") == ["a", "b"]
    assert stdlib.join(s, ["x.o", ".x.", "..o"], "/") == "x.o/.x./..o"
    assert stdlib.join(s, [], "/") == "" and stdlib.join(s, ["a"], "/") == "a"
    with pytest.raises(UnlocatedRulesError, match="separator is at least one character"):
        stdlib.split_text(s, "abc", "")
    with pytest.raises(UnlocatedRulesError, match="join of none"):
        stdlib.join(s, ["a", None], "")


def test_to_int_reads_whole_numbers_only():
    s = state_of()
    assert [stdlib.to_int(s, t) for t in ("12", "-3", "+4", " 7 ", "0")] == [12, -3, 4, 7, 0]
    assert [stdlib.to_int(s, t) for t in ("", "x", "1.5", "1e3", "--1", "٣", "1" * 19)] == [None] * 7
    assert stdlib.to_int(s, "9" * 18) == int("9" * 18)
    assert [stdlib.text_of(s, n) for n in (0, -3, 12)] == ["0", "-3", "12"]
    with pytest.raises(UnlocatedRulesError, match="text_of of none"):
        stdlib.text_of(s, None)


def test_long_texts_cost_work_and_join_is_bounded():
    s = state_of(work=100)
    stdlib.split_text(s, "a" * 60, "/")
    assert s.game.step_budget[1] == 40
    with pytest.raises(UnlocatedRulesError, match="units of work"):
        stdlib.split_text(s, "a" * 60, "/")
    with pytest.raises(UnlocatedRulesError, match=f"beyond the limit of {MAX_TEXT:,}"):
        stdlib.join(state_of(), ["a" * 1000] * (MAX_TEXT // 1000 + 1), "")


def test_the_text_functions_are_runtime_names():
    for name in ("char_at", "split_text", "join", "to_int", "text_of"):
        assert name in runtime.__all__ and runtime.namespace()[name] is stdlib.FUNCTIONS[name]


# ---- the checker ----

BAD = """game "Bad" {
  players 2
}
param start: text in 1..3 = "x"
param other: text = 5
fn a(): text? = char_at(3, 1)
fn b(): text? = char_at("x", "y")
fn c(): list of text = split_text(start, 1)
fn d(): text = join([1, 2], "")
fn e(): int? = to_int(none)
fn f(): text = text_of("3")
fn g(): int = size(start) + size(3)
fn h(): text = join(["a"], none)
flow { turns from 1 { finish } }
"""


def test_the_checker_refuses_wrong_types_where_they_are(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(BAD)))
    assert game is None
    found = [(d.code, d.span.line, d.span.column, d.message) for d in diagnostics]
    assert found == [
        ("E212", 4, 22, "only an int param has a range, not 'text'"),
        ("E303", 5, 21, "'other' holds 'text', not a number"),
        ("E303", 6, 25, "char_at takes 'text' here, not a number"),
        ("E303", 7, 30, "char_at takes a number here, not 'text'"),
        ("E303", 8, 42, "split_text takes 'text' here, not a number"),
        ("E303", 9, 21, "join takes a list of text here, not a list of int"),
        ("E303", 10, 23, "to_int takes 'text' here, not none"),
        ("E303", 11, 24, "text_of takes a number here, not 'text'"),
        ("E306", 12, 34, "size takes a list or a zone here, not a number"),
        ("E303", 13, 28, "join takes 'text' here, not none"),
    ], [d.render() for d in diagnostics]


def test_the_text_functions_are_reserved_names(write_rules):
    text = 'game "G" { players 2 }\nvar join: int = 0\nflow { turns from 1 { finish } }\n'
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert game is None and [d.code for d in diagnostics] == ["E211"]


# ---- text params ----

def test_a_text_param_takes_its_default_or_the_text_given(position_game):
    assert load(position_game).typed_param_values() == {"start": "x.o/.x./..o"}
    game = load(position_game, params={"start": "o../.../..x"})
    assert game.params["start"] == "o../.../..x" and game.given_params == {"start": "o../.../..x"}
    assert load(position_game, params={"start": " . "}).params["start"] == " . "     # (as it is)


def test_params_computed_from_a_text_param(write_rules):
    text = POSITION.replace('param start: text = "x.o/.x./..o"\n', 'param start: text = "x.o/.x./..o"\n'
                            'param rows_given = size(split_text(start, "/"))\nparam corner = char_at(start, 1)\n'
                            'param joined_rows = join(split_text(start, "/"), "")\n')
    game = load(str(write_rules(text, "computed.rules")), params={"start": "o../.../.../..."})
    assert (game.params["rows_given"], game.params["corner"], game.params["joined_rows"]) == (4, "o", "o" + "." * 11)


def test_a_text_param_value_is_checked(position_game, write_rules):
    def refused(**kw):
        game, diagnostics, _ = load_game(position_game, **kw)
        assert game is None
        return [(d.code, d.message, d.span.line) for d in diagnostics]
    assert refused(params={"start": 5}) == [("E604", "param 'start' is a text, not '5'", 5)]
    assert refused(params={"start": True}) == [("E604", "param 'start' is a text, not 'true'", 5)]
    assert refused(params={"start": "x" * (MAX_TEXT + 1)}) == \
        [("E604", f"param 'start' is a text of at most {MAX_TEXT:,} characters, not {MAX_TEXT + 1:,}", 5)]
    load(position_game, params={"start": "x" * MAX_TEXT})
    # the rules' own value is bounded too: a rules error
    text = POSITION.replace('"x.o/.x./..o"', '"' + "x" * (MAX_TEXT + 1) + '"')
    game, diagnostics, _ = load_game(str(write_rules(text, "long.rules")))
    assert game is None and [d.code for d in diagnostics] == ["E701"]


def test_the_start_position_comes_from_the_param(position_game):
    state = load(position_game).new_initial_state(0)
    assert state.legal_move_names() == ["a1", "b1", "a2", "c2", "b3"]
    state.apply("b1")
    assert marks(state) == "x.o/.x./.xo"
    state = load(position_game, params={"start": "xx./oo./..."}).new_initial_state(0)
    assert len(state.legal_move_names()) == 5
    state.apply("c3")
    assert marks(state) == "xxx/oo./..." and state.winners == [1]


RUNS = """game "Runs" {
  players 2
}
param start: text = "2x1/4/o3/1x1o"
board Square: grid 4 by 4
var mark[Square]: Player? = none
setup {
  let rows = split_text(start, "/")
  for r in 1..4 {
    let row = rows[5 - r]
    let c = 1
    for k in 1..size(row) {
      let symbol = char_at(row, k)
      let run = to_int(symbol)
      if run != none {
        c += run
      } else {
        mark[Square(r, c)] = symbol == "x" ? 1 : 2
        c += 1
      }
    }
  }
}
action place(c in Square where mark[c] == none) "{c}" {
  mark[c] = current
}
flow {
  turns from 1 {
    play place
    if all(c in Square: mark[c] != none) {
      finish
    }
  }
}
"""


def test_a_notation_with_runs_of_empty_cells_as_numbers(write_rules):
    path = str(write_rules(RUNS, "runs.rules"))
    state = load(path).new_initial_state(0)
    # b1 x, d1 o, a2 o, row 3 empty, c4 x
    assert state.legal_move_names() == ["a1", "c1", "b2", "c2", "d2", "a3", "b3", "c3", "d3", "a4", "b4", "d4"]
    state = load(path, params={"start": "4/4/4/3x"}).new_initial_state(0)
    assert len(state.legal_move_names()) == 15 and "d1" not in state.legal_move_names()


def test_a_bad_notation_is_a_runtime_error_at_the_call(position_game):
    game = load(position_game, params={"start": "x.o/.x."})         # two rows: the third is none
    with pytest.raises(RulesRuntimeError, match="char_at of none: it takes a text") as caught:
        game.new_initial_state(0)
    assert caught.value.span is not None and caught.value.span.line == 14


def test_the_command_line_sets_a_text_param(capsys, position_game):
    code, out, _ = run(capsys, "play", position_game, "--bot", "all=first", "--seed", 1, "--brief",
                       "--param", "start=x../x../.oo")
    assert code == 0 and "P1: a1" in out and "position: x../x../xoo" in out and "result: P1 wins" in out
    code, out, _ = run(capsys, "play", position_game, "--bot", "all=first", "--seed", 1, "--brief")
    assert code == 0 and "P1: a1" in out and "position: x.o/.x./x.o" in out     # the default start
    code, out, _ = run(capsys, "simulate", position_game, "-n", 3, "--jobs", 1, "--json", "--param", "start=.../.../...")
    assert code == 0 and json.loads(out)["params"] == {"start": ".../.../..."}
    code, out, _ = run(capsys, "check", position_game, "--param", "start=o")
    assert code == 0


def test_logs_record_a_text_param_and_replay_gives_it_back(capsys, position_game, tmp_path):
    log_path = tmp_path / "position.json"
    code, _, _ = run(capsys, "play", position_game, "--bot", "all=random", "--seed", 2, "--quiet", "--log", log_path,
                     "--param", "start=o../.../...")
    assert code == 0
    log, error = read_log(log_path)
    assert error is None and log["params"] == {"start": {"text": "o../.../..."}}
    state, error = replay(log)
    assert error is None and state.game.params["start"] == "o../.../..." and state.is_terminal()
    log["params"] = {"start": {"text": 3}}
    log_path.write_text(json.dumps(log))
    code, _, err = run(capsys, "replay", log_path)
    assert code == 65 and "'params' must map names to whole numbers or true/false" in err


def test_a_log_tells_a_text_param_from_a_real_or_a_number():
    values = {"komi": Fraction(13, 2), "start": "6", "n": 3, "misere": True}
    logged = logged_params(values)
    assert logged == {"komi": "13/2", "start": {"text": "6"}, "n": 3, "misere": True}
    assert given_params(json.loads(json.dumps(logged))) == {"komi": "13/2", "start": "6", "n": 3, "misere": True}
