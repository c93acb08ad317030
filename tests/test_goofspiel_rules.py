"""One scenario test per numbered rule of Goofspiel (docs/games/goofspiel.md, G-1..G-9), and
what random play gives where it can be computed exactly."""
from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

try:
    from scenario import Scenario, load, play_out
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario, load, play_out

RULES = Path(__file__).resolve().parents[1] / "games" / "goofspiel.rules"


def fresh(players=2, n=None, options=(), seed=0) -> Scenario:
    """A new game at the first bid, with N cards (the rules' default when n is None)."""
    params = {} if n is None else {"n": n}
    return Scenario(load(RULES, options, players, params).new_initial_state(seed=seed))


def values(sc, key) -> list:
    return [sc.attr(c, "value") for c in sc.zone(key)]


def bid_all(sc, *bids):
    """Every player bids, in seat order (the bids of one turn)."""
    sc.play(*(f"bid {b}" for b in bids))


def test_G01_each_player_holds_the_cards_1_to_n():
    for n in (4, 9, 13):
        sc = fresh(players=3, n=n)
        for p in (1, 2, 3):
            assert sorted(values(sc, ("hand", p))) == list(range(1, n + 1))
            assert all(sc.attr(c, "owner") == p for c in sc.zone(("hand", p)))
    assert sorted(values(fresh(), ("hand", 1))) == list(range(1, 14))       # 13 by default


def test_G01_n_outside_4_to_13_is_refused():
    from referee.dsl.diagnostics import RulesError
    for n in (3, 14):
        with pytest.raises(RulesError, match="4..13"):
            load(RULES, players=2, params={"n": n})


def test_G02_the_prize_deck_is_shuffled_or_in_the_order_of_an_option():
    orders = set()
    for seed in range(8):
        sc = fresh(n=6, seed=seed)
        orders.add(tuple(values(sc, "prize") + list(reversed(values(sc, "prizes")))))
    assert len(orders) > 1 and all(sorted(o) == list(range(1, 7)) for o in orders)
    sc = fresh(n=6, options=("ascending",))
    assert values(sc, "prize") + list(reversed(values(sc, "prizes"))) == [1, 2, 3, 4, 5, 6]
    sc = fresh(n=6, options=("descending",))
    assert values(sc, "prize") + list(reversed(values(sc, "prizes"))) == [6, 5, 4, 3, 2, 1]


def test_G03_each_turn_the_top_prize_card_is_revealed():
    sc = fresh(n=5, options=("descending",))
    assert values(sc, "prize") == [5] and len(sc.zone("prizes")) == 4
    assert [i["label"] for i in sc.s.view(2)["zones"]["prize"]["items"]] == ["5"]
    assert "items" not in sc.s.view(2)["zones"]["prizes"]          # the next prizes stay hidden
    bid_all(sc, 1, 2)
    assert values(sc, "prize") == [4] and len(sc.zone("prizes")) == 3


def test_G04_sealed_bids_from_the_hand_revealed_together():
    sc = fresh(players=3, n=5)
    assert sc.s.sealed() and sc.moves() == [f"bid {v}" for v in range(1, 6)]
    sc.refuse("bid 6", "unknown move")
    sc.play("bid 4")
    for p in (2, 3):
        view = sc.s.view(p)
        assert view["moves"] == ["P1 has chosen"] and "4" not in repr(view["moves"])
        assert view["zones"]["hand[P1]"]["count"] == 5                 # the card is not yet bid
    assert sc.zone(("bids", 1)) == []
    sc.play("bid 2", "bid 5")
    assert sc.s.view(1)["moves"] == ["P1: bid 4", "P2: bid 2", "P3: bid 5"]


def test_G05_the_single_highest_bid_scores_the_prize():
    sc = fresh(players=3, n=5, options=("descending",))
    bid_all(sc, 2, 4, 3)
    assert [sc.var(("points", p)) for p in (1, 2, 3)] == [0, 5, 0]
    assert values(sc, ("won", 2)) == [5]


def test_G05_a_tie_for_the_highest_bid_discards_the_prize():
    sc = fresh(players=3, n=5, options=("descending",))
    bid_all(sc, 4, 4, 5)              # the single highest bid wins, even if lower bids tie
    assert [sc.var(("points", p)) for p in (1, 2, 3)] == [0, 0, 5]
    bid_all(sc, 5, 5, 1)              # prize 4: the two 5s tie for the highest
    assert [sc.var(("points", p)) for p in (1, 2, 3)] == [0, 0, 5]
    assert values(sc, "discarded") == [4] and all(4 not in values(sc, ("won", p)) for p in (1, 2, 3))
    assert sc.s.view(1)["log"][-2:] == ["P3 takes the prize 5", "a tie for the highest bid: the prize 4 is discarded"]


