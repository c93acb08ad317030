"""The adapters number every `choose` (issue 25): a choice among lists (a subset of a hand) is
an id per item then an id that ends the list, as a move over a list is; a choice among
components created in play is the component's position among those of its type. Both adapters
number alike, and random games play to the end through them."""
from __future__ import annotations

import pytest

from .test_create_in_play import MINT

pyspiel = pytest.importorskip("pyspiel")

from referee.interpreter.adapters.action_space import ActionSpaceError  # noqa: E402
from referee.interpreter.adapters.openspiel_game import load_openspiel_game  # noqa: E402

RECYCLE = """
game "Recycle" { players 2 }
component Card { rank: int } label "card {rank}"
zone deck: pile of Card hidden
zone hand[Player]: set of Card owner
zone discard: pile of Card public
var points[Player]: int = 0
var rounds: int = 0
setup {
  for r in [1, 1, 2, 3, 3, 4] { create 1 Card { rank: r } in deck }
  shuffle deck
  for p in players { deal 3 from deck to hand[p] }
}
action recycle "recycle some cards" {
  choose chosen in subsets(sorted(c in hand[current] by c.rank)) "which cards to recycle?" {
    move all of chosen to discard
    points[current] += size(chosen)
  }
  rounds += 1
}
flow { turns from 1 until rounds >= 4 { play recycle } }
"""


def at_choice(game):
    """The first state where P1 chooses among lists of its cards (after the deal's chance nodes)."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])         # recycle: the choice follows
    return state


def test_a_choice_among_lists_is_an_id_per_item_then_the_end_of_the_list(write_rules):
    game = load_openspiel_game(write_rules(RECYCLE))
    space = game.space
    assert space.choice_end_id is not None and space.choice_end_id in space.end_ids
    state = at_choice(game)
    engine = state.engine.state
    pending = engine.pending
    assert pending.names[0] == "nothing" and len(pending.names) >= 3
    # at first: every card that starts some option ('card 1, ...': more may follow), and the
    # empty list (the end alone)
    starts = {engine.entities[option[0]]["__label__"] + ", ..." for option in pending.options if option}
    assert {state.action_to_string(a) for a in state.legal_actions()} == starts | {"nothing"}
    assert space.choice_end_id in state.legal_actions()
    before = len(engine.history)
    for option, name in zip(pending.options, pending.names):
        node = state.clone()
        for x in option:          # each item by its label's id, then the end where another option goes on
            texts = {node.action_to_string(a): a for a in node.legal_actions()}
            item = engine.entities[x]["__label__"]
            node.apply_action(texts[name] if name in texts else texts[next(t for t in texts if t.startswith(item))])
            if len(node.engine.state.history) > before:
                break
        else:
            node.apply_action(space.choice_end_id)
        assert node.engine.state.history[before:] == [name]


def test_a_choice_among_lists_is_refused_at_a_step_that_needs_one_id(write_rules):
    game = load_openspiel_game(write_rules(RECYCLE))
    state = at_choice(game)
    with pytest.raises(ActionSpaceError, match="several ids"):
        game.space.move_id(state.engine.state, state.engine.state.legal_moves()[0])


def test_random_games_through_openspiel_play_a_choice_among_lists(write_rules):
    pyspiel.random_sim_test(load_openspiel_game(write_rules(RECYCLE)), num_sims=5, serialize=True, verbose=False)


GIFT = MINT.replace(
    'action take(x in bank) "take {x}" { move x to purse[current] }',
    'action take "take a coin" {\n  choose x in bank "which coin?" { move x to purse[current] }\n}').replace(
    "count(c in Coin) >= 5", "count(c in Coin) >= 6")


def test_a_choice_among_components_created_in_play_is_their_position(write_rules):
    game = load_openspiel_game(write_rules(GIFT))
    space = game.space
    assert set(space.created_offsets) == {"Coin"}
    start = space.created_offsets["Coin"]
    state = game.new_initial_state()
    for name in ("mint blue", "mint red", "mint red"):       # P1 mints twice: the trigger adds blue coin 9
        state.apply_action(next(a for a in state.legal_actions() if state.action_to_string(a) == name))
    engine = state.engine.state
    assert [engine.entities[x]["__label__"] for x in engine.zones["bank"]] == ["red coin 1", "blue coin 9"]
    take = next(a for a in state.legal_actions() if state.action_to_string(a) == "take a coin")
    state.apply_action(take)
    # the bank holds the first Coin (the setup's) and the fifth (the trigger's)
    assert sorted(state.legal_actions()) == [start + 0, start + 4]
    assert space.describe(start + 4) == "Coin #5"
    state.apply_action(start + 4)
    assert state.engine.state.history[-1] == "blue coin 9"
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_pettingzoo_numbers_the_choices_as_openspiel_does(write_rules):
    api_test = pytest.importorskip("pettingzoo.test").api_test
    from referee.interpreter.adapters.pettingzoo_env import load_pettingzoo_env

    from .test_pettingzoo import random_game
    for text in (RECYCLE, GIFT):
        path = write_rules(text)
        env = load_pettingzoo_env(path)
        space = load_openspiel_game(path).space
        assert env.space.num_distinct_actions == space.num_distinct_actions
        assert (env.space.choice_end_id, env.space.created_offsets) == (space.choice_end_id, space.created_offsets)
        for seed in range(3):
            played, rewards = random_game(env, seed)
            assert played and set(rewards) == set(env.possible_agents)
        api_test(load_pettingzoo_env(path), num_cycles=100)
