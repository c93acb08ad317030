"""Rule coverage (`verify --coverage`, `simulate --coverage`): how often each rule tag's
statements, conditions and actions ran, and the rules that never did. Counts are exact, the
same for any --jobs, and a game compiled without coverage generates the same code as ever."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.interpreter.tools import coverage
from referee.interpreter.tools import verify
from referee.interpreter.cli.main import main
from referee.interpreter.engine import load_game

ROOT = Path(__file__).resolve().parent.parent
CONTINENTS = ROOT / "games" / "continents.rules"

# Six decisions a game, each among add 1, add 2 (add 3 is refused): every count is known.
COUNTED = """
game "Counted" { players 2 }

@R-1 "The total starts at zero."
var total: int = 0
var moves: int = 0

@R-2 "Add 1 or 2 to the total."
action add(n in 1..3) "add {n}" {
  @R-3 "Never more than 2 at a time."
  require n <= 2 else "at most 2"
  total += n
  moves += 1
  @R-4 "A total above 100 wins a bonus."
  if total > 100 {
    @R-5 "The bonus: 5 more."
    total += 5
  }
}

@R-6 "The total stays within 12."
invariant small: total <= 12

flow {
  @R-7 "Six moves, players in turn."
  turns from 1 until moves >= 6 {
    play add
  }
}
"""


def counted_game(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(COUNTED)), coverage=True)
    assert game is not None, diagnostics
    return game


def places_of(result, rule_id):
    return [(p["kind"], p["counts"]) for e in result["rules"] if e["rule"] == rule_id for p in e["places"]]


def test_exact_counts_of_a_reachable_and_an_unreachable_rule(write_rules):
    game = counted_game(write_rules)
    report = verify.verify(game, games=5)
    assert report.finished == 5 and not report.failures
    result = coverage.report(game.coverage, report.coverage, report.games)
    assert places_of(result, "R-2") == [("action", {"played": 30, "legal": 30})]
    assert places_of(result, "R-3") == [("require", {"evaluated": 90, "true": 60, "refused": 30})]
    assert places_of(result, "R-4") == [("if", {"evaluated": 30, "true": 0, "false": 30})]
    assert places_of(result, "R-5") == [("augment", {"ran": 0})]
    assert places_of(result, "R-6") == [("invariant", {"checked": 35, "held": 35, "false": 0})]
    assert places_of(result, "R-7") == [("turns", {"ran": 5, "turns": 30})]
    assert places_of(result, "R-1") == [("static", {})]
    assert result["never_reached"] == ["R-5"]
    assert result["reached_in_part"] == ["R-4"]        # its condition was never true
    assert result["static"] == ["R-1"]
    by_rule = {e["rule"]: e for e in result["rules"]}
    assert by_rule["R-4"]["places"][0]["one_sided"] == "never true"
    assert by_rule["R-3"]["status"] == "reached"


def test_verify_coverage_on_the_command_line(write_rules, capsys):
    path = write_rules(COUNTED)
    assert main(["verify", str(path), "-n", "5", "--jobs", "1", "--coverage", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["coverage"]
    assert result["games"] == 5 and result["never_reached"] == ["R-5"]
    assert places_of(result, "R-3") == [("require", {"evaluated": 90, "true": 60, "refused": 30})]
    assert main(["verify", str(path), "-n", "5", "--jobs", "1", "--coverage"]) == 0
    text = capsys.readouterr().out
    assert "rule coverage over 5 games: 7 rules tagged, 5 reached (1 in part), 1 never reached, 1 static" in text
    assert "evaluated 90, true 60, refused 30" in text
    assert "never reached (no place of the rule ran in these games):\n  R-5 (line 17): The bonus: 5 more." in text


def test_simulate_does_not_check_invariants(write_rules, capsys):
    path = write_rules(COUNTED)
    assert main(["simulate", str(path), "-n", "3", "--jobs", "1", "--coverage", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)["coverage"]
    assert places_of(result, "R-2") == [("action", {"played": 18, "legal": 18})]
    assert places_of(result, "R-6") == [("invariant", {})] and "R-6" in result["static"]


def coverage_json(capsys, *argv):
    main([str(a) for a in argv])
    result = json.loads(capsys.readouterr().out)
    return result["coverage"]


@pytest.mark.slow
def test_counts_are_the_same_with_two_jobs(capsys):
    """Also when a worker shrinks a failure between two runs of games (its replays do not count)."""
    for command in (["verify", CONTINENTS, "--players", 3, "-n", 6],
                    ["verify", ROOT / "tests" / "verify" / "continents-bad-exchange.rules", "--players", 3, "-n", 6],
                    ["simulate", CONTINENTS, "--players", 4, "-n", 6, "--seed", 5]):
        one = coverage_json(capsys, *command, "--coverage", "--json", "--jobs", 1)
        two = coverage_json(capsys, *command, "--coverage", "--json", "--jobs", 2)
        assert one == two and one["games"] == 6


def test_a_seed_game_lists_its_coverage(capsys):
    assert main(["simulate", str(CONTINENTS), "-n", "20", "--jobs", "1", "--coverage"]) == 0
    text = capsys.readouterr().out
    assert "rule coverage over 20 games: 25 rules tagged" in text
    lines = text.splitlines()
    build = next(line for line in lines if line.startswith("C-8 ") and " action " in line)
    assert "played " in build and "legal " in build
    assert any(line.startswith("C-9 ") and "trigger" in line and "fired " in line for line in lines)
    assert "static (tags on declarations, in force in every game, or invariants, which only verify checks)" in text


def test_coverage_plays_the_same_games(capsys):
    """Counting changes nothing of the play: the same summary, seconds and coverage aside."""
    plain = json.loads(run_json(capsys, "simulate", CONTINENTS, "-n", 10, "--players", 3))
    counted = json.loads(run_json(capsys, "simulate", CONTINENTS, "-n", 10, "--players", 3, "--coverage"))
    counted.pop("coverage")
    assert plain == counted


def run_json(capsys, *argv):
    assert main([str(a) for a in argv] + ["--jobs", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    result.pop("seconds")
    return json.dumps(result)


def test_without_coverage_nothing_counts(write_rules):
    path = str(write_rules(COUNTED))
    plain, _, _ = load_game(path)
    counted, _, _ = load_game(path, coverage=True)
    assert plain.coverage is None and "COV[" not in plain.compiler.module_source()
    assert "COV[" in counted.compiler.module_source()


def test_compile_shows_the_counters(write_rules, capsys):
    path = str(write_rules(COUNTED))
    assert main(["compile", path, "--coverage"]) == 0
    counting = capsys.readouterr().out
    assert main(["compile", path]) == 0
    plain = capsys.readouterr().out
    assert "COV[" in counting and "COV[" not in plain


def test_counted_functions_and_loops(write_rules):
    """A tagged fn counts its calls (a bool one, how often it is true) even where it would be
    inlined; loops count how often they ran and their rounds; a flow `if` its branches."""
    text = COUNTED.replace('@R-1 "The total starts at zero."\n', "").replace(
        "flow {", '''@R-8 "Small: below 4."
fn small_total(): bool = total < 4

proc tally() {
  @R-9 "Count to three."
  for i in 1..3 {
    moves += 0
  }
  @R-10 "While small."
  while total < 0 {
    total += 1
  }
}

flow {''').replace("    play add\n", '''    play add
    @R-11 "Small or not."
    if small_total() {
      tally()
    } elif total < 6 {
      tally()
    }
''')
    game, diagnostics, _ = load_game(str(write_rules(text)), coverage=True)
    assert game is not None, diagnostics
    report = verify.verify(game, games=4)
    result = coverage.report(game.coverage, report.coverage, report.games)
    (_, fn_counts), = places_of(result, "R-8")
    (_, branches), = places_of(result, "R-11")
    assert fn_counts["called"] == branches["evaluated"] == 24
    assert fn_counts["true"] == branches["branches"][0]
    tallies = branches["branches"][0] + branches["branches"][1]
    assert places_of(result, "R-9") == [("for", {"ran": tallies, "rounds": 3 * tallies})]
    assert places_of(result, "R-10") == [("while", {"ran": tallies, "rounds": 0})]
    assert {e["rule"]: e["places"][0]["one_sided"] for e in result["rules"]}["R-10"] == "no round ever"
    assert sum(branches["branches"]) == 24


FLOWING = """
game "Flowing" { players 2 }
var rounds: int = 0
var offer[Player]: int hidden = 0

