"""`respond every p in ORDER { play A }`: every player of ORDER that passes the filter is asked,
even one with no legal response (who may only skip), so that who is asked shows nothing of
what a player holds; the ordinary `respond` passes such a player over, and the leak finder
sees what that tells. docs/language.md, "Response windows"; tests/interactive/ambush.rules
(the docs' example)."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.play.simulate import simulate_game
from referee.interpreter.tools.leaks import find_leak
from referee.interpreter.tools.verify import verify

from .scenario import Scenario

AMBUSH = Path(__file__).resolve().parent / "interactive" / "ambush.rules"
ASKING_EVERYONE = "respond every p in [t]"


def ambush(write_rules, players=3, every=True):
    text = AMBUSH.read_text(encoding="utf-8")
    assert ASKING_EVERYONE in text
    if not every:
        text = text.replace(ASKING_EVERYONE, "respond p in [t]")
    game, diagnostics, _ = load_game(str(write_rules(text)), (), players)
    assert not diagnostics, diagnostics
    return game


def guards(state, seat) -> list:
    return [x for x in state.zones[("hand", seat)] if state.entities[x]["kind"] == "guard"]


def first_seed(game, wanted):
    """A new state of the first seed whose deal passes `wanted(state)`."""
    for seed in range(200):
        state = game.new_initial_state(seed)
        if wanted(state):
            return state
    raise AssertionError("no seed deals that")


def test_a_player_without_a_response_is_asked_and_may_only_skip(write_rules):
    game = ambush(write_rules)
    state = first_seed(game, lambda s: not guards(s, 2))
    state.apply("strike P2")
    assert state.current_player() == 2 and state.legal_move_names() == ["skip"]
    assert state.view(3)["choice"] == {"chooser": 2, "prompt": "respond with guard_up, or skip"}
    state.apply("skip")
    assert Scenario(state).var(("hits", 2)) == 1
    assert state.current_player() == 2          # the window closed, the turn passed on


def test_a_player_with_a_response_is_asked_the_same_way_and_may_play_it(write_rules):
    game = ambush(write_rules)
    state = first_seed(game, lambda s: guards(s, 2))
    state.apply("strike P2")
    assert state.current_player() == 2 and state.legal_move_names()[-1] == "skip"
    assert state.view(3)["choice"] == {"chooser": 2, "prompt": "respond with guard_up, or skip"}
    state.apply(state.legal_move_names()[0])
    assert Scenario(state).var(("hits", 2)) == 0 and state.current_player() == 2


def test_the_ordinary_window_passes_over_a_player_without_a_response(write_rules):
    game = ambush(write_rules, every=False)
    state = first_seed(game, lambda s: not guards(s, 2))
    state.apply("strike P2")
    assert state.pending is None and Scenario(state).var(("hits", 2)) == 1


def test_the_others_see_the_same_whether_the_asked_player_holds_a_response(write_rules):
    """The others' view while the victim is asked, with and without a guard in hand: one view
    with `respond every`, two with the ordinary window."""
    for every, alike in ((True, True), (False, False)):
        game = ambush(write_rules, every=every)
        views = []
        for holds in (True, False):
            state = first_seed(game, lambda s, h=holds: bool(guards(s, 2)) == h)
            state.apply("strike P2")
            view = state.view(3)
            views.append((view.get("choice"), view["current"], view["scores"]))
        assert (views[0] == views[1]) == alike


def test_the_leak_finder_flags_the_ordinary_window_and_not_respond_every(write_rules):
    """P2 holds one guard, the deck none: in a twin, that guard and a blank of the deck (P1 sees
    neither) are exchanged, and P1 strikes P2. The ordinary window asks P2 in one and not in
    the other; `respond every` asks P2 in both."""
    for every in (False, True):
        game = ambush(write_rules, every=every)
        state = first_seed(game, lambda s: len(guards(s, 2)) == 1 and not any(
            s.entities[x]["kind"] == "guard" for x in s.zones["deck"]))
        found = [find_leak(state, 1, rng, "strike P2", flows=True) for rng in range(5)]
        if every:
            assert found == [None] * 5
        else:
            assert all(message is not None and "choice" in message and "guard (in hand[2])" in message
                       for message in found)


def test_verify_finds_the_ordinary_windows_leak_in_random_games(write_rules):
    leaky = verify(ambush(write_rules, every=False), games=50, leaks="flows")
    assert [f.kind for f in leaky.failures] == ["leak"] and "choice" in leaky.failures[0].message
    clean = verify(ambush(write_rules, every=True), games=50, leaks="flows")
    assert clean.failures == [] and clean.finished == 50


@pytest.mark.parametrize("players", [2, 4])
def test_the_docs_example_plays_clean_at_each_player_count(players):
    game, diagnostics, _ = load_game(str(AMBUSH), (), players)
    assert not diagnostics
    report = verify(game, games=10, leaks="flows")
    assert report.failures == [] and report.finished == 10
    # every strike asks its victim: as many decisions as strikes
    record = simulate_game(game, 1, 10_000)
    assert record["length"] == 2 * 3 * players


def test_openspiel_numbers_the_only_skip_as_the_skip():
    pyspiel = pytest.importorskip("pyspiel")
    from referee.interpreter.adapters.openspiel_game import load_openspiel_game
    game = load_openspiel_game(AMBUSH, players=3)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    offered = []
    for outcome in (0, -1):                 # the deal's first outcomes, then its last ones
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[outcome][0])
        strikes = {state.action_to_string(a): a for a in state.legal_actions()}
        state.apply_action(strikes["strike P2"])
        assert state.current_player() == 1     # (OpenSpiel counts players from 0)
        offered.append({state.action_to_string(a): a for a in state.legal_actions()})
    # P2 is asked with a guard in hand and without one; the skip is the same id either way
    assert sorted(map(len, offered)) == [1, 2]
    assert all(asked["skip"] == game.space.skip_id for asked in offered)


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
def test_pettingzoo_plays_the_example_game():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test
    from referee.interpreter.adapters.pettingzoo_env import load_pettingzoo_env
    api_test(load_pettingzoo_env(AMBUSH, players=3), num_cycles=200)
