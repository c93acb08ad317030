"""One scenario test per numbered rule of checkers (docs/games/checkers.md, CK-1..CK-10), and
random games played in lockstep with OpenSpiel's own `checkers`, whose multi-jumps (several
actions of the same player) are gathered into the one move the rules file makes of them."""
from __future__ import annotations

import random
from pathlib import Path

import pyspiel

try:
    from openspiel_conformance import as_native_checkers_actions as as_native
    from openspiel_conformance import native_checkers_moves as native_paths
    from scenario import Scenario
except ImportError:  # tests/ imported as a package
    from tests.openspiel_conformance import as_native_checkers_actions as as_native
    from tests.openspiel_conformance import native_checkers_moves as native_paths
    from tests.scenario import Scenario

RULES = Path(__file__).resolve().parents[1] / "games" / "checkers.rules"
COLUMNS = "abcdefgh"
MARKS = {"o": (1, "man"), "O": (1, "king"), "x": (2, "man"), "X": (2, "king")}
# Moves that crown spare men before a position is arranged, so that kings can be placed.
CROWNING = {1: [("a7", "b8"), ("c7", "d8"), ("e7", "f8")], 2: [("b2", "a1"), ("d2", "c1")]}


def square(sc, name: str) -> int:
    return sc.cell("Square", int(name[1]), COLUMNS.index(name[0]) + 1)


def on(sc, name: str) -> list:
    """The labels of what stands on a square ([] or ["P1 man"]...)."""
    return sc.labels(("on", square(sc, name)))


def arranged(*rows: str, to_move: int = 1) -> Scenario:
    """A game whose board is drawn by `rows`, row 8 first, one mark per dark square from the
    left (o/O: P1 man/king, x/X: P2 man/king, . empty), with `to_move` to play and no quiet
    move yet. Pieces left over wait in the captured zones, so that each side keeps 12."""
    sc = Scenario.new(RULES)
    spare = {p: [] for p in (1, 2)}
    for x in sc.game.geometries["Square"].at.values():
        for eid in sc.zone(("on", x)):
            spare[sc.attr(eid, "owner")].append(eid)
    for p in (1, 2):
        sc.put(spare[p], ("captured", 3 - p))
    # kings are made by the rules themselves: men step onto the far row, turn by turn
    crowning = CROWNING[1][: 3 if to_move == 2 else 2] + CROWNING[2]
    for p, (start, _) in [(1, m) for m in crowning[:-2]] + [(2, m) for m in CROWNING[2]]:
        eid = spare[p].pop()
        sc.put(eid, ("on", square(sc, start)))
    order = [m for pair in zip(crowning[:-2], CROWNING[2]) for m in pair] + crowning[2:-2]
    for start, end in order:
        sc.play(f"{start}-{end}")
    kings = {p: [e for e in sc.find("Piece", rank="king") if sc.attr(e, "owner") == p] for p in (1, 2)}
    for p in (1, 2):
        sc.put(kings[p], ("captured", 3 - p))
    for i, line in enumerate(rows):
        row = 8 - i
        cols = [c for c in range(1, 9) if (row + c) % 2 == 0]
        for col, mark in zip(cols, line.split()):
            if mark in MARKS:
                p, rank = MARKS[mark]
                pool = kings[p] if rank == "king" else spare[p]
                sc.put(pool.pop(), ("on", sc.cell("Square", row, col)))
    sc.set_var("quiet_moves", 0)
    assert sc.s.current_player() == to_move
    return sc


EMPTY = ". . . ."


def test_CK01_32_dark_squares_and_p1_moves_first_then_alternate():
    sc = Scenario.new(RULES)
    at = sc.game.geometries["Square"].at
    assert len(at) == 32 and (1, 1) in at and (1, 2) not in at and (8, 8) in at
    assert sc.s.current_player() == 1
    sc.play("c3-d4")
    assert sc.s.current_player() == 2
    sc.play("f6-e5")
    assert sc.s.current_player() == 1


def test_CK02_twelve_men_each_on_the_three_nearest_rows():
    sc = Scenario.new(RULES)
    for r in range(1, 9):
        for c in range(1, 9):
            if (r + c) % 2:
                continue
            name = f"{COLUMNS[c - 1]}{r}"
            expected = ["P1 man"] if r <= 3 else (["P2 man"] if r >= 6 else [])
            assert on(sc, name) == expected, name


def test_CK03_men_step_diagonally_forward_kings_both_ways():
    sc = Scenario.new(RULES)
    assert sc.moves() == ["a3-b4", "c3-d4", "c3-b4", "e3-f4", "e3-d4", "g3-h4", "g3-f4"]
    sc.refuse("c3-c4", "unknown move")                      # not diagonal
    sc.refuse("b2-c3", "unknown move")                      # taken
    sc = arranged(EMPTY, EMPTY, EMPTY, "x . . .", ". . . o", EMPTY, ". . . X", EMPTY, to_move=2)
    # the P2 man on a5 steps down only; the P2 king on h2 both ways (g1 and g3)
    assert sorted(sc.moves()) == ["a5-b4", "h2-g1", "h2-g3"]
    sc.play("h2-g3")
    # the P1 man on h4 steps up only: it may not step, nor jump, backward
    assert sc.moves() == ["h4-g5"]


