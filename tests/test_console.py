"""Colour at the table (interpreter/console.py): the coloured output is the plain text with
styles added (the same characters once the styles are stripped); plain text, with no escape
code, where standard output is not a terminal, with --plain, NO_COLOR or TERM=dumb, and --json
always plain JSON."""
from __future__ import annotations

import argparse
import io
import json
import os
import re
import subprocess
import sys

import pytest
from rich.console import Console

from referee.dsl.diagnostics import RulesError
from referee.interpreter.cli import colour
from referee.interpreter.play.bots import RandomBot
from referee.interpreter.cli.arguments import build_parser
from referee.interpreter.cli.main import main
from referee.interpreter.cli.colour import Colour, seat_style, styled_diagnostics, styled_refusal, styled_view
from referee.interpreter.cli.console import Table, for_command, wants_colour
from referee.interpreter.engine import load_game
from referee.interpreter.engine.render import at_the_table, render_view, symbol_legends, view_defaults, view_sections

from .test_cli import BROKEN, DEAD_END, ROOT, TTT

ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
TITICACA = str(ROOT / "games" / "titicaca.rules")
CHECKERS = str(ROOT / "games" / "checkers.rules")


class Tty(io.StringIO):
    """A standard output that says it is a terminal."""

    def isatty(self):
        return True


def recording(width=100):
    return Console(file=io.StringIO(), force_terminal=True, color_system="truecolor", width=width, record=True,
                   highlight=False, markup=False, emoji=False, soft_wrap=True)


def played(path, moves, seed=3, players=None):
    """A game after `moves` random moves (fewer if it ends first)."""
    game, diagnostics, _ = load_game(path, (), players)
    assert game is not None, diagnostics
    state, bot = game.new_initial_state(seed=seed), RandomBot(seed)
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply(bot.choose(state))
    return game, state


def style_at(text, offset):
    return text.get_style_at_offset(recording(), offset)


def colour_of(text, offset):
    style = style_at(text, offset)
    return style.color.name if style.color is not None else None


# ---- views -------------------------------------------------------------------------------

@pytest.mark.parametrize("path, moves", [(TTT, 5), (TITICACA, 12), (CHECKERS, 20),
                                         (str(ROOT / "games" / "continents.rules"), 30),
                                         (str(ROOT / "games" / "othello.rules"), 10)])
def test_a_coloured_view_is_the_plain_view_with_styles(path, moves):
    game, state = played(path, moves)
    for seat in (1, 0):                     # a seat's view and a spectator's
        view, defaults = state.view(seat), view_defaults(game)
        terminal = recording()
        Colour(terminal).view(view, defaults)
        written = terminal.file.getvalue()
        assert ESCAPE.search(written)
        assert ESCAPE.sub("", written) == render_view(view, defaults) + "\n"
        assert terminal.export_text(styles=False) == render_view(view, defaults) + "\n"


def board_marks(view):
    """(offset in styled_view's text, mark, section) of every mark drawn on the boards."""
    found, at = [], 0
    for section in view_sections(view):
        starts = [at]
        for line in section.lines:
            starts.append(starts[-1] + len(line) + 1)
        for spot in section.spots or ():
            offset = starts[spot.line] + spot.start
            for mark in spot.marks:
                found.append((offset, mark, spot))
                offset += len(mark) + 1
        at = starts[-1]
    return found


def test_each_mark_is_in_its_seats_colour():
    game, state = played(TTT, 0)
    for name in ("b2", "a1", "c3"):
        state.apply(name)
    view = state.view(1)
    text = styled_view(view)
    marks = board_marks(view)
    assert sorted(mark for _, mark, _ in marks) == ["P1", "P1", "P2"]
    for offset, mark, _ in marks:
        assert text.plain[offset:offset + 2] == mark
        assert colour_of(text, offset) == colour_of(text, offset + 1) == seat_style(int(mark[1]))
        assert style_at(text, offset).bold
    assert seat_style(1) != seat_style(2)
    empty = text.plain.index("  .", text.plain.index("Cell:")) + 2       # an empty cell keeps no colour
    assert colour_of(text, empty) is None


def test_a_component_mark_is_in_its_owners_colour_whole():
    _, state = played(CHECKERS, 6)
    view = state.view(1)
    text = styled_view(view)
    men = [(offset, mark) for offset, mark, _ in board_marks(view) if mark.endswith(" man")]
    assert {mark for _, mark in men} == {"P1 man", "P2 man"}
    for offset, mark in men:
        assert all(colour_of(text, offset + k) == seat_style(int(mark[1])) for k in range(len(mark)))


