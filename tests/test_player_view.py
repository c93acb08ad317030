"""A view for players, not for programmers (issue 26): flow state out of sight, zones in words,
a zone or variable indexed twice as a table, moves grouped by their first part and typed in two
steps, values drawn on boards, one labelling per grid axis, one cell width per board set."""
from __future__ import annotations

import json
import re

from referee.interpreter.cli.session import listed_moves, move_groups
from referee.interpreter.engine import load_game
from referee.interpreter.engine.render import render_board, render_view, view_defaults, with_flow_state
from referee.interpreter.play.determinize import undrawn_secrets
from tests.conftest import GAMES
from tests.test_cli import CONTINENTS, run


def loaded(name, **options):
    game, diagnostics, _ = load_game(str(GAMES / f"{name}.rules"), **options)
    assert game is not None, diagnostics
    return game


def played(game, moves: int, seed: int = 3):
    """A state after `moves` moves, each the legal move at a fixed place in the list."""
    state = game.new_initial_state(seed=seed)
    for k in range(moves):
        if state.is_terminal():
            break
        legal = state.legal_moves()
        state.apply(legal[(7 * k + 3) % len(legal)])
    return state


def listed_names(text: str) -> set:
    """The names at the head of the lines of a view's list of variables."""
    lines = text.split("\nvariables:\n", 1)[1].split("\nrecent events:", 1)[0].splitlines() if "\nvariables:\n" in text else []
    return {line.split(":")[0].split()[0] for line in lines if line.startswith("  ") and not line.startswith("   ")}


# ---- 1. flow state out of sight ------------------------------------------------------------

def test_view_hides_flow_state():
    for name, flow in [("continents", {"quiet_turns", "struck", "tie_draw"}), ("liars-dice", {"last_rank"}),
                       ("solstis", {"met", "passes", "squares_before"})]:
        game = loaded(name)
        state = played(game, 6)
        view = state.view(1)
        assert flow <= {label.split("[")[0] for label in view["vars"]}, "every view keeps the flow state"
        text = render_view(view, view_defaults(game))
        assert not flow & listed_names(text), (name, listed_names(text))
        # asked for (view all, replay --all): under a heading of its own
        everything = render_view(with_flow_state(view), view_defaults(game))
        shown = everything.split("flow state (marked bookkeeping in the rules):\n", 1)[1]
        assert all(re.search(rf"^  {variable}\b", shown, re.M) for variable in flow), (name, shown)


def test_view_names_zones_in_words_not_index_syntax():
    game = loaded("continents", players=3)
    state = played(game, 12, seed=7)
    text = render_view(state.view(1), view_defaults(game))
    zones = text.split("\nzones:\n", 1)[1].split("\nvariables:", 1)[0]
    assert "P1's hand: " in zones and "P2's hand: 5 hidden" in zones
    assert "[" not in zones and "…" not in zones, zones


def test_view_all_at_the_prompt_and_replay_all(capsys, monkeypatch, tmp_path):
    log = tmp_path / "game.json"
    _, out, _ = run(capsys, "play", CONTINENTS, "--seed", 5, "--log", log, stdin="view all\nquit\n",
                    monkeypatch=monkeypatch)
    asked = out.split("P1> view all\n", 1)[1]
    assert "flow state (marked bookkeeping in the rules):\n  quiet_turns: 0\n  struck: no" in asked
    assert "flow state" not in out.split("P1> view all\n", 1)[0]
    _, plain, _ = run(capsys, "replay", log)
    assert "replayed 0 moves" in plain and "quiet_turns" not in plain
    _, everything, _ = run(capsys, "replay", log, "--all")
    assert "flow state (marked bookkeeping in the rules):" in everything and "  quiet_turns: 0" in everything
    _, as_json, _ = run(capsys, "replay", log, "--json")
    assert "quiet_turns" in json.loads(as_json)["final_view"]["vars"]


# ---- 2. continents: the places as a table, the moves by card -------------------------------

def test_continents_places_are_a_table():
    game = loaded("continents", players=3)
    state = game.new_initial_state(seed=7)
    build = next(m.name for m in state.legal_moves() if m.name.startswith("build"))
    house, continent, place = re.fullmatch(r"build (\w+ house) on ([A-Za-z ]+) (\d)", build).groups()
    state.apply(build)
    lines = render_view(state.view(2), view_defaults(game)).splitlines()
    head = next(k for k, line in enumerate(lines) if line.startswith("  place  "))
    # every place of the continents, the empty ones too, one row each, the continents across
    rows = lines[head + 1:head + 9]
    assert [row.split()[0] for row in rows] == [str(n) for n in range(1, 9)]
    row = rows[int(place) - 1]
    assert row[lines[head].index(continent):].startswith(f"{house} (P1)")
    assert all(row.split()[1:] == ["."] for n, row in enumerate(rows, start=1) if n != int(place))


