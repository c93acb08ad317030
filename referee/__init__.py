"""Referee: a declarative rules language for board and card games, and one interpreter that
referees them all.

    referee.dsl           the language: grammar, parser, syntax tree, checker, diagnostics (dsl/)
    referee.interpreter   runtime, compiler, engine, tools, bots, command line (interpreter/)

The public API (docs/api.md) is importable from here: `from referee import load_game`. Its
names are imported when first used, so that `import referee` costs nothing more.

Installed, both live inside this package; in a checkout they are the dsl/ and interpreter/
folders beside this one, which the package reaches through its search path.
"""
import importlib
from pathlib import Path

_checkout = Path(__file__).resolve().parent.parent
if not (Path(__file__).resolve().parent / "interpreter").is_dir() and (_checkout / "interpreter").is_dir():
    __path__.append(str(_checkout))      # a checkout: referee.dsl is ../dsl, referee.interpreter ../interpreter

# public name -> the module that defines it
API = {
    "load_game": "referee.interpreter.engine",
    "Game": "referee.interpreter.engine",
    "State": "referee.interpreter.engine",
    "Move": "referee.interpreter.engine",
    "MoveList": "referee.interpreter.engine",
    "CHANCE": "referee.interpreter.engine",
    "PUBLIC": "referee.interpreter.engine",
    "IllegalMove": "referee.interpreter.runtime.errors",
    "RulesRuntimeError": "referee.interpreter.runtime.errors",
    "load_program": "referee.dsl.program",
    "check": "referee.dsl.checks",
    "Checked": "referee.dsl.checked",
    "Diagnostic": "referee.dsl.diagnostics",
    "load_openspiel_game": "referee.interpreter.adapters.openspiel_game",
    "load_pettingzoo_env": "referee.interpreter.adapters.pettingzoo_env",
}

__all__ = sorted(API)


def __getattr__(name):
    if name in API:
        value = getattr(importlib.import_module(API[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'referee' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(API))
