"""Aggregates over a function that returns a filter, walked in place by the native kernel
(interpreter/native/fused_source.py): tests/native/fused.rules. `mine` and `free` (a variable
indexed by the cell, compared) are walked without building their list; `heavy` (a division by a
weight that reaches zero) is built, so an `any` over it that stops early still meets the error
Python meets: the games, errors included, are Python's."""
import re

import pytest

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.rules_source import render  # noqa: E402
from tests.native_support import kernel_of, same_games  # noqa: E402

FUSED = "tests/native/fused.rules"


def test_only_filters_that_cannot_fail_are_walked_without_their_list():
    game, _, _ = load_game(FUSED, players=2)
    source = render(game)
    aggregates = [f for f in re.split(r"\n@njit[^\n]*\n", source) if f.startswith("def agg_")]
    walked_as_lists = {name for f in aggregates for name in re.findall(r"items_\w+ = fn_(\w+)\(", f)}
    assert walked_as_lists == {"heavy"}         # (an action's moves still list mine() and free())
    assert re.search(r"def agg_count_\w+\(S, cur, L_c, p\d+\):\n    n = 0\n    for x\d+ in range\(0, 9\):", source)


def test_walked_filters_play_the_python_games_errors_included():
    played = same_games(kernel_of(FUSED, 2), range(1, 81))
    errors = [r["seed"] for r in played.records if r["error"] is not None]
    assert 10 < len(errors) < 75            # (both: games that end and games a division by zero stops)
    assert played.handed == errors          # (the kernel flags the division, Python records it)
