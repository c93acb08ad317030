"""Fuzzing the whole pipeline with the repository's own games, mutated: tokens deleted,
doubled or swapped, numbers blown up, expressions and blocks nested deeply, the file cut short,
bytes flipped, odd characters put in. Whatever comes out, `load_game` gives located
diagnostics, or a game that plays a few random moves with at most a located runtime error:
never an internal error (a Python exception), a hang or a memory blowup.

The default run tries a few examples (REFEREE_FUZZ_EXAMPLES, default 40; about a second). A
longer run (3,000 examples: about 35 s; README.md lists it too):

    REFEREE_FUZZ_EXAMPLES=3000 python -m pytest -q -p no:cacheprovider tests/test_fuzz.py
"""
from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.dsl.diagnostics import Diagnostic, RulesError
from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError

from .conftest import GAMES, game_files
from .rules_mutations import time_limit

EXAMPLES = int(os.environ.get("REFEREE_FUZZ_EXAMPLES", "40"))
SECONDS = 60          # one example taking longer than this is a hang
MOVES = 30

TOKEN = re.compile(rb'"""(?:.|\n)*?"""|"(?:[^"\\\n]|\\.)*"|#[^\n]*|\w+|==|!=|<=|>=|\+=|-=|//|\.\.|\s+|\S')
FILES = [path.relative_to(GAMES) for path in game_files()]
# (not a million: a binder over 1..1000000 beside others lists millions of moves, which is the
# business of the runtime's step budget, not of the front end)
NUMBERS = [b"0", b"-1", b"1000", b"999999999", b"1000000000 * 1000000000", b"9" * 18, b"9" * 19, b"9" * 5000]
ODD = [b"\t", b"\f", b"\v", b"\x00", b"\xc2\x85", b"\xe2\x80\xa8", b"\xef\xbb\xbf", b"\r", b"\\", b'"""', b"\xff"]


@pytest.fixture(scope="module")
def games_copy(tmp_path_factory):
    """A copy of games/ (the variants find their base files there); mutants are written in it."""
    root = tmp_path_factory.mktemp("fuzz") / "games"
    shutil.copytree(GAMES, root)
    return root


def mutate(data: bytes, rng: random.Random) -> bytes:
    tokens = TOKEN.findall(data)
    solid = [i for i, t in enumerate(tokens) if not t.isspace()] or [0]
    numbers = [i for i, t in enumerate(tokens) if t.isdigit()] or solid
    words = [i for i, t in enumerate(tokens) if re.match(rb"\w", t)] or solid
    for _ in range(rng.randint(1, 2)):
        i, j = rng.choice(solid), rng.choice(solid)
        kind = rng.randrange(10)
        if kind == 0:
            tokens[i] = b""                                          # delete a token
        elif kind == 1:
            tokens[i] = tokens[i] + b" " + tokens[i]                 # double it
        elif kind == 2:
            tokens[i], tokens[j] = tokens[j], tokens[i]              # swap two
        elif kind == 3:
            tokens[rng.choice(numbers)] = rng.choice(NUMBERS)        # blow up a number
        elif kind == 4:                                              # nest deeply
            n = rng.choice([30, 60, 120, 600])
            i, j = min(i, j), max(i, j)
            opening, closing = rng.choice([(b"(", b")"), (b"{", b"}"), (b"[", b"]"), (b"not ", b""),
                                           (b"- ", b""), (b"if true { ", b"}")])
            tokens[i] = opening * n + tokens[i]
            tokens[j] = tokens[j] + closing * n
        elif kind == 5:
            tokens[i] += rng.choice(ODD)                             # an odd character
        elif kind == 6:
            tokens[i] = tokens[i] + b" " + tokens[j]                 # a token copied elsewhere
        elif kind == 7:
            tokens[rng.choice(words)] = tokens[rng.choice(words)]    # a word for another
        else:
            text = b"".join(tokens)                                  # bytes: cut, flipped
            if kind == 8:
                return text[:rng.randrange(len(text) + 1)]
            flipped = bytearray(text)
            for _ in range(rng.randint(1, 4)):
                flipped[rng.randrange(len(flipped))] ^= rng.randrange(1, 256)
            return bytes(flipped)
    return b"".join(tokens)


def load_and_play(path: Path, seed: int):
    game, diagnostics, sources = load_game(str(path))
    if game is None:
        assert diagnostics, "no game and no diagnostic"
        for d in diagnostics:
            assert isinstance(d, Diagnostic) and re.fullmatch(r"E\d{3}", d.code)
            assert d.span.line >= 0 and d.span.column >= 0 and d.span.file
        RulesError(diagnostics, sources).render()          # rendering never raises either
        return "diagnostics"
    assert diagnostics == []
    rng = random.Random(seed)
    try:
        state = game.new_initial_state(seed=seed)
        for _ in range(MOVES):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_moves()))
    except RulesRuntimeError as error:                    # a rules bug the mutation made: located
        assert "runtime error" in str(error)
        return "runtime error"
    return "played"


@settings(max_examples=EXAMPLES, deadline=None, derandomize=False,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(name=st.sampled_from(FILES), seed=st.integers(0, 2 ** 32 - 1))
@pytest.mark.slow
def test_mutated_games_give_diagnostics_or_play(games_copy, name, seed):
    original = (GAMES / name).read_bytes()
    mutant = games_copy / name.parent / f"mutant-{name.name}"
    mutant.write_bytes(mutate(original, random.Random(seed)))
    with time_limit(SECONDS):
        load_and_play(mutant, seed)


def test_the_mutations_reach_every_outcome(games_copy):
    """The fuzzer is not blind: its mutants give diagnostics, and games that play (some with a
    runtime error)."""
    outcomes = set()
    for seed in range(400):
        name = FILES[seed % len(FILES)]
        mutant = games_copy / name.parent / f"mutant-{name.name}"
        mutant.write_bytes(mutate((GAMES / name).read_bytes(), random.Random(seed)))
        with time_limit(SECONDS):
            outcomes.add(load_and_play(mutant, seed))
        if outcomes >= {"diagnostics", "played"}:
            break
    assert outcomes >= {"diagnostics", "played"}
