"""The OpenSpiel adapter (interpreter/openspiel_game.py): any rules file as a pyspiel game,
checked by OpenSpiel's own random simulation test, against OpenSpiel's native games in lockstep
(tests/openspiel_conformance.py), and by OpenSpiel's CFR+ and MCTS running on rules files."""
import importlib
import json
import sys
from pathlib import Path

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import cfr, exploitability, mcts
from open_spiel.python.observation import make_observation

from referee.interpreter.tools import leaks
from referee.interpreter.adapters.action_space import ActionSpaceError
from referee.interpreter.engine import PUBLIC, load_game
from referee.interpreter.adapters.openspiel_game import (OpenSpielLoadError, load_openspiel_game, replayed_positions,
                                                seen_moves)
from tests import openspiel_conformance
from tests.sweeps import amount, sampled

GAMES = Path(__file__).resolve().parent.parent / "games"
ALL_RULES = sorted(GAMES.glob("**/*.rules"))         # the variants too
# OpenSpiel's random simulation in the suite: a game of each kind the adapter meets (sampled and
# explicit chance, simultaneous steps, moves over lists, hidden hands, boards and hexes, variants
# that extend a game); Hearts with OpenSpiel's options below. The long games (whole Hearts to
# 100 points, Dominion, Ticket to Ride, Backgammon, Solstis, Continents and its four-card
# variant, Titicaca under its wide variant) only in the sweep: python -m tests.sweeps
RANDOM_SIMULATED = {"tic-tac-toe", "connect-four", "kuhn-poker", "leduc-poker", "liars-dice", "goofspiel",
                    "the-resistance", "checkers", "othello", "skull", "love-letter", "titicaca-wide",
                    "continents-six-places"}


def kuhn():
    return load_openspiel_game(GAMES / "kuhn-poker.rules", zero_sum=True, utility_range=(-2, 2))


def play_to_player_node(state, outcome_index=0):
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[outcome_index][0])
    return state


# ---- the game's type and the action space ----

def test_game_types_follow_the_rules():
    ttt = load_openspiel_game(GAMES / "tic-tac-toe.rules").get_type()
    assert ttt.short_name == "referee_tic_tac_toe"
    assert ttt.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert ttt.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert ttt.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert ttt.utility == pyspiel.GameType.Utility.GENERAL_SUM
    poker = kuhn().get_type()
    assert poker.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert poker.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert poker.utility == pyspiel.GameType.Utility.ZERO_SUM
    goofspiel = load_openspiel_game(GAMES / "goofspiel.rules").get_type()
    assert goofspiel.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert (goofspiel.min_num_players, goofspiel.max_num_players) == (2, 4)


def test_players_and_options_are_loaded_as_asked():
    three = load_openspiel_game(GAMES / "goofspiel.rules", players=3)
    assert three.num_players() == 3
    again = pyspiel.load_game("referee_goofspiel", {"players": 4})       # through pyspiel's registry
    assert again.num_players() == 4 and again.get_type().short_name == "referee_goofspiel"
    ascending = load_openspiel_game(GAMES / "goofspiel.rules", options=["ascending"])
    assert ascending.get_type().short_name == "referee_goofspiel_2"      # other options, another name
    state = ascending.new_initial_state()
    assert state.is_simultaneous_node()                                   # no shuffle: prize 1 first
    assert json.loads(state.observation_string(0))["zones"]["prize"]["items"] == [{"label": "1"}]


def test_tic_tac_toe_numbers_its_cells_and_names_them_as_the_engine_does():
    game = load_openspiel_game(GAMES / "tic-tac-toe.rules")
    assert game.num_distinct_actions() == 9
    assert game.max_utility() == 1.0 and game.min_utility() == 0.0
    state = game.new_initial_state()
    assert state.legal_actions() == list(range(9))
    assert [state.action_to_string(a) for a in state.legal_actions()] == \
        load_game(GAMES / "tic-tac-toe.rules")[0].new_initial_state().legal_move_names()
    state.apply_action(4)                        # b2, the centre
    assert 4 not in state.legal_actions() and state.current_player() == 1
    for action in (0, 3, 1, 5):                  # P2 a1, P1 a2, P2 b1, P1 c2: the middle row
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [1.0, 0.0]


def test_ids_are_the_same_in_every_state_and_every_load():
    first, second = (load_openspiel_game(GAMES / "connect-four.rules") for _ in range(2))
    a, b = first.new_initial_state(), second.new_initial_state()
    for action in (3, 3, 3, 2):
        assert a.action_to_string(action) == b.action_to_string(action) == str(action + 1)
        a.apply_action(action)
        b.apply_action(action)
    assert a.legal_actions() == b.legal_actions() == list(range(7))


