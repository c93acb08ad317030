"""Components created in play (issue 25, gap 8): `create` in an action, a procedure or a
trigger, of a type whose declaration says how many there may be (`component T { ... } max N`);
a type without a maximum is created in the setup only (E407). A component created in play is a
new entity of that state alone (its clones and checkpoints keep theirs), beyond the maximum is
a runtime error at the `create`, and the adapters number such a type's components by position."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError
from referee.interpreter.tools.verify import state_problem

from .test_enum_order import load

MINT = '''game "Mint" { players 2 }
enum Colour { red, blue }
component Coin { colour: Colour, value: int } label "{colour} coin {value}" max 6
zone purse[Player]: row of Coin public
zone bank: pile of Coin public
var minted: int
setup { create 1 Coin { colour: red, value: 1 } in bank }
proc strike(c: Colour, p: Player) { create 1 Coin { colour: c, value: size(purse[p]) + 1 } in purse[p] }
action mint(c in Colour) "mint {c}" { strike(c, current) }
action take(x in bank) "take {x}" { move x to purse[current] }
trigger bonus when size(purse[1]) == 2 and minted == 0 {
  minted = 1
  create 1 Coin { colour: blue, value: 9 } in bank
}
flow { turns from 1 until count(c in Coin) >= 5 { play mint, take } }
'''


def labels(state, key):
    return [state.entities[x]["__label__"] for x in state.zones.get(key, [])]


def test_an_action_a_procedure_and_a_trigger_create_components_in_play(write_rules):
    state = load(write_rules, MINT).new_initial_state(0)
    assert state.legal_move_names() == ["mint red", "mint blue", "take red coin 1"]
    state.apply(state.find_move("mint blue"))
    assert labels(state, ("purse", 1)) == ["blue coin 1"]
    state.apply(state.find_move("take red coin 1"))
    state.apply(state.find_move("mint red"))             # P1's second coin: the trigger adds one
    assert labels(state, ("purse", 1)) == ["blue coin 1", "red coin 2"]
    assert labels(state, "bank") == ["blue coin 9"] and state.legal_move_names()[-1] == "take blue coin 9"
    assert [state.entities[x]["__label__"] for x in state.by_type["Coin"]] == [
        "red coin 1", "blue coin 1", "red coin 2", "blue coin 9"]
    assert state_problem(state) is None                  # each component in exactly one zone


def test_a_clone_and_a_checkpoint_keep_the_components_they_had(write_rules):
    state = load(write_rules, MINT).new_initial_state(0)
    copy = state.clone()
    saved = state.checkpoint()
    state.apply(state.find_move("mint blue"))
    assert len(state.by_type["Coin"]) == 2 and len(copy.by_type["Coin"]) == 1
    assert len(copy.entities) == len(copy.game.static_entities) + 1 and copy.zones.get(("purse", 1), []) == []
    copy.apply(copy.find_move("mint red"))
    assert labels(copy, ("purse", 1)) == ["red coin 1"] and labels(state, ("purse", 1)) == ["blue coin 1"]
    state.restore(saved)
    assert len(state.by_type["Coin"]) == 1 and state.legal_move_names() == ["mint red", "mint blue", "take red coin 1"]


def test_more_than_the_maximum_is_a_runtime_error_at_the_create(write_rules):
    text = MINT.replace("max 6", "max 2")
    state = load(write_rules, text).new_initial_state(0)
    state.apply(state.find_move("mint blue"))
    with pytest.raises(RulesRuntimeError, match="a Coin more than the 2 its declaration allows") as raised:
        state.apply(state.find_move("mint red"))
    assert raised.value.span.line == 8          # the create, in the procedure
    game, diagnostics, _ = load_game(str(write_rules(MINT.replace("max 6", "max 0"))))
    with pytest.raises(RulesRuntimeError, match="a Coin more than the 0"):
        game.new_initial_state(0)           # the setup too


def test_a_maximum_is_a_whole_number_known_before_the_game(write_rules):
    game, diagnostics, _ = load_game(str(write_rules("param most = -1\n" + MINT.replace("max 6", "max most"))))
    assert game is None and [(d.code, d.span.line) for d in diagnostics] == [("E701", 4)]


def test_random_games_play_and_verify_clean(write_rules):
    from referee.interpreter.tools.verify import verify
    report = verify(load(write_rules, MINT), games=20)      # (leaks probed too)
    assert report.failures == [] and report.finished == 20


def test_openspiel_numbers_a_type_created_in_play_by_position(write_rules):
    pyspiel = pytest.importorskip("pyspiel")
    from referee.interpreter.adapters.openspiel_game import load_openspiel_game
    game = load_openspiel_game(write_rules(MINT))
    assert game.num_distinct_actions() == 2 + 6          # mint red/blue, then the k-th Coin of 6
    state = game.new_initial_state()
    assert state.legal_actions() == [0, 1, 2]            # the bank's coin is the first Coin
    for action in (1, 2, 0):
        state.apply_action(action)
    assert state.engine.state.history == ["mint blue", "take red coin 1", "mint red"]
    assert state.legal_actions() == [0, 1, 2 + 3]        # the trigger's coin is the fourth
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_a_compiled_module_creates_as_its_rules_do(write_rules, tmp_path):
    from referee.interpreter.cli.main import main
    path = write_rules(MINT)
    module = tmp_path / "mint.py"
    assert main(["compile", str(path), "-o", str(module)]) == 0
    game, diagnostics, _ = load_game(str(module))
    assert not diagnostics
    state = game.new_initial_state(0)
    state.apply(state.find_move("mint blue"))
    assert labels(state, ("purse", 1)) == ["blue coin 1"]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 10), max_size=8))
def test_random_play_creates_within_the_maximum_and_leaves_clones_as_they_were(mint, seed, picks):
    state = mint.new_initial_state(seed)
    for pick in picks:
        if state.is_terminal():
            break
        before = state.clone()
        kept = (len(before.entities), tuple(before.by_type["Coin"]), {k: list(v) for k, v in before.zones.items()})
        moves = state.legal_moves()
        state.apply(moves[pick % len(moves)])
        assert (len(before.entities), tuple(before.by_type["Coin"]),
                {k: list(v) for k, v in before.zones.items()}) == kept
        assert len(state.by_type["Coin"]) <= 6 and state_problem(state) is None
        assert sorted(x for items in state.zones.values() for x in items) == list(state.by_type["Coin"])


@pytest.fixture(scope="module")
def mint(tmp_path_factory):
    path = tmp_path_factory.mktemp("mint") / "mint.rules"
    path.write_text(MINT, encoding="utf-8")
    game, diagnostics, _ = load_game(str(path))
    assert not diagnostics
    return game
