"""Issue 26 at the table: the rules at hand at the prompt, a replay stepped through, the
built-in games by name, logs that replay from any folder, and where two views differ."""
from __future__ import annotations

import json
import re

from referee.interpreter.cli.rules_at_hand import asked
from referee.interpreter.engine import load_game
from referee.interpreter.tools.verify import verify
from referee.interpreter.tools.view_diff import entry_difference

from .conftest import GAMES
from .test_cli import run

LIARS_DICE = GAMES / "liars-dice.rules"


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


def test_rules_at_hand_a_move_named_like_the_words_is_the_move():
    assert asked("rules", ["rules", "pass"]) is None
    assert asked("help 3", ["1", "2"]) == ("help", "3")
    assert asked("rules", ["a1"]) == ("rules", "") and asked("rules C-8", []) == ("rules", "C-8")
    assert asked("help", ["a1"]) is None           # the session's own help


# ---- item 4: replay step by step ---------------------------------------------------------

TTT = GAMES / "tic-tac-toe.rules"


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
    # from the end by default; end of input stops it
    code, out, _ = run(capsys, "replay", log, "--step", stdin="b\n", monkeypatch=monkeypatch)
    assert code == 0 and re.findall(r"^── (.+?) ─", out, re.M) == ["move 7 of 7: P1: a3", "move 6 of 7: P2: c2"]


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