def test_chance_outcomes_are_the_deal_with_their_probabilities():
    game = kuhn()
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes] == ["jack", "queen", "king"]
    assert [p for _, p in outcomes] == pytest.approx([1 / 3] * 3)
    state.apply_action(outcomes[2][0])             # P1 gets the king
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in state.chance_outcomes()] == \
        ["jack", "queen"]
    assert [p for _, p in state.chance_outcomes()] == pytest.approx([0.5, 0.5])
    assert game.max_chance_outcomes() >= 3


def test_a_seat_sees_its_own_card_only():
    state = play_to_player_node(kuhn().new_initial_state())        # P1 jack, P2 queen
    mine, theirs = state.information_state_string(0), state.information_state_string(1)
    assert "jack" in mine and "queen" not in mine
    assert "queen" in theirs and "jack" not in theirs
    state.apply_action(1)                                          # P1 bets
    assert "P1: bet" in state.information_state_string(1)
    assert state.observation_string(0) != state.observation_string(1)


def test_a_die_rolled_in_secret_is_in_no_other_information_state():
    # (the engine's public history shows a pick's outcome to every seat; the die is kept in an
    # owner-only variable, so the information states leave the moves of chance out)
    game = load_openspiel_game(GAMES / "liars-dice.rules")
    seen_by = {0: set(), 1: set()}
    for mine in range(6):
        state = game.new_initial_state()
        state.apply_action(state.chance_outcomes()[mine][0])      # P1's die
        state.apply_action(state.chance_outcomes()[2][0])         # P2's die: 3
        for player in (0, 1):
            seen_by[player].add(state.information_state_string(player))
            assert ("chance: " in state.information_state_string(player)) is False
    assert len(seen_by[0]) == 6 and len(seen_by[1]) == 1


def test_information_states_tell_apart_histories_observations_do_not():
    game = load_openspiel_game(GAMES / "connect-four.rules")
    one, other = game.new_initial_state(), game.new_initial_state()
    for action in (0, 1, 2, 3):
        one.apply_action(action)
    for action in (2, 3, 0, 1):
        other.apply_action(action)
    assert one.observation_string(0) == other.observation_string(0)      # the same board
    assert one.information_state_string(0) != other.information_state_string(0)


def test_observation_tensor_encodes_the_view():
    game = load_openspiel_game(GAMES / "tic-tac-toe.rules")
    state = game.new_initial_state()
    state.apply_action(4)
    tensor = np.array(state.observation_tensor(0))
    # [P1 to move, P2 to move, game over, mark of a1 .. c3 (sorted by name): 0 none, 1 P1, 2 P2]
    assert len(tensor) == game.observation_tensor_size() == 12
    assert list(tensor[:3]) == [0, 1, 0]
    assert sorted(tensor[3:]) == [0] * 8 + [1]
    kuhn_state = play_to_player_node(kuhn().new_initial_state())
    assert kuhn_state.observation_tensor(0) != kuhn_state.observation_tensor(1)   # each sees its card


def random_positions(game, seed, steps):
    """The states of one random playthrough of an adapter's game, `steps` at most."""
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    out = [state.clone()]
    while not state.is_terminal() and len(out) < steps:
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(actions[rng.choice(len(actions), p=probabilities)])
        elif state.is_simultaneous_node():
            state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(state.clone())
    return out


def encoded(game, engine_state, seat):
    tensor = np.zeros(game.encoding.size, np.float32)
    game.encoding.fill(tensor, engine_state.view(seat))
    return tensor


@pytest.mark.parametrize("path", ALL_RULES, ids=lambda p: p.stem)
@pytest.mark.slow
def test_observation_tensor_has_one_shape_and_a_place_for_everything_a_view_shows(path):
    game = load_openspiel_game(path)
    encoding = game.encoding
    for state in random_positions(game, seed=3, steps=40):
        for player in range(game.num_players()):
            assert len(state.observation_tensor(player)) == game.observation_tensor_size() == encoding.size
        for seat in range(PUBLIC, game.num_players() + 1):
            view = state.engine.state.view(seat)
            assert set(view["vars"]) <= set(encoding.var_at), "a variable with no place in the tensor"
            assert set(view["zones"]) <= set(encoding.zone_at), "a zone with no place in the tensor"
            for zone in view["zones"].values():
                for item in [*zone.get("items", ()), *zone.get("shown", ())]:
                    assert item["label"] in encoding.component_at, f"{item['label']} has no place in the tensor"


@pytest.mark.slow
def test_observation_tensor_places_zones_indexed_by_components_and_ranges_and_masked_cards():
    continents = load_openspiel_game(GAMES / "continents.rules").encoding
    assert "place[Africa, 1]" in continents.zone_at                   # place[Continent, 1..places]
    solstis = load_openspiel_game(GAMES / "solstis.rules").encoding
    assert {"display[1]", "display[8]"} <= set(solstis.zone_at)      # display[1..max_columns]
    titicaca = load_openspiel_game(GAMES / "titicaca.rules")
    assert "T?" in titicaca.encoding.component_at                    # a temple whose value is hidden
    # what a component may become: no king is set up, a man is crowned (x.rank = king)
    checkers = load_openspiel_game(GAMES / "checkers.rules").encoding
    assert list(checkers.component_at) == ["P1 man", "P2 man", "P1 king", "P2 king"]
    # a list of seats: each seat's place in it
    state = titicaca.new_initial_state().engine.state
    at, items = titicaca.encoding.var_at["order"]
    assert items == ["P1", "P2"]
    for order in ([1, 2], [2, 1]):
        state.vars["order"] = order
        assert list(encoded(titicaca, state, 1)[at:at + 2]) == [order.index(1) + 1, order.index(2) + 1]


