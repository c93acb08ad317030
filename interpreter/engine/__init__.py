"""The OpenSpiel-like interface over a compiled game: load_game, Game, State, Move."""
from ..compile.compiler import PUBLIC
from ..runtime import CHANCE
from ..runtime.errors import IllegalMove, RulesRuntimeError
from .game import Game
from .load import load_game
from .moves import Move, MoveList
from .state import State

__all__ = ["CHANCE", "PUBLIC", "Game", "IllegalMove", "Move", "MoveList", "RulesRuntimeError", "State", "load_game"]
