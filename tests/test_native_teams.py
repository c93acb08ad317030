"""Teams and the outcomes they give in native kernels (issue 24; docs/language.md "Teams, games
lost by all, and the house"): the header's `teams`, `finish winners team X`, `finish lost` and
the team outcome of several winners (however they won) give the records Python gives, the
outcome and the winning team included. tests/native/teams.rules (every way a team game ends)
and The Resistance (5 players) are compiled once per run at most (Numba's cache keeps them)."""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.play.bots import playout
from referee.interpreter.play.simulate import simulate_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from .native_support import compiled, game_of, kernel_of, natively, same_games  # noqa: E402
from .test_native_rollouts import walked  # noqa: E402
from referee.interpreter.native.rollouts import rollouts_of  # noqa: E402
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402
from referee.interpreter.native.teams_source import ALL_LOST, TEAM_SHIFT, outcome_of  # noqa: E402

TEAMS = "tests/native/teams.rules"


def loaded(path, players):
    game, diagnostics, _ = load_game(path, players=players)
    assert game is not None, diagnostics
    return game


@pytest.fixture(scope="module")
def teams():
    return kernel_of(TEAMS, 4)


@pytest.fixture(scope="module")
def resistance():
    return kernel_of("games/the-resistance.rules", 5)


def test_every_end_of_a_team_game_gives_the_python_record(teams):
    seeds = range(1, 121)
    python, handed = same_games(teams, seeds)
    # (a team without members is the engine's error: those games, and only those, play in Python)
    assert handed == [seed for seed, record in zip(seeds, python) if record["error"] is not None] != []
    ends = {(r["outcome"], r["team"]) for r in python}
    assert {("team", "north_team"), ("team", "south_team"), ("lost", None), ("shared", None)} <= ends
    assert {-1.0} == {v for r in python if r["outcome"] == "lost" for v in r["returns"]}


def test_the_resistance_plays_the_python_games(resistance):
    python = natively(resistance, range(1, 41))
    assert {r["team"] for r in python} == {"resistance", "spy"}


def test_a_playout_to_a_lost_game_returns_minus_one_each():
    rollouts = compiled(rollouts_of(loaded(TEAMS, 3)))
    lost = 0
    for seed in range(40):
        s = walked(rollouts.game, seed, 4)
        if s.is_terminal():
            continue
        expected = playout(s.clone(), random.Random(seed), 10_000)
        assert rollouts.returns(s, random.Random(seed), 10_000) == expected
        lost += expected == [-1.0] * 3
    assert lost > 0


@settings(max_examples=50, deadline=None)
@given(st.sets(st.integers(1, 4)), st.one_of(st.none(), st.integers(0, 1)), st.booleans())
def test_the_winners_slot_decodes_to_the_record_outcome(winners, team, lost):
    game = game_of(TEAMS, 4)            # (loaded once, not per example)
    mask = ALL_LOST if lost else sum(1 << p for p in winners) | (0 if team is None else (team + 1) << TEAM_SHIFT)
    ended = outcome_of(game, mask)
    if lost:
        assert ended == {"winners": [], "outcome": "lost", "team": None}
    elif team is not None:
        assert ended == {"winners": sorted(winners), "outcome": "team",
                         "team": ["north_team", "south_team"][team]}
    else:
        assert ended["winners"] == sorted(winners)
        assert ended["outcome"] == {0: "draw", 1: "win"}.get(len(winners), "shared")


def test_teams_of_a_type_without_native_coding_are_refused_with_their_line(tmp_path):
    rules = tmp_path / "named.rules"
    rules.write_text('game "Named" {\n  players 2\n  teams p: p == 1 ? "red" : "blue"\n}\n\n'
                     'action go "go" {\n}\n\nflow {\n  turns from 1 {\n    play go\n    finish winners [1]\n  }\n}\n')
    game = loaded(str(rules), 2)
    assert simulate_game(game, 1, 100)["finished"]
    with pytest.raises(NotNative) as refused:
        render(game)
    assert refused.value.note() == f"{rules}:3: teams of type text"