# (game, whether another seat sees what the twins change: Goofspiel's twins change the hidden
# prize deck or a sealed bid, which nobody's view shows)
HIDDEN_INFORMATION = [("hearts", True), ("kuhn-poker", True), ("leduc-poker", True), ("liars-dice", True),
                      ("goofspiel", False), ("love-letter", True), ("titicaca", True),
                      ("the-resistance", True), ("dominion", True),
                      ("skull", True)]


@pytest.mark.parametrize("stem, seen_by_another", HIDDEN_INFORMATION)
@pytest.mark.slow
def test_observation_tensor_is_the_same_on_twins_that_differ_only_in_what_the_seat_may_not_see(stem, seen_by_another):
    """Twin states as the leak finder makes them (interpreter/leaks.py: components the seat
    cannot tell apart exchanged, another seat's sealed move replaced, a variable entry it may
    not see changed: Liar's dice's dice): the seat's tensor must not change. Where another
    seat sees what the twins change, its tensor does (the twins do differ)."""
    game = load_openspiel_game(GAMES / f"{stem}.rules")
    compared = differs = 0
    for k, position in enumerate(random_positions(game, seed=5, steps=60)):
        state = position.engine.state
        for seat in game.engine_game.seats:
            rng = 1000 * k + seat
            twins = (leaks.exchange_twins(state, seat, rng, 2) + leaks.sealed_twins(state, seat, rng, 2)
                     + leaks.variable_twins(state, seat, rng, 2))
            for twin, what, _ in twins:
                assert np.array_equal(encoded(game, twin, seat), encoded(game, state, seat)), \
                    f"P{seat}'s tensor tells the twins apart: {what}"
                compared += 1
                differs += any(not np.array_equal(encoded(game, twin, other), encoded(game, state, other))
                               for other in game.engine_game.seats if other != seat)
    assert compared > 0
    assert (differs > 0) == seen_by_another


# ---- the information-state tensor ----

def test_information_state_tensor_is_the_observation_then_the_moves_the_seat_saw():
    game = load_openspiel_game(GAMES / "kuhn-poker.rules", max_game_length=3)
    parts = game.history_encoding
    # 28 of observation; 3 rows of [P1, P2, seen, pass, bet, chance before]; chance after
    assert game.information_state_tensor_shape() == [28 + 3 * 6 + 1]
    assert (parts.rows, parts.row_width, parts.one_hot) == (3, 6, True)
    state = play_to_player_node(game.new_initial_state())          # two deals
    state.apply_action(1)                                          # P1 bets
    state.apply_action(0)                                          # P2 passes
    for player in (0, 1):
        tensor = np.array(state.information_state_tensor(player))
        assert list(tensor[:28]) == list(state.observation_tensor(player))
        rows = tensor[28:-1].reshape(3, 6)
        assert rows.tolist() == [[1, 0, 1, 0, 1, 2], [0, 1, 1, 1, 0, 0], [0] * 6]
        assert tensor[-1] == 0
    # a large action space gives each move's id in binary: Hearts' 140,662 ids in 18 numbers
    hearts = load_openspiel_game(GAMES / "hearts.rules", max_game_length=100).history_encoding
    assert (hearts.one_hot, hearts.action_width) == (False, 18)
    # a simultaneous decision is a move per seat: Goofspiel's 13 turns are 26 rows of 2 seats
    goofspiel = load_openspiel_game(GAMES / "goofspiel.rules", max_game_length=13).history_encoding
    assert goofspiel.rows == 26


def test_clones_that_share_a_past_and_go_on_apart_have_their_own_information_state_tensors():
    game = load_openspiel_game(GAMES / "kuhn-poker.rules", max_game_length=3)
    state = play_to_player_node(game.new_initial_state())
    state.information_state_tensor(0)                  # from here states keep their positions
    passed, bet = state.child(0), state.child(1)
    row = lambda s: s.information_state_tensor(1)[28:28 + 6]  # noqa: E731 (P1's move, as P2 saw it)
    assert row(passed) == [1, 0, 1, 1, 0, 2] and row(bet) == [1, 0, 1, 0, 1, 2]


