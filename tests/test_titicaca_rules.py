"""One scenario test per numbered rule of Titicaca (../shared/games/titicaca.md, T-1..T-28).

Each test builds a position with the generic harness (tests/scenario.py): villages are put on
hexes (zone site[hex]), regions are set through the variable area[hex] (a region is named by
one of its hexes), then moves are played or the rules' own functions and procedures are asked
(sc.call, sc.run). Expected values are worked out from the rules in the comments beside them.

Map reference (row.col of each hex, as the labels say: 'F@3.4' is the forest in row 3, col 4):

    row1:             P1.6              M1.12
    row2:      M2.3  04    N2.7  F2.9  06
    row3:         F3.4  M3.6  05    M3.10 P3.12 07
    row4:   F4.1  03    N4.5  P4.7  N4.9  08    S4.13
    row5:      S5.2  M5.4  02    F5.8  S5.10 P5.12 09    N5.16
    row6:   N6.1  01    F6.5  N6.7  11    F6.11 N6.13
    row7:         S7.4  14    S7.8  P7.10 10    S7.14
    row8:      15    M8.5  F8.7  12    M8.11
    row9:               13          P9.10
"""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

try:
    from scenario import Scenario, load
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario, load

from referee.interpreter.play.bots import RandomBot
from referee.interpreter.engine import load_game

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "games" / "titicaca.rules"
VARIANT = ROOT / "games" / "variants" / "titicaca-wide.rules"
LAND = ("forest", "meadow", "mountain", "savanna", "pampa")
SYMBOLS = {"F": "forest", "M": "meadow", "N": "mountain", "S": "savanna", "P": "pampa"}


# ---- Titicaca vocabulary on top of the generic harness ----------------------------------------

FINAL_SCORING = "final scoring: every region, then every player's weapons, villages and longest chain"


def lake_scoring(n) -> str:
    """The log line that opens the scoring after round n."""
    return f"scoring of lake {n}: the regions on its shore, then every player's weapons"


def fresh(players=3, seed=0) -> Scenario:
    """A new game: round 1, every player about to bid."""
    return Scenario.new(RULES, players=players, seed=seed)


def H(sc, label) -> int:
    """A hex by its label ('F@3.4', '05@3.8')."""
    return sc.one("Map", label=label)


def lake(sc, n) -> int:
    return sc.one("Map", number=n)


def label(sc, h) -> str:
    return sc.label(h)


def neighbours(sc, h) -> list:
    return list(sc.game.geometries["Map"].neighbors[h])


def land(sc) -> list:
    return [h for h in sc.game.geometries["Map"].cells if sc.attr(h, "terrain") != "lake"]


def settle(sc, p, hex_label, region=None) -> int:
    """Put one of p's villages on a hex, in the region named by the hex `region` (a label), or
    in a new region of its own."""
    h = H(sc, hex_label)
    sc.put(sc.take("Village", ("supply", p)), ("site", h))
    sc.set_var(("area", h), H(sc, region) if region else h)
    return h


def region(sc, *villages) -> int:
    """One region of (player, hex label) villages, named by the first hex."""
    name = villages[0][1]
    for p, hex_label in villages:
        settle(sc, p, hex_label, name)
    return H(sc, name)


def temple(sc, p, value, hex_label) -> int:
    t = sc.one("Temple", ("reserve", p), value=value)
    sc.put(t, ("shrine", H(sc, hex_label)))
    return t


def associate_name(sc, x, y) -> str:
    """The move that associates two regions: the one adjacent to the new village's region is
    named first (both adjacent: in reading order of the hexes that name them)."""
    home = sc.var(("area", sc.var("newest")))
    near = lambda r: sc.call("touch", a=home, b=r)
    x, y = sorted((x, y), key=lambda h: (not near(h), sc.attr(h, "row"), sc.attr(h, "col")))
    return f"associate the regions of {label(sc, x)} and {label(sc, y)}"


def bid_all(sc, amounts: dict):
    """Every bidder of the round seals their bid (amounts: seat -> bid)."""
    assert sc.s.sealed()
    while sc.s.sealed():
        p = sc.s.current_player()
        sc.play(f"bid {amounts[p]}")


def points(sc) -> list:
    return [sc.var(("points", p)) for p in range(1, sc.game.num_players + 1)]


def weapons(sc) -> list:
    return [sc.var(("weapons", p)) for p in range(1, sc.game.num_players + 1)]


def skip_rest(sc):
    """Decline the optional steps (merge, associate, temple) of the turn."""
    while "skip" in sc.moves():
        sc.play("skip")


def fill_land(sc, keep=(), players=None):
    """Villages on every empty land hex but those in `keep`, each in a region of its own,
    dealt to the players in turn (enough villages: 39 for 3 players, 34 for 2)."""
    seats = players or list(range(1, sc.game.num_players + 1))
    k = 0
    for h in land(sc):
        if label(sc, h) in keep or sc.zone(("site", h)):
            continue
        p = seats[k % len(seats)]
        k += 1
        settle(sc, p, label(sc, h))


# ---- the standard map ------------------------------------------------------------------------

def map_properties(game):
    """What titicaca.md says of the standard map, computed from a loaded game's board."""
    geometry = game.geometries["Map"]
    entities = game.static_entities
    cells = geometry.cells
    terrain = {c: entities[c]["terrain"] for c in cells}
    lakes = [c for c in cells if terrain[c] == "lake"]
    lands = [c for c in cells if terrain[c] != "lake"]
    return {
        "hexes": len(cells),
        "lake numbers": sorted(entities[c]["number"] for c in lakes),
        "land terrains": Counter(terrain[c] for c in lands),
        "lakes side by side": [(a, b) for a in lakes for b in geometry.neighbors[a] if b in lakes],
        "dry land": [c for c in lands if not any(terrain[n] == "lake" for n in geometry.neighbors[c])],
        "lakes with < 2 shores": [c for c in lakes if sum(terrain[n] != "lake" for n in geometry.neighbors[c]) < 2],
        "same terrain side by side": [(a, b) for a in lands for b in geometry.neighbors[a]
                                      if b in lands and terrain[a] == terrain[b]],
    }


