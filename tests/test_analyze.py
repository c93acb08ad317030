"""`referee analyze`: its statistics against known values, its report of random tic-tac-toe
against the game's known outcome, its JSON, its HTML page, --against, and the same figures
whatever the number of worker processes."""
from __future__ import annotations

import base64
import builtins
import json
import math
import re

import pytest

from referee.interpreter.tools import analyze
from referee.interpreter.tools.analyze import (binomial_test, chi_square_p_value, chi_square_uniform, histogram,
                                 mean_difference_test, median, nice_width, two_proportion_z_test,
                                 wilson_interval)
from tests.test_cli import CONTINENTS, DEAD_END, ROOT, TTT, run

TITICACA = str(ROOT / "games" / "titicaca.rules")
WIDE = str(ROOT / "games" / "variants" / "titicaca-wide.rules")
SOLSTIS = str(ROOT / "games" / "solstis.rules")


def analysis(capsys, *argv):
    code, out, err = run(capsys, "analyze", *argv, "--json")
    return code, json.loads(out)


# ---- the statistics, against known values (scipy's) --------------------------------------

def test_wilson_interval():
    assert wilson_interval(8, 10) == pytest.approx((0.4901624715, 0.9433178485))
    assert wilson_interval(81, 263) == pytest.approx((0.2552885199, 0.3662095770))
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775327998)          # never below 0
    assert wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)                          # no trials: it says nothing
    assert wilson_interval(50, 100, z=2.5758)[0] < wilson_interval(50, 100)[0]   # 99 % is wider


def test_binomial_test_is_exact_and_two_sided():
    assert binomial_test(7, 10) == pytest.approx(0.34375)
    assert binomial_test(60, 100) == pytest.approx(0.0568879336)
    assert binomial_test(3, 30, 1 / 3) == pytest.approx(0.0057550781)   # an asymmetric null
    assert binomial_test(0, 5) == pytest.approx(0.0625)
    assert binomial_test(570, 1000) == pytest.approx(1.0709737665e-05)
    assert binomial_test(5, 10) == pytest.approx(1.0) and binomial_test(0, 0) == 1.0


def test_chi_square():
    assert chi_square_p_value(3.84, 1) == pytest.approx(0.0500435212)
    assert chi_square_p_value(10, 4) == pytest.approx(0.0404276820)
    assert chi_square_p_value(0.5, 2) == pytest.approx(0.7788007831)
    assert chi_square_p_value(30, 3) == pytest.approx(1.3800570313e-06)
    assert chi_square_p_value(100, 10) == pytest.approx(5.4497019829e-17)
    assert chi_square_p_value(0, 3) == 1.0
    statistic, df, p = chi_square_uniform([30, 20, 10])
    assert (statistic, df) == (pytest.approx(10.0), 2) and p == pytest.approx(0.0067379470)
    assert chi_square_uniform([0, 0]) == (0.0, 1, 1.0)


def test_two_proportion_and_mean_difference_tests():
    z, p = two_proportion_z_test(45, 100, 30, 100)
    assert z == pytest.approx(2.1908902300) and p == pytest.approx(0.0284597369)
    assert two_proportion_z_test(3, 10, 3, 10) == (0.0, 1.0)
    assert two_proportion_z_test(0, 10, 0, 20) == (0.0, 1.0) and two_proportion_z_test(1, 0, 1, 5) == (0.0, 1.0)
    z, p = mean_difference_test([1, 2, 3, 4, 5], [2, 4, 6, 8, 10, 12])
    assert z == pytest.approx(-2.3763541031) and p == pytest.approx(0.0174846744)   # Welch's statistic
    assert mean_difference_test([4, 4], [4, 4]) == (0.0, 1.0)
    assert mean_difference_test([5, 5], [4, 4]) == (math.inf, 0.0)


def test_median_widths_and_histograms():
    assert median([3, 1, 2]) == 2 and median([4, 1, 3, 2]) == 2.5
    assert [nice_width(span, 10) for span in (5, 10, 11, 25, 51, 101, 900)] == [1, 1, 2, 5, 10, 20, 100]
    assert histogram([5, 6, 6, 9]) == [{"from": k, "to": k, "count": c} for k, c in ((5, 1), (6, 2), (7, 0), (8, 0), (9, 1))]
    bins = histogram(list(range(3, 98)), most_bins=10)
    assert [(b["from"], b["to"]) for b in bins][:2] == [(0, 9), (10, 19)] and sum(b["count"] for b in bins) == 95
    assert histogram([]) == []


# ---- a report of random tic-tac-toe ------------------------------------------------------