def test_a_move_in_binary_is_its_id_bit_by_bit():
    game = load_openspiel_game(GAMES / "hearts.rules", max_game_length=100)
    state = random_positions(game, seed=2, steps=120)[-1]      # the deal, the passes, some tricks
    encoding = game.history_encoding
    rows = np.array(state.information_state_tensor(0))[encoding.history_start:-1].reshape(encoding.rows, -1)
    engine = state.engine.state
    played = [(name, player) for name, (player, _) in zip(engine.history, engine.public_history) if player > 0]
    positions = state.engine.positions()
    seen = [m for m in seen_moves(engine, 1, positions, game.space) if m[0] > 0]
    assert len(seen) == len(played) > 0
    for row, (player, ids) in zip(rows, seen):         # a Hearts move is one id
        assert list(row[:4]).index(1) == player - 1
        if ids is None:
            assert row[4] == 0 and not row[5:5 + 18].any()
        else:
            assert row[4] == 1 and (sum(int(b) << k for k, b in enumerate(row[5:5 + 18])),) == ids


def test_information_state_tensor_hides_the_moves_a_seat_may_not_see():
    # Hearts' passes: each seat knows its own three cards, and of the others only that they passed
    game = load_openspiel_game(GAMES / "hearts.rules", max_game_length=100)
    state = play_to_player_node(game.new_initial_state())
    state.apply_actions([state.legal_actions(p)[k] for p, k in enumerate((0, 5, 9, 40))])
    engine = state.engine.state
    for seat in game.engine_game.seats:
        passes = [m for m in seen_moves(engine, seat, state.engine.positions(), game.space) if m[0] > 0]
        assert [player for player, _ in passes] == [1, 2, 3, 4]
        assert [ids is not None for _, ids in passes] == [p == seat for p in (1, 2, 3, 4)]
    # the other seats' passes replaced by others: the seat's moves part is the same (its hand,
    # which holds the cards passed to it, differs), theirs differ
    other = play_to_player_node(game.new_initial_state())
    other.apply_actions([other.legal_actions(p)[k] for p, k in enumerate((0, 6, 10, 41))])
    moves_part = lambda s, p: s.information_state_tensor(p)[game.history_encoding.history_start:]  # noqa: E731
    assert moves_part(other, 0) == moves_part(state, 0)
    assert all(moves_part(other, p) != moves_part(state, p) for p in (1, 2, 3))
    # the spectator's information state (no private information) knows no pass
    spectator = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True,
                                                                   private_info=pyspiel.PrivateInfoType.NONE))
    spectator.set_from(state, 0)
    assert spectator.dict["history"][:4, :4].tolist() == np.eye(4).tolist()
    assert not spectator.dict["history"][:4, 4:-1].any()


def test_information_state_tensor_past_max_game_length_is_an_error_that_names_the_bound():
    game = load_openspiel_game(GAMES / "tic-tac-toe.rules", max_game_length=3)
    state = game.new_initial_state()
    for action in (0, 1, 2):
        state.apply_action(action)
    assert len(state.information_state_tensor(0)) == game.information_state_tensor_size()
    state.apply_action(3)
    with pytest.raises(Exception, match=r"holds 3 player moves \(max_game_length=3\).*larger max_game_length"):
        state.information_state_tensor(0)


def information_encoded(game, engine_state, seat, positions):
    tensor = np.zeros(game.history_encoding.size, np.float32)
    game.history_encoding.fill(tensor, engine_state.view(seat), seen_moves(engine_state, seat, positions, game.space))
    return tensor


@pytest.mark.parametrize("stem, seen_by_another", HIDDEN_INFORMATION)
@pytest.mark.slow
def test_information_state_tensor_is_the_same_on_twins_that_differ_only_in_what_the_seat_may_not_see(
        stem, seen_by_another):
    """The twins of the observation tensor's test: the seat's information-state tensor, its
    moves numbered on the twin's own history (a sealed move replaced is another history), must
    not change; another seat's may."""
    game = load_openspiel_game(GAMES / f"{stem}.rules", max_game_length=200)
    compared = differs = 0
    for k, position in enumerate(random_positions(game, seed=5, steps=60)):
        state = position.engine.state
        positions = replayed_positions(state)
        for seat in game.engine_game.seats:
            rng = 1000 * k + seat
            twins = (leaks.exchange_twins(state, seat, rng, 2) + leaks.sealed_twins(state, seat, rng, 2)
                     + leaks.variable_twins(state, seat, rng, 2))
            for twin, what, _ in twins:
                twin_positions = positions if twin.history == state.history else replayed_positions(twin)
                assert np.array_equal(information_encoded(game, twin, seat, twin_positions),
                                      information_encoded(game, state, seat, positions)), \
                    f"P{seat}'s information-state tensor tells the twins apart: {what}"
                compared += 1
                differs += any(not np.array_equal(information_encoded(game, twin, other, twin_positions),
                                                  information_encoded(game, state, other, positions))
                               for other in game.engine_game.seats if other != seat)
    assert compared > 0
    assert (differs > 0) == seen_by_another


