"""Components and zones in native playouts (issue 24): tests/native/cards.rules creates,
shuffles, deals, moves (on top, under, all of a zone, all of a type), reads top, bottom, size,
membership and attributes, loops over zones and lists moves of identical cards once; its native
games, and those of Kuhn poker and Love Letter, are the Python engine's, move for move. Three
kernels are compiled here (Numba's cache keeps them between runs)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.play.simulate import simulate_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.kernel import TO_PYTHON, load_kernel  # noqa: E402
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402

CARDS = "tests/native/cards.rules"


@pytest.fixture(scope="module")
def cards():
    game, diagnostics, _ = load_game(CARDS, players=3)
    assert game is not None, diagnostics
    return load_kernel(game)


@pytest.fixture(scope="module", params=[("kuhn-poker", 2), ("love-letter", 3)], ids=lambda p: f"{p[0]}-{p[1]}p")
def card_game(request):
    name, players = request.param
    game, diagnostics, _ = load_game(f"games/{name}.rules", players=players)
    assert game is not None, diagnostics
    return load_kernel(game)


def in_python(kernel, max_moves, details=False):
    return lambda seed: simulate_game(kernel.game, seed, max_moves, details=details)


def test_card_games_are_the_python_games(cards):
    seeds = range(1, 81)
    native = cards.records(seeds, 10_000, in_python(cards, 10_000))
    python = [simulate_game(cards.game, seed, 10_000) for seed in seeds]
    assert native == python
    assert len({tuple(r["winners"]) for r in python}) > 2
    status = cards.play(list(seeds), 10_000)[0]
    assert np.count_nonzero(status == TO_PYTHON) < 4       # (played natively, not replayed)


def test_the_card_games_of_games_are_the_python_games(card_game):
    """Kuhn poker (procedures, the cards shown) and Love Letter (five identical Guards, rounds
    dealt again from all the cards, rankings by two keys): the records of the Python engine."""
    seeds = range(1, 41)
    native = card_game.records(seeds, 10_000, in_python(card_game, 10_000))
    assert native == [simulate_game(card_game.game, seed, 10_000) for seed in seeds]
    assert np.count_nonzero(card_game.play(list(seeds), 10_000)[0] == TO_PYTHON) == 0


def test_identical_cards_make_one_move(cards):
    """Two identical hearts 9 in a hand are one move, as the engine lists them: the branching
    of every move is the engine's."""
    seeds = range(1, 31)
    native = [cards.detailed(seed, 10_000, in_python(cards, 10_000, True)) for seed in seeds]
    python = [simulate_game(cards.game, seed, 10_000, details=True) for seed in seeds]
    assert [r["branching"] for r in native] == [r["branching"] for r in python]


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=5), st.integers(1, 60))
def test_any_seeds_and_move_limit_give_the_python_records(cards, seeds, max_moves):
    assert cards.records(seeds, max_moves, in_python(cards, max_moves)) == \
        [simulate_game(cards.game, seed, max_moves) for seed in seeds]


def test_a_write_to_an_attribute_is_refused_with_its_line(tmp_path):
    rules = tmp_path / "marks.rules"
    rules.write_text(open(CARDS).read().replace("  move c to table\n", "  move c to table\n  c.gift = 1\n"))
    game, diagnostics, _ = load_game(str(rules), players=2)
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    assert refused.value.note() == f"{rules}:41: a write to the attribute gift has no native form yet"
