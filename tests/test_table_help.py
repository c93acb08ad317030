"""Issue 26 at the table: the rules at hand at the prompt, a replay stepped through, the
built-in games by name, logs that replay from any folder, and where two views differ."""
from __future__ import annotations

import json
import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from referee.interpreter.cli.rules_at_hand import asked
from referee.interpreter.engine import load_game
from referee.interpreter.tools.verify import verify
from referee.interpreter.tools.view_diff import entry_difference

from .conftest import GAMES
from .test_cli import run

LIARS_DICE = GAMES / "liars-dice.rules"
TTT = GAMES / "tic-tac-toe.rules"


# ---- bug 10: where two views differ --------------------------------------------------------

def test_verify_flows_shows_the_differing_entry_of_the_view():
    game, diagnostics, _ = load_game(str(LIARS_DICE), players=3)
    assert not diagnostics
    report = verify(game, games=5, leaks="flows")
    messages = [f.message for f in report.failures if f.kind == "leak"]
    assert messages
    for message in messages:
        # a plural subject for 'depend': not "P3's view depend on"
        assert re.search(r"(?<!entries of )P\d's view depend", message) is None
        assert re.search(r"the entries of P\d's view depend on what P\d may not see", message)
        # the entry by its path, and both its values whole (no cut JSON fragment)
        assert 'log[0]: "dice counting as 6: ' in message and "/ \"dice counting as 6: " in message
        assert '...r\'s dice", "log"' not in message


def test_entry_difference_names_the_path_and_clips_both_values():
    a = {"zones": {"hand": [{"label": "token 3"}]}, "log": ["x" * 200 + "1"]}
    b = {"zones": {"hand": [{"label": "token 5"}]}, "log": ["x" * 200 + "1"]}
    assert entry_difference(a, b) == 'zones.hand[0].label: "label": "token 3" / "label": "token 5"'
    long_a, long_b = {"log": ["y" * 150 + "A" + "y" * 150]}, {"log": ["y" * 150 + "B" + "y" * 150]}
    text = entry_difference(long_a, long_b)
    assert text.startswith("log[0]: ...") and "A" in text and "B" in text and len(text) < 160
    assert entry_difference({"log": ["a"]}, {"log": ["a", "b"]}) == 'log[1]: (none) / "b"'


# ---- item 2: the rules at hand at the prompt ---------------------------------------------

def test_rules_at_hand_rules_and_one_rule_at_the_prompt(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", GAMES / "continents.rules", "--seed", 3,
                       stdin="rules\nrules c-8\nrules X-99\nquit\n", monkeypatch=monkeypatch)
    assert code == 3
    everything = out.split("P1> rules\n", 1)[1].split("P1> rules c-8\n", 1)[0]
    assert everything.startswith("The rules of Continents")
    assert "  C-3    2 to 6 players." in everything and "  C-25   After 30 rounds" in everything
    one = out.split("P1> rules c-8\n", 1)[1].split("P1> rules X-99\n", 1)[0]
    assert one.startswith("C-8    A place is empty") and "You may not cover your own house" in one
    assert "C-3 " not in one and "(encoded at line" in one
    assert "no rule X-99 in these rules (their ids: C-1 ... C-25" in out


def test_rules_at_hand_help_says_so_and_explains_the_moves_of_now(capsys, monkeypatch):
    _, out, _ = run(capsys, "play", LIARS_DICE, "--seed", 3, "--bot", "2=first",
                    stdin="help\nquit\n", monkeypatch=monkeypatch)
    assert "rules ID (one: 'rules C-8'), help MOVE" in out
    legend = out.split("The moves of now:\n", 1)[1]
    # Liar's dice '1-1 ... 2-6': what the parts are and what a bid is, in the rules' words
    assert "bid: moves named 'q-f' (as '1-1'), where q in 1..total_dice; f in 1..sides" in legend
    assert "L-4    A bid says that at least q dice show face f" in legend


def test_rules_at_hand_help_move_by_name_number_or_action(capsys, monkeypatch):
    _, out, _ = run(capsys, "play", LIARS_DICE, "--seed", 3, "--bot", "2=first",
                    stdin="help 2-6\nhelp #3\nhelp liar\nhelp nothing\nquit\n", monkeypatch=monkeypatch)
    assert "bid: moves named 'q-f' (as '2-6')" in out and "bid: moves named 'q-f' (as '1-3')" in out
    liar = out.split("P1> help liar\n", 1)[1]
    assert liar.startswith("liar: the move 'Liar'") and "L-3    Liar may be called only once somebody has bid." in liar
    assert "no move or action is named 'nothing' now (the actions: bid, liar;" in out