def paired_player_nodes(native, rules, mapping):
    """Every player node of a native game's tree with its rules twin, the two trees walked
    together through the conformance's name mapping."""
    if native.is_terminal():
        return
    if native.is_chance_node():
        ours = {rules.action_to_string(pyspiel.PlayerId.CHANCE, a): a for a, _ in rules.chance_outcomes()}
        pairs = [(a, ours[mapping.chance_name(native.action_to_string(pyspiel.PlayerId.CHANCE, a))])
                 for a, _ in native.chance_outcomes()]
    else:
        yield native, rules
        ours = {rules.action_to_string(a): a for a in rules.legal_actions()}
        pairs = [(a, ours[mapping.action_name(native.action_to_string(a))]) for a in native.legal_actions()]
    for native_action, rules_action in pairs:
        yield from paired_player_nodes(native.child(native_action), rules.child(rules_action), mapping)


def test_kuhn_information_state_tensors_tell_apart_what_openspiels_own_kuhn_poker_does():
    """Over the whole game tree, two states share a seat's tensor exactly when they share the
    seat's information state in OpenSpiel's own kuhn_poker (another layout, the same
    information), and exactly when they share the seat's information-state string."""
    mapping = openspiel_conformance.native_name_mappings()["kuhn_poker"]
    native_game, game = pyspiel.load_game("kuhn_poker"), load_openspiel_game(GAMES / "kuhn-poker.rules",
                                                                             max_game_length=3)
    nodes = list(paired_player_nodes(native_game.new_initial_state(), game.new_initial_state(), mapping))
    assert len(nodes) == 6 * 4                                   # 6 deals, 4 betting histories
    for player in (0, 1):
        ours_by_native, native_by_ours, strings_by_ours = {}, {}, {}
        for native, rules in nodes:
            mine, theirs = tuple(rules.information_state_tensor(player)), tuple(native.information_state_tensor(player))
            assert ours_by_native.setdefault(theirs, mine) == mine
            assert native_by_ours.setdefault(mine, theirs) == theirs
            assert strings_by_ours.setdefault(mine, rules.information_state_string(player)) == \
                rules.information_state_string(player)
        assert len(ours_by_native) == 3 * 4                      # 3 cards, 4 histories as the seat saw them
        assert len(set(strings_by_ours.values())) == len(strings_by_ours)


@pytest.mark.slow
def test_openspiels_reinforcement_learning_environment_learns_on_information_state_tensors():
    """OpenSpiel's rl_environment reads information-state tensors (its `info_state`), and its
    tabular Q-learner keys its table by them: on Kuhn, each seat's table has the 6 information
    states where it chooses (3 cards, 2 histories)."""
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import tabular_qlearner
    np.random.seed(7)       # the learners explore with numpy's global generator: unseeded, a run
                            # could miss an information state now and then
    game = load_openspiel_game(GAMES / "kuhn-poker.rules", max_game_length=3)
    env = rl_environment.Environment(game, seed=7)
    assert env.observation_spec()["info_state"] == (game.information_state_tensor_size(),)
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=game.num_distinct_actions()) for p in (0, 1)]
    for _ in range(300):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            assert len(step.observations["info_state"][player]) == game.information_state_tensor_size()
            step = env.step([agents[player].step(step).action])
        for agent in agents:
            agent.step(step)
    assert [len(agent._q_values) for agent in agents] == [6, 6]


def test_simultaneous_steps_are_simultaneous_nodes():
    game = load_openspiel_game(GAMES / "goofspiel.rules")
    state = play_to_player_node(game.new_initial_state())
    assert state.is_simultaneous_node()
    mine, theirs = state.legal_actions(0), state.legal_actions(1)
    assert len(mine) == len(theirs) == 13 and set(mine).isdisjoint(theirs)   # each bids their own cards
    assert [state.action_to_string(0, a) for a in mine][:2] == ["bid 1", "bid 2"]
    state.apply_actions([mine[12], theirs[0]])          # 13 against 1 (the prizes were shuffled in the setup)
    assert state.is_simultaneous_node()                 # the next turn
    assert len(state.legal_actions(0)) == 12 and mine[12] not in state.legal_actions(0)
    with pytest.raises(Exception, match="not legal"):
        state.apply_actions([mine[12], theirs[1]])      # P1's 13 is spent


SEALED = """game "Sealed" {
  players 3
}
var offer[Player]: int hidden = 0
action bid(n in 1..2) "bid {n}" {
  offer[current] = n
}
flow {
  simultaneous p in players where p > 1 {
    play bid
  }
  finish winners [offer[2] >= offer[3] ? 2 : 3]
}
"""