def test_the_standard_map_has_its_listed_properties():
    found = map_properties(load(RULES))
    assert found["hexes"] == 48
    assert found["lake numbers"] == list(range(1, 16))            # 15 lakes numbered 1 to 15
    assert found["land terrains"] == Counter(forest=7, meadow=7, mountain=7, savanna=6, pampa=6)
    assert sum(found["land terrains"].values()) == 33
    assert found["lakes side by side"] == []
    assert found["dry land"] == []                                  # every land hex touches a lake
    assert found["lakes with < 2 shores"] == []
    assert found["same terrain side by side"] == []


def test_the_variant_map_is_another_map_with_the_same_properties():
    standard, variant = load(RULES), load(VARIANT)
    assert [e["__label__"] for e in variant.static_entities] != [e["__label__"] for e in standard.static_entities]
    found = map_properties(variant)
    assert found["lake numbers"] == list(range(1, 16))
    assert sum(found["land terrains"].values()) == 33 and set(found["land terrains"]) == set(LAND)
    assert found["lakes side by side"] == found["dry land"] == found["lakes with < 2 shores"] == []
    assert found["same terrain side by side"] == []
    # and the game plays on it to the end
    state = variant.new_initial_state(seed=3)
    moves = 0
    while not state.is_terminal():
        state.apply(state.legal_moves()[moves % len(state.legal_moves())])
        moves += 1
    assert moves > 10 and state.winners


# ---- Components --------------------------------------------------------------------------------

def test_T01_a_board_of_48_hexes_15_numbered_lakes_and_33_land_hexes():
    sc = fresh()
    cells = sc.game.geometries["Map"].cells
    assert len(cells) == 48
    lakes = [c for c in cells if sc.attr(c, "terrain") == "lake"]
    assert sorted(sc.attr(c, "number") for c in lakes) == list(range(1, 16))
    assert len(land(sc)) == 33 and all(sc.attr(h, "number") is None for h in land(sc))
    # a lake's label is its number as drawn in the rules file
    assert all(label(sc, c).split("@")[0] == f"{sc.attr(c, 'number'):02d}" for c in lakes)


def test_T02_five_terrain_types_one_letter_each():
    sc = fresh()
    assert {sc.attr(h, "terrain") for h in land(sc)} == set(LAND)
    for h in land(sc):
        assert SYMBOLS[label(sc, h).split("@")[0]] == sc.attr(h, "terrain")


def test_T03_weapons_are_one_number_starting_at_20_any_amount_can_be_bid():
    sc = fresh()
    assert weapons(sc) == [20, 20, 20]
    # no denominations: every amount from 1 to what one holds is one bid
    assert sc.moves() == [f"bid {n}" for n in range(1, 21)]
    bid_all(sc, {1: 7, 2: 3, 3: 11})
    sc.play(sc.moves()[0])
    assert sc.var(("weapons", 3)) == 20 - 11                        # P3 bid most, acts, pays 11
    # the weapons of every player are public, one number each
    view = sc.s.view(2)["vars"]
    assert view["weapons[P3]"] == "9" and view["weapons[P1]"] == "20"


def test_T04_two_temples_each_worth_1_and_2_their_value_seen_by_the_owner_only():
    sc = fresh(players=5)
    temples = sc.find("Temple")
    assert len(temples) == 10
    for p in range(1, 6):
        assert sorted(sc.attr(t, "value") for t in sc.zone(("reserve", p))) == [1, 2]
    mine = [item["label"] for item in sc.s.view(1)["zones"]["reserve[P1]"]["items"]]
    theirs = [item["label"] for item in sc.s.view(2)["zones"]["reserve[P1]"]["items"]]
    assert sorted(mine) == ["T1", "T2"] and theirs == ["T?", "T?"]
    # on the board too: P1's temple reads T? for everybody else
    settle(sc, 1, "F@6.5")
    temple(sc, 1, 2, "F@6.5")
    drawn = {p: next(c for c in sc.s.view(p)["boards"]["Map"]["cells"] if c["label"] == "F@6.5")["marks"]
             for p in (1, 2)}
    assert "T2" in drawn[1] and "T?" in drawn[2] and "T2" not in drawn[2]


@pytest.mark.parametrize("players, each", [(2, 17), (3, 13), (4, 13), (5, 13)])
def test_T05_villages_17_each_for_two_players_13_for_three_to_five(players, each):
    sc = fresh(players=players)
    for p in range(1, players + 1):
        assert len(sc.zone(("supply", p))) == each
        assert {sc.attr(v, "owner") for v in sc.zone(("supply", p))} == {p}
    assert players * each >= 33                                     # the players can fill the land
    assert len({sc.label(v) for v in sc.find("Village")}) == players   # one colour per player


def test_T06_borders_enclose_villages_on_land_edges_outside_their_region_only():
    sc = fresh()
    r = region(sc, (1, "N@4.5"), (2, "P@4.7"))
    alone = settle(sc, 3, "M@3.6")
    border = lambda a, b: sc.call("border", a=H(sc, a), b=H(sc, b))
    assert not border("N@4.5", "P@4.7")                             # inside one region: no stick
    assert border("N@4.5", "M@3.6") and border("M@3.6", "P@4.7")    # two regions
    assert border("N@4.5", "F@3.4")                                 # a village beside empty land
    assert not border("N@4.5", "03@4.3") and not border("P@4.7", "05@3.8")   # no stick on a lake edge
    assert not border("F@3.4", "M@2.3")                             # two empty hexes: no stick
    assert not border("N@4.5", "N@4.9")                             # not adjacent
    # a new village is enclosed on every land edge
    edges = [n for n in neighbours(sc, alone) if sc.attr(n, "terrain") != "lake"]
    assert edges and all(sc.call("border", a=alone, b=n) for n in edges)
    assert r == H(sc, "N@4.5")