def test_CK04_a_jump_lands_just_beyond_an_adjacent_opponent():
    sc = arranged(EMPTY, EMPTY, EMPTY, EMPTY, ". x . .", ". o . .", EMPTY, EMPTY)
    # c3 over d4 to e5; b4 is not an opponent's, so nothing else
    assert sc.moves() == ["c3xe5"]
    sc.play("c3xe5")
    assert on(sc, "e5") == ["P1 man"] and on(sc, "d4") == [] and on(sc, "c3") == []
    assert sc.labels(("captured", 1))[-1] == "P2 man"
    # a blocked landing square is no jump
    sc = arranged(EMPTY, EMPTY, EMPTY, ". . x .", ". x . .", ". o . .", EMPTY, EMPTY)
    assert "c3xe5" not in sc.moves()


def test_CK05_a_double_jump_is_one_move():
    sc = arranged(". . . x", EMPTY, ". . x .", EMPTY, ". x . .", ". o . .", EMPTY, EMPTY)
    # c3 over d4 to e5, then over f6 to g7: the whole path is the only move
    assert sc.moves() == ["c3xe5, g7"]
    sc.refuse("c3xe5", "unknown move")                      # stopping half way is no move
    sc.play("c3xe5, g7")
    assert on(sc, "g7") == ["P1 man"] and on(sc, "d4") == [] and on(sc, "f6") == []
    assert sc.s.current_player() == 2
    # a branching jump gives one move per path; a king may jump back over the board
    sc = arranged(EMPTY, EMPTY, ". x x .", EMPTY, ". x . .", ". O . .", EMPTY, EMPTY)
    assert sorted(sc.moves()) == ["c3xe5, c7", "c3xe5, g7"]


def test_CK05_a_piece_is_jumped_once_and_the_square_left_is_free():
    # the king on c3 goes round the four men and lands back on c3, which it left: each man
    # is taken once (jumping d4 again would go on for ever)
    sc = arranged(EMPTY, EMPTY, "x x . .", EMPTY, "x x . .", ". O . .", EMPTY, EMPTY)
    assert sorted(sc.moves()) == ["c3xa5, c7, e5, c3", "c3xe5, c7, a5, c3"]
    sc.play("c3xe5, c7, a5, c3")
    assert on(sc, "c3") == ["P1 king"]
    assert all(on(sc, x) == [] for x in ("b4", "d4", "b6", "d6"))
    assert sc.s.is_terminal() and sc.s.winners == [1]


def test_CK06_capturing_is_compulsory():
    sc = arranged(EMPTY, EMPTY, EMPTY, EMPTY, ". x . .", ". o . o", EMPTY, EMPTY)
    assert sc.moves() == ["c3xe5"]
    sc.refuse("g3-h4", "a jump is possible, so you must jump")


def test_CK07_a_man_reaching_the_far_row_is_crowned_and_its_jump_ends():
    sc = arranged(EMPTY, ". o . .", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    sc.play("c7-b8")
    assert on(sc, "b8") == ["P1 king"]
    # h6 over g7 lands on f8 and is crowned; a king there could go on over e7 to d6, but
    # the move ends with the crowning
    sc = arranged(EMPTY, ". . x x", ". . . o", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    assert sc.moves() == ["h6xf8"]
    sc.play("h6xf8")
    assert on(sc, "f8") == ["P1 king"] and on(sc, "e7") == ["P2 man"]
    assert sc.s.current_player() == 2
    # a king already crowned jumps on through the far row
    sc = arranged(EMPTY, ". . x x", ". . . O", EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    assert sc.moves() == ["h6xf8, d6"]


def test_CK08_a_player_who_cannot_move_loses():
    # P2's last man is taken
    sc = arranged(EMPTY, EMPTY, EMPTY, EMPTY, ". x . .", ". o . .", EMPTY, EMPTY)
    sc.play("c3xe5")
    assert sc.s.is_terminal() and sc.s.winners == [1]
    # P2 has a man but it is blocked
    sc = arranged(EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "o . . .", "x . . .")
    assert sorted(sc.moves()) == ["b2-a3", "b2-c3"]   # P2's man on a1 can never move down
    sc.play("b2-c3")
    assert sc.s.is_terminal() and sc.s.winners == [1]


def test_CK09_forty_quiet_moves_are_a_draw():
    sc = arranged(EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY, "O . . .", ". . . X")
    sc.set_var("quiet_moves", 38)
    sc.play("b2-c3")
    assert not sc.s.is_terminal()
    sc.play("g1-h2")
    assert sc.s.is_terminal() and sc.s.outcome() == "draw" and sc.s.returns() == [0, 0]
    # a capture starts the count again
    sc = arranged(EMPTY, EMPTY, EMPTY, EMPTY, ". x . .", ". o . .", EMPTY, ". . . X")
    sc.set_var("quiet_moves", 39)
    sc.play("c3xe5")
    assert sc.var("quiet_moves") == 0 and not sc.s.is_terminal()


def test_CK10_returns_are_plus_one_and_minus_one():
    sc = arranged(EMPTY, EMPTY, EMPTY, EMPTY, ". x . .", ". o . .", EMPTY, EMPTY)
    sc.play("c3xe5")
    assert sc.s.returns() == [1, -1] and sc.s.outcome() == "win"


# ---- lockstep with OpenSpiel's checkers ---------------------------------------------------

def test_random_games_agree_with_openspiel_move_by_move():
    native_game = pyspiel.load_game("checkers")
    for seed in range(30):
        rng = random.Random(seed)
        sc = Scenario.new(RULES, seed=seed)
        native = native_game.new_initial_state()
        while not native.is_terminal():
            assert not sc.s.is_terminal()
            assert sc.s.current_player() == native.current_player() + 1
            paths = native_paths(native)
            assert sorted(as_native(m) for m in sc.moves()) == sorted(paths)
            move = rng.choice(sc.moves())
            sc.play(move)
            native = paths[as_native(move)]
        assert sc.s.is_terminal() and sc.s.returns() == list(native.returns())