def test_a_seat_outside_a_simultaneous_step_waits(tmp_path):
    path = tmp_path / "sealed.rules"
    path.write_text(SEALED)
    game = load_openspiel_game(path)
    state = game.new_initial_state()
    wait = game.num_distinct_actions() - 1
    assert [state.legal_actions(p) for p in range(3)] == [[wait], [0, 1], [0, 1]]
    assert state.action_to_string(0, wait) == "wait"
    with pytest.raises(Exception, match="does not take part in this step"):
        state.apply_actions([0, 0, 1])
    state.apply_actions([wait, 0, 1])                 # P2 bids 1, P3 bids 2
    assert state.returns() == [0.0, 0.0, 1.0]
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_clones_and_serialisation_keep_the_game():
    game = kuhn()
    state = play_to_player_node(game.new_initial_state(), 1)
    state.apply_action(1)
    clone = state.clone()
    clone.apply_action(0)
    assert clone.is_terminal() and not state.is_terminal()
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.history() == state.history()
    assert again.information_state_string(1) == state.information_state_string(1)


def test_a_file_that_does_not_load_says_why(tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('game "Bad" {\n  players 2\n}\nflow {\n  turns from 1 {\n    play nothing\n  }\n}\n')
    with pytest.raises(OpenSpielLoadError, match="bad.rules:6"):
        load_openspiel_game(bad)


def test_moves_that_cannot_be_numbered_are_refused_with_the_reason(tmp_path):
    words = tmp_path / "words.rules"
    words.write_text('game "Words" {\n  players 2\n}\n'
                     'action say(w in ["yes please", "no thanks"]) "say {w}" {\n  finish\n}\n'
                     'flow {\n  turns from 1 {\n    play say\n  }\n}\n')
    assert load_game(words)[0] is not None
    with pytest.raises(ActionSpaceError, match="binder w ranges over text"):
        load_openspiel_game(words)
    # a list is numbered item by item: items of a type with no fixed list of values cannot be
    numbers = tmp_path / "numbers.rules"
    numbers.write_text(words.read_text().replace('say(w in ["yes please", "no thanks"])', "say(w in [[1, 2], [3]])"))
    assert load_game(numbers)[0] is not None
    with pytest.raises(ActionSpaceError, match=r"binder w ranges over list\[int\], whose items \(int\) .*no fixed"):
        load_openspiel_game(numbers)


@pytest.mark.slow
def test_an_action_space_too_large_for_openspiel_is_refused(tmp_path):
    huge = tmp_path / "huge.rules"
    huge.write_text('game "Huge" {\n  players 2\n}\n'
                    'action put(a in 1..2000, b in 1..2000 where a == b and a < 3, c in 1..1000 where c < 3) '
                    '"put {a} {b} {c}" {\n  finish\n}\n'
                    'flow {\n  turns from 1 {\n    play put\n  }\n}\n')
    with pytest.raises(ActionSpaceError, match="would need 4,000,000,000 ids"):
        load_openspiel_game(huge)


def test_without_openspiel_importing_the_adapter_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "referee.interpreter.adapters.openspiel_game")
    with pytest.raises(ImportError, match=r"pip install 'referee\[openspiel\]'"):
        importlib.import_module("referee.interpreter.adapters.openspiel_game")


# ---- OpenSpiel's own checks and algorithms ----

@pytest.mark.parametrize("path", sampled(ALL_RULES, lambda p: p.stem in RANDOM_SIMULATED), ids=lambda p: p.stem)
@pytest.mark.slow
def test_openspiel_random_simulation_test_passes(path):
    # the test checks every information-state tensor, whose size grows with max_game_length
    # (Hearts: 960,916 numbers with the default 10,000), and that the game keeps within it
    game = load_openspiel_game(path, max_game_length=1_000)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("native", [n for n, m in openspiel_conformance.native_name_mappings().items()
                                    if m.options or m.rules_params])
@pytest.mark.slow
def test_openspiel_random_simulation_test_passes_with_the_options_that_select_openspiels_rules(native):
    game = openspiel_conformance.load_rules_game(native)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    # a state read back from its serialisation is the same game with the same options
    state = random_positions(game, seed=1, steps=30)[-1]
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)


PAINT = """game "Paint" {
  players 2
}

enum Color { red, blue }

action paint(colors in [[red], [red, blue], [blue, red]]) "paint {colors}" {
  finish winners [current]
}

flow {
  turns from 1 {
    play paint
  }
}
"""


