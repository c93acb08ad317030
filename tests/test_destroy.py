"""`destroy x`: a component of a type created in play (`component T { ... } max N`) leaves play:
out of its zone and of its type (`count(c in T)`, binders), which has room for one more
`create`; its id is never given to another, and the adapters keep numbering the others by the
slot they had. `destroy v` (a variable) sets v to none first; a component that another variable
still holds is refused at runtime. docs/language.md, "destroy"."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.errors import RulesRuntimeError
from referee.interpreter.tools.verify import state_problem

from .scenario import Scenario
from .test_enum_order import load

FORGE = '''game "Forge" { players 2 }
enum Colour { red, blue }
component Coin { colour: Colour, value: int } label "{colour} coin {value}" max 3
zone purse[Player]: row of Coin public
var turns_left: int = 30
var kept[Player]: Coin? = none
action mint(c in Colour) "mint {c}" {
  require count(x in Coin) < 3
  create 1 Coin { colour: c, value: size(purse[current]) + 1 } in purse[current]
}
action keep(x in purse[current]) "keep {x}" { kept[current] = x }
action melt(x in purse[current] where x != kept[current]) "melt {x}" { destroy x }
action spend "spend the kept coin" {
  require kept[current] != none
  destroy kept[current]
}
action pass "pass" { }
flow {
  turns from 1 until turns_left == 0 {
    turns_left -= 1
    play mint, keep, melt, spend, pass
  }
}
'''


def labels(state, key):
    return [state.entities[x]["__label__"] for x in state.zones.get(key, [])]


def played(state, *names):
    for name in names:
        state.apply(state.find_move(name))
    return state


def test_a_destroyed_component_leaves_its_zone_and_its_type_and_makes_room(write_rules):
    # P1's red coin 1, P2's blue coin 1, P1's blue coin 2: three of three, P2 may not mint
    state = played(load(write_rules, FORGE).new_initial_state(0), "mint red", "mint blue", "mint blue")
    coins = list(state.by_type["Coin"])
    assert "mint red" not in state.legal_move_names() and "melt blue coin 1" in state.legal_move_names()
    played(state, "melt blue coin 1")
    assert labels(state, ("purse", 2)) == [] and state.by_type["Coin"] == (coins[0], coins[2])
    assert state.loc[coins[1]] is None and state_problem(state) is None
    assert "mint red" in state.legal_move_names()              # room again
    played(state, "mint red")
    assert labels(state, ("purse", 1)) == ["red coin 1", "blue coin 2", "red coin 3"]
    assert state.by_type["Coin"][-1] == len(state.entities) - 1 == 3    # a new id: the destroyed one is not given again


def test_destroy_of_a_variable_sets_it_to_none(write_rules):
    state = played(load(write_rules, FORGE).new_initial_state(0), "mint red", "mint blue", "keep red coin 1", "mint blue")
    kept = Scenario(state).var(("kept", 1))
    assert "melt red coin 1" not in state.legal_move_names() and "spend the kept coin" in state.legal_move_names()
    played(state, "spend the kept coin")
    seen = Scenario(state)
    assert seen.var(("kept", 1)) is None and kept not in state.by_type["Coin"]
    assert labels(state, ("purse", 1)) == [] and state_problem(state) is None


def test_a_component_another_variable_holds_is_not_destroyed(write_rules):
    text = FORGE.replace('action melt(x in purse[current] where x != kept[current])', 'action melt(x in purse[current])')
    state = played(load(write_rules, text).new_initial_state(0), "mint red", "mint blue", "keep red coin 1", "mint red")
    with pytest.raises(RulesRuntimeError, match=r"red coin 1 cannot be destroyed: the variable kept\[P1\] still holds it") \
            as raised:
        played(state, "melt red coin 1")
    assert raised.value.span.line == 12          # the destroy


def test_a_component_destroyed_twice_is_a_runtime_error(write_rules):
    text = FORGE.replace("{ destroy x }", "{ destroy x\n destroy x }")
    state = played(load(write_rules, text).new_initial_state(0), "mint red", "mint blue")
    with pytest.raises(RulesRuntimeError, match="red coin 1 was destroyed already"):
        played(state, "melt red coin 1")


def test_a_clone_and_a_checkpoint_keep_the_components_they_had(write_rules):
    state = played(load(write_rules, FORGE).new_initial_state(0), "mint red", "mint blue")
    copy, saved = state.clone(), state.checkpoint()
    played(state, "melt red coin 1")
    assert labels(copy, ("purse", 1)) == ["red coin 1"] and len(copy.by_type["Coin"]) == 2
    state.restore(saved)
    assert labels(state, ("purse", 1)) == ["red coin 1"] and "melt red coin 1" in state.legal_move_names()


def test_a_compiled_module_destroys_as_its_rules_do(write_rules, tmp_path):
    from referee.interpreter.cli.main import main
    module = tmp_path / "forge.py"
    assert main(["compile", str(write_rules(FORGE)), "-o", str(module)]) == 0
    game, diagnostics, _ = load_game(str(module))
    assert not diagnostics
    state = played(game.new_initial_state(0), "mint red", "mint blue", "keep red coin 1", "mint blue", "spend the kept coin")
    assert labels(state, ("purse", 1)) == [] and Scenario(state).var(("kept", 1)) is None


def test_openspiel_keeps_a_components_number_when_another_is_destroyed(write_rules):
    pyspiel = pytest.importorskip("pyspiel")
    from referee.interpreter.adapters.openspiel_game import load_openspiel_game
    game = load_openspiel_game(write_rules(FORGE))
    state = game.new_initial_state()

    def ids():
        return {state.action_to_string(a): a for a in state.legal_actions()}
    # P1's red coin 1 (slot 0), P2's blue coin 1 (slot 1), P1's blue coin 2 (slot 2); P2 melts its coin
    for name in ("mint red", "mint blue", "mint blue", "melt blue coin 1"):
        state.apply_action(ids()[name])
    before = ids()
    state.apply_action(before["melt red coin 1"])
    state.apply_action(ids()["mint red"])                   # P2's new coin takes the first free slot, 0
    assert ids()["melt blue coin 2"] == before["melt blue coin 2"]     # slot 2 still, two coins melted before it
    state.apply_action(ids()["keep blue coin 2"])
    assert ids()["melt red coin 1"] == before["melt red coin 1"]       # P2's coin, in slot 0
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


def test_random_games_verify_clean(write_rules):
    from referee.interpreter.tools.verify import verify
    report = verify(load(write_rules, FORGE), games=20)
    assert report.failures == [] and report.finished == 20


def test_the_native_renderer_renders_destroy(write_rules):
    # (its games are played natively in tests/test_native_created.py)
    pytest.importorskip("numba", reason="the native extra (numba) is not installed")
    from referee.interpreter.native.rules_source import render
    source = render(load(write_rules, FORGE))
    assert "zone_take_out(S, " in source and "type_remove(S, " in source


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 10), max_size=14))
def test_random_play_keeps_every_coin_in_play_in_one_zone_and_clones_as_they_were(forge, seed, picks):
    state = forge.new_initial_state(seed)
    for pick in picks:
        if state.is_terminal():
            break
        before = state.clone()
        kept = (tuple(before.by_type["Coin"]), {k: list(v) for k, v in before.zones.items()})
        moves = state.legal_moves()
        state.apply(moves[pick % len(moves)])
        assert (tuple(before.by_type["Coin"]), {k: list(v) for k, v in before.zones.items()}) == kept
        assert len(state.by_type["Coin"]) <= 3 and state_problem(state) is None
        assert sorted(x for items in state.zones.values() for x in items) == sorted(state.by_type["Coin"])
        slots = [state.entities[x]["__slot__"] for x in state.by_type["Coin"]]
        assert len(set(slots)) == len(slots) and all(0 <= k < 3 for k in slots)


@pytest.fixture(scope="module")
def forge(tmp_path_factory):
    path = tmp_path_factory.mktemp("forge") / "forge.rules"
    path.write_text(FORGE, encoding="utf-8")
    game, diagnostics, _ = load_game(str(path))
    assert not diagnostics
    return game