@pytest.mark.slow
def test_a_mark_that_names_no_seat_takes_its_owner_from_the_cells_zone():
    # titicaca's tiles under the players' pieces are masked ('T?') but owned
    seen = 0
    for seed in range(1, 6):
        _, state = played(TITICACA, 14, seed=seed, players=2)
        view = state.view(1)
        text = styled_view(view)
        for offset, mark, spot in board_marks(view):
            if mark != "T?":
                continue
            assert text.plain[offset:offset + 2] == "T?"
            owner = colour.owners_by_cell(view, view["boards"]["Map"])[spot.cell["label"]]["T?"]
            assert colour_of(text, offset) == colour_of(text, offset + 1) == seat_style(owner)
            seen += 1
    assert seen


def test_the_seat_to_move_is_highlighted_and_the_result_green():
    game, state = played(TTT, 2)
    text = styled_view(state.view(1))
    at = text.plain.index("P1 to move")
    style = style_at(text, at + 3)
    assert style.reverse and style.bold and style.color.name == seat_style(1)
    while not state.is_terminal():
        state.apply(state.legal_moves()[0])
    text = styled_view(state.view(0))
    at = text.plain.index("game over: ")
    assert style_at(text, at).color.name == "green" and style_at(text, at).bold


def test_a_hex_maps_borders_and_coordinates_are_styled_not_changed():
    game, state = played(TITICACA, 30, players=2)
    view = state.view(0)
    text = styled_view(view)
    assert text.plain == render_view(view)
    border = text.plain.index("│")
    assert colour_of(text, border) == "bright_black"
    legend = text.plain.index("a hex is SYMBOL@ROW.COL")
    assert style_at(text, legend).dim


# ---- refusals, diagnostics, tables -------------------------------------------------------

def test_a_refusal_is_red_with_its_reason():
    text = styled_refusal("refused: unknown move 'z9'; type 'moves' to list the legal ones")
    assert text.plain == "refused: unknown move 'z9'; type 'moves' to list the legal ones"
    assert colour_of(text, 0) == "red" and style_at(text, 0).bold
    assert colour_of(text, text.plain.index("unknown")) == "red"


