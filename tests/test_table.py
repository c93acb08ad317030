"""`referee play` at the table: undo, resume, and the progress line of long commands.
Games are scripted through standard input, as a human would type them."""
from __future__ import annotations

import argparse
import io
import json
import re
import sys

import pytest

from referee.interpreter.cli import progress
from referee.interpreter.play.bots import RandomBot
from referee.interpreter.cli.session import HUMAN_HELP
from referee.interpreter.engine import load_game
from referee.interpreter.engine.render import render_view, view_defaults
from tests.conftest import GAMES
from tests.test_cli import CONTINENTS, TTT, run


def views(out: str) -> list:
    """The views a human was shown, each from its title line to its list of legal moves."""
    return re.findall(r"^[^\n]* · (?:turn|round) \d+ · [^\n]*\n.*?^legal moves:", out, re.M | re.S)


def log_moves(path) -> list:
    return json.loads(path.read_text())["moves"]


# ---- boards -------------------------------------------------------------------------------

def drawing(text: str, board: str) -> list:
    lines = text.splitlines()
    start = lines.index(f"{board}:") + 1
    end = next(i for i in range(start, len(lines)) if lines[i] and not lines[i].startswith(" "))
    return lines[start:end]


def test_the_titicaca_map_keeps_its_layout_through_a_whole_game():
    """Every hex stays where it is drawn from the first move to the last: the same number of
    lines, the same row and column numbers, each hex's symbol at the same place."""
    game, _, _ = load_game(str(GAMES / "titicaca.rules"), players=4)
    state, bot = game.new_initial_state(6), RandomBot(6)
    defaults = view_defaults(game)
    first = drawing(render_view(state.view(1), defaults), "Map")
    symbol_lines = [i for i, line in enumerate(first) if line[:3].strip().isdigit()]
    assert len(symbol_lines) == 9 and first[0].split() == [str(c) for c in range(1, 17)]
    borders_seen = False
    while not state.is_terminal():
        state.apply(bot.choose(state))
        now = drawing(render_view(state.view(1), defaults), "Map")
        assert len(now) == len(first) and now[0] == first[0]
        for i in symbol_lines:
            # the symbols stand where they stood; a border may stand between them
            assert now[i].replace("│", " ").rstrip() == first[i].rstrip()
        borders_seen = borders_seen or any(mark in line for line in now for mark in "│╱╲")
    assert borders_seen
    # the hex a move names is found under its row and column numbers: F@6.5 is in row 6, column 5
    row6 = first[symbol_lines[5]]
    assert row6.split()[0] == "6" and row6[first[0].index(" 5 ") + 1] == "F"


# ---- undo --------------------------------------------------------------------------------

