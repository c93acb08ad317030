"""Any rules file as a PettingZoo AEC environment (docs/openspiel.md, "PettingZoo"):

    env = load_pettingzoo_env("my-game.rules")
    env.reset(seed=1)
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        ...

Agents are `player_0`..`player_{n-1}` (seats 1..n). Actions are the integers of
action_space.py, the same as the OpenSpiel adapter's; each observation is a dict with the
view's encoding (`observation`) and the legal actions (`action_mask`). Chance nodes are played
inside the environment, drawn from the seed given to reset(). A `simultaneous` step is asked one
seat at a time, each seat's choice sealed (not in the others' observations) until the last has
chosen: AEC environments are sequential. Rewards come at the end: each seat's return.
"""
import random
import re
from pathlib import Path
from typing import Optional

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv
except ImportError as error:      # the extra is not installed
    raise ImportError("the PettingZoo environment needs PettingZoo and Gymnasium: "
                      "pip install 'referee[pettingzoo]' (or pip install pettingzoo gymnasium)") from error

from .action_space import ActionSpace, ActionSpaceError, RulesLoadError, ViewEncoding, load_explicit_game
from .render import render_view


class PettingZooLoadError(RulesLoadError):
    """A rules file that does not load (its diagnostics are in the message)."""


def load_pettingzoo_env(path, players: Optional[int] = None, options=(), params: Optional[dict] = None,
                        render_mode: Optional[str] = None) -> "RulesEnv":
    return RulesEnv(load_explicit_game(path, options, players, params, PettingZooLoadError), render_mode)


class RulesEnv(AECEnv):
    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game, render_mode: Optional[str] = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.game = game
        self.render_mode = render_mode
        self.space = ActionSpace(game)
        several = [a for a, lists in zip(game.actions, self.space.lists) if lists]
        if several:
            # the OpenSpiel adapter plays such a move id by id; an AEC step here is one whole move
            raise ActionSpaceError(f"the moves of '{several[0].name}' are several ids (a list argument, one id per "
                                   f"item: docs/openspiel.md, 'The action space'), which the PettingZoo "
                                   f"environment does not play; the OpenSpiel adapter does", several[0].span)
        self.encoding = ViewEncoding(game, self.space)
        # named as the OpenSpiel adapter names its game type: after the file
        self.metadata = dict(self.metadata, name="referee_" + re.sub(r"\W", "_", Path(game.path).stem))
        self.possible_agents = [f"player_{p}" for p in range(game.num_players)]
        size = self.space.num_distinct_actions
        self.action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (self.encoding.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (size,), np.int8),
        }) for a in self.possible_agents}
        self.state = None
        self.rng = random.Random(0)

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def seat(self, agent) -> int:
        return self.possible_agents.index(agent) + 1

    def reset(self, seed=None, options=None):
        if seed is not None:
            self.rng = random.Random(seed)
        # the engine's seed matters only for picks outside chance nodes (docs/language.md)
        self.state = self.game.new_initial_state(self.rng.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.play_chance()
        self.after_move()

    def play_chance(self):
        s = self.state
        while s.is_chance_node():
            moves, probabilities = zip(*s.chance_outcomes())
            s.apply(self.rng.choices(moves, weights=probabilities)[0])

    def legal_ids(self) -> dict:
        return self.space.legal_ids(self.state) if not self.state.is_terminal() else {}

    def observe(self, agent):
        observation = np.zeros(self.encoding.size, np.float32)
        self.encoding.fill(observation, self.state.view(self.seat(agent)))
        mask = np.zeros(self.space.num_distinct_actions, np.int8)
        if agent == self.agent_selection and not self.state.is_terminal():
            mask[list(self.legal_ids())] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        moves = self.legal_ids()
        if action not in moves:
            raise ValueError(f"action {action} ({self.space.describe(action)}) is not legal for {agent} now; "
                             f"legal: {sorted(moves)}")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(moves[action])
        self.play_chance()
        self.after_move()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def after_move(self):
        s = self.state
        if s.is_terminal():
            returns = s.returns()
            self.rewards = {a: returns[k] for k, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            # every agent takes its last observation in turn (a dead step each), from seat 1
            self.agent_selection = self.agents[0]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[s.current_player() - 1]
        for agent in self.agents:
            self.infos[agent] = {"legal_moves": [m.name for m in self.legal_ids().values()]} \
                if agent == self.agent_selection else {}

    def action_name(self, action) -> str:
        """The move an action id stands for now (or what it stands for in general)."""
        move = self.legal_ids().get(action)
        return move.name if move is not None else self.space.describe(action)

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode: 'ansi' or 'human'")
            return None
        return render_view(self.state.view(self.state.current_player() or 1))

    def close(self):
        pass
