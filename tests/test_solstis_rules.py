"""One scenario test per numbered rule of Solstis (../shared/games/solstis.md, S-1..S-36 and the
spirits S-21..S-28g).

Each test builds a position with the generic harness (tests/scenario.py), plays moves by their
names (a choice inside a move is played by the label of the option), and checks what the engine
computed. Scores are checked on panoramas written by hand, against points counted here.
Zone contents are lists, bottom first; a position is (row, column), row 1 at the bottom.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

try:
    from scenario import Scenario
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario

RULES = Path(__file__).resolve().parents[1] / "games" / "solstis.rules"
COLOURS = ["red", "orange", "green", "sky", "pink", "purple"]
COLUMNS = {1: range(1, 11), 2: range(1, 11), 3: range(1, 11), 4: range(2, 10), 5: range(3, 9), 6: range(4, 8)}
FIRES = {(4, 2): 1.0, (4, 9): 1.0, (5, 3): 1.0, (5, 8): 1.0,
         (6, 4): 1.0, (6, 5): 1.5, (6, 6): 1.5, (6, 7): 1.0}
WOOD = ["trout", "deer", "eagle", "bear", "dragonfly", "beetle", "groundhog"]
BLUE = ["bee", "ladybug", "wolf", "squirrel", "bird", "lizard", "butterfly"]


# ---- Solstis vocabulary on top of the generic harness ----------------------------------------

def fresh(seed=0, discovery=False) -> Scenario:
    """A new game at P1's first decision."""
    return Scenario.new(RULES, ("discovery",) if discovery else (), 2, seed)


def name(row, col) -> str:
    """The label of the tile whose home is (row, col): 'orange 2'."""
    return f"{COLOURS[row - 1]} {col}"


def pos(sc, row, col) -> int:
    return sc.cell("Pos", row, col)


def tile(sc, row, col) -> int:
    return sc.one("Tile", home=pos(sc, row, col))


def tiles(sc, cells) -> list:
    return [tile(sc, r, c) for r, c in cells]


def give(sc, p, *cells):
    """p's hand becomes exactly these tiles (the old hand goes under the draw pile)."""
    sc.empty(("hand", p), to="bag", under=True)
    sc.put(tiles(sc, cells), ("hand", p))


def lay_display(sc, *columns):
    """The display becomes these columns, each a list of positions, bottom (face down) first."""
    for k in range(1, sc.var("columns") + 1):
        sc.empty(("display", k), to="bag", under=True)
    for k, column in enumerate(columns, start=1):
        sc.put(tiles(sc, column), ("display", k))
    sc.set_var("columns", len(columns))


def pile_top(sc, *cells):
    """Put these tiles on top of the draw pile, the last one on top."""
    sc.put(tiles(sc, cells), "bag")


def lay(sc, p, *cells):
    """Put these tiles at their home positions in p's panorama."""
    for r, c in cells:
        sc.put(tile(sc, r, c), ("panorama", p, pos(sc, r, c)))


def rainbow(sc, p, *cells):
    """Put rainbows from the supply at these positions of p's panorama; returns their ids."""
    out = []
    for r, c in cells:
        x = sc.take("Rainbow", "rainbows")
        sc.put(x, ("rainbow_at", p, pos(sc, r, c)))
        out.append(x)
    return out


def spirit(sc, animal) -> int:
    return sc.one("Spirit", animal=animal)


def seat(sc, p, animal, row, col) -> int:
    """Put a spirit on the square whose lower left position is (row, col) in p's panorama."""
    x = spirit(sc, animal)
    sc.put(x, ("spirit_at", p, pos(sc, row, col)))
    return x


def pile_spirits(sc, *animals):
    """Put these spirits on top of the spirit pile, the last one on top."""
    sc.put([spirit(sc, a) for a in animals], "spirit_pile")


def begin_turn(sc):
    """After arranging a position: the squares complete before the turn are those of now."""
    sc.set_var("squares_before", sc.call("square_corners", p=sc.s.current))
    sc.set_var("met", False)


def end_phase(sc):
    """Empty the draw pile (its tiles go to the discard, where they stay accounted for)."""
    sc.put(sc.zone("bag"), "discard")


def cells_of(sc, key) -> set:
    """(row, col) of the positions holding something in a zone family ('panorama', p)."""
    out = set()
    for zone_key, items in sc.s.zones.items():
        if isinstance(zone_key, tuple) and zone_key[:2] == key and items:
            entity = sc.s.entities[zone_key[2]]
            out.add((entity["row"], entity["col"]))
    return out


def spirits_of(sc, p) -> list:
    found = []
    for key, items in sc.s.zones.items():
        if isinstance(key, tuple) and key[0] == "spirit_at" and key[1] == p:
            found.extend(sc.attr(x, "animal") for x in items)
    return sorted(found)


def at(sc, p, row, col):
    """What p's panorama shows at (row, col): a tile's label, 'rainbow', or None."""
    here = sc.zone(("panorama", p, pos(sc, row, col))) + sc.zone(("rainbow_at", p, pos(sc, row, col)))
    assert len(here) <= 1
    return sc.label(here[0]) if here else None


def square_position(sc, p=1):
    """p's panorama holds red 1, red 2 and orange 1; p holds orange 2, which captures the face-up
    orange 9 and nothing else: playing it completes the square a1-b2. P1's two other tiles
    (purple 4, purple 7) capture nothing."""
    lay(sc, p, (1, 1), (1, 2), (2, 1))
    give(sc, p, (2, 2), (6, 4), (6, 7))
    lay_display(sc, [(3, 8), (2, 9)], [(4, 3), (5, 6)])
    begin_turn(sc)


def meet_by_drawing(sc, kept, other):
    """With the square position and an empty spirit display, P1 plays orange 2 and draws
    `kept` and `other`, keeping `kept`."""
    pile_spirits(sc, other, kept)
    sc.play("play orange 2", kept)


def check_counts(sc):
    assert len(sc.find("Tile")) == 48
    assert sc.s.broken_invariants() == []


