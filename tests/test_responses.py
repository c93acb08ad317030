"""Response windows: `respond p in ORDER { play A, B } else { ... }` asks each player of ORDER
in turn whether to play a move of the actions; the first who does closes the window, `else`
runs when nobody did, and a window may open inside the effect of a response (a block, then a
challenge of the block). docs/language.md, "Response windows"."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.interpreter.engine import load_game
from referee.interpreter.play.bots import RandomBot
from referee.interpreter.tools.verify import verify

from .scenario import Scenario

INTERACTIVE = Path(__file__).resolve().parent / "interactive"

WINDOW = """
game "Window" { players 4 }
var stolen: int = 0
var blocked_by: Player? = none
var challenged_by: Player? = none
action steal "steal" {
  respond p in filter(q in players where q != current) { play block } else {
    stolen += 1
  }
}
action block "block" {
  blocked_by = current
  respond p in [3, 1] { play challenge }
}
action challenge "challenge" {
  challenged_by = current
}
flow { play steal }
"""


def window(write_rules, text=WINDOW):
    game, diagnostics, _ = load_game(str(write_rules(text)))
    assert not diagnostics, diagnostics
    return game.new_initial_state(1)


def test_players_are_asked_in_the_declared_order_and_may_skip(write_rules):
    state = window(write_rules)
    state.apply("steal")
    asked = []
    while not state.is_terminal():
        asked.append(state.current_player())
        assert state.legal_move_names() == ["block", "skip"]
        state.apply("skip")
    assert asked == [2, 3, 4]
    assert Scenario(state).var("stolen") == 1 and Scenario(state).var("blocked_by") is None


def test_the_first_response_closes_the_window_and_the_else_does_not_run(write_rules):
    state = window(write_rules)
    state.apply("steal")
    state.apply("skip")           # P2
    state.apply("block")          # P3 blocks: P4 is not asked
    # a window inside the response, in its own order ([3, 1]): the blocker may challenge itself
    assert state.current_player() == 3 and state.legal_move_names() == ["challenge", "skip"]
    state.apply("skip")
    assert state.current_player() == 1
    state.apply("challenge")
    seen = Scenario(state)
    assert state.is_terminal()
    assert (seen.var("stolen"), seen.var("blocked_by"), seen.var("challenged_by")) == (0, 3, 1)


def test_a_response_is_seen_by_everybody_as_the_responders_move(write_rules):
    state = window(write_rules)
    state.apply("steal")
    state.apply("block")
    view = state.view(4)
    assert state.public_history[-1] == (2, "block")
    assert view["choice"]["chooser"] == 3 and "challenge" in view["choice"]["prompt"]


def test_a_window_whose_players_have_no_move_asks_nobody(write_rules):
    text = WINDOW.replace('action block "block" {', 'action block "block" {\n  require false')
    state = window(write_rules, text)
    state.apply("steal")
    assert state.is_terminal() and Scenario(state).var("stolen") == 1


@pytest.mark.parametrize("players", [2, 4])
def test_the_example_game_has_no_leak_and_no_broken_rule(players):
    game, diagnostics, _ = load_game(str(INTERACTIVE / "tax-collectors.rules"), (), players)
    assert not diagnostics
    report = verify(game, games=12)
    assert report.failures == [] and report.finished == 12


def test_the_others_do_not_see_a_paused_players_hand():
    game, _, _ = load_game(str(INTERACTIVE / "tax-collectors.rules"), (), 3)
    state = game.new_initial_state(4)
    state.apply("tax")
    state.apply("challenge")       # P2 challenges P1's duke: one of them must lose a role
    loser = state.current_player()
    assert state.legal_move_names()[0].startswith("lose ")
    for seat in (1, 2, 3):
        view = state.view(seat)
        assert view["choice"]["chooser"] == loser
        if seat != loser:
            assert "legal_moves" not in view and "items" not in view["zones"][f"hand[P{loser}]"]
            assert not any(move.startswith("lose ") for move in view["moves"])


def test_random_bots_play_the_example_game_move_for_move_alike():
    game, _, _ = load_game(str(INTERACTIVE / "tax-collectors.rules"), (), 4)
    histories = []
    for _ in range(2):
        state, bot = game.new_initial_state(11), RandomBot(11)
        while not state.is_terminal():
            state.apply(bot.choose(state))
        histories.append(list(state.history))
    assert histories[0] == histories[1] and any(m == "challenge" for m in histories[0])
