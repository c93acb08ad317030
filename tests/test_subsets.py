"""Lists of lists (issue 25, gap 7): subsets(L[, k]) and flatten(L), as the runtime runs them
(each list once, bounded, charged as work), checked with located diagnostics, played in the
example of docs/language.md, and numbered by the OpenSpiel and PettingZoo adapters (a move
that takes a list of numbers: an id per item among the rules' numbers, then the end)."""
from __future__ import annotations

import itertools
import types

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.dsl.limits import MAX_LIST
from referee.interpreter import runtime
from referee.interpreter.engine import load_game
from referee.interpreter.runtime import stdlib
from referee.interpreter.runtime.errors import UnlocatedRulesError

from .test_enum_order import diagnostics_of, docs_example

KEEP = docs_example("Keep the high dice")


def state_of(work=10**8):
    """A stand-in for a state: what the list functions read (the step's work budget)."""
    return types.SimpleNamespace(game=types.SimpleNamespace(step_budget=[1, work]))


# ---- the functions, as the runtime runs them ----

@given(st.lists(st.integers(1, 4), max_size=7))
def test_subsets_are_the_sublists_in_order_each_once(items):
    found = stdlib.subsets(state_of(), items)
    expected = {tuple(items[i] for i in range(len(items)) if mask >> i & 1) for mask in range(2 ** len(items))}
    assert len(found) == len(expected) and set(map(tuple, found)) == expected
    assert [len(x) for x in found] == sorted(len(x) for x in found)      # by size, the empty list first
    for k in range(-1, len(items) + 2):
        assert stdlib.subsets(state_of(), items, k) == [x for x in found if len(x) == k]


def test_subsets_keep_the_lists_order_and_take_a_size():
    s = state_of()
    assert stdlib.subsets(s, [1, 2, 3]) == [[], [1], [2], [3], [1, 2], [1, 3], [2, 3], [1, 2, 3]]
    assert stdlib.subsets(s, [6, 2, 6], 2) == [[6, 2], [6, 6], [2, 6]]
    assert stdlib.subsets(s, [], 0) == [[]] and stdlib.subsets(s, [1], 2) == []


def test_subsets_are_bounded_and_charged():
    with pytest.raises(UnlocatedRulesError, match=f"would make 1,048,576 lists, beyond the limit of {MAX_LIST:,}"):
        stdlib.subsets(state_of(), list(range(20)))
    assert len(stdlib.subsets(state_of(), list(range(20)), 2)) == 190
    with pytest.raises(UnlocatedRulesError, match="more than .* units of work"):
        stdlib.subsets(state_of(work=100), list(range(10)))
    with pytest.raises(UnlocatedRulesError, match="subsets of none"):
        stdlib.subsets(state_of(), None)


@given(st.lists(st.lists(st.integers(), max_size=4), max_size=5))
def test_flatten_is_the_lists_one_after_the_other(lists):
    assert stdlib.flatten(state_of(), lists) == list(itertools.chain.from_iterable(lists))


def test_flatten_of_none_is_an_error():
    with pytest.raises(UnlocatedRulesError, match="flatten of none"):
        stdlib.flatten(state_of(), [[1], None])


def test_the_list_functions_are_runtime_names():
    for name in ("subsets", "flatten"):
        assert name in runtime.__all__ and runtime.namespace()[name] is stdlib.FUNCTIONS[name]


# ---- the checker ----

BAD = """game "Bad" {
  players 2
}
fn a(): list of list of int = subsets(3)
fn b(): list of list of int = subsets([1, 2], "two")
fn c(): list of int = flatten([1, 2])
fn d(): list of list of int = subsets([1, 2], 1, 2)
fn e(): list of list of int = subsets([1, 2], 1)
fn f(): list of int = flatten(subsets([1, 2]))
var flatten: int = 0
flow { turns from 1 { finish } }
"""


def test_the_checker_refuses_wrong_arguments_where_they_are(write_rules):
    assert diagnostics_of(write_rules, BAD) == [
        ("E211", 10, 1, "'flatten' is a standard function: a declaration of that name would hide it"),
        ("E306", 4, 39, "subsets takes a list or a zone here, not a number"),
        ("E303", 5, 47, "subsets takes a number here, not 'text'"),
        ("E306", 6, 31, "flatten takes a list of lists, not a list of int"),
        ("E208", 7, 31, "'subsets' takes 2 argument(s), not 3"),
    ]


# ---- in a game, and numbered by the adapters ----

def load(path, **kw):
    game, diagnostics, _ = load_game(path, **kw)
    assert not diagnostics, [d.render() for d in diagnostics]
    return game


def test_the_docs_example_keeps_any_dice_but_none(write_rules):
    state = load(str(write_rules(KEEP))).new_initial_state(0)
    rolled = state.vars["rolled"]
    names = state.legal_move_names()
    kept = [x for x in stdlib.subsets(state_of(), rolled) if x]
    assert names == [f"keep {', '.join(map(str, x))}" for x in kept]
    state.apply(names[-1])
    assert state.vars[("total", 1)] == sum(rolled)


def test_openspiel_numbers_a_kept_list_of_dice_item_by_item(write_rules):
    pyspiel = pytest.importorskip("pyspiel")
    from referee.interpreter.adapters.openspiel_game import load_openspiel_game
    path = write_rules(KEEP)
    game = load_openspiel_game(path)
    # keep's first id 0, a die of 1..6 ids 1..6 (the numbers of the rules' ranges), the end 7
    assert game.space.end_ids == {7} and game.num_distinct_actions() == 8
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    rolled = state.engine.state.vars["rolled"]
    assert state.legal_actions() == [0]
    state.apply_action(0)
    assert set(state.legal_actions()) == set(rolled)          # a die of d is id d
    for die in rolled:
        state.apply_action(die)
    assert state.engine.state.history[-1] == f"keep {', '.join(map(str, rolled))}"
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_pettingzoo_plays_a_kept_list_die_by_die_with_the_openspiel_ids(write_rules):
    pytest.importorskip("pettingzoo")
    from referee.interpreter.adapters.pettingzoo_env import load_pettingzoo_env
    env = load_pettingzoo_env(write_rules(KEEP))
    env.reset(seed=3)
    rolled = env.state.vars["rolled"]
    env.step(0)
    for die in rolled:
        assert env.observe("player_0")["action_mask"][die]
        env.step(die)
    assert env.state.history == [f"keep {', '.join(map(str, rolled))}"]