# ---- Components ---------------------------------------------------------------------------

def test_S01_48_different_tiles_each_with_one_home_position():
    sc = fresh()
    all_tiles = sc.find("Tile")
    assert len(all_tiles) == 10 + 10 + 10 + 8 + 6 + 4 == 48
    keys = {(sc.attr(t, "colour"), sc.attr(t, "value")) for t in all_tiles}
    assert len(keys) == 48, "all different"
    expected = {(r, c) for r, cols in COLUMNS.items() for c in cols}
    homes = set()
    for t in all_tiles:
        home = sc.attr(t, "home")
        row, col = sc.s.entities[home]["row"], sc.s.entities[home]["col"]
        assert sc.attr(t, "colour") == COLOURS[row - 1], "the colour is the row"
        assert sc.attr(t, "value") == col, "the value is the column"
        homes.add((row, col))
    assert homes == expected, "one tile per position of the irregular grid"
    # the board has exactly these positions
    board = sc.game.geometries["Pos"]
    assert set(board.at) == expected
    with pytest.raises(KeyError):
        sc.cell("Pos", 6, 3)


def test_S02_fire_icons_and_the_shared_summit_icon():
    sc = fresh()
    halves = {(r, c): sc.call("fire_halves", c=pos(sc, r, c)) for r, cols in COLUMNS.items() for c in cols}
    assert {rc for rc, h in halves.items() if h} == set(FIRES)
    assert {rc: h / 2 for rc, h in halves.items() if h} == FIRES
    assert sum(halves.values()) / 2 == 9, "9 fires in all"
    # a column of tiles from the bottom row up to purple 5 lights 6-5 only: 1.5 rounded down
    lay(sc, 1, *[(r, 5) for r in range(1, 7)])
    assert sc.call("fire_points", p=1) == int(1.5) == 1
    # with purple 6 too, both halves of the shared icon are lit: 1.5 + 1.5 = 3
    lay(sc, 1, (6, 6))
    assert sc.call("fire_points", p=1) == 3
    lay(sc, 1, (6, 4), (6, 7))
    assert sc.call("fire_points", p=1) == 5


def test_S03_twelve_rainbows_and_fifteen_spirits():
    sc = fresh()
    assert len(sc.find("Rainbow")) == 12 and len(sc.zone("rainbows")) == 12
    spirits = sc.find("Spirit")
    assert len(spirits) == 15
    by_background = Counter(sc.attr(x, "background") for x in spirits)
    assert by_background == {"wood": 7, "blue": 7, "dark": 1}
    assert sorted(sc.attr(x, "animal") for x in sc.find("Spirit", background="wood")) == sorted(WOOD)
    assert sorted(sc.attr(x, "animal") for x in sc.find("Spirit", background="blue")) == sorted(BLUE)
    assert [sc.attr(x, "animal") for x in sc.find("Spirit", background="dark")] == ["evil"]


def test_S04_own_empty_panoramas_with_orthogonal_adjacency():
    sc = fresh()
    for p in (1, 2):
        assert cells_of(sc, ("panorama", p)) == set() and cells_of(sc, ("rainbow_at", p)) == set()
    lay(sc, 1, (3, 5))
    spots = {(sc.s.entities[c]["row"], sc.s.entities[c]["col"]) for c in sc.call("rainbow_spots", p=1)}
    assert spots == {(2, 5), (4, 5), (3, 4), (3, 6)}, "left, right, up and down only"
    assert cells_of(sc, ("panorama", 2)) == set(), "P2's panorama is their own"
    # diagonal tiles are not linked: two areas
    lay(sc, 1, (4, 6))
    assert sc.call("wolf_bonus", p=1) == 2


# ---- Setup --------------------------------------------------------------------------------

def test_S05_tiles_shuffled_face_down():
    orders = {tuple(sc.attr(x, "home") for x in sc.zone("bag")) for sc in (fresh(seed=s) for s in range(4))}
    assert len(orders) > 1, "the seed decides the order of the pile"
    sc = fresh()
    for p in (1, 2):
        entry = sc.s.view(p)["zones"]["bag"]
        assert entry["count"] == 30 and "items" not in entry


def test_S06_display_of_six_columns_face_down_under_face_up():
    sc = fresh()
    assert sc.var("columns") == 6
    for k in range(1, 7):
        column = sc.zone(("display", k))
        assert len(column) == 2
        for p in (1, 2):
            entry = sc.s.view(p)["zones"][f"display[{k}]"]
            assert entry["count"] == 2
            assert [item["id"] for item in entry["items"]] == [column[-1]], "only the top tile is seen"
    assert not sc.zone(("display", 7))
    faceup = sc.call("faceup")
    assert faceup == [sc.zone(("display", k))[-1] for k in range(1, 7)]


def test_S07_secret_hands_of_three_and_a_pile_of_thirty():
    sc = fresh()
    assert len(sc.zone(("hand", 1))) == len(sc.zone(("hand", 2))) == 3
    assert len(sc.zone("bag")) == 30
    mine, theirs = sc.s.view(1)["zones"]["hand[P1]"], sc.s.view(1)["zones"]["hand[P2]"]
    assert [i["id"] for i in mine["items"]] == sc.zone(("hand", 1))
    assert theirs["count"] == 3 and "items" not in theirs


def test_S08_spirits_shuffled_face_down_display_empty():
    sc = fresh()
    assert len(sc.zone("spirit_pile")) == 15 and sc.zone("spirit_display") == []
    entry = sc.s.view(1)["zones"]["spirit_pile"]
    assert entry["count"] == 15 and "items" not in entry
    orders = {tuple(fresh(seed=s).zone("spirit_pile")) for s in range(4)}
    assert len(orders) > 1


def test_S09_seat_one_starts_and_players_alternate():
    sc = fresh()
    assert sc.s.current_player() == 1
    seen = []
    for _ in range(4):
        seen.append(sc.s.current_player())
        sc.s.apply(sc.s.legal_moves()[0])
        while sc.s.pending is not None:
            sc.s.apply(sc.s.legal_moves()[0])
    assert seen == [1, 2, 1, 2]


