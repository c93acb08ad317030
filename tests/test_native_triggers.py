"""Triggers that decide in native playouts (issue 24, interpreter/native/triggers_source.py): a
trigger that asks the others in turn (`respond`), one that asks a choice and a move (`choose`,
`play optional ... by`), and the moves played inside them setting off the triggers again,
nested as Python nests them (past TRIGGER_LEVELS, the game is played in Python). Two kernels,
tests/native/triggers.rules and tests/interactive/raid.rules (a bounty that each other player may
pay), compiled once per run at most (Numba's cache keeps them)."""
import pytest

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402
from tests.native_support import kernel_of, natively, same_games  # noqa: E402

TRIGGERS = "tests/native/triggers.rules"


@pytest.fixture(scope="module")
def alarms():
    return kernel_of(TRIGGERS, 3)


def test_triggers_that_decide_play_the_python_games(alarms):
    played = same_games(alarms, range(1, 101))
    assert all(r["finished"] for r in played.records)
    # a chain of triggers nested past the kernel's levels: those games are Python's
    assert 0 < len(played.handed) < 50


def test_a_game_stopped_at_max_moves_inside_a_trigger_is_the_same_unfinished_game(alarms):
    records = same_games(alarms, range(1, 21), max_moves=9).records
    assert not any(r["finished"] for r in records)


def test_raid_plays_natively_with_its_bounty_trigger():
    records = natively(kernel_of("tests/interactive/raid.rules", 3), range(1, 41))
    assert all(r["finished"] for r in records)


def test_a_trigger_that_plays_an_action_that_decides_is_refused_with_its_line(write_rules):
    text = open(TRIGGERS, encoding="utf-8").read().replace(
        'action ring "ring" { bell += 6 }', 'action ring "ring" {\n  play optional give by current\n}')
    game, diagnostics, _ = load_game(str(write_rules(text)), players=2)
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    assert "plays ring, which decides" in refused.value.note() and ":52:" in refused.value.note()