def test_rules_at_hand_help_at_a_choice_names_the_move_it_is_a_step_of(capsys, monkeypatch):
    fishing = GAMES.parent / "docs" / "examples" / "fishing.rules"
    _, out, _ = run(capsys, "play", fishing, "--seed", 2, "--bot", "2=first",
                    stdin="1\n1\n1\nhelp\nhelp 2\nquit\n", monkeypatch=monkeypatch)
    assert "The moves of now:\n  a choice (after 'fish with blue 1'): which card do you catch?\n" in out
    assert "'red 6': an answer to the choice (after 'fish with blue 1') 'which card do you catch?'" in out


def test_rules_at_hand_a_move_named_like_the_words_is_the_move():
    assert asked("rules", ["rules", "pass"]) is None
    assert asked("help 3", ["1", "2"]) == ("help", "3")
    assert asked("rules", ["a1"]) == ("rules", "") and asked("rules C-8", []) == ("rules", "C-8")
    assert asked("help", ["a1"]) is None           # the session's own help


# ---- item 4: replay step by step ---------------------------------------------------------

def ttt_log(capsys, tmp_path):
    log = tmp_path / "game.json"
    code, _, _ = run(capsys, "play", TTT, "--seed", 3, "--bot", "all=first", "--log", log)
    assert code == 0
    return log          # a1 b1 c1 a2 b2 c2 a3: P1 wins


def test_replay_default_still_shows_where_the_log_ends(capsys, tmp_path):
    log = ttt_log(capsys, tmp_path)
    code, out, _ = run(capsys, "replay", log)
    assert code == 0 and out.startswith(f"replayed 7 moves of {log} · Tic-tac-toe · 2 players · seed 3")
    assert "game over: P1 wins" in out and "result: P1 wins" in out


def test_replay_at_n_shows_the_position_after_move_n_from_any_seat(capsys, tmp_path):
    log = ttt_log(capsys, tmp_path)
    code, out, _ = run(capsys, "replay", log, "--at", 2, "--seat", "P2")
    assert code == 0 and "shown after move 2" in out and "seed" not in out
    assert "turn 3 · P1 to move · view of P2" in out and "  1  P1 P2 .\n" in out
    code, out, _ = run(capsys, "replay", log, "--at", 0, "--json")
    position = json.loads(out)
    assert code == 0 and position["moves"] == 0 and position["to_move"] == 1 and not position["terminal"]
    code, _, err = run(capsys, "replay", log, "--at", 8)
    assert code == 2 and "the log has 7 moves: choose 0..7" in err


def test_replay_step_goes_forwards_and_back(capsys, monkeypatch, tmp_path):
    log = ttt_log(capsys, tmp_path)
    code, out, _ = run(capsys, "replay", log, "--step", "--at", 0, "--seat", 1,
                       stdin="\nn\nb\nb\n7\nn\n5\nq\n", monkeypatch=monkeypatch)
    assert code == 0
    heads = re.findall(r"^── (.+?) ─", out, re.M)
    assert heads == ["the start", "move 1 of 7: P1: a1", "move 2 of 7: P2: b1", "move 1 of 7: P1: a1",
                     "the start", "move 7 of 7: P1: a3", "move 5 of 7: P1: b2"]
    assert "at the end of the log (b: back, q: quit)" in out
    assert "legal moves:\n  1. a1" in out           # P1 to move at the start: its moves
    # from the start by default, e: the end; end of input stops it
    code, out, _ = run(capsys, "replay", log, "--step", stdin="n\ne\nb\n", monkeypatch=monkeypatch)
    assert code == 0 and re.findall(r"^── (.+?) ─", out, re.M) == [
        "the start", "move 1 of 7: P1: a1", "move 7 of 7: P1: a3", "move 6 of 7: P2: c2"]


def test_replay_step_shows_each_move_as_the_seat_saw_it(capsys, monkeypatch, tmp_path):
    log = tmp_path / "gs.json"
    run(capsys, "play", GAMES / "goofspiel.rules", "--seed", 5, "--bot", "all=random", "--log", log, "--quiet")
    first, second = json.loads(log.read_text())["moves"][:2]       # P1's sealed bid, then P2's
    code, out, _ = run(capsys, "replay", log, "--step", "--at", 0, stdin="\n\nq\n", monkeypatch=monkeypatch)
    heads = re.findall(r"^── (.+?) ─", out, re.M)
    assert code == 0 and heads[1] == "move 1 of 24: P1 has chosen" and heads[2] == f"move 2 of 24: P2: {second}"
    assert first not in heads[1]
    _, out, _ = run(capsys, "replay", log, "--step", "--at", 1, "--seat", "P1", stdin="q\n", monkeypatch=monkeypatch)
    assert re.findall(r"^── (.+?) ─", out, re.M) == [f"move 1 of 24: P1: {first}"]


