"""One scenario test per numbered rule of Hearts (docs/games/hearts.md, H-1..H-13): positions
arranged card by card after the first pass, moves played by name, and what each seat is shown
checked in its view and its moves seen."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Optional

from referee.interpreter.engine import load_game

try:
    from scenario import Scenario, load, play_out
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario, load, play_out

RULES = Path(__file__).resolve().parents[1] / "games" / "hearts.rules"
SUIT_ORDER = ("clubs", "diamonds", "spades", "hearts")


def passed(seed: int = 0, sc: Optional[Scenario] = None) -> Scenario:
    """A new game (or `sc`) after every player has passed (each the first of their legal passes)."""
    sc = sc or Scenario.new(RULES, seed=seed)
    for _ in range(4):
        sc.play(sc.moves()[0])
    return sc


def arrange(hands: list, tricks_played: int = 5, broken: bool = False, seed: int = 0) -> tuple:
    """A position at the lead of a trick: hands[0] is the hand of the player to lead, hands[1]
    the next seat's, and so on (card labels); every other card lies in the deck. Returns the
    scenario and the seats in that order."""
    return arrange_in(Scenario.new(RULES, seed=seed), hands, tricks_played, broken)


def arrange_in(sc: Scenario, hands: list, tricks_played: int = 5, broken: bool = False) -> tuple:
    """arrange() in the new game `sc` (loaded with other params or options)."""
    sc = passed(sc=sc)
    leader = sc.s.current_player()
    seats = [(leader - 1 + k) % 4 + 1 for k in range(4)]
    for seat in seats:
        sc.empty(("hand", seat), "deck")
    for seat, labels in zip(seats, hands):
        sc.put([sc.one("Card", "deck", label=label) for label in labels], ("hand", seat))
    sc.set_vars({"tricks_played": tricks_played, "hearts_broken": broken})
    return sc, seats


def suit_count(sc, seat) -> dict:
    out = {}
    for c in sc.zone(("hand", seat)):
        out[sc.attr(c, "suit")] = out.get(sc.attr(c, "suit"), 0) + 1
    return out


def test_H01_a_deck_of_52_cards_ace_high():
    sc = Scenario.new(RULES)
    cards = sc.find("Card")
    assert len(cards) == 52
    assert {(sc.attr(c, "suit"), sc.attr(c, "rank")) for c in cards} == {
        (s, r) for s in SUIT_ORDER for r in range(2, 15)}
    assert sc.attr(sc.one("Card", label="ace of spades"), "rank") == 14
    assert sc.attr(sc.one("Card", label="two of hearts"), "rank") == 2


def test_H02_thirteen_cards_each_seen_by_their_holder_only():
    sc = Scenario.new(RULES)
    assert [len(sc.zone(("hand", p))) for p in (1, 2, 3, 4)] == [13] * 4 and sc.zone("deck") == []
    view = sc.s.view(3)["zones"]
    assert [i["label"] for i in view["hand[P3]"]["items"]] == sc.labels(("hand", 3))
    assert all("items" not in view[f"hand[P{p}]"] and "shown" not in view[f"hand[P{p}]"] for p in (1, 2, 4))
    deals = {tuple(sorted(Scenario.new(RULES, seed=s).labels(("hand", 1)))) for s in range(4)}
    assert len(deals) == 4                                      # shuffled


def test_H02_with_explicit_chance_each_deal_is_chance_nodes_nobody_sees():
    game, diagnostics, _ = load_game(str(RULES), chance="explicit")
    assert diagnostics == []
    state = game.new_initial_state(0)
    odds = state.chance_outcomes()
    assert len(odds) == 52 and all(abs(p - 1 / 52) < 1e-12 for _, p in odds)
    nodes = 0
    while state.is_chance_node():
        state.apply(state.legal_moves()[-1])
        nodes += 1
    assert nodes == 51 and state.legal_moves()[0].name.startswith("pass ")
    assert set(state.view(2)["moves"]) == {"chance: ?"}


def test_H03_passes_go_left_right_across_then_none():
    sc = Scenario.new(RULES)
    receivers = {}
    for number in (1, 2, 3, 5):
        sc.set_var("hand_number", number)
        receivers[number] = [sc.call("receiver", p=p) for p in (1, 2, 3, 4)]
    assert receivers[1] == [2, 3, 4, 1] == receivers[5]         # left
    assert receivers[2] == [4, 1, 2, 3]                         # right
    assert receivers[3] == [3, 4, 1, 2]                         # across
    sc = Scenario.new(RULES, seed=3)
    rng = random.Random(3)
    while sc.var("hand_number") < 4:
        sc.play(rng.choice(sc.moves()))
    assert all(not m.startswith("pass ") for m in sc.moves())   # the fourth hand: no passing
    assert sc.moves() == ["two of clubs"]


def test_H04_three_cards_passed_in_secret_together():
    sc = Scenario.new(RULES)
    mine = sorted(sc.zone(("hand", 1)), key=lambda c: sc.attr(c, "order"))[:3]
    names = [sc.label(c) for c in mine]
    sc.play(f"pass {', '.join(names)}")
    assert sc.zone(("passing", 1)) == [] and sc.s.current_player() == 2   # nothing moved yet
    assert sc.s.view(2)["moves"] == ["P1 has chosen"]
    for _ in range(3):
        sc.play(sc.moves()[0])
    assert all(c in sc.zone(("hand", 2)) for c in mine)        # P1 passed to the left
    assert [len(sc.zone(("hand", p))) for p in (1, 2, 3, 4)] == [13] * 4
    assert sc.s.view(1)["moves"][0] == f"P1: pass {', '.join(names)}"
    assert sc.s.view(3)["moves"][0] == "P1: passes three cards"
    shown = sc.s.view(1)["zones"]["hand[P2]"]["shown"]        # the passer knows where they went
    assert sorted(i["label"] for i in shown) == sorted(names)
    assert "shown" not in sc.s.view(3)["zones"]["hand[P2]"]
    assert len(Scenario.new(RULES).moves()) == 286             # any three of thirteen


def test_H05_the_two_of_clubs_leads_the_first_trick():
    sc = passed()
    leader = sc.s.current_player()
    assert sc.one("Card", label="two of clubs") in sc.zone(("hand", leader))
    assert sc.moves() == ["two of clubs"]
    sc.refuse(sc.label(next(c for c in sc.zone(("hand", leader)) if sc.label(c) != "two of clubs")))


def test_H06_follow_suit_if_you_can_else_any_card():
    sc, seats = arrange([["ace of diamonds", "two of spades"], ["five of diamonds", "king of spades"],
                         ["ace of spades", "three of hearts"], ["four of diamonds"]])
    assert sorted(sc.moves()) == ["ace of diamonds", "two of spades"]
    sc.play("ace of diamonds")
    assert sc.moves() == ["five of diamonds"]
    sc.refuse("king of spades")
    sc.play("five of diamonds")
    assert sorted(sc.moves()) == ["ace of spades", "three of hearts"]   # no diamond: anything
    sc.play("three of hearts")
    assert [i["label"] for i in sc.s.view(seats[3])["zones"][f"played[P{seats[2]}]"]["items"]] == ["three of hearts"]


def test_H07_no_points_on_the_first_trick_unless_nothing_else():
    sc, seats = arrange([["two of clubs", "three of clubs"], ["queen of spades", "five of hearts", "two of diamonds"],
                         ["king of spades", "six of hearts"], ["seven of hearts", "queen of hearts"]],
                        tricks_played=0)
    sc.play("two of clubs")
    assert sc.moves() == ["two of diamonds"]                    # no club: neither hearts nor the queen
    sc.refuse("queen of spades")
    sc.play("two of diamonds")
    assert sc.moves() == ["king of spades"]
    sc.play("king of spades")
    assert sorted(sc.moves()) == ["queen of hearts", "seven of hearts"]   # nothing but hearts


def test_H08_hearts_are_led_only_once_broken_or_with_nothing_else():
    sc, seats = arrange([["two of hearts", "three of clubs"], ["four of clubs"], ["five of clubs"], ["six of clubs"]])
    assert sc.moves() == ["three of clubs"]
    sc.refuse("two of hearts")
    sc, seats = arrange([["two of hearts", "three of clubs"], ["four of clubs"], ["five of clubs"], ["six of clubs"]],
                        broken=True)
    assert sorted(sc.moves()) == ["three of clubs", "two of hearts"]
    sc, seats = arrange([["two of hearts", "nine of hearts"], ["four of clubs"], ["five of clubs"], ["six of clubs"]])
    assert sorted(sc.moves()) == ["nine of hearts", "two of hearts"]   # nothing but hearts
    # a heart discarded breaks them
    sc, seats = arrange([["three of clubs", "ten of clubs"], ["four of hearts", "two of spades"],
                         ["five of clubs", "two of diamonds"], ["six of clubs", "three of diamonds"]])
    sc.play("three of clubs", "four of hearts")
    assert sc.var("hearts_broken") is True


def test_H08_the_queen_of_spades_breaks_hearts_only_when_the_param_says_so():
    hands = [["three of clubs", "ten of clubs"], ["queen of spades", "two of spades"],
             ["five of clubs", "two of diamonds"], ["six of clubs", "three of diamonds"]]
    for given, broken in (({}, False), ({"queen_breaks_hearts": True}, True)):
        sc, seats = arrange_in(Scenario(load(RULES, params=given).new_initial_state(seed=0)), hands)
        sc.play("three of clubs", "queen of spades")
        assert sc.var("hearts_broken") is broken
    assert load(RULES, options=["openspiel"]).params["queen_breaks_hearts"] is True


def test_H09_the_highest_card_of_the_suit_led_wins_and_leads_next():
    sc, seats = arrange([["three of clubs", "two of diamonds"], ["ace of spades", "four of diamonds"],
                         ["jack of clubs", "five of diamonds"], ["four of clubs", "six of diamonds"]])
    sc.play("three of clubs", "ace of spades", "jack of clubs", "four of clubs")
    assert sorted(sc.labels(("taken", seats[2]))) == sorted(["three of clubs", "ace of spades", "jack of clubs", "four of clubs"])
    assert sc.s.current_player() == seats[2] and sc.var("leader") == seats[2]
    assert all(sc.zone(("played", p)) == [] for p in seats) and sc.var("lead_suit") is None
    view = sc.s.view(seats[0])["zones"][f"taken[P{seats[2]}]"]
    assert len(view["items"]) == 4                              # face up


def test_H10_hearts_score_one_and_the_queen_of_spades_thirteen():
    sc, seats = arrange([["two of clubs"], ["three of clubs"], ["four of clubs"], ["five of clubs"]])
    sc.put([sc.one("Card", "deck", label=f"{face} of hearts") for face in ("two", "three", "ace")], ("taken", 1))
    sc.put(sc.one("Card", "deck", label="queen of spades"), ("taken", 2))
    sc.put([sc.one("Card", "deck", label=label) for label in ("king of spades", "ace of clubs")], ("taken", 3))
    sc.run("score_hand")
    assert [sc.var(("points", p)) for p in (1, 2, 3, 4)] == [3, 13, 0, 0]
    assert sum(sc.attr(c, "worth") for c in sc.find("Card")) == 26


def test_H11_shooting_the_moon_gives_every_other_player_26():
    sc, seats = arrange([["two of clubs"], ["three of clubs"], ["four of clubs"], ["five of clubs"]])
    sc.set_var(("points", 2), 10)
    sc.put([c for c in sc.zone("deck") if sc.attr(c, "worth") > 0], ("taken", 2))
    sc.run("score_hand")
    assert [sc.var(("points", p)) for p in (1, 2, 3, 4)] == [26, 10, 26, 26]
    assert "P2 shoots the moon" in sc.s.log[-1]


def test_H12_a_hand_ending_at_100_or_more_ends_the_game_and_the_lowest_score_wins():
    sc, seats = arrange([["two of clubs"], ["three of clubs"], ["nine of hearts"], ["five of clubs"]],
                        tricks_played=12, broken=True)
    sc.set_vars({("points", seats[0]): 60, ("points", seats[1]): 40, ("points", seats[2]): 98,
                 ("points", seats[3]): 99})
    sc.play("two of clubs", "three of clubs", "nine of hearts")
    assert not sc.s.is_terminal()
    sc.play("five of clubs")                                    # P(seats[3]) takes the heart: 100
    assert sc.s.is_terminal() and sc.s.winners == [seats[1]]
    assert sc.var(("points", seats[3])) == 100
    # below 100, the winner of the last trick deals the next hand after everybody saw the end
    sc, seats = arrange([["two of clubs"], ["three of clubs"], ["nine of hearts"], ["five of clubs"]],
                        tricks_played=12, broken=True)
    sc.play("two of clubs", "three of clubs", "nine of hearts", "five of clubs")
    assert sc.moves() == ["deal the next hand"] and sc.s.current_player() == seats[3]
    assert len(sc.s.view(seats[0])["zones"][f"taken[P{seats[3]}]"]["items"]) == 4
    sc.play("deal the next hand")
    assert sc.var("hand_number") == 2 and sc.moves()[0].startswith("pass ")
    # a shorter game (the typed param) and a whole random game
    short = Scenario(load(RULES, params={"target": 30}).new_initial_state(seed=5))
    state = play_out(short.s, random.Random(5))
    scores = [short.var(("points", p)) for p in (1, 2, 3, 4)]
    assert max(scores) >= 30 and state.winners == [p for p in (1, 2, 3, 4) if scores[p - 1] == min(scores)]


def openspiel_hand(seed: int) -> Scenario:
    return Scenario(load(RULES, options=["openspiel"]).new_initial_state(seed=seed))


def test_H13_the_option_openspiel_plays_one_hand_and_returns_26_minus_its_points():
    sc = openspiel_hand(4)
    state = play_out(sc.s, random.Random(4))
    points = [sc.var(("points", p)) for p in (1, 2, 3, 4)]
    assert state.is_terminal() and sum(points) in (26, 78)       # one hand: 26 points, or a moon shot
    assert state.returns() == [26.0 - x for x in points]
    assert state.winners == [p for p in (1, 2, 3, 4) if points[p - 1] == min(points)]
    # without the option, the returns are 1 for a winner and 0 for the others, as before
    sc = Scenario.new(RULES, seed=4)
    state = play_out(sc.s, random.Random(4))
    assert state.returns() == [1.0 if p in state.winners else 0.0 for p in (1, 2, 3, 4)]


def test_H13_a_moon_shot_returns_26_to_the_shooter_and_0_to_the_others():
    sc = openspiel_hand(0)
    sc, seats = arrange_in(sc, [["two of clubs"], ["three of clubs"], ["nine of hearts"], ["five of clubs"]],
                           tricks_played=12, broken=True)
    sc.put([c for c in sc.zone("deck") if sc.attr(c, "worth") > 0], ("taken", seats[3]))
    sc.play("two of clubs", "three of clubs", "nine of hearts", "five of clubs")
    assert sc.s.is_terminal()                                   # one hand only
    assert sc.s.returns()[seats[3] - 1] == 26.0 and sorted(sc.s.returns()) == [0.0, 0.0, 0.0, 26.0]


def test_H13_the_hand_of_the_passes_cycle_and_each_card_are_chance_nodes():
    game, diagnostics, _ = load_game(str(RULES), options=["openspiel"], chance="explicit")
    assert diagnostics == []
    state = game.new_initial_state(0)
    assert sorted(m.name for m in state.legal_moves()) == ["1", "2", "3", "4"]
    assert all(abs(p - 0.25) < 1e-12 for _, p in state.chance_outcomes())
    state.apply("4")                                            # the fourth hand: no passing
    drawn = []
    while state.is_chance_node():
        move = state.legal_moves()[0]
        drawn.append(move.name)
        state.apply(move)
    sc = Scenario(state)
    # one card at a time, P1 first: the k-th card drawn goes to seat k % 4
    for k, name in enumerate(drawn):
        assert sc.one("Card", label=name) in sc.zone(("hand", k % 4 + 1))
    assert sc.var("hand_number") == 4 and sc.moves() == ["two of clubs"]
