"""Components created and destroyed in play in native playouts (issue 24, interpreter/native/
created_source.py): `create` of a type declared `max N` in an action, a procedure and a
trigger, `destroy` of an argument and of a variable, identical components listed as one move,
loops and counts over a type whose components come and go, given the engine's ids. A game past
a maximum (the engine's runtime error) or past the kernel's room of ids is played in Python.
Writes to their attributes (created_writes.py), owner-only attributes, lists of them as a move's
argument and in a list variable: tests/native/forge.rules. Two kernels compiled per run at most
(Numba's cache keeps them)."""
import pytest

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.created_source import CREATIONS_ROOM  # noqa: E402
from referee.interpreter.native.rules_source import KernelSource, NotNative, render  # noqa: E402
from tests.native_support import game_of, kernel_of, natively, same_games  # noqa: E402

CREATED = "tests/native/created.rules"
FORGE = "tests/native/forge.rules"


@pytest.fixture(scope="module")
def mint():
    return kernel_of(CREATED, 3)


def test_games_that_create_and_destroy_play_the_python_games(mint):
    played = same_games(mint, range(1, 81))
    errors = [r["seed"] for r in played.records if r["error"] is not None]
    # the games past a maximum (the engine's error) are Python's, and only those
    assert errors and played.handed == errors
    finished = [r for r in played.records if r["finished"]]
    assert len(finished) > 40 and {tuple(r["winners"]) for r in finished} >= {(1,), (2,), (3,)}


def test_a_game_stopped_at_max_moves_is_the_same_unfinished_game(mint):
    records = same_games(mint, range(1, 11), max_moves=25).records
    assert not any(r["finished"] for r in records)


def test_the_ids_have_room_for_every_creation_the_rules_allow():
    source = KernelSource(game_of(CREATED, 3))
    # Coin (max 6) and Token (max 4) are destroyed: each may be made anew, CREATIONS_ROOM times more
    assert source.created_types == ["Coin", "Token"]
    assert source.components - source.static_components == 6 + 4 + 2 * CREATIONS_ROOM
    assert source.zone_room("Coin") == 6 and source.zone_room("Seal") == 2


RULES = '''game "Small mint" {{ players 2 }}
component Coin {{ value: int }} max 3
zone purse[Player]: row of Coin public
{declarations}
action mint "mint" {{ create 1 Coin {{ value: 1 }} in purse[current] }}
{action}
flow {{ turns from 1 until count(c in Coin) == 3 {{ play mint{plays} }} }}
'''


def refusal(write_rules, declarations: str = "", action: str = "", plays: str = "") -> str:
    path = write_rules(RULES.format(declarations=declarations, action=action, plays=plays))
    game, diagnostics, _ = load_game(str(path))
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    return refused.value.note()


@pytest.fixture(scope="module")
def forge():
    return kernel_of(FORGE, 3)


def test_created_components_that_change_play_the_python_games(forge):
    # writes to their attributes (labels made again: twins merged, then told apart), an
    # owner-only attribute, lists of them as a move's argument, a list variable that holds them
    records = natively(forge, range(1, 61))
    assert all(r["finished"] for r in records) and {tuple(r["winners"]) for r in records} >= {(1,), (2,), (3,)}
    same_games(forge, range(61, 71), max_moves=20, details=True)


def test_a_write_to_an_attribute_of_a_type_another_attribute_may_hold_is_refused_with_its_line(write_rules):
    note = refusal(write_rules, declarations="component Tag { coin: Coin? }",
                   action='action grow(c in purse[current]) "grow {c}" {\n  c.value = 2\n}', plays=", grow")
    assert ":7:" in note and "Tag.coin" in note


def test_destroy_of_a_component_a_set_variable_may_hold_is_refused(write_rules):
    note = refusal(write_rules, declarations="var saved: set of Coin = {}",
                   action='action melt(c in purse[current]) "melt {c}" {\n  destroy c\n}', plays=", melt")
    assert ":7:" in note and "saved" in note


def test_a_game_that_creates_only_in_its_setup_keeps_the_setup_tables(write_rules):
    text = RULES.format(declarations="", action="", plays="").replace(
        'action mint "mint" { create 1 Coin { value: 1 } in purse[current] }',
        'setup { create 3 Coin { value: 1 } in purse[1] }\naction mint "mint" { }').replace(
        "until count(c in Coin) == 3", "until false")
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert game is not None, diagnostics
    source = KernelSource(game)
    assert source.created_types == [] and source.components == source.static_components == 3