def test_T07_a_first_player_arrow_everybody_sees():
    sc = fresh(players=4)
    for p in range(1, 5):
        assert sc.s.view(p)["vars"]["arrow"] == "P1"
    sc.set_var("arrow", 3)
    assert sc.s.view(2)["vars"]["arrow"] == "P3"
    # the arrow holder wins ties: with equal bids P3 acts first
    bid_all(sc, {1: 2, 2: 2, 3: 2, 4: 2})
    assert sc.var("order") == [3, 4, 1, 2]


def test_T08_setup_20_weapons_two_temples_all_villages_and_an_empty_board():
    for players in (2, 3, 5):
        sc = fresh(players=players)
        for p in range(1, players + 1):
            assert sc.var(("weapons", p)) == 20
            assert len(sc.zone(("reserve", p))) == 2
            assert len(sc.zone(("supply", p))) == (17 if players == 2 else 13)
        assert all(not sc.zone(("site", h)) and sc.var(("area", h)) is None for h in land(sc))
        assert points(sc) == [0] * players


def test_T09_seat_one_holds_the_arrow():
    for players in (2, 3, 4, 5):
        sc = fresh(players=players, seed=players)
        assert sc.var("arrow") == 1
        assert sc.s.current_player() == 1 and sc.var("round") == 1


# ---- A round ---------------------------------------------------------------------------------

def test_T10_secret_bids_from_1_to_what_one_holds_revealed_together():
    sc = fresh()
    assert sc.s.sealed() and sc.moves() == [f"bid {n}" for n in range(1, 21)]
    sc.refuse("bid 0", "unknown move")
    sc.refuse("bid 21", "unknown move")
    sc.play("bid 9")
    # P1's bid is sealed: nobody else sees it, not even in the list of moves played
    for p in (2, 3):
        view = sc.s.view(p)
        assert view["sealed"] == [1] and view["vars"]["offer[P1]"] == "0"
        assert view["moves"] == ["P1 has chosen"] and "9" not in repr(view["moves"])
    assert sc.s.view(1)["moves"] == ["P1: bid 9"]
    sc.play("bid 4")
    assert sc.var(("offer", 1)) == 0 and sc.var(("offer", 2)) == 0   # not yet revealed
    sc.play("bid 6")
    # all revealed together, in the public history too
    assert [sc.var(("offer", p)) for p in (1, 2, 3)] == [9, 4, 6]
    assert sc.s.view(3)["moves"] == ["P1: bid 9", "P2: bid 4", "P3: bid 6"]


def test_T10_a_player_without_weapons_or_without_villages_sits_out():
    sc = fresh()
    # P3's villages: all but one already on the board, away from lakes 1 and 2
    lakes_1_2 = set(neighbours(sc, lake(sc, 1))) | set(neighbours(sc, lake(sc, 2)))
    spots = [h for h in land(sc) if h not in lakes_1_2][:12]
    for h in spots:
        settle(sc, 3, label(sc, h))
    assert len(sc.zone(("supply", 3))) == 1
    bid_all(sc, {1: 1, 2: 20, 3: 2})                                # P2 spends all its weapons
    for p in sc.var("order"):
        sc.play(sc.moves()[0])
        skip_rest(sc)
    assert sc.s.log.count("P3 has placed their last village") == 1
    # round 2: P2 has no weapons, P3 no village: only P1 bids
    assert sc.var("round") == 2 and weapons(sc)[1] == 0 and not sc.zone(("supply", 3))
    assert sc.s.sealed() and sc.s.current_player() == 1
    # the log says so, in the order of the seats
    assert sc.s.log[-3:] == ["round 2, lake 2: bid for the order of play (highest first; only those who place pay)",
                             "P2 sits the round out: no weapons",
                             "P3 sits the round out: no village left"]
    sc.play("bid 1")
    assert not sc.s.sealed() and sc.var("order") == [1]


def test_T11_highest_bid_first_ties_from_the_arrow_holder_clockwise():
    sc = fresh(players=3)
    bid_all(sc, {1: 5, 2: 8, 3: 2})
    assert sc.var("order") == [2, 1, 3] and sc.s.current_player() == 2
    # equal bids, arrow at P2: P2 (the holder) first, then P3, then P1
    sc = fresh(players=3)
    sc.set_var("arrow", 2)
    bid_all(sc, {1: 4, 2: 4, 3: 4})
    assert sc.var("order") == [2, 3, 1]
    # P1 and P3 tie below P2's higher bid, arrow at P2: P3 comes before P1 clockwise
    sc = fresh(players=3)
    sc.set_var("arrow", 2)
    bid_all(sc, {1: 3, 2: 6, 3: 3})
    assert sc.var("order") == [2, 3, 1]


def test_T12_only_as_many_act_as_there_are_empty_hexes_and_only_they_pay():
    sc = fresh(players=3)
    # lake 1 keeps two empty shores
    shores = [label(sc, h) for h in neighbours(sc, lake(sc, 1))]
    for hex_label in shores[:3]:
        settle(sc, 1, hex_label)
    bid_all(sc, {1: 5, 2: 7, 3: 2})
    assert sc.var("order") == [2, 1, 3]
    sc.play(f"place on {shores[3]}")
    skip_rest(sc)
    sc.play(f"place on {shores[4]}")
    skip_rest(sc)
    # P3 never acted: it takes back its bid; the two who acted paid theirs
    assert weapons(sc) == [20 - 5, 20 - 7, 20]
    assert "P3 takes back the bid" in sc.s.log
    assert sc.var("round") == 2 and sc.s.sealed()


def test_T12_a_round_whose_lake_has_no_empty_shore_is_skipped_but_counts():
    sc = fresh(players=3)
    for h in neighbours(sc, lake(sc, 2)):
        if sc.attr(h, "terrain") != "lake":
            settle(sc, 2, label(sc, h))
    bid_all(sc, {1: 1, 2: 1, 3: 1})
    for _ in range(3):
        sc.play(next(m for m in sc.moves() if m.startswith("place on ")))
        skip_rest(sc)
    # round 2 was skipped: nobody bid, nobody paid; round 3 is bidding, and the arrow moved twice
    assert sc.var("round") == 3 and sc.var("arrow") == 3
    assert weapons(sc) == [19, 19, 19]
    assert "round 2, lake 2: no empty land hex on its shore, the round is skipped" in sc.s.log
    assert sc.s.history.count("bid 1") == 3


