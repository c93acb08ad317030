"""One scenario test per numbered rule of Continents (../shared/games/continents.md, C-1..C-25).

Each test builds a position with the generic harness (tests/scenario.py), plays a move or lets
the flow run, and checks what the engine computed. Zone contents are lists, bottom first.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

try:
    from scenario import Scenario, load, snapshot
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario, load, snapshot

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import IllegalMove

RULES = Path(__file__).resolve().parents[1] / "games" / "continents.rules"
NAMES = ["Africa", "Antarctica", "Asia", "Europe", "North America", "Oceania", "South America"]
FAMILY = Counter({"straw house": 6, "wood house": 5, "stone house": 3,
                  "straw fire": 1, "wood fire": 1, "lightning": 1})


# ---- Continents vocabulary on top of the generic harness ------------------------------------

def fresh(players=2, normal=False, seed=0, revealed=("Asia", "Europe", "Oceania")) -> Scenario:
    """A new game at P1's first decision, with the chosen continents revealed."""
    sc = Scenario.new(RULES, ("normal",) if normal else (), players, seed)
    if revealed is not None:
        sc.fill("revealed", [cid(sc, n) for n in revealed], spill="continent_pile")
    return sc


def cid(sc, name) -> int:
    return sc.one("Continent", name=name)


def place(sc, name, i):
    return ("place", cid(sc, name), i)


def card(sc, p, label) -> int:
    """One of p's cards with this label: from the top of p's pile, else from p's hand."""
    for zone in (("draw", p), ("hand", p)):
        found = sc.find("Card", zone, label=label)
        if found:
            return found[-1]
    raise AssertionError(f"P{p} has no free {label}")


def give(sc, p, *labels) -> list:
    """p's hand becomes exactly these cards (the old hand goes under p's pile)."""
    sc.empty(("hand", p), to=("draw", p), under=True)
    for label in labels:
        sc.put(sc.take("Card", ("draw", p), label=label), ("hand", p))
    return sc.zone(("hand", p))


def lay(sc, name, i, *cards) -> list:
    """Put cards (player, label), bottom first, on a place around a continent."""
    for p, label in cards:
        sc.put(card(sc, p, label), place(sc, name, i))
    return sc.zone(place(sc, name, i))


def surround(sc, name, stacks):
    """Lay stacks on places 1.. of a continent; each stack is (p, label) or a list of them."""
    for i, stack in enumerate(stacks, start=1):
        lay(sc, name, i, *(stack if isinstance(stack, list) else [stack]))


def pile_top(sc, p, *labels) -> list:
    """Put these cards of p's pile on its top, the last one on top; returns their ids."""
    ids = []
    for label in labels:
        ids.append(sc.take("Card", ("draw", p), label=label, exclude=ids))
    sc.put(ids, ("draw", p))
    return ids


def owner_of(sc, x):
    return sc.attr(x, "owner")


def family_zones(sc, p) -> Counter:
    """Where p's 17 cards are, by zone name."""
    return Counter((sc.where(x) if isinstance(sc.where(x), str) else sc.where(x)[0])
                   for x in sc.find("Card", owner=p))


def empty_places(sc, name) -> bool:
    return all(not sc.zone(place(sc, name, i)) for i in range(1, 9))


# ---- Components ---------------------------------------------------------------------------

def test_C01_seven_continent_cards_with_their_names():
    sc = Scenario.new(RULES, players=2)
    continents = sc.find("Continent")
    assert len(continents) == 7
    assert sorted(sc.attr(c, "name") for c in continents) == NAMES
    assert sorted(sc.label(c) for c in continents) == NAMES  # the label players see is the name
    # all of them are either face down in the pile or revealed at the start
    assert sorted(sc.zone("continent_pile") + sc.zone("revealed")) == sorted(continents)


def test_C02_six_families_of_seventeen_cards_with_strengths():
    sc = Scenario.new(RULES, players=6)
    for p in range(1, 7):
        mine = sc.find("Card", owner=p)
        assert len(mine) == 17
        assert Counter(sc.label(x) for x in mine) == FAMILY
        strengths = {sc.attr(x, "material"): sc.attr(x, "strength")
                     for x in sc.find("Card", owner=p, kind="house")}
        assert strengths == {"straw": 1, "wood": 2, "stone": 3}
        assert strengths["straw"] < strengths["wood"] < strengths["stone"]
    assert len(sc.find("Card")) == 6 * 17
    # the order of strengths is what building uses: wood covers straw, straw never covers wood
    sc = fresh()
    lay(sc, "Asia", 1, (2, "straw house"))
    lay(sc, "Asia", 2, (2, "wood house"))
    give(sc, 1, "straw house", "wood house", "stone house", "straw house", "wood house")
    assert sc.can("build wood house on Asia 1") and sc.can("build stone house on Asia 2")
    sc.refuse("build straw house on Asia 2", "weaker")