def test_random_tic_tac_toe_has_its_known_outcome(capsys):
    """Uniformly random tic-tac-toe: P1 wins 58.49 %, P2 28.81 %, draws 12.70 % (the exact
    values over all move orders weighted by their chance): each lies in its 95 % interval."""
    code, report = analysis(capsys, TTT, "-n", 3000, "--jobs", 1)
    figures = report["figures"]
    assert code == 0 and figures["games"] == figures["finished"] == 3000
    for row, known in ((figures["seats"]["1"], 0.5849), (figures["seats"]["2"], 0.2881), (figures["draws"], 0.1270)):
        low, high = row["interval"]
        assert low < known < high and high - low < 0.04
    balance = figures["seat_balance"]
    assert balance["decisive_games"] == 3000 - figures["draws"]["count"]
    assert balance["first_seat_share"] > 0.6 and balance["p_value"] < 1e-20        # P1 is favoured
    assert figures["shared_wins"]["count"] == 0


def test_the_json_report_holds_every_figure(capsys):
    code, report = analysis(capsys, TTT, "-n", 200, "--seed", 5, "--jobs", 1, "--bot", "2=first")
    figures = report["figures"]
    assert code == 0 and report["bots"] == {"1": "random", "2": "first"} and report["seed"] == 5
    assert set(figures) == {"games", "finished", "endless", "errors", "seats", "seat_balance", "draws",
                            "shared_wins", "length", "branching", "actions", "scores", "returns"}
    seats = figures["seats"]
    assert seats["1"]["wins"] + seats["2"]["wins"] + figures["draws"]["count"] == 200
    length = figures["length"]
    assert 5 <= length["min"] <= length["median"] <= length["max"] <= 9
    assert sum(b["count"] for b in length["histogram"]) == 200
    # 9 empty cells at move 1, 8 at move 2...: the legal moves of tic-tac-toe by move number
    buckets = figures["branching"]["by_move_number"]
    assert [(b["from"], b["min"], b["max"]) for b in buckets] == [(k, 10 - k, 10 - k) for k in range(1, 10)]
    assert buckets[0]["decisions"] == 200 and buckets[-1]["decisions"] < 200
    moves = round(length["mean"] * 200)
    assert figures["actions"]["total"] == {"put": moves}
    assert sum(figures["actions"]["by_seat"][p]["put"] for p in ("1", "2")) == moves
    assert figures["scores"]["1"]["max"] == 1 and figures["returns"]["2"]["min"] == 0
    assert figures["endless"]["count"] == 0 and figures["errors"]["count"] == 0


TUG_OF_WAR = """
game "Tug of war" {
  players 4
  teams p: side(p)
}
enum Side { north_team, south_team }
fn side(p: Player): Side = p % 2 == 1 ? north_team : south_team
var rope: int = 0
action pull(n in 1..2) "pull {n}" {
  rope += side(current) == north_team ? n : -n
}
action share "share" {
  require current == 4 and rope == 0
  finish winners [1, 2]
}
flow {
  turns from 1 {
    play pull, share
    if rope >= 3 {
      finish winners team north_team
    }
    if rope <= -3 {
      finish winners team south_team
    }
  }
}
"""


def test_team_wins_are_counted_per_team_not_as_shared_wins(capsys, tmp_path):
    rules = tmp_path / "tug.rules"
    rules.write_text(TUG_OF_WAR)
    code, report = analysis(capsys, rules, "-n", 60, "--jobs", 1)
    figures = report["figures"]
    teams = figures["team_wins"]
    assert code == 0 and set(teams) == {"north_team", "south_team"}
    shared = figures["shared_wins"]["count"]                    # P1 and P2: not one team
    assert shared > 0 and teams["north_team"]["count"] + teams["south_team"]["count"] + shared == 60
    assert figures["seats"]["1"]["wins"] == teams["north_team"]["count"] + shared
    assert figures["seats"]["4"]["wins"] == teams["south_team"]["count"]
    assert teams["north_team"]["rate"] == round(teams["north_team"]["count"] / 60, 4)
    code, out, _ = run(capsys, "analyze", rules, "-n", 60, "--jobs", 1)
    count = teams["south_team"]["count"]
    assert re.search(rf"^team south_team +{count} +\d+\.\d% +\[", out, re.M)
    code, report = analysis(capsys, TTT, "-n", 20, "--jobs", 1)  # no teams: no such figure
    assert "team_wins" not in report["figures"]