def test_T12_a_skipped_round_5_is_still_scored():
    sc = fresh(players=2)
    sc.set_var("round", 4)                                          # round 1 stands for round 4
    settle(sc, 1, "M@3.10")                                     # borders lake 5 and 6 and 8
    for h in neighbours(sc, lake(sc, 5)):
        if sc.attr(h, "terrain") != "lake" and not sc.zone(("site", h)):
            settle(sc, 2, label(sc, h))
    before = points(sc)
    bid_all(sc, {1: 1, 2: 1})
    sc.play(next(m for m in sc.moves() if m.startswith("place on ")))
    skip_rest(sc)
    sc.play(next(m for m in sc.moves() if m.startswith("place on ")))
    skip_rest(sc)
    # round 5 had no empty shore: skipped, and scored all the same (weapons count at least)
    assert sc.var("round") == 6
    assert all(after > b for after, b in zip(points(sc), before))
    assert lake_scoring(5) in sc.s.log and sc.var(("points", 1)) > 19   # M@3.10 was scored


def test_T13_the_arrow_passes_one_seat_clockwise_each_round():
    sc = fresh(players=3)
    seen = [sc.var("arrow")]
    for _ in range(4):
        round_ = sc.var("round")
        bid_all(sc, {1: 1, 2: 1, 3: 1})
        while sc.var("round") == round_:
            sc.play(next(m for m in sc.moves() if m.startswith("place on ")))
            skip_rest(sc)
        seen.append(sc.var("arrow"))
    assert seen == [1, 2, 3, 1, 2]


# ---- A player's action -------------------------------------------------------------------------

def test_T14_place_a_village_on_an_empty_shore_of_the_rounds_lake():
    sc = fresh(players=3)
    taken = settle(sc, 2, "M@5.4")
    bid_all(sc, {1: 3, 2: 1, 3: 1})
    shores = [h for h in neighbours(sc, lake(sc, 1)) if sc.attr(h, "terrain") != "lake" and h != taken]
    assert sorted(sc.moves()) == sorted(f"place on {label(sc, h)}" for h in shores)
    assert sc.moves() == [f"place on {label(sc, h)}" for h in sc.call("spots")]
    # a hex outside the spots is refused with the reason of place's domain
    sc.refuse("place on M@5.4", "M@5.4 is not an empty land hex beside lake 1, this round's lake")   # not empty
    sc.refuse("place on 01@6.3", "01@6.3 is not an empty land hex beside lake 1")                   # a lake
    sc.refuse("place on F@3.4", "F@3.4 is not an empty land hex beside lake 1, this round's lake")   # not on lake 1
    before = len(sc.zone(("supply", 1)))
    sc.play("place on S@7.4")
    h = H(sc, "S@7.4")
    assert [sc.attr(v, "owner") for v in sc.zone(("site", h))] == [1]
    assert len(sc.zone(("supply", 1))) == before - 1
    # a new region of one hex, enclosed by borders
    assert sc.var(("area", h)) == h and sc.call("members", r=h) == [h]
    assert all(sc.call("border", a=h, b=n) for n in neighbours(sc, h) if sc.attr(n, "terrain") != "lake")


def test_T15_merge_with_an_adjacent_region_that_lacks_the_new_terrain():
    sc = fresh(players=3)
    meadow = region(sc, (2, "M@5.4"), (3, "N@4.5"))                 # meadow + mountain, touches F@6.5
    savanna = settle(sc, 3, "S@7.4")                                # touches F@6.5 too
    forest = region(sc, (2, "F@3.4"), (2, "M@2.3"))                 # not adjacent to F@6.5
    bid_all(sc, {1: 3, 2: 1, 3: 1})
    sc.play("place on F@6.5")
    assert sorted(m for m in sc.moves() if m.startswith("merge")) == sorted(
        [f"merge into the region of {label(sc, meadow)}", f"merge into the region of {label(sc, savanna)}"])
    # refused in the player's words, not the rule's code
    assert sc.refuse(f"merge into the region of {label(sc, forest)}", "not possible now").endswith(
        "that region does not touch the region of your new village")
    sc.play(f"merge into the region of {label(sc, meadow)}")
    f = H(sc, "F@6.5")
    assert sc.var(("area", f)) == meadow
    assert sorted(sc.call("members", r=meadow)) == sorted([meadow, H(sc, "N@4.5"), f])
    assert not sc.call("border", a=f, b=H(sc, "M@5.4"))             # the border between them is gone
    assert sc.call("border", a=f, b=savanna)


def test_T15_no_merge_with_a_region_that_has_the_terrain_already():
    sc = fresh(players=3)
    region(sc, (2, "M@5.4"), (2, "N@4.5"), (3, "F@3.4"))     # touches F@6.5, has a forest
    savanna = settle(sc, 3, "S@7.4")                           # touches F@6.5, no forest
    bid_all(sc, {1: 3, 2: 1, 3: 1})
    sc.play("place on F@6.5")
    assert [m for m in sc.moves() if m.startswith("merge")] == [f"merge into the region of {label(sc, savanna)}"]
    reason = sc.refuse("merge into the region of M@5.4", "not possible now")
    assert reason.endswith("that region already has a hex of your new village's terrain")


