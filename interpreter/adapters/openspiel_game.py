"""Any rules file as an OpenSpiel game (pyspiel's Python-game API), so that OpenSpiel's
algorithms (CFR, MCTS, exploitability...) and tests run on it. docs/openspiel.md says how.

    game = load_openspiel_game("my-game.rules", zero_sum=True, utility_range=(-2, 2))
    state = game.new_initial_state()      # a pyspiel.State: chance nodes, legal_actions()...

The engine's game is loaded with explicit chance (every shuffle and pick is a chance node);
seats 1..n are OpenSpiel's players 0..n-1; ids come from action_space.py (one numbering for
this adapter and the PettingZoo environment); strings and tensors come from the engine's view,
which hides what a seat may not see.
"""
import json
import re
from pathlib import Path
from typing import Optional

try:
    import numpy as np
    import pyspiel
except ImportError as error:      # the extra is not installed
    raise ImportError("the OpenSpiel adapter needs OpenSpiel: pip install 'referee[openspiel]' "
                      "(or pip install open_spiel)") from error

from referee.dsl import ast
from referee.dsl.limits import MAX_NUMBER

from .action_space import ActionSpace, MoveUnderWay, RulesLoadError, ViewEncoding, load_explicit_game, rules_nodes
from ..play.bots import hidden_information
from ..engine import CHANCE, PUBLIC
from ..engine.moves import public_moves
from ..runtime.errors import RulesRuntimeError

# OpenSpiel wants a bound on a game's length; the language has none (docs/openspiel.md).
DEFAULT_MAX_GAME_LENGTH = 10_000
SHORT_NAME_PREFIX = "referee_"
# An information-state tensor gives a move's id one-hot up to this many ids, in binary beyond
# (a trick-taking game of ours has 140,662 ids: 18 numbers a move rather than 140,662)
ONE_HOT_ACTION_LIMIT = 256

_registered = {}        # short name -> the loading arguments it was registered with
_registered_types = {}  # short name -> its pyspiel.GameType


class OpenSpielLoadError(RulesLoadError):
    """A rules file that does not load (its diagnostics are in the message)."""


def load_openspiel_game(path, players: Optional[int] = None, options=(), params: Optional[dict] = None,
                        zero_sum: bool = False, utility_range: Optional[tuple] = None,
                        max_game_length: int = DEFAULT_MAX_GAME_LENGTH) -> "RulesGame":
    """A pyspiel.Game playing the rules file at `path`, registered with pyspiel under
    `referee_<file stem>` (so pyspiel.load_game(short_name) and serialisation work too).

    zero_sum: declare the game zero-sum (OpenSpiel's exploitability needs it); whether returns
    always sum to 0 cannot be read from the rules, so the default is general-sum.
    utility_range: (min, max) of the returns; the default is 0..1 for a game without declared
    `returns`, else the language's number limit (the rules do not bound their returns)."""
    engine_game = load_explicit_game(path, options, players, params, OpenSpielLoadError)
    arguments = dict(path=str(path), options=tuple(options), params=dict(params or {}), zero_sum=zero_sum,
                     utility_range=tuple(utility_range) if utility_range is not None else None,
                     max_game_length=max_game_length)
    game_type = register(engine_game, arguments)
    return RulesGame(game_type, engine_game, arguments, {"players": engine_game.num_players})


def short_name_for(path, arguments) -> str:
    stem = re.sub(r"\W", "_", Path(path).stem)
    name = SHORT_NAME_PREFIX + stem
    k = 2
    # another file, or the same one with other options: a name of its own
    while name in _registered and _registered[name] != arguments:
        name = f"{SHORT_NAME_PREFIX}{stem}_{k}"
        k += 1
    return name