def test_the_terminal_summary_is_plain_tables(capsys):
    code, out, _ = run(capsys, "analyze", TTT, "-n", 100, "--jobs", 1)
    assert code == 0 and out.startswith("Tic-tac-toe · 2 players · options: none · 100 games (seeds 0..99)")
    assert re.search(r"^P1 +\d+ +\d+ +\d+\.\d% +\[\d+\.\d, \d+\.\d\]$", out, re.M)
    assert "first seat: " in out and "(exact binomial)" in out
    assert re.search(r"^  1 +100 +9\.0 +9 +9$", out, re.M)                 # branching at move 1
    assert re.search(r"^  put +\d+ +\d+ +\d+$", out, re.M)


def test_the_bots_asked_for_play(capsys):
    """Two 'first' bots play the same game every time: P1 wins a diagonal at move 7."""
    code, report = analysis(capsys, TTT, "-n", 10, "--bot", "all=first", "--jobs", 1)
    figures = report["figures"]
    assert code == 0 and figures["seats"]["1"]["wins"] == 10 and figures["seats"]["1"]["interval"][1] == 1.0
    assert figures["length"]["min"] == figures["length"]["max"] == 7
    assert figures["actions"]["by_seat"] == {"1": {"put": 40}, "2": {"put": 30}}


def test_more_than_two_seats_get_a_chi_square_and_coverage_its_table(capsys):
    code, report = analysis(capsys, CONTINENTS, "--players", 3, "-n", 12, "--jobs", 1, "--coverage")
    balance = report["figures"]["seat_balance"]
    assert code == 0 and balance["expected_share"] == pytest.approx(1 / 3, abs=1e-4)
    assert balance["all_seats"]["df"] == 2 and 0 <= balance["all_seats"]["p_value"] <= 1
    assert report["coverage"]["games"] == 12
    code, out, _ = run(capsys, "analyze", CONTINENTS, "--players", 3, "-n", 12, "--jobs", 1, "--coverage")
    assert re.search(r"^all seats: chi-square \d+\.\d\d, df 2, p = ", out, re.M)
    assert re.search(r"^rule coverage over 12 games: ", out, re.M)


def test_endless_games_and_dead_ends_are_counted(capsys, tmp_path):
    code, report = analysis(capsys, TTT, "-n", 10, "--max-moves", 3, "--jobs", 1)
    figures = report["figures"]
    assert code == 0 and figures["finished"] == 0 and figures["endless"] == {
        "count": 10, "max_moves": 3, "seeds": list(range(10))}
    assert figures["seats"]["1"]["rate"] is None and figures["length"] is None
    stuck = tmp_path / "stuck.rules"
    stuck.write_text(DEAD_END)
    code, report = analysis(capsys, stuck, "-n", 4, "--jobs", 1)
    errors = report["figures"]["errors"]
    assert code == 70 and errors["count"] == errors["dead_ends"] == 4 and errors["by_kind"] == {"dead-end": 4}
    assert errors["first"]["seed"] == 0 and "has no legal move" in errors["first"]["message"]
    assert len(errors["first"]["moves"]) == 3


@pytest.mark.slow
def test_same_figures_with_one_or_two_jobs(capsys):
    argv = [SOLSTIS, "-n", 16, "--seed", 3, "--coverage"]
    one = analysis(capsys, *argv, "--jobs", 1)
    two = analysis(capsys, *argv, "--jobs", 2)
    for _, report in (one, two):
        assert report.pop("seconds") >= 0
    assert one == two and one[1]["coverage"]["games"] == 16


# ---- --against ------------------------------------------------------------------------------

@pytest.mark.slow
def test_a_variant_against_its_base(capsys):
    code, report = analysis(capsys, WIDE, "--against", TITICACA, "-n", 60, "--jobs", 1)
    against = report["against"]
    assert code == 0 and against["rules"] == TITICACA and against["figures"]["games"] == 60
    changes = against["changes"]
    assert set(changes) == {"win_rates", "draws", "shared_wins", "endless", "mean_length", "tests"}
    for seat, change in changes["win_rates"].items():
        assert change["variant"] == report["figures"]["seats"][seat]["rate"]
        assert change["base"] == against["figures"]["seats"][seat]["rate"]
        assert 0 <= change["p_value"] <= 1
    length = changes["mean_length"]
    assert length["variant"] == pytest.approx(report["figures"]["length"]["mean"], abs=1e-3)
    assert length["base"] == pytest.approx(against["figures"]["length"]["mean"], abs=1e-3)
    assert report["figures"] != against["figures"]                  # another map plays differently


def test_a_file_against_itself_changes_nothing(capsys):
    code, out, _ = run(capsys, "analyze", TTT, "--against", TTT, "-n", 50, "--jobs", 1)
    assert code == 0 and f"changes from {TTT} to {TTT}:" in out
    assert re.search(r"^P1 win rate +(\d+\.\d%) +\1 +\+0\.0 pts +1$", out, re.M)
    assert re.search(r"^mean length .* \+0 +1$", out, re.M)