# ---- A turn -------------------------------------------------------------------------------

def test_S10_a_tile_captures_by_colour_or_value_and_both_go_home():
    sc = fresh()
    give(sc, 1, (2, 7), (5, 5), (4, 6))
    lay_display(sc, [(1, 1), (2, 5)], [(3, 3), (4, 4)])
    begin_turn(sc)
    # orange 7 has the colour of orange 5: it captures it
    sc.play("play orange 7")
    assert at(sc, 1, 2, 7) == "orange 7" and at(sc, 1, 2, 5) == "orange 5"
    # the face-down red 1 under it turns face up
    assert sc.zone(("display", 1)) == [tile(sc, 1, 1)]
    assert [i["label"] for i in sc.s.view(2)["zones"]["display[1]"]["items"]] == ["red 1"]


def test_S10_several_matches_the_player_chooses():
    sc = fresh()
    give(sc, 1, (4, 5), (6, 4), (6, 7))
    lay_display(sc, [(1, 1), (2, 5)], [(3, 3), (4, 4)])
    begin_turn(sc)
    # sky 5 matches orange 5 (value) and sky 4 (colour)
    sc.play("play sky 5")
    assert sc.prompt() == "which tile to capture" and sc.s.current_player() == 1
    assert sorted(sc.moves()) == ["orange 5", "sky 4"]
    sc.play("sky 4")
    assert at(sc, 1, 4, 4) == "sky 4" and at(sc, 1, 4, 5) == "sky 5"
    assert sc.zone(("display", 1))[-1] == tile(sc, 2, 5), "orange 5 stays"


def test_S10_the_played_tile_goes_to_the_panorama_first():
    sc = fresh()
    give(sc, 1, (2, 2), (6, 4), (6, 7))
    lay_display(sc, [(3, 8), (2, 9)])
    lay(sc, 1, (3, 2), (3, 9))
    first, second = rainbow(sc, 1, (2, 2), (2, 9))
    begin_turn(sc)
    sc.play("play orange 2")
    # the first rainbow to move is the one under the played tile (orange 2)
    assert sc.prompt() == "where the rainbow goes"
    assert sc.where(first) == "rainbows" and sc.where(second) == ("rainbow_at", 1, pos(sc, 2, 9))
    sc.play("b1")
    assert sc.where(first) == ("rainbow_at", 1, pos(sc, 1, 2))
    assert sc.prompt() == "where the rainbow goes" and sc.where(second) == "rainbows"
    sc.play("i1")
    assert sc.where(second) == ("rainbow_at", 1, pos(sc, 1, 9))
    assert at(sc, 1, 2, 2) == "orange 2" and at(sc, 1, 2, 9) == "orange 9"


def test_S11_second_chance_the_drawn_tile_captures():
    sc = fresh()
    give(sc, 1, (6, 4), (6, 5), (6, 7))
    lay_display(sc, [(1, 1), (2, 5)], [(3, 3), (4, 9)])
    pile_top(sc, (3, 9))                     # green 9 captures sky 9 by value
    begin_turn(sc)
    sc.play("play purple 4")                 # nothing matches orange 5 or sky 9
    assert sc.zone(("display", 3)) == [tile(sc, 6, 4)], "the played tile joins the display face up"
    assert at(sc, 1, 3, 9) == "green 9" and at(sc, 1, 4, 9) == "sky 9"
    assert cells_of(sc, ("panorama", 1)) == {(3, 9), (4, 9)}


def test_S11_the_drawn_tile_may_capture_the_tile_just_played():
    sc = fresh()
    give(sc, 1, (6, 4), (6, 5), (6, 7))
    lay_display(sc, [(1, 1), (2, 5)], [(3, 3), (4, 9)])
    pile_top(sc, (1, 4))                     # red 4 matches only purple 4, just played
    begin_turn(sc)
    sc.play("play purple 4")
    assert at(sc, 1, 1, 4) == "red 4" and at(sc, 1, 6, 4) == "purple 4"
    assert sc.zone(("display", 3)) == []


def test_S12_no_capture_twice_the_drawn_tile_joins_and_a_rainbow_is_gained():
    sc = fresh()
    give(sc, 1, (6, 4), (6, 5), (6, 7))
    lay_display(sc, [(1, 1), (2, 5)], [(3, 3), (4, 9)])
    pile_top(sc, (1, 8))                     # red 8 matches nothing either
    lay(sc, 1, (3, 7))
    begin_turn(sc)
    sc.play("play purple 4")
    assert sc.zone(("display", 4)) == [tile(sc, 1, 8)], "the drawn tile joins the display too"
    assert sc.prompt() == "where the rainbow goes"
    assert sorted(sc.moves()) == ["f3", "g2", "g4", "h3"]
    sc.play("g4")
    assert at(sc, 1, 4, 7) == "rainbow" and len(sc.zone("rainbows")) == 11
    assert sc.s.current_player() == 2


def test_S13_rainbow_next_to_a_tile_or_anywhere_when_empty():
    sc = fresh()
    assert len(sc.call("rainbow_spots", p=1)) == 48, "an empty panorama: anywhere"
    lay(sc, 1, (1, 1))
    rainbow(sc, 1, (1, 2))
    spots = {(sc.s.entities[c]["row"], sc.s.entities[c]["col"]) for c in sc.call("rainbow_spots", p=1)}
    assert spots == {(2, 1), (2, 2), (1, 3)}, "next to a landscape tile or a rainbow"


