"""Components and zones in native playouts (issue 24): tests/native/cards.rules creates,
shuffles, deals, moves (on top, under, all of a zone, all of a type), reads top, bottom, size,
membership and attributes (of cards and, written, of chips), a variable indexed by cards,
rankings, `Enum[k]`, `let ... in`, `//` and `%`, loops over zones and lists moves of identical
cards once; its native
games, and those of Kuhn poker and Love Letter, are the Python engine's, move for move. Three
kernels are compiled here (Numba's cache keeps them between runs)."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402
from tests.native_support import kernel_of, natively, same_games  # noqa: E402

CARDS = "tests/native/cards.rules"


@pytest.fixture(scope="module")
def cards():
    return kernel_of(CARDS, 3)


@pytest.fixture(scope="module", params=[("kuhn-poker", 2), ("love-letter", 3)], ids=lambda p: f"{p[0]}-{p[1]}p")
def card_game(request):
    name, players = request.param
    return kernel_of(f"games/{name}.rules", players)


def test_card_games_are_the_python_games(cards):
    played = same_games(cards, range(1, 81))
    assert len({tuple(r["winners"]) for r in played.records}) > 2
    assert len(played.handed) < 4       # (played natively, not replayed)


def test_the_card_games_of_games_are_the_python_games(card_game):
    """Kuhn poker (procedures, the cards shown) and Love Letter (five identical Guards, rounds
    dealt again from all the cards, rankings by two keys): the records of the Python engine."""
    natively(card_game, range(1, 41))


def test_identical_cards_make_one_move(cards):
    """Two identical hearts 9 in a hand are one move, as the engine lists them: the branching
    of every move is the engine's."""
    same_games(cards, range(1, 31), details=True)          # (the branching, and the moves by action)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=5), st.integers(1, 60))
def test_any_seeds_and_move_limit_give_the_python_records(cards, seeds, max_moves):
    same_games(cards, seeds, max_moves)


def test_a_write_to_the_attribute_of_an_action_argument_is_refused_with_its_line(tmp_path):
    """(Its label, and so which moves look alike, would change.)"""
    rules = tmp_path / "marks.rules"
    rules.write_text(open(CARDS).read().replace("  move c to table\n", "  move c to table\n  c.gift = 1\n"))
    game, diagnostics, _ = load_game(str(rules), players=2)
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    assert refused.value.note() == f"{rules}:50: a write to the attribute gift of a Card, an action's argument"
