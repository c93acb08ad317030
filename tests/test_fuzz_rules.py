"""Mutated games (tests/rules_mutations.py: names swapped, types made optional or lists,
numbers and ranges changed, lines moved, `extends` misplaced) run through the whole pipeline:
located diagnostics, a located runtime error or a game that plays, and nothing else.

The default profile tries a few mutants (a few seconds); HYPOTHESIS_PROFILE=ci more. A long
run, by hand, one process per mutant: `python -m tests.rules_mutations --count 5000`.
"""
from __future__ import annotations

import random
import shutil

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from . import rules_mutations
from .conftest import GAMES, game_files
from .rules_mutations import MUTATIONS, Unacceptable, declared_names, examine, time_limit, write_mutant

FILES = [path.relative_to(GAMES) for path in game_files()]


@pytest.fixture(scope="module")
def games_copy(tmp_path_factory):
    """A copy of games/ (the variants find their base files there); mutants are written in it."""
    root = tmp_path_factory.mktemp("fuzz-rules") / "games"
    shutil.copytree(GAMES, root)
    return root


@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(name=st.sampled_from(FILES), seed=st.integers(0, 2 ** 32 - 1))
@pytest.mark.slow
def test_a_mutated_game_gives_diagnostics_a_located_error_or_plays(games_copy, name, seed):
    mutant, applied = write_mutant(games_copy, games_copy / name, seed)
    with time_limit(rules_mutations.SECONDS):
        outcome, _ = examine(mutant, seed, play_seconds=1)
    assert outcome in ("diagnostics", "runtime error", "python error", "played"), applied


def test_every_mutation_changes_a_game():
    text = (GAMES / "love-letter.rules").read_text(encoding="utf-8")
    for mutation in MUTATIONS:
        changed = sum(mutation(text, random.Random(seed)) != text for seed in range(20))
        assert changed >= 10, mutation.__name__


def test_names_are_swapped_for_names_of_the_same_file():
    names = declared_names((GAMES / "love-letter.rules").read_text(encoding="utf-8"))
    assert {"deck", "hand"} <= set(names["zone"]) and "Card" in names["component"]
    assert "guard" in names["member"] and "holds" in names["fn"]


def test_the_mutants_reach_the_checker_the_compiler_and_the_engine(games_copy):
    """Not blind: some mutants are refused, some play (the checker let them through)."""
    outcomes = set()
    for seed in range(60):
        mutant, _ = write_mutant(games_copy, games_copy / FILES[seed % len(FILES)], seed)
        with time_limit(rules_mutations.SECONDS):
            outcomes.add(examine(mutant, seed, play_seconds=1)[0])
        if {"diagnostics", "played"} <= outcomes:
            break
    assert {"diagnostics", "played"} <= outcomes


def test_an_unlocated_failure_is_unacceptable(write_rules):
    """The harness itself: a game whose runtime error has no place would be reported."""
    with pytest.raises(Unacceptable, match="without a place"):
        rules_mutations.located_runtime_error(rules_mutations.RulesRuntimeError("lost"))


def test_a_broken_promise_of_the_engine_is_found():
    """The harness itself: states that no rules should be able to make are reported."""
    from referee.interpreter.engine import load_game
    game, _, _ = load_game(str(GAMES / "love-letter.rules"), players=2)
    state = game.new_initial_state(seed=1)
    assert rules_mutations.broken_promise(state) is None
    for change, problem in ((lambda s: setattr(s, "current", 3), "the player to move is 3"),
                            (lambda s: s.vars.__setitem__("starter", None), "of type Player holds none"),
                            (lambda s: s.vars.__setitem__(("tokens", 5), 1), "outside its declared indexes"),
                            (lambda s: s.zones.__setitem__(("hand", 9), [0]), "outside its declared indexes")):
        broken = state.clone()
        change(broken)
        assert problem in rules_mutations.broken_promise(broken)