def test_T16_associate_two_other_regions_when_all_three_conditions_hold():
    sc = fresh(players=3)
    # the new village will stand on S@7.4 (lake 1); around it:
    a = region(sc, (2, "F@6.5"), (2, "N@6.7"))      # touches S@7.4; forest + mountain
    b = region(sc, (1, "F@5.8"), (3, "S@5.10"))     # touches a (N@6.7-F@5.8); forest + savanna
    c = region(sc, (3, "M@8.5"))                    # touches S@7.4 and F@8.7
    d = region(sc, (3, "F@8.7"), (3, "S@7.8"))      # touches c; not S@7.4's region
    bid_all(sc, {1: 3, 2: 1, 3: 1})
    sc.play("place on S@7.4")
    sc.play("skip")                                 # no merge
    associate = lambda x, y: associate_name(sc, x, y)
    # a-b: a is adjacent to the new region, b holds a village of P1, each has what the other lacks
    assert sc.can(associate(a, b))
    # c-d: adjacent to the new region, but no village of P1 in either
    assert "your villages" in sc.refuse(associate(c, d))
    sc.play(associate(a, b))
    joined = sc.var(("area", a))
    assert sc.var(("area", b)) == joined
    assert sorted(sc.call("members", r=joined)) == sorted(H(sc, x) for x in ("F@6.5", "N@6.7", "F@5.8", "S@5.10"))
    assert sc.var(("area", H(sc, "S@7.4"))) == H(sc, "S@7.4")       # the new region stays apart
    assert not any(m.startswith("associate") for m in sc.moves())    # once per turn


def test_T16_associate_needs_a_region_adjacent_to_the_new_one_and_terrains_each_lacks():
    sc = fresh(players=3)
    a = region(sc, (1, "F@2.9"), (3, "M@3.10"))     # far from lake 1
    b = region(sc, (1, "N@4.9"))                    # touches a
    c = region(sc, (2, "F@6.5"))                    # touches the new hex S@7.4
    d = region(sc, (1, "N@6.7"), (2, "F@5.8"))      # touches c; has everything c has
    e = region(sc, (1, "M@8.5"))                    # touches the new hex
    f = region(sc, (3, "F@8.7"))                    # touches e: e-f may be associated
    bid_all(sc, {1: 3, 2: 1, 3: 1})
    sc.play("place on S@7.4")
    sc.play("skip")
    associate = lambda x, y: associate_name(sc, x, y)
    assert [m for m in sc.moves() if m.startswith("associate")] == [associate(e, f)]
    assert "adjacent" in sc.refuse(associate(a, b))                 # neither touches the new region
    assert "lacks" in sc.refuse(associate(c, d))                    # c's forest is in d already


def test_T16_a_pair_that_is_not_two_touching_regions_named_once_is_refused_in_words():
    sc = fresh(players=3)
    a = region(sc, (1, "F@6.5"), (2, "N@6.7"))                   # touches S@7.4
    c = region(sc, (3, "M@8.5"), (3, "F@8.7"), (3, "S@7.8"))     # touches S@7.4 and a
    far = region(sc, (1, "M@2.3"))                               # touches neither
    bid_all(sc, {1: 3, 2: 1, 3: 1})
    sc.play("place on S@7.4")
    sc.play("skip")
    home = H(sc, "S@7.4")
    name = lambda x, y: f"associate the regions of {label(sc, x)} and {label(sc, y)}"
    assert sc.refuse(name(home, a)).endswith("the region of your new village is not one of the two: name two other regions")
    assert sc.refuse(name(a, far)).endswith("the two regions must touch each other across a border")
    # a pair is named once: both touch the new village's region, so F@6.5 (row 6) comes first
    assert sc.refuse(name(c, a)).endswith("name first the region that touches your new village's region "
                                         "(if both do, the one higher on the map, or further left in its row)")
    assert sc.can(name(a, c))


def points_in_the_log(log) -> Counter:
    """What the log says each seat scored: 'region of X, most villages on T: P1 +4', 'P1, P3 +1
    (...)' (a shared award, each), 'P2 +20 (one per weapon held)', 'P1 +5 (weapons) +12 (...)'."""
    scored = Counter()
    for line in log:
        said = re.match(r"^(?:region of \S+, [^:]+: )?((?:P\d, )*P\d) (\+\d+.*)$", line)
        if said:
            for seat in said.group(1).split(", "):
                scored[int(seat[1:])] += sum(int(n) for n in re.findall(r"\+(\d+)", said.group(2)))
    return scored


# (random bots spend their weapons fast: the 2-player game of seed 3 ends before round 5)
@pytest.mark.parametrize("players, seed, lake_scorings", [(2, 3, 0), (3, 4, 2), (5, 5, 2)])
def test_T19_T22_the_log_says_where_every_point_comes_from(players, seed, lake_scorings):
    """The scorings' log lines, award by award, add up to each player's points: a player at
    the table sees why the scores moved."""
    game, _, _ = load_game(str(RULES), (), players)
    state, bot = game.new_initial_state(seed), RandomBot(seed)
    scorings = 0
    while not state.is_terminal():
        state.apply(bot.choose(state))
        done = sum(line.startswith("scoring of lake") for line in state.log)
        if done > scorings:             # a scoring has just been made: the log adds up to it
            scorings = done
            assert points_in_the_log(state.log) == {p: state.scores()[p - 1] for p in range(1, players + 1)}
    assert scorings == lake_scorings and FINAL_SCORING in state.log
    assert points_in_the_log(state.log) == {p: state.scores()[p - 1] for p in range(1, players + 1)}
    # and every round says what it is played for, who pays and plays
    assert "round 1, lake 1: bid for the order of play (highest first; only those who place pay)" in state.log
    assert any(re.fullmatch(r"order of play: (P\d, )*P\d", line) for line in state.log)
    assert any(re.fullmatch(r"P\d pays \d+ and plays", line) for line in state.log)


