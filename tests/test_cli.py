"""The `referee` command line: check, play (bots and scripted humans), simulate, replay, bench;
plus the text rendering, the bots and the game logs it is built on."""
from __future__ import annotations

import gc
import hashlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from referee.interpreter.play.bots import FirstBot, RandomBot
from referee.interpreter.cli import common
from referee.interpreter.cli import main as cli
from referee.interpreter.cli.main import main
from referee.interpreter.engine import load_game
from referee.interpreter.tools.gamelog import read_log, replay, rules_sha256, write_log
from referee.interpreter.engine.render import render_board, render_view

ROOT = Path(__file__).resolve().parent.parent
TTT = str(ROOT / "games" / "tic-tac-toe.rules")
CONTINENTS = str(ROOT / "games" / "continents.rules")
VARIANT = ROOT / "games" / "variants" / "continents-six-places.rules"

BROKEN = """game "Broken" {
  players 2
}
action a "a" {
  y = 3
}
flow {
  turns from 1 {
    play a
  }
}
"""

# Three cells and no end: once they are all marked, the next player has no legal move.
DEAD_END = """game "Stuck" {
  players 2
}
board Cell: grid 1 by 3
var mark[Cell]: Player? = none
action put(c in Cell where mark[c] == none) "{c}" {
  mark[c] = current
}
flow {
  turns from 1 {
    play put
  }
}
"""

HEX = '''game "Hexes" {
  players 2
}
board Hex: hexmap """
  01  02  03
    04  05
""" { }
var mark[Hex]: Player? = none
action put(c in Hex where mark[c] == none) "put {c}" {
  mark[c] = current
}
flow {
  turns from 1 {
    play put
    if count(c in Hex where mark[c] == none) == 0 {
      finish
    }
  }
}
'''


