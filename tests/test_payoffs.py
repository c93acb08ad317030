"""Payoffs apart from winners: `returns p: EXPR` in the game header, and the outcome of a
finished game (a win, a shared win or a draw) in the State API, views, simulate and logs."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError
from referee.interpreter.tools.gamelog import read_log, replay, write_log

from .test_cli import run

ROOT = Path(__file__).resolve().parent.parent
TTT = str(ROOT / "games" / "tic-tac-toe.rules")

# One card each; P1 bets or checks, P2 calls or folds after a bet: the pot goes to the higher
# card, or to the one who did not fold. Each antes 1 (net starts at -1).
BET = """game "One bet" {
  players 2
  returns p: net[p]
}
component Chip { value: int } label "chip {value}"
zone deck: pile of Chip hidden
zone hand[Player]: set of Chip owner
var net[Player]: int = -1
var pot: int = 2
var raised: bool = false
setup {
  for v in 1..3 {
    create 1 Chip { value: v } in deck
  }
  shuffle deck
  for p in players {
    deal 1 from deck to hand[p]
  }
}
fn high(): Player = first(p in players where top(hand[p]).value == max(q in players: top(hand[q]).value))
action bet "bet" {
  net[current] -= 1
  pot += 1
  raised = true
}
action check "check" {
}
action call "call" {
  net[current] -= 1
  pot += 1
}
action fold "fold" {
  net[next(current)] += pot
  finish winners [next(current)]
}
flow {
  turn 1 {
    play bet, check
  }
  if raised {
    turn 2 {
      play call, fold
    }
  }
  net[high()] += pot
  finish winners [high()]
}
"""

# The end chosen by a move: a win, a shared win, a draw, or the flow's end on a score tie.
ENDS = """game "Ends" {
  players 3
  score p: points[p]
}
var points[Player]: int = 0
action win "win" {
  finish winners [current]
}
action share "share" {
  finish winners [1, 2]
}
action draw "draw" {
  finish
}
action tie "tie" {
  points[1] = 2
  points[3] = 2
}
flow {
  turn 1 {
    play win, share, draw, tie
  }
}
"""


def load(path, **kw):
    game, diagnostics, _ = load_game(str(path), **kw)
    assert not diagnostics, diagnostics
    return game


def bet_game(write_rules):
    return load(write_rules(BET, "bet.rules"))


def test_declared_returns_are_the_payoffs(write_rules):
    game = bet_game(write_rules)
    state = game.new_initial_state(1)
    assert state.returns() == [0.0, 0.0]           # before the end, every return is 0
    state.apply("bet")
    state.apply("call")
    high = game.functions["high"](state, {})
    assert state.is_terminal() and state.winners == [high]
    assert state.returns() == [2.0 if p == high else -2.0 for p in (1, 2)]
    assert state.outcome() == "win"
    # winners and scores stay as they were: without a score, 1 for the winner
    assert state.scores() == [1.0 if p == high else 0.0 for p in (1, 2)]
    folded = game.new_initial_state(1)
    folded.apply("bet")
    folded.apply("fold")
    assert folded.winners == [1] and folded.returns() == [1.0, -1.0]
    checked = game.new_initial_state(1)
    checked.apply("check")
    assert checked.returns() == [1.0 if p == high else -1.0 for p in (1, 2)]
    # the view tells the outcome; returns are the same from a clone
    assert folded.view(2)["outcome"] == "win" and folded.clone().returns() == [1.0, -1.0]


def test_without_returns_the_returns_are_the_winners(write_rules):
    game = load(write_rules(ENDS))
    outcomes = {}
    for move in ("win", "share", "draw", "tie"):
        state = game.new_initial_state(0)
        assert state.outcome() is None and state.view(1)["outcome"] is None
        state.apply(move)
        outcomes[move] = (state.outcome(), state.winners, state.returns())
    assert outcomes == {
        "win": ("win", [1], [1.0, 0.0, 0.0]),
        "share": ("shared", [1, 2], [1.0, 1.0, 0.0]),
        "draw": ("draw", [], [0.0, 0.0, 0.0]),
        "tie": ("shared", [1, 3], [1.0, 0.0, 1.0]),      # a tie for the best score shares the win
    }


def test_returns_must_be_numbers(write_rules):
    text = BET.replace("returns p: net[p]", "returns p: raised")
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert game is None and [d.code for d in diagnostics] == ["E302"]
    assert "a player's return is a number" in diagnostics[0].message


def test_a_return_that_is_none_is_a_located_runtime_error(capsys, write_rules):
    text = BET.replace("returns p: net[p]", "returns p: p == 1 ? net[p] : top(hand[p]).value")
    text = text.replace("  finish winners [high()]\n", "  move top(hand[2]) to deck\n  finish winners [high()]\n")
    game = load(write_rules(text))
    state = game.new_initial_state(0)
    state.apply("check")
    with pytest.raises(RulesRuntimeError) as caught:
        state.returns()
    assert caught.value.span is not None and caught.value.span.line == 3
    # simulate counts it as the game's runtime error, at the line of the returns
    code, out, _ = run(capsys, "simulate", game.path, "-n", 3, "--jobs", 1, "--json")
    summary = json.loads(out)
    assert code == 70 and summary["runtime_errors"] == 3 and summary["finished"] == 0
    assert "the return of P2 is none, not a number" in summary["first_error"]["message"]
    assert ":3:" in summary["first_error"]["message"]


def test_simulate_counts_draws_apart_from_shared_wins_and_means_the_returns(capsys, write_rules):
    path = write_rules(BET, "bet.rules")
    code, out, _ = run(capsys, "simulate", path, "-n", 40, "--jobs", 1, "--json")
    summary = json.loads(out)
    assert code == 0 and summary["finished"] == 40
    assert summary["draws"] == 0 and summary["shared_wins"] == 0
    means = summary["mean_returns"]
    assert set(means) == {"1", "2"} and abs(means["1"] + means["2"]) < 1e-9 and means["1"] != 0
    code, out, _ = run(capsys, "simulate", path, "-n", 40, "--jobs", 1)
    assert "shared wins 0 (0%)" in out and f"mean returns: P1 {means['1']:g} · P2 {means['2']:g}" in out
    # the same with worker processes
    code, out, _ = run(capsys, "simulate", path, "-n", 40, "--jobs", 2, "--json")
    assert json.loads(out)["mean_returns"] == means
    ends = write_rules(ENDS)
    code, out, _ = run(capsys, "simulate", ends, "-n", 30, "--jobs", 1, "--json")
    summary = json.loads(out)
    assert summary["draws"] + summary["wins"]["1"] == 30      # P1 wins or shares every game not drawn
    assert summary["draws"] > 0 and summary["shared_wins"] > 0
    assert summary["mean_returns"] is None              # no returns declared


def test_logs_record_the_returns_and_the_outcome(tmp_path, capsys, write_rules):
    path = write_rules(BET, "bet.rules")
    game = bet_game(write_rules)
    state = game.new_initial_state(5)
    state.apply("bet")
    state.apply("fold")
    log_path = tmp_path / "bet.json"
    write_log(log_path, game, state, str(path))
    log, error = read_log(log_path)
    assert error is None
    assert log["result"]["returns"] == [1.0, -1.0] and log["result"]["outcome"] == "win"
    replayed, error = replay(log)
    assert error is None and replayed.returns() == [1.0, -1.0]
    code, out, _ = run(capsys, "replay", log_path, "--json")
    shown = json.loads(out)
    assert code == 0 and shown["outcome"] == "win" and shown["returns"] == [1.0, -1.0]
    code, out, _ = run(capsys, "replay", log_path)
    assert "result: P1 wins" in out and "returns: P1 1 · P2 -1" in out
    # a recorded result that the replay does not reach is refused
    log["result"]["returns"] = [2.0, -2.0]
    _, error = replay(log)
    assert error is not None and "does not reach the recorded result" in str(error)


def test_older_logs_without_returns_still_replay(tmp_path, capsys):
    game = load(TTT)
    state = game.new_initial_state(0)
    for move in ("b2", "a1", "b1", "c1", "b3"):
        state.apply(move)
    log_path = tmp_path / "old.json"
    log = write_log(log_path, game, state, TTT)
    del log["result"]["returns"], log["result"]["outcome"], log["params"]    # as logs were written before
    log_path.write_text(json.dumps(log))
    code, out, _ = run(capsys, "replay", log_path, "--json")
    assert code == 0 and json.loads(out)["outcome"] == "win"
