"""`play A, B by P` inside a step (a procedure, an action's effect, a trigger, the flow): the
step stops with P's moves as the decision, and goes on after P's move with the player to move
as before (docs/language.md, "Moves inside a step")."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import DeadEnd, IllegalMove, RulesRuntimeError

from .scenario import Scenario

INTERACTIVE = Path(__file__).resolve().parent / "interactive"

# each player in turn gives: the next player discards one of their cards (their decision)
DISCARDS = """
game "Discards" { players 3 }
component Card { rank: int } label "card {rank}"
zone deck: pile of Card hidden
zone hand[Player]: row of Card owner
zone pile: pile of Card public
var given: int = 0
var after_discard: Player? = none
setup {
  for r in 1..9 { create 1 Card { rank: r } in deck }
  for p in players { deal 3 from deck to hand[p] }
}
proc make_discard(p: Player) {
  play discard by p
  after_discard = current
}
action discard(c in hand[current]) "discard {c}" public "discard a card" {
  move c to pile
}
action give "give" {
  given += 1
  make_discard(next(current))
}
action rest "rest" { }
flow {
  turns from 1 until given >= 3 { play give, rest }
}
"""


def loaded(write_rules, text, players=None):
    game, diagnostics, _ = load_game(str(write_rules(text)), (), players)
    assert not diagnostics, diagnostics
    return game


def test_a_move_inside_an_action_is_the_named_players_decision(write_rules):
    state = loaded(write_rules, DISCARDS).new_initial_state(1)
    assert state.legal_move_names() == ["give", "rest"]
    seen = Scenario(state)
    held = sorted(seen.labels(("hand", 2)))
    state.apply("give")
    assert state.current_player() == 2 and state.pending is not None
    assert sorted(state.legal_move_names()) == sorted(f"discard {c}" for c in held)
    with pytest.raises(IllegalMove):
        state.apply("give")          # not one of P2's moves here
    state.apply(f"discard {held[0]}")
    # the step went on: the discard was played by P2, then the turn passed from P1 to P2
    assert seen.var("after_discard") == 1
    assert state.current_player() == 2 and state.pending is None
    assert sorted(seen.labels(("hand", 2))) == held[1:]
    assert seen.labels("pile") == [held[0]]


def test_the_others_see_a_paused_players_move_by_its_public_text(write_rules):
    state = loaded(write_rules, DISCARDS).new_initial_state(2)
    state.apply("give")
    name = state.legal_move_names()[0]
    state.apply(name)
    seen_by = {seat: [text for text in state.view(seat)["moves"]] for seat in (1, 2, 3)}
    assert any(name in str(line) for line in seen_by[2])
    for seat in (1, 3):
        assert not any(name in str(line) for line in seen_by[seat])
        assert any("discard a card" in str(line) for line in seen_by[seat])


def test_a_clone_of_a_paused_state_goes_on_as_the_state_does(write_rules):
    state = loaded(write_rules, DISCARDS).new_initial_state(3)
    state.apply("give")
    copy = state.clone()
    name = state.legal_move_names()[-1]
    state.apply(name)
    copy.apply(name)
    assert copy.history == state.history and copy.current_player() == state.current_player()
    assert copy.zones == state.zones and copy.vars == state.vars


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_example_game_plays_to_its_end(players):
    game, diagnostics, _ = load_game(str(INTERACTIVE / "tax-collectors.rules"), (), players)
    assert not diagnostics
    for seed in range(30):
        state = game.new_initial_state(seed)
        moves = 0
        while not state.is_terminal():
            legal = state.legal_moves()
            state.apply(legal[(seed * 7 + moves) % len(legal)])
            moves += 1
        assert len(state.winners) == 1


FLOW_AND_TRIGGER = """
game "Asked" { players 2 }
var points[Player]: int = 0
var bonus: int = 0
action one "one" { points[current] += 1 }
action two "two" { points[current] += 2 }
trigger reward when points[1] >= 3 and bonus == 0 {
  bonus = 1
  play two by 2
}
flow {
  play optional one by 2
  play one by 1
  play one, two by 1
  play one by 2
}
"""


def test_a_move_by_a_named_player_in_the_flow_and_in_a_trigger(write_rules):
    state = loaded(write_rules, FLOW_AND_TRIGGER).new_initial_state(1)
    assert state.current_player() == 2 and state.legal_move_names() == ["one", "skip"]
    state.apply("skip")
    assert state.current_player() == 1
    state.apply("one")
    state.apply("two")            # P1 has 3 points: the trigger asks P2
    assert state.current_player() == 2 and state.legal_move_names() == ["two"]
    state.apply("two")
    assert state.current_player() == 2 and state.legal_move_names() == ["one"]
    state.apply("one")
    assert state.is_terminal()
    assert [Scenario(state).var(("points", p)) for p in (1, 2)] == [3, 3]


def test_a_player_with_no_move_is_a_dead_end_or_skipped_when_optional(write_rules):
    text = """
game "None left" { players 2 }
var n: int = 0
action take(k in 1..n) "take {k}" { n -= k }
action go "go" {
  play optional take by next(current)
  n += 1
  play take by next(current)
}
flow { play go }
"""
    state = loaded(write_rules, text).new_initial_state(1)
    assert state.current_player() == 1 and state.legal_move_names() == ["go"]
    state.apply("go")      # P2 has no move at the optional play: not asked; then one
    assert state.current_player() == 2 and state.legal_move_names() == ["take 1"]
    state.apply("take 1")
    assert state.is_terminal()
    text = text.replace("n += 1", "n += 0")
    with pytest.raises(DeadEnd, match="P2 must play \\(take\\) but has no legal move"):
        loaded(write_rules, text).new_initial_state(1).apply("go")


def test_decisions_nested_past_the_limit_stop_with_a_located_error(write_rules):
    text = """
game "Forever" { players 2 }
action again_and_again "again and again" { ask(next(current)) }
proc ask(p: Player) { play again_and_again by p }
flow { play again_and_again }
"""
    state = loaded(write_rules, text).new_initial_state(1)
    with pytest.raises(RulesRuntimeError, match="decisions nested deeper than 16") as raised:
        for _ in range(40):
            state.apply("again and again")
    assert raised.value.span is not None and raised.value.span.line == 4


TAX = {}


def tax_collectors(players):
    if players not in TAX:
        TAX[players] = load_game(str(INTERACTIVE / "tax-collectors.rules"), (), players)[0]
    return TAX[players]


@given(players=st.integers(2, 4), seed=st.integers(0, 1000), cut=st.integers(0, 40),
       picks=st.lists(st.integers(0, 50), min_size=60, max_size=60))
@settings(max_examples=30, deadline=None)
def test_a_clone_taken_anywhere_plays_on_as_the_original(players, seed, cut, picks):
    """Clones of states stopped inside a step go on by playing the step again: the same moves
    give the same game, whether the clone was taken in a turn, at a response or a loss."""
    state = tax_collectors(players).new_initial_state(seed)
    copy = None
    for k, pick in enumerate(picks):
        if state.is_terminal():
            break
        if k == cut:
            copy = state.clone()
        names = state.legal_move_names()
        state.apply(names[pick % len(names)])
        if copy is not None:
            copy.apply(names[pick % len(names)])
            assert copy.legal_move_names() == state.legal_move_names()
            assert (copy.zones, copy.vars, copy.current_player()) == (state.zones, state.vars, state.current_player())