def test_T17_a_temple_on_ones_own_village_in_or_beside_the_new_region():
    sc = fresh(players=3)
    near = settle(sc, 1, "F@6.5")                   # a region adjacent to S@7.4
    far = settle(sc, 1, "F@3.4")                    # not adjacent
    theirs = settle(sc, 2, "M@8.5")                 # adjacent, but P2's
    bid_all(sc, {1: 3, 2: 1, 3: 1})
    sc.play("place on S@7.4")
    while not any(m.startswith("build temple") for m in sc.moves()):
        sc.play("skip")
    allowed = {m for m in sc.moves() if m.startswith("build temple")}
    assert allowed == {f"build temple T{v} on {x}" for v in (1, 2) for x in ("S@7.4", "F@6.5")}
    assert sc.refuse("build temple T1 on F@3.4", "not possible now").endswith(
        "a temple goes in the region of your new village or in a region that touches it")
    assert sc.refuse("build temple T1 on M@8.5", "not possible now").endswith(
        "a temple goes on a hex that holds one of your villages")
    sc.play("build temple T2 on F@6.5")
    assert [sc.attr(t, "value") for t in sc.zone(("shrine", near))] == [2]
    # the other players see that a temple was built, not its value
    for p in (2, 3):
        assert "P1: build temple T? on F@6.5" in sc.s.view(p)["moves"]
    assert "P1: build temple T2 on F@6.5" in sc.s.view(1)["moves"]
    assert not sc.zone(("shrine", far)) and not sc.zone(("shrine", theirs))


def test_T17_a_hex_holds_at_most_one_temple():
    sc = fresh(players=3)
    settle(sc, 1, "F@6.5")
    temple(sc, 1, 1, "F@6.5")
    bid_all(sc, {1: 3, 2: 1, 3: 1})
    sc.play("place on S@7.4")
    while not any(m.startswith("build temple") for m in sc.moves()):
        sc.play("skip")
    assert {m for m in sc.moves() if m.startswith("build temple")} == {"build temple T2 on S@7.4"}
    assert sc.refuse("build temple T2 on F@6.5", "not possible now").endswith("that hex already holds a temple")


def test_T18_adjacent_regions_and_the_lakes_a_region_borders():
    sc = fresh(players=3)
    a = region(sc, (1, "N@4.5"), (2, "P@4.7"))
    b = region(sc, (3, "M@3.6"))
    c = region(sc, (3, "S@7.8"))
    assert sc.call("touch", a=a, b=b) and sc.call("touch", a=b, b=a)
    assert not sc.call("touch", a=a, b=c) and not sc.call("touch", a=a, b=a)
    # N@4.5 borders lakes 3 and 2; P@4.7 borders lakes 5 and 2
    assert sorted(sc.attr(w, "number") for w in sc.call("lakes_of", r=a)) == [2, 3, 5]
    assert sorted(sc.attr(w, "number") for w in sc.call("lakes_of", r=c)) == [11, 12, 14]


# ---- Scoring -----------------------------------------------------------------------------------

def play_round(sc, spots):
    """Bid 1 each, then the acting players place on the given hexes in turn, skipping the rest."""
    bid_all(sc, {p: 1 for p in range(1, sc.game.num_players + 1)})
    for spot in spots:
        sc.play(f"place on {spot}")
        skip_rest(sc)


def test_T19_round_5_scores_the_regions_bordering_lake_5_only():
    sc = fresh(players=2)
    sc.set_var("round", 5)
    region(sc, (1, "N@4.9"), (1, "M@3.10"))    # borders lake 5: mountain 2 + meadow 2 + 3 lakes
    away = region(sc, (2, "S@7.8"))                   # borders lakes 11, 12, 14 only
    sc.set_vars({("weapons", 1): 5, ("weapons", 2): 5})
    play_round(sc, ["F@2.9", "P@4.7"])                # P1 then P2 (tie, arrow at P1)
    # F@2.9 (P1) and P@4.7 (P2) are new regions on lake 5; S@7.8 is not scored
    #   by_5 (2 hexes, lakes 5, 6, 8): P1 mountain 2 + meadow 2 + majority 3 = 7
    #   F@2.9 (lakes 5, 6): P1 forest 1 + majority 2 = 3;  P@4.7 (lakes 5, 2): P2 pampa 1 + 2 = 3
    #   weapons held then (T-21): 5 - 1 = 4 each
    assert points(sc) == [7 + 3 + 4, 3 + 4]
    assert lake_scoring(5) in sc.s.log and away


def test_T19_round_10_scores_lake_10_and_the_end_scores_every_region():
    sc = fresh(players=2)
    sc.set_var("round", 10)
    region(sc, (2, "F@6.11"))                          # borders lakes 10 and 11
    region(sc, (1, "M@2.3"))                           # far from lake 10
    play_round(sc, ["S@7.14", "P@7.10"])
    assert sc.var("round") == 11 and lake_scoring(10) in sc.s.log
    # scored: F@6.11 (P2: 1 + 2 lakes), S@7.14 (P1: 1 + 1 lake), P@7.10 (P2: 1 + 3 lakes); weapons 19
    assert points(sc) == [1 + 1 + 19, (1 + 2) + (1 + 3) + 19]
    # weapons after the scoring (T-25): P1 19 + 2 villages + 3 * 1; P2 19 + 2 + 3 * 2 (a chain of 2)
    assert weapons(sc) == [24, 27]
    # the final scoring takes every region, lake 10 or not: M@2.3 (lake 4) counts now
    before = points(sc)
    sc.run("final_scoring")
    gained = [after - b for after, b in zip(points(sc), before)]
    #   P1: S@7.14 1 + 1, M@2.3 1 + 1; weapons 24; villages 2 + chain 3 * 1
    #   P2: F@6.11 1 + 2, P@7.10 1 + 3; weapons 27; villages 2 + chain 3 * 2
    assert gained == [4 + 24 + 5, 7 + 27 + 8]


def test_T20_a_region_scores_its_size_per_terrain_majority_and_its_lakes_to_the_majority():
    sc = fresh(players=2)
    r = region(sc, (1, "N@4.5"), (2, "P@4.7"), (1, "M@5.4"))
    # 3 hexes: mountain (P1) 3, pampa (P2) 3, meadow (P1) 3; most villages: P1 (2 to 1) gets
    # the lakes bordering the region: 3 and 2 (N@4.5), 5 (P@4.7), 1 (M@5.4) = 4
    assert len(sc.call("lakes_of", r=r)) == 4
    sc.run("score_region", r=r)
    assert points(sc) == [3 + 3 + 4, 3]