def test_S13_a_rainbow_with_no_legal_position_goes_back_to_the_supply():
    sc = fresh()
    # P1's panorama is full but for orange 2 (a rainbow lies there) and orange 9 (empty);
    # P1 captures orange 9 with orange 2 with the pile empty
    rest = [(r, c) for r, cols in COLUMNS.items() for c in cols if (r, c) not in ((2, 2), (2, 9))]
    give(sc, 1, (2, 2))
    give(sc, 2)
    lay_display(sc, [(2, 9)])
    lay(sc, 1, *rest)
    (moved,) = rainbow(sc, 1, (2, 2))
    assert sc.zone("bag") == []
    begin_turn(sc)
    sc.set_var("met", True)                   # no spirit meeting in this test
    sc.play("play orange 2")
    # orange 2 sends the rainbow to the only empty position, where orange 9 then arrives:
    # the rainbow has no legal position left and goes back
    assert sc.where(moved) == "rainbows" and len(sc.zone("rainbows")) == 12
    assert at(sc, 1, 2, 2) == "orange 2" and at(sc, 1, 2, 9) == "orange 9"
    check_counts(sc)


def test_S13_no_rainbow_left_in_the_supply_none_gained():
    sc = fresh()
    for k, x in enumerate(sc.zone("rainbows")):
        sc.put(x, ("rainbow_at", 2, pos(sc, 1, k % 10 + 1) if k < 10 else pos(sc, 2, k - 9)))
    give(sc, 1, (6, 4), (6, 5), (6, 7))
    lay_display(sc, [(1, 1), (2, 5)], [(3, 3), (4, 9)])
    pile_top(sc, (1, 8))
    begin_turn(sc)
    sc.play("play purple 4")
    assert sc.prompt() is None and sc.s.current_player() == 2
    assert cells_of(sc, ("rainbow_at", 1)) == set()


def test_S14_a_tile_joins_the_first_empty_column_else_a_new_column():
    sc = fresh()
    give(sc, 1, (6, 4), (6, 5), (6, 7))
    lay_display(sc, [(1, 1), (1, 2)], [], [(3, 3), (3, 5)])
    pile_top(sc, (5, 8))                     # pink 8 matches nothing either
    lay(sc, 1, (2, 2))
    begin_turn(sc)
    sc.play("play purple 4", "b3")
    assert sc.zone(("display", 2)) == [tile(sc, 6, 4)], "the first empty column"
    assert sc.zone(("display", 4)) == [tile(sc, 5, 8)] and sc.var("columns") == 4, "a new column at the end"


def test_S14_face_down_tiles_are_never_captured():
    sc = fresh()
    give(sc, 1, (4, 3), (6, 4), (6, 7))
    lay_display(sc, [(4, 7), (1, 2)])        # sky 7 lies face down under red 2
    begin_turn(sc)
    assert sc.call("can_capture", t=tile(sc, 4, 3)) is False
    assert sc.call("faceup") == [tile(sc, 1, 2)]
    pile_top(sc, (5, 8))
    sc.play("play sky 3")
    assert at(sc, 1, 4, 7) is None and sc.zone(("display", 1)) == tiles(sc, [(4, 7), (1, 2)])


def test_S15_draw_back_up_to_three_at_the_end_of_the_turn():
    sc = fresh()
    give(sc, 1, (2, 7), (6, 4), (6, 7))
    lay_display(sc, [(1, 1), (2, 5)])
    pile_top(sc, (1, 3), (1, 6))
    begin_turn(sc)
    sc.play("play orange 7")
    assert sorted(sc.zone(("hand", 1))) == sorted(tiles(sc, [(6, 4), (6, 7), (1, 6)]))
    assert sc.zone("bag")[-1] == tile(sc, 1, 3)
    assert sc.var(("hand_limit", 1)) == 3


def test_S16_a_tile_arriving_on_a_free_rainbow_moves_it():
    sc = fresh()
    give(sc, 1, (2, 2), (6, 4), (6, 7))
    lay_display(sc, [(3, 8), (2, 9)])
    lay(sc, 1, (1, 2))
    (bow,) = rainbow(sc, 1, (2, 2))
    begin_turn(sc)
    sc.play("play orange 2")
    assert sc.prompt() == "where the rainbow goes"
    # S-13 applies: next to a tile or a rainbow, not the position the tile took
    assert sorted(sc.moves()) == ["a1", "a2", "b3", "c1", "c2"]
    sc.play("b3")
    assert at(sc, 1, 2, 2) == "orange 2" and sc.where(bow) == ("rainbow_at", 1, pos(sc, 3, 2))


def test_S16_a_tile_arriving_on_a_rainbow_under_a_spirit_is_discarded():
    sc = fresh()
    give(sc, 1, (2, 2), (6, 4), (6, 7))
    lay_display(sc, [(3, 8), (2, 9)])
    lay(sc, 1, (1, 1), (1, 2), (2, 1))
    (bow,) = rainbow(sc, 1, (2, 2))
    seat(sc, 1, "wolf", 1, 1)
    begin_turn(sc)
    assert sc.call("under_spirit", p=1, c=pos(sc, 2, 2)) is True
    sc.play("play orange 2")
    assert sc.zone("discard") == [tile(sc, 2, 2)]
    assert sc.where(bow) == ("rainbow_at", 1, pos(sc, 2, 2))
    assert at(sc, 1, 2, 9) == "orange 9"
    check_counts(sc)


# ---- Spirits ------------------------------------------------------------------------------

def test_S17_completing_a_square_meets_a_spirit_drawn_from_two():
    sc = fresh()
    square_position(sc)
    pile_spirits(sc, "wolf", "bee")          # bee on top, wolf under it
    sc.play("play orange 2")
    # the display is empty: drawing two is the only way; keep one
    assert sc.prompt() == "which spirit to keep" and sorted(sc.moves()) == ["bee", "wolf"]
    assert [i["label"] for i in sc.s.view(1)["zones"]["drawn[P1]"]["items"]] == ["bee", "wolf"]
    assert "items" not in sc.s.view(2)["zones"]["drawn[P1]"]
    sc.play("wolf")
    assert sc.zone(("spirit_at", 1, pos(sc, 1, 1))) == [spirit(sc, "wolf")], "at the new square"
    assert sc.zone("spirit_display") == [spirit(sc, "bee")], "the other one face up"
    assert sc.s.current_player() == 2


