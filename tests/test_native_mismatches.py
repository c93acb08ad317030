"""Native playouts where they once differed from the Python path (issue 24):
tests/native/mismatches.rules. A move's argument over a list that holds a value twice is listed
once, the first, as engine/moves.py `named_once` lists it; a dead end reached exactly at
max_moves is the dead-end error, as simulate_game records it, not an unfinished game. A domain
known to hold each value once (a filter of a board's cells, returned by a function) lists its
moves without looking for the ones listed before."""
import re

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.native.rules_source import render

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from tests.native_support import kernel_of, same_games  # noqa: E402

MISMATCHES = "tests/native/mismatches.rules"
SEEDS = range(1, 41)


@pytest.fixture(scope="module")
def mismatches():
    return kernel_of(MISMATCHES, 2)


def dead_ends(records) -> list:
    return [r["seed"] for r in records if r["error_kind"] == "dead-end"]


def test_values_met_twice_are_one_move(mismatches):
    played = same_games(mismatches, SEEDS, details=True)       # (details: each listing's size)
    finished = [r for r in played.records if r["finished"]]
    assert len(finished) > 30 and len({tuple(r["scores"]) for r in finished}) > 10
    assert played.handed == dead_ends(played.records)     # (the kernel flags a dead end: Python records it)
    assert max(b for r in played.records for b in r["branching"]) > 32     # (`spread`: past the buffer's search)


def listings_that_search(path: str, players: int) -> set:
    """The actions whose rendered listing looks for each move among those listed before."""
    game, _, _ = load_game(path, players=players)
    functions = re.split(r"\n@njit[^\n]*\n", render(game))
    return {f.split("(")[0][len("def moves_"):] for f in functions if f.startswith("def moves_") and "seen_at" in f}


def test_only_domains_that_may_repeat_a_value_search_the_moves_listed_before():
    assert listings_that_search(MISMATCHES, 2) == {"say", "step", "pair", "spread", "pick"}
    # place(h in spots()), merge(r in regions()), associate(a in regions(), b in regions()):
    # functions that filter the board's hexes, or neighbours of a hex, each hex once
    assert listings_that_search("games/titicaca.rules", 5) == set()


def test_a_dead_end_at_max_moves_is_the_dead_end_error(mismatches):
    played = same_games(mismatches, SEEDS, max_moves=8)
    assert played.handed == dead_ends(played.records) != []
