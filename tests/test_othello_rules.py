"""One scenario test per numbered rule of Othello (docs/games/othello.md, O-1..O-8), and random
games checked move by move against an independent implementation of the rules."""
from __future__ import annotations

import random
from pathlib import Path

try:
    from scenario import Scenario
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario

RULES = Path(__file__).resolve().parents[1] / "games" / "othello.rules"
COLUMNS = "abcdefgh"
SEAT = {"B": 1, "W": 2}


def arranged(*rows: str, to_move: int = 1) -> Scenario:
    """A game whose board is drawn by `rows`, row 8 first (B black, W white, . empty), with
    `to_move` to play. Rows not given are empty."""
    sc = Scenario.new(RULES)
    if to_move == 2:
        sc.play("d3")                          # any opening move hands the turn to white
    drawn = {}
    for i, line in enumerate(rows):
        for col, mark in enumerate(line.split(), start=1):
            drawn[(8 - i, col)] = SEAT.get(mark)
    sc.set_vars({("disc", sc.cell("Square", r, c)): drawn.get((r, c)) for r in range(1, 9) for c in range(1, 9)})
    return sc


def disc(sc, name: str):
    return sc.var(("disc", sc.cell("Square", int(name[1]), COLUMNS.index(name[0]) + 1)))


# ---- an independent referee, written from the rules text ---------------------------------

STEPS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def flipped(board: dict, square: tuple, p: int) -> list:
    """The opponent's discs that a disc of p on an empty square would flip (none: illegal)."""
    if board.get(square):
        return []
    out = []
    for dr, dc in STEPS:
        line, (r, c) = [], (square[0] + dr, square[1] + dc)
        while board.get((r, c)) == 3 - p:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and board.get((r, c)) == p:
            out += line
    return out


def moves_of(board: dict, p: int) -> list:
    return sorted(f"{COLUMNS[c - 1]}{r}" for r in range(1, 9) for c in range(1, 9) if flipped(board, (r, c), p))


def test_O01_an_8_by_8_board_black_moves_first_then_alternate():
    sc = Scenario.new(RULES)
    assert len(sc.game.geometries["Square"].at) == 64
    assert sc.s.current_player() == 1
    sc.play("d3")
    assert sc.s.current_player() == 2
    sc.play("c3")
    assert sc.s.current_player() == 1


def test_O02_four_discs_start_in_the_centre():
    sc = Scenario.new(RULES)
    assert [disc(sc, s) for s in ("d4", "e5", "d5", "e4")] == [2, 2, 1, 1]
    assert sc.call("discs", p=1) == 2 and sc.call("discs", p=2) == 2


def test_O03_a_move_must_bracket_a_line_of_opponent_discs():
    sc = Scenario.new(RULES)
    assert sc.moves() == ["d3", "c4", "f5", "e6"]           # the four openings of black
    sc.refuse("c3", "not possible")                        # next to nothing of white's
    sc.refuse("d4", "not possible")                        # taken
    # a line of white discs ended by an empty square is not bracketed
    sc = arranged(". . . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
                  ". . . . . . . .", ". . . . . . . .", ". . . . . . . .", "B W W . . . . .")
    assert sc.moves() == ["d1"]


def test_O04_every_bracketed_line_is_flipped_and_only_those():
    sc = arranged(". . . . . . . .",
                  ". . . . . . . .",
                  ". . . . . . . .",
                  "B . B . . . . .",
                  "W W W . . . . .",
                  "B W . W W B . .",
                  ". . W . . . . .",
                  ". . . . . . . .")
    sc.play("c3")
    # bracketed: west (b3, up to a3), north-west (b4, up to a5), north (c4, up to c5) and
    # east (d3 and e3, up to f3): all flipped by the one move
    assert [disc(sc, s) for s in ("c3", "b3", "b4", "c4", "d3", "e3")] == [1] * 6
    # south: c2 is white but c1 is empty, so nothing brackets it; a4 is on no line from c3
    assert disc(sc, "c2") == 2 and disc(sc, "a4") == 2
    assert sc.call("discs", p=1) == 10 and sc.call("discs", p=2) == 2


def test_O04_random_games_agree_with_an_independent_referee():
    for seed in range(12):
        rng = random.Random(seed)
        sc = Scenario.new(RULES, seed=seed)
        board = {(4, 4): 2, (5, 5): 2, (5, 4): 1, (4, 5): 1}
        p = 1
        while moves_of(board, p) or moves_of(board, 3 - p):
            assert sc.s.current_player() == p
            assert sorted(sc.moves()) == (moves_of(board, p) or ["pass"])
            move = rng.choice(sc.moves())
            if move != "pass":
                square = (int(move[1]), COLUMNS.index(move[0]) + 1)
                for x in flipped(board, square, p):
                    board[x] = p
                board[square] = p
            sc.play(move)
            p = 3 - p
        assert sc.s.is_terminal()
        assert sc.s.scores() == [list(board.values()).count(1), list(board.values()).count(2)]


def test_O05_pass_only_without_a_move():
    sc = Scenario.new(RULES)
    assert "pass" not in sc.moves()
    sc.refuse("pass", "you can place a disc, so you must")
    # black's only disc is hemmed in: black passes, then white plays
    sc = arranged(". . . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
                  ". . . . . . . .", ". . . . . . . .", ". . . . . . . .", "W B . . . . . .")
    assert sc.moves() == ["pass"]
    sc.play("pass")
    assert sc.s.current_player() == 2 and sc.moves() == ["c1"]


def test_O06_the_game_ends_when_neither_player_can_move():
    sc = arranged("W W W . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
                  ". . . . . . . .", ". . . . . . . .", ". . . . . . . .", "B W . . . . . .")
    sc.play("c1")
    # empty squares are left, but no disc of either colour can bracket one of the other
    assert sc.s.is_terminal()
    assert sc.call("discs", p=1) == 3 and sc.call("discs", p=2) == 3


def test_O07_more_discs_wins_and_equal_discs_draw():
    sc = arranged(". . . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
                  ". . . . . . . .", ". . . . . . . .", ". . . . . . . .", "B W . . . . . .")
    sc.play("c1")
    assert sc.s.is_terminal() and sc.s.winners == [1] and sc.s.scores() == [3, 0]
    sc = arranged("W W W . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
                  ". . . . . . . .", ". . . . . . . .", ". . . . . . . .", "B W . . . . . .")
    sc.play("c1")
    assert sc.s.winners == [] and sc.s.outcome() == "draw"


def test_O08_returns_are_plus_one_minus_one_or_zero():
    sc = arranged(". . . . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
                  ". . . . . . . .", ". . . . . . . .", ". . . . . . . .", "W B . . . . . .", to_move=2)
    sc.play("c1")
    assert sc.s.winners == [2] and sc.s.returns() == [-1, 1]
    sc = arranged("W W W . . . . .", ". . . . . . . .", ". . . . . . . .", ". . . . . . . .",
                  ". . . . . . . .", ". . . . . . . .", ". . . . . . . .", "B W . . . . . .")
    sc.play("c1")
    assert sc.s.returns() == [0, 0]
