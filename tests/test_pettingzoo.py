"""The PettingZoo environment (interpreter/pettingzoo_env.py): PettingZoo's own API test on every
rules file, action masks that are the legal moves, the OpenSpiel adapter's action ids, chance
drawn from the seed, and the docs' examples (the ```python blocks of docs/openspiel.md) run."""
import importlib
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test

from referee.interpreter.action_space import ActionSpaceError
from referee.interpreter.engine import load_game
from referee.interpreter.openspiel_game import load_openspiel_game
from referee.interpreter.pettingzoo_env import PettingZooLoadError, load_pettingzoo_env

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


# (the API test warns about dict observations, which action masks need: PettingZoo's own
# classic environments get the same two warnings)
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
# (checkers' jump is several ids, which the environment does not play: the test below)
@pytest.mark.parametrize("path", [p for p in sorted(GAMES.glob("*.rules")) if p.stem != "checkers"], ids=lambda p: p.stem)
def test_pettingzoo_api_test_passes(path):
    api_test(load_pettingzoo_env(path), num_cycles=300)


def test_a_move_of_several_ids_is_refused_with_the_reason():
    with pytest.raises(ActionSpaceError, match="the moves of 'jump' are several ids .* the OpenSpiel adapter does"):
        load_pettingzoo_env(GAMES / "checkers.rules")


def random_game(env, seed):
    """Play one game with random legal actions; (the moves played, the final rewards)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    played, rewards = [], {}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        rewards[agent] = reward
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            assert mask.any()
            action = int(rng.choice(np.flatnonzero(mask)))
            played.append(env.action_name(action))
        env.step(action)
    return played, rewards


def test_the_mask_is_the_legal_moves_and_ids_are_the_openspiel_adapters():
    env = load_pettingzoo_env(GAMES / "tic-tac-toe.rules")
    env.reset(seed=0)
    state = load_openspiel_game(GAMES / "tic-tac-toe.rules").new_initial_state()
    for action in (4, 0, 8):
        mask = env.observe(env.agent_selection)["action_mask"]
        assert list(np.flatnonzero(mask)) == state.legal_actions()
        assert env.action_name(action) == state.action_to_string(action)
        env.step(action)
        state.apply_action(action)
    assert env.agent_selection == "player_1"
    assert env.observe("player_0")["action_mask"].sum() == 0          # not its turn


def test_a_random_game_ends_with_the_returns_as_rewards():
    env = load_pettingzoo_env(GAMES / "kuhn-poker.rules")
    played, rewards = random_game(env, seed=5)
    assert set(played) <= {"pass", "bet"} and len(played) >= 2
    assert sum(rewards.values()) == 0 and set(rewards.values()) <= {-2, -1, 1, 2}
    assert env.agents == []


def test_chance_comes_from_the_seed():
    env = load_pettingzoo_env(GAMES / "liars-dice.rules")
    first = [random_game(env, seed) for seed in (1, 2, 3)]
    again = [random_game(env, seed) for seed in (1, 2, 3)]
    assert first == again
    dice = set()
    for seed in range(12):
        env.reset(seed=seed)
        dice.add(tuple(env.observe("player_0")["observation"]))
    assert len(dice) > 1          # the dice differ from seed to seed


def test_a_seat_does_not_see_the_other_card():
    env = load_pettingzoo_env(GAMES / "kuhn-poker.rules")
    seen = set()
    for seed in range(30):
        env.reset(seed=seed)
        seen.add((tuple(env.observe("player_0")["observation"]), tuple(env.observe("player_1")["observation"])))
    mine = {p0 for p0, _ in seen}
    assert len(mine) == 3          # player 0's observation shows its own card only: 3 cases, not 6


def test_simultaneous_steps_are_asked_one_seat_at_a_time_and_sealed():
    seen_by_player_1 = []
    for choice in (0, -1):                     # player 0 bids its lowest card, then its highest
        env = load_pettingzoo_env(GAMES / "goofspiel.rules")
        env.reset(seed=0)
        assert env.agent_selection == "player_0"
        env.step(int(np.flatnonzero(env.observe("player_0")["action_mask"])[choice]))
        assert env.agent_selection == "player_1"
        seen_by_player_1.append(env.observe("player_1")["observation"])
    assert (seen_by_player_1[0] == seen_by_player_1[1]).all()     # the bid is sealed


def test_illegal_actions_and_bad_files_are_refused_with_the_reason(tmp_path):
    env = load_pettingzoo_env(GAMES / "connect-four.rules")
    env.reset(seed=0)
    for _ in range(6):
        env.step(0)                 # column 1 is full
    with pytest.raises(ValueError, match="action 0 .* is not legal for player_0"):
        env.step(0)
    bad = tmp_path / "bad.rules"
    bad.write_text('game "Bad" {\n  players 2\n}\nflow {\n  turns from 1 {\n    play nothing\n  }\n}\n')
    with pytest.raises(PettingZooLoadError, match="bad.rules:6"):
        load_pettingzoo_env(bad)
    assert load_game(bad)[0] is None


def test_without_pettingzoo_importing_the_environment_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "referee.interpreter.pettingzoo_env")
    with pytest.raises(ImportError, match=r"pip install 'referee\[pettingzoo\]'"):
        importlib.import_module("referee.interpreter.pettingzoo_env")


def test_the_examples_of_docs_openspiel_md_run(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "openspiel.md").read_text()
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "docs/openspiel.md", "exec"), {})
    assert "rewards" in capsys.readouterr().out