action bid(n in 1..2) "bid {n}" {
  offer[current] = n
}
action pass "pass" { }

flow {
  @F-1 "Three rounds."
  while rounds < 3 {
    @F-2 "A round more."
    rounds += 1
    @F-3 "Everybody bids."
    simultaneous p in players {
      @F-4 "The bid."
      play bid
    }
    @F-5 "Each player in turn."
    for p in players {
      @F-6 "Their turn."
      turn p {
        @F-7 "They pass."
        play pass
      }
    }
  }
  @F-8 "Then rounds, repeated until five."
  repeat {
    rounds += 1
  } until rounds >= 5
  @F-9 "Who won?"
  if rounds == 5 {
    finish winners [1]
  } else {
    finish
  }
}
"""


def test_flow_statements_count_where_they_run(write_rules):
    """Tags in the flow: a while counts its conditions, a simultaneous step (and its play) each
    time it starts, not each time it asks a player; a for its rounds; a turn and a play each
    time they are reached; a repeat its rounds (ended)."""
    game, diagnostics, _ = load_game(str(write_rules(FLOWING)), coverage=True)
    assert game is not None, diagnostics
    report = verify.verify(game, games=4)
    result = coverage.report(game.coverage, report.coverage, report.games)
    assert [(e["rule"], [(p["kind"], p["counts"]) for p in e["places"]]) for e in result["rules"]] == [
        ("F-1", [("while", {"evaluated": 16, "true": 12, "false": 4})]),
        ("F-2", [("augment", {"ran": 12})]),
        ("F-3", [("simultaneous", {"ran": 12})]),
        ("F-4", [("play", {"asked": 12})]),
        ("F-5", [("for", {"ran": 12, "rounds": 24})]),
        ("F-6", [("turn", {"ran": 24})]),
        ("F-7", [("play", {"asked": 24})]),
        ("F-8", [("repeat", {"rounds": 8})]),
        ("F-9", [("if", {"evaluated": 4, "true": 4, "false": 0})]),
    ]
    assert result["reached_in_part"] == ["F-9"] and result["rules"][-1]["places"][0]["one_sided"] == "never false"


def test_places_of_a_base_file_are_named_by_file(write_rules, capsys):
    write_rules(COUNTED, "base.rules")
    variant = write_rules('extends "base.rules"\n@V-1 "Variant: a total within 20."\n'
                          'override invariant small: total <= 20\n', "variant.rules")
    assert main(["verify", str(variant), "-n", "2", "--jobs", "1", "--coverage"]) == 0
    text = capsys.readouterr().out
    assert "R-3   base.rules:11 " in text and "V-1   3 " in text
    assert "R-6" not in text           # its invariant is replaced, tag and all


def test_bench_can_measure_what_counting_costs(capsys):
    assert main(["bench", str(CONTINENTS), "--seconds", "0.2", "--jobs", "1", "--coverage", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["coverage"] is True and figures["playouts"] > 0
    assert main(["bench", str(CONTINENTS), "--seconds", "0.1", "--jobs", "1", "--coverage"]) == 0
    assert "counting rule coverage" in capsys.readouterr().out