# ---- --html ---------------------------------------------------------------------------------

@pytest.mark.slow
def test_the_html_report_embeds_its_plots(capsys, tmp_path):
    page = tmp_path / "report.html"
    code, out, _ = run(capsys, "analyze", WIDE, "--against", TITICACA, "-n", 30, "--jobs", 1, "--html", page)
    assert code == 0 and out.rstrip().endswith(f"report written to {page}")
    text = page.read_text()
    assert text.startswith("<!DOCTYPE html>") and "balance report" in text and "What changed from the base" in text
    images = re.findall(r'<img alt="" src="data:image/png;base64,([A-Za-z0-9+/=]+)">', text)
    # per file: win rates, lengths, branching, actions, scores; then the comparison
    assert len(images) == 11
    assert all(base64.b64decode(image).startswith(b"\x89PNG\r\n\x1a\n") for image in images)
    assert "src=\"http" not in text and "<script" not in text                 # self-contained
    assert len(text) < 400_000


def test_html_without_matplotlib_is_a_clear_error(capsys, tmp_path, monkeypatch):
    real_import = builtins.__import__

    def without_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", without_matplotlib)
    page = tmp_path / "report.html"
    code, out, err = run(capsys, "analyze", TTT, "-n", 5, "--jobs", 1, "--html", page)
    assert code == 69 and out == "" and not page.exists()
    assert err == ("referee: --html draws its plots with matplotlib, which is not installed: "
                   "pip install 'referee[report]' (or pip install matplotlib)\n")
    code, out, _ = run(capsys, "analyze", TTT, "-n", 5, "--jobs", 1, "--html", page, "--json")
    assert code == 69 and json.loads(out)["exit_code"] == 69
    assert analyze.NoMatplotlib


# ---- mistakes -------------------------------------------------------------------------------

@pytest.mark.slow
def test_mistakes_are_clear(capsys, tmp_path):
    code, _, err = run(capsys, "analyze", TTT, "--bot", "2=human")
    assert code == 2 and err.endswith("referee analyze: error: argument --bot: analyze plays bots only: "
                                      "a seat cannot be human here\n")
    code, _, err = run(capsys, "analyze", TTT, "--players", 3)
    assert code == 2 and "referee analyze: error: argument --players: this game is for 2" in err and err.endswith(", not 3\n")
    code, _, err = run(capsys, "analyze", SOLSTIS, "--bot", "1=mcts")
    assert code == 2 and "mcts reads the whole state" in err
    code, _, err = run(capsys, "analyze", TTT, "--against", tmp_path / "nope.rules")
    assert code == 66 and "nope.rules: no such file" in err
    code, out, _ = run(capsys, "analyze", TTT, "-n", 0, "--json")
    assert code == 2 and json.loads(out) == {"error": "referee analyze: error: argument -n/--games: must be at least 1: 0",
                                             "exit_code": 2}
    code, _, err = run(capsys, "analyze", TTT, "-n", 3, "--jobs", 1, "--html", tmp_path / "no" / "such" / "r.html")
    assert code == 73 and "cannot write" in err


def test_the_reports_of_the_seed_games_are_there():
    """docs/reports/README.md names each page and the command that writes it."""
    folder = ROOT / "docs" / "reports"
    readme = (folder / "README.md").read_text()
    assert "referee analyze games/$game.rules -n 500 --html docs/reports/$game.html" in readme
    for game in ("continents", "titicaca", "solstis"):
        assert f"[{game}.html]({game}.html)" in readme
        page = (folder / f"{game}.html").read_text()
        assert "500 games (seeds 0..499)" in page and page.count("data:image/png;base64,") == 5
        assert len(page) < 100_000
    team = (folder / "the-resistance.html").read_text()         # a team game's page: a row per team
    assert "[the-resistance.html](the-resistance.html)" in readme
    assert "500 games (seeds 0..499)" in team and "team resistance" in team and "team spy" in team
    assert "[dominion.html](dominion.html)" in readme and "500 games (seeds 0..499)" in (folder / "dominion.html").read_text()
    assert "[ticket-to-ride.html](ticket-to-ride.html)" in readme
    assert "500 games (seeds 0..499)" in (folder / "ticket-to-ride.html").read_text()
    skull = (folder / "skull.html").read_text()                   # three seats, the smallest count
    assert "[skull.html](skull.html)" in readme and "500 games (seeds 0..499)" in skull and "3 players" in skull