# ---- item 9: the built-in games by name ----------------------------------------------------

def test_builtin_games_play_by_name_from_any_folder(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "play", "continents", "--bot", "all=first", "--seed", 1, "--quiet")
    assert code == 0 and out.startswith("result: P1 wins")
    code, out, _ = run(capsys, "verify", "Liars_Dice", "-n", 2, "--jobs", 1, "--players", 2)
    assert code == 0 and out.startswith("Liar's dice · 2 players")


def test_builtin_games_are_listed_with_players_and_a_line(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    assert re.search(r"^continents +2-6  Continents: conquer continents by building", out, re.M)
    assert re.search(r"^hearts +4  Hearts, the classic trick-taking game", out, re.M)
    assert re.search(r"^titicaca-wide +2-5  ", out, re.M)          # variants too
    code, out, _ = run(capsys, "games", "--json")
    listed = {game["name"]: game for game in json.loads(out)["games"]}
    assert code == 0 and {p.stem for p in GAMES.glob("*.rules")} <= set(listed)
    assert listed["liars-dice"]["players"] == [2, 4] and listed["liars-dice"]["title"] == "Liar's dice"


def test_builtin_games_a_path_wins_over_a_name(capsys, monkeypatch, tmp_path):
    (tmp_path / "continents").write_text(TTT.read_text())       # a file named like a game
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "play", "continents", "--bot", "all=first", "--seed", 1)
    assert code == 0 and out.startswith("Tic-tac-toe · 2 players")


def test_builtin_games_a_name_that_is_neither_says_so_with_the_list(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "play", "contnents")
    assert code == 66 and "referee: contnents: no such file, nor a built-in game (the built-in games: " in err
    assert "continents, " in err and "`referee games` lists them" in err
    code, _, err = run(capsys, "play", "contnents.rules")
    assert code == 66 and err.strip().endswith("referee: contnents.rules: no such file")


def test_builtin_games_ship_in_the_package():
    """pyproject.toml puts every file of games/ into the package, as referee/games (a link to
    the games/ folder, which the package's data patterns read through)."""
    import fnmatch
    import tomllib
    setup = tomllib.loads((GAMES.parent / "pyproject.toml").read_text())["tool"]["setuptools"]
    package = GAMES.parent / "referee"
    assert (package / "games").resolve() == GAMES.resolve()
    patterns = setup["package-data"]["referee"]
    files = [p.relative_to(package).as_posix() for p in (package / "games").rglob("*.rules")]
    assert len(files) == len(list(GAMES.rglob("*.rules"))) > 10
    assert all(any(fnmatch.fnmatch(f, pattern) and f.count("/") == pattern.count("/") for pattern in patterns)
               for f in files)