@pytest.mark.slow
def test_C03_two_to_six_players():
    for n in range(2, 7):
        game = load(RULES, players=n)
        assert game.num_players == n
        s = game.new_initial_state(seed=n)
        assert len([k for k in s.zones if isinstance(k, tuple) and k[0] == "hand"]) == n
    for n in (1, 7):
        game, diagnostics, _ = load_game(str(RULES), players=n)
        assert game is None
        assert [d.code for d in diagnostics] == ["E602"]
        assert "2..6" in diagnostics[0].message and str(n) in diagnostics[0].message
    assert load(RULES).player_range == (2, 6)


def test_C04_eight_building_places_per_continent():
    sc = fresh()
    give(sc, 1, "straw house", "straw fire", "wood fire", "lightning", "straw house")
    asia = sorted(m for m in sc.moves() if m.startswith("build straw house on Asia "))
    assert asia == sorted(f"build straw house on Asia {i}" for i in range(1, 9))
    sc.refuse("build straw house on Asia 9", "unknown move")
    # seven filled places do not settle a continent; the eighth does (C-9)
    surround(sc, "Asia", [(2, "wood house")] * 3 + [(2, "straw house")] * 3)
    sc.play("build straw house on Asia 7")
    assert cid(sc, "Asia") in sc.zone("revealed")
    assert sc.var(("wins", 2)) == sc.var(("wins", 1)) == 0
    give(sc, 2, "straw house", "lightning", "straw fire", "wood fire", "wood house")
    sc.play("build straw house on Asia 8")          # P2 fills the last place
    assert cid(sc, "Asia") in sc.zone(("trophies", 2))


# ---- Setup --------------------------------------------------------------------------------

def test_C05_reveal_one_more_continent_than_players():
    seen = set()
    for n in range(2, 7):
        for seed in range(4):
            sc = Scenario.new(RULES, players=n, seed=seed)
            revealed = sc.zone("revealed")
            assert len(revealed) == n + 1 == len(set(revealed))
            assert len(sc.zone("continent_pile")) == 7 - (n + 1)
            if n == 2:
                seen.add(tuple(revealed))
    assert len(seen) > 1, "the continents are shuffled: different seeds reveal different ones"


def test_C06_own_shuffled_pile_and_five_hidden_cards_in_hand():
    orders = set()
    for seed in range(3):
        sc = Scenario.new(RULES, players=3, seed=seed)
        for p in (1, 2, 3):
            hand, pile = sc.zone(("hand", p)), sc.zone(("draw", p))
            assert len(hand) == 5 and len(pile) == 12
            assert {owner_of(sc, x) for x in hand + pile} == {p}
            assert sorted(hand + pile) == sorted(sc.find("Card", owner=p))
            orders.add(tuple(hand + pile))
        view = sc.s.view(1)["zones"]
        assert [x["id"] for x in view["hand[P1]"]["items"]] == sc.zone(("hand", 1))
        for other in ("hand[P2]", "hand[P3]"):
            assert view[other]["count"] == 5 and "items" not in view[other]
        for pile in ("draw[P1]", "draw[P2]", "draw[P3]"):
            assert view[pile]["count"] == 12 and "items" not in view[pile]
        assert "items" in sc.s.view(2)["zones"]["hand[P2]"]
    assert len(orders) == 9, "each family is shuffled on its own"


def test_C07_seat_one_starts_and_play_goes_clockwise():
    for n in (2, 4, 6):
        assert Scenario.new(RULES, players=n, seed=n).s.current_player() == 1
    sc = fresh(players=3)
    order = []
    for _ in range(4):
        order.append(sc.s.current_player())
        sc.play(next(m for m in sc.moves() if m.startswith("build ")))
    assert order == [1, 2, 3, 1]


# ---- A turn -------------------------------------------------------------------------------

def test_C08_build_on_empty_place_or_weaker_opponent_house_only():
    sc = fresh()
    lay(sc, "Asia", 1, (2, "wood house"))
    lay(sc, "Asia", 2, (1, "wood house"))
    lay(sc, "Asia", 3, (2, "straw house"), (2, "straw fire"))
    lay(sc, "Asia", 4, (2, "stone house"))
    give(sc, 1, "stone house", "straw house", "wood house", "lightning", "straw fire")
    sc.refuse("build stone house on Asia 2", "your own house")
    sc.refuse("build stone house on Asia 3", "burned")
    sc.refuse("build stone house on Asia 4", "weaker")
    sc.refuse("build wood house on Asia 1", "weaker")      # equal strength does not cover
    sc.refuse("build straw house on Asia 1", "weaker")
    # a settled continent is no longer a place to build
    sc.put(cid(sc, "Europe"), ("trophies", 2))
    assert not any("Europe" in m for m in sc.moves())
    with pytest.raises(IllegalMove):
        sc.s.apply("build straw house on Europe 1")
    assert sc.can("build straw house on Asia 5")
    stone = sc.find("Card", ("hand", 1), label="stone house")[0]
    wood2 = sc.zone(place(sc, "Asia", 1))[0]
    sc.play("build stone house on Asia 1")
    assert sc.zone(place(sc, "Asia", 1)) == [wood2, stone]   # the covered house stays under it
    assert stone not in sc.zone(("hand", 1))
    assert sc.s.current_player() == 2