def run(capsys, *argv, stdin=None, monkeypatch=None):
    """main(argv) in-process: (exit code, stdout, stderr)."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return code, captured.out, captured.err


# ---- check -------------------------------------------------------------------------------

def test_check_clean_files(capsys):
    code, out, _ = run(capsys, "check", TTT, CONTINENTS)
    assert code == 0
    assert f"{TTT}: ok" in out and f"{CONTINENTS}: ok" in out


def test_check_broken_file_text_and_json(capsys, tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text(BROKEN)
    code, out, _ = run(capsys, "check", TTT, broken)
    assert code == 1
    assert "E202" in out and "unknown variable 'y'" in out and "5 |   y = 3" in out
    code, out, _ = run(capsys, "check", "--json", broken, TTT)
    assert code == 1
    files = json.loads(out)["files"]
    assert [f["ok"] for f in files] == [False, True]
    (diagnostic,) = files[0]["diagnostics"]
    assert diagnostic["code"] == "E202" and diagnostic["line"] == 5 and diagnostic["file"] == str(broken)
    assert files[1]["diagnostics"] == []


def test_check_imports_only_what_it_needs():
    # start-up time (issue 7): `check` starts no worker process and writes no report, so it
    # does not import multiprocessing, html (analyze, tournament) or the package metadata
    code = (f"import sys; from referee.interpreter.cli.main import main; main(['check', {CONTINENTS!r}]); "
            "print(' '.join(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    modules = set(done.stdout.splitlines()[-1].split())
    assert {"referee.interpreter.cli.main", "referee.dsl.lexer", "referee.interpreter.engine.game"} <= modules
    for needless in ("multiprocessing", "html", "referee.interpreter.play.parallel", "referee.interpreter.tools.analyze",
                     "referee.interpreter.play.tournament", "importlib.metadata"):
        assert needless not in modules


def test_games_load_without_garbage_collection(monkeypatch, capsys):
    # start-up: what loading makes lives as long as the command; collecting during it frees nothing
    during = []
    real_load_game = common.load_game

    def load_game(*args, **kwargs):
        during.append(gc.isenabled())
        return real_load_game(*args, **kwargs)

    monkeypatch.setattr(common, "load_game", load_game)
    assert main(["check", CONTINENTS]) == 0
    assert main(["compile", TTT]) == 0
    assert during == [False, False]
    assert gc.isenabled()                      # collecting again afterwards
    gc.disable()
    try:
        assert main(["check", TTT]) == 0
        assert not gc.isenabled()              # a caller's choice stays
    finally:
        gc.enable()


def test_the_program_exits_without_a_last_collection(monkeypatch):
    # the `referee` program (and python -m referee) ends after its command: the interpreter's
    # last collection over everything left would free nothing the exit does not
    frozen = []
    monkeypatch.setattr(cli, "main", lambda: 3)
    monkeypatch.setattr(cli.gc, "freeze", lambda: frozen.append(True))
    assert cli.run() == 3
    assert frozen == [True]


def test_check_missing_file_is_an_error(capsys, tmp_path):
    code, out, _ = run(capsys, "check", tmp_path / "nope.rules")
    assert code == 1 and "E501" in out


# ---- play: bots --------------------------------------------------------------------------

def test_play_all_bots_tic_tac_toe_shows_moves_and_board(capsys):
    code, out, _ = run(capsys, "play", TTT, "--bot", "all=random", "--seed", 3)
    assert code == 0
    moves = re.findall(r"^P([12]): ([abc][123])$", out, re.M)
    assert 5 <= len(moves) <= 9
    assert [int(p) for p, _ in moves] == [1 + i % 2 for i in range(len(moves))]   # turns alternate
    assert re.search(r"^\s+a\s+b\s+c$", out, re.M)           # column letters over the grid
    assert re.search(r"^  3  ", out, re.M) and re.search(r"^  1  ", out, re.M)
    assert re.search(r"^result: (P[12] wins|no winner \(draw\))$", out, re.M)
    assert re.search(r"^scores: P1 \d · P2 \d$", out, re.M)


def test_play_all_bots_is_reproducible(capsys):
    first = run(capsys, "play", CONTINENTS, "--players", 3, "--bot", "all=random", "--seed", 7, "--brief")
    second = run(capsys, "play", CONTINENTS, "--players", 3, "--bot", "all=random", "--seed", 7, "--brief")
    assert first == second and first[0] == 0


def test_play_all_bots_continents_to_the_end(capsys):
    code, out, _ = run(capsys, "play", CONTINENTS, "--players", 3, "--bot", "all=random", "--seed", 7)
    assert code == 0
    assert re.search(r"^P[123]: build (straw|wood|stone) house on [A-Z][a-z]+( [A-Z][a-z]+)? [1-8]$", out, re.M)
    assert "P1's hand: " in out and "P2's hand: 5 hidden" in out      # a seat sees only its own hand
    assert "» P" in out and " wins " in out                          # logged events are shown
    assert re.search(r"^result: P[123]( and P[123])* wins?", out, re.M)


def test_play_first_bots_and_quiet(capsys):
    code, out, _ = run(capsys, "play", TTT, "--bot", "all=first", "--seed", 0, "--quiet")
    assert code == 0
    # first legal move each time: a1 b1 c1 a2 b2 c2 a3 -> P1 holds a1 c1 b2 a3 and wins on a diagonal
    assert out.splitlines() == ["result: P1 wins", "scores: P1 1 · P2 0"]


# ---- play: a human from standard input ---------------------------------------------------

def test_play_scripted_human_in_a_subprocess(tmp_path):
    log = tmp_path / "game.json"
    # P2 always takes the first free cell. P1: b2; (P2 a1); 'a1' is refused; '1' = b1; (P2 c1); 'B 3' wins.
    script = "b2\na1\n1\nB 3\n"
    done = subprocess.run([sys.executable, "-m", "referee", "play", TTT, "--bot", "2=first",
                           "--seed", "0", "--log", str(log)],
                          input=script, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    out = done.stdout
    # a where filter gives no reason: plain words, then the rule's text for the curious
    assert "refused: 'a1' is not possible now (by the rules, mark[a1] must be none)" in out.splitlines()
    assert out.count("legal moves:") == 3                       # the view and moves at each decision
    assert "P1: b2\nP2: a1" in out and "P1: b1\nP2: c1" in out and "P1: b3" in out
    assert "result: P1 wins" in out
    recorded = json.loads(log.read_text())
    assert recorded["moves"] == ["b2", "a1", "b1", "c1", "b3"]
    assert recorded["result"] == {"winners": [1], "scores": [1.0, 0.0], "terminal": True,
                                  "outcome": "win", "returns": [1.0, 0.0]}


def test_play_human_commands_numbers_and_refusals(capsys, monkeypatch):
    script = "help\nmoves\nview\n#42\nxyz\n   \nc 3\n"
    code, out, _ = run(capsys, "play", TTT, "--seed", 0, "--bot", "2=first", stdin=script, monkeypatch=monkeypatch)
    assert code == 3                                           # input ended before the game did
    assert "Commands: moves" in out
    assert out.count(" 9. c3") == 2                            # listed at the decision and by 'moves'
    assert "refused: there is no move number 42 (choose 1..9" in out
    assert "refused: unknown move 'xyz'" in out
    assert "P1: c3\nP2: a1" in out                             # 'c 3' was understood as c3
    assert "end of input: the game is unfinished after 2 moves" in out


def test_play_quit_and_default_seats(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", TTT, "--seed", 1, stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 3
    assert "P1: human · P2: random bot" in out and "game abandoned" in out


def test_play_seats_human_kind_and_the_rule_for_unnamed_seats(capsys, monkeypatch):
    # --bot 1=random on 3 players: the seats --bot does not name are human, and the output says so
    code, out, _ = run(capsys, "play", CONTINENTS, "--players", 3, "--seed", 1, "--bot", "1=random",
                       stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 3
    assert "P1: random bot · P2: human · P3: human  (a seat that no --bot names is human)" in out
    # 'human' is a kind: every seat named, no note
    code, out, _ = run(capsys, "play", TTT, "--seed", 1, "--bot", "all=first", "--bot", "2=human",
                       stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 3
    assert "P1: first bot · P2: human\n" in out and "P2> " in out and "P1: a1" in out
    code, _, err = run(capsys, "play", TTT, "--bot", "2=robot")
    assert code == 2 and "unknown kind 'robot' (known: random, first, mcts, ismcts, human)" in err


def test_play_quiet_shows_a_human_no_move_lines(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", TTT, "--seed", 0, "--bot", "2=first", "--quiet",
                       stdin="b2\nc3\nb3\n", monkeypatch=monkeypatch)
    assert code == 0 and out.endswith("result: P2 wins\nscores: P1 0 · P2 1\n")     # P2: a1 b1 c1
    lines = out.splitlines()
    assert lines[0] == "P1: human · P2: first bot  (a seat that no --bot names is human)"   # who is who
    assert out.count("legal moves:") == 3 and "P1> b2" in out
    assert not re.search(r"^P[12]: [abc][123]$", out, re.M)        # neither the bot's moves nor P1's
    assert "seed:" not in out and "Tic-tac-toe ·" in out            # the views are there


REQUIRES = """game "Requires" {
  players 2
}
board Cell: grid 1 by 5
var mark[Cell]: Player? = none
action put(c in Cell where mark[c] == none) "{c}" {
  require label(c) != "a1" else "the corner is kept for later"
  require label(c) != "b1"
  require label(c) != "d1" else "this needs a free row"
  mark[c] = current
}
flow {
  turns from 1 {
    play put
  }
}
"""


def test_refusals_in_plain_words_with_the_rule_for_the_curious(tmp_path, capsys, monkeypatch):
    from referee.interpreter.runtime.errors import IllegalMove
    path = tmp_path / "requires.rules"
    path.write_text(REQUIRES)
    game, diagnostics, _ = load_game(str(path))
    assert not diagnostics
    state = game.new_initial_state(0)
    state.apply("c1")

    def refusal(name):
        with pytest.raises(IllegalMove) as refused:
            state.apply(name)
        return refused.value.reason

    assert refusal("a1") == "'a1' is not possible now: the corner is kept for later"    # the rules' reason
    assert refusal("b1") == "'b1' is not possible now (by the rules, this needs label(c) != \"b1\")"
    assert refusal("c1") == "'c1' is not possible now (by the rules, mark[c1] must be none)"
    # a reason of the rules' own, whatever its words, is given as a reason
    assert refusal("d1") == "'d1' is not possible now: this needs a free row"
    code, out, _ = run(capsys, "play", path, "--bot", "2=first", "--seed", 0, stdin="a1\nb1\n",
                       monkeypatch=monkeypatch)
    assert "refused: 'a1' is not possible now: the corner is kept for later" in out


def test_play_hot_seat_hands_the_terminal_over_between_humans(capsys, monkeypatch):
    script = "a1\n\nb1\n\nquit\n"
    code, out, _ = run(capsys, "play", TTT, "--seed", 1, "--bot", "all=human", "--hot-seat",
                       stdin=script, monkeypatch=monkeypatch)
    assert code == 3
    lines = out.splitlines()
    handovers = [i for i, line in enumerate(lines) if line.startswith("pass the terminal to ")]
    assert [lines[i] for i in handovers] == ["pass the terminal to P2, then press Enter ",
                                             "pass the terminal to P1, then press Enter "]
    for i in handovers:                                     # a separator, then the next one's view
        assert set(lines[i - 1]) == {"═"} and lines[i + 2].endswith(("view of P1", "view of P2"))
    assert "P1: a1" in out and "P2: b1" in out and "game abandoned after 2 moves" in out
    # piped input without the flag: no hand-over (nor with one human seat only)
    for argv in (("--bot", "all=human"), ("--bot", "2=first", "--hot-seat")):
        code, out, _ = run(capsys, "play", TTT, "--seed", 1, *argv, stdin="a1\nb1\nquit\n",
                           monkeypatch=monkeypatch)
        assert "pass the terminal" not in out and "═" not in out


def test_play_runtime_error_exit_70(capsys, tmp_path):
    stuck = tmp_path / "stuck.rules"
    stuck.write_text(DEAD_END)
    log = tmp_path / "stuck.json"
    code, out, err = run(capsys, "play", stuck, "--bot", "all=random", "--seed", 7, "--brief", "--log", log)
    assert code == 70
    assert re.search(r"^   3  P1: [abc]1$", out, re.M)               # the move that led there is shown
    assert "result:" not in out
    assert err.startswith("runtime error: P2 must play (put) but has no legal move")
    assert "stuck.rules:11:5" in err and "play put" in err
    moves = json.loads(log.read_text())["moves"]
    assert sorted(moves) == ["a1", "b1", "c1"]
    code, _, err = run(capsys, "replay", log)
    assert code == 70 and "runtime error at move 3" in err


def test_play_bad_input_exit_codes(capsys, tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text(BROKEN)
    code, _, err = run(capsys, "play", broken)
    assert code == 65 and "E202" in err
    code, _, err = run(capsys, "play", tmp_path / "missing.rules")
    assert code == 66 and "no such file" in err
    code, _, err = run(capsys, "play", CONTINENTS, "--option", "bogus")      # command-line mistakes
    assert code == 2 and "referee play: error: argument --option: unknown option 'bogus'" in err
    code, _, err = run(capsys, "play", CONTINENTS, "--players", 9)
    assert code == 2 and "referee play: error: argument --players: this game is for 2..6 players, not 9" in err
    code, _, err = run(capsys, "play", TTT, "--bot", "3=random")
    assert code == 2 and "seat must be 1..2" in err
    code, _, err = run(capsys, "play", TTT, "--bot", "all=clever")
    assert code == 2 and "unknown kind 'clever'" in err
    code, _, err = run(capsys, "simulate", TTT, "-n", "many")
    assert code == 2 and "not a whole number" in err


# ---- simulate ----------------------------------------------------------------------------

def test_simulate_summary_text_and_json(capsys):
    code, out, _ = run(capsys, "simulate", TTT, "-n", 30, "--seed", 5)
    assert code == 0
    assert "30 games (seeds 5..34)" in out
    assert re.search(r"^wins: P1 \d+ \(\d+%\) · P2 \d+ \(\d+%\) · draws \d+", out, re.M)
    assert re.search(r"^length in moves: mean \d+\.\d · min [5-9] · max [5-9]$", out, re.M)
    code, out, _ = run(capsys, "simulate", TTT, "-n", 30, "--seed", 5, "--json")
    summary = json.loads(out)
    assert summary["games"] == summary["finished"] == 30
    assert summary["wins"]["1"] + summary["wins"]["2"] + summary["draws"] == 30
    assert 5 <= summary["length"]["min"] <= summary["length"]["mean"] <= summary["length"]["max"] <= 9
    assert summary["mean_scores"]["1"] == pytest.approx(summary["wins"]["1"] / 30, abs=1e-3)
    assert summary["first_error"] is None


def test_simulate_max_moves_counts_unfinished_and_writes_logs(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", CONTINENTS, "-n", 2, "--max-moves", 5, "--json", "--log", tmp_path)
    summary = json.loads(out)
    assert code == 0 and summary["unfinished"] == 2 and summary["finished"] == 0
    logs = sorted(tmp_path.glob("*.json"))
    assert len(logs) == 2
    log, error = read_log(logs[0])
    assert error is None and len(log["moves"]) == 5 and log["result"]["terminal"] is False


def test_simulate_reports_the_first_runtime_error(capsys, tmp_path):
    stuck = tmp_path / "stuck.rules"
    stuck.write_text(DEAD_END)
    code, out, _ = run(capsys, "simulate", stuck, "-n", 20, "--json", "--log", tmp_path / "logs")
    summary = json.loads(out)
    assert code == 70 and summary["runtime_errors"] == 20 and summary["finished"] == 0
    first = summary["first_error"]
    assert first["seed"] == 0 and len(first["moves"]) == 3 and "has no legal move" in first["message"]
    assert f"--seed {first['seed']}" in first["replay"]
    # its log replays to the same error
    code, _, err = run(capsys, "replay", first["log"])
    assert code == 70 and "has no legal move" in err


# ---- replay ------------------------------------------------------------------------------

@pytest.fixture
def played_log(capsys, tmp_path):
    path = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", CONTINENTS, "--players", 3, "--bot", "all=random", "--seed", 4,
                       "--quiet", "--log", path)
    assert code == 0 and path.exists()
    return path, out


def test_replay_reproduces_the_result(capsys, played_log):
    path, played = played_log
    log = json.loads(path.read_text())
    assert log["format"] == "referee-log/1" and log["players"] == 3 and log["seed"] == 4
    assert log["rules_sha256"] == hashlib.sha256(Path(CONTINENTS).read_bytes()).hexdigest()
    code, out, _ = run(capsys, "replay", path)
    assert code == 0
    assert f"replayed {len(log['moves'])} moves" in out
    assert played.splitlines()[-2] in out.splitlines()            # the same 'result: ...' line
    code, out, _ = run(capsys, "replay", path, "--json")
    final = json.loads(out)
    assert code == 0 and final["terminal"] is True
    assert final["winners"] == log["result"]["winners"] and final["scores"] == log["result"]["scores"]
    assert final["legal_moves"] == [] and final["final_view"]["game"] == "Continents"


def tamper(path, change):
    log = json.loads(path.read_text())
    change(log)
    path.write_text(json.dumps(log))


def test_replay_changed_move_is_refused_without_a_final_state(capsys, played_log):
    path, _ = played_log
    tamper(path, lambda log: log["moves"].__setitem__(11, "xyz"))
    code, out, err = run(capsys, "replay", path)
    assert code == 65 and out == ""
    assert "move 12 'xyz' is not legal: unknown move 'xyz'" in err


def test_replay_move_illegal_now_gives_the_reason(capsys, tmp_path):
    path = tmp_path / "t.json"
    code, _, _ = run(capsys, "play", TTT, "--bot", "all=first", "--seed", 0, "--quiet", "--log", path)
    tamper(path, lambda log: log["moves"].__setitem__(2, "a1"))
    code, out, err = run(capsys, "replay", path)
    assert code == 65 and out == ""
    assert "move 3 'a1' is not legal: by the rules, mark[a1] must be none" in err
    code, out, _ = run(capsys, "replay", path, "--json")
    assert code == 65 and "final_view" not in out and json.loads(out)["exit_code"] == 65


@pytest.mark.slow
def test_replay_changed_hash_and_ignore_hash(capsys, played_log):
    path, _ = played_log
    tamper(path, lambda log: log.__setitem__("rules_sha256", "0" * 64))
    code, out, err = run(capsys, "replay", path)
    assert code == 65 and out == "" and "the rules file has changed since the log was written" in err
    code, out, _ = run(capsys, "replay", path, "--ignore-hash")
    assert code == 0 and "result: " in out


def test_replay_wrong_recorded_result(capsys, played_log):
    path, _ = played_log
    tamper(path, lambda log: log["result"].__setitem__("winners", [9]))
    code, out, err = run(capsys, "replay", path)
    assert code == 65 and out == "" and "does not reach the recorded result" in err


@pytest.mark.parametrize("text, message", [
    ("{not json", "not JSON"),
    ('{"format": "referee-log/1"}', "lacks the field 'rules'"),
    ("[1, 2]", "must be a JSON object"),
    ('{"format": "other/9", "rules": "x", "rules_sha256": "", "options": [], "players": 2, "seed": 0, '
     '"moves": []}', "unknown log format"),
])
def test_replay_invalid_logs(capsys, tmp_path, text, message):
    path = tmp_path / "bad.json"
    path.write_text(text)
    code, out, err = run(capsys, "replay", path)
    assert code == 65 and out == "" and message in err


def test_replay_missing_files(capsys, tmp_path, played_log):
    code, _, err = run(capsys, "replay", tmp_path / "none.json")
    assert code == 66 and "no such log file" in err
    path, _ = played_log
    tamper(path, lambda log: log.__setitem__("rules", str(tmp_path / "gone.rules")))
    code, out, err = run(capsys, "replay", path)
    assert code == 66 and out == "" and "does not exist" in err


# ---- bench -------------------------------------------------------------------------------

def test_bench_prints_rates(capsys):
    code, out, _ = run(capsys, "bench", TTT, "--seconds", 0.2)
    assert code == 0
    rate = re.search(r"^playouts: \d+ \(([\d.]+)/s\)$", out, re.M)
    assert rate and float(rate.group(1)) > 0
    assert re.search(r"^mean moves per game: [5-9]\.\d$", out, re.M)
    code, out, _ = run(capsys, "bench", TTT, "--seconds", 0.1, "--json")
    figures = json.loads(out)
    assert figures["moves_per_second"] > 0 and figures["playouts"] > 0


# ---- the pieces: rendering, bots, logs ---------------------------------------------------

def test_render_grid_zones_and_variables():
    game, _, _ = load_game(TTT)
    state = game.new_initial_state(0)
    for move in ("b2", "a1", "c3"):
        state.apply(move)
    text = render_view(state.view(2))
    lines = text.splitlines()
    assert lines[0] == "Tic-tac-toe · turn 4 · P2 to move · view of P2"
    board = lines[lines.index("Cell:") + 1:]
    assert [line.split() for line in board[:4]] == [
        ["a", "b", "c"], ["3", ".", ".", "P1"], ["2", ".", "P1", "."], ["1", "P2", ".", "."]]
    assert "mark" not in text                     # already drawn on the board

    game, _, _ = load_game(CONTINENTS, players=3)
    state = game.new_initial_state(7)
    view = state.view(1)
    text = render_view(view)
    mine = [item["label"] for item in view["zones"]["hand[P1]"]["items"]]
    runs = []                                     # a row: neighbours alike are counted together
    for label in mine:
        runs = runs[:-1] + [(label, runs[-1][1] + 1)] if runs and runs[-1][0] == label else runs + [(label, 1)]
    assert f"  P1's hand: {', '.join(f'{n}× {l}' if n > 1 else l for l, n in runs)}" in text
    assert "  P2's hand: 5 hidden" in text and "  P3's draw: 12 hidden" in text
    assert "scores P1 0 · P2 0 · P3 0" in text
    build = next(m.name for m in state.legal_moves() if m.name.startswith("build"))
    house, continent, place = re.fullmatch(r"build (\w+ house) on ([A-Za-z ]+) (\d)", build).groups()
    state.apply(build)
    text = render_view(state.view(2))
    # the places as a table: the place numbers down, the continents across (issue 26)
    table = text.splitlines()
    head = next(line for line in table if line.startswith("  place  "))
    row = next(line for line in table if line.startswith(f"  {place}  "))
    assert row[head.index(continent):].startswith(f"{house} (P1)")
    assert [line.split()[0] for line in table[table.index(head) + 1:][:8]] == [str(n) for n in range(1, 9)]


def test_render_counts_the_same_items_of_a_zone():
    from referee.interpreter.engine.render import render_zones

    def zone(kind, *labels):
        return {"kind": kind, "count": len(labels), "items": [{"label": l} for l in labels]}

    lines = render_zones({
        "hand": zone("set", "rainbow", "red 10", "red 2", "rainbow", "rainbow"),
        "river": zone("row", "rainbow", "rainbow", "red 2", "rainbow"),
        "heap": zone("stack", "knight", "queen", "queen"),
        "deck": zone("pile", "x", "y", "y"),
        "one": zone("set", "red 2", "red 1"),
    })
    # a set: each label once with its count, sorted by label (numbers in order)
    assert "  hand: 3× rainbow, red 2, red 10" in lines
    # a row, a pile and a stack keep their order: only neighbours are counted together
    assert "  river: 2× rainbow, red 2, rainbow" in lines
    assert "  heap: 2× queen over knight" in lines
    assert "  deck: x, 2× y" in lines
    assert "  one: red 1, red 2" in lines


def test_render_solstis_rainbows_once_with_their_count():
    game, _, _ = load_game(str(ROOT / "games" / "solstis.rules"))
    text = render_view(game.new_initial_state(3).view(1))
    assert "  rainbows: 12× rainbow" in text.splitlines()     # not 'rainbow' 12 times


def test_render_hex_board(tmp_path):
    path = tmp_path / "hex.rules"
    path.write_text(HEX)
    game, diagnostics, _ = load_game(str(path))
    assert not diagnostics
    state = game.new_initial_state(0)
    before = render_view(state.view(1)).splitlines()
    state.apply("put 04@2.3")
    lines = render_view(state.view(1)).splitlines()
    drawing = lines[lines.index("Hex:") + 1:]
    # column numbers on top (half a hex each: 01 is in column 2, 02 in column 4), then each
    # row: its number and its hexes' symbols, then their marks (no line for borders between
    # the rows: nothing splits this board into parts)
    header, row1, marks1, row2, marks2 = drawing[:5]
    assert header.split() == ["1", "2", "3", "4", "5", "6"]
    assert row1.split() == ["1", "01", "02", "03"] and not marks1.strip()
    assert row2.split() == ["2", "04", "05"] and marks2.split() == ["P1"]
    # a hex stands under its column's number (by its last character, as in the rules file),
    # and its marks under it
    assert row1.index("01") + 1 == header.index("2") and row2.index("04") + 1 == header.index("3")
    assert row2.index("05") + 1 == header.index("5") and marks2.index("P1") <= row2.index("04") + 1 < marks2.index("P1") + 2
    # the coordinates are explained under the map, and a move names them
    assert "  a hex is SYMBOL@ROW.COL: its row at the left, its column on top (half a hex each)" in drawing
    # a mark moves nothing: the same lines, at the same places
    drawn_before = before[before.index("Hex:") + 1:before.index("Hex:") + 7]
    assert [line for i, line in enumerate(drawing[:6]) if i != 4] == [line for i, line in enumerate(drawn_before) if i != 4]
    assert not drawn_before[4].strip()


def test_a_long_mark_is_cut_to_the_width_of_a_hex():
    board = {"kind": "hex", "rows": 1, "cols": 4,
             "cells": [{"label": "A@1.2", "row": 1, "col": 2, "marks": ["P1", "T12", "x"]},
                       {"label": "B@1.4", "row": 1, "col": 4, "marks": ["P2"]}]}
    lines = render_board(board)
    _header, symbols, marks = lines[:3]
    assert marks.split() == ["P1/T…", "P2"]
    # the cut text still ends before the next hex's
    assert marks.index("…") < marks.index("P2") - 1
    assert symbols.index("A") < symbols.index("B")
    # and is written whole under the drawing
    assert lines[-1] == "  A@1.2: P1/T12/x"


def test_connect_four_columns_are_numbered_as_the_moves_name_them():
    game, _, _ = load_game(str(ROOT / "games" / "connect-four.rules"))
    state = game.new_initial_state(0)
    state.apply("3")
    lines = render_view(state.view(1)).splitlines()
    drawing = lines[lines.index("Cell:") + 1:]
    bottom_row = next(line for line in drawing if line.split()[:1] == ["1"] and "P1" in line)
    numbers = drawing[drawing.index(bottom_row) + 1]
    assert numbers.split() == ["1", "2", "3", "4", "5", "6", "7"]
    # the piece dropped by move '3' stands over the column numbered 3
    assert bottom_row.index("P1") <= numbers.index("3") <= bottom_row.index("P1") + 1


def test_bots_are_reproducible():
    game, _, _ = load_game(CONTINENTS, players=4)

    def game_with(bot):
        state = game.new_initial_state(3)
        names = []
        while not state.is_terminal() and len(names) < 60:
            move = bot.choose(state)
            assert move in state.legal_moves()
            names.append(move.name)
            state.apply(move)
        return names
    assert game_with(RandomBot(11)) == game_with(RandomBot(11))
    assert game_with(RandomBot(11)) != game_with(RandomBot(12))
    state = game.new_initial_state(3)
    assert FirstBot().choose(state) == state.legal_moves()[0]


def test_log_of_an_extending_file_hashes_every_file(tmp_path):
    game, _, _ = load_game(str(VARIANT))
    assert len(game.program.files) == 2
    expected = hashlib.sha256(b"".join(Path(f).read_bytes() for f in game.program.files)).hexdigest()
    assert rules_sha256(game) == expected
    state = game.new_initial_state(1)
    bot = RandomBot(1)
    while not state.is_terminal():
        state.apply(bot.choose(state))
    path = tmp_path / "v.json"
    write_log(path, game, state, str(VARIANT))
    log, error = read_log(path)
    assert error is None and log["rules_sha256"] == expected
    again, error = replay(log)
    assert error is None and again.winners == state.winners and again.history == state.history


# ---- hostile input: refused with the documented exit code, never an internal error ---------

def test_play_a_huge_move_number_is_refused_and_the_log_kept(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    script = "9" * 5000 + "\n#" + "0" * 5000 + "7\n" + "0" * 5000 + "1\n"
    code, out, err = run(capsys, "play", TTT, "--seed", 0, "--bot", "2=first", "--log", log,
                         stdin=script, monkeypatch=monkeypatch)
    assert code == 3 and err == ""
    assert "refused: there is no move number 99999999...99999999 (choose 1..9" in out
    # '#0...07' is move 7 and '0...01' move 1 of the moves then legal: leading zeros are zeros
    assert json.loads(log.read_text())["moves"] == ["a3", "a1", "b1", "c1"]


def test_play_a_line_without_end_is_read_in_bounded_pieces(capsys, monkeypatch):
    script = "x" * 3_000_000 + "\n" + "c3\n"
    code, out, err = run(capsys, "play", TTT, "--seed", 0, "--bot", "2=first", stdin=script, monkeypatch=monkeypatch)
    assert code == 3 and err == "" and len(out) < 20_000
    assert "refused: unknown move 'xxxx" in out and "P1: c3" in out


def test_numbers_of_the_command_line_of_any_length(capsys):
    code, _, err = run(capsys, "play", TTT, "--seed", "1" * 5000)
    assert code == 2 and "a number of more than 1000 digits: '11111111111111111111...11111111'" in err
    code, _, err = run(capsys, "simulate", TTT, "-n", "x" * 5000)
    assert code == 2 and "not a whole number: 'xxxxxxxx" in err and len(err) < 2000


@pytest.mark.parametrize("seconds", ["inf", "-inf", "nan", "0", "1e400"])
def test_bench_refuses_seconds_that_never_end(capsys, seconds):
    code, _, err = run(capsys, "bench", TTT, "--seconds", seconds)
    assert code == 2 and "argument --seconds" in err


@pytest.mark.parametrize("data, message", [
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b'{"moves": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "nested too deeply"),
    (b'{"format": "referee-log/1", "rules": "\xff"}', "not UTF-8"),
])
def test_replay_a_log_nested_too_deeply_or_not_utf8(capsys, tmp_path, data, message):
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    code, out, err = run(capsys, "replay", path)
    assert code == 65 and out == "" and "not a valid game log" in err and message in err


def test_replay_shows_no_file_that_is_not_a_rules_file(capsys, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": "referee-log/1", "rules": "/etc/passwd", "rules_sha256": "",
                                "options": [], "players": 2, "seed": 0, "moves": []}))
    code, out, err = run(capsys, "replay", path, "--ignore-hash")
    assert code == 65 and out == "" and "must name a .rules file" in err and "root:" not in err


def test_replay_reads_no_device(capsys):
    code, _, err = run(capsys, "replay", "/dev/zero")
    assert code == 65 and "not a regular file" in err


@pytest.mark.parametrize("command", ["verify", "simulate"])
def test_log_directory_onto_a_file_or_an_unwritable_path(capsys, tmp_path, command):
    rules = tmp_path / "stuck.rules"
    rules.write_text(DEAD_END)
    existing = tmp_path / "a-file"
    existing.write_text("keep me")
    for target in (existing, tmp_path / "a-file" / "below"):
        code, _, err = run(capsys, command, rules, "-n", 2, "--jobs", 1, "--log", target)
        assert code == 73 and "cannot create the log directory" in err
    assert existing.read_text() == "keep me"


def test_rulebook_spec_reads_no_device(capsys):
    code, out, err = run(capsys, "rulebook", TTT, "--spec", "/dev/zero")
    assert code == 66 and out == "" and "not a regular file" in err


def test_play_writes_its_log_as_the_game_goes(capsys, monkeypatch, tmp_path):
    """A game stopped hard (killed, the machine gone) keeps the moves played so far."""
    from referee.interpreter.play import bots
    log = tmp_path / "game.json"
    turns = []

    def choose(self, state):
        turns.append(state.turn)
        if len(turns) == 3:
            raise SystemExit(9)          # not an error the CLI handles: as if the process died
        return state.legal_moves()[0]
    monkeypatch.setattr(bots.FirstBot, "choose", choose)
    with pytest.raises(SystemExit):
        main(["play", str(TTT), "--seed", "0", "--bot", "1=first", "--bot", "2=first", "--log", str(log)])
    assert json.loads(log.read_text())["moves"] == ["a1", "b1"]
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]     # no partial file left


def test_a_bare_number_means_one_thing_where_moves_are_named_by_numbers(capsys, monkeypatch):
    """Connect four names its moves by column: once column 1 is full, '3' is still column 3,
    never the third move of the list (that is '#3')."""
    c4 = str(ROOT / "games" / "connect-four.rules")
    script = "\n".join(["1"] * 6 + ["3", "#3", "9"]) + "\n"
    code, out, err = run(capsys, "play", c4, "--seed", 0, "--bot", "2=first", stdin=script, monkeypatch=monkeypatch)
    assert "#1. 1" in out                    # the list is numbered with '#'
    assert "P1: 3\n" in out                  # column 3
    assert "P1: 4\n" in out                  # '#3' once column 1 is full: the third move, column 4
    assert "refused: no move is named 9 now (moves are named by numbers here" in out
