"""The command line as a newcomer meets it: absurd counts refused, a progress line only on a
terminal, a broken pipe, a log that cannot be written, a resume from another folder, what is
typed at the prompt shown safely, and mistakes said under the right usage and of the right file."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from referee.interpreter.cli import progress
from referee.interpreter.cli.arguments import most_jobs

from .test_cli import ROOT, TTT, run

HUGE = "99999999999999999999"


@pytest.mark.parametrize("command", ["simulate", "verify", "analyze"])
def test_a_huge_game_count_is_a_usage_error(capsys, command):
    code, out, err = run(capsys, command, TTT, "-n", HUGE)
    assert code == 2
    assert "argument -n/--games: at most 1,000,000,000 games" in err
    assert "internal error" not in err


@pytest.mark.parametrize("argv, said", [
    (["bench", TTT, "--seconds", "1", "--jobs", HUGE], "argument -j/--jobs: at most"),
    (["simulate", TTT, "--jobs", "100000"], "argument -j/--jobs: at most"),
    (["simulate", TTT, "--cluster", f"local:{HUGE}"], "argument --cluster: local:N: at most"),
    (["bench", TTT, "--seconds", "1e300"], "argument --seconds: at most 86400 seconds"),
    (["simulate", TTT, "--max-moves", HUGE], "argument --max-moves: at most 1,000,000,000 moves"),
    (["tournament", TTT, "--bot", "random", "--bot", "first", "-n", "10000000"], "at most 1,000,000 games"),
    (["serve", TTT, "--tables", HUGE], "argument --tables: at most 1,000 tables"),
    (["play", TTT, "--bot", f"all=mcts:iterations={HUGE}"], "at most 1,000,000 iterations a move"),
    (["tournament", TTT, "--bot", f"ismcts:iterations={HUGE}", "--bot", "random"], "at most 1,000,000 iterations"),
    (["serve", TTT, "--port", HUGE], "argument --port: a port is 0..65535"),
])
def test_absurd_counts_and_durations_are_refused(capsys, argv, said):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert said in err


def test_the_most_jobs_is_a_few_per_core_within_bounds():
    assert 8 <= most_jobs() <= 256


def test_a_run_of_a_billion_seeds_is_cut_without_listing_them():
    from referee.interpreter.play import parallel
    parts = parallel.chunks(range(10**9), 2)
    assert len(parts) <= parallel.MOST_CHUNKS
    assert isinstance(parts[0], range) and parts[0][0] == 0 and parts[-1][-1] == 10**9 - 1
    assert parallel.chunks(list(range(10)), 2) == [[0], [1], [2], [3], [4], [5], [6], [7], [8], [9]]


def test_tournament_writes_no_progress_where_standard_error_is_not_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(progress, "FIRST_DRAW", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    code, out, err = run(capsys, "tournament", TTT, "--bot", "random", "--bot", "first", "-n", "4", "--jobs", "1",
                         "--json")
    assert code == 0 and json.loads(out)["games"] == 4
    assert "\r" not in err and "playing" not in err


def test_tournament_takes_quiet(capsys, monkeypatch):
    monkeypatch.setattr(progress, "FIRST_DRAW", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = run(capsys, "tournament", TTT, "--bot", "random", "--bot", "first", "-n", "4", "--jobs", "1",
                       "--quiet")
    assert code == 0
    assert "\r" not in err


def command_into_a_closed_pipe(*argv):
    """`referee ARGV | true`: the reader gone before the command writes."""
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "referee", *argv], stdout=write, stderr=subprocess.PIPE,
                              cwd=ROOT, text=True, timeout=120)
    finally:
        os.close(write)
    return done.returncode, done.stderr


def test_a_broken_pipe_keeps_the_commands_own_exit_code():
    code, err = command_into_a_closed_pipe("check", "tests/bad/duplicate_declaration.rules")
    assert code == 1
    assert "Traceback" not in err and "BrokenPipe" not in err
    code, err = command_into_a_closed_pipe("check", "games/tic-tac-toe.rules")
    assert code == 0 and "Traceback" not in err


def test_play_refuses_a_log_it_cannot_write_before_the_first_move(capsys, monkeypatch, tmp_path):
    path = tmp_path / "no" / "such" / "folder" / "game.json"
    code, out, err = run(capsys, "play", TTT, "--seed", "1", "--log", path, stdin="a1\n", monkeypatch=monkeypatch)
    assert code == 73
    assert f"cannot write the log {path}" in err
    assert "P1>" not in out and "legal moves" not in out


def unfinished_log(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    code, _, _ = run(capsys, "play", TTT, "--seed", "2", "--log", log, stdin="a1\nquit\n", monkeypatch=monkeypatch)
    assert code == 3
    return log


def test_resume_from_another_folder_names_a_flag_play_has(capsys, monkeypatch, tmp_path):
    log = unfinished_log(capsys, monkeypatch, tmp_path)
    data = json.loads(log.read_text())
    data["rules"] = "games/tic-tac-toe.rules"          # as written from the project's folder
    for newer in ("rules_absolute", "builtin"):        # by a version before these (issue 26 item 10)
        data.pop(newer, None)
    log.write_text(json.dumps(data))
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "play", "--resume", log, "--bot", "all=first", "--quiet")
    assert code == 66 and "give its place with --rules FILE" in err
    code, out, _ = run(capsys, "play", "--resume", log, "--rules", TTT, "--bot", "all=first", "--quiet")
    assert code == 0 and "result:" in out
    code, _, err = run(capsys, "play", TTT, "--rules", TTT)
    assert code == 2 and "argument --rules: only with --resume LOG" in err


def test_a_log_of_a_player_count_the_game_has_not_is_blamed_on_the_log(capsys, monkeypatch, tmp_path):
    log = unfinished_log(capsys, monkeypatch, tmp_path)
    data = json.loads(log.read_text())
    data["players"] = 99
    log.write_text(json.dumps(data))
    for argv in (["replay", log], ["play", "--resume", log]):
        code, _, err = run(capsys, *argv)
        assert code == 65
        assert str(log) in err and '"players": this game is for 2..2 players, not 99' in err
        assert "tic-tac-toe.rules:" not in err


def test_control_characters_typed_at_the_prompt_are_escaped(capsys, monkeypatch):
    code, out, err = run(capsys, "play", TTT, "--seed", "1", stdin="\x1b[31mred\n", monkeypatch=monkeypatch)
    assert code == 3
    assert "\x1b" not in out + err
    assert "P1> U+001B[31mred" in out
    assert "refused: unknown move 'U+001B[31mred'" in out + err


def test_an_unknown_flag_is_said_under_the_commands_usage(capsys):
    code, _, err = run(capsys, "check", "--bogus", TTT)
    assert code == 2
    assert err.startswith("usage: referee check ")
    assert "referee check: error: unrecognized arguments: --bogus" in err


def test_a_game_of_one_player_is_not_said_of_players(write_rules):
    from referee.interpreter.cli.common import describe
    from referee.interpreter.engine import load_game
    path = write_rules('game "Solo" {\n  players 1\n}\nvar n: int = 0\naction go "go" { n = n + 1 }\n'
                       'flow {\n  turns from 1 {\n    play go\n    if n == 3 { finish winners [current] }\n  }\n}\n')
    game, diagnostics, _ = load_game(path)
    assert not diagnostics, diagnostics
    assert "1 player " in describe(game) + " " and "1 players" not in describe(game)
    assert "for 1 player." in game.compiler.module_source()