def test_C09_filling_the_last_place_gives_another_turn_after_refilling():
    sc = fresh()
    surround(sc, "Asia", [(1, "straw house")] * 4 + [(2, "straw house")] * 3)
    surround(sc, "Europe", [(2, "wood house")] * 5 + [(1, "wood house")] * 2)
    give(sc, 1, "stone house", "stone house", "lightning", "straw fire", "wood fire")
    (x,) = pile_top(sc, 1, "straw house")
    sc.play("build stone house on Asia 8")
    assert cid(sc, "Asia") in sc.zone(("trophies", 1))
    assert sc.s.current_player() == 1                       # the same player again
    assert len(sc.zone(("hand", 1))) == 5 and x in sc.zone(("hand", 1))  # refilled first
    (y,) = pile_top(sc, 1, "wood house")
    sc.play("build stone house on Europe 8")                # chained: the extra turn fills Europe
    assert cid(sc, "Europe") in sc.zone(("trophies", 2))
    assert sc.s.current_player() == 1 and y in sc.zone(("hand", 1))
    sc.play("pass")
    assert sc.s.current_player() == 2
    assert sc.var("round") == 1 and not sc.s.is_terminal()


def test_C10_fire_burns_a_house_of_its_material_and_the_place_is_dead():
    sc = fresh()
    lay(sc, "Asia", 1, (2, "straw house"))
    lay(sc, "Asia", 2, (2, "wood house"))
    lay(sc, "Asia", 3, (2, "stone house"))
    give(sc, 1, "straw fire", "wood fire", "straw house", "straw house", "straw house")
    assert not any(m.startswith("burn Asia 3") for m in sc.moves())   # stone never burns
    sc.refuse("burn Asia 3 with wood fire", "material")
    sc.refuse("burn Asia 2 with straw fire", "material")
    sc.refuse("burn Asia 1 with wood fire", "material")
    assert sc.can("burn Asia 2 with wood fire")
    fire = sc.find("Card", ("hand", 1), label="straw fire")[0]
    house = sc.zone(place(sc, "Asia", 1))[0]
    sc.play("burn Asia 1 with straw fire")
    assert sc.zone(place(sc, "Asia", 1)) == [house, fire]       # the fire stays on the place
    give(sc, 2, "stone house", "wood house", "straw house", "lightning", "wood fire")
    for m in ("build stone house on Asia 1", "build straw house on Asia 1"):
        sc.refuse(m, "burned")                                  # not even its owner can build
    assert not any(m.startswith("burn Asia 1") for m in sc.moves())
    sc.play("pass")
    # a burned place counts as filled, and its house counts for nobody
    surround(sc, "Europe", [(2, "straw house")] * 3 + [[(2, "wood house"), (1, "wood fire")]]
             + [(1, "straw house")] * 3)
    give(sc, 1, "straw house", "lightning", "wood house", "wood house", "wood house")
    sc.play("build straw house on Europe 8")
    # P1 4 houses vs P2 3 (P2's burned wood house would have made a 4-4 tie won by P2's wood)
    assert cid(sc, "Europe") in sc.zone(("trophies", 1))


def test_C11_lightning_sends_the_cards_to_the_bottom_of_their_piles():
    sc = fresh()
    stack = lay(sc, "Asia", 2, (2, "straw house"), (1, "wood house"), (2, "stone house"))
    give(sc, 1, "lightning", "straw house", "straw house", "wood fire", "straw fire")
    lightning = sc.find("Card", ("hand", 1), label="lightning")[0]
    pile1, pile2 = sc.zone(("draw", 1)), sc.zone(("draw", 2))
    sc.play("strike Asia 2")
    assert sc.zone(place(sc, "Asia", 2)) == []                    # the place is empty again
    straw2, wood1, stone2 = stack
    # top card first: the stone goes to the bottom, then the straw house goes under it
    assert sc.zone(("draw", 2)) == [straw2, stone2] + pile2
    # P1's wood goes under P1's pile; then P1 refills one card from the top
    assert sc.zone(("draw", 1)) == [wood1] + pile1[:-1]
    assert pile1[-1] in sc.zone(("hand", 1))
    assert sc.zone("discard") == [lightning] and sc.where(lightning) == "discard"
    for p in (1, 2):
        assert sum(family_zones(sc, p).values()) == 17
    # it also strikes a burned place; never an empty one
    lay(sc, "Asia", 3, (2, "wood house"), (2, "wood fire"))
    give(sc, 2, "lightning", "straw house", "straw house", "straw house", "wood house")
    assert sc.can("strike Asia 3")
    sc.refuse("strike Asia 4", "occupied")
    sc.play("strike Asia 3")
    assert sc.zone(place(sc, "Asia", 3)) == []
    # the discarded lightning stays out for the rest of the round
    give(sc, 1, "straw house", "straw house", "straw house", "wood house", "wood house")
    assert sc.find("Card", ("hand", 1), label="lightning") == []
    assert not any(m.startswith("strike") for m in sc.moves())


