"""Explicit chance: load_game(..., chance="explicit") stops at every shuffle and pick as a chance
node (current_player() == CHANCE) whose outcomes and probabilities the State API gives."""
import itertools
from collections import Counter
from fractions import Fraction

import pytest

from referee.interpreter.play.bots import RandomBot
from referee.interpreter.runtime import CHANCE
from referee.interpreter.engine import load_game

GAME = """
game "Deal" { players 2 }
component Card { rank: int } label "{rank}"
zone deck: pile of Card hidden
zone hand[Player]: row of Card owner
zone table: row of Card public
var roll: int = 0
setup {
  create 1 Card { rank: 1 } in deck
  create 1 Card { rank: 2 } in deck
  create 2 Card { rank: 3 } in deck
  shuffle deck
  for p in players {
    deal 1 from deck to hand[p]
  }
}
action throw "throw" {
  roll = pick(1..6)
}
action steal "steal" {
  log "P1 steals a card from P2"
  let card = pick(hand[2])
  move card to table
}
flow {
  turn 1 { play throw, steal }
  finish winners [1]
}
"""


@pytest.fixture
def game(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(GAME)), chance="explicit")
    assert diagnostics == []
    return game


def outcomes(state):
    return [(move.name, probability) for move, probability in state.chance_outcomes()]


def ranks(state, zone):
    return [state.entities[x]["rank"] for x in state.zones.get(zone, [])]


def test_the_shuffle_of_the_setup_is_a_chance_node_per_position(game):
    state = game.new_initial_state(0)
    assert state.current_player() == CHANCE and state.is_chance_node()
    # the top card: the two identical 3s are one outcome, twice as likely
    assert outcomes(state) == [("1", 0.25), ("2", 0.25), ("3", 0.5)]
    state.apply("3")
    assert outcomes(state) == [("1", 1 / 3), ("2", 1 / 3), ("3", 1 / 3)]
    state.apply("1")
    assert outcomes(state) == [("3", 0.5), ("2", 0.5)]
    state.apply("2")
    assert not state.is_chance_node() and state.current_player() == 1
    assert ranks(state, ("hand", 1)) == [3] and ranks(state, ("hand", 2)) == [1]     # the top card first
    assert ranks(state, "deck") == [3, 2]


def test_every_order_of_the_deck_is_equally_likely(game):
    """All paths through the chance nodes of the shuffle: 4!/2! orders, 1/12 each."""
    found = Counter()

    def walk(state, probability):
        if not state.is_chance_node():
            found[(tuple(ranks(state, ("hand", 1))), tuple(ranks(state, ("hand", 2))), tuple(ranks(state, "deck")))] += probability
            return
        for move, p in state.chance_outcomes():
            after = state.clone()
            after.apply(move.name)
            walk(after, probability * Fraction(p).limit_denominator(100))
    walk(game.new_initial_state(0), Fraction(1))
    orders = set(itertools.permutations([1, 2, 3, 3]))
    assert len(found) == len(orders) == 12
    assert set(found.values()) == {Fraction(1, 12)}


def test_a_pick_is_a_chance_node(game):
    state = game.new_initial_state(0)
    for name in ("3", "1", "2"):
        state.apply(name)
    state.apply("throw")
    assert state.current_player() == CHANCE
    assert outcomes(state) == [(str(k), 1 / 6) for k in range(1, 7)]
    state.apply("4")
    assert state.vars["roll"] == 4 and state.is_terminal()
    # dice are public; the deal was not
    assert state.public_history == [(CHANCE, "?"), (CHANCE, "?"), (CHANCE, "?"), (1, "throw"), (CHANCE, "4")]


