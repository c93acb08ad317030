"""One scenario test per numbered rule of Leduc poker (docs/games/leduc-poker.md, LP-1..LP-9),
and the first player's exact expected return under uniform random play: -5/64, walked
through the engine over every deal (an independent computation from OpenSpiel's rules gives
the same)."""
from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

try:
    from scenario import Scenario, expected_returns
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario, expected_returns

RULES = Path(__file__).resolve().parents[1] / "games" / "leduc-poker.rules"


def dealt(first: str, second: str, public: str) -> Scenario:
    """A new game where P1 holds `first`, P2 `second`, and `public` will be the public card
    (labels such as "king of spades")."""
    sc = Scenario.new(RULES)
    for p, label in ((1, first), (2, second)):
        sc.fill(("hand", p), [sc.one("Card", label=label)], spill="deck")
    sc.put(sc.one("Card", label=public), "deck")           # the top of the deck
    return sc


def test_LP01_six_cards_jack_queen_king_in_two_suits_shuffled():
    sc = Scenario.new(RULES)
    labels = sorted(sc.label(c) for c in sc.find("Card"))
    assert labels == sorted(f"{r} of {s}" for r in ("jack", "queen", "king") for s in ("spades", "hearts"))
    deals = {tuple(Scenario.new(RULES, seed=s).labels(("hand", 1))) for s in range(40)}
    assert len(deals) == 6


def test_LP02_one_private_card_each_seen_by_its_holder_only():
    sc = dealt("king of spades", "jack of hearts", "queen of spades")
    assert len(sc.zone(("hand", 1))) == 1 and len(sc.zone(("hand", 2))) == 1 and len(sc.zone("deck")) == 4
    view = sc.s.view(2)["zones"]
    assert [i["label"] for i in view["hand[P2]"]["items"]] == ["jack of hearts"]
    assert "items" not in view["hand[P1]"] and "items" not in view["deck"]


def test_LP03_each_player_antes_one_chip():
    sc = dealt("king of spades", "jack of hearts", "queen of spades")
    assert [sc.var(("paid", p)) for p in (1, 2)] == [1, 1] and sc.call("pot") == 2
    sc.play("Call", "Call", "Call", "Call")   # checked down: the king wins the two antes
    assert sc.s.returns() == [1, -1]
    assert sum(sc.var(("won", p)) for p in (1, 2)) == 2


def test_LP04_fold_only_facing_a_raise_two_raises_a_round_of_2_then_4():
    sc = dealt("king of spades", "jack of hearts", "queen of spades")
    assert sc.moves() == ["Call", "Raise"]
    sc.refuse("Fold", "nothing to call")
    sc.play("Raise")                          # round 1: raises of 2
    assert sc.var(("paid", 1)) == 3 and sc.var("stakes") == 3
    assert sc.moves() == ["Fold", "Call", "Raise"]
    sc.play("Raise")
    assert sc.var(("paid", 2)) == 5 and sc.moves() == ["Fold", "Call"]
    sc.refuse("Raise", "two raises")
    sc.play("Call")                           # P1 calls the re-raise: round 2
    assert sc.var("round") == 2 and sc.s.current_player() == 1
    assert sc.moves() == ["Call", "Raise"]    # the raises start again
    sc.play("Raise")                          # round 2: raises of 4
    assert sc.var(("paid", 1)) == 9 and sc.var("stakes") == 9


def test_LP04_a_round_ends_when_all_called_or_the_raise_is_called():
    sc = dealt("king of spades", "jack of hearts", "queen of spades")
    sc.play("Call")
    assert sc.var("round") == 1 and sc.s.current_player() == 2
    sc.play("Call")                           # both checked
    assert sc.var("round") == 2
    sc = dealt("king of spades", "jack of hearts", "queen of spades")
    sc.play("Call", "Raise")                  # a check, a raise: P1 must answer it
    assert sc.var("round") == 1 and sc.s.current_player() == 1
    sc.play("Call")
    assert sc.var("round") == 2 and [sc.var(("paid", p)) for p in (1, 2)] == [3, 3]


def test_LP05_the_public_card_is_revealed_after_the_first_round():
    sc = dealt("king of spades", "jack of hearts", "queen of spades")
    assert sc.zone("table") == []
    sc.play("Raise")
    assert sc.zone("table") == []
    sc.play("Call")
    assert sc.labels("table") == ["queen of spades"]
    for seat in (0, 1, 2):
        assert [i["label"] for i in sc.s.view(seat)["zones"]["table"]["items"]] == ["queen of spades"]


def test_LP06_a_fold_gives_the_pot_to_the_other():
    sc = dealt("king of spades", "jack of hearts", "queen of spades")
    sc.play("Raise", "Fold")                  # the jack folds
    assert sc.s.is_terminal() and sc.s.winners == [1] and sc.s.returns() == [1, -1]
    sc = dealt("king of spades", "jack of hearts", "queen of spades")
    sc.play("Call", "Call", "Call", "Raise", "Fold")     # the king folds in round 2
    assert sc.s.winners == [2] and sc.s.returns() == [-1, 1]
    assert sc.zone(("shown", 1)) == [] and sc.zone(("shown", 2)) == []   # a fold shows nothing
    assert sc.labels("table") == ["queen of spades"]


def test_LP07_a_pair_beats_a_higher_card_then_high_card_then_the_other():
    # the jack pairs the public jack: it beats the king
    sc = dealt("jack of spades", "king of hearts", "jack of hearts")
    sc.play("Call", "Call", "Call", "Call")
    assert sc.s.winners == [1]
    assert sc.labels(("shown", 1)) == ["jack of spades"] and sc.labels(("shown", 2)) == ["king of hearts"]
    assert "items" in sc.s.view(1)["zones"]["shown[P2]"]          # shown to everybody
    # no pair: the king is the higher card
    sc = dealt("queen of spades", "king of hearts", "jack of hearts")
    sc.play("Call", "Call", "Call", "Call")
    assert sc.s.winners == [2]
    # both hands hold the public king: the other card decides (queen over jack)
    sc = dealt("queen of spades", "jack of hearts", "king of hearts")
    sc.play("Call", "Call", "Call", "Call")
    assert sc.s.winners == [1]


def test_LP08_equal_hands_share_the_pot():
    sc = dealt("king of spades", "king of hearts", "jack of hearts")
    sc.play("Raise", "Call", "Raise", "Call")
    assert sc.s.winners == [1, 2] and sc.s.outcome() == "shared"
    assert sc.s.returns() == [0, 0] and [sc.var(("won", p)) for p in (1, 2)] == [7, 7]


def test_LP09_returns_are_the_chips_won_or_lost_13_at_most():
    sc = dealt("king of spades", "jack of hearts", "queen of spades")
    sc.play("Raise", "Call", "Raise", "Call")
    assert sc.s.returns() == [7, -7]
    sc = dealt("king of spades", "jack of hearts", "queen of spades")
    sc.play("Raise", "Raise", "Call", "Raise", "Raise", "Call")
    assert sc.s.returns() == [13, -13]
    assert sc.s.broken_invariants() == []


def test_LP09_random_play_gives_the_first_player_minus_5_in_64():
    base = Scenario.new(RULES)
    labels = sorted(base.label(c) for c in base.find("Card"))
    deals = list(itertools.permutations(labels, 3))
    total = [Fraction(0), Fraction(0)]
    for first, second, public in deals:
        total = [t + r for t, r in zip(total, expected_returns(dealt(first, second, public).s))]
    assert [t / len(deals) for t in total] == [Fraction(-5, 64), Fraction(5, 64)]
