"""`referee tournament` (interpreter/tournament.py): bots against each other with the seats
rotated, win rates with intervals, Bradley-Terry ratings with bootstrap intervals, pairwise
results; the same figures for any --jobs."""
from __future__ import annotations

import json
import math
from collections import Counter

import pytest

from referee.interpreter.play import tournament

from .test_cli import DEAD_END, ROOT, TTT, run

KUHN = str(ROOT / "games" / "kuhn-poker.rules")


def seat_counts(seating_list, bots, players):
    return {(bot, seat): sum(1 for s in seating_list if s[seat] == bot) for bot in range(bots) for seat in range(players)}


@pytest.mark.parametrize("bots, players, expected", [(2, 2, 2), (3, 2, 6), (3, 3, 6), (2, 3, 6), (4, 2, 12),
                                                     (3, 5, 150), (2, 6, 62)])
def test_every_bot_has_every_seat_equally_often(bots, players, expected):
    seating_list = tournament.seatings(bots, players)
    assert len(seating_list) == expected == len(set(seating_list)) == tournament.seating_count(bots, players)
    assert all(len(set(s)) == min(bots, players) for s in seating_list)      # every bot plays, each game
    assert len(set(seat_counts(seating_list, bots, players).values())) == 1


def test_a_schedule_is_whole_rounds_each_dealing_one_seed_to_every_seating():
    plan = tournament.schedule(5, tournament.seatings(2, 2), 10)
    assert plan == [(10, (0, 1)), (10, (1, 0)), (11, (0, 1)), (11, (1, 0)), (12, (0, 1)), (12, (1, 0))]


def test_bots_given_twice_are_told_apart():
    assert tournament.labels_of(["mcts", "random", "mcts"]) == ["mcts #1", "random", "mcts #2"]


def test_bradley_terry_fits_the_maximum_likelihood_ratings():
    # a beats b 3 times in 4; with the virtual draw, 3.5 against 1.5 in 5: s_a / s_b = 3.5 / 1.5
    games = [[(0, 1, 1.0)]] * 3 + [[(0, 1, 0.0)]]
    a, b = tournament.bradley_terry(2, games)
    assert a == pytest.approx(-b) and a - b == pytest.approx(400 * math.log10(3.5 / 1.5))
    # a transitive three: the order of the ratings; a bot that wins everything stays finite
    games = [[(0, 1, 1.0), (0, 2, 1.0), (1, 2, 1.0)]] * 10
    ratings = tournament.bradley_terry(3, games)
    assert ratings[0] > ratings[1] > ratings[2] and all(map(math.isfinite, ratings)) and sum(ratings) == pytest.approx(0)