def test_S17_take_a_face_up_spirit_and_rainbows_count_for_squares():
    sc = fresh()
    lay(sc, 1, (1, 1), (1, 2))
    rainbow(sc, 1, (2, 1))
    give(sc, 1, (2, 2), (6, 4), (6, 7))
    lay_display(sc, [(3, 8), (2, 9)])
    sc.put([spirit(sc, "bee"), spirit(sc, "lizard")], "spirit_display")
    begin_turn(sc)
    sc.play("play orange 2")
    assert sc.prompt() == "meet a spirit"
    assert sorted(sc.moves()) == ["draw two", "take a face-up spirit"]
    sc.play("take a face-up spirit")
    assert sorted(sc.moves()) == ["bee", "lizard"]
    sc.play("lizard")
    assert spirits_of(sc, 1) == ["lizard"] and sc.zone("spirit_display") == [spirit(sc, "bee")]


def test_S17_the_meeting_comes_after_the_whole_capture_step():
    sc = fresh()
    # nothing captures, twice: the rainbow gained completes the square, then the spirit comes
    lay(sc, 1, (1, 1), (2, 1), (1, 2))
    give(sc, 1, (6, 4), (6, 5), (6, 7))
    lay_display(sc, [(3, 3)])
    pile_top(sc, (1, 8))
    pile_spirits(sc, "wolf", "bee")
    begin_turn(sc)
    sc.play("play purple 4")
    assert sc.prompt() == "where the rainbow goes" and spirits_of(sc, 1) == []
    sc.play("b2")
    assert sc.prompt() == "which spirit to keep"
    sc.play("bee")
    assert spirits_of(sc, 1) == ["bee"]
    assert sc.zone(("spirit_at", 1, pos(sc, 1, 1))) == [spirit(sc, "bee")]


def test_S18_one_spirit_per_turn_even_with_two_new_squares():
    sc = fresh()
    lay(sc, 1, (1, 1), (2, 1), (1, 2), (1, 3), (2, 3))
    give(sc, 1, (2, 2), (6, 4), (6, 7))
    lay_display(sc, [(3, 8), (2, 9)])
    pile_spirits(sc, "wolf", "bee")
    begin_turn(sc)
    sc.play("play orange 2", "bee")
    assert sc.prompt() == "which new square the spirit sits on"
    assert sorted(sc.moves()) == ["a1", "b1"] and sc.var("met") is True
    sc.play("b1")
    assert spirits_of(sc, 1) == ["bee"] and sc.zone("spirit_display") == [spirit(sc, "wolf")]
    assert len(sc.zone("spirit_pile")) == 13, "two drawn, one met, one face up: no second meeting"
    assert sc.zone(("spirit_at", 1, pos(sc, 1, 2))) == [spirit(sc, "bee")]
    assert sc.s.current_player() == 2


def test_S19_only_a_square_completed_this_turn_and_older_tiles_may_be_shared():
    sc = fresh()
    # an old square a1-b2 with its spirit; capturing orange 9 completes nothing new
    lay(sc, 1, (1, 1), (1, 2), (2, 1), (2, 2), (1, 3))
    seat(sc, 1, "wolf", 1, 1)
    give(sc, 1, (2, 7), (6, 6), (6, 7))
    lay_display(sc, [(3, 8), (2, 9)])
    begin_turn(sc)
    before = len(sc.zone("spirit_pile"))
    sc.play("play orange 7")
    assert spirits_of(sc, 1) == ["wolf"] and len(sc.zone("spirit_pile")) == before
    # P2 plays; then P1 completes b1-c2, sharing red 2 and orange 2 with the old square
    give(sc, 2, (5, 4))
    lay_display(sc, [(5, 7)], [(2, 3)])
    sc.play("play pink 4")
    assert sc.s.current_player() == 1
    give(sc, 1, (4, 3), (6, 6), (6, 7))
    begin_turn(sc)
    pile_spirits(sc, "trout", "bee")
    sc.play("play sky 3", "bee")
    assert spirits_of(sc, 1) == ["bee", "wolf"]
    assert sc.zone(("spirit_at", 1, pos(sc, 1, 2))) == [spirit(sc, "bee")]


def test_S19_no_spirit_left_no_meeting_and_a_last_one_drawn_alone():
    sc = fresh()
    square_position(sc)
    others = [x for x in sc.zone("spirit_pile") if sc.attr(x, "animal") != "deer"]
    for k, x in enumerate(others):
        sc.put(x, ("spirit_at", 2, pos(sc, 3, k % 10 + 1) if k < 10 else pos(sc, 2, k - 9)))
    assert [sc.attr(x, "animal") for x in sc.zone("spirit_pile")] == ["deer"]
    sc.play("play orange 2")
    # the only spirit left is drawn alone and kept at once: the deer acts
    assert sc.prompt() == "which hand tile goes into your panorama"
    sc.play("purple 4")
    assert spirits_of(sc, 1) == ["deer"] and sc.zone("spirit_pile") == []
    # now neither the pile nor the display has a spirit: a new square meets nothing
    sc2 = fresh()
    square_position(sc2)
    for k, x in enumerate(sc2.zone("spirit_pile")):
        sc2.put(x, ("spirit_at", 2, pos(sc2, 3, k % 10 + 1) if k < 10 else pos(sc2, 2, k - 9)))
    sc2.play("play orange 2")
    assert sc2.prompt() is None and spirits_of(sc2, 1) == [] and sc2.s.current_player() == 2


def test_S20_wood_spirits_act_at_once_blue_ones_score_at_the_end():
    sc = fresh()
    square_position(sc)
    meet_by_drawing(sc, "trout", "bee")
    assert sc.prompt() == "where the rainbow goes", "the trout acts at once, in the same turn"
    sc.play("a3")
    assert at(sc, 1, 3, 1) == "rainbow"
    sc2 = fresh()
    square_position(sc2)
    meet_by_drawing(sc2, "bee", "trout")
    assert sc2.prompt() is None and sc2.s.current_player() == 2, "a blue spirit does nothing now"
    # each spirit is worth 1 point; the bee counts the wood spirits
    assert sc.call("spirit_points", p=1) == 1
    assert sc2.call("spirit_points", p=1) == 1 + 0
    seat(sc2, 1, "deer", 3, 5)
    assert sc2.call("spirit_points", p=1) == 2 + 1