@pytest.mark.slow
def test_builtin_games_are_in_the_built_wheel(tmp_path):
    """The wheel built from the project holds every game (pip builds it as `pip install .`)."""
    import shutil
    import subprocess
    import zipfile
    project = tmp_path / "project"
    shutil.copytree(GAMES.parent, project, ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "-q", "-w", str(tmp_path / "wheel")],
                           cwd=project, capture_output=True, text=True, timeout=600)
    if built.returncode != 0:
        pytest.skip(f"no wheel could be built here: {built.stderr[-300:]}")
    (wheel,) = (tmp_path / "wheel").glob("referee-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in GAMES.rglob("*.rules"):
        assert f"referee/games/{path.relative_to(GAMES).as_posix()}" in names


# ---- item 10: logs that replay from any folder ---------------------------------------------

def test_logs_from_any_folder_hold_the_absolute_path_and_a_builtin_name(capsys, monkeypatch, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    shutil.copy(TTT, tmp_path / "a" / "mine.rules")
    monkeypatch.chdir(tmp_path / "a")
    run(capsys, "play", "mine.rules", "--bot", "all=first", "--seed", 1, "--log", "mine.json", "--quiet")
    run(capsys, "play", "tic-tac-toe", "--bot", "all=first", "--seed", 1, "--log", "builtin.json", "--quiet")
    mine, builtin = (json.loads(Path(name).read_text()) for name in ("mine.json", "builtin.json"))
    assert mine["rules"] == "mine.rules" and mine["rules_absolute"] == str(tmp_path / "a" / "mine.rules")
    assert "builtin" not in mine and builtin["builtin"] == "tic-tac-toe"
    # the log moved to another folder, replayed from a third
    shutil.move("mine.json", tmp_path / "b" / "mine.json")
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "replay", Path("b") / "mine.json")
    assert code == 0 and "result: P1 wins" in out


def test_logs_from_any_folder_a_builtin_game_is_found_by_its_name(capsys, tmp_path):
    path = tmp_path / "game.json"
    run(capsys, "play", "tic-tac-toe", "--bot", "all=first", "--seed", 1, "--log", path, "--quiet")
    log = json.loads(path.read_text())
    elsewhere = "/another/machine/referee/games/tic-tac-toe.rules"     # as written on another machine
    path.write_text(json.dumps({**log, "rules": elsewhere, "rules_absolute": elsewhere}))
    code, out, _ = run(capsys, "replay", path)
    assert code == 0 and "result: P1 wins" in out


def test_logs_from_any_folder_an_old_log_still_replays_and_changed_rules_are_refused(capsys, monkeypatch, tmp_path):
    shutil.copy(TTT, tmp_path / "mine.rules")
    monkeypatch.chdir(tmp_path)
    run(capsys, "play", "mine.rules", "--bot", "all=first", "--seed", 1, "--log", "game.json", "--quiet")
    log = json.loads(Path("game.json").read_text())
    old = {name: value for name, value in log.items() if name not in ("rules_absolute", "builtin")}
    Path("old.json").write_text(json.dumps(old))
    code, out, _ = run(capsys, "replay", "old.json")
    assert code == 0 and "result: P1 wins" in out
    with open("mine.rules", "a") as rules:
        rules.write("# changed\n")
    monkeypatch.chdir(tmp_path.parent)
    code, out, err = run(capsys, "replay", tmp_path / "game.json")
    assert code == 65 and out == "" and "the rules file has changed since the log was written" in err


def test_logs_from_any_folder_resume_from_another_folder(capsys, monkeypatch, tmp_path):
    (tmp_path / "work").mkdir()
    shutil.copy(TTT, tmp_path / "work" / "mine.rules")
    monkeypatch.chdir(tmp_path / "work")
    code, _, _ = run(capsys, "play", "mine.rules", "--seed", 1, "--bot", "2=first", "--log", "game.json",
                     stdin="b2\nquit\n", monkeypatch=monkeypatch)
    assert code == 3
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "play", "--resume", Path("work") / "game.json", stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 3 and "resumed from work/game.json after 2 moves" in out, err
    log = json.loads((tmp_path / "work" / "game.json").read_text())
    assert log["rules_absolute"] == str(tmp_path / "work" / "mine.rules")


# ---- item 8: the tutorial's part 2 ----------------------------------------------------------

TUTORIAL_2 = GAMES.parent / "docs" / "tutorial-2.md"


def shown_sessions(text):
    """Each ```text block of a page that starts with `$ referee ...`: (command, output lines)."""
    return [(match.group(1), match.group(2).splitlines())
            for match in re.finditer(r"^```text\n\$ (referee .*)\n((?:(?!```).*\n)*)```$", text, re.M)]


def test_tutorial_part_2_commands_print_what_it_shows():
    """The commands part 2 shows run and print its lines, in order ('...' leaves lines out);
    what it types at the prompt (after 'P1> ') is their standard input."""
    import subprocess
    sessions = shown_sessions(TUTORIAL_2.read_text(encoding="utf-8"))
    assert [command.split()[1] for command, _ in sessions] == ["verify", "play"]
    for command, shown in sessions:
        typed = "".join(line[len("P1> "):] + "\n" for line in shown if line.startswith("P1> "))
        done = subprocess.run([sys.executable, "-m", *command.split()], cwd=GAMES.parent, input=typed,
                              capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "100"})
        printed = done.stdout.splitlines()
        if "..." not in shown:
            assert printed == shown, command
            continue
        at = 0
        for wanted in shown:
            if wanted != "...":
                assert wanted in printed[at:], f"{command}: not printed (in this order): {wanted!r}"
                at = printed.index(wanted, at) + 1


def test_tutorial_part_2_builds_the_example_game_with_cards_zones_hidden_hands_choices_and_again():
    text = TUTORIAL_2.read_text(encoding="utf-8")
    for words in ("component Card", "zone hand[Player]: set of Card owner", "choose c in matching", "again",
                  "<!-- rules-file: docs/examples/fishing.rules -->"):
        assert words in text
    assert "tutorial-2.md" in (GAMES.parent / "docs" / "tutorial.md").read_text(encoding="utf-8")
    game, diagnostics, _ = load_game(str(GAMES.parent / "docs" / "examples" / "fishing.rules"), players=3)
    assert not diagnostics
    report = verify(game, games=10, leaks="flows")
    assert report.failures == [] and report.finished == 10
