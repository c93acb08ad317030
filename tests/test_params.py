"""Typed parameters: `param n: int in 4..13 = 13`, given a value when loading (load_game's
params, `--param n=8` on the command line), checked for type and range, recorded in logs."""
from __future__ import annotations

import json

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.tools.gamelog import read_log, replay

from .scenario import load as load_once
from .test_cli import run

# Nim: whoever takes the last counter wins (loses, misère). The heap grows with the players.
NIM = """game "Nim" {
  players 2..3
}
param heap_size: int in num_players..30 = 5 * num_players
param most: int in 1..5 = 3
param misere: bool = false
param doubled = heap_size * 2
option short "a small heap" {
  heap_size = 4
}
var heap: int = heap_size
action take(n in 1..most where n <= heap) "take {n}" {
  heap -= n
}
flow {
  turns from 1 {
    play take
    if heap == 0 {
      finish winners [misere ? next(current) : current]
    }
  }
}
"""


@pytest.fixture
def nim(write_rules):
    return str(write_rules(NIM, "nim.rules"))


def load(path, **kw):
    game, diagnostics, _ = load_game(path, **kw)
    assert not diagnostics, [d.render() for d in diagnostics]
    return game


def codes(path, **kw):
    game, diagnostics, _ = load_game(path, **kw)
    assert game is None
    return [(d.code, d.message) for d in diagnostics]


def test_typed_params_take_their_default_or_the_value_given(nim):
    game = load(nim)
    assert game.params == {"heap_size": 10, "most": 3, "misere": False, "doubled": 20}
    assert game.var_defaults["heap"] == 10
    game = load(nim, params={"heap_size": 7, "misere": True}, players=3)
    assert game.params == {"heap_size": 7, "most": 3, "misere": True, "doubled": 14}   # a param follows
    assert game.typed_param_values() == {"heap_size": 7, "most": 3, "misere": True}
    assert game.given_params == {"heap_size": 7, "misere": True}
    # values may be given as the command line writes them
    assert load(nim, params={"heap_size": " 8", "misere": "TRUE", "most": "+2"}).typed_param_values() == \
        {"heap_size": 8, "most": 2, "misere": True}
    # a value given comes before an option's setting, which comes before the default
    assert load(nim, options=["short"]).params["heap_size"] == 4
    assert load(nim, options=["short"], params={"heap_size": 9}).params["heap_size"] == 9


def test_the_tests_keep_one_game_per_set_of_params(nim):
    assert load_once(nim, params={"most": 2}) is load_once(nim, params={"most": 2})
    assert load_once(nim, params={"most": 2}).params["most"] == 2 and load_once(nim).params["most"] == 3


def test_a_given_param_changes_the_game(nim):
    game = load(nim, params={"heap_size": 2, "most": 1, "misere": True})
    state = game.new_initial_state(0)
    assert state.legal_move_names() == ["take 1"]
    state.apply("take 1")
    state.apply("take 1")
    assert state.winners == [1]            # P2 took the last counter: misère, P1 wins


def test_values_given_are_checked_for_name_type_and_range(nim):
    assert codes(nim, params={"heap": 3}) == [("E603", "unknown param 'heap'")]
    assert codes(nim, params={"doubled": 3}) == [("E603", "param 'doubled' has no type, so it cannot be set")]
    assert codes(nim, params={"heap_size": "ten"}) == \
        [("E604", "param 'heap_size' is a whole number (of at most 18 digits), not 'ten'")]
    assert codes(nim, params={"heap_size": True}) == \
        [("E604", "param 'heap_size' is a whole number (of at most 18 digits), not 'true'")]
    assert codes(nim, params={"misere": 1}) == [("E604", "param 'misere' is true or false, not '1'")]
    assert codes(nim, params={"heap_size": "1" * 19})[0][0] == "E604"
    assert codes(nim, params={"heap_size": 31}) == [("E604", "param 'heap_size' must be in 2..30, not 31")]
    # the range may depend on the player count
    load(nim, params={"heap_size": 2})
    assert codes(nim, params={"heap_size": 2}, players=3) == [("E604", "param 'heap_size' must be in 3..30, not 2")]


def test_the_rules_own_values_are_checked_too(write_rules):
    text = NIM.replace("heap_size = 4", "heap_size = 40")
    assert codes(str(write_rules(text)), options=["short"]) == [("E701", "param 'heap_size' must be in 2..30, not 40")]
    text = NIM.replace("param most: int in 1..5 = 3", "param most: int in 1..5 = 6")
    assert codes(str(write_rules(text))) == [("E701", "param 'most' must be in 1..5, not 6")]


@pytest.mark.parametrize("declaration, code", [
    ('param name: text in 1..2 = "x"', "E212"),      # (a text param has no range)
    ("param flag: bool in 1..2 = true", "E212"),
    ("param counts: list of int = [1]", "E212"),
    ("param n: int = true", "E303"),
    ("param n: int in 1..true = 1", "E302"),
    ("param n: Colour = 1", "E206"),
])
def test_the_checker_refuses_bad_typed_params(write_rules, declaration, code):
    text = NIM.replace("param most: int in 1..5 = 3", f"param most = 3\n{declaration}")
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert game is None and code in [d.code for d in diagnostics]