def test_C12_you_may_attack_your_own_houses():
    sc = fresh()
    own_straw = lay(sc, "Asia", 1, (1, "straw house"))[0]
    own_wood = lay(sc, "Asia", 2, (1, "wood house"))[0]
    give(sc, 1, "straw fire", "lightning", "wood house", "wood house", "straw house")
    sc.play("burn Asia 1 with straw fire")
    assert sc.label(sc.zone(place(sc, "Asia", 1))[-1]) == "straw fire"
    assert sc.zone(place(sc, "Asia", 1))[0] == own_straw
    sc.play("pass")                                              # P2
    sc.play("strike Asia 2")                                     # P1 strikes its own house
    assert sc.zone(place(sc, "Asia", 2)) == []
    assert sc.zone(("draw", 1))[0] == own_wood


def test_C13_exchange_the_whole_hand_for_five_new_cards():
    sc = fresh()
    hand = sc.zone(("hand", 1))
    pile = sc.zone(("draw", 1))
    quiet = sc.var("quiet_turns")
    sc.play("exchange")
    # drawn from the top: the first card drawn is the old top of the pile
    assert sc.zone(("hand", 1)) == list(reversed(pile[-5:]))
    # the old hand under the pile, in the order drawn: it will be drawn again in that order
    assert sc.zone(("draw", 1)) == list(reversed(hand)) + pile[:-5]
    assert sc.var("quiet_turns") == quiet + 1                    # an exchange is a quiet turn
    assert sc.s.current_player() == 2
    # a short hand is exchanged too; an empty one cannot be (3 players: no quiet round end)
    sc = fresh(players=3, revealed=("Asia", "Europe", "Oceania", "Africa"))
    sc.play("pass")
    sc.fill(("hand", 2), sc.zone(("hand", 2))[:2], spill=("draw", 2))
    sc.play("exchange")
    assert len(sc.zone(("hand", 2))) == 5
    assert sc.s.current_player() == 3
    sc.empty(("hand", 3), to=("draw", 3))
    sc.refuse("exchange", "hand is empty")


def test_C14_pass_and_fire_or_lightning_must_hit_something():
    sc = fresh(players=3, revealed=("Asia", "Europe", "Oceania", "Africa"))
    give(sc, 1, "straw fire", "wood fire", "lightning", "straw house", "wood house")
    sc.refuse("burn Asia 1 with straw fire", "must hit a house")
    sc.refuse("burn Asia 1 with wood fire", "must hit a house")
    sc.refuse("strike Asia 1", "occupied")
    assert not any(m.startswith(("burn", "strike")) for m in sc.moves())
    zones = snapshot(sc.s)[0]
    sc.play("pass")
    assert snapshot(sc.s)[0] == zones                            # a pass changes no card
    assert sc.s.current_player() == 2 and sc.var("quiet_turns") == 1
    # with no card at all, passing is still possible
    for x in sc.zone(("hand", 2)) + sc.zone(("draw", 2)):
        sc.put(x, "out_of_play")
    assert sc.moves() == ["pass"]
    sc.play("pass")
    assert sc.s.current_player() == 3 and sc.var("quiet_turns") == 2


# ---- End of a turn ------------------------------------------------------------------------

