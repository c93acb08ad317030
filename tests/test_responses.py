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


@pytest.mark.parametrize("name, players", [("tax-collectors", 2), ("tax-collectors", 4), ("raid", 3), ("raid", 4)])
def test_the_example_games_have_no_leak_and_no_broken_rule(name, players):
    game, diagnostics, _ = load_game(str(INTERACTIVE / f"{name}.rules"), (), players)
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


def test_a_search_bot_plays_the_example_game():
    from referee.interpreter.play.bots import ISMCTSBot
    game, _, _ = load_game(str(INTERACTIVE / "tax-collectors.rules"), (), 3)
    for bot in (ISMCTSBot(seed=1, iterations=20), ISMCTSBot(seed=2, iterations=20)):
        state = game.new_initial_state(5)
        while not state.is_terminal():
            state.apply(bot.choose(state) if state.current_player() == 1 else RandomBot(len(state.history)).choose(state))
        assert len(state.winners) == 1


def test_openspiel_numbers_a_move_inside_a_step_as_the_actions_move():
    pyspiel = pytest.importorskip("pyspiel")
    from referee.interpreter.adapters.openspiel_game import load_openspiel_game
    game = load_openspiel_game(INTERACTIVE / "tax-collectors.rules", players=3)
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    tax = next(a for a in state.legal_actions() if state.action_to_string(a) == "tax")
    state.apply_action(tax)
    challenge = {state.action_to_string(a): a for a in state.legal_actions()}
    assert sorted(challenge) == ["challenge", "skip"]
    state.apply_action(challenge["skip"])
    # the same move in a turn and inside a step: one id
    assert {state.action_to_string(a): a for a in state.legal_actions()} == challenge


def test_a_determinization_of_a_paused_step_draws_what_the_seat_cannot_see():
    import random
    from referee.interpreter.play.determinize import determinization
    game, _, _ = load_game(str(INTERACTIVE / "tax-collectors.rules"), (), 2)
    state = game.new_initial_state(3)
    state.apply("income")
    state.apply("tax")          # P2 claims a duke: P1 may challenge
    assert state.current_player() == 1 and state.legal_move_names() == ["challenge", "skip"]
    losers = set()
    rng = random.Random(1)
    for _ in range(40):
        sample = determinization(state, 1, rng)
        assert sample.view(1) == state.view(1) and sample.legal_move_names() == state.legal_move_names()
        sample.apply("challenge")
        losers.add(sample.current_player())
    # who loses a role depends on P2's hidden hand: both happen among the drawn hands
    assert losers == {1, 2}


@pytest.mark.filterwarnings("ignore:Observation:UserWarning")
def test_pettingzoo_plays_the_example_game():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test
    from referee.interpreter.adapters.pettingzoo_env import load_pettingzoo_env
    api_test(load_pettingzoo_env(INTERACTIVE / "tax-collectors.rules", players=3), num_cycles=200)


def raid_state(players, wanted):
    """A new game of raid.rules for the first seed whose hands pass `wanted(labels by seat)`."""
    game, diagnostics, _ = load_game(str(INTERACTIVE / "raid.rules"), (), players)
    assert not diagnostics
    for seed in range(500):
        state = game.new_initial_state(seed)
        hands = {p: Scenario(state).labels(("hand", p)) for p in range(1, players + 1)}
        if wanted(hands):
            return state, hands
    raise AssertionError("no such deal")


def blades(hand):
    return sorted(card for card in hand if card.startswith("blade"))


def test_a_window_asks_in_its_declared_priority_order():
    state, hands = raid_state(4, lambda h: all(blades(h[p]) for p in (1, 3, 4)))
    state.vars[("gold", 4)] = 3          # P4 is richer than P3: asked first to join
    state.changed()
    state.apply(f"raid P2 with {blades(hands[1])[0]}")
    assert state.current_player() == 4 and state.legal_move_names()[-1] == "skip"
    state.apply("skip")
    assert state.current_player() == 3
    joined = state.legal_move_names()[0]
    state.apply(joined)          # P3 joins: the window closes
    # next: P2's shield (the victim's window), or P2's turn when P2 holds none; P4 is not asked again
    assert state.current_player() == 2
    assert state.history[-3:] == [f"raid P2 with {blades(hands[1])[0]}", "skip", joined]


def test_a_procedure_used_in_two_places_asks_each_player_to_discard_down():
    state, hands = raid_state(3, lambda h: True)
    state.apply("feast")          # P2 and P3 hold 3 cards: nobody discards
    assert state.pending is None and state.current_player() == 2
    state.apply("draw")           # P2 holds 5: keeps them all
    state.apply("draw")           # P3 holds 5
    state.apply("feast")          # P1: P2 and P3 discard down to 3, P2 first, each choosing
    asked = []
    while state.pending is not None:
        asked.append(state.current_player())
        assert all(name.startswith("discard ") for name in state.legal_move_names())
        state.apply(state.legal_move_names()[0])
    assert asked == [2, 2, 3, 3]
    assert [len(Scenario(state).zone(("hand", p))) for p in (2, 3)] == [3, 3]


def test_a_trigger_asks_every_other_player_to_pay_the_bounty():
    state, hands = raid_state(3, lambda h: True)
    state.vars[("gold", 1)] = 3
    state.changed()
    state.apply("draw")
    assert state.pending is None
    state.vars[("gold", 1)] = 4       # (as if a raid had paid): the trigger fires after P2's move
    state.changed()
    state.apply("draw")
    asked = []
    while state.pending is not None:
        asked.append(state.current_player())
        assert state.legal_move_names() == ["pay the bounty", "skip"]
        state.apply("pay the bounty")
    assert asked == [2, 3] and Scenario(state).var(("gold", 2)) == 0