def test_undo_takes_back_the_humans_move_and_the_bots_replies(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    code, out, _ = run(capsys, "play", TTT, "--seed", 1, "--log", log, stdin="a1\nb2\nundo\nquit\n",
                       monkeypatch=monkeypatch)
    assert code == 3
    assert "undone: 2 moves taken back, P1 to move again" in out
    # back at P1's second decision: the same view as when it was first shown
    shown = views(out)
    assert len(shown) == 4 and shown[3] == shown[1] != shown[2]
    # the log holds the moves kept, not the ones taken back
    moves = log_moves(log)
    assert len(moves) == 2 and moves[0] == "a1"


def test_after_undo_the_bots_play_as_they_did(capsys, monkeypatch, tmp_path):
    """The bots are put back as they were at the decision undone: the same move gets the same
    reply, so undo cannot be used to draw the bots' dice again."""
    first, again = tmp_path / "first.json", tmp_path / "again.json"
    run(capsys, "play", TTT, "--seed", 5, "--log", first, stdin="a1\nb2\nquit\n", monkeypatch=monkeypatch)
    run(capsys, "play", TTT, "--seed", 5, "--log", again, stdin="a1\nb2\nundo\nundo\na1\nb2\nquit\n",
        monkeypatch=monkeypatch)
    assert log_moves(again) == log_moves(first) and len(log_moves(first)) == 4


def test_undo_goes_back_over_hidden_cards_and_shuffles(capsys, monkeypatch):
    """Continents deals hidden hands from its seed: the game rebuilt without the last moves is
    the one that was played, hands included."""
    code, out, _ = run(capsys, "play", CONTINENTS, "--players", 3, "--seed", 4, stdin="1\n1\nundo\nquit\n",
                       monkeypatch=monkeypatch)
    assert code == 3 and "undone:" in out
    shown = views(out)
    assert len(shown) == 4 and shown[3] == shown[1] != shown[2] and shown[1] != shown[0]


def test_undo_at_the_first_decision_is_refused(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", TTT, "--seed", 1, stdin="undo\nb2\nquit\n", monkeypatch=monkeypatch)
    assert "refused: nothing to undo (this is your first move)" in out
    assert "P1: b2" in out and code == 3


def test_undo_does_not_take_back_another_humans_move(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", TTT, "--seed", 1, "--bot", "all=human", "--no-hot-seat",
                       stdin="a1\nb2\nundo\nc3\nquit\n", monkeypatch=monkeypatch)
    assert "refused: undo would take back the move of another human (P2)" in out
    assert "P1: c3" in out


def test_the_help_text_tells_of_undo(capsys, monkeypatch):
    assert "undo (take back your last\nmove, and the bots' moves after it)" in HUMAN_HELP
    _, out, _ = run(capsys, "play", TTT, "--seed", 1, stdin="help\nquit\n", monkeypatch=monkeypatch)
    assert HUMAN_HELP in out


# ---- resume ------------------------------------------------------------------------------

def test_resume_goes_on_with_an_unfinished_game(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    run(capsys, "play", TTT, "--seed", 2, "--log", log, stdin="a1\nquit\n", monkeypatch=monkeypatch)
    before = log_moves(log)
    code, out, _ = run(capsys, "play", "--resume", log, stdin="moves\nquit\n", monkeypatch=monkeypatch)
    assert code == 3 and f"resumed from {log} after 2 moves" in out
    # the position it stopped at: a1 and the bot's reply are on the board, P1 to move
    assert "Tic-tac-toe · turn 3 · P1 to move" in out and "a1" not in out.split("legal moves:")[1]
    # and on: the game is written on to the same log, whole
    code, out, _ = run(capsys, "play", "--resume", log, stdin="c3\nquit\n", monkeypatch=monkeypatch)
    moves = log_moves(log)
    assert moves[:2] == before and moves[2] == "c3" and len(moves) == 4


def test_a_resumed_game_can_be_undone_back_past_the_resume(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    run(capsys, "play", TTT, "--seed", 2, "--log", log, stdin="a1\nb2\nquit\n", monkeypatch=monkeypatch)
    code, out, _ = run(capsys, "play", "--resume", log, stdin="undo\nundo\nquit\n", monkeypatch=monkeypatch)
    assert out.count("undone: 2 moves taken back") == 2 and log_moves(log) == []


def test_resume_to_the_end(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    run(capsys, "play", TTT, "--seed", 3, "--bot", "2=first", "--log", log, stdin="c3\nquit\n",
        monkeypatch=monkeypatch)
    code, out, _ = run(capsys, "play", "--resume", log, "--bot", "2=first", "--quiet",
                       stdin="c2\nb3\nc1\nb1\na3\na2\n", monkeypatch=monkeypatch)
    assert code == 0 and "result:" in out
    assert json.loads(log.read_text())["result"]["terminal"] is True


def test_a_finished_game_is_not_resumed(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    run(capsys, "play", TTT, "--bot", "all=first", "--seed", 0, "--log", log)
    code, _, err = run(capsys, "play", "--resume", log)
    assert code == 65
    assert f"referee: cannot resume {log}: its game is over (P1 wins); referee replay {log} shows it" in err


def test_a_corrupt_log_is_refused_whole(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    run(capsys, "play", TTT, "--seed", 2, "--log", log, stdin="a1\nb2\nquit\n", monkeypatch=monkeypatch)
    data = json.loads(log.read_text())
    # a move that is not legal: nothing is played, not even the moves before it
    data["moves"][2] = data["moves"][0]
    log.write_text(json.dumps(data))
    code, out, err = run(capsys, "play", "--resume", log, stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 65 and out == ""
    assert err.startswith(f"referee: cannot resume {log}: move 3 'a1' is not legal")
    # not JSON
    log.write_text('{"format": "referee-log/1", "moves": [')
    code, out, err = run(capsys, "play", "--resume", log)
    assert code == 65 and out == "" and f"referee: cannot resume {log}: not a valid game log: not JSON" in err
    # missing
    code, _, err = run(capsys, "play", "--resume", tmp_path / "none.json")
    assert code == 66 and "no such log file" in err


def test_a_log_of_changed_rules_is_refused_unless_asked(capsys, monkeypatch, tmp_path):
    rules = tmp_path / "ttt.rules"
    rules.write_text(open(TTT).read())
    log = tmp_path / "game.json"
    run(capsys, "play", rules, "--seed", 2, "--log", log, stdin="a1\nquit\n", monkeypatch=monkeypatch)
    rules.write_text(open(TTT).read() + "\n# changed\n")
    code, _, err = run(capsys, "play", "--resume", log)
    assert code == 65 and "the rules file has changed since the log was written" in err
    code, out, _ = run(capsys, "play", "--resume", log, "--ignore-hash", stdin="quit\n", monkeypatch=monkeypatch)
    assert code == 3 and "resumed from" in out


def test_resume_refuses_what_the_log_fixes(capsys, tmp_path):
    code, _, err = run(capsys, "play", "--resume", tmp_path / "game.json", "--players", 3, "--seed", 1)
    assert code == 2 and "argument --resume: the log fixes the game; leave out --players, --seed" in err
    code, _, err = run(capsys, "play")
    assert code == 2 and "the following arguments are required: FILE (or --resume LOG)" in err
    code, _, err = run(capsys, "play", TTT, "--ignore-hash")
    assert code == 2 and "argument --ignore-hash: only with --resume LOG" in err


# ---- progress ----------------------------------------------------------------------------

def as_terminal(monkeypatch):
    """Standard error seen as a terminal (inside the test: capsys puts its own in place for
    the call), and a progress line drawn at every update."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(progress, "FIRST_DRAW", 0)
    monkeypatch.setattr(progress, "INTERVAL", 0)


def progress_lines(err: str) -> list:
    """The progress lines drawn over one another ('\\r' before each), without the wiping."""
    return [piece.strip() for piece in err.split("\r") if piece.strip()]


@pytest.mark.parametrize("argv, label, unit", [
    (["simulate", TTT, "-n", 30, "--jobs", 1], "simulating", "games"),
    (["analyze", TTT, "-n", 30, "--jobs", 1], "analysing", "games"),
    (["verify", TTT, "-n", 15, "--jobs", 1], "verifying", "games"),
    (["verify", TTT, "-n", 15, "--jobs", 2], "verifying", "games"),
    (["bench", TTT, "--seconds", 0.3, "--jobs", 1], "benchmarking", "s"),
])
def test_long_commands_show_their_progress_on_a_terminal(capsys, monkeypatch, argv, label, unit):
    as_terminal(monkeypatch)
    code, out, err = run(capsys, *argv)
    assert code == 0
    lines = progress_lines(err)
    assert lines and all(line.startswith(label + " ") for line in lines)
    total = "30" if "-n" in argv and 30 in argv else "15" if "-n" in argv else "0.3"
    last = re.search(rf"(\S+)/{re.escape(total)} {unit}", lines[-1])
    assert last, lines[-1]
    if unit == "games":
        assert last.group(1) == total            # the last line drawn: every game played
    # the line is wiped at the end: the output after it is not mixed with it
    assert err.endswith("\r") and "\r" not in out


@pytest.mark.parametrize("extra", [["--json"], ["--quiet"]])
def test_no_progress_for_json_or_quiet(capsys, monkeypatch, extra):
    as_terminal(monkeypatch)
    for argv in (["simulate", TTT, "-n", 20], ["verify", TTT, "-n", 5], ["bench", TTT, "--seconds", 0.2]):
        code, _, err = run(capsys, *argv, "--jobs", 1, *extra)
        assert code == 0 and err == ""


def test_no_progress_when_standard_error_is_not_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(progress, "FIRST_DRAW", 0)
    monkeypatch.setattr(progress, "INTERVAL", 0)
    code, _, err = run(capsys, "simulate", TTT, "-n", 20, "--jobs", 1)
    assert code == 0 and err == ""


def test_the_progress_line_shows_a_bar_a_rate_and_the_time_left():
    now = [0.0]
    stream = io.StringIO()
    line = progress.Progress(100, "simulating", stream=stream, clock=lambda: now[0])
    now[0] = 0.1
    line.update(5)                      # before FIRST_DRAW: nothing yet
    assert stream.getvalue() == ""
    now[0] = 2.0
    line.update(50)
    assert stream.getvalue() == "\rsimulating " + "█" * 12 + "░" * 12 + " 50/100 games · 25/s · 2 s left"
    now[0] = 2.05
    line.update(51)                     # within INTERVAL of the last drawing: not redrawn
    assert stream.getvalue().count("\r") == 1
    line.close()
    assert stream.getvalue().endswith("\r" + " " * len("simulating ") + " " * 24 + " " * len(" 50/100 games · 25/s · 2 s left") + "\r")
    line.update(60)                     # closed: nothing more
    assert stream.getvalue().count("simulating") == 1


def test_progress_is_wanted_only_on_a_terminal_without_json_or_quiet():
    class Terminal(io.StringIO):
        def isatty(self):
            return True
    args = argparse.Namespace(json=False, quiet=False)
    assert progress.wanted(args, Terminal()) and not progress.wanted(args, io.StringIO())
    assert not progress.wanted(argparse.Namespace(json=True, quiet=False), Terminal())
    assert not progress.wanted(argparse.Namespace(json=False, quiet=True), Terminal())


# ---- a hex map at the table: what its symbols mean, where the moves play --------------------

TITICACA = str(GAMES / "titicaca.rules")


def titicaca_at_the_table(capsys, monkeypatch, typed: str):
    """Seed 11, two players, P2 a random bot: P2 bids 15 and settles S@5.2 first; P1, who bid
    5, then chooses among the hexes around lake 1."""
    return run(capsys, "play", TITICACA, "--players", 2, "--bot", "2=random", "--seed", 11,
               stdin="bid 5\n" + typed, monkeypatch=monkeypatch)


def test_a_hex_map_says_what_its_symbols_stand_for(capsys, monkeypatch):
    _, out, _ = titicaca_at_the_table(capsys, monkeypatch, "quit\n")
    # the legend of the rules file, read from the hexes' attributes: one entry per symbol,
    # the numbered hexes as one range
    assert "  F forest · M meadow · N mountain · P pampa · S savanna · 01..15 lake (numbered)" in out.splitlines()


def test_the_hexes_a_listed_move_plays_on_show_its_number(capsys, monkeypatch):
    _, out, _ = titicaca_at_the_table(capsys, monkeypatch, "quit\n")
    shown = views(out)[1]
    listed = dict(re.findall(r"^ +(\d+)\. place on (\S+)$", out.split("P1> bid 5")[1], re.M))
    assert sorted(listed.values()) == ["F@6.5", "M@5.4", "N@6.1", "S@7.4"]
    lines = drawing(shown, "Map")
    columns = lines[0]
    for number, label in listed.items():
        row, col = label.split("@")[1].split(".")
        symbols = next(i for i, line in enumerate(lines) if line.split()[:1] == [row])
        # under the hex's symbol, on its marks line, centred under its column number
        middle = columns.index(f" {col} ") + len(col)
        assert lines[symbols + 1][middle - 1:middle + 2] == f"({number})"
    assert "  (3): an empty hex where move 3 of the list below plays" in lines
    # hexes that hold marks keep them, and no number shows once no listed move names a hex
    assert "P2/T?" in shown
    bids = views(out)[0]
    assert not re.search(r"\(\d+\)", "\n".join(drawing(bids, "Map")))


def test_a_move_is_typed_by_the_words_that_tell_it_apart(capsys, monkeypatch):
    code, out, _ = titicaca_at_the_table(capsys, monkeypatch, "M@5.4\nS@5.2\nT2 M@5.4\nquit\n")
    assert code == 3
    assert "P1> M@5.4\nP1: place on M@5.4" in out
    assert "P1> S@5.2\nP1: merge into the region of S@5.2" in out
    assert "P1> T2 M@5.4\nP1: build temple T2 on M@5.4" in out


def test_words_that_several_moves_hold_are_refused_with_those_moves(capsys, monkeypatch):
    _, out, _ = titicaca_at_the_table(capsys, monkeypatch, "4\n1\non T2\nM@5.4\n3\nquit\n")
    # M@5.4 is in both temple moves: refused, and the two are listed with their numbers
    assert ("refused: 'M@5.4' is in 2 moves: 1. build temple T1 on M@5.4; 2. build temple T2 on M@5.4 "
            "(type more of the name, or its number)") in out
    # a bare number is still a place in the list, and words in another order name no move
    assert "P1> 4\nP1: place on M@5.4" in out and "P1> 3\nP1: skip" in out
    assert "P1> on T2\nrefused: unknown move 'on T2'" in out


def test_skip_says_what_it_passes_up(capsys, monkeypatch):
    _, out, _ = titicaca_at_the_table(capsys, monkeypatch, "4\nmoves\nquit\n")
    assert "  2. skip  (no merge)" in out
    # the typed name is still 'skip': the note is not part of it
    code, out, _ = titicaca_at_the_table(capsys, monkeypatch, "4\nskip\nquit\n")
    assert "P1> skip\nP1: skip" in out and "3. skip  (no temple)" in out


def test_the_parts_of_a_board_are_listed_under_the_name_moves_give_them(capsys, monkeypatch):
    _, out, _ = titicaca_at_the_table(capsys, monkeypatch, "4\n1\nquit\n")
    after_merge = views(out)[-1]
    assert "area: the parts of Map, each named by one of its hexes:\n  S@5.2: S@5.2, M@5.4\n" in after_merge
    # before any village there is no part, and no such list
    assert "area:" not in views(out)[0]


def test_replay_shows_the_legend_of_a_hex_maps_symbols(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    run(capsys, "play", TITICACA, "--players", 2, "--bot", "all=random", "--seed", 2, "--quiet", "--log", log)
    code, out, _ = run(capsys, "replay", log)
    assert code == 0
    assert "  F forest · M meadow · N mountain · P pampa · S savanna · 01..15 lake (numbered)" in out.splitlines()
    # a replay lists no moves: no move numbers on the map
    assert "an empty hex where move 3" not in out


def test_events_printed_above_are_not_repeated_under_the_map(capsys, monkeypatch):
    _, out, _ = titicaca_at_the_table(capsys, monkeypatch, "quit\n")
    first, second = views(out)[:2]
    # before any move, the round's opening line is shown in the view (it was printed nowhere)
    assert "recent events:\n  round 1, lake 1: bid for the order of play" in first
    # then the events come as '»' lines just above the view, and the view does not repeat them
    assert "  » order of play: P2, P1\n  » P2 pays 15 and plays" in out
    assert "recent events:" not in second and "order of play" not in second
    # with --quiet there are no '»' lines: the view keeps its recent events
    code, out, _ = run(capsys, "play", TITICACA, "--players", 2, "--bot", "2=random", "--seed", 11, "--quiet",
                       stdin="bid 5\nquit\n", monkeypatch=monkeypatch)
    assert "  » " not in out and "recent events:" in views(out)[1] and "order of play: P2, P1" in views(out)[1]


def test_after_a_hand_over_the_next_human_sees_the_recent_events(capsys, monkeypatch):
    """With the terminal handed over (the screen cleared, on a terminal), the '»' lines printed
    before are gone: the next human's view shows the recent events again."""
    _, out, _ = run(capsys, "play", TITICACA, "--players", 2, "--bot", "all=human", "--hot-seat", "--seed", 11,
                    stdin="bid 5\n\nbid 3\nquit\n", monkeypatch=monkeypatch)
    p1, p2 = views(out)[:2]
    assert "view of P1" in p1 and "view of P2" in p2
    for shown in (p1, p2):
        assert "recent events:\n  round 1, lake 1: bid for the order of play" in shown


def test_a_refused_move_on_a_cell_no_legal_move_names_says_so(capsys, monkeypatch):
    _, out, _ = titicaca_at_the_table(capsys, monkeypatch, "plase on F@2.9\nquit\n")
    # a move no action's name fits, on a hex no listed move names: the cell is explained
    assert ("refused: unknown move 'plase on F@2.9'; did you mean 'place on F@6.5'? (F@2.9: no legal move "
            "plays there now; the hexes numbered on the map are where they do)") in out
    # a hex off the lake or taken: the reason of place's domain (`in spots() else`), and no note
    _, out, _ = titicaca_at_the_table(capsys, monkeypatch, "place on F@2.9\nplace on S@5.2\nquit\n")
    assert ("refused: 'place on F@2.9' is not possible now: F@2.9 is not an empty land hex beside lake 1, "
            "this round's lake\n") in out
    assert ("refused: 'place on S@5.2' is not possible now: S@5.2 is not an empty land hex beside lake 1, "
            "this round's lake\n") in out
    # a grid says it without the map's numbers; a refusal with the rules' reason gets no note
    _, out, _ = run(capsys, "play", TTT, "--seed", 1, stdin="b2\nput b2\nb2\nquit\n", monkeypatch=monkeypatch)
    assert "refused: unknown move 'put b2'; type 'moves' to list the legal ones (b2: no legal move plays there now)" in out
    assert "refused: 'b2' is not possible now (by the rules, mark[b2] must be none)\n" in out


# ---- what the rules mark `status` and `bookkeeping` ---------------------------------------

BOOKKEEPING = ("offer", "newest", "order")          # games/titicaca.rules marks them so


def listed_variables(view_text: str) -> list:
    """The names in a view's list of variables."""
    lines = view_text.split("\nvariables:\n", 1)[1].splitlines()
    names = []
    for line in lines:
        if not line.startswith("  ") or ": " not in line:
            break
        names.append(line.strip().split(":", 1)[0])
    return names


def test_the_status_line_shows_the_round_where_the_rules_mark_a_status_variable(capsys, monkeypatch):
    _, out, _ = titicaca_at_the_table(capsys, monkeypatch, "quit\n")
    first = views(out)[0]
    assert first.startswith("Titicaca · round 1 · P1 to move · scores P1 0 · P2 0 · view of P1\n")
    # the round is not listed again among the variables
    assert "round" not in listed_variables(first)
    # a game that marks no variable `status` keeps the turn
    _, out, _ = run(capsys, "play", TTT, "--seed", 1, "--bot", "2=first", stdin="b2\nquit\n", monkeypatch=monkeypatch)
    assert re.search(r"^Tic-tac-toe · turn 3 · P1 to move · view of P1$", out, re.M)


def test_bookkeeping_variables_are_not_listed_but_every_view_keeps_them(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    _, out, _ = run(capsys, "play", TITICACA, "--players", 2, "--bot", "2=random", "--seed", 11, "--log", log,
                    stdin="bid 5\n1\nquit\n", monkeypatch=monkeypatch)
    shown = views(out)[-1]
    assert listed_variables(shown) == ["weapons", "points", "arrow"]
    # public information still: in the views' values (--json), and to the leak finder, the
    # determinizations and OpenSpiel's observations
    code, out, _ = run(capsys, "replay", log, "--player", 1, "--json", monkeypatch=monkeypatch)
    final = json.loads(out)["final_view"]
    assert code == 0 and {"offer[P1]", "newest", "order", "round"} <= set(final["vars"])
    assert final["display"] == {"offer": "bookkeeping", "round": "status", "newest": "bookkeeping",
                                "order": "bookkeeping"}
    from referee.interpreter.tools.leaks import hidden_var_keys
    from referee.interpreter.adapters.openspiel_game import view_text
    game, _, _ = load_game(TITICACA, (), 2)
    state = game.new_initial_state(seed=11)
    state.apply("bid 5")
    for seat in (1, 2):
        assert not [key for key in hidden_var_keys(state, seat) if (key if isinstance(key, str) else key[0])
                    in BOOKKEEPING]
        assert all(f'"{name}' in view_text(state.view(seat)) for name in BOOKKEEPING)


def test_a_view_without_display_marks_lists_every_variable():
    view = {"game": "g", "turn": 4, "current": 2, "vars": {"round": "3", "order": "P2, P1", "gold[P1]": "2"}}
    assert render_view(view).startswith("g · turn 4 · P2 to move\n")
    assert "  round: 3" in render_view(view) and "  order: P2, P1" in render_view(view)
    marked = {**view, "display": {"round": "status", "order": "bookkeeping"}}
    text = render_view(marked)
    assert text.startswith("g · round 3 · P2 to move\n")
    assert "round:" not in text and "order" not in text and "  gold: P1=2" in text


def test_check_says_where_a_display_mark_says_nothing_or_cannot_be_shown(capsys, tmp_path):
    marked = tmp_path / "marked.rules"
    marked.write_text('game "Marked" { players 2 }\n'
                      'var wins[Player]: int status = 0\n'
                      'var steps: int hidden bookkeeping = 0\n'
                      'var round: int status = 0\n'
                      'var order: list of Player bookkeeping = []\n'
                      'action pass "pass" { }\nflow { turns from 1 { play pass } }\n')
    code, out, _ = run(capsys, "check", marked)
    assert code == 1
    assert f"{marked}:2:1: error[E214]: 'wins' has indexes, but the status line shows one value" in out
    assert f"{marked}:3:1: error[E214]: 'steps' is hidden: no view shows it, so 'bookkeeping' changes nothing" in out
    assert out.count("E214") == 2                       # a public round and a bookkeeping list are fine