def test_diagnostics_keep_their_text_with_the_caret_line_red(tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text(BROKEN)
    game, diagnostics, sources = load_game(str(broken))
    assert game is None
    text = styled_diagnostics(diagnostics, sources)
    assert text.plain == RulesError(diagnostics, sources).render()
    lines = text.plain.split("\n")
    caret_line = next(k for k, line in enumerate(lines) if line.rstrip().endswith("^"))
    caret = sum(len(line) + 1 for line in lines[:caret_line]) + lines[caret_line].index("^")
    assert colour_of(text, caret) == "red" and style_at(text, caret).bold
    code = text.plain.index("error[E202]")
    assert colour_of(text, code) == "red"
    assert colour_of(text, text.plain.index("help:")) == "cyan"


def test_summaries_say_errors_in_red_and_ok_in_green():
    from referee.interpreter.cli.colour import REPORT_STYLES, styled_line
    assert colour_of(styled_line("finished 3 · runtime errors 2", REPORT_STYLES), 13) == "red"
    assert colour_of(styled_line("finished 3 · runtime errors 0", REPORT_STYLES), 13) is None
    assert colour_of(styled_line("games/x.rules: ok", REPORT_STYLES), 15) == "green"
    assert colour_of(styled_line("played 0, legal 0  <- never", REPORT_STYLES), 20) == "red"
    one_sided = styled_line("evaluated 27, true 0, false 27  <- never true", REPORT_STYLES)
    assert colour_of(one_sided, 33) == "yellow"
    labelled = styled_line("wins: P1 3 (50%) · P2 3 (50%)", REPORT_STYLES)
    assert style_at(labelled, 0).bold and colour_of(labelled, 6) == seat_style(1)


def test_table_lines_are_plain_columns():
    table = Table(["seat", "wins", "rate"], [["P1", 3, "50%"], ["draws", 12, ""]])
    assert table.lines() == ["seat   wins  rate", "P1        3   50%", "draws    12"]
    table = Table(("rule", "line", "code"), [("C-1", "7", "x = 1"), ("C-22", "10", "")], indent="  ",
                  align=("left", "right", "left"))
    assert table.lines() == ["  rule  line  code", "  C-1      7  x = 1", "  C-22    10"]


@pytest.mark.parametrize("width", [100, 20])
def test_a_table_in_colour_is_a_rich_table_of_the_same_characters(width):
    table = Table(["", "base", "variant", "change"], [["P1 win rate", "40.0%", "45.0%", "+5.0 pts"],
                                                     ["mean length", "74.4", "n/a", "n/a"]], indent="  ")
    terminal = recording(width)             # narrower than the table: it is not wrapped
    Colour(terminal).table(table)
    written = terminal.file.getvalue()
    assert ESCAPE.search(written)
    assert ESCAPE.sub("", written) == "\n".join(table.lines()) + "\n"


# ---- deciding: terminal, --plain, NO_COLOR, TERM=dumb, --json --------------------------------

def test_colour_only_on_a_terminal_without_plain_json_or_no_color():
    colourful = argparse.Namespace(json=False, plain=False)
    assert wants_colour(colourful, Tty(), {})
    assert not wants_colour(colourful, io.StringIO(), {})
    assert not wants_colour(argparse.Namespace(json=False, plain=True), Tty(), {})
    assert not wants_colour(argparse.Namespace(json=True, plain=False), Tty(), {})
    assert not wants_colour(colourful, Tty(), {"NO_COLOR": "1"})
    assert wants_colour(colourful, Tty(), {"NO_COLOR": ""})          # no-color.org: set and not empty
    assert not wants_colour(colourful, Tty(), {"TERM": "dumb"})
    closed = io.StringIO()
    closed.close()                                      # isatty() raises ValueError
    assert not wants_colour(colourful, closed, {})
    assert isinstance(for_command(colourful, Tty(), {}), Colour)
    assert not for_command(colourful, io.StringIO(), {}).colour


def test_every_command_that_prints_takes_plain(capsys):
    commands = build_parser().commands
    for name in ("check", "play", "simulate", "analyze", "tournament", "replay", "bench", "rulebook", "verify",
                 "compile", "completion"):
        assert "--plain" in commands[name]._option_string_actions, name
    assert "--plain" not in commands["lsp"]._option_string_actions          # a server, for editors
    # what compile and completion print (code) is never coloured: --plain changes nothing
    assert main(["compile", TTT]) == 0
    module = capsys.readouterr().out
    assert main(["compile", TTT, "--plain"]) == 0 and capsys.readouterr().out == module


def run_on(stdout, monkeypatch, *argv, stdin=None):
    """main(argv) with `stdout` as standard output: (exit code, what it wrote)."""
    monkeypatch.setattr(sys, "stdout", stdout)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(word) for word in argv])
    monkeypatch.setattr(sys, "stdout", sys.__stdout__)
    return code, stdout.getvalue()


def timeless(text):
    return re.sub(r"\d+\.\d\d s\b", "X s", text)