def register(engine_game, arguments) -> "pyspiel.GameType":
    name = short_name_for(arguments["path"], arguments)
    if name in _registered:
        return _registered_types[name]
    program = engine_game.program
    low, high = engine_game.player_range
    random = any(isinstance(n, ast.Shuffle) or (isinstance(n, ast.Call) and n.name == "pick")
                 for n in rules_nodes(program))
    simultaneous = any(ins.op == "simultaneous" for ins in engine_game.flow)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{engine_game.title} (Referee, {arguments['path']})",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if random
                     else pyspiel.GameType.ChanceMode.DETERMINISTIC),
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden_information(engine_game)
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM if arguments["zero_sum"] else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": engine_game.num_players})

    made = {}      # players -> the game: pyspiel loads it again for every state it deserialises

    def factory(params=None, arguments=arguments, game_type=game_type, made=made):
        players = int((params or {}).get("players", engine_game.num_players))
        if players not in made:
            loaded = load_explicit_game(arguments["path"], arguments["options"], players, arguments["params"],
                                        OpenSpielLoadError)
            made[players] = RulesGame(game_type, loaded, arguments, {"players": players})
        return made[players]
    # pyspiel's registry drops its reference to the factory after Python has shut down; a
    # factory freed then aborts the process (a registered class lives on through its own
    # reference cycles): this cycle keeps it alive to the end, as a class would be
    factory.itself = factory
    pyspiel.register_game(game_type, factory)
    _registered[name] = arguments
    _registered_types[name] = game_type
    return game_type


