"""Helpers of the tests of generated modules: a game loaded without diagnostics, one function's
text in a module."""
from referee.interpreter.engine import load_game


def load(path, options=(), players=None):
    game, diagnostics, _ = load_game(str(path), options, players)
    assert diagnostics == [], diagnostics
    return game


def function_source(module, name) -> str:
    start = module.index(f"def {name}(")
    return module[start:module.index("\n\n", start)]