@pytest.fixture
def colour_allowed(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")


def ttt_log(tmp_path, monkeypatch):
    log = tmp_path / "game.json"
    assert run_on(io.StringIO(), monkeypatch, "play", TTT, "--bot", "all=first", "--seed", 0, "--quiet",
                  "--log", log)[0] == 0
    return log


COMMANDS = {
    "play": ["play", TTT, "--bot", "all=random", "--seed", 4],
    "play-brief": ["play", TITICACA, "--bot", "all=random", "--seed", 4, "--brief"],
    "check": ["check", TTT, "BROKEN"],
    "simulate": ["simulate", TTT, "-n", 6, "--jobs", 1, "--coverage"],
    "analyze": ["analyze", TTT, "-n", 6, "--jobs", 1],
    "tournament": ["tournament", TTT, "--bot", "random", "--bot", "first", "-n", 2, "--jobs", 1],
    "verify": ["verify", TTT, "-n", 2, "--jobs", 1],
    "rulebook": ["rulebook", str(ROOT / "games" / "continents.rules")],
    "replay": ["replay", "LOG"],
}


@pytest.mark.parametrize("name", COMMANDS)
@pytest.mark.slow
def test_on_a_terminal_the_output_is_coloured_and_otherwise_the_same(name, colour_allowed, monkeypatch, tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text(BROKEN)
    argv = [{"BROKEN": broken, "LOG": ttt_log(tmp_path, monkeypatch)}.get(word, word) for word in COMMANDS[name]]
    code, plain = run_on(io.StringIO(), monkeypatch, *argv)
    colour_code, coloured = run_on(Tty(), monkeypatch, *argv)
    assert colour_code == code
    assert ESCAPE.search(coloured)
    assert timeless(ESCAPE.sub("", coloured)) == timeless(plain)
    flag_code, flagged = run_on(Tty(), monkeypatch, *argv, "--plain")
    assert flag_code == code and "\x1b" not in flagged and timeless(flagged) == timeless(plain)


def test_no_color_and_a_dumb_terminal_are_plain(colour_allowed, monkeypatch):
    argv = ["play", TTT, "--bot", "all=first", "--seed", 0]
    _, plain = run_on(io.StringIO(), monkeypatch, *argv)
    monkeypatch.setenv("NO_COLOR", "1")
    assert run_on(Tty(), monkeypatch, *argv)[1] == plain
    monkeypatch.setenv("NO_COLOR", "")
    assert "\x1b[" in run_on(Tty(), monkeypatch, *argv)[1]
    monkeypatch.setenv("TERM", "dumb")
    assert run_on(Tty(), monkeypatch, *argv)[1] == plain


def test_json_on_a_terminal_is_plain_json(colour_allowed, monkeypatch):
    for argv in (["simulate", TTT, "-n", 3, "--jobs", 1, "--json"], ["check", TTT, "--json"],
                 ["simulate", TTT, "-n", 0, "--json"]):
        _, written = run_on(Tty(), monkeypatch, *argv)
        assert "\x1b" not in written
        json.loads(written)


def test_a_refused_move_is_red_on_a_terminal(colour_allowed, monkeypatch):
    code, written = run_on(Tty(), monkeypatch, "play", TTT, "--seed", 1, "--bot", "2=first", stdin="z9\nquit\n")
    assert code == 3
    refusal = next(line for line in written.splitlines() if "refused" in line)
    assert ESCAPE.sub("", refusal) == "refused: unknown move 'z9'; type 'moves' to list the legal ones"
    assert refusal.startswith("\x1b[1;31m")                  # bold red


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a pseudo-terminal of Linux")
@pytest.mark.slow
def test_a_real_terminal_gets_colour_and_plain_asks_for_none():
    import pty

    def through_a_terminal(*argv):
        master, slave = pty.openpty()
        env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
        done = subprocess.Popen([sys.executable, "-m", "referee", *argv], cwd=ROOT, stdout=slave,
                                stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                                env={**env, "TERM": "xterm-256color", "COLUMNS": "100"})
        os.close(slave)
        written = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:             # the terminal closed with the command
                break
            if not chunk:
                break
            written += chunk
        os.close(master)
        assert done.wait(timeout=60) == 0
        return written.decode().replace("\r\n", "\n")
    argv = ("play", TTT, "--bot", "all=first", "--seed", "0")
    coloured = through_a_terminal(*argv)
    plain = subprocess.run([sys.executable, "-m", "referee", *argv], cwd=ROOT, capture_output=True, text=True,
                           timeout=60).stdout
    assert "\x1b[" in coloured and ESCAPE.sub("", coloured) == plain
    assert through_a_terminal(*argv, "--plain") == plain


def test_at_the_table_a_hex_maps_legend_and_move_numbers_keep_the_plain_text():
    """The legend of the symbols and the numbers of the listed moves on their hexes: the
    same characters in colour, the legend dim, each number bold."""
    game, state = played(TITICACA, 2, players=2)
    bot = RandomBot(1)
    # the second player to place, once the first one's village stands (a part to list)
    while not (state.history[-1] == "skip" or state.history[-1].startswith("build temple")):
        state.apply(bot.choose(state))
    names = state.legal_move_names()
    assert names and all(name.startswith("place on ") for name in names)
    view = at_the_table(state.view(state.current_player()), symbol_legends(game, state), names)
    text = styled_view(view)
    assert text.plain == render_view(view)
    legend = text.plain.index("F forest · M meadow")
    assert style_at(text, legend).dim
    for number in range(1, len(names) + 1):
        at = text.plain.index(f"({number})")
        assert all(style_at(text, at + k).bold for k in range(len(f"({number})")))
    listed = text.plain.index("area: the parts of Map")
    assert style_at(text, listed).bold


# ---- standard error --------------------------------------------------------------------

def errors_on(stderr, monkeypatch, *argv):
    """main(argv) with `stderr` as standard error (standard output a terminal, written to
    nowhere): (exit code, what went to standard error)."""
    monkeypatch.setattr(sys, "stderr", stderr)
    code = run_on(Tty(), monkeypatch, *argv)[0]
    monkeypatch.setattr(sys, "stderr", sys.__stderr__)
    return code, stderr.getvalue()


def failing_commands(tmp_path):
    """Command lines that write to standard error, by what they write there."""
    broken, stuck = tmp_path / "broken.rules", tmp_path / "stuck.rules"
    broken.write_text(BROKEN)
    stuck.write_text(DEAD_END)
    return {
        "diagnostics": ["play", broken, "--bot", "all=random"],
        "usage": ["play", TTT, "--players", 7],
        "missing file": ["simulate", tmp_path / "nowhere.rules", "-n", 2],
        "runtime error": ["play", stuck, "--bot", "all=random", "--seed", 7, "--brief"],
        "unparsed command line": ["play", TTT, "--no-such-flag"],
    }


def test_standard_error_is_coloured_on_a_terminal_and_otherwise_the_same(colour_allowed, monkeypatch, tmp_path):
    for what, argv in failing_commands(tmp_path).items():
        code, plain = errors_on(io.StringIO(), monkeypatch, *argv)
        assert code != 0 and plain and "\x1b" not in plain, what
        colour_code, coloured = errors_on(Tty(), monkeypatch, *argv)
        assert colour_code == code and ESCAPE.search(coloured), what
        assert ESCAPE.sub("", coloured) == plain, what
        # --plain, NO_COLOR and a dumb terminal keep a terminal's standard error plain too
        assert errors_on(Tty(), monkeypatch, *argv, "--plain")[1] == plain, what
        monkeypatch.setenv("NO_COLOR", "1")
        assert errors_on(Tty(), monkeypatch, *argv)[1] == plain, what
        monkeypatch.setenv("TERM", "dumb")
        assert errors_on(Tty(), monkeypatch, *argv)[1] == plain, what
        monkeypatch.delenv("NO_COLOR")
        monkeypatch.setenv("TERM", "xterm-256color")


def test_standard_error_is_decided_on_its_own_stream(colour_allowed, monkeypatch, tmp_path):
    """Standard output a terminal, standard error a file (2>log): the file gets plain text."""
    argv = failing_commands(tmp_path)["missing file"]
    assert errors_on(io.StringIO(), monkeypatch, *argv)[1] == f"referee: {argv[1]}: no such file\n"


def test_an_error_on_standard_error_is_red_and_a_diagnostic_as_check_colours_it(colour_allowed, monkeypatch, tmp_path):
    commands = failing_commands(tmp_path)
    _, missing = errors_on(Tty(), monkeypatch, *commands["missing file"])
    assert missing.startswith("\x1b[1;31mreferee:\x1b[0m\x1b[31m ")           # bold red, then red
    _, diagnostics = errors_on(Tty(), monkeypatch, *commands["diagnostics"])
    game, found, sources = load_game(str(tmp_path / "broken.rules"))
    terminal = recording()
    Colour(terminal).diagnostics(found, sources)
    assert diagnostics == terminal.file.getvalue()       # the same styles as check's on stdout
    _, usage = errors_on(Tty(), monkeypatch, *commands["usage"])
    mistake = next(line for line in usage.splitlines() if "error:" in line)
    assert mistake.startswith("\x1b[1;31mreferee play:")
    assert usage.startswith("\x1b[2musage: ")                                 # dim: the mistake stands out


def test_styled_error_styles_each_kind_of_line():
    from referee.interpreter.cli.colour import styled_error
    text = styled_error("runtime error: P2 must play (put) but has no legal move\n  at x.rules:11:5\n"
                        "   |\n11 |     play put\n   |     ^^^^^^^^\n(after 3 moves; seed 7)\n"
                        "note: ismcts does not draw the hidden variables again")
    plain = text.plain
    assert colour_of(text, 0) == "red" and style_at(text, 0).bold
    assert colour_of(text, plain.index("P2")) == seat_style(2)
    assert style_at(text, plain.index("at x.rules")).dim
    assert colour_of(text, plain.index("11 |")) == "blue"
    assert colour_of(text, plain.index("^")) == "red"
    assert colour_of(text, plain.index("play put")) is None                     # the source as it is
    assert style_at(text, plain.index("(after")).dim
    assert colour_of(text, plain.index("note:")) == "yellow"
    assert colour_of(text, plain.index("ismcts")) is None