class RulesGame(pyspiel.Game):
    def __init__(self, game_type, engine_game, arguments, params):
        self.engine_game = engine_game
        self.space = ActionSpace(engine_game)
        if arguments["utility_range"] is not None:
            low, high = arguments["utility_range"]
        elif engine_game.declared_returns is None:
            low, high = (-1.0 if engine_game.may_lose else 0.0), 1.0     # (-1 each: `finish lost`)
        else:
            low, high = -float(MAX_NUMBER), float(MAX_NUMBER)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.num_distinct_actions,
            max_chance_outcomes=self.space.max_chance_outcomes,
            num_players=engine_game.num_players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=0.0 if arguments["zero_sum"] else None,
            max_game_length=arguments["max_game_length"])
        super().__init__(game_type, info, params)
        self.encoding = ViewEncoding(engine_game, self.space)
        self.perfect_information = game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
        # OpenSpiel's max_game_length counts joint decisions: a simultaneous one is a move per seat
        simultaneous = game_type.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
        self.history_encoding = HistoryEncoding(
            self.encoding, self.space, engine_game.num_players, arguments["max_game_length"],
            arguments["max_game_length"] * (engine_game.num_players if simultaneous else 1))
        # once an information state is asked, new states keep their positions from the start
        # (an algorithm that asks one asks it of state after state); random playouts do not
        self.keeps_positions = False

    def new_initial_state(self, seed: int = 0):
        return RulesState(self, seed)

    def make_py_observer(self, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported; given {params}")
        return RulesObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class Snapshot:
    """A copy of the engine's state at one position of a game, and what each seat saw there
    (worked out when first asked: clones share their past, so a search tree works out each
    node's once)."""
    __slots__ = ("state", "texts", "next_ids")

    def __init__(self, state):
        self.state = state.clone()
        self.texts = {}
        self.next_ids = {}       # move name -> its ids (clones that share the position go on apart)

    def ids_of(self, space, name) -> tuple:
        """The ids by which the move `name` was played from this position."""
        ids = self.next_ids.get(name)
        if ids is None:
            sequences = space.legal_sequences(self.state)
            ids = self.next_ids[name] = space.played_ids(sequences, next(m for m in sequences.values()
                                                                         if m.name == name))
        return ids

    def text(self, seat) -> str:
        text = self.texts.get(seat)
        if text is None:
            text = self.texts[seat] = view_text(self.state.view(seat))
        return text


class Engine(MoveUnderWay):
    """The engine's state inside a pyspiel state, with the ids of a move under way. pyspiel
    clones a Python state by deep-copying its attributes: this one clones the engine state
    instead (the game is shared, not copied)."""
    __slots__ = ("sealed", "past")

    def __init__(self, state, past=None, chosen=()):
        super().__init__(state, chosen)
        self.sealed = None       # a simultaneous step's moves per seat, until the next move
        # a Snapshot of every position from the start (information states are made of what a
        # seat saw at each), kept once an information state of the game has been asked
        self.past = past

    def apply(self, move):
        self.sealed = None
        super().apply(move)
        if self.past is not None:
            self.past = self.past + (Snapshot(self.state),)

    def positions(self) -> tuple:
        """The Snapshot of every position from the start (replayed if they were not kept)."""
        if self.past is None or len(self.past) != len(self.state.history) + 1:
            self.past = replayed_positions(self.state)
        return self.past

    def __deepcopy__(self, memo):
        return Engine(self.state.clone(), self.past, self.chosen)

    def __reduce__(self):
        # pyspiel serialises a Python state by pickling its attributes: the file, how it was
        # loaded, the seed and the moves, replayed when it is read back
        s = self.state
        game = s.game
        return restore_engine, (game.path, tuple(sorted(game.options)), tuple(game.given_params.items()),
                                game.num_players, s.seed, tuple(s.history), self.chosen)


def replayed_positions(state) -> tuple:
    """The Snapshot of every position of an engine state's history, replayed from its seed."""
    again = state.game.new_initial_state(state.seed)
    past = [Snapshot(again)]
    for name in state.history:
        again.apply(name)
        past.append(Snapshot(again))
    return tuple(past)


_restored_games = {}


def restore_engine(path, options, params, players, seed, history, chosen=()) -> Engine:
    key = (path, options, params, players)
    game = _restored_games.get(key)
    if game is None:
        game = _restored_games[key] = load_explicit_game(path, options, players, dict(params), OpenSpielLoadError)
    state = game.new_initial_state(seed)
    for name in history:
        state.apply(name)
    return Engine(state, chosen=tuple(chosen))


def chosen_text(state, seat) -> Optional[str]:
    """The ids of a move under way as `seat` sees them (MoveUnderWay.chosen_line), or None."""
    return state.engine.chosen_line(state.space, seat, state.get_game().perfect_information)


class RulesState(pyspiel.State):
    def __init__(self, game, seed=0):
        super().__init__(game)
        # the seed matters only for picks the rules make outside chance nodes (docs/language.md)
        self.engine = Engine(game.engine_game.new_initial_state(seed))
        if game.keeps_positions:
            self.engine.past = (Snapshot(self.engine.state),)

    # ---- whose turn ----
    def current_player(self):
        s = self.engine.state
        if s.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if s.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        if s.sealed():
            return pyspiel.PlayerId.SIMULTANEOUS
        return s.current_player() - 1

    def is_terminal(self):
        return self.engine.state.is_terminal()

    def returns(self):
        return self.engine.state.returns()

    # ---- moves ----
    def _legal_actions(self, player):
        s = self.engine.state
        if s.is_terminal():
            return []
        if s.sealed():
            return sorted(self.sealed_moves().get(player + 1, {self.space.wait_id: None}))
        if s.current_player() != player + 1:
            return []
        return sorted(self.engine.legal_ids(self.space))

    @property
    def space(self):
        return self.get_game().space

    def chance_outcomes(self):
        s = self.engine.state
        ids = {move.name: number for number, move in self.engine.legal_ids(self.space).items()}
        return sorted((ids[move.name], probability) for move, probability in s.chance_outcomes())

    def sealed_moves(self) -> dict:
        """At a simultaneous step: {seat: {id: Move}} of every seat still to choose. The engine
        asks them one at a time; a seat's moves do not depend on the sealed choices before it,
        so the later seats' moves are listed on a copy where the earlier seats chose."""
        if self.engine.sealed is None:
            s = self.engine.state.clone()
            out = {}
            while s.sealed() and s.current_player() not in out:
                moves = self.space.legal_ids(s)
                out[s.current_player()] = moves
                s.apply(next(iter(moves.values())))
            self.engine.sealed = out
        return self.engine.sealed

    def _apply_action(self, action):
        self.engine.take(self.space, action)

    def _apply_actions(self, actions):
        sealed = self.sealed_moves()
        for player, action in enumerate(actions):       # all checked before any is applied
            moves = sealed.get(player + 1, {self.space.wait_id: None})
            if action not in moves:
                taking_part = "" if player + 1 in sealed else " (it does not take part in this step: it waits)"
                raise ValueError(f"action {action} ({self.space.describe(action)}) of player {player} "
                                 f"is not legal now{taking_part}")
        for seat in sealed:
            self.engine.apply(self.engine.legal_ids(self.space)[actions[seat - 1]])

    def _action_to_string(self, player, action):
        s = self.engine.state
        if player == pyspiel.PlayerId.CHANCE:
            return self.space.labels.names[action] if 0 <= action < len(self.space.labels) else f"outcome {action}"
        if not s.is_terminal() and s.current_player() == player + 1 and not s.sealed():
            return self.engine.id_text(self.space, action)
        if s.sealed():
            move = self.sealed_moves().get(player + 1, {}).get(action)
            if move is not None:
                return move.name
        return self.space.describe(action)

    def __str__(self):
        return str(self.engine.state)


def view_text(view) -> str:
    """A view as one line of canonical JSON, without its last moves (the moves of chance there
    show what the rules drew, even where a seat may not see it: a die kept in an owner-only
    variable), its log lines and legal moves."""
    shown = {k: v for k, v in view.items() if k not in ("moves", "log", "legal_moves")}
    for zone in shown["zones"].values():
        for item in [*zone.get("items", ()), *zone.get("shown", ())]:
            item.pop("id", None)      # which of two identical cards: nothing a seat can tell
    return json.dumps(shown, sort_keys=True, default=str)


def information_state_text(state, seat) -> str:
    """What a seat saw from the start, one line per position: its observation at the start,
    then each move as the seat saw it (a move of chance as 'chance': what it drew is in the
    observations, as far as the seat may see it) and its observation after it."""
    state.get_game().keeps_positions = True
    s = state.engine.state
    positions = state.engine.positions()
    lines = [positions[0].text(seat)]
    for k, text in enumerate(public_moves(s, seat, last=len(s.history)), start=1):
        lines.append("chance" if text.startswith("chance: ") else text)
        lines.append(positions[k].text(seat))
    under_way = chosen_text(state, seat)
    return "\n".join(lines + ([under_way] if under_way else []))


def seen_moves(state, seat, positions, space) -> list:
    """The moves of an engine state's history as `seat` knows them, in order: (player, ids) for
    a move of a seat's that it may see whole (its own, or one whose public text is its name),
    (player, None) for one it may not (a sealed move, a move with hidden arguments), and
    (CHANCE, None) for a move of chance (what a seat may see of a draw is in its observation).
    `positions` are the Snapshots of the history, where `space` numbers the moves."""
    out = []
    for k, (name, (player, text)) in enumerate(zip(state.history, state.public_history)):
        if player == CHANCE:
            out.append((CHANCE, None))
        elif player == seat or text == name:
            out.append((player, positions[k].ids_of(space, name)))
        else:
            out.append((player, None))
    return out


class HistoryEncoding:
    """The information-state tensor (docs/openspiel.md, "Observations and information
    states"): the seat's observation tensor, then one row per player decision of the history, in
    order, `rows` of them (zeros for the decisions not made yet), then the number of moves of
    chance after the last one. A row: who moved (one-hot over the seats), whether the seat knows
    which move it was, the id played (one-hot, or in binary past ONE_HOT_ACTION_LIMIT ids;
    zeros when the seat does not know it), and the number of moves of chance just before it. A
    move of several ids (a path) is a row per id, and one row where the seat does not know it.
    A longer history is an error that names the bound."""

    def __init__(self, encoding, space, num_players, max_game_length, rows):
        self.encoding = encoding
        self.num_players = num_players
        self.max_game_length = max_game_length
        self.rows = rows
        self.one_hot = space.num_distinct_actions <= ONE_HOT_ACTION_LIMIT
        self.action_width = (space.num_distinct_actions if self.one_hot
                             else (space.num_distinct_actions - 1).bit_length())
        self.seen_at = num_players
        self.action_at = num_players + 1
        self.chance_at = self.action_at + self.action_width
        self.row_width = self.chance_at + 1
        self.history_start = encoding.size
        self.size = self.history_start + rows * self.row_width + 1

    def fill(self, tensor, view, moves):
        """`view`: the seat's view now; `moves`: seen_moves of the history (and the ids of a
        move under way that the seat sees)."""
        self.encoding.fill(tensor[:self.history_start], view)
        tensor[self.history_start:] = 0
        row, chance = 0, 0
        for player, ids in moves:
            if player == CHANCE:
                chance += 1
                continue
            for number in ids or (None,):
                if row == self.rows:
                    raise ValueError(f"the information-state tensor holds {self.rows} player moves "
                                     f"(max_game_length={self.max_game_length}) and this game has played more: "
                                     f"load it with a larger max_game_length (load_openspiel_game(..., "
                                     f"max_game_length=N))")
                at = self.history_start + row * self.row_width
                tensor[at + player - 1] = 1
                if number is not None:
                    tensor[at + self.seen_at] = 1
                    if self.one_hot:
                        tensor[at + self.action_at + number] = 1
                    else:
                        for bit in range(self.action_width):
                            tensor[at + self.action_at + bit] = (number >> bit) & 1
                tensor[at + self.chance_at] = chance
                row, chance = row + 1, 0
        tensor[-1] = chance

    def named_parts(self, tensor) -> dict:
        """The tensor's parts by name, as views of it (pyspiel's observer dict)."""
        end = self.history_start + self.rows * self.row_width
        return {"observation": tensor[:self.history_start],
                "history": tensor[self.history_start:end].reshape(self.rows, self.row_width),
                "chance_after_history": tensor[end:]}


class RulesObserver:
    """pyspiel's observer interface: strings and a tensor from a seat's view. With perfect
    recall (the information state) the string has everything the seat saw from the start and
    the tensor the moves it saw (HistoryEncoding); without private information it is the
    spectator's view (PUBLIC)."""

    def __init__(self, game, iig_obs_type):
        self.perfect_recall = iig_obs_type.perfect_recall
        self.encoding = game.history_encoding if self.perfect_recall else game.encoding
        self.public_only = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        self.tensor = np.zeros(self.encoding.size, np.float32)
        self.dict = (game.history_encoding.named_parts(self.tensor) if self.perfect_recall
                     else {"observation": self.tensor})

    def seat(self, player):
        return PUBLIC if self.public_only else player + 1

    def set_from(self, state, player):
        seat = self.seat(player)
        s = state.engine.state
        if self.perfect_recall:
            state.get_game().keeps_positions = True
            moves = seen_moves(s, seat, state.engine.positions(), state.space)
            if chosen_text(state, seat) is not None:
                moves.append((s.current_player(), state.engine.chosen))
            self.encoding.fill(self.tensor, s.view(seat), moves)
        else:
            self.encoding.fill(self.tensor, s.view(seat))

    def string_from(self, state, player):
        seat = self.seat(player)
        if self.perfect_recall:
            return information_state_text(state, seat)
        under_way = chosen_text(state, seat)
        return view_text(state.engine.state.view(seat)) + (f"\n{under_way}" if under_way else "")


__all__ = ["load_openspiel_game", "OpenSpielLoadError", "RulesGame", "RulesState", "RulesRuntimeError"]