def test_the_command_line_gives_params_to_every_command(capsys, nim, tmp_path):
    code, out, _ = run(capsys, "simulate", nim, "-n", 20, "--jobs", 1, "--json", "--param", "heap_size=3",
                       "--param", "most=1")
    summary = json.loads(out)
    assert code == 0 and summary["params"] == {"heap_size": 3, "most": 1, "misere": False}
    assert summary["wins"] == {"1": 20, "2": 0}           # 3 counters, one at a time: P1 takes the last
    # worker processes load the game with the same params
    code, out, _ = run(capsys, "simulate", nim, "-n", 20, "--jobs", 2, "--json", "--param", "heap_size=3",
                       "--param", "most=1")
    assert json.loads(out)["wins"] == {"1": 20, "2": 0}
    code, out, _ = run(capsys, "simulate", nim, "-n", 5, "--jobs", 1, "--param", "misere=true")
    assert "params: heap_size=10, most=3, misere=true" in out.splitlines()[0]
    code, out, _ = run(capsys, "verify", nim, "-n", 5, "--jobs", 2, "--json", "--param", "heap_size=4")
    report = json.loads(out)
    assert code == 0 and report["params"] == {"heap_size": 4, "most": 3, "misere": False}
    assert [r["players"] for r in report["results"]] == [2, 3]
    code, out, _ = run(capsys, "bench", nim, "--seconds", 0.1, "--jobs", 1, "--json", "--param", "most=2")
    assert code == 0 and json.loads(out)["params"]["most"] == 2
    code, out, _ = run(capsys, "compile", nim, "--param", "most=2")
    assert code == 0 and "def legal_take" in out
    code, out, _ = run(capsys, "play", nim, "--bot", "all=first", "--seed", 1, "--brief", "--param", "heap_size=2",
                       "--param", "most=1")
    assert code == 0 and "P1: take 1\n   2  P2: take 1" in out and "result: P2 wins" in out
    code, out, _ = run(capsys, "check", nim, "--param", "most=4")
    assert code == 0 and out.strip().endswith(": ok")


def test_the_command_line_refuses_bad_params_with_exit_code_2(capsys, nim):
    code, _, err = run(capsys, "play", nim, "--param", "heap_size")
    assert code == 2 and "write NAME=VALUE" in err
    code, _, err = run(capsys, "simulate", nim, "--param", "heap_size=99")
    assert code == 2 and "referee simulate: error: argument --param: param 'heap_size' must be in 2..30, not 99" in err
    code, _, err = run(capsys, "bench", nim, "--param", "heap_sise=9")
    assert code == 2 and "unknown param 'heap_sise'" in err and "heap_size" in err      # did you mean
    code, _, err = run(capsys, "verify", nim, "--param", "misere=maybe")
    assert code == 2 and "param 'misere' is true or false" in err
    # check reports them as diagnostics of the file
    code, out, _ = run(capsys, "check", nim, "--json", "--param", "doubled=3")
    assert code == 1 and json.loads(out)["files"][0]["diagnostics"][0]["code"] == "E603"


def test_logs_record_the_params_and_replay_uses_them(capsys, nim, tmp_path):
    log_path = tmp_path / "nim.json"
    code, _, _ = run(capsys, "play", nim, "--bot", "all=random", "--seed", 4, "--quiet", "--log", log_path,
                     "--param", "heap_size=6", "--param", "most=5")
    assert code == 0
    log, error = read_log(log_path)
    assert error is None and log["params"] == {"heap_size": 6, "most": 5, "misere": False}
    state, error = replay(log)
    assert error is None and state.game.params["heap_size"] == 6 and state.is_terminal()
    code, out, _ = run(capsys, "replay", log_path)
    assert code == 0 and "params: heap_size=6, most=5, misere=false" in out.splitlines()[0]
    # the same moves with other params are another game
    log["params"] = {"heap_size": 30}
    _, error = replay(log)
    assert error is not None
    log["params"] = {"heap_size": "6"}
    log_path.write_text(json.dumps(log))
    code, _, err = run(capsys, "replay", log_path)
    assert code == 65 and "'params' must map names to whole numbers or true/false" in err


def test_a_runtime_error_replay_command_gives_the_params(capsys, write_rules):
    text = NIM.replace("heap -= n", "heap -= n // (heap_size - 4)")        # a division by 0 with 4
    path = write_rules(text, "broken.rules")
    code, out, _ = run(capsys, "simulate", path, "-n", 2, "--jobs", 1, "--json", "--param", "heap_size=4")
    assert code == 70
    assert json.loads(out)["first_error"]["replay"].endswith("--param heap_size=4")
    code, _, _ = run(capsys, "simulate", path, "-n", 2, "--jobs", 1, "--json", "--param", "heap_size=5")
    assert code == 0
