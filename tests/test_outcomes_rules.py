"""How a game ends, beyond winners (issue 25, gap 6): decimal numbers and scores that are
fractions, teams (`teams p: EXPR`, `finish winners team X`, the outcome `team`), games lost by
every player (`finish lost`, the outcome `lost`) and a solo player against the house."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.engine.render import winners_text
from referee.interpreter.runtime.errors import RulesRuntimeError
from referee.interpreter.tools.gamelog import read_log, replay, write_log

from .test_checker import diagnostics_of
from .test_cli import run


def load(write_rules, text, name="game.rules", **kwargs):
    game, diagnostics, _ = load_game(str(write_rules(text, name)), **kwargs)
    assert diagnostics == [], diagnostics
    return game


def played(game, *moves, seed=0):
    state = game.new_initial_state(seed)
    for move in moves:
        state.apply(state.find_move(move))
    return state


# ---- decimal numbers and scores that are fractions ----------------------------------------

KOMI = """game "Komi" {
  players 2
  score p: stones[p] + (p == 2 ? komi : 0)
}
param komi = 7.5
var stones[Player]: int = 0
action place(n in 1..9) "place {n}" {
  stones[current] += n
}
action stop "stop" {
}
flow {
  turns from 1 {
    play place, stop
    if stones[1] >= 8 {
      finish winners best(p in players by stones[p] + (p == 2 ? komi : 0))
    }
  }
}
"""


def test_a_decimal_number_is_the_exact_fraction_it_writes(write_rules):
    game = load(write_rules, 'game "D" { players 2 }\nvar x: real = 0\n'
                             'action go "go {label(0.25)} {label(7.5)} {label(2.0)}" {\n'
                             '  require 1.5 == 3 / 2\n  x = 7.5 + 0.25\n}\n'
                             'flow { turns from 1 { play go } }\n')
    state = game.new_initial_state(0)
    (move,) = state.legal_moves()
    assert move.name == "go 1/4 15/2 2"
    state.apply(move)
    assert state.vars["x"] == Fraction(31, 4)


def test_a_decimal_number_where_a_whole_number_is_needed_is_e215():
    found = diagnostics_of("proc f() {\n  for k in 1..2.5 { }\n}\n")
    assert [code for code, _, _ in found] == ["E215"], found


def test_a_range_of_whole_numbers_is_still_read_as_one():
    # `1..3` is no decimal number: the lexer wants a digit after the dot
    assert diagnostics_of("proc f() {\n  for k in 1..3 { }\n}\n") == []


def test_a_score_with_a_komi_ranks_the_players_exactly(write_rules):
    game = load(write_rules, KOMI)
    state = played(game, "place 8")          # 8 against 0 + 7.5
    assert state.scores() == [8, Fraction(15, 2)]
    assert state.winners == [1] and state.outcome() == "win"
    state = played(game, "stop", "place 9", "place 9")       # 9 against 9 + 7.5
    assert state.winners == [2] and state.outcome() == "win"


def test_scores_that_are_fractions_tie_exactly_at_the_end_of_the_flow(write_rules):
    game = load(write_rules, 'game "Thirds" {\n  players 2\n  score p: p == 1 ? 1 / 3 + 1 / 3 : 2 / 3\n}\n'
                             'action go "go" { }\nflow { turn 1 { play go } }\n')
    state = played(game, "go")
    assert state.winners == [1, 2] and state.outcome() == "shared"


def test_fractional_scores_are_numbers_in_json_and_in_game_logs(capsys, write_rules, tmp_path):
    path = write_rules(KOMI, "komi.rules")
    game = load(write_rules, KOMI, "komi.rules")
    state = played(game, "place 8")
    log_path = tmp_path / "komi.json"
    write_log(log_path, game, state, str(path))
    log, _ = read_log(log_path)
    assert log["result"]["scores"] == [8, 7.5]
    replayed, problem = replay(log, log_path=str(log_path))
    assert problem is None and replayed.scores() == [8, Fraction(15, 2)]
    code, out, _ = run(capsys, "replay", log_path, "--json")
    assert code == 0 and json.loads(out)["scores"] == [8, 7.5]
    code, out, _ = run(capsys, "replay", log_path)
    assert "scores: P1 8 · P2 15/2" in out


def test_a_real_param_is_set_as_a_decimal_number_or_a_fraction_and_logged_exactly(capsys, write_rules, tmp_path):
    text = KOMI.replace("param komi = 7.5", "param komi: real = 7.5")
    path = write_rules(text, "komi.rules")
    for given, value in (("6.5", Fraction(13, 2)), ("13/3", Fraction(13, 3)), ("6", 6)):
        game = load(write_rules, text, "komi.rules", params={"komi": given})
        assert game.params["komi"] == value
    game, diagnostics, _ = load_game(str(path), params={"komi": "six"})
    assert game is None and diagnostics[0].code == "E604" and "13/2" in diagnostics[0].message
    game = load(write_rules, text, "komi.rules", params={"komi": "13/3"})
    state = played(game, "stop", "place 9", "place 9")
    log_path = tmp_path / "komi.json"
    write_log(log_path, game, state, str(path))
    log, _ = read_log(log_path)
    assert log["params"] == {"komi": "13/3"} and log["result"]["scores"] == [9, float(9 + Fraction(13, 3))]
    replayed, problem = replay(log, log_path=str(log_path))
    assert problem is None and replayed.game.params["komi"] == Fraction(13, 3)
    code, out, _ = run(capsys, "simulate", path, "--games", "2", "--param", "komi=13/2", "--json")
    assert code == 0 and json.loads(out)["params"] == {"komi": 6.5}


# ---- teams -------------------------------------------------------------------------------

TEAMS = """game "Relay" {
  players 4
  score p: points[side(p)]
  teams p: side(p)
}
enum Side { red, blue }
fn side(p: Player): Side = p % 2 == 1 ? red : blue
var points[Side]: int = 0
action add(n in 1..3) "add {n}" {
  points[side(current)] += n
}
action win "win" {
  finish winners team side(current)
}
action pair "pair" {
  finish winners [1, 2]
}
action alone "alone" {
  finish winners [current]
}
action odd "odd" {
  finish winners [3, 1]
}
flow {
  turns from 1 until points[side(current)] >= 6 {
    play add, win, pair, alone, odd
  }
}
"""


def test_finish_winners_team_makes_its_members_the_winners(write_rules):
    game = load(write_rules, TEAMS)
    state = played(game, "add 1", "win")            # P2 of blue
    assert state.winners == [2, 4] and state.outcome() == "team"
    assert state.returns() == [0.0, 1.0, 0.0, 1.0]     # every member gets the winners' return
    view = state.view(1)
    assert view["outcome"] == "team" and view["winners"] == [2, 4]
    assert winners_text(state.winners, state.outcome()) == "P2 and P4 win (team)"


def test_winners_of_two_teams_share_and_one_winner_wins(write_rules):
    game = load(write_rules, TEAMS)
    state = played(game, "pair")
    assert state.winners == [1, 2] and state.outcome() == "shared"
    state = played(game, "alone")
    assert state.winners == [1] and state.outcome() == "win"


def test_winners_listed_who_are_one_team_are_a_team_outcome_and_returns_may_pay_by_team(write_rules):
    game = load(write_rules, TEAMS)
    state = played(game, "odd")
    assert state.winners == [1, 3] and state.outcome() == "team"
    paid = load(write_rules, TEAMS.replace("  teams p: side(p)\n", "  returns p: points[side(p)]\n  teams p: side(p)\n"))
    state = played(paid, "add 2", "add 3", "win")       # red 2, blue 3: P3 of red wins
    assert state.outcome() == "team" and state.returns() == [2.0, 3.0, 2.0, 3.0]


def test_a_team_tied_for_the_best_score_is_a_team_outcome(write_rules):
    game = load(write_rules, TEAMS)
    state = played(game, "add 3", "add 1", "add 3")     # red: 6, blue: 1
    assert state.is_terminal() and state.winners == [1, 3] and state.outcome() == "team"


def test_teams_dealt_in_the_setup_may_be_none_and_an_empty_team_is_a_runtime_error(write_rules):
    game = load(write_rules, """game "Roles" {
  players 3
  teams p: role[p]
}
enum Role { spy, loyal, nobody }
var role[Player]: Role? = none
setup {
  role[1] = spy
  role[2] = loyal
}
action spies_win "spies win" { finish winners team spy }
action nobody_wins "nobody wins" { finish winners team nobody }
flow { turns from 1 { play spies_win, nobody_wins } }
""")
    state = played(game, "spies win")
    assert state.winners == [1] and state.outcome() == "win"
    with pytest.raises(RulesRuntimeError, match="no player is in the team nobody"):
        played(game, "nobody wins")


def test_simulate_counts_team_wins_in_a_game_with_teams(capsys, write_rules):
    path = write_rules(TEAMS)
    code, out, _ = run(capsys, "simulate", path, "--games", "30", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["team_wins"] > 0 and "lost" not in summary
    assert summary["team_wins"] + summary["shared_wins"] + summary["draws"] <= summary["finished"]
    by_team = summary["wins_by_team"]                   # which team won how often
    assert set(by_team) <= {"red", "blue"} and sum(by_team.values()) == summary["team_wins"]
    code, out, _ = run(capsys, "simulate", path, "--games", "30")
    assert " · team wins " in out
    assert all(f"{team} {count} (" in out for team, count in by_team.items())


# ---- lost by every player, and the house -------------------------------------------------

COOPERATIVE = """game "Defuse" {
  players 2
}
var wires: int = 2
action cut "cut a wire" { wires -= 1 }
action slip "slip" { finish lost }
action stop "stop" { finish }
flow {
  turns from 1 {
    play cut, slip, stop
    if wires == 0 {
      finish winners players
    }
  }
}
"""


def test_finish_lost_is_lost_by_every_player_not_a_draw(write_rules):
    game = load(write_rules, COOPERATIVE)
    lost = played(game, "slip")
    assert lost.is_terminal() and list(lost.winners) == [] and lost.outcome() == "lost"
    assert lost.returns() == [-1.0, -1.0] and lost.view(1)["outcome"] == "lost"
    assert winners_text(lost.winners, lost.outcome()) == "every player loses"
    draw = played(game, "stop")
    assert draw.outcome() == "draw" and draw.returns() == [0.0, 0.0]
    won = played(game, "cut a wire", "cut a wire")
    assert won.outcome() == "shared" and won.returns() == [1.0, 1.0]


def test_a_lost_game_keeps_its_outcome_in_clones_and_logs(write_rules, tmp_path):
    path = write_rules(COOPERATIVE)
    game = load(write_rules, COOPERATIVE)
    state = played(game, "cut a wire", "slip")
    assert state.clone().outcome() == "lost"
    log_path = tmp_path / "lost.json"
    write_log(log_path, game, state, str(path))
    log, _ = read_log(log_path)
    assert log["result"]["outcome"] == "lost" and log["result"]["returns"] == [-1.0, -1.0]
    replayed, problem = replay(log, log_path=str(log_path))
    assert problem is None and replayed.outcome() == "lost"


def test_declared_returns_pay_a_lost_game_as_they_say(write_rules):
    game = load(write_rules, COOPERATIVE.replace("players 2\n", "players 2\n  returns p: -wires\n"))
    assert played(game, "cut a wire", "slip").returns() == [-1.0, -1.0]
    assert played(game, "slip").returns() == [-2.0, -2.0]


def test_simulate_and_play_say_a_game_lost_by_all(capsys, write_rules):
    path = write_rules(COOPERATIVE)
    code, out, _ = run(capsys, "simulate", path, "--games", "30", "--json")
    summary = json.loads(out)
    assert code == 0 and summary["lost"] > 0 and "team_wins" not in summary
    assert summary["lost"] + summary["draws"] + summary["shared_wins"] == summary["finished"] == 30
    code, out, _ = run(capsys, "simulate", path, "--games", "30")
    assert " · lost by all " in out
    for seed in range(20):
        code, out, _ = run(capsys, "play", path, "--bot", "all=random", "--brief", "--seed", seed)
        if "result: every player loses" in out:
            break
    else:
        pytest.fail("no random game of 20 was lost")


def test_analyze_counts_the_games_lost_by_all_apart_from_draws(capsys, write_rules):
    path = write_rules(COOPERATIVE)
    code, out, _ = run(capsys, "analyze", path, "--games", "30", "--json")
    figures = json.loads(out)["figures"]
    assert code == 0 and figures["lost"]["count"] > 0
    assert figures["lost"]["count"] + figures["draws"]["count"] + figures["shared_wins"]["count"] == 30


HOUSE = """game "Beat the dealer" {
  players 1
}
var total: int = 0
action draw(n in 1..10 where n <= 21 - total) "draw {n}" {
  total += n
}
action stand "stand" {
  if total >= 18 {
    finish winners [current]
  }
  finish lost
}
flow {
  turns from 1 {
    play draw, stand
  }
}
"""


def test_a_solo_player_wins_or_the_house_does(write_rules):
    game = load(write_rules, HOUSE)
    won = played(game, "draw 10", "draw 9", "stand")
    assert won.outcome() == "win" and won.returns() == [1.0]
    lost = played(game, "draw 5", "stand")
    assert lost.outcome() == "lost" and lost.returns() == [-1.0]


def test_openspiel_sees_a_game_that_may_be_lost_down_to_minus_one(write_rules):
    openspiel_game = pytest.importorskip("referee.interpreter.adapters.openspiel_game")
    game = openspiel_game.load_openspiel_game(write_rules(HOUSE, "house.rules"), players=1)
    assert game.min_utility() == -1.0 and game.max_utility() == 1.0
    plain = openspiel_game.load_openspiel_game(write_rules(TEAMS, "teams.rules"), players=4)
    assert plain.min_utility() == 0.0


def test_pettingzoo_rewards_a_game_lost_by_all_with_minus_one_each(write_rules):
    pytest.importorskip("pettingzoo")
    from referee.interpreter.adapters.pettingzoo_env import load_pettingzoo_env

    from .test_pettingzoo import random_game

    env = load_pettingzoo_env(write_rules(COOPERATIVE, "defuse.rules"))
    outcomes = set()
    for seed in range(12):
        played, rewards = random_game(env, seed)
        if "slip" in played:
            assert rewards == {"player_0": -1.0, "player_1": -1.0}, rewards
            outcomes.add("lost")
    assert outcomes == {"lost"}