def test_a_move_over_a_list_is_its_first_id_then_an_id_per_item_and_an_end_where_another_goes_on(tmp_path):
    (tmp_path / "paint.rules").write_text(PAINT)
    game = load_openspiel_game(tmp_path / "paint.rules")
    space = game.space
    # paint's first id 0, the items red 1 and blue 2, the end of the list 3
    assert game.num_distinct_actions() == 4 and space.end_ids == {3}
    state = game.new_initial_state()
    assert state.legal_actions() == [0] and state.action_to_string(0) == "paint()"
    state.apply_action(0)
    assert state.current_player() == 0 and not state.is_terminal()
    assert [state.action_to_string(a) for a in state.legal_actions()] == ["red", "blue"]
    after_red = state.child(1)
    # [red] ends here and [red, blue] goes on: the end is an id of its own
    assert [after_red.action_to_string(a) for a in after_red.legal_actions()] == ["paint red, blue", "paint red"]
    assert after_red.child(3).engine.state.history == ["paint red"]
    # after blue only [blue, red] goes on: red completes it, its end played with it
    after_blue = state.child(2)
    assert after_blue.legal_actions() == [1]
    assert after_blue.child(1).engine.state.history == ["paint blue, red"] and after_blue.child(1).is_terminal()
    with pytest.raises(Exception, match="action 3 .* is not legal now"):
        after_blue.apply_action(3)
    # the ids chosen so far: in the mover's information state, and (perfect information) the other's
    assert after_red.information_state_string(0).endswith("P1 choosing: paint(), red")
    assert after_red.information_state_string(1).endswith("P1 choosing: paint(), red")
    assert after_red.observation_string(0).endswith("P1 choosing: paint(), red")
    rows = np.array(after_red.information_state_tensor(0))[game.history_encoding.history_start:-1]
    rows = rows.reshape(game.history_encoding.rows, -1)
    # [P1, P2, seen, ids 0..3 one-hot, chance before]: paint(), then red
    assert rows[:3].tolist() == [[1, 0, 1, 1, 0, 0, 0, 0], [1, 0, 1, 0, 1, 0, 0, 0], [0] * 8]


def test_a_move_over_a_list_at_a_simultaneous_step_is_refused_with_the_reason(tmp_path):
    (tmp_path / "paint.rules").write_text(PAINT.replace("    play paint\n", "    simultaneous p in players {\n"
                                                                         "      play paint\n    }\n"))
    state = load_openspiel_game(tmp_path / "paint.rules").new_initial_state()
    with pytest.raises(ActionSpaceError, match="several ids .* a seat's move at a simultaneous step is one action"):
        state.legal_actions(0)


def test_a_jump_of_checkers_is_played_square_by_square():
    game = load_openspiel_game(GAMES / "checkers.rules")
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    multi_jumps = 0
    while not state.is_terminal():
        names = [state.action_to_string(a) for a in state.legal_actions()]
        if any(n.startswith("jump(") for n in names):
            assert all(n.startswith("jump(") for n in names)          # a jump is compulsory
            history = list(state.engine.state.history)
            state.apply_action(state.legal_actions()[rng.randint(len(names))])
            landed = 0
            while state.engine.chosen:
                # the same player lands square by square; nothing is played in the engine yet
                assert state.engine.state.history == history
                middle = state.clone()
                again = game.deserialize_state(state.serialize())
                assert again.legal_actions() == state.legal_actions() and again.engine.chosen == state.engine.chosen
                state.apply_action(state.legal_actions()[rng.randint(len(state.legal_actions()))])
                assert middle.engine.chosen != state.engine.chosen     # a clone is a state of its own
                landed += 1
            move = state.engine.state.history[-1]
            assert len(state.engine.state.history) == len(history) + 1 and move.count(",") + 1 == landed
            multi_jumps += landed > 1
        else:
            state.apply_action(state.legal_actions()[rng.randint(len(names))])
    assert multi_jumps > 0


def test_lockstep_with_openspiels_checkers_notices_a_difference(tmp_path):
    text = (GAMES / "checkers.rules").read_text()
    compulsory = '  require not can_play(jump) else "a jump is possible, so you must jump"\n'
    assert compulsory in text
    changed = tmp_path / "checkers.rules"
    changed.write_text(text.replace(compulsory, ""))
    with pytest.raises(openspiel_conformance.Mismatch, match="moves differ"):
        openspiel_conformance.run("checkers", games=2, seed=1, rules_game=load_openspiel_game(changed))


@pytest.mark.parametrize("native", sorted(openspiel_conformance.native_name_mappings()))
@pytest.mark.slow
def test_lockstep_with_openspiels_own_game(native):
    # (Backgammon's games are each long; it plays more in the tests below, and 6 in the sweep)
    games = amount(2, 6) if native == "backgammon" else 6
    steps = openspiel_conformance.run(native, games=games, seed=11)
    assert steps >= games


@pytest.mark.parametrize("players", [3, 4])
def test_goofspiel_lockstep_for_more_players_ends_with_openspiels_fractional_returns(players):
    """OpenSpiel pays 1/winners and -1/losers (kWinLoss); the rules say it with '/', exactly,
    so the returns of every playthrough are OpenSpiel's (compare_returns: within 1e-9)."""
    mapping = openspiel_conformance.native_name_mappings()["goofspiel"]._replace(native_params={"players": players})
    rules = load_openspiel_game(GAMES / "goofspiel.rules", players=players)
    assert openspiel_conformance.run("goofspiel", games=4, seed=3, rules_game=rules, mapping=mapping) == 4 * 12


