"""Continents in native playouts (issue 24): its kernel's games are the Python engine's, move
for move, in the short game and the normal one; tests/native/stacks.rules holds in a small
game what Continents needed (texts as codes, a zone read by position, `reversed` of a zone,
lets in an action's guard, a `let` inside an `if` branch); what is still refused names itself
and its line. Three kernels are compiled here (Numba's cache keeps them between runs)."""
import pytest

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402
from tests.native_support import kernel_of, natively, same_games  # noqa: E402

STACKS = "tests/native/stacks.rules"


def loaded(path, players, options=()):
    game, diagnostics, _ = load_game(path, players=players, options=options)
    assert game is not None, diagnostics
    return game


@pytest.fixture(scope="module")
def stacks():
    return kernel_of(STACKS, 3)


@pytest.fixture(scope="module", params=[(2, ()), (3, ("normal",))], ids=["2p", "3p-normal"])
def continents(request):
    players, options = request.param
    return kernel_of("games/continents.rules", players, options)


def test_continents_plays_as_in_python(continents):
    python = natively(continents, range(1, 31))
    assert len({tuple(r["winners"]) for r in python}) >= 2


def test_continents_stopped_early_plays_as_in_python(continents):
    same_games(continents, range(100, 110), 25)


def test_continents_lists_the_moves_the_engine_lists(continents):
    """The number of legal moves before each move (analyze's branching) and the moves played
    per seat and action are the engine's: `strike`'s lightning, filtered once a listing
    (placed_listing_source.py), and identical cards kept once."""
    python = same_games(continents, range(1, 11), details=True).records     # (branching and actions too)
    assert any("strike" in per_seat for r in python for per_seat in r["actions"].values())


def test_the_stacks_game_plays_as_in_python(stacks):
    python = natively(stacks, range(1, 61))
    assert len({tuple(r["winners"]) for r in python}) >= 3


@pytest.mark.parametrize("change, line, what", [
    ("let below = under_top(s)", "let below = pick(place[s])", "a let of the guard that draws"),
])
def test_what_is_not_native_yet_is_named_with_its_line(tmp_path, change, line, what):
    rules = tmp_path / "stacks.rules"
    text = open(STACKS).read()
    assert change in text
    rules.write_text(text.replace(change, line))
    with pytest.raises(NotNative) as refused:
        render(loaded(str(rules), 2))
    number = next(k for k, row in enumerate(rules.read_text().splitlines(), 1) if line in row)
    assert refused.value.note() == f"{rules}:{number}: {what}"