# ---- The spirits ----------------------------------------------------------------------------

def test_S21_trout_gains_a_rainbow_and_places_it():
    sc = fresh()
    square_position(sc)
    meet_by_drawing(sc, "trout", "wolf")
    assert sc.prompt() == "where the rainbow goes"
    assert "a3" in sc.moves() and "e6" not in sc.moves(), "S-13: next to a tile"
    sc.play("c1")
    assert at(sc, 1, 1, 3) == "rainbow" and len(sc.zone("rainbows")) == 11


def test_S22_deer_puts_a_hand_tile_into_the_panorama():
    sc = fresh()
    square_position(sc)
    meet_by_drawing(sc, "deer", "wolf")
    assert sc.prompt() == "which hand tile goes into your panorama"
    assert sorted(sc.moves()) == ["purple 4", "purple 7"]
    pile_before = sc.zone("bag")[-2:]
    sc.play("purple 7")
    assert at(sc, 1, 6, 7) == "purple 7"
    # the hand is refilled at the end of the turn: two tiles drawn
    assert len(sc.zone(("hand", 1))) == 3 and set(pile_before) <= set(sc.zone(("hand", 1)))


def test_S22_deer_and_a_rainbow_under_a_spirit_S16_applies():
    sc = fresh()
    square_position(sc)
    lay(sc, 1, (5, 4), (5, 5), (6, 5))
    rainbow(sc, 1, (6, 4))
    seat(sc, 1, "bee", 5, 4)
    begin_turn(sc)
    meet_by_drawing(sc, "deer", "wolf")
    sc.play("purple 4")
    assert tile(sc, 6, 4) in sc.zone("discard") and at(sc, 1, 6, 4) == "rainbow"


def test_S23_eagle_puts_the_top_of_the_pile_into_the_panorama():
    sc = fresh()
    square_position(sc)
    pile_top(sc, (5, 7), (4, 8))             # sky 8 on top
    meet_by_drawing(sc, "eagle", "wolf")
    assert at(sc, 1, 4, 8) == "sky 8"
    assert tile(sc, 5, 7) in sc.zone(("hand", 1)), "the refill comes after"


def test_S23_eagle_with_an_empty_pile_does_nothing():
    sc = fresh()
    square_position(sc)
    end_phase(sc)
    meet_by_drawing(sc, "eagle", "wolf")
    assert cells_of(sc, ("panorama", 1)) == {(1, 1), (1, 2), (2, 1), (2, 2), (2, 9)}
    assert sc.s.current_player() == 2


def test_S24_bear_draws_one_and_the_hand_size_becomes_four():
    sc = fresh()
    square_position(sc)
    pile_top(sc, (1, 5), (1, 6), (1, 7))
    meet_by_drawing(sc, "bear", "wolf")
    assert sc.var(("hand_limit", 1)) == 4 and sc.var(("hand_limit", 2)) == 3
    hand = sc.zone(("hand", 1))
    assert len(hand) == 4 and set(tiles(sc, [(1, 7), (1, 6)])) <= set(hand)
    assert sc.zone("bag")[-1] == tile(sc, 1, 5)


def test_S25_dragonfly_takes_a_random_tile_of_the_opponent():
    taken = set()
    for seed in range(6):
        sc = fresh(seed=seed)
        square_position(sc)
        give(sc, 2, (3, 4), (3, 5), (3, 6))
        pile_top(sc, (5, 5), (5, 7))        # pink 7 on top
        theirs = set(sc.zone(("hand", 2)))
        meet_by_drawing(sc, "dragonfly", "wolf")
        mine = cells_of(sc, ("panorama", 1)) - {(1, 1), (1, 2), (2, 1), (2, 2), (2, 9)}
        assert len(mine) == 1
        (row, col), = mine
        assert tile(sc, row, col) in theirs
        taken.add((row, col))
        # P2 draws a replacement, then P1 refills
        assert len(sc.zone(("hand", 2))) == 3 and tile(sc, 5, 7) in sc.zone(("hand", 2))
    assert len(taken) > 1, "the tile is taken at random"


def test_S26_beetle_takes_a_face_up_display_tile():
    sc = fresh()
    square_position(sc)
    meet_by_drawing(sc, "beetle", "wolf")
    assert sc.prompt() == "which face-up tile goes into your panorama"
    assert sorted(sc.moves()) == ["green 8", "pink 6"], "the display after the capture"
    sc.play("pink 6")
    assert at(sc, 1, 5, 6) == "pink 6"
    assert sc.zone(("display", 2)) == [tile(sc, 4, 3)], "the tile under it turns face up"


def test_S27_groundhog_another_full_turn():
    sc = fresh()
    square_position(sc)
    turn = sc.s.turn
    meet_by_drawing(sc, "groundhog", "wolf")
    assert sc.s.current_player() == 1 and sc.s.turn == turn + 1
    assert len(sc.zone(("hand", 1))) == 3, "the refill is done before the new turn"
    assert sc.var("met") is False, "a new turn may meet a spirit again"


def panorama_with(sc, p, animals, cells=(), rainbows=()):
    lay(sc, p, *cells)
    rainbow(sc, p, *rainbows)
    anchors = [(3, k) for k in range(1, 10)] + [(4, k) for k in range(2, 9)]
    return [seat(sc, p, a, *anchors[i]) for i, a in enumerate(animals)]


def test_S28a_bee_one_per_wood_spirit():
    sc = fresh()
    bee, *_ = panorama_with(sc, 1, ["bee", "trout", "deer", "wolf", "bird"])
    assert sc.call("bonus", p=1, x=bee) == 2


def test_S28b_ladybug_one_per_unlit_fire():
    sc = fresh()
    # lit: sky 2 (linked to red 2); unlit: sky 9, pink 3 and purple 5 (1 + 1 + 1.5 = 3.5 -> 3)
    ladybug, = panorama_with(sc, 1, ["ladybug"], cells=[(1, 2), (2, 2), (3, 2), (4, 2), (4, 9), (5, 3), (6, 5)])
    assert sc.call("fire_points", p=1) == 1
    assert sc.call("bonus", p=1, x=ladybug) == int(1 + 1 + 1.5) == 3