def test_what_is_picked_from_a_hidden_zone_is_not_shown(write_rules):
    text = GAME.replace("  shuffle deck\n", "").replace("deal 1 from deck to hand[p]", "deal 2 from deck to hand[p]")
    game, diagnostics, _ = load_game(str(write_rules(text)), chance="explicit")
    assert diagnostics == []
    state = game.new_initial_state(0)                # no shuffle: P1 holds 3 and 3, P2 holds 2 and 1
    assert ranks(state, ("hand", 2)) == [2, 1]
    state.apply("steal")
    assert state.is_chance_node() and outcomes(state) == [("2", 0.5), ("1", 0.5)]
    state.apply("1")
    assert ranks(state, "table") == [1]
    assert state.public_history[-1] == (CHANCE, "?")      # which card was drawn, only the table tells
    assert "chance: ?" in state.view(1)["moves"]


def test_a_clone_at_a_chance_node_goes_on_as_its_original(game):
    state = game.new_initial_state(0)
    state.apply("2")
    twin = state.clone()
    for s in (state, twin):
        s.apply("3")
        s.apply("3")
    assert twin.zones == state.zones and twin.history == state.history
    assert len(twin.entities) == len(state.entities) == 4


def test_random_bots_sample_chance_by_its_probabilities(game):
    tops = Counter()
    for seed in range(2000):
        state = game.new_initial_state(seed)
        tops[RandomBot(seed).choose(state).name] += 1
    assert abs(tops["3"] / 2000 - 0.5) < 0.05 and abs(tops["1"] / 2000 - 0.25) < 0.05


def test_sampled_chance_is_the_default_and_plays_as_before(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(GAME)))
    state = game.new_initial_state(0)
    assert not state.is_chance_node() and state.current_player() == 1 and state.chance_outcomes() == []
    with pytest.raises(ValueError, match="chance is 'sampled' or 'explicit'"):
        load_game(str(write_rules(GAME)), chance="sometimes")


@pytest.mark.parametrize("name, players", [("continents", 3), ("solstis", 2)])
@pytest.mark.slow
def test_the_seed_games_play_with_explicit_chance(name, players):
    game, diagnostics, _ = load_game(f"games/{name}.rules", players=players, chance="explicit")
    assert diagnostics == []
    for seed in range(3):
        state, bot, nodes = game.new_initial_state(seed), RandomBot(seed), 0
        assert state.is_chance_node()            # the setup shuffles
        while not state.is_terminal():
            nodes += state.is_chance_node()
            move = bot.choose(state)
            twin = state.clone()
            state.apply(move)
            twin.apply(move.name)                # a clone replays the step to the same place
            assert twin.zones == state.zones and twin.vars == state.vars
        assert nodes > 10 and sorted(state.returns()) != [0.0] * players or state.outcome() is not None


def test_kuhn_poker_expectation_is_exact_over_its_chance_nodes():
    """Uniform random play, summed over every deal by its probability: P1 expects +1/8."""
    game, diagnostics, _ = load_game("games/kuhn-poker.rules", chance="explicit")
    assert diagnostics == []

    def value(state):
        if state.is_terminal():
            return Fraction(state.returns()[0]).limit_denominator(1000)
        branches = state.chance_outcomes() if state.is_chance_node() else \
            [(move, Fraction(1, len(state.legal_moves()))) for move in state.legal_moves()]
        total = Fraction(0)
        for move, probability in branches:
            after = state.clone()
            after.apply(move.name)
            total += Fraction(probability).limit_denominator(1000) * value(after)
        return total
    start = game.new_initial_state(0)
    assert start.is_chance_node() and [p for _, p in start.chance_outcomes()] == [1 / 3] * 3
    assert value(start) == Fraction(1, 8)


def test_a_pick_kept_in_a_secret_variable_is_not_shown(write_rules):
    text = GAME.replace("var roll: int = 0", "var roll: int = 0\nvar secret[Player]: int owner = 0").replace(
        "  roll = pick(1..6)", "  secret[current] = pick(1..6)")
    game, diagnostics, _ = load_game(str(write_rules(text)), chance="explicit")
    assert diagnostics == []
    state = game.new_initial_state(0)
    for name in ("3", "1", "2", "throw", "5"):
        state.apply(name)
    assert state.vars[("secret", 1)] == 5
    assert state.public_history[-1] == (CHANCE, "?") and "chance: ?" in state.view(2)["moves"]