def test_T21_every_scoring_also_pays_one_point_per_weapon():
    sc = fresh(players=3)
    sc.set_vars({("weapons", 1): 7, ("weapons", 2): 0, ("weapons", 3): 12})
    sc.run("score_lake", n=5)                          # an empty board: only the weapons count
    assert points(sc) == [7, 0, 12]
    sc.run("final_scoring")
    assert points(sc) == [14, 0, 24]


def test_T22_final_scoring_adds_villages_and_three_per_village_of_the_longest_chain():
    sc = fresh(players=2)
    sc.set_vars({("weapons", 1): 0, ("weapons", 2): 0})
    # P1: a chain of 3 (F@3.4, N@4.5, M@5.4) and one apart; P2: one village
    region(sc, (1, "F@3.4"))
    region(sc, (1, "N@4.5"))
    region(sc, (1, "M@5.4"))
    region(sc, (1, "S@7.14"))
    region(sc, (2, "M@1.12"))
    regions_only = sc.clone()
    for r in regions_only.call("regions"):
        regions_only.run("score_region", r=r)
    sc.run("final_scoring")
    extra = [after - b for after, b in zip(points(sc), points(regions_only))]
    assert extra == [4 + 3 * 3, 1 + 3 * 1]


# ---- Ties (T-23) ---------------------------------------------------------------------------------

def test_T23_a_tie_is_broken_by_distinct_lakes_beside_ones_villages_in_the_region():
    sc = fresh(players=3)
    r = region(sc, (1, "F@5.8"), (3, "N@6.7"), (2, "F@6.5"))
    # forest: P1 and P2 one each; P1's F@5.8 touches lakes 2 and 11 (2), P2's F@6.5 lakes 1, 2, 14 (3)
    assert sc.call("tie_break", p=1, r=r) == 2 and sc.call("tie_break", p=2, r=r) == 3
    # majority: one village each; P3's N@6.7 touches lakes 11, 2, 14 (3): P2 and P3 tie at 3 and
    # share the 4 lakes of the region (1, 2, 11, 14): 4 // 2 = 2 each; P1 gets nothing of it
    sc.run("score_region", r=r)
    assert points(sc) == [0, 3 + 2, 3 + 2]


def test_T23_a_lake_beside_two_of_ones_villages_counts_once():
    sc = fresh(players=2)
    r = region(sc, (1, "M@5.4"), (1, "N@4.5"), (2, "P@4.7"), (2, "F@5.8"))
    # P1: M@5.4 (lakes 1, 2, 3) + N@4.5 (2, 3) = 3 distinct (5 if counted twice)
    # P2: P@4.7 (2, 5) + F@5.8 (2, 11)       = 3 distinct (4 if counted twice)
    assert sc.call("own_lakes", p=1, r=r) == 3 == sc.call("own_lakes", p=2, r=r)
    sc.run("score_region", r=r)
    # terrains: 4 each for meadow, mountain (P1), pampa, forest (P2); majority 2-2 stays a perfect
    # tie: the 5 lakes (1, 2, 3, 5, 11) are shared, 5 // 2 = 2 each
    assert points(sc) == [8 + 2, 8 + 2]


def test_T23_temples_in_the_region_add_their_values_those_elsewhere_do_not():
    sc = fresh(players=2)
    r = region(sc, (1, "M@5.4"), (1, "N@4.5"), (2, "P@4.7"), (2, "F@5.8"))
    elsewhere = region(sc, (1, "S@7.14"))
    temple(sc, 1, 2, "S@7.14")                       # P1's temple outside the region
    temple(sc, 2, 1, "P@4.7")                        # P2's temple inside
    assert sc.call("tie_break", p=1, r=r) == 3 and sc.call("tie_break", p=2, r=r) == 3 + 1
    sc.run("score_region", r=r)
    assert points(sc) == [8, 8 + 5]                  # P2 alone takes the 5 lakes
    assert elsewhere


def test_T23_a_perfect_tie_of_three_shares_the_points_rounded_down():
    sc = fresh(players=3)
    r = region(sc, (1, "N@4.5"), (2, "P@4.7"), (3, "M@5.4"))
    # lakes: P1 2 (3, 2), P2 2 (5, 2), P3 3 (2, 3, 1); temples of 1 bring P1 and P2 to 3
    temple(sc, 1, 1, "N@4.5")
    temple(sc, 2, 1, "P@4.7")
    assert [sc.call("tie_break", p=p, r=r) for p in (1, 2, 3)] == [3, 3, 3]
    sc.run("score_region", r=r)
    # each terrain is one player's: 3 points each; the 4 lakes split three ways: 4 // 3 = 1
    assert points(sc) == [3 + 1, 3 + 1, 3 + 1]


def test_T23_a_terrain_tie_not_broken_shares_the_region_size():
    sc = fresh(players=2)
    # two forests in one region (an association can bring them together), one each
    r = region(sc, (1, "F@5.8"), (1, "N@6.7"), (2, "F@6.5"))
    temple(sc, 1, 1, "F@5.8")
    # forest tie: P1 lakes of F@5.8, N@6.7 = 2, 11, 14 (3) + temple 1 = 4; P2 F@6.5: 1, 2, 14 = 3
    assert sc.call("tie_break", p=1, r=r) == 4 and sc.call("tie_break", p=2, r=r) == 3
    sc.run("score_region", r=r)
    # forest 3 to P1 (tie broken), mountain 3 to P1, majority (2 to 1) the 4 lakes to P1
    assert points(sc) == [3 + 3 + 4, 0]
    # without the temple the forest tie is perfect: 3 // 2 = 1 each
    sc = fresh(players=2)
    r = region(sc, (1, "F@5.8"), (2, "F@6.5"), (1, "N@6.7"))
    # P1 now 3 lakes, P2 3 lakes: equal
    assert sc.call("tie_break", p=1, r=r) == 3 == sc.call("tie_break", p=2, r=r)
    sc.run("score_region", r=r)
    assert points(sc) == [1 + 3 + 4, 1]


