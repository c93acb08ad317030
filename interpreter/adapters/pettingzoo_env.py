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
chosen: AEC environments are sequential. Rewards come at the end: each seat's return. A move of
several ids (a path of cells: action_space.ListBinder) is a step per id by the same agent, the
action mask of each the ids that continue some legal move (action_space.MoveUnderWay).
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

from .action_space import ActionSpace, MoveUnderWay, RulesLoadError, ViewEncoding, load_explicit_game
from ..play.bots import hidden_information
from ..engine.render import render_view


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
        self.encoding = ViewEncoding(game, self.space)
        self.perfect_information = not hidden_information(game)
        # named as the OpenSpiel adapter names its game type: after the file
        self.metadata = dict(self.metadata, name="referee_" + re.sub(r"\W", "_", Path(game.path).stem))
        self.possible_agents = [f"player_{p}" for p in range(game.num_players)]
        size = self.space.num_distinct_actions
        self.action_spaces = {a: gymnasium.spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (self.encoding.size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (size,), np.int8),
        }) for a in self.possible_agents}
        self.under_way = None        # the engine's state and the ids of a move under way in it
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
        self.under_way = MoveUnderWay(self.game.new_initial_state(self.rng.getrandbits(63)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.play_chance()
        self.after_move()

    @property
    def state(self):
        """The engine's state (a move under way is not played in it until it is complete)."""
        return self.under_way.state

    def play_chance(self):
        s = self.state
        while s.is_chance_node():
            moves, probabilities = zip(*s.chance_outcomes())
            self.under_way.apply(self.rng.choices(moves, weights=probabilities)[0])

    def legal_ids(self) -> dict:
        """{id: the Move it completes, or None where the move goes on} of the ids legal now."""
        return self.under_way.legal_ids(self.space) if not self.state.is_terminal() else {}

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
        # an id of a move that goes on plays nothing: the same agent acts again
        if self.under_way.take(self.space, action) is not None:
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
            self.infos[agent] = self.info_of(agent)

    def info_of(self, agent) -> dict:
        """The agent to act: the names of the legal moves it may still make. During a move of
        several ids, every agent that may see it (the mover; all in a game of perfect
        information): what the ids chosen so far stand for, under "chosen"."""
        info = {}
        if agent == self.agent_selection:
            info["legal_moves"] = [m.name for m in self.under_way.moves_on(self.space)] \
                if not self.state.is_terminal() else []
        line = self.under_way.chosen_line(self.space, self.seat(agent), self.perfect_information)
        if line is not None:
            info["chosen"] = line
        return info

    def action_name(self, action) -> str:
        """The move an action id completes now, what it adds to a move under way ('e5'), or
        what it stands for in general."""
        return self.under_way.id_text(self.space, action)

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode: 'ansi' or 'human'")
            return None
        seat = self.state.current_player() or 1
        under_way = self.under_way.chosen_line(self.space, seat, self.perfect_information)
        return render_view(self.state.view(seat)) + (f"\n{under_way}" if under_way else "")

    def close(self):
        pass
