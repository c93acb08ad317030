"""What the other players see of a move: sealed simultaneous moves stay secret until the reveal,
owner-only attributes are masked in move texts, choices, the log and board drawings; the CLI
prints the public texts. Also how a hex map and a board split into parts are drawn.

Each test uses a small game written here; nothing is specific to one game of games/.
"""
from __future__ import annotations

import json

from referee.dsl.types import type_of
from referee.interpreter.cli import main as cli
from referee.interpreter.engine import PUBLIC, load_game
from referee.interpreter.engine.render import render_view

SECRETS = '''game "Secrets" {
  players 2..3
  score p: points[p]
}
component Seal { value: int owner } label "seal {value}"
zone seals[Player]: set of Seal public
zone played: set of Seal public
board Spot: grid 1 by 3
zone spot[Spot]: set of Seal public
var points[Player]: int = 0
var offer[Player]: int = 0
var rounds: int = 0

setup {
  for p in players {
    create 1 Seal { value: 1, owner: p } in seals[p]
    create 1 Seal { value: 2, owner: p } in seals[p]
  }
}

action bid(n in 1..3) "bid {n}" {
  offer[current] = n
}
action show(x in seals[current]) "show {x}" {
  move x to played
  points[current] += x.value
  log "{current} shows {x}"
}
action hide "hide" {
  choose x in seals[current] "which seal?" {
    move x to spot[Spot(1, current)]
  }
}

flow {
  repeat {
    rounds += 1
    simultaneous p in players {
      play bid
    }
    for p in players {
      turn p {
        play optional show, hide
      }
    }
  } until rounds >= 2
}
'''


def game(tmp_path, players=2):
    path = tmp_path / "secrets.rules"
    path.write_text(SECRETS)
    loaded, diagnostics, _ = load_game(str(path), players=players)
    assert not diagnostics, diagnostics
    return loaded


def test_a_sealed_move_is_public_only_once_every_player_has_chosen(tmp_path):
    s = game(tmp_path, players=3).new_initial_state(0)
    assert s.sealed() and s.current_player() == 1
    s.apply("bid 2")
    assert s.public_history == [(1, None)] and s.history == ["bid 2"]
    assert s.view(2)["moves"] == ["P1 has chosen"] and s.view(1)["moves"] == ["P1: bid 2"]
    assert s.view(2)["sealed"] == [1]
    s.apply("bid 3")
    assert s.view(3)["moves"] == ["P1 has chosen", "P2 has chosen"]
    assert "3" not in json.dumps(s.view(1)["moves"])            # P1 does not see P2's bid
    s.apply("bid 1")
    # all three become known together
    assert s.public_history == [(1, "bid 2"), (2, "bid 3"), (3, "bid 1")]
    assert not s.sealed()
    for p in (1, 2, 3):
        assert s.view(p)["moves"] == ["P1: bid 2", "P2: bid 3", "P3: bid 1"]


def test_owner_only_attributes_are_masked_in_move_texts_the_log_and_drawings(tmp_path):
    s = game(tmp_path).new_initial_state(0)
    s.apply("bid 1")
    s.apply("bid 1")
    assert s.current_player() == 1 and "show seal 2" in s.legal_move_names()
    s.apply("show seal 2")
    assert s.history[-1] == "show seal 2"
    assert s.public_history[-1] == (1, "show seal ?")
    assert s.view(2)["moves"][-1] == "P1: show seal ?" and s.view(1)["moves"][-1] == "P1: show seal 2"
    assert s.log[-1] == "P1 shows seal ?"                        # the log is public
    # a choice among secret components: the option is masked for the others too
    s.apply("hide")
    assert s.pending is not None and s.legal_move_names() == ["seal 1", "seal 2"]
    s.apply("seal 2")
    assert s.public_history[-2:] == [(2, "hide"), (2, "seal ?")]
    assert s.view(1)["moves"][-1] == "P2: seal ?" and s.view(2)["moves"][-1] == "P2: seal 2"
    # on a board drawing, the owner sees the value, the others do not
    marks = {p: [m for c in s.view(p)["boards"]["Spot"]["cells"] for m in c["marks"]] for p in (1, 2)}
    assert marks == {1: ["seal ?"], 2: ["seal 2"]}
    # the public labeler masks for everybody, a seat's labeler for the others only
    seal = s.zones[("spot", s.game.geometries["Spot"].at[(1, 2)])][0]
    seal_type = type_of("Seal")
    assert s.game.labeler(seal_type, PUBLIC)(s, seal) == "seal ?"
    assert s.game.labeler(seal_type, 2)(s, seal) == "seal 2" and s.game.labeler(seal_type)(s, seal) == "seal 2"