def test_S28c_wolf_one_per_separate_area():
    sc = fresh()
    # a tile alone, two linked tiles, a rainbow alone: 3 areas
    wolf, = panorama_with(sc, 1, ["wolf"], cells=[(1, 1), (1, 5), (2, 5)], rainbows=[(3, 8)])
    assert sc.call("bonus", p=1, x=wolf) == 3


def test_S28d_squirrel_puts_the_hand_into_the_panorama_before_scoring():
    sc = fresh()
    panorama_with(sc, 1, ["squirrel"], cells=[(1, 1)])
    give(sc, 1, (1, 2), (1, 3))
    give(sc, 2, (6, 6))
    lay_display(sc, [(5, 8)])
    end_phase(sc)
    begin_turn(sc)
    sc.play("pass", "pass")
    assert sc.s.is_terminal()
    assert at(sc, 1, 1, 2) == "red 2" and at(sc, 1, 1, 3) == "red 3" and sc.zone(("hand", 1)) == []
    assert sc.zone(("hand", 2)) == [tile(sc, 6, 6)], "only the Squirrel's owner"
    assert sc.call("area_points", p=1) == 3


def test_S28e_bird_one_per_other_blue_spirit():
    sc = fresh()
    bird, *_ = panorama_with(sc, 1, ["bird", "bee", "lizard", "trout"])
    assert sc.call("bonus", p=1, x=bird) == 2


def test_S28f_lizard_one_per_rainbow():
    sc = fresh()
    lizard, = panorama_with(sc, 1, ["lizard"], cells=[(1, 1)], rainbows=[(1, 2), (2, 2), (5, 5)])
    assert sc.call("bonus", p=1, x=lizard) == 3


def test_S28g_butterfly_lit_fires_score_twice():
    sc = fresh()
    butterfly, = panorama_with(sc, 1, ["butterfly"], cells=[(r, 5) for r in range(1, 7)] + [(6, 6), (6, 4)])
    assert sc.call("fire_points", p=1) == int(1.5 + 1.5 + 1) == 4
    assert sc.call("bonus", p=1, x=butterfly) == 4
    assert sc.call("spirit_points", p=1) == 1 + 4


def test_S29_a_square_completed_by_a_spirit_meets_no_spirit():
    sc = fresh()
    square_position(sc)
    lay(sc, 1, (1, 4), (1, 5), (2, 4))      # orange 5 would complete d1-e2
    begin_turn(sc)
    pile_top(sc, (2, 5))
    meet_by_drawing(sc, "eagle", "wolf")
    assert at(sc, 1, 2, 5) == "orange 5", "the eagle's tile completes a square"
    assert spirits_of(sc, 1) == ["eagle"] and sc.s.current_player() == 2
    # next turn, that square is not a new one either
    give(sc, 2, (6, 5))
    lay_display(sc, [(6, 6)], [(1, 8)])
    sc.play("play purple 5")
    assert sc.s.current_player() == 1
    assert pos(sc, 1, 4) in sc.var("squares_before")
    give(sc, 1, (1, 9), (6, 4), (6, 7))
    sc.play("play red 9")
    assert spirits_of(sc, 1) == ["eagle"]


def test_S30_evil_spirit_drawn_among_two_both_kept():
    sc = fresh()
    square_position(sc)
    pile_spirits(sc, "evil", "bee")
    sc.play("play orange 2")
    assert sc.prompt() is None, "the normal one is placed at once"
    assert spirits_of(sc, 1) == ["bee"] and sc.zone(("kept", 1)) == [spirit(sc, "evil")]
    assert sc.zone("spirit_display") == [], "the evil spirit is never in the display"


def test_S30_the_evil_spirit_passes_at_the_next_meeting():
    sc = fresh()
    square_position(sc)
    sc.put(spirit(sc, "evil"), ("kept", 1))
    meet_by_drawing(sc, "bee", "wolf")
    assert sc.zone(("kept", 2)) == [spirit(sc, "evil")] and sc.zone(("kept", 1)) == []


def end_with(sc, p1_spirits, p2_spirits=(), hand=()):
    """The last turns: the pile is empty and nobody can capture (P1 may hold `hand`)."""
    panorama_with(sc, 1, p1_spirits, cells=[(1, 1), (1, 2)])
    panorama_with(sc, 2, p2_spirits, cells=[(1, 5)])
    give(sc, 1, *hand)
    give(sc, 2)
    lay_display(sc, [(5, 8)])
    end_phase(sc)
    begin_turn(sc)


def test_S30_the_opponent_chooses_the_covered_spirit_which_counts_for_nothing():
    sc = fresh()
    end_with(sc, ["bee", "trout", "deer"])
    sc.put(spirit(sc, "evil"), ("kept", 1))
    before = sc.call("spirit_points", p=1)
    assert before == 3 + 2
    sc.play("pass", "pass")
    assert sc.prompt() == "which spirit of your opponent the evil spirit covers"
    assert sc.s.current_player() == 2, "the opponent chooses"
    assert sorted(sc.moves()) == ["bee", "deer", "trout"]
    sc.play("bee")
    assert sc.s.is_terminal() and sc.var(("cover", 1)) == spirit(sc, "bee")
    assert sc.call("spirit_points", p=1) == 2, "neither its point nor its bonus"
    sc2 = fresh()
    end_with(sc2, ["bee", "trout", "deer"])
    sc2.put(spirit(sc2, "evil"), ("kept", 1))
    sc2.play("pass", "pass", "trout")
    assert sc2.call("spirit_points", p=1) == 2 + 1, "the bee no longer counts the trout"
    assert sc2.s.scores()[0] == sc2.call("area_points", p=1) + 3


