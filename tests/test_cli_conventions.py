"""The command line's conventions: --version and `python -m referee`, help texts with examples
and exit codes, flags that mean one thing everywhere, command-line mistakes reported as such
(exit 2, argparse's style), JSON for every outcome of --json, folders for `check`, and the
outputs docs/cli.md shows."""
from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from referee.interpreter.cli.main import main

from .test_cli import CONTINENTS, DEAD_END, ROOT, TTT, run

def pyproject_version():
    text = (ROOT / "pyproject.toml").read_text()
    return re.search(r'^version = "([^"]+)"', text, re.M).group(1)


# ---- --version and python -m referee -----------------------------------------------------

def test_version_is_the_package_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out == f"referee {pyproject_version()}\n"


@pytest.mark.slow
def test_python_m_referee_runs_the_same_command_line():
    done = subprocess.run([sys.executable, "-m", "referee", "--version"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == f"referee {pyproject_version()}\n"
    done = subprocess.run([sys.executable, "-m", "referee", "check", TTT], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == f"{TTT}: ok\n"


# ---- command-line mistakes: exit 2, in argparse's style -----------------------------------

def test_docs_say_python_m_referee_runs_the_package():
    doc = (ROOT / "docs" / "cli.md").read_text()
    assert (ROOT / "referee" / "__main__.py").is_file() and not (ROOT / "referee.py").exists()
    assert "referee.py" not in doc
    assert "the package `referee/`" in doc


def test_players_and_options_the_game_does_not_have_are_command_line_errors(capsys):
    for command in ("play", "simulate", "bench", "verify", "compile"):
        code, out, err = run(capsys, command, CONTINENTS, "--players", 9)
        assert code == 2 and out == ""
        assert err.startswith(f"usage: referee {command} ")
        assert err.endswith(f"referee {command}: error: argument --players: this game is for 2..6 players, not 9\n")
        assert "E602" not in err and "^" not in err             # not a diagnostic of the rules file
        code, out, err = run(capsys, command, CONTINENTS, "--option", "nosuch")
        assert code == 2 and err.endswith(f"referee {command}: error: argument --option: unknown option 'nosuch' "
                                          "(options of this game: normal)\n")
    code, _, err = run(capsys, "play", CONTINENTS, "--option", "norma")
    assert code == 2 and "argument --option: unknown option 'norma' (did you mean 'normal'?)" in err


def test_load_game_still_reports_them_as_diagnostics():
    from referee.interpreter.engine import load_game
    game, diagnostics, _ = load_game(CONTINENTS, ("nosuch",))
    assert game is None and [d.code for d in diagnostics] == ["E601"]
    game, diagnostics, _ = load_game(CONTINENTS, (), 9)
    assert game is None and [d.code for d in diagnostics] == ["E602"]


def test_simulate_zero_games_is_refused(capsys):
    code, out, err = run(capsys, "simulate", TTT, "-n", 0)
    assert code == 2 and out == "" and err.endswith("referee simulate: error: argument -n/--games: must be at least 1: 0\n")


def test_bad_bot_is_said_like_argparse(capsys):
    code, _, err = run(capsys, "play", TTT, "--bot", "3=random")
    assert code == 2 and err.endswith("referee play: error: argument --bot: '3=random': the seat must be 1..2 or 'all'\n")


# ---- --json: JSON whatever happens -------------------------------------------------------


def json_error(capsys, *argv):
    code, out, err = run(capsys, *argv)
    answer = json.loads(out)
    assert set(answer) == {"error", "exit_code"} and answer["exit_code"] == code and err == ""
    return code, answer["error"]


def test_json_errors_of_every_command_that_takes_json(capsys, tmp_path):
    stuck = tmp_path / "stuck.rules"
    stuck.write_text(DEAD_END)
    missing = tmp_path / "missing.rules"
    assert json_error(capsys, "check", "--json") == (2, "referee check: error: the following arguments are required: FILE")
    assert json_error(capsys, "simulate", TTT, "--json", "-n", "many") == \
        (2, "referee simulate: error: argument -n/--games: not a whole number: 'many'")
    assert json_error(capsys, "simulate", CONTINENTS, "--json", "--players", 9) == \
        (2, "referee simulate: error: argument --players: this game is for 2..6 players, not 9")
    for command in ("simulate", "bench", "verify", "rulebook"):
        assert json_error(capsys, command, missing, "--json") == (66, f"referee: {missing}: no such file")
    code, message = json_error(capsys, "bench", stuck, "--json", "--seconds", 0.1, "--jobs", 1)
    assert code == 70 and message.startswith("runtime error: P2 must play (put) but has no legal move")
    code, message = json_error(capsys, "rulebook", TTT, "--json", "--spec", tmp_path / "nope.md")
    assert code == 66 and "cannot read" in message
    code, message = json_error(capsys, "replay", tmp_path / "none.json", "--json")
    assert code == 66 and "no such log file" in message
    # without --json (or for a command that has none) the same errors are text on stderr
    code, out, err = run(capsys, "play", TTT, "--json")
    assert code == 2 and out == "" and "unrecognized arguments: --json" in err


# ---- flags that mean one thing everywhere -----------------------------------------------

def test_one_max_moves_default_for_simulate_verify_and_bench(capsys):
    from referee.interpreter.cli.arguments import DEFAULT_MAX_MOVES, build_parser
    parser = build_parser()
    assert DEFAULT_MAX_MOVES == 10_000
    for command in ("simulate", "verify", "bench"):
        assert parser.parse_args([command, TTT]).max_moves == DEFAULT_MAX_MOVES
        code, out, _ = run(capsys, command, "--help")
        assert code == 0 and re.search(r"--max-moves M\s+.*\(default\s+10000\)", out, re.S)
    code, out, _ = run(capsys, "simulate", TTT, "-n", 2, "--json", "--jobs", 1)
    assert code == 0 and json.loads(out)["max_moves"] == 10_000


def test_bench_max_moves_stops_every_playout(capsys):
    code, out, _ = run(capsys, "bench", TTT, "--seconds", 0.1, "--max-moves", 3, "--jobs", 1, "--json")
    figures = json.loads(out)
    assert code == 0 and figures["playouts"] == 0 and figures["moves"] > 0 and figures["moves"] % 3 == 0
    assert figures["max_moves"] == 3


def test_log_is_a_file_for_play_and_a_folder_for_simulate_and_verify(capsys, tmp_path):
    code, out, _ = run(capsys, "play", "--help")
    assert code == 0 and "--log FILE" in out
    for command in ("simulate", "verify"):
        code, out, _ = run(capsys, command, "--help")
        assert code == 0 and "--log-dir DIR, --log DIR" in out
    code, _, _ = run(capsys, "play", TTT, "--bot", "all=first", "--seed", 0, "--quiet", "--log", tmp_path / "one.json")
    assert code == 0 and (tmp_path / "one.json").is_file()
    for flag in ("--log-dir", "--log"):       # --log is the old name of --log-dir, still taken
        folder = tmp_path / flag.strip("-")
        code, _, _ = run(capsys, "simulate", TTT, "-n", 2, "--jobs", 1, flag, folder)
        assert code == 0 and sorted(p.name for p in folder.iterdir()) == ["game-0.json", "game-1.json"]


# ---- check FOLDER, replay --rules --------------------------------------------------------

def test_check_a_folder_checks_every_rules_file_below_it(capsys, tmp_path):
    code, out, _ = run(capsys, "check", ROOT / "games")
    expected = sorted((ROOT / "games").rglob("*.rules"))
    assert code == 0 and out.splitlines() == [f"{p}: ok" for p in expected]
    assert any(p.parent.name == "variants" for p in expected)             # subfolders too
    (tmp_path / "deep" / ".hidden").mkdir(parents=True)
    (tmp_path / "deep" / "broken.rules").write_text(DEAD_END.replace("mark[c] = current", "y = 3"))
    (tmp_path / "deep" / ".hidden" / "skipped.rules").write_text("nonsense")
    (tmp_path / "notes.txt").write_text("not a rules file")
    (tmp_path / "empty").mkdir()
    code, out, _ = run(capsys, "check", tmp_path, "--json")
    files = json.loads(out)["files"]
    assert code == 1 and [f["file"] for f in files] == [str(tmp_path / "deep" / "broken.rules")]
    assert files[0]["diagnostics"][0]["code"] == "E202"
    code, out, _ = run(capsys, "check", tmp_path / "empty", TTT)
    assert code == 1 and out.splitlines() == [f"{tmp_path / 'empty'}: no .rules file in this folder", f"{TTT}: ok"]


def test_replay_says_where_it_looked_and_takes_rules(capsys, tmp_path):
    log = tmp_path / "logs" / "game.json"
    log.parent.mkdir()
    rules = tmp_path / "ttt.rules"
    rules.write_text(Path(TTT).read_text())
    code, _, _ = run(capsys, "play", rules, "--bot", "all=first", "--seed", 0, "--quiet", "--log", log)
    assert code == 0
    moved = tmp_path / "elsewhere" / "ttt.rules"
    moved.parent.mkdir()
    rules.rename(moved)
    code, out, err = run(capsys, "replay", log)
    assert code == 66 and out == ""
    assert f"looked for it at {rules}" in err and "give its place with --rules FILE" in err
    code, out, err = run(capsys, "replay", log, "--rules", moved)
    assert code == 0 and "result: P1 wins" in out
    code, _, err = run(capsys, "replay", log, "--rules", tmp_path / "nope.rules")
    assert code == 66 and "nope.rules: no such rules file" in err
    moved.write_text(moved.read_text() + "\n# changed\n")
    code, _, err = run(capsys, "replay", log, "--rules", moved)            # still checked against its hash
    assert code == 65 and "has changed since the log was written" in err


def test_replay_of_a_relative_rules_path_looks_in_two_places(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "logs").mkdir()
    (tmp_path / "game.rules").write_text(Path(TTT).read_text())
    code, _, _ = run(capsys, "play", "game.rules", "--bot", "all=first", "--seed", 0, "--quiet", "--log", "logs/g.json")
    assert code == 0
    (tmp_path / "game.rules").unlink()
    code, _, err = run(capsys, "replay", "logs/g.json")
    assert code == 66 and "looked for it at game.rules and at logs/game.rules" in err


# ---- help texts and docs/cli.md ----------------------------------------------------------

DOC = (ROOT / "docs" / "cli.md").read_text()


def commands():
    from referee.interpreter.cli.arguments import build_parser
    return build_parser().commands


def test_every_command_help_has_a_description_examples_and_exit_codes(capsys):
    from referee.interpreter.cli.arguments import build_parser
    documented = set(re.findall(r"^\| (\d+) \|", DOC, re.M))
    for name in commands():
        code, out, _ = run(capsys, name, "--help")
        assert code == 0 and out.startswith(f"usage: referee {name} ")
        description = out.split("\n\n")[1]
        assert len(description) > 40 and not description.startswith("positional"), name
        examples = re.search(r"^examples:\n((?:  .*\n)+)", out, re.M).group(1).splitlines()
        assert examples, name
        for example in examples:
            words = shlex.split(example.split("| ")[-1])
            assert words[0] == "referee" and words[1] == name
            args = build_parser().parse_args(words[1:])               # every example is a valid command line
            assert args.command == name
        codes = re.findall(r"^  (\d+) +\S", out.split("exit codes")[1], re.M)
        assert "0" in codes and "2" in codes and "130" in codes and set(codes) <= documented, name
        for action in commands()[name]._actions:                          # FILE, LOG...: a help text each
            assert action.help, (name, action.dest)


def test_docs_name_every_command_and_flag():
    for name, parser in commands().items():
        assert f"## `referee {name} " in DOC, name
        for action in parser._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert re.search(rf"{re.escape(flag)}\b", DOC), (name, flag)


# ---- the outputs docs/cli.md shows are today's -------------------------------------------

def shown_commands():
    """Each block of docs/cli.md that starts with `$ referee ...`: (line, command, output lines)."""
    found = []
    for match in re.finditer(r"^```\n\$ (referee .*)\n((?:(?!```).*\n)*)```$", DOC, re.M):
        found.append((DOC.count("\n", 0, match.start()) + 1, match.group(1), match.group(2).splitlines()))
    return found


SHOWN = shown_commands()


def test_docs_cli_md_examples_are_quick_enough_for_the_default_suite():
    """No example is left out of the default run for its length: the --coverage ones, which
    compile the counters and verify every game, play 20 games at most (they were 200)."""
    coverage = [(line, command) for line, command, _ in SHOWN if "--coverage" in command]
    assert len(coverage) >= 4
    for line, command in coverage:
        games = re.search(r" -n (\d+)", command)
        assert games is not None and int(games.group(1)) <= 20, f"cli.md:{line}: {command}"


def example(line, command, shown):
    """One example as a test: marked slow where it plays tens of games or counts coverage (seconds)."""
    long = re.search(r" -n \d{2,}|--coverage", command)
    return pytest.param(line, command, shown, id=f"cli.md:{line}", marks=[pytest.mark.slow] if long else [])


@pytest.mark.parametrize("line, command, shown", [example(*shown) for shown in SHOWN])
def test_the_output_docs_cli_md_shows(line, command, shown, monkeypatch):
    """The command runs (in-process, standard error with standard output, at 80 columns; a
    filter after `|` through the shell) and prints what the doc shows: all of it, or, where the
    doc leaves lines out ('...'), the lines shown in their order. (`python -m referee` itself:
    test_python_m_referee_runs_the_same_command_line.)"""
    referee, _, filter_command = command.partition("|")
    words = shlex.split(referee)
    missing = [word for word in words if word.endswith((".md", ".rules")) and not (ROOT / word).exists()]
    if missing:
        pytest.skip(f"{missing[0]} is not in this repository")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "80")
    output = io.StringIO()
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        main(words[1:])
    text = output.getvalue()
    if filter_command:
        text = subprocess.run(filter_command, shell=True, input=text, capture_output=True, text=True,
                              timeout=60).stdout
    printed = text.rstrip("\n").splitlines()
    if not any(l == "..." or l.startswith("... ") for l in shown):
        assert printed == shown
        return
    at = 0
    for wanted in shown:
        if wanted == "..." or wanted.startswith("... "):
            continue
        assert wanted in printed[at:], f"not printed (in this order): {wanted!r}"
        at = printed.index(wanted, at) + 1