def test_the_history_still_replays_by_name(tmp_path):
    g = game(tmp_path)
    s = g.new_initial_state(0)
    for name in ["bid 3", "bid 2", "show seal 1", "hide", "seal 2", "bid 1", "bid 1", "skip", "skip"]:
        s.apply(name)
    assert s.is_terminal()
    again = g.new_initial_state(0)
    for name in s.history:
        again.apply(name)
    assert again.public_history == s.public_history and again.scores() == s.scores()
    assert s.clone().public_history == s.public_history


def test_the_cli_prints_what_the_other_players_see(tmp_path, capsys):
    path = tmp_path / "secrets.rules"
    path.write_text(SECRETS)
    code = cli.main(["play", str(path), "--bot", "all=random", "--seed", "4", "--brief"])
    out = capsys.readouterr().out
    assert code == 0
    assert "P1 has chosen" in out and "P2 has chosen" in out
    assert "» P1 reveals: bid " in out and "» P2 reveals: bid " in out
    assert "P1: bid" not in out                                 # a spectator sees no sealed bid
    shown = [line for line in out.splitlines() if ": show seal" in line or "shows seal" in line]
    assert all("seal ?" in line for line in shown)


def test_the_cli_shows_the_only_human_their_own_moves(tmp_path, monkeypatch, capsys):
    path = tmp_path / "secrets.rules"
    path.write_text(SECRETS)
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.StringIO("bid 2\nshow seal 2\nquit\n"))
    cli.main(["play", str(path), "--seed", "1"])
    out = capsys.readouterr().out
    assert "P1: bid 2" in out and "P1: show seal 2" in out
    assert "P2 has chosen" in out and "» P2 reveals: bid" in out


HEXES = '''game "Parts" {
  players 2
}
enum Ground { dry, wet }
board Hex: hexmap """
  A   B   A
    B  01
""" {
  "A": { ground: dry }
  "B": { ground: dry }
  "#": { ground: wet }
}
var part[Hex]: Hex? = none
var mark[Hex]: Player? = none

action claim(h in Hex where mark[h] == none and h.ground == dry) "claim {h}" {
  mark[h] = current
  let joined = first(x in neighbors(h) where part[x] != none)
  part[h] = joined == none ? h : part[joined]
}
flow {
  turns from 1 until count(h in Hex where h.ground == dry and mark[h] == none) == 0 {
    play claim
  }
}
'''