@pytest.mark.slow
def test_hearts_lockstep_plays_whole_hands_passes_included():
    steps = openspiel_conformance.run("hearts", games=6, seed=5)
    # 52 cards played per hand, and 12 cards passed in three hands of four
    assert 6 * 52 < steps <= 6 * 64 and (steps - 6 * 52) % 12 == 0


def test_hearts_lockstep_needs_the_option_that_selects_openspiels_rules():
    plain = load_openspiel_game(GAMES / "hearts.rules")
    with pytest.raises(openspiel_conformance.Mismatch, match="chance outcomes differ"):
        openspiel_conformance.run("hearts", games=1, rules_game=plain)
    # the option without its queen of spades breaking hearts: some game of a few shows it
    no_queen = load_openspiel_game(GAMES / "hearts.rules", options=["openspiel"], params={"queen_breaks_hearts": False})
    with pytest.raises(openspiel_conformance.Mismatch, match="legal moves differ"):
        openspiel_conformance.run("hearts", games=40, seed=1, rules_game=no_queen)


def test_hearts_passes_are_checked_against_openspiels_cards():
    lockstep = openspiel_conformance.PassesOneCardAtATime("hearts", seed=2)
    lockstep.native.apply_action(1)                       # OpenSpiel passes to the left
    lockstep.rules.apply_action(lockstep.rules_outcomes()["1"][0])
    lockstep.action_name = lambda text: "ten of clubs"    # every native card read as the same one
    with pytest.raises(openspiel_conformance.Mismatch, match="passes differ"):
        lockstep.play()


@pytest.mark.slow
def test_backgammon_lockstep_compares_openspiels_scoring_types_with_the_param_most_points():
    mapping = openspiel_conformance.native_name_mappings()["backgammon"]
    # (the first game of seed 4 is a backgammon, worth 3 points: each scoring type caps it;
    # the sweep plays two)
    for scoring_type, most_points in (("winloss_scoring", 1), ("enable_gammons", 2)):
        other = mapping._replace(native_params={**mapping.native_params, "scoring_type": scoring_type},
                                 rules_params={"most_points": most_points})
        assert openspiel_conformance.run("backgammon", games=amount(1, 2), seed=4, mapping=other) > 0
    # OpenSpiel's default scoring against the rules' default: some game of a few is a gammon
    default_native = mapping._replace(native_params={**mapping.native_params, "scoring_type": "winloss_scoring"})
    with pytest.raises(openspiel_conformance.Mismatch, match="returns differ"):
        openspiel_conformance.run("backgammon", games=8, seed=4, mapping=default_native)


@pytest.mark.parametrize("original, mutated, found", [
    # two opposing checkers no longer block a point
    ("men[opponent(p), 25 - i] <= 1", "men[opponent(p), 25 - i] <= 2", "plays differ"),
    # the second die of a later roll never shows a 6
    ("die2 = pick(1..6)\n  set_uses()", "die2 = pick(1..5)\n  set_uses()", "rolls differ"),
])
def test_backgammon_lockstep_notices_a_difference(tmp_path, original, mutated, found):
    text = (GAMES / "backgammon.rules").read_text()
    assert original in text
    changed = tmp_path / "backgammon.rules"
    changed.write_text(text.replace(original, mutated))
    with pytest.raises(openspiel_conformance.Mismatch, match=found):
        openspiel_conformance.run("backgammon", games=3, seed=1, rules_game=load_openspiel_game(changed))


def test_lockstep_notices_a_difference():
    lockstep = openspiel_conformance.Lockstep("connect_four", seed=0)
    lockstep.action_name = lambda text: text[1:]          # columns 0..6 against the rules' 1..7
    with pytest.raises(openspiel_conformance.Mismatch, match="legal moves differ"):
        lockstep.play()


@pytest.mark.slow
def test_cfr_plus_solves_kuhn_poker_from_the_rules_file():
    game = kuhn()
    solver = cfr.CFRPlusSolver(game)
    start = exploitability.exploitability(game, solver.average_policy())
    assert start == pytest.approx(0.4583, abs=1e-3)          # the uniform policy, as in native Kuhn
    for _ in range(150):
        solver.evaluate_and_update_policy()
    reached = exploitability.exploitability(game, solver.average_policy())
    assert reached < 0.001
    # CFR+ is deterministic: on the same tree with the same information sets, native Kuhn
    # goes exactly the same way
    native_game = pyspiel.load_game("kuhn_poker")
    native = cfr.CFRPlusSolver(native_game)
    for _ in range(150):
        native.evaluate_and_update_policy()
    assert reached == pytest.approx(exploitability.exploitability(native_game, native.average_policy()), abs=1e-9)


@pytest.mark.slow
def test_mcts_plays_connect_four_from_the_rules_file():
    game = load_openspiel_game(GAMES / "connect-four.rules")
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=40,
                       evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng), random_state=rng)
    wins = 0
    for first in (0, 1, 0, 1):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == first:
                state.apply_action(bot.step(state))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        wins += state.returns()[first] == 1.0
    assert wins >= 3          # against a random player