def test_T24_the_longest_chain_ignores_regions_and_borders():
    sc = fresh(players=2)
    region(sc, (1, "N@4.5"))
    region(sc, (1, "P@4.7"), (2, "M@3.6"))            # another region, next to N@4.5
    region(sc, (1, "F@5.8"))                          # next to P@4.7
    region(sc, (1, "M@2.3"))                          # apart (a lake and others between)
    assert sc.call("chain", p=1) == 3 and sc.call("placed", p=1) == 4
    assert sc.call("chain", p=2) == 1
    # villages facing each other across a lake are not a chain
    sc = fresh(players=2)
    region(sc, (1, "M@5.4"))
    region(sc, (1, "F@6.5"))                          # adjacent to M@5.4
    region(sc, (1, "S@7.4"))                          # across lake 1 from M@5.4, adjacent to F@6.5
    region(sc, (1, "N@6.1"))                          # across lake 1 from F@6.5
    assert sc.call("chain", p=1) == 3


# ---- Weapons -----------------------------------------------------------------------------------

def test_T25_after_the_scorings_of_rounds_5_and_10_weapons_grow_by_villages_and_chain():
    sc = fresh(players=2)
    region(sc, (1, "N@4.5"))
    region(sc, (1, "P@4.7"))
    region(sc, (2, "M@1.12"))
    sc.set_vars({("weapons", 1): 2, ("weapons", 2): 0})
    sc.run("score_lake", n=10)
    assert weapons(sc) == [2 + 2 + 3 * 2, 0 + 1 + 3 * 1]
    # points counted the weapons held before the gain (T-21, then T-25); no region borders lake 10
    assert points(sc) == [2, 0]
    # the final scoring gives points, not weapons
    before = weapons(sc)
    sc.run("final_scoring")
    assert weapons(sc) == before


# ---- End of the game ---------------------------------------------------------------------------

def test_T26_the_game_ends_when_the_land_is_full_and_late_bidders_take_back():
    sc = fresh(players=3)
    last = [label(sc, h) for h in neighbours(sc, lake(sc, 1))][0]
    fill_land(sc, keep=[last])
    bid_all(sc, {1: 2, 2: 5, 3: 1})
    sc.play(f"place on {last}")
    skip_rest(sc)
    # the land is full: P1 and P3 never acted and keep their weapons; final scoring; the end
    assert sc.s.is_terminal()
    assert weapons(sc) == [20, 15, 20]
    # the log says why the game ends, then the final scoring
    said = sc.s.log.index("no empty land hex is left: the game ends")
    assert sc.s.log[said + 1] == FINAL_SCORING
    assert sum(points(sc)) > sum(weapons(sc))          # regions, villages and chains were scored


def test_T26_the_game_ends_when_nobody_holds_both_weapons_and_a_village():
    sc = fresh(players=2)
    bid_all(sc, {1: 20, 2: 20})
    for _ in range(2):
        sc.play(next(m for m in sc.moves() if m.startswith("place on ")))
        skip_rest(sc)
    # empty land remains, but nobody can bid any more: the end, after round 1
    assert sc.s.is_terminal() and sc.var("round") == 1
    assert sum(1 for h in land(sc) if not sc.zone(("site", h))) == 31
    said = sc.s.log.index("no player holds both weapons and a village: the game ends")
    assert sc.s.log[said + 1] == FINAL_SCORING


def test_T27_after_round_15_villages_go_on_any_empty_land_hex():
    sc = fresh(players=2)
    sc.set_var("round", 16)
    settle(sc, 2, "M@1.12")
    bid_all(sc, {1: 2, 2: 1})
    places = {m for m in sc.moves() if m.startswith("place on ")}
    assert places == {f"place on {label(sc, h)}" for h in land(sc) if label(sc, h) != "M@1.12"}
    assert len(places) == 32
    # rounds still start with bids: after this round, round 17 bids again
    sc.play("place on P@9.10")
    skip_rest(sc)
    sc.play(next(iter(sorted(m for m in sc.moves() if m.startswith("place on ")))))
    skip_rest(sc)
    assert sc.var("round") == 17 and sc.s.sealed()


def end_with(sc, extra_points: dict, weapons_left: dict):
    """Fill the land but one shore of lake 1, give points and weapons, let P1 fill the last hex."""
    last = [label(sc, h) for h in neighbours(sc, lake(sc, 1))][0]
    fill_land(sc, keep=[last])
    bid_all(sc, {p: 1 for p in range(1, sc.game.num_players + 1)})
    sc.set_vars({("weapons", p): w for p, w in weapons_left.items()})
    sc.set_vars({("points", p): v for p, v in extra_points.items()})
    sc.play(f"place on {last}")
    skip_rest(sc)
    assert sc.s.is_terminal()
    return sc


def test_T28_most_points_wins_then_most_weapons_then_a_shared_win():
    # what the final scoring gives each player in this position, beyond the weapons they hold
    probe = end_with(fresh(players=2), {1: 0, 2: 0}, {1: 5, 2: 5})
    lead = points(probe)[0] - points(probe)[1]          # P1's lead with equal weapons
    # more points wins, even with fewer weapons: P2 ends 1 point ahead holding 2 weapons to 9
    sc = end_with(fresh(players=2), {1: max(0, -(lead + 8)), 2: max(0, lead + 8)}, {1: 9, 2: 2})
    assert points(sc)[1] == points(sc)[0] + 1 and weapons(sc) == [9, 2]
    assert sc.s.winners == [2] and sc.s.returns() == [0.0, 1.0]
    # equal points: the most weapons wins (P1 holds 5 to P2's 2, and so scored 3 more for them)
    sc = end_with(fresh(players=2), {1: max(0, -(lead + 3)), 2: max(0, lead + 3)}, {1: 5, 2: 2})
    assert points(sc)[0] == points(sc)[1] and weapons(sc) == [5, 2]
    assert sc.s.winners == [1]
    # equal points and equal weapons: a shared win
    sc = end_with(fresh(players=2), {1: max(0, -lead), 2: max(0, lead)}, {1: 5, 2: 5})
    assert points(sc)[0] == points(sc)[1] and weapons(sc)[0] == weapons(sc)[1]
    assert sc.s.winners == [1, 2]