def test_C15_settled_when_full_won_by_most_houses_on_top():
    sc = fresh()
    surround(sc, "Asia", [(1, "straw house"), (1, "straw house"), (1, "wood house"),
                          (2, "stone house"), (2, "wood house"),
                          [(2, "straw house"), (1, "wood house")],     # covered: counts for P1
                          [(2, "wood house"), (1, "wood fire")]])      # burned: counts for nobody
    give(sc, 1, "straw house", "lightning", "straw fire", "stone house", "stone house")
    sc.play("build straw house on Asia 8")
    # P1: places 1, 2, 3, 6, 8 = 5 houses; P2: places 4, 5 = 2
    asia = cid(sc, "Asia")
    assert sc.zone(("trophies", 1)) == [asia] and asia not in sc.zone("revealed")
    assert sc.var(("wins", 1)) == 1 and sc.var(("conquered", 1, asia)) is True
    assert sc.var(("wins", 2)) == 0
    assert "P1 wins Asia" in sc.s.log
    # majority wins even with weaker houses: P2's three stones lose to P1's five straws
    sc = fresh()
    surround(sc, "Asia", [(2, "stone house")] * 3 + [(1, "straw house")] * 4)
    give(sc, 1, "straw house", "lightning", "straw fire", "wood fire", "wood house")
    sc.play("build straw house on Asia 8")
    assert sc.zone(("trophies", 1)) == [cid(sc, "Asia")]
    # no house left on top (every place burned): nobody wins it. Unreachable in play (the last
    # place is filled by a house); checked by handing the settlement a full, burned continent.
    sc = fresh(players=4)
    fires = ["straw", "wood"] * 4
    for i, m in enumerate(fires, start=1):
        p = (i - 1) // 2 + 1
        lay(sc, "Asia", i, (p, f"{m} house"), (p, f"{m} fire"))
    sc.play("pass")
    assert sc.zone("unclaimed") == [cid(sc, "Asia")]
    assert all(sc.var(("wins", p), 0) == 0 for p in range(1, 5))
    assert "nobody wins Asia" in sc.s.log


def test_C16_tie_broken_by_stone_houses_then_wood_houses():
    # 4-4, one stone each: P1 has a wood house, P2 none -> P1
    sc = fresh()
    surround(sc, "Asia", [(1, "stone house"), (1, "wood house"), (1, "straw house"),
                          (2, "stone house"), (2, "straw house"), (2, "straw house"),
                          (2, "straw house")])
    # stone before wood: P1 1 stone + 3 wood, P2 2 stones + 2 straw -> P2
    surround(sc, "Europe", [(1, "stone house"), (1, "wood house"), (1, "wood house"),
                            (2, "stone house"), (2, "stone house"), (2, "straw house"),
                            (2, "straw house")])
    give(sc, 1, "straw house", "wood house", "lightning", "straw fire", "wood fire")
    sc.play("build straw house on Asia 8")
    assert sc.zone(("trophies", 1)) == [cid(sc, "Asia")]
    sc.play("build wood house on Europe 8")                     # P1's extra turn
    assert sc.zone(("trophies", 2)) == [cid(sc, "Europe")]
    # only the tied players are compared: P3's two stones do not help with fewer houses
    sc = fresh(players=3, revealed=("Asia", "Europe", "Oceania", "Africa"))
    surround(sc, "Asia", [(1, "straw house"), (1, "straw house"), (2, "straw house"),
                          (2, "straw house"), (2, "wood house"), (3, "stone house"),
                          (3, "stone house")])
    give(sc, 1, "straw house", "lightning", "straw fire", "wood fire", "straw house")
    sc.play("build straw house on Asia 8")                      # P1 3 straw, P2 2 straw + wood
    assert sc.zone(("trophies", 2)) == [cid(sc, "Asia")]
    assert sc.zone(("trophies", 3)) == [] and sc.var(("wins", 3)) == 0


def tied_asia(players=2):
    """Asia with 3 straw houses each for P1 and P2 and P2's 4th; P1 holds the 4th to build."""
    sc = fresh(players=players)
    surround(sc, "Asia", [(1, "straw house")] * 3 + [(2, "straw house")] * 4)
    give(sc, 1, "straw house", "lightning", "straw fire", "wood fire", "wood house")
    give(sc, 2, "stone house", "stone house", "stone house", "wood house", "wood fire")
    return sc