def test_S30_a_holder_with_no_spirit_suffers_nothing_and_discovery_has_none():
    sc = fresh()
    end_with(sc, [], ["bee"])
    sc.put(spirit(sc, "evil"), ("kept", 1))
    sc.play("pass", "pass")
    assert sc.s.is_terminal() and sc.var(("cover", 1)) is None and sc.var(("cover", 2)) is None
    assert sc.call("spirit_points", p=2) == 1
    sc = fresh(discovery=True)
    assert len(sc.find("Spirit")) == 14 and sc.find("Spirit", animal="evil") == []


# ---- End of the game ----------------------------------------------------------------------

def test_S31_with_the_pile_empty_capture_or_pass_until_two_passes():
    sc = fresh()
    give(sc, 1, (6, 4), (6, 7))
    give(sc, 2, (3, 5), (2, 2))
    lay_display(sc, [(3, 8)], [(1, 1)])
    end_phase(sc)
    begin_turn(sc)
    # no second chance: a tile that captures nothing cannot be played; P1 must pass
    assert sc.moves() == ["pass"]
    sc.refuse("play purple 4", "draw pile is empty")
    sc.play("pass")
    assert sc.var("passes") == 1 and not sc.s.is_terminal()
    # P2 can capture green 8 with green 5: capturing is compulsory, passing is refused
    assert sc.moves() == ["play green 5"]
    sc.refuse("pass", "passing")
    sc.play("play green 5")
    assert sc.var("passes") == 0, "a capture ends the run of passes"
    assert sc.zone(("hand", 2)) == [tile(sc, 2, 2)], "no refill"
    sc.play("pass")
    assert not sc.s.is_terminal()
    sc.play("pass")
    assert sc.s.is_terminal() and sc.s.winners


def test_S32_the_evil_spirit_before_the_squirrel():
    for covered, squirrel_acts in (("squirrel", False), ("bee", True)):
        sc = fresh()
        end_with(sc, ["squirrel", "bee"], hand=[(1, 3)])
        sc.put(spirit(sc, "evil"), ("kept", 1))
        sc.play("pass", "pass", covered)
        assert sc.s.is_terminal()
        assert (at(sc, 1, 1, 3) == "red 3") is squirrel_acts
        assert (sc.zone(("hand", 1)) == []) is squirrel_acts


# ---- Scoring ------------------------------------------------------------------------------

def test_S33_the_largest_area_by_size_with_rainbows_counted_without():
    sc = fresh()
    # area A: 3 tiles and 2 rainbows (size 5); area B: 4 tiles (size 4): A counts, for 3
    lay(sc, 1, (1, 1), (1, 2), (1, 3), (1, 6), (1, 7), (1, 8), (1, 9))
    rainbow(sc, 1, (2, 1), (2, 2))
    assert sc.call("area_points", p=1) == 3
    # area C, also of size 5 but with 4 tiles, wins the tie
    lay(sc, 1, (4, 5), (4, 6), (4, 7), (4, 8))
    rainbow(sc, 1, (5, 5))
    assert sc.call("area_points", p=1) == 4
    assert sc.call("area_points", p=2) == 0


def test_S34_fires_linked_to_the_bottom_row_through_tiles_and_rainbows():
    sc = fresh()
    lay(sc, 1, (1, 2), (3, 2), (4, 2))       # sky 2: a fire, linked through a rainbow
    rainbow(sc, 1, (2, 2))
    lay(sc, 1, (2, 9), (3, 9))               # a rainbow on sky 9's fire position carries no fire
    rainbow(sc, 1, (1, 9), (4, 9))
    lay(sc, 1, (5, 8))                       # pink 8 is not linked to anything
    rainbow(sc, 1, (1, 5))                   # a rainbow in the bottom row starts a path
    lay(sc, 1, (2, 5), (3, 5), (4, 5), (5, 5), (6, 5))
    lit = {(sc.s.entities[c]["row"], sc.s.entities[c]["col"]) for c in sc.call("lit", p=1)}
    assert lit == {(4, 2), (6, 5)}
    assert sc.call("fire_points", p=1) == int(1 + 1.5) == 2


def test_S35_points_for_area_fires_spirits_and_bonuses():
    sc = fresh()
    # a column a1..a3 + sky 2... : area of 6 tiles, sky 2 lit (1 fire); a lizard with 1 rainbow
    lay(sc, 1, (1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2), (4, 2))
    panorama_with(sc, 1, ["lizard", "trout"], rainbows=[(5, 7)])
    expected = 7 + 1 + 2 + 1
    assert sc.call("total", p=1) == expected
    assert sc.s.scores() == [expected, 0]


def tie_break(p1, p2):
    sc = fresh()
    (cells1, spirits1), (cells2, spirits2) = p1, p2
    lay(sc, 1, *cells1)
    lay(sc, 2, *cells2)
    for p, animals in ((1, spirits1), (2, spirits2)):
        for i, a in enumerate(animals):
            seat(sc, p, a, 5, 3 + i)
    give(sc, 1)
    give(sc, 2)
    end_phase(sc)
    begin_turn(sc)
    sc.play("pass", "pass")
    assert sc.s.is_terminal()
    return sc


def test_S36_most_points_then_largest_area_then_fires_then_shared():
    row = [(1, k) for k in range(4, 9)]
    column = [(1, 2), (2, 2), (3, 2), (4, 2)]
    # 5 points each: area 5 beats area 4 + 1 fire
    sc = tie_break((row, []), (column, []))
    assert sc.s.scores() == [5, 5] and sc.s.winners == [1]
    # 5 points and area 4 each: the lit fire beats a spirit
    sc = tie_break(([(1, 6), (1, 7), (1, 8), (1, 9)], ["trout"]), (column, []))
    assert sc.s.scores() == [5, 5] and sc.s.winners == [2]
    # the same everything: shared
    sc = tie_break((row, []), ([(2, k) for k in range(1, 6)], []))
    assert sc.s.winners == [1, 2]
    # and simply most points
    sc = tie_break((row, ["trout"]), ([(2, k) for k in range(1, 5)], []))
    assert sc.s.scores() == [6, 4] and sc.s.winners == [1]
