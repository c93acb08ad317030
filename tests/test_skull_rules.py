"""One scenario test per numbered rule of Skull (docs/games/skull.md, SK-1..SK-16): positions
arranged by moving each player's coasters between hand, mat and lost, moves played by name,
and what each seat is shown checked in its view."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.tools.verify import verify

try:
    from scenario import Scenario, leaks_along_random_games, planted, play_out
except ImportError:  # tests/ imported as a package
    from tests.scenario import Scenario, leaks_along_random_games, planted, play_out

RULES = Path(__file__).resolve().parents[1] / "games" / "skull.rules"


def seats(sc) -> list:
    return list(range(1, sc.game.num_players + 1))


def new(players=3, seed=0, starter=1) -> Scenario:
    """A game at its first placement, the first player set to `starter`."""
    sc = Scenario.new(RULES, players=players, seed=seed)
    sc.set_var("starter", starter)
    return sc


def keep(sc, p, faces) -> None:
    """Leave p only the coasters of `faces` in hand (the others lost, as after failures)."""
    wanted = []
    for face in faces:
        wanted.append(sc.take("Coaster", ("hand", p), label=face, exclude=wanted))
    sc.fill(("hand", p), wanted, spill=("lost", p))


def place_first(sc, faces) -> None:
    """The first placement of a round: faces[p] for each seat still asked, in seat order."""
    for p in sorted(faces):
        assert sc.s.current_player() == p
        sc.play(f"place {faces[p]}")


def in_game(sc) -> list:
    return [p for p in seats(sc) if sc.call("in_game", p=p)]


def coasters_back(sc) -> bool:
    return all(sc.zone(("mat", p)) == [] and sc.zone(("flipped", p)) == [] for p in seats(sc))


def test_SK01_three_to_six_players_four_coasters_each_three_roses_and_a_skull():
    for players in range(3, 7):
        sc = Scenario.new(RULES, players=players)
        for p in seats(sc):
            assert sorted(sc.labels(("hand", p))) == ["rose"] * 3 + ["skull"]
            assert all(sc.attr(x, "owner") == p for x in sc.zone(("hand", p)))
    for players in (2, 7):
        game, diagnostics, _ = load_game(str(RULES), (), players)
        assert game is None and [d.code for d in diagnostics] == ["E602"]


def test_SK02_coasters_in_hand_and_on_mats_are_seen_by_their_owner_only():
    sc = new(players=4, seed=1)
    place_first(sc, {1: "skull", 2: "rose", 3: "rose", 4: "rose"})
    for seat in seats(sc):
        view = sc.s.view(seat)["zones"]
        for p in seats(sc):
            if p == seat:
                assert sc.seen(seat, f"mat[P{p}]") == sc.labels(("mat", p))
                assert sc.seen(seat, f"hand[P{p}]") == sc.labels(("hand", p))
            else:
                assert sc.seen(seat, f"mat[P{p}]") is None and sc.seen(seat, f"hand[P{p}]") is None
            assert view[f"mat[P{p}]"]["count"] == 1 and view[f"hand[P{p}]"]["count"] == 3


def test_SK02_no_channel_tells_a_seat_another_player_s_coasters():
    assert leaks_along_random_games(load_game(str(RULES), (), 4)[0], range(3), moves=60, every=6) == []


def test_SK02_a_coaster_told_to_everybody_would_be_found(tmp_path):
    leaky = planted(RULES, tmp_path, "move c to mat[current]", "move c to mat[current]\n  log \"{current} places {c}\"")
    game, diagnostics, _ = load_game(str(leaky), (), 3)
    assert diagnostics == []
    found = verify(game, games=3, shrink_failures=False, leaks="flows").failures
    assert any(f.kind == "leak" and "places skull" in f.message for f in found)


def test_SK03_the_first_player_is_drawn_at_random():
    firsts = set()
    for seed in range(12):
        sc = Scenario.new(RULES, players=4, seed=seed)
        starter = sc.var("starter")
        place_first(sc, {p: "rose" for p in range(1, 5)})
        assert sc.s.current_player() == starter and "bid 1" in sc.moves()
        firsts.add(starter)
    assert len(firsts) > 2


def test_SK04_every_player_places_a_first_coaster_at_once_sealed():
    sc = new(players=3, seed=2)
    assert sc.moves() == ["place rose", "place skull"]          # no bid before the first coaster
    sc.play("place skull")
    assert sc.s.view(2)["moves"][-1] == "P1 has chosen"           # sealed until all have placed
    assert sc.zone(("mat", 1)) == []
    sc.play("place rose", "place rose")
    assert [len(sc.zone(("mat", p))) for p in seats(sc)] == [1, 1, 1]
    assert [text for _, text in sc.s.public_history[-3:]] == ["places a coaster"] * 3
    assert sc.s.view(1)["moves"][-3] == "P1: place skull"


def test_SK05_a_player_adds_a_coaster_or_bids_one_with_an_empty_hand_must_bid():
    sc = new(players=3, seed=3, starter=2)
    place_first(sc, {1: "rose", 2: "rose", 3: "skull"})
    assert sc.s.current_player() == 2
    assert sc.moves() == ["place rose", "place skull", "bid 1", "bid 2", "bid 3"]
    assert "nobody has bid" in sc.refuse("pass")
    sc.play("place skull")
    assert sc.s.current_player() == 3 and sc.s.public_history[-1] == (2, "places a coaster")
    sc = new(players=3, seed=3, starter=1)
    keep(sc, 1, ["rose"])
    place_first(sc, {1: "rose", 2: "rose", 3: "rose"})
    assert sc.moves() == ["bid 1", "bid 2", "bid 3"]               # nothing left to place


def test_SK06_a_bid_is_at_most_the_coasters_on_the_mats_and_above_the_last():
    sc = new(players=3, seed=4)
    place_first(sc, {1: "rose", 2: "rose", 3: "rose"})
    sc.play("place rose")                                         # four coasters on the mats
    sc.play("bid 2")
    assert sc.moves() == ["bid 3", "bid 4", "pass"]
    assert "higher than 2" in sc.refuse("bid 1")
    sc.refuse("bid 5")
    assert sc.var("highest") == 2 and sc.var("bidder") == 2


def test_SK07_after_a_bid_each_raises_or_passes_until_one_bidder_is_left():
    sc = new(players=4, seed=5)
    place_first(sc, {p: "rose" for p in range(1, 5)})
    sc.play("place rose", "place rose", "bid 2")                  # P1, P2 place; P3 bids
    assert "no more coasters" in sc.refuse("place rose")
    sc.play("pass", "bid 3")                                      # P4 passes; P1 raises
    sc.play("pass")                                               # P2
    assert sc.s.current_player() == 3                            # P4 passed: skipped from now on
    sc.play("bid 4")
    assert sc.s.current_player() == 1
    sc.play("pass")                                               # P1: only P3 is left
    assert sc.var("bidder") == 3 and sc.s.current_player() == 3   # P3 is the challenger
    assert sc.moves()[0].startswith("flip")
    assert any("P3 takes the challenge: 4 coasters" in line for line in sc.s.log)
    sc = new(players=3, seed=5)
    place_first(sc, {p: "rose" for p in range(1, 4)})
    sc.play("bid 3")                                              # every coaster: nobody can raise
    assert any("P1 takes the challenge: 3 coasters" in line for line in sc.s.log)


def test_SK08_the_challenger_flips_their_own_coasters_first_from_the_top():
    sc = new(players=3, seed=6)
    place_first(sc, {1: "rose", 2: "skull", 3: "rose"})
    sc.play("place rose", "place rose", "place rose", "bid 4", "pass", "pass")
    assert sc.labels(("flipped", 1)) == ["rose", "rose"] and sc.zone(("mat", 1)) == []
    assert sc.moves() == ["flip P2", "flip P3"]                   # the own mat is done
    sc = new(players=3, seed=6)
    place_first(sc, {1: "skull", 2: "rose", 3: "rose"})
    sc.play("place rose", "place rose", "place rose", "bid 1", "pass", "pass")
    assert sc.var(("turned", 1)) is True                          # only the top rose was flipped
    assert not any("skull" in line for line in sc.s.log)


def test_SK09_then_the_top_coaster_of_a_mat_of_the_challenger_s_choice():
    sc = new(players=3, seed=7)
    place_first(sc, {1: "rose", 2: "skull", 3: "rose"})
    sc.play("place rose", "place rose", "place rose", "bid 4", "pass", "pass")
    sc.play("flip P2")                                            # P2's top: the rose on the skull
    assert sc.labels(("flipped", 2)) == ["rose"] and sc.labels(("mat", 2)) == ["skull"]
    assert sc.moves() == ["flip P2", "flip P3"] and sc.s.current_player() == 1
    assert "flip P1" not in sc.moves()
    assert sc.s.view(3)["moves"][-1] == "P1: flip P2"


def test_SK10_a_skull_ends_the_challenge_at_once_roses_up_to_the_bid_succeed():
    sc = new(players=3, seed=8)
    place_first(sc, {1: "rose", 2: "skull", 3: "rose"})
    sc.play("place rose", "place rose", "place rose", "bid 5", "pass", "pass")
    sc.play("flip P2", "flip P2")                                 # the skull, one short of the bid
    assert sc.var(("turned", 1)) is False and len(sc.zone(("lost", 1))) == 1
    assert sc.var("skull_of") == 2 and coasters_back(sc)
    sc = new(players=3, seed=8)
    place_first(sc, {1: "rose", 2: "skull", 3: "rose"})
    sc.play("place rose", "place rose", "place rose", "bid 3", "pass", "pass")
    sc.play("flip P3")                                            # the third rose: done
    assert sc.var(("turned", 1)) is True and sc.zone(("lost", 1)) == []


def test_SK11_a_first_success_turns_the_mat_a_second_wins():
    sc = new(players=3, seed=9)
    place_first(sc, {p: "rose" for p in range(1, 4)})
    sc.play("bid 1", "pass", "pass")
    assert sc.var(("turned", 1)) is True and not sc.s.is_terminal()
    place_first(sc, {p: "rose" for p in range(1, 4)})
    assert sc.s.current_player() == 1
    sc.play("bid 2", "pass", "pass", "flip P3")
    assert sc.s.is_terminal() and sc.s.winners == [1] and sc.s.outcome() == "win"
    assert list(sc.s.returns()) == [1.0, 0.0, 0.0]


def test_SK12_a_failure_loses_a_coaster_at_random_unseen_by_the_others():
    lost = set()
    for seed in range(16):
        sc = new(players=3, seed=seed)
        place_first(sc, {1: "rose", 2: "skull", 3: "rose"})
        sc.play("bid 2", "pass", "pass", "flip P2")
        assert len(sc.zone(("lost", 1))) == 1 and len(sc.zone(("hand", 1))) == 3
        lost.add(sc.labels(("lost", 1))[0])
        assert sc.seen(1, "lost[P1]") == sc.labels(("lost", 1))   # its owner knows what is left
        assert sc.seen(2, "lost[P1]") is None and sc.seen(3, "lost[P1]") is None
        assert sc.prompt() is None                                # nobody chose: a blind draw
    assert lost == {"rose", "skull"}


def test_SK12_after_their_own_skull_the_challenger_chooses_the_coaster_lost():
    sc = new(players=3, seed=10)
    place_first(sc, {1: "skull", 2: "rose", 3: "rose"})
    sc.play("bid 1", "pass", "pass")
    assert sc.prompt() == "which coaster do you lose?" and sc.s.current_player() == 1
    assert sc.moves() == ["rose", "skull"]
    sc.play("skull")
    assert sc.labels(("lost", 1)) == ["skull"] and sorted(sc.labels(("hand", 1))) == ["rose"] * 3
    for seat in (2, 3):
        assert sc.s.view(seat)["moves"][-1] == "P1: discards a coaster face down"
        assert sc.seen(seat, "lost[P1]") is None


def test_SK13_after_the_challenge_every_player_takes_back_their_coasters():
    sc = new(players=4, seed=11)
    place_first(sc, {1: "rose", 2: "rose", 3: "skull", 4: "rose"})
    sc.play("place rose", "place rose", "place rose", "bid 5", "pass", "pass", "pass")
    sc.play("flip P2", "flip P2", "flip P3")                     # four roses: one more to flip
    assert len(sc.zone(("flipped", 3))) == 1 and not coasters_back(sc)
    sc.play("flip P3")                                            # P3's skull
    assert coasters_back(sc)
    for p in (1, 2, 3, 4):
        assert all(sc.attr(x, "owner") == p for x in sc.zone(("hand", p)))
        assert len(sc.zone(("hand", p))) == (3 if p == 4 else 4)   # P4, the challenger, lost one


def test_SK14_the_challenger_starts_the_next_round():
    for outcome_flip in ("P3", "P2"):                             # a success, then a failure
        sc = new(players=3, seed=12, starter=3)
        place_first(sc, {1: "rose", 2: "skull", 3: "rose"})
        sc.play("place rose", "bid 2", "pass")                    # P3 places, P1 bids, P2 passes
        sc.play("pass")                                           # P3: P1 is the challenger
        sc.play(f"flip {outcome_flip}")
        assert sc.var("starter") == 1
        place_first(sc, {1: "rose", 2: "rose", 3: "rose"})
        assert sc.s.current_player() == 1


def test_SK15_a_player_without_coasters_is_out_the_skull_s_owner_starts():
    sc = new(players=4, seed=13)
    keep(sc, 1, ["rose"])
    place_first(sc, {1: "rose", 2: "skull", 3: "rose", 4: "rose"})
    sc.play("bid 2", "pass", "pass", "pass", "flip P2")
    assert in_game(sc) == [2, 3, 4] and sc.var("starter") == 2
    assert any("P1 is out of the game" in line for line in sc.s.log)
    assert sc.s.current_player() == 2                             # P1 is not asked to place
    place_first(sc, {2: "rose", 3: "rose", 4: "rose"})
    assert sc.s.current_player() == 2
    sc.play("bid 1", "pass", "pass")
    assert sc.var(("passed", 1)) is False and not sc.s.is_terminal()


def test_SK15_put_out_by_their_own_skull_a_player_chooses_who_starts():
    sc = new(players=4, seed=14)
    keep(sc, 1, ["skull"])
    place_first(sc, {1: "skull", 2: "rose", 3: "rose", 4: "rose"})
    sc.play("bid 1", "pass", "pass", "pass")
    assert sc.prompt() == "who starts the next round?" and sc.s.current_player() == 1
    assert sc.moves() == ["P2", "P3", "P4"]
    sc.play("P4")
    assert in_game(sc) == [2, 3, 4] and sc.var("starter") == 4
    place_first(sc, {2: "rose", 3: "rose", 4: "rose"})
    assert sc.s.current_player() == 4


def test_SK16_the_last_player_left_wins():
    sc = new(players=3, seed=15, starter=2)
    keep(sc, 2, ["rose"])
    keep(sc, 3, ["rose"])
    place_first(sc, {1: "skull", 2: "rose", 3: "rose"})
    sc.play("bid 3")                                              # P2: every coaster, no raise
    sc.play("flip P1")                                            # P1's skull: P2 is out
    assert in_game(sc) == [1, 3] and sc.var("starter") == 1 and not sc.s.is_terminal()
    place_first(sc, {1: "rose", 3: "rose"})
    sc.play("place skull")                                        # P1 adds its skull on top
    sc.play("bid 3")                                              # P3 must bid: its hand is empty
    sc.play("flip P1")                                            # the skull: P3 is out
    assert sc.s.is_terminal() and sc.s.winners == [1] and in_game(sc) == [1]


@given(players=st.integers(3, 6), seed=st.integers(0, 10_000))
@settings(max_examples=25, deadline=None)
def test_SK16_any_game_ends_with_one_winner_by_two_successes_or_as_the_last_left(players, seed):
    sc = Scenario.new(RULES, players=players, seed=seed)
    state = play_out(sc.s, random.Random(seed))
    assert state.outcome() == "win" and len(state.winners) == 1
    winner = state.winners[0]
    assert sc.call("in_game", p=winner)
    assert sc.var(("turned", winner)) is True or in_game(sc) == [winner]
    for p in seats(sc):
        assert sc.call("coasters", p=p) + len(sc.zone(("lost", p))) == 4
        assert [sc.label(x) for x in sc.find("Coaster", owner=p)].count("skull") == 1


@pytest.mark.parametrize("players", [3, 6])
def test_SK01_verify_is_clean(players):
    game = load_game(str(RULES), (), players)[0]
    assert verify(game, games=6, shrink_failures=False).failures == []
