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

from referee.interpreter.engine import PUBLIC, load_game
from referee.interpreter.adapters.openspiel_game import load_openspiel_game
from referee.interpreter.adapters.pettingzoo_env import PettingZooLoadError, load_pettingzoo_env
from tests.test_openspiel import PAINT

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"


# (the API test warns about dict observations, which action masks need: PettingZoo's own
# classic environments get the same two warnings)
@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
@pytest.mark.parametrize("path", sorted(GAMES.glob("*.rules")), ids=lambda p: p.stem)
@pytest.mark.slow
def test_pettingzoo_api_test_passes(path):
    api_test(load_pettingzoo_env(path), num_cycles=300)


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


def test_checkers_plays_to_the_end_with_each_jump_a_step_of_the_same_agent():
    env = load_pettingzoo_env(GAMES / "checkers.rules")
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    multi_jumps, jumps, history = 0, 0, []
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if "chosen" not in info:        # a move starts
            landed, history = 0, list(env.state.history)
        else:
            # the same agent goes on; nothing is played in the engine until the move is complete
            assert env.state.history == history and info["chosen"].startswith(f"P{env.seat(agent)} choosing: jump(")
            landed += 1
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        if env.agents and len(env.state.history) == len(history) + 1 and landed:
            jumps += 1
            multi_jumps += landed > 1
            assert env.state.history[-1].count(",") + 1 == landed      # one step per square landed on
        elif env.agents and len(env.state.history) == len(history):
            assert env.agent_selection == agent
    assert jumps > 0 and multi_jumps > 0
    assert env.agents == [] and env.state.is_terminal()
    returns = env.state.returns()
    assert sum(returns) == 0 and set(returns) <= {-1, 0, 1}


def played_to_a_multi_jump(env, seed):
    """Play random actions in `env` until a move of more than one jump is legal: (that move,
    the actions played)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    while True:
        info = env.infos[env.agent_selection]
        multi = [name for name in info["legal_moves"] if "," in name]
        if multi and "chosen" not in info:
            return multi[0], actions
        actions.append(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
        env.step(actions[-1])
        assert env.agents, "the game ended before a multi-jump"


def test_a_multi_jump_in_the_env_is_the_same_game_as_the_move_by_name_and_as_the_openspiel_adapters():
    env = load_pettingzoo_env(GAMES / "checkers.rules")
    name, actions = played_to_a_multi_jump(env, seed=2)
    by_name = env.state.clone()
    by_name.apply(name)
    game = load_openspiel_game(GAMES / "checkers.rules")
    adapter = game.new_initial_state()
    for action in actions:
        adapter.apply_action(action)
    ids = env.space.played_ids(env.space.legal_sequences(env.state), next(m for m in env.state.legal_moves()
                                                                          if m.name == name))
    assert len(ids) >= 3                     # jump(from), then a step per square landed on
    agent = env.agent_selection
    for k, action in enumerate(ids):
        observation = env.observe(agent)
        # the mask and names are the adapter's legal ids; the observation is its tensor, which
        # shows the board as it was (the move is not played yet)
        assert list(np.flatnonzero(observation["action_mask"])) == adapter.legal_actions()
        assert env.action_name(action) == adapter.action_to_string(action)
        assert observation["observation"].tolist() == adapter.observation_tensor(env.seat(agent) - 1)
        if k:
            assert env.infos[agent]["chosen"] == adapter.observation_string(env.seat(agent) - 1).split("\n")[-1]
        assert env.agent_selection == agent and env.rewards[agent] == 0
        env.step(action)
        adapter.apply_action(action)
    assert env.state.history == by_name.history and env.state.history[-1] == name
    assert env.state.view(PUBLIC) == by_name.view(PUBLIC) and str(env.state) == str(adapter)
    assert env.agent_selection != agent and "chosen" not in env.infos[env.agent_selection]


def test_a_list_that_may_end_or_go_on_has_an_end_id_and_every_seat_sees_the_choice(tmp_path):
    (tmp_path / "paint.rules").write_text(PAINT)
    env = load_pettingzoo_env(tmp_path / "paint.rules", render_mode="ansi")
    env.reset(seed=0)
    # paint's first id 0, the items red 1 and blue 2, the end of the list 3
    env.step(0)
    env.step(1)
    assert env.agent_selection == "player_0" and env.state.history == []
    assert list(np.flatnonzero(env.observe("player_0")["action_mask"])) == [2, 3]
    assert [env.action_name(a) for a in (2, 3)] == ["paint red, blue", "paint red"]
    assert env.infos["player_0"] == {"legal_moves": ["paint red", "paint red, blue"],
                                     "chosen": "P1 choosing: paint(), red"}
    # a game of perfect information: the other seat sees the ids chosen so far too
    assert env.infos["player_1"] == {"chosen": "P1 choosing: paint(), red"}
    assert env.render().endswith("P1 choosing: paint(), red")
    with pytest.raises(ValueError, match="action 1 .* is not legal for player_0 now; legal: \\[2, 3\\]"):
        env.step(1)
    env.step(3)
    assert env.state.history == ["paint red"] and env.rewards == {"player_0": 1, "player_1": 0}
    assert all(env.terminations.values())
    # with something hidden the game is of imperfect information: only the mover sees its choice
    (tmp_path / "secret.rules").write_text(PAINT.replace("enum Color", "var secret: int hidden = 0\n\nenum Color"))
    env = load_pettingzoo_env(tmp_path / "secret.rules")
    env.reset(seed=0)
    env.step(0)
    assert env.infos["player_0"]["chosen"] == "P1 choosing: paint()" and env.infos["player_1"] == {}


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
    monkeypatch.delitem(sys.modules, "referee.interpreter.adapters.pettingzoo_env")
    with pytest.raises(ImportError, match=r"pip install 'referee\[pettingzoo\]'"):
        importlib.import_module("referee.interpreter.adapters.pettingzoo_env")


def test_the_examples_of_docs_openspiel_md_run(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    text = (ROOT / "docs" / "openspiel.md").read_text()
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.S | re.M)
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "docs/openspiel.md", "exec"), {})
    assert "rewards" in capsys.readouterr().out