def test_a_hex_map_shows_its_symbols_and_the_borders_of_a_cell_valued_variables_parts(tmp_path):
    path = tmp_path / "parts.rules"
    path.write_text(HEXES)
    g, diagnostics, _ = load_game(str(path))
    assert not diagnostics, diagnostics
    s = g.new_initial_state(0)
    for name in ["claim A@1.1", "claim A@1.5", "claim B@1.3"]:
        s.apply(name)
    board = s.view(1)["boards"]["Hex"]
    assert board["parts"] == ["part"]
    # the parts are drawn by their borders, not marked cell by cell
    marks = {c["label"]: c["marks"] for c in board["cells"]}
    assert marks["A@1.1"] == ["P1"] and marks["B@1.3"] == ["P1"] and marks["A@1.5"] == ["P2"]
    lines = render_view(s.view(1)).splitlines()
    header, symbols, owners, between, second = lines[lines.index("Hex:") + 1:lines.index("Hex:") + 6]
    assert symbols.split() == ["1", "A", "│", "B", "A"] and owners.split() == ["P1", "│", "P1", "P2"]
    # A@1.1 and A@1.5 make two parts; B@1.3, beside both, joins the part of A@1.5 (its first
    # neighbour in a part): one border, between A@1.1 and B@1.3, half way between them
    wall = symbols.index("│")
    assert symbols.index("A") < wall < symbols.index("B") and owners.index("│") == wall
    # below the first row, every hex of a part meets a hex in none: a border under each side
    assert between.split() == ["╱", "╲", "╱", "╲"]
    assert second.split() == ["2", "B", "01"]
    assert "  lines outline the parts of part, listed below" in lines
    # the parts are drawn and listed under the cell that names each, not among the variables
    listed = lines.index("part: the parts of Hex, each named by one of its hexes:")
    assert lines[listed + 1:listed + 3] == ["  A@1.5: B@1.3, A@1.5", "  one hex each: A@1.1"]
    variables = lines[lines.index("variables:"):] if "variables:" in lines else []
    assert not any(line.strip().startswith("part") for line in variables)


def test_a_grid_split_into_parts_draws_their_borders():
    from referee.interpreter.engine.render import render_board
    cells = [{"label": f"{'ab'[c - 1]}{r}", "row": r, "col": c, "marks": []} for r in (1, 2) for c in (1, 2)]
    board = {"kind": "grid", "rows": 2, "cols": 2, "cells": cells, "parts": ["part"]}
    # a1, b1 and a2 in the part of a1; b2 in its own part
    values = {"part[a1]": "a1", "part[b1]": "a1", "part[a2]": "a1", "part[b2]": "b2"}
    header, top, under, bottom, numbers, legend = render_board(board, values)
    # a border between a2 and b2 (side by side), and under b2 (above b1); none in row 1
    assert top.split() == ["2", ".", "│.", ] and bottom.split() == ["1", ".", "."]
    assert top.index("│") == bottom.index(".") + 2        # in the gap between the columns
    assert under.strip() == "──" and under.index("─") == top.rindex(".")
    assert numbers.split() == ["a", "b"] and legend == "  lines outline the parts of part, listed below"


def test_hex_cells_follow_the_drawing():
    """Each hex is a word of one or two characters placed by its last character; hexes in a row
    stand 4 characters apart; a hex's neighbours are beside it and 2 characters left and right
    on the rows above and below. A two-digit number is a numbered hex with the '#' attributes."""
    from referee.interpreter.runtime.boards import build_geometry, hex_cells
    drawing = "\n  A  07   B\n    C   D\n 12   E\n"
    legend = {"A": {"k": "a"}, "B": {"k": "b"}, "C": {"k": "c"}, "D": {"k": "d"}, "E": {"k": "e"},
              "#": {"k": "water"}}
    cells = list(hex_cells(drawing, legend))
    labels = [label for _, _, label, _ in cells]
    assert labels == ["A@1.1", "07@1.3", "B@1.5", "C@2.2", "D@2.4", "12@3.1", "E@3.3"]
    attributes = {label: a for _, _, label, a in cells}
    assert attributes["07@1.3"] == {"number": 7, "k": "water"} and attributes["C@2.2"] == {"number": None, "k": "c"}
    geometry = build_geometry("H", "hex", [(i, r, c) for i, (r, c, _, _) in enumerate(cells)])
    near = {labels[i]: sorted(labels[j] for j in geometry.neighbors[i]) for i in range(len(cells))}
    assert near["C@2.2"] == ["07@1.3", "12@3.1", "A@1.1", "D@2.4", "E@3.3"]
    assert near["A@1.1"] == ["07@1.3", "C@2.2"]           # B, 8 characters away, is not beside it
    assert near["07@1.3"] == ["A@1.1", "B@1.5", "C@2.2", "D@2.4"]
    assert near["E@3.3"] == ["12@3.1", "C@2.2", "D@2.4"]
