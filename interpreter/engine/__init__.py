"""The OpenSpiel-like interface over a compiled game: load_game, Game, State, Move."""
from ..runtime.errors import IllegalMove, RulesRuntimeError
from .game import CHANCE, PUBLIC, Game, Move, MoveList, State, load_game

__all__ = ["CHANCE", "PUBLIC", "Game", "IllegalMove", "Move", "MoveList", "RulesRuntimeError", "State", "load_game"]
