"""One scenario test per numbered rule of Liar's dice (docs/games/liars-dice.md, L-1..L-7),
and the first player's exact expected return under uniform random play (-7/216 with one
six-sided die each), walked through the engine."""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

try:
    from scenario import Scenario, expected_returns, load
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario, expected_returns, load

RULES = Path(__file__).resolve().parents[1] / "games" / "liars-dice.rules"


def rolled(*faces, players=None, dice=1, sides=None) -> Scenario:
    """A new game whose dice show `faces`: P1's dice first, then P2's..."""
    params = {"dice": dice} | ({} if sides is None else {"sides": sides})
    count = players or len(faces) // dice
    sc = Scenario(load(RULES, players=count, params=params).new_initial_state(seed=0))
    sc.set_vars({("roll", 1 + k // dice, 1 + k % dice): face for k, face in enumerate(faces)})
    return sc


def test_L01_every_player_has_the_dice_of_the_params():
    sc = rolled(1, 1, 1, 1, 1, 1, dice=3, sides=4)
    fresh = Scenario(load(RULES, players=3, params={"dice": 2, "sides": 4}).new_initial_state(seed=5))
    faces = [fresh.var(("roll", p, i)) for p in (1, 2, 3) for i in (1, 2)]
    assert all(1 <= f <= 4 for f in faces)
    # bids run up to the total of the dice: 6 dice, 4 faces
    assert sc.moves()[-1] == "6-4" and len(sc.moves()) == 24


def test_L02_dice_are_rolled_in_secret():
    sc = Scenario.new(RULES, seed=3)
    mine, theirs = sc.s.view(1)["vars"], sc.s.view(2)["vars"]
    assert "roll[P1, 1]" in mine and "roll[P2, 1]" not in mine
    assert "roll[P2, 1]" in theirs and "roll[P1, 1]" not in theirs
    assert not any(k.startswith("roll") for k in sc.s.view(0)["vars"])
    # the rolls come from the seed: over seeds every face shows up
    assert {Scenario.new(RULES, seed=s).var(("roll", 1, 1)) for s in range(80)} == set(range(1, 7))


def test_L03_turns_alternate_and_liar_needs_a_bid_first():
    sc = rolled(2, 5)
    assert sc.s.current_player() == 1
    sc.refuse("Liar", "nobody has bid yet")
    sc.play("1-2")
    assert sc.s.current_player() == 2 and sc.can("Liar")
    sc.play("1-4")
    assert sc.s.current_player() == 1


def test_L04_a_bid_must_be_higher_quantity_first_then_face():
    sc = rolled(2, 5)
    sc.play("1-5")
    assert sc.moves() == ["1-6", "2-1", "2-2", "2-3", "2-4", "2-5", "2-6", "Liar"]
    sc.refuse("1-4", "not possible")
    sc.refuse("1-5", "not possible")
    sc.play("2-1")                             # a higher quantity with a lower face
    assert sc.var("bid_quantity") == 2 and sc.var("bid_face") == 1 and sc.var("bidder") == 2
    sc.play("2-6")                             # the highest bid: only Liar remains
    assert sc.moves() == ["Liar"]


def test_L05_the_highest_face_is_wild():
    sc = rolled(6, 3)
    sc.play("2-3", "Liar")                     # a three and a six: two threes
    assert sc.s.winners == [1]
    sc = rolled(6, 6)
    sc.play("2-6", "Liar")                     # sixes count once each, as sixes
    assert sc.s.winners == [1]
    sc = rolled(4, 3, sides=4)
    sc.play("2-3", "Liar")                     # with four faces, the 4 is wild
    assert sc.s.winners == [1]


def test_L06_the_call_shows_the_dice_and_checks_the_bid():
    sc = rolled(2, 5)
    sc.play("1-5", "1-6", "Liar")              # no six, no five counted for six: a lie
    assert sc.s.winners == [1] and sc.var("winner") == 1 and sc.var("loser") == 2
    assert sc.s.view(0)["vars"]["shown[P1, 1]"] == "2" and sc.s.view(0)["vars"]["shown[P2, 1]"] == "5"
    sc = rolled(2, 5)
    sc.play("1-5", "Liar")                     # P2's five: the bid holds, the caller loses
    assert sc.s.winners == [1] and sc.var("loser") == 2
    assert sc.s.view(2)["log"][-1] == "dice counting as 5: 1, so the bid of P1 holds"
    sc = rolled(2, 5)
    sc.play("1-3", "Liar")
    assert sc.s.winners == [2] and sc.var("loser") == 1


def test_L07_returns_plus_one_minus_one_and_zero_for_the_others():
    sc = rolled(2, 5)
    sc.play("1-3", "Liar")
    assert sc.s.returns() == [-1, 1]
    sc = rolled(2, 5, 4)
    sc.play("1-1", "1-4", "Liar")              # P3 calls P2's true bid: P2 +1, P3 -1, P1 0
    assert sc.s.returns() == [0, 1, -1]


def bids_so_far(state) -> tuple:
    """The state after a line of bids depends only on the last bid and who moves (every move
    but the last is a bid): positions with the same key are the same."""
    return state.vars.get("last_rank", -1), state.current_player()


def test_L07_random_play_gives_the_first_player_minus_7_in_216():
    rolls = list(itertools.product(range(1, 7), repeat=2))
    total = [Fraction(0), Fraction(0)]
    for faces in rolls:
        total = [t + r for t, r in zip(total, expected_returns(rolled(*faces).s, key=bids_so_far))]
    assert [t / len(rolls) for t in total] == [Fraction(-7, 216), Fraction(7, 216)]
