"""A Move made by hand, not taken from legal_moves, is refused like any illegal move: IllegalMove
with a reason, the state as it was (never a TypeError or IndexError from inside the engine)."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.engine.moves import Move
from referee.interpreter.runtime.errors import IllegalMove

GAMES = Path(__file__).resolve().parents[1] / "games"


def forged_like(move, state, owner):
    """Moves that copy a legal move but change its action index, arguments or kind."""
    bad_id = tuple(10**6 for _ in move.args)
    return [
        Move("action", move.action, bad_id, None, state, owner),              # a component id of nothing
        Move("action", 10**6, move.args, None, state, owner),                 # an action index of nothing
        Move("action", -1, move.args, None, state, owner),                    # (not Python's last one)
        Move("action", "pass", move.args, None, state, owner),
        Move("action", move.action, move.args + (0,), None, state, owner),    # one argument too many
        Move("action", move.action, move.args[:-1], None, state, owner),      # one too few
        Move("action", move.action, ("a",) * len(move.args), None, state, owner),
        Move("action", move.action, None, None, state, owner),
        Move("choice", 7, (10**6,), None, state, owner),
        Move(None, None, None, None, None, owner),
    ]


@pytest.mark.parametrize("name", ["tic-tac-toe", "continents", "hearts"])
def test_a_forged_move_is_an_illegal_move_and_changes_nothing(name):
    game, diagnostics, _ = load_game(str(GAMES / f"{name}.rules"))
    assert not diagnostics
    state = game.new_initial_state(seed=3)
    legal = state.legal_moves()
    move = next(m for m in legal if m.kind == "action" and m.args)
    before = (list(state.history), state.view(1))
    # (made from nothing: a move that carries the listing's own segments, an internal, is taken
    # as listed, so that a playout's moves play without a scan)
    for forged in forged_like(move, state, None):
        with pytest.raises(IllegalMove) as refused:
            state.apply(forged)
        assert refused.value.reason
        assert (list(state.history), state.view(1)) == before
    state.apply(move)                      # the real one still plays
    assert len(state.history) == len(before[0]) + 1


def test_a_move_made_by_hand_with_a_legal_name_plays_that_move():
    game, _, _ = load_game(str(GAMES / "tic-tac-toe.rules"))
    state = game.new_initial_state(seed=1)
    move = state.legal_moves()[4]
    state.apply(Move("action", move.action, move.args, None, state))
    assert state.history == [move.name]
