"""One scenario test per numbered rule of Kuhn poker (docs/games/kuhn-poker.md, K-1..K-8), and
the first player's expected return under uniform random play: exactly +1/8 (OpenSpiel's rules)."""
from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction
from pathlib import Path

try:
    from scenario import Scenario, expected_returns, load, play_out
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario, expected_returns, load, play_out

RULES = Path(__file__).resolve().parents[1] / "games" / "kuhn-poker.rules"
FACES = ("jack", "queen", "king")


def dealt(first: str, second: str) -> Scenario:
    """A new game where P1 holds `first` and P2 `second` (the third card in the deck)."""
    sc = Scenario.new(RULES)
    for p, face in ((1, first), (2, second)):
        sc.fill(("hand", p), [sc.one("Card", face=face)], spill="deck")
    return sc


def test_K01_three_cards_jack_queen_king_shuffled():
    sc = Scenario.new(RULES)
    cards = sc.find("Card")
    assert sorted(sc.label(c) for c in cards) == sorted(FACES)
    strengths = {sc.attr(c, "face"): sc.attr(c, "strength") for c in cards}
    assert strengths["jack"] < strengths["queen"] < strengths["king"]
    # the shuffle deals every ordered pair of cards over the seeds
    deals = {tuple(sc2.labels(("hand", p))[0] for p in (1, 2))
             for sc2 in (Scenario.new(RULES, seed=s) for s in range(60))}
    assert deals == set(itertools.permutations(FACES, 2))


def test_K02_one_card_each_seen_by_its_holder_only():
    sc = dealt("king", "jack")
    assert sc.labels(("hand", 1)) == ["king"] and sc.labels(("hand", 2)) == ["jack"]
    assert len(sc.zone("deck")) == 1
    mine = sc.s.view(1)["zones"]
    assert [i["label"] for i in mine["hand[P1]"]["items"]] == ["king"]
    assert "items" not in mine["hand[P2]"] and mine["hand[P2]"]["count"] == 1
    assert "items" not in mine["deck"]


def test_K03_each_player_antes_one_chip():
    sc = dealt("queen", "king")
    assert sc.var(("net", 1)) == -1 and sc.var(("net", 2)) == -1
    assert sc.var("pot") == 2
    sc.play("bet")
    assert sc.var("pot") == 3 and sc.var(("net", 1)) == -2
    sc.play("bet")                            # the pot of 4 went to the king
    assert sc.var("pot") == 0 and sc.s.returns() == [-2, 2]
    assert sc.s.broken_invariants() == []


def test_K04_a_bet_puts_one_chip_in_and_a_pass_none():
    sc = dealt("queen", "king")
    assert sc.moves() == ["pass", "bet"]
    sc.play("pass")
    assert sc.var(("net", 1)) == -1 and sc.var("pot") == 2
    sc.play("bet")
    assert sc.var(("net", 2)) == -2 and sc.var("pot") == 3 and sc.var("bettor") == 2
    # facing the bet, a bet calls: the caller pays 1 too (2 in all) and the bettor stays P2
    sc.play("bet")
    assert sc.s.is_terminal() and sc.var("bettor") == 2
    assert sc.s.returns() == [-2, 2]


def test_K05_one_round_and_the_first_player_answers_a_bet():
    for line, length, last in ((["pass", "pass"], 2, 2), (["bet", "pass"], 2, 2), (["bet", "bet"], 2, 2),
                               (["pass", "bet", "pass"], 3, 1), (["pass", "bet", "bet"], 3, 1)):
        sc = dealt("jack", "queen")
        players = []
        for move in line:
            assert not sc.s.is_terminal()
            players.append(sc.s.current_player())
            sc.play(move)
        assert sc.s.is_terminal(), line
        assert players == [1, 2, 1][:length] and players[-1] == last


def test_K06_a_fold_gives_the_pot_to_the_other_whatever_the_cards():
    sc = dealt("jack", "king")
    sc.play("bet", "pass")                    # P2 folds the king
    assert sc.s.winners == [1] and sc.s.returns() == [1, -1]
    sc = dealt("king", "jack")
    sc.play("pass", "bet", "pass")            # P1 folds the king
    assert sc.s.winners == [2] and sc.s.returns() == [-1, 1]
    # a fold shows no card: the hands stay hidden to the other player
    assert sc.zone(("shown", 1)) == [] and "items" not in sc.s.view(2)["zones"]["hand[P1]"]


def test_K07_the_higher_card_takes_the_pot_at_a_showdown():
    for first, second in itertools.permutations(FACES, 2):
        high = 1 if FACES.index(first) > FACES.index(second) else 2
        for line in (["pass", "pass"], ["bet", "bet"], ["pass", "bet", "bet"]):
            sc = dealt(first, second)
            sc.play(*line)
            assert sc.s.winners == [high], (first, second, line)
            # the cards are shown: a spectator sees both
            zones = sc.s.view(0)["zones"]
            assert [[i["label"] for i in zones[f"shown[P{p}]"]["items"]] for p in (1, 2)] == [[first], [second]]


def test_K08_returns_are_the_chips_won_or_lost():
    cases = {("pass", "pass"): 1, ("bet", "bet"): 2, ("pass", "bet", "bet"): 2}
    for line, won in cases.items():
        sc = dealt("queen", "jack")
        sc.play(*line)
        assert sc.s.returns() == [won, -won]
        assert sum(sc.s.returns()) == 0


def test_K08_random_play_gives_the_first_player_one_eighth_exactly():
    """Every deal (equally likely) and every line of play, each move of probability 1/(legal
    moves): the first player's expectation is +1/8, the second's -1/8."""
    total = [Fraction(0), Fraction(0)]
    deals = list(itertools.permutations(FACES, 2))
    for first, second in deals:
        total = [t + r for t, r in zip(total, expected_returns(dealt(first, second).s))]
    assert [t / len(deals) for t in total] == [Fraction(1, 8), Fraction(-1, 8)]


def test_K08_seeded_random_games_agree_with_one_eighth():
    """4000 random games, their deals from the seeds: the mean return of P1 is within 4
    standard errors of 1/8 (one game's standard deviation is sqrt(135/64), about 1.45)."""
    game = load(RULES)
    rng = random.Random(2026)
    games, total = 4000, 0
    for seed in range(games):
        total += play_out(game.new_initial_state(seed=seed), rng).returns()[0]
    error = 4 * math.sqrt(135 / 64) / math.sqrt(games)
    assert abs(total / games - 1 / 8) < error