def test_a_variable_indexed_twice_is_a_table(write_rules):
    path = write_rules('''game "Dice" { players 2 }
var roll[Player, 1..3]: int = 1
action go "go" { roll[current, 2] = 6 }
flow { turns from 1 until roll[2, 2] == 6 { play go } }
''')
    game, diagnostics, _ = load_game(str(path))
    assert game is not None, diagnostics
    state = game.new_initial_state()
    state.apply("go")
    text = render_view(state.view(1))
    assert "  roll  1  2  3\n  P1    1  6  1\n  P2    1  1  1" in text
    assert "P1,1=" not in text
    # one die each (liar's dice): the seats alone, no table of one column
    game = loaded("liars-dice")
    state = game.new_initial_state(seed=2)
    text = render_view(state.view(1), view_defaults(game))
    assert re.search(r"^  roll: P1=[1-6]$", text, re.M) and "P1,1" not in text


def test_continents_moves_are_grouped_by_card():
    game = loaded("continents")
    state = game.new_initial_state(seed=5)
    names = state.legal_move_names()
    assert len(names) > 50
    groups = {group.head: group for group in move_groups(state, names)}
    assert {"build straw house", "build wood house", "build stone house", "exchange", "pass"} <= set(groups)
    assert groups["build wood house"].rests[:2] == ("on South America 1", "on South America 2")
    lines = listed_moves(state, names)
    assert len(lines) < 15 and any(line.startswith("  build wood house   24 moves: on South America 1, 2, 3") for line in lines)
    assert f"  {names.index('pass') + 1}. pass" in lines, "a move alone keeps its number"


def test_a_card_typed_then_a_place_plays_that_move(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", CONTINENTS, "--seed", 5, stdin="wood house\nOceania 3\nEurope 3\nquit\n",
                       monkeypatch=monkeypatch)
    assert code == 3
    assert "P1> wood house\nbuild wood house: type the rest of the move" in out
    assert "  11. on Europe 3" in out.split("P1> wood house", 1)[1]
    # a slip is refused and the group stays; the rest of a move plays it
    assert "P1 build wood house> Oceania 3\nrefused: unknown move 'Oceania 3'" in out
    assert "P1 build wood house> Europe 3\nP1: build wood house on Europe 3" in out


def test_few_moves_are_listed_as_before():
    game = loaded("tic-tac-toe")
    state = game.new_initial_state()
    assert listed_moves(state, state.legal_move_names()) == [f"  {k}. {name}" for k, name in
                                                              enumerate(state.legal_move_names(), start=1)]


# ---- 3. values drawn, not '.' ----------------------------------------------------------------

def test_board_cell_draws_initial_value(write_rules):
    path = write_rules('''game "Pits" { players 2 }
board Pit: grid 2 by 3
var seeds[Pit]: int = 4
var stone[Pit]: Player? = none
var lit[Pit]: bool = false
action sow(p in Pit where seeds[p] > 0) "sow {p}" { seeds[p] = 0  stone[p] = current }
flow { turns from 1 until all(p in Pit: seeds[p] == 0) { play sow } }
''')
    game, diagnostics, _ = load_game(str(path))
    assert game is not None, diagnostics
    state = game.new_initial_state()
    state.apply("sow a1")
    board = state.view(1)["boards"]["Pit"]
    marks = {cell["label"]: cell["marks"] for cell in board["cells"]}
    assert marks["b2"] == ["4"], "a pit at its starting 4 is not empty"
    assert marks["a1"] == ["0", "P1"], "0 is a value too"
    lines = render_board(board)
    assert lines[1].split() == ["2", "4", "4", "4"]
    assert lines[2].split()[:3] == ["1", "0", "4"]


# ---- 4. one labelling per grid axis ---------------------------------------------------------

def test_connect_four_board_labels_are_typeable():
    game = loaded("connect-four")
    state = game.new_initial_state()
    lines = render_board(state.view(1)["boards"]["Cell"])
    top, bottom = lines[0].split(), lines[-1].split()
    assert top == bottom == [str(n) for n in range(1, 8)]
    assert all(state.find_move(label) for label in top), "each column label is a move"
    # a board whose moves name cells keeps its letters, above and below
    ttt = loaded("tic-tac-toe")
    state = ttt.new_initial_state()
    lines = render_board(state.view(1)["boards"]["Cell"])
    assert lines[0].split() == lines[-1].split() == ["a", "b", "c"]
    assert state.find_move(f"{lines[0].split()[2]}{lines[1].split()[0]}").name == "c3"


# ---- 5. solstis ------------------------------------------------------------------------------

def test_solstis_boards_share_a_column_width():
    game = loaded("solstis")
    state = played(game, 6, seed=13)
    boards = state.view(1)["boards"]
    # drawn alone, the two boards would have columns of different widths here
    alone = [render_board(boards[f"Pos[P{p}]"])[0] for p in (1, 2)]
    assert len(alone[0]) != len(alone[1])
    text = render_view(state.view(1), view_defaults(game)).splitlines()
    heads = [text[text.index(f"P{p}'s Pos:") + 1] for p in (1, 2)]
    assert heads[0] == heads[1] == max(alone, key=len)


def test_ismcts_says_nothing_of_solstis_flow_state():
    # squares_before is read from the public panoramas: public bookkeeping, no secret kept
    assert undrawn_secrets(loaded("solstis")) == []
