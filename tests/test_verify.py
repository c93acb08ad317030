"""`referee verify`: random games find broken invariants, dead ends and endless games, and
each failure is shrunk to a short list of moves that replays to the same failure."""
import json
from pathlib import Path

import pytest

from referee.interpreter.cli.main import main
from referee.interpreter.engine import load_game
from referee.interpreter.tools.verify import replay_names, state_problem, verify

from .sweeps import sampled

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent / "verify"


def load(path, players=None, options=()):
    game, diagnostics, _ = load_game(str(path), options, players)
    assert not diagnostics, diagnostics
    return game


def test_a_house_rule_that_breaks_an_invariant_is_found_and_shrunk_to_one_move():
    game = load(HERE / "continents-bad-exchange.rules", players=3)
    report = verify(game, games=10)
    assert [f.kind for f in report.failures] == ["invariant"]
    failure = report.failures[0]
    assert failure.message.startswith("hands_at_most_full")
    assert failure.moves == ["exchange"]
    again = replay_names(game, failure.seed, failure.moves)
    assert again is not None and again.key() == failure.key()


@pytest.mark.slow
def test_the_real_rules_keep_their_invariants():
    for players in (2, 4, 6):
        game = load(ROOT / "games" / "continents.rules", players=players)
        assert len(game.invariants) >= 3
        report = verify(game, games=4)
        assert report.failures == [] and report.finished == 4


def test_a_dead_end_is_reported_with_the_moves_that_lead_to_it():
    game = load(HERE / "dead-end.rules")
    report = verify(game, games=3)
    assert [f.kind for f in report.failures] == ["dead-end"]
    failure = report.failures[0]
    assert "P2 must play" in failure.message and "dead-end.rules:14" in failure.message
    assert len(failure.moves) == 1 and failure.moves[0].startswith("take ")


def test_an_endless_game_is_reported():
    game = load(HERE / "endless.rules")
    report = verify(game, games=2, max_moves=300)
    assert report.failures and report.failures[0].kind == "endless"
    assert report.finished == 0


def test_a_component_in_two_zones_breaks_conservation():
    game = load(ROOT / "games" / "continents.rules", players=2)
    state = game.new_initial_state(1)
    assert state_problem(state) is None
    card = state.zones[("hand", 1)][0]
    state.zones[("hand", 2)].append(card)       # corrupt the state by hand
    kind, message = state_problem(state)
    assert kind == "conservation" and str(card) in message


@pytest.mark.slow
def test_cli_verify_exit_codes_json_and_a_replayable_log(tmp_path, capsys):
    assert main(["verify", str(ROOT / "games" / "tic-tac-toe.rules"), "-n", "5"]) == 0
    assert "ok" in capsys.readouterr().out
    code = main(["verify", str(HERE / "continents-bad-exchange.rules"), "--players", "2", "-n", "5",
                 "--json", "--log", str(tmp_path)])
    assert code == 1
    report = json.loads(capsys.readouterr().out)
    (result,) = report["results"]
    assert result["failures"][0]["moves"] == ["exchange"]
    log = result["logs"][0]
    assert main(["replay", log]) == 0
    assert "unfinished" in capsys.readouterr().out


GAME_FILES = sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "games" / "variants").glob("*.rules"))


@pytest.mark.slow
def test_every_game_passes_verify_at_its_smallest_and_largest_player_count():
    # (in the suite each game at one end of its range, the smallest and the largest in turn;
    # both in the sweep: python -m tests.sweeps)
    for index, path in enumerate(GAME_FILES):
        probe = load(path)
        low, high = probe.player_range
        end = (low, high)[index % 2]
        for players in sampled(sorted({low, high}), end.__eq__):
            game = load(path, players=players)
            report = verify(game, games=2, max_moves=20_000)
            assert report.failures == [], (path.name, players, [f.to_json() for f in report.failures])
            assert report.finished == 2


def test_returns_that_cannot_be_computed_at_the_end_are_found(write_rules):
    path = write_rules("""
game "Broken returns" { players 2  returns p: gain[p] }
var gain[Player]: int? = none
var v: int = 0
action pass "pass" { v += 1 }
flow { turns from 1 until v >= 3 { play pass } }
""")
    report = verify(load(path), games=2)
    assert [f.kind for f in report.failures] == ["runtime-error"]
    assert "returns" in report.failures[0].message and len(report.failures[0].moves) == 3
