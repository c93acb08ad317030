"""reveal X to P: components shown whole to chosen players, for as long as each stays where it is."""
import random

from referee.interpreter.runtime import random_source
from referee.interpreter.engine import load_game
from referee.interpreter.tools.leaks import find_leak, hidden_places
from referee.interpreter.engine.render import render_view

GAME = """
game "Peek" { players 2..3 }
component Card { rank: int, colour: text owner }
zone deck: pile of Card hidden
zone hand[Player]: row of Card owner
zone table: row of Card public
var looks: int = 0
setup {
  for r in 1..6 {
    create 1 Card { rank: r, colour: "red" } in deck
  }
  shuffle deck
  for p in players {
    deal 1 from deck to hand[p]
  }
}
action look(p in players where p != current) "look at {p}" {
  reveal hand[p] to current
  looks += 1
}
action show "show the table my card" {
  reveal hand[current] to players
}
action lay "lay down" {
  move all of hand[current] to table
}
action peek "peek at the deck" {
  reveal top(deck) to current
  looks += 1
}
action mix "shuffle the deck" {
  shuffle deck
}
flow {
  turns from 1 until looks >= 6 or size(table) > 0 {
    play look, show, lay, peek, mix
  }
}
"""


def start(write_rules, players=3, seed=1):
    game, diagnostics, _ = load_game(str(write_rules(GAME)), players=players)
    assert diagnostics == []
    return game.new_initial_state(seed)


def shown(state, viewer, zone):
    return state.view(viewer)["zones"].get(zone, {}).get("shown", [])


def test_a_revealed_hand_is_seen_by_that_player_only(write_rules):
    state = start(write_rules)
    card = state.zones[("hand", 2)][0]
    state.apply("look at P2")
    seen = shown(state, 1, "hand[P2]")
    assert [(item["id"], item["position"]) for item in seen] == [(card, 1)]
    assert seen[0]["label"] == state.entities[card]["__label__"]
    assert shown(state, 3, "hand[P2]") == [] and "items" not in state.view(3)["zones"]["hand[P2]"]
    assert "shown to you: " + state.entities[card]["__label__"] in render_view(state.view(1))


def test_owner_only_attributes_of_a_revealed_card_are_shown_too(write_rules):
    state = start(write_rules)
    state.apply("show the table my card")          # P1 shows its card to everyone
    card = state.zones[("hand", 1)][0]
    for viewer in (2, 3):
        assert shown(state, viewer, "hand[P1]")[0]["label"] == state.entities[card]["__label__"]


def test_a_reveal_ends_when_the_card_moves(write_rules):
    state = start(write_rules)
    state.apply("look at P2")                      # P1 sees P2's card
    state.apply("lay down")                        # P2 lays its card on the table: the game ends
    assert shown(state, 1, "hand[P2]") == []
    assert state.shown_to == {}


def test_a_reveal_ends_when_its_zone_is_shuffled(write_rules):
    state = start(write_rules)
    state.apply("peek at the deck")                # P1 sees the top of the deck
    assert len(shown(state, 1, "deck")) == 1
    state.apply("shuffle the deck")                # P2 shuffles: P1 no longer knows where it is
    assert shown(state, 1, "deck") == []


def test_a_clone_keeps_its_reveals_apart(write_rules):
    state = start(write_rules)
    twin = state.clone()
    twin.apply("look at P2")
    assert shown(twin, 1, "hand[P2]") and not shown(state, 1, "hand[P2]")


def test_the_leak_finder_treats_revealed_cards_as_seen(write_rules):
    state = start(write_rules)
    state.apply("look at P2")
    card = state.zones[("hand", 2)][0]
    assert card not in [x for _, _, x, _ in hidden_places(state, 1)]
    assert card in [x for _, _, x, _ in hidden_places(state, 3)]
    game = state.game
    for seed in range(20):
        rng, s = random.Random(seed), game.new_initial_state(seed)
        while not s.is_terminal():
            move = rng.choice(list(s.legal_moves())).name
            for seat in game.seats:      # a reveal is no leak; what it shows flows nowhere else
                probe = random_source.seed_state(seed * 10 + seat)
                assert find_leak(s, seat, probe, move) is None, f"seed {seed}, P{seat}, before '{move}'"
            s.apply(move)


def test_reveal_checks_what_and_to_whom(write_rules):
    bad = GAME.replace("reveal hand[p] to current", "reveal looks to current")
    _, diagnostics, _ = load_game(str(write_rules(bad)), players=3)
    assert [d.code for d in diagnostics] == ["E305"] and "only components can be revealed" in diagnostics[0].message
    bad = GAME.replace("reveal hand[p] to current", "reveal hand[p] to looks")
    _, diagnostics, _ = load_game(str(write_rules(bad)), players=3)
    assert [d.code for d in diagnostics] == ["E303"] and "to a player" in diagnostics[0].message
