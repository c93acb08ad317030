"""Referee: a declarative rules language for board and card games, and one interpreter that
referees them all.

    referee.dsl           the language: grammar, parser, syntax tree, checker, diagnostics (dsl/)
    referee.interpreter   state, engine, standard library, bots, command line (interpreter/)

Installed, both live inside this package; in a checkout they are the dsl/ and interpreter/
folders beside this one, which the package reaches through its search path.
"""
from pathlib import Path

_checkout = Path(__file__).resolve().parent.parent
if not (Path(__file__).resolve().parent / "interpreter").is_dir() and (_checkout / "interpreter").is_dir():
    __path__.append(str(_checkout))      # a checkout: referee.dsl is ../dsl, referee.interpreter ../interpreter
