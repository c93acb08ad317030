"""Triggers that decide in native playouts (issue 24, interpreter/native/triggers_source.py): a
trigger that asks the others in turn (`respond`), one that asks a choice and a move (`choose`,
`play optional ... by`), and the moves played inside them setting off the triggers again,
nested as Python nests them (past TRIGGER_LEVELS, the game is played in Python), and the same
through a procedure that decides and an action that decides (their copies per level). Three
kernels, tests/native/triggers.rules, tests/native/triggers-through-calls.rules and
tests/interactive/raid.rules (a bounty that each other player may pay), compiled once per run at
most (Numba's cache keeps them)."""
import pytest


numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from tests.native_support import kernel_of, natively, same_games  # noqa: E402

TRIGGERS = "tests/native/triggers.rules"
THROUGH_CALLS = "tests/native/triggers-through-calls.rules"


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


def test_a_trigger_that_calls_a_procedure_or_plays_an_action_that_decides_plays_the_python_games():
    # the alarm's respond is in a procedure it calls; the ring an echo plays asks for a move
    played = same_games(kernel_of(THROUGH_CALLS, 3), range(1, 61))
    assert all(r["finished"] for r in played.records) and len(played.handed) < 30

