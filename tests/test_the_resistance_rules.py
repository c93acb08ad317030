"""One scenario test per numbered rule of The Resistance (docs/games/the-resistance.md,
RS-1..RS-14): the roles are the seed's (read from the role cards), teams proposed and votes and
mission cards played by name, and what each seat is shown checked in its view."""
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

RULES = Path(__file__).resolve().parents[1] / "games" / "the-resistance.rules"
SPIES = {5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
SIZES = {5: [2, 3, 2, 3, 3], 6: [2, 3, 4, 3, 4], 7: [2, 3, 3, 4, 4],
         8: [3, 4, 4, 5, 5], 9: [3, 4, 4, 5, 5], 10: [3, 4, 4, 5, 5]}


def seats(sc) -> list:
    return list(range(1, sc.game.num_players + 1))


def spies(sc) -> list:
    return [p for p in seats(sc) if sc.labels(("role", p)) == ["spy"]]


def loyal(sc) -> list:
    return [p for p in seats(sc) if sc.labels(("role", p)) == ["resistance"]]


def propose(sc, members) -> None:
    for p in members:
        sc.play(f"nominate P{p}")


def vote(sc, approving) -> None:
    """Every seat votes, in seat order (the order of the simultaneous step)."""
    for p in seats(sc):
        assert sc.s.current_player() == p
        sc.play("approve" if p in approving else "reject")


def mission(sc, fails=()) -> None:
    """The team plays its cards in seat order; the seats in `fails` play fail."""
    for p in sorted(p for p in seats(sc) if sc.var(("on_team", p))):
        assert sc.s.current_player() == p
        sc.play("fail" if p in fails else "success")


def run_mission(sc, members, fails=()) -> None:
    propose(sc, members)
    vote(sc, seats(sc))
    mission(sc, fails)


def test_RS01_the_winning_side_wins_as_a_team():
    for players in (5, 8, 10):
        for seed in range(4):
            sc = Scenario.new(RULES, players=players, seed=seed)
            side = {p: sc.labels(("role", p))[0] for p in seats(sc)}
            state = play_out(sc.s, random.Random(seed))
            assert state.outcome() == "team"
            winners = set(state.winners)
            assert winners in ({p for p in side if side[p] == "spy"}, {p for p in side if side[p] == "resistance"})
            assert list(state.returns()) == [1.0 if p in winners else 0.0 for p in seats(sc)]


def test_RS02_spies_by_player_count_one_role_card_each_shuffled():
    for players, count in SPIES.items():
        sc = Scenario.new(RULES, players=players)
        assert all(len(sc.zone(("role", p))) == 1 for p in seats(sc))
        assert len(spies(sc)) == count and len(loyal(sc)) == players - count
        assert sc.zone("roles") == []
    assert len({tuple(spies(Scenario.new(RULES, players=5, seed=s))) for s in range(10)}) > 1


def test_RS03_spies_see_each_other_the_resistance_sees_only_itself():
    for players in (5, 7, 10):
        sc = Scenario.new(RULES, players=players, seed=players)
        for seat in seats(sc):
            for p in seats(sc):
                shown = sc.seen(seat, f"role[P{p}]")
                if p == seat:
                    assert shown == sc.labels(("role", p))
                elif seat in spies(sc) and p in spies(sc):
                    assert shown == ["spy"]
                else:
                    assert shown is None            # a Resistance player learns no role


def test_RS03_no_move_or_view_tells_a_resistance_seat_a_role():
    assert leaks_along_random_games(load_game(str(RULES), (), 6)[0], range(3), moves=40, every=5) == []


def test_RS03_a_role_told_to_everybody_would_be_found(tmp_path):
    leaky = planted(RULES, tmp_path, "on_team[p] = true", "on_team[p] = true\n  log \"{p} is {side(p)}\"")
    game, diagnostics, _ = load_game(str(leaky), (), 5)
    assert diagnostics == []
    assert any(f.kind == "leak" for f in verify(game, games=3, shrink_failures=False, leaks="flows").failures)
    honest = load_game(str(RULES), (), 5)[0]                # the game itself: nothing flows
    assert verify(honest, games=5, shrink_failures=False, leaks="flows").failures == []


def test_RS04_the_first_leader_is_drawn_at_random():
    leaders = set()
    for seed in range(12):
        sc = Scenario.new(RULES, players=5, seed=seed)
        assert sc.s.current_player() == sc.var("leader")
        assert sc.moves()[0].startswith("nominate")
        leaders.add(sc.var("leader"))
    assert len(leaders) > 2


def test_RS05_the_leadership_passes_clockwise_after_each_proposal():
    sc = Scenario.new(RULES, players=5, seed=1)
    first = sc.var("leader")
    following = first % 5 + 1
    propose(sc, [1, 2])
    vote(sc, [])                                    # rejected
    assert sc.var("leader") == following and sc.s.current_player() == following
    propose(sc, [1, 2])
    vote(sc, [1, 2, 3])                             # approved
    mission(sc)
    assert sc.var("leader") == following % 5 + 1 and sc.s.current_player() == following % 5 + 1


def test_RS06_the_leader_names_any_players_self_included_each_once():
    sc = Scenario.new(RULES, players=6, seed=2)
    leader = sc.var("leader")
    assert sc.moves() == [f"nominate P{p}" for p in range(1, 7)]
    sc.play(f"nominate P{leader}")
    assert f"nominate P{leader}" not in sc.moves() and len(sc.moves()) == 5
    sc.refuse(f"nominate P{leader}")
    assert sc.s.current_player() == leader          # the same leader names the next member


@pytest.mark.parametrize("players", sorted(SIZES))
def test_RS07_team_sizes_of_the_five_missions(players):
    sc = Scenario.new(RULES, players=players, seed=3)
    sizes = []
    for m in range(1, 6):
        sc.set_var("mission", m)
        sizes.append(sc.call("team_size"))
    assert sizes == SIZES[players]
    sc.set_var("mission", 1)
    propose(sc, range(1, SIZES[players][0] + 1))
    assert sc.moves() == ["approve", "reject"]      # the team is complete: the vote starts


def test_RS08_a_majority_approves_a_tie_rejects_the_votes_are_public():
    sc = Scenario.new(RULES, players=6, seed=4)
    propose(sc, [1, 2])
    sc.play("approve")
    assert sc.s.view(3)["moves"][-1] == "P1 has chosen"     # sealed until everybody has voted
    for p in range(2, 7):
        sc.play("approve" if p <= 3 else "reject")
    assert sc.var("rejections") == 1                        # 3 against 3: rejected
    assert [sc.var(("approved", p)) for p in range(1, 7)] == [None] * 6   # cleared for the new team
    assert [text for _, text in sc.s.public_history[-6:]] == ["approve"] * 3 + ["reject"] * 3
    propose(sc, [1, 2])
    vote(sc, [1, 2, 3, 4])                                  # 4 against 2: approved
    assert sc.var("rejections") == 1 and sc.moves() and sc.s.current_player() == 1
    assert sc.moves() in (["success"], ["success", "fail"])


def test_RS09_a_resistance_member_must_succeed_a_spy_may_fail():
    sc = Scenario.new(RULES, players=5, seed=5)
    spy, member = spies(sc)[0], loyal(sc)[0]
    propose(sc, [spy, member])
    vote(sc, range(1, 6))
    for p in sorted([spy, member]):
        if p == spy:
            assert sc.moves() == ["success", "fail"]
            sc.play("fail")
        else:
            assert sc.moves() == ["success"]
            assert "spy" in sc.refuse("fail")
            sc.play("success")
    assert sc.var(("fails_in", 1)) == 1


@pytest.mark.parametrize("players, needed", [(5, 1), (6, 1), (7, 2), (10, 2)])
def test_RS10_the_fourth_mission_needs_two_fails_at_seven_or_more(players, needed):
    for fails in (1, 2):
        sc = Scenario.new(RULES, players=players, seed=6)
        sc.set_vars({"mission": 4, "successes": 1, "failures": 2})
        bad = spies(sc)[:2]
        team = bad + loyal(sc)[:SIZES[players][3] - 2]
        run_mission(sc, team, fails=bad[:fails])
        failed = fails >= needed
        assert sc.var(("fails_in", 4)) == fails
        assert (sc.var("failures"), sc.var("successes")) == ((3, 1) if failed else (2, 2))
        assert sc.s.is_terminal() == failed
    for m in (1, 2, 3, 5):                                  # one fail is enough elsewhere
        sc = Scenario.new(RULES, players=7, seed=6)
        sc.set_var("mission", m)
        assert sc.call("fails_needed") == 1


def test_RS11_five_rejected_teams_in_a_row_the_spies_win():
    sc = Scenario.new(RULES, players=5, seed=7)
    for _ in range(4):
        propose(sc, [1, 2])
        vote(sc, [])
    assert sc.var("rejections") == 4 and not sc.s.is_terminal()
    propose(sc, [1, 2])
    vote(sc, [1, 2, 3])                                     # the fifth is approved: play on
    mission(sc)
    assert sc.var("rejections") == 0 and sc.var("mission") == 2
    for _ in range(4):
        propose(sc, range(1, 4))
        vote(sc, [])
    assert not sc.s.is_terminal()                           # the count starts again each mission
    propose(sc, range(1, 4))
    vote(sc, [1])
    assert sc.s.is_terminal() and sorted(sc.s.winners) == sorted(spies(sc))
    assert sc.s.outcome() == "team"


def test_RS12_nobody_learns_who_played_a_fail():
    sc = Scenario.new(RULES, players=5, seed=8)
    spy, member = spies(sc)[0], loyal(sc)[0]
    run_mission(sc, [spy, member], fails=[spy])
    played = sc.s.public_history[-2:]
    assert sorted(seat for seat, _ in played) == sorted([spy, member])
    assert [text for _, text in played] == ["plays a mission card"] * 2
    for seat in range(1, 6):
        moves = sc.s.view(seat)["moves"][-2:]
        assert any(m.endswith(": fail") for m in moves) == (seat == spy)           # only the spy saw its own card
        assert sc.s.view(seat)["vars"]["fails_in[1]"] == "1"
    assert any("mission 1 fails (1 fail cards)" in line for line in sc.s.log)


def test_RS13_three_successes_for_the_resistance_three_fails_for_the_spies():
    sc = Scenario.new(RULES, players=5, seed=9)
    honest = loyal(sc)
    for m in range(3):
        run_mission(sc, honest[:SIZES[5][m]])
        assert sc.s.is_terminal() == (m == 2)
    assert sorted(sc.s.winners) == sorted(honest) and sc.var("successes") == 3
    sc = Scenario.new(RULES, players=5, seed=9)
    bad = spies(sc)
    for m in range(3):
        run_mission(sc, (bad + honest)[:SIZES[5][m]], fails=bad[:1])
    assert sc.s.is_terminal() and sorted(sc.s.winners) == sorted(bad) and sc.var("failures") == 3


def test_RS14_every_role_is_shown_at_the_end():
    sc = Scenario.new(RULES, players=6, seed=10)
    for _ in range(5):
        propose(sc, [1, 2])
        vote(sc, [])
    assert sc.s.is_terminal()
    for seat in range(1, 7):
        assert [sc.seen(seat, f"role[P{p}]") for p in range(1, 7)] == [sc.labels(("role", p)) for p in range(1, 7)]


@given(players=st.integers(5, 10), seed=st.integers(0, 10_000))
@settings(max_examples=25, deadline=None)
def test_RS13_any_game_ends_with_one_side_winning_and_fails_only_from_spies(players, seed):
    sc = Scenario.new(RULES, players=players, seed=seed)
    bad = spies(sc)
    state = play_out(sc.s, random.Random(seed))
    played = [sc.var(("fails_in", m)) for m in range(1, 6) if sc.var(("fails_in", m)) is not None]
    assert all(0 <= fails <= len(bad) for fails in played)
    assert state.outcome() == "team"
    if sc.var("successes") == 3:
        assert sorted(state.winners) == loyal(sc)
    else:
        assert sorted(state.winners) == bad and (sc.var("failures") == 3 or sc.var("rejections") == 5)