def test_C17_still_tied_each_draws_the_strongest_house_wins():
    # one draw: P1 a straw house, P2 a wood house -> P2; both drawn cards go to the bottom
    sc = tied_asia()
    (next1, d1) = pile_top(sc, 1, "stone house", "straw house")
    (d2,) = pile_top(sc, 2, "wood house")
    size2 = len(sc.zone(("draw", 2)))
    sc.play("build straw house on Asia 8")
    assert sc.zone(("trophies", 2)) == [cid(sc, "Asia")]
    assert sc.zone(("draw", 1))[0] == d1 and sc.zone(("draw", 2))[0] == d2
    assert len(sc.zone(("draw", 2))) == size2
    assert next1 in sc.zone(("hand", 1))                        # P1's refill came after the draw
    assert sc.var(("tie_draw", 1)) == 1 and sc.var(("tie_draw", 2)) == 2
    # fire and lightning count as nothing; repeat while tied: straw=straw, then fire < straw
    sc = tied_asia()
    give(sc, 1, "straw house", "lightning", "wood fire", "wood house", "wood house")
    pile_top(sc, 1, "straw fire", "straw house")
    pile_top(sc, 2, "straw house", "straw house")
    sc.play("build straw house on Asia 8")
    assert sc.zone(("trophies", 2)) == [cid(sc, "Asia")]
    assert sc.var(("tie_draw", 1)) == 0 and sc.var(("tie_draw", 2)) == 1
    # a player with an empty pile draws nothing
    sc = tied_asia()
    pile_top(sc, 1, "straw house")
    sc.put(sc.zone(("draw", 2)), "discard")
    sc.play("build straw house on Asia 8")
    assert sc.zone(("trophies", 1)) == [cid(sc, "Asia")]
    # at most 5 draws: still tied after 5 -> nobody wins (the 6th draw would have decided)
    sc = tied_asia()
    give(sc, 1, "straw house", "stone house", "stone house", "wood house", "wood house")
    sixth = pile_top(sc, 1, "stone house")[0]
    drawn1 = pile_top(sc, 1, "wood house", "straw house", "wood house", "straw fire",
                      "straw house")
    pile_top(sc, 2, "straw fire")
    drawn2 = pile_top(sc, 2, "wood house", "straw house", "wood house", "lightning",
                      "straw house")
    sc.play("build straw house on Asia 8")
    asia = cid(sc, "Asia")
    assert sc.zone("unclaimed") == [asia]
    assert sc.zone(("trophies", 1)) == sc.zone(("trophies", 2)) == []
    assert sc.var(("wins", 1)) == sc.var(("wins", 2)) == 0
    # drawn one by one from the top, each put under the pile: they end at the bottom, in order
    assert sc.zone(("draw", 2))[:5] == drawn2
    assert sc.zone(("draw", 1))[:5] == drawn1
    assert sixth in sc.zone(("hand", 1))                        # never drawn for the tie
    assert "nobody wins Asia" in sc.s.log


def test_C18_settled_continent_is_a_trophy_and_its_cards_out_of_play():
    sc = fresh()
    surround(sc, "Asia", [(1, "straw house")] * 4 + [[(2, "straw house"), (1, "wood house")]]
             + [(2, "wood house")] * 2)
    give(sc, 1, "stone house", "lightning", "straw fire", "wood fire", "wood house")
    around = [x for i in range(1, 8) for x in sc.zone(place(sc, "Asia", i))]
    stone = sc.find("Card", ("hand", 1), label="stone house")[0]
    sc.play("build stone house on Asia 8")
    asia = cid(sc, "Asia")
    assert sc.zone(("trophies", 1)) == [asia]
    assert sorted(sc.zone("out_of_play")) == sorted(around + [stone])
    assert empty_places(sc, "Asia")
    assert not any("Asia" in m for m in sc.moves())
    # the cards stay out of play for the rest of the round: a quiet turn of the table ends it
    sc.play("pass")          # P1's extra turn
    assert len(sc.zone("out_of_play")) == 9
    sc.play("pass")          # P2
    assert sc.var("round") == 2
    assert sc.zone("out_of_play") == [] and sc.zone(("trophies", 1)) == []
    for p in (1, 2):
        assert family_zones(sc, p) == Counter({"hand": 5, "draw": 12})
    assert sc.var(("wins", 1)) == 1 and sc.var(("conquered", 1, asia)) is True


def test_C19_refill_to_five_at_the_end_of_the_turn():
    sc = fresh()
    give(sc, 1, "straw house", "straw house", "wood house", "lightning", "straw fire")
    top = sc.zone(("draw", 1))[-1]
    hand2 = sc.zone(("hand", 2))
    sc.play("build straw house on Asia 1")
    assert len(sc.zone(("hand", 1))) == 5 and sc.zone(("hand", 1))[-1] == top
    assert sc.zone(("hand", 2)) == hand2                        # only the player whose turn ended
    # the pile runs out: draw what there is and play on with fewer cards
    sc.play("pass")                                             # P2
    give(sc, 1, "straw house", "straw house", "wood house")
    last = sc.zone(("draw", 1))[-1]
    sc.fill(("draw", 1), [last], spill="out_of_play")
    sc.play("build straw house on Asia 2")                      # 3 -> 2 in hand, draws 1
    assert len(sc.zone(("hand", 1))) == 3 and last in sc.zone(("hand", 1))
    assert sc.zone(("draw", 1)) == []
    sc.play("pass")
    sc.play("build straw house on Asia 3")                      # pile empty: 3 -> 2
    assert len(sc.zone(("hand", 1))) == 2


# ---- End of a round -----------------------------------------------------------------------