def test_G06_bid_cards_are_discarded():
    sc = fresh(players=2, n=5)
    bid_all(sc, 3, 1)
    assert sorted(values(sc, ("hand", 1))) == [1, 2, 4, 5] and sorted(values(sc, ("hand", 2))) == [2, 3, 4, 5]
    assert sc.zone(("bids", 1)) == [] and sc.zone(("bids", 2)) == []
    assert sc.moves() == ["bid 1", "bid 2", "bid 4", "bid 5"]
    assert values(sc, ("played", 1)) == [3] and values(sc, ("played", 2)) == [1]


def test_G07_the_last_turn_is_played_without_a_choice():
    sc = fresh(players=3, n=4, options=("ascending",))
    for bids in ((4, 1, 1), (1, 2, 2), (2, 3, 3)):
        assert not sc.s.is_terminal()
        bid_all(sc, *bids)
    # three turns of choices; the fourth prize went to the last cards (3, 4, 4: a tie)
    assert sc.s.is_terminal() and len(sc.s.history) == 9
    assert all(sc.zone(("hand", p)) == [] for p in (1, 2, 3)) and sc.zone("prizes") == []
    assert [sc.var(("points", p)) for p in (1, 2, 3)] == [1, 0, 0]


def test_G08_most_points_wins_and_equal_leaders_share():
    sc = fresh(players=3, n=4, options=("ascending",))
    for bids in ((1, 2, 1), (2, 3, 2), (4, 1, 3)):
        bid_all(sc, *bids)
    assert [sc.var(("points", p)) for p in (1, 2, 3)] == [3, 3, 0]
    assert sc.s.winners == [1, 2] and sc.s.outcome() == "shared"


def test_G08_equal_points_for_everybody_is_a_draw():
    sc = fresh(players=2, n=4, options=("ascending",))
    for bids in ((1, 1), (2, 2), (3, 3)):
        bid_all(sc, *bids)
    assert sc.s.winners == [] and sc.s.outcome() == "draw" and sc.s.returns() == [0, 0]


def test_G09_returns_pay_each_winner_one_over_the_winners_and_each_loser_minus_one_over_the_losers():
    """OpenSpiel's win-loss returns, exactly: the rules' '/' makes fractions; returns() gives
    them as floats, and the fn that computes them gives the fractions themselves."""
    sc = fresh(players=3, n=4, options=("ascending",))
    for bids in ((4, 1, 1), (1, 2, 2), (2, 3, 3)):
        bid_all(sc, *bids)
    assert sc.s.winners == [1] and sc.s.returns() == [1.0, -0.5, -0.5]
    sc = fresh(players=3, n=4, options=("ascending",))
    for bids in ((1, 2, 1), (2, 3, 2), (4, 1, 3)):
        bid_all(sc, *bids)
    assert sc.s.winners == [1, 2] and sc.s.returns() == [0.5, 0.5, -1.0]
    sc = fresh(players=4, n=4, options=("ascending",))
    for bids in ((4, 1, 1, 1), (1, 2, 2, 2), (2, 3, 3, 3)):
        bid_all(sc, *bids)
    # P1 took the prize 1; every other prize went to a tie: one winner of four
    assert sc.s.winners == [1] and sc.s.returns() == pytest.approx([1, -1 / 3, -1 / 3, -1 / 3])
    assert sum(Fraction(r).limit_denominator(12) for r in sc.s.returns()) == 0        # zero-sum
    sc = fresh(players=4, n=4, options=("ascending",))
    for bids in ((1, 2, 1, 1), (2, 3, 2, 2), (4, 1, 3, 3)):
        bid_all(sc, *bids)
    # P2 took 1 and 2, P1 took 3, the last prize went to a tie: two winners of four
    assert sc.s.winners == [1, 2] and sc.s.returns() == [0.5, 0.5, -0.5, -0.5]
    sc = fresh(players=2, n=4, options=("descending",))
    for bids in ((4, 1), (3, 2), (2, 3)):
        bid_all(sc, *bids)
    assert sc.s.returns() == [1, -1]          # two players: +1 / -1


def test_G09_random_play_discards_one_prize_in_n_in_two_player_games():
    """Two random players' bids are two independent random orders of 1..N: each turn they tie
    with probability 1/N, so the prizes discarded are worth (1 + ... + N) / N = 7 on average
    for N = 13, and the points scored 84. 400 seeded games stay well within that."""
    game = load(RULES, players=2)
    rng = random.Random(9)
    games, total = 400, 0
    for seed in range(games):
        total += sum(play_out(game.new_initial_state(seed=seed), rng).scores())
    assert abs(total / games - 84) < 2.5            # one game's standard deviation is about 8