def tournament_json(capsys, *argv):
    code, out, err = run(capsys, "tournament", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_mcts_rates_above_random_at_tic_tac_toe_with_the_seats_rotated(capsys):
    report = tournament_json(capsys, TTT, "--bot", "mcts:iterations=100", "--bot", "random", "-n", "20", "--jobs", "1")
    mcts, random_ = report["figures"]["bots"]
    assert (mcts["bot"], random_["bot"]) == ("mcts:iterations=100", "random")
    assert report["games"] == 20 and report["rounds"] == 10
    assert mcts["seats"] == random_["seats"] == {"1": 10, "2": 10}
    # the seats of the games themselves: each seed in both seatings
    assert Counter(tuple(g["seats"]) for g in report["results"]) == {("mcts:iterations=100", "random"): 10,
                                                                     ("random", "mcts:iterations=100"): 10}
    assert all(a["seed"] == b["seed"] for a, b in zip(report["results"][::2], report["results"][1::2]))
    assert mcts["games"] == 20 and mcts["wins"] + mcts["draws"] + mcts["losses"] == 20
    assert mcts["losses"] == 0 and mcts["wins"] >= 14 and mcts["win_rate"] == mcts["wins"] / 20
    assert mcts["interval"][0] < mcts["win_rate"] < mcts["interval"][1]
    assert mcts["elo"] > 100 > -100 > random_["elo"] and mcts["elo_interval"][0] > random_["elo_interval"][1]
    assert mcts["elo_interval"][0] <= mcts["elo"] <= mcts["elo_interval"][1]
    cell = report["figures"]["pairwise"]["mcts:iterations=100"]["random"]
    assert (cell["wins"], cell["draws"], cell["losses"]) == (mcts["wins"], mcts["draws"], mcts["losses"])
    assert report["figures"]["pairwise"]["random"]["mcts:iterations=100"]["wins"] == mcts["losses"]


def test_the_figures_do_not_depend_on_jobs(capsys):
    argv = (KUHN, "--bot", "ismcts:iterations=30", "--bot", "random", "--bot", "first", "-n", "12", "--seed", "5")
    one, two = (tournament_json(capsys, *argv, "--jobs", jobs) for jobs in ("1", "2"))
    for report in (one, two):
        del report["seconds"], report["description"]
    assert one == two and one["games"] == 12 and len(one["seatings"]) == 6


def test_three_players_two_bots(capsys):
    report = tournament_json(capsys, str(ROOT / "games" / "continents.rules"), "--players", "3", "--bot", "first",
                             "--bot", "random", "-n", "6", "--jobs", "1", "--max-moves", "5")
    assert report["games"] == 6 and all(len(set(g["seats"])) == 2 for g in report["results"])
    first = report["figures"]["bots"][0]
    assert first["seats"] == {"1": 3, "2": 3, "3": 3}
    # stopped at --max-moves: draws
    assert report["figures"]["unfinished"] == 6 and first["draws"] == 6


def test_the_text_report(capsys):
    code, out, _ = run(capsys, "tournament", KUHN, "--bot", "ismcts:iterations=20", "--bot", "random", "-n", "4",
                       "--jobs", "1")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("Kuhn poker · 2 players") and "4 games: 2 rounds × 2 seatings" in lines[0]
    assert lines[2].split() == ["bot", "games", "wins", "draws", "losses", "win", "rate", "95%", "interval", "mean",
                                "return", "Elo", "95%", "interval"]
    assert lines[3].startswith("ismcts:iterations=20") and lines[4].startswith("random")
    assert "pairwise (row against column: wins-draws-losses, score):" in lines
    assert any(line.startswith("ratings: Bradley-Terry") for line in lines)


def test_a_runtime_error_is_reported_and_not_counted(capsys, write_rules):
    path = write_rules(DEAD_END)
    code, out, _ = run(capsys, "tournament", path, "--bot", "first", "--bot", "random", "-n", "2", "--jobs", "1", "--json")
    report = json.loads(out)
    assert code == 70 and report["figures"]["errors"]["count"] == 2
    assert report["figures"]["bots"][0]["games"] == 0 and report["figures"]["bots"][0]["win_rate"] is None
    assert "must play" in report["figures"]["errors"]["first"]["message"]


@pytest.mark.parametrize("argv, message", [
    (["--bot", "random"], "a tournament needs at least two bots"),
    (["--bot", "random", "--bot", "human"], "a tournament plays bots only"),
    (["--bot", "random", "--bot", "mcts:depth=2"], "mcts takes iterations=..., exploration=..."),
    (["--bot", "random", "--bot", "alpha"], "unknown bot 'alpha'"),
])
def test_bad_bots_are_command_line_errors(capsys, argv, message):
    code, out, err = run(capsys, "tournament", TTT, *argv)
    assert code == 2 and out == "" and message in err and err.startswith("usage: referee tournament")


def test_too_many_seatings_are_refused_before_any_is_made(capsys):
    bots = [word for k in range(12) for word in ("--bot", f"ismcts:iterations={k + 1}")]
    code, _, err = run(capsys, "tournament", str(ROOT / "games" / "continents.rules"), "--players", "6", *bots)
    assert code == 2 and "12 bots in 6 seats make 665280 seatings, more than a tournament plays (10000)" in err


def test_mcts_is_refused_where_information_is_hidden(capsys):
    code, _, err = run(capsys, "tournament", KUHN, "--bot", "mcts", "--bot", "random")
    assert code == 2 and "mcts reads the whole state" in err