def test_C20_a_quiet_turn_of_the_table_ends_the_round():
    sc = fresh(players=3, revealed=("Asia", "Europe", "Oceania", "Africa"))
    sc.play("pass")                                           # P1 quiet
    give(sc, 2, "straw house", "straw house", "wood house", "wood house", "lightning")
    sc.play("build straw house on Asia 1")                    # P2 builds: the count restarts
    sc.play("exchange", "pass")                               # P3, P1 quiet
    assert sc.var("round") == 1 and sc.var("quiet_turns") == 2
    sc.play("pass")                                           # P2: a whole quiet turn
    assert sc.var("round") == 2 and sc.var("quiet_turns") == 0
    assert sc.var("leader") == 2 and sc.s.current_player() == 2
    assert len(sc.zone("revealed")) == 4 and empty_places(sc, "Asia")
    # every revealed continent settled also ends the round (even with an extra turn due)
    sc = fresh(revealed=("Asia",))
    surround(sc, "Asia", [(1, "straw house")] * 4 + [(1, "wood house")] * 3)
    give(sc, 1, "straw house", "lightning", "straw fire", "wood fire", "wood house")
    sc.play("build straw house on Asia 8")
    assert sc.var("round") == 2 and sc.s.current_player() == 2
    assert len(sc.zone("revealed")) == 3
    # an extra turn is a turn like any other for the quiet count
    sc = fresh()
    surround(sc, "Asia", [(1, "straw house")] * 4 + [(1, "wood house")] * 3)
    give(sc, 1, "straw house", "lightning", "straw fire", "wood fire", "wood house")
    sc.play("build straw house on Asia 8", "pass")            # P1's extra turn: quiet
    assert sc.var("round") == 1 and sc.var("quiet_turns") == 1
    sc.play("pass")                                           # P2
    assert sc.var("round") == 2


def test_C21_unsettled_continents_are_won_by_nobody():
    sc = fresh()
    surround(sc, "Asia", [(1, "stone house")] * 3 + [(1, "wood house")] * 4)   # 7 of 8
    asia = cid(sc, "Asia")
    sc.play("pass", "pass")                                   # a quiet turn ends the round
    assert sc.var("round") == 2
    assert sc.var(("wins", 1)) == 0 and sc.var(("conquered", 1, asia), False) is False
    assert sc.zone(("trophies", 1)) == [] and empty_places(sc, "Asia")
    assert not any("wins" in line for line in sc.s.log)


# ---- Winning ------------------------------------------------------------------------------

def p1_takes_asia(sc):
    surround(sc, "Asia", [(1, "straw house")] * 4 + [(2, "straw house")] * 3)
    give(sc, 1, "wood house", "lightning", "straw fire", "wood fire", "wood house")
    sc.play("build wood house on Asia 8")


def test_C22_short_game_first_to_two_continents_wins_at_once():
    sc = fresh()
    p1_takes_asia(sc)
    assert sc.var(("wins", 1)) == 1 and not sc.s.is_terminal()
    sc.play("pass", "pass")                                   # the round ends without a winner
    assert sc.var("round") == 2 and sc.var(("wins", 1)) == 1   # won continents still count
    assert not sc.s.is_terminal() and sc.s.current_player() == 2
    sc.fill("revealed", [cid(sc, n) for n in ("Europe", "Oceania", "Africa")], spill="continent_pile")
    sc.play("pass")                                           # P2
    surround(sc, "Europe", [(1, "wood house")] * 4 + [(2, "wood house")] * 3)
    give(sc, 1, "stone house", "lightning", "straw fire", "wood fire", "straw house")
    sc.play("build stone house on Europe 8")
    assert sc.s.is_terminal() and sc.s.winners == [1]
    assert sc.s.returns() == [1.0, 0.0] and sc.s.scores() == [2, 0]
    assert sc.s.current_player() == 0 and sc.moves() == []
    # the normal game does not stop at two
    sc = fresh(normal=True)
    sc.set_var(("wins", 1), 1)
    p1_takes_asia(sc)
    assert sc.var(("wins", 1)) == 2 and not sc.s.is_terminal()


def conquer(sc, p, names, total=None):
    for n in names:
        sc.set_var(("conquered", p, cid(sc, n)), True)
    sc.set_var(("wins", p), len(names) if total is None else total)


def test_C23_normal_game_the_first_to_conquer_all_seven_wins():
    sc = fresh(normal=True)
    conquer(sc, 1, [n for n in NAMES if n != "Asia"])
    conquer(sc, 2, [n for n in NAMES if n not in ("Asia", "Europe")], total=15)
    p1_takes_asia(sc)
    assert sc.var(("conquered", 1, cid(sc, "Asia"))) is True
    assert not sc.s.is_terminal()                            # recorded at the end of the round
    sc.play("pass")                                          # P1's extra turn
    assert not sc.s.is_terminal()
    sc.play("pass")                                          # P2: the round ends
    assert sc.s.is_terminal() and sc.s.winners == [1]        # P2's 15 wins do not matter
    # the score says so: different continents conquered, not continents won
    assert sc.s.scores() == [7, 5]
    # several rounds: a round that ends with no complete set starts another one
    sc = fresh(normal=True)
    conquer(sc, 1, NAMES[:5], total=9)
    sc.play("pass", "pass")
    assert not sc.s.is_terminal() and sc.var("round") == 2
    assert sc.var(("wins", 1)) == 9


def test_C24_normal_new_round_resets_cards_and_moves_the_first_player():
    sc = fresh(players=3, normal=True, revealed=("Asia", "Europe", "Oceania", "Africa"))
    surround(sc, "Europe", [(1, "straw house")] * 4 + [(2, "straw house")] * 3)
    lay(sc, "Asia", 1, (2, "wood house"))
    lay(sc, "Asia", 2, (3, "wood house"), (3, "wood fire"))
    give(sc, 1, "straw house", "lightning", "straw fire", "wood fire", "wood house")
    sc.play("build straw house on Europe 8", "strike Asia 1")
    assert sc.zone(("trophies", 1)) == [cid(sc, "Europe")] and len(sc.zone("discard")) == 1
    assert len(sc.zone("out_of_play")) == 8
    sc.play("pass", "pass", "pass")                          # P2, P3, P1: quiet
    assert sc.var("round") == 2 and sc.var("leader") == 2 and sc.s.current_player() == 2
    for p in (1, 2, 3):
        assert family_zones(sc, p) == Counter({"hand": 5, "draw": 12})
    assert sc.zone("discard") == sc.zone("out_of_play") == []
    assert all(sc.zone(("trophies", p)) == [] for p in (1, 2, 3))
    assert sorted(sc.zone("revealed") + sc.zone("continent_pile")) == sorted(sc.find("Continent"))
    assert len(sc.zone("revealed")) == 4
    assert all(empty_places(sc, n) for n in NAMES)
    assert sc.var(("conquered", 1, cid(sc, "Europe"))) is True     # the record stays
    # the first player keeps moving one seat clockwise, round after round
    leaders = []
    for _ in range(3):
        sc.play("pass", "pass", "pass")
        leaders.append((sc.var("round"), sc.var("leader"), sc.s.current_player()))
    assert leaders == [(3, 3, 3), (4, 1, 1), (5, 2, 2)]
    # the new deal is a reshuffle: different seeds give different round-2 hands
    hands = set()
    for seed in range(3):
        other = fresh(players=3, normal=True, seed=seed)
        other.play("pass", "pass", "pass")
        hands.add(tuple(other.zone(("hand", 2))))
    assert len(hands) > 1


def test_C25_normal_game_ties_and_the_thirty_round_cap():
    # several complete the set in the same round: most continents won in total, else shared
    for total1, total2, expected in ((8, 6, [1]), (6, 8, [2]), (6, 6, [1, 2])):
        sc = fresh(normal=True)
        conquer(sc, 1, [n for n in NAMES if n != "Asia"], total=total1)
        conquer(sc, 2, [n for n in NAMES if n != "Europe"], total=total2)
        p1_takes_asia(sc)                                     # P1 completes the set
        surround(sc, "Europe", [(2, "wood house")] * 5 + [(1, "straw house"), (1, "stone house")])
        give(sc, 1, "wood house", "lightning", "straw fire", "wood fire", "wood house")
        sc.play("build wood house on Europe 8")               # P2 completes it too
        assert sc.var(("wins", 1)) == total1 + 1 and sc.var(("wins", 2)) == total2 + 1
        assert not sc.s.is_terminal()
        sc.play("pass", "pass")
        assert sc.s.is_terminal() and sc.s.winners == expected, (total1, total2)
    # after 30 rounds: the most different continents conquered wins (not the most wins)
    sc = fresh(normal=True)
    sc.set_var("round", 29)
    conquer(sc, 1, ["Asia", "Europe", "Africa"], total=3)
    conquer(sc, 2, ["Oceania", "Antarctica"], total=12)
    sc.play("pass", "pass")                                   # end of round 29: play on
    assert not sc.s.is_terminal() and sc.var("round") == 30
    sc.play("pass", "pass")                                   # end of round 30
    assert sc.s.is_terminal() and sc.s.winners == [1]
    # shared on a tie; nobody if nobody conquered any
    for one, two, expected in ((["Asia"], ["Europe"], [1, 2]), ([], [], [])):
        sc = fresh(normal=True)
        sc.set_var("round", 30)
        conquer(sc, 1, one)
        conquer(sc, 2, two)
        sc.play("pass", "pass")
        assert sc.s.is_terminal() and sc.s.winners == expected
        assert sc.s.returns() == [1.0 if p in expected else 0.0 for p in (1, 2)]
    # the cap applies to the short game too (C-22)
    sc = fresh()
    sc.set_var("round", 30)
    conquer(sc, 2, ["Asia"])
    sc.play("pass", "pass")
    assert sc.s.is_terminal() and sc.s.winners == [2]
