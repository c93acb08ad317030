"""Maps of values (issue 25, gap 5): `map of K to V` for variables, locals, parameters and
results; `{k: v}` and `{:}`, `m + n`, `m[k]` (none when absent), `get`, `k in m`, `size`, `keys`,
`values`, going through the keys in the language's order of values, equality, the text in views
and logs; refused with located diagnostics where it does not apply; no native form and no
place in the observation tensor (located refusals); the threefold repetition example of
docs/language.md played; a property: a map built by updates answers like a dict."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from referee.dsl import names
from referee.interpreter.engine import load_game
from referee.interpreter.runtime.value_maps import joined_maps, map_keys, map_values, new_map
from referee.interpreter.tools.gamelog import make_log, replay
from referee.interpreter.tools.verify import verify

from .conftest import ROOT
from .test_enum_order import docs_example, load      # (the docs' whole programs, loaded clean)
from .test_sets import HEAD, TAIL, diagnostics_of, native_refusal, value_of


def test_a_map_holds_each_key_once_in_the_order_of_values(write_rules):
    assert value_of(write_rules, "{3: 30, 1: 10} + {2: 20, 3: 33}", "map of int to int") == "1: 10, 2: 20, 3: 33"
    assert value_of(write_rules, "{clubs: 1, spades: 2} + {hearts: 3}", "map of Strain to int") \
        == "spades: 2, hearts: 3, clubs: 1"
    assert value_of(write_rules, "{[2, 1]: true, [1]: false, [1, 2]: true}", "map of list of int to bool") \
        == "1: no; 1, 2: yes; 2, 1: yes"
    assert value_of(write_rules, "{:}", "map of int to text") == ""
    assert value_of(write_rules, "size({1: 2, 1: 3} + {4: 4})", "int") == "2"
    # the keys (and the values) of a literal are of one type: whole numbers among fractions,
    # a value among nones, a list among empty lists
    assert value_of(write_rules, "{1: 1, 2: 1 / 2, 3: none}", "map of int to real?") == "1: 1, 2: 1/2, 3: none"
    assert value_of(write_rules, "{[]: 1, [1]: 2}", "map of list of int to int") == ": 1; 1: 2"


def test_lookups_give_none_or_the_default_when_the_key_is_missing(write_rules):
    declarations = 'fn m(): map of list of int to text = {[1, 2]: "a", [3]: "b"}\n'
    assert value_of(write_rules, "m()[[1, 2]]", "text?", declarations) == "a"
    assert value_of(write_rules, "m()[[2, 1]]", "text?", declarations) == "none"
    assert value_of(write_rules, 'join([get(m(), [3], "z"), get(m(), [4], "z")], "")', "text", declarations) == "bz"
    assert value_of(write_rules, "[1, 2] in m() and [2, 1] not in m() and [3] in m()", "bool", declarations) == "yes"
    assert value_of(write_rules, "{1: [5]}[2]", "list of int?") == "none"


def test_keys_values_loops_and_aggregates_go_through_the_keys_in_order(write_rules):
    declarations = "fn m(): map of Strain to int = {clubs: 3, spades: 1, hearts: 2}\n"
    assert value_of(write_rules, "keys(m())", "list of Strain", declarations) == "spades, hearts, clubs"
    assert value_of(write_rules, "values(m())", "list of int", declarations) == "1, 2, 3"
    assert value_of(write_rules, "filter(s in m() where get(m(), s, 0) > 1)", "list of Strain", declarations) \
        == "hearts, clubs"
    assert value_of(write_rules, "sum(s in m(): get(m(), s, 0)) + count(s in m())", "int", declarations) == "9"
    text = HEAD + declarations + ('var order: list of Strain = []\nsetup {\n  for s in m() {\n    order = order + [s]\n  }\n'
                                  '  log "{order}"\n}\n') + TAIL
    assert load(write_rules, text).new_initial_state(0).log == ["spades, hearts, clubs"]


def test_equality_of_maps(write_rules):
    assert value_of(write_rules, "{1: [2]} + {3: [4]} == {3: [4], 1: [2]}") == "yes"
    assert value_of(write_rules, "{1: 2} == {1: 3} or {1: 2} == {2: 2} or {1: 2} == {:}") == "no"


def test_a_map_variable_a_parameter_and_a_move_over_its_keys(write_rules):
    text = HEAD + ('var tally: map of Strain to int = {:}\n'
                   'var mine[Player]: map of int to int owner = {:}\n'
                   'fn bumped(m: map of Strain to int, x: Strain): map of Strain to int = m + {x: get(m, x, 0) + 1}\n'
                   'action mark(x in Strain) "mark {x}" {\n  tally = bumped(tally, x)\n'
                   '  mine[current] = mine[current] + {size(tally): 1}\n}\n'
                   'action again_from(x in tally where tally[x] == 2) "again {x}" { }\n'
                   'flow {\n  turns from 1 until get(tally, clubs, 0) == 3 {\n    play mark, again_from\n  }\n}\n')
    state = load(write_rules, text).new_initial_state(0)
    for move in ("mark clubs", "mark spades", "mark clubs"):
        state.apply(move)
    assert state.legal_move_names() == ["mark spades", "mark hearts", "mark clubs", "again clubs"]
    assert state.view(1)["vars"]["tally"] == "spades: 1, clubs: 2"
    # an owner-only map: each seat sees its own
    assert state.view(1)["vars"]["mine[P1]"] == "1: 1, 2: 1" and "mine[P2]" not in state.view(1)["vars"]
    assert state.view(2)["vars"]["mine[P2]"] == "2: 1" and "mine[P1]" not in state.view(2)["vars"]
    state.apply("mark clubs")
    assert state.is_terminal()


def test_the_order_never_depends_on_hashing_or_on_making():
    made = new_map([[3, 1], [1], [1, 2], [], [1, 2]], ["a", "b", "c", "d", "e"], None)
    assert map_keys(made, {}) == [[], [1], [1, 2], [3, 1]] and map_values(made, {}) == ["d", "b", "e", "a"]
    assert map_keys(new_map(["b", "a", "c"], [1, 2, 3], None), {"c": 1, "a": 2, "b": 3}) == ["c", "a", "b"]


@given(st.lists(st.tuples(st.lists(st.integers(0, 3), max_size=3), st.integers(-5, 5)), max_size=30),
       st.lists(st.integers(0, 3), max_size=3))
def test_a_map_built_by_updates_answers_like_a_dict(updates, probe):
    """m + {k: v} one update at a time, as the rules write it, against a dict of tuples."""
    m, expected = new_map([], [], None), {}
    for key, value in updates:
        before = dict(m)
        m = joined_maps(m, new_map([key], [value], None), None)
        expected[tuple(key)] = value
        assert before == dict(m) or m is not before        # (an update is a new map: the old one stays)
    assert len(m) == len(expected)
    assert m.get(tuple(probe)) == expected.get(tuple(probe)) and (tuple(probe) in m) == (tuple(probe) in expected)
    assert map_keys(m, {}) == [list(k) for k in sorted(expected)]
    assert map_values(m, {}) == [expected[k] for k in sorted(expected)]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 9)), min_size=1, max_size=6), st.integers(0, 5))
def test_a_map_of_the_rules_built_by_updates_answers_like_a_dict(write_rules, updates, probe):
    """The same, end to end: a setup makes the updates, the log reads the map back."""
    lines = "".join(f"  m = m + {{{k}: {v}}}\n" for k, v in updates)
    text = HEAD + ("var m: map of int to int = {:}\nsetup {\n" + lines +
                   f'  let here = {probe} in m\n  let found = get(m, {probe}, -1)\n'
                   '  log "{keys(m)} / {values(m)} / {here} / {found} / {size(m)}"\n}\n') + TAIL
    expected = dict(updates)
    shown = ", ".join(str(k) for k in sorted(expected)), ", ".join(str(expected[k]) for k in sorted(expected))
    assert load(write_rules, text).new_initial_state(0).log == [
        f"{shown[0]} / {shown[1]} / {'yes' if probe in expected else 'no'} / {expected.get(probe, -1)} / {len(expected)}"]


@pytest.mark.parametrize("text, expected", [
    ("var m: map of int to int = {}\n", ("E303", 5, 28, "'m' holds a map of int to int, not a set")),
    ("var m: map of int? to int = {:}\n", ("E309", 5, 15, "a map's key cannot be none, but this is 'int?'")),
    ("zone deck: pile of Strain\nvar m: map of int to int = {1: 2}\nfn f(): bool = size({deck: 1}) > 0\n",
     ("E309", 7, 22, "a map's key cannot be a zone of Strain: a zone is a place whose content changes")),
    ("fn f(): map of int to int = {1: 2, 2: hearts}\n",
     ("E308", 5, 29, "the values of a map are of one type, but these are 'Strain' and a number")),
    ("fn f(m: map of int to int): int? = m[hearts]\n", ("E308", 5, 38, "a map of int to int is looked up by a number, not 'Strain'")),
    ("fn f(m: map of int to int): bool = [1] in m\n", ("E308", 5, 36, "a map of int to int is looked up by a number, not a list of int")),
    ("fn f(m: map of int to int): map of int to int = m + {1}\n", ("E308", 5, 53, "'+' joins two maps, but this is a set of int")),
    ("fn f(m: map of int to int): map of int to int = m + {hearts: 1}\n",
     ("E308", 5, 53, "a map of int to int cannot take the entries of a map of Strain to int")),
    ('fn f(m: map of int to int): int = get(m, 1, "x")\n',
     ("E308", 5, 45, "the default of get is what a map of int to int holds, a number, not 'text'")),
    ("fn f(): list of int = keys([1])\n", ("E308", 5, 28, "keys takes a map, not a list of int")),
    ("fn f(m: map of int to int): list of int = reversed(m)\n",
     ("E306", 5, 52, "reversed takes a list or a zone here, not a map of int to int")),
    ("var m: map of int to int = {:}\naction a \"a\" {\n  m[1] = 2\n}\n",
     ("E308", 7, 3, "'m' is a map of int to int, a value: an entry is not written in place")),
    ("fn f(): list of map of int to int = [{1: 2}]\naction a(m in f()) \"a\" { }\n",
     ("E308", 6, 10, "a move's argument cannot be a map of int to int")),
    ("fn f(): list of map of int to int = [{1: 2}]\naction a \"a\" {\n  choose m in f() { }\n}\n",
     ("E308", 7, 10, "an option of a choice cannot be a map of int to int")),
    ("fn f(s: set of map of int to int): int = 0\n", ("E303", 5, 16, "a set holds values that are never changed in place, not a map of int to int")),
])
def test_what_a_map_refuses_is_located(write_rules, text, expected):
    assert expected in diagnostics_of(write_rules, text)


def test_a_costly_function_of_a_map_is_not_cached_by_it(write_rules):
    """A function over a large board is cached by its arguments: never by a map (no key)."""
    text = HEAD + ('board Square: grid 8 by 8\nvar marks: map of int to int = {:}\n'
                   'fn marked(m: map of int to int): int = count(c in Square where get(m, c.row, 0) > 0)\n'
                   'action mark(r in 1..3) "mark {r}" {\n  marks = marks + {r: 1}\n  log "{marked(marks)}"\n}\n'
                   'flow {\n  turns from 1 until size(marks) == 3 {\n    play mark\n  }\n}\n')
    game = load(write_rules, text)
    assert "marked" not in game.compiler.memoized
    state = game.new_initial_state(0)
    for move in ("mark 2", "mark 2", "mark 1", "mark 3"):
        state.apply(move)
    assert state.log == ["8", "8", "16", "24"] and state.is_terminal()


def test_the_hints_say_how_to_write_it(write_rules):
    game, diagnostics, _ = load_game(str(write_rules(HEAD + "var m: map of int to int = {}\n"
                                                    'action a "a" {\n  m[1] = 2\n}\n' + TAIL)))
    assert [d.hint for d in diagnostics] == ["the empty map is {:} ({} is the empty set)",
                                             "write m = m + {key: value} (the new map replaces the old one)"]


def test_a_map_of_reals_or_of_lists_taken_whole_has_no_native_form_yet(write_rules):
    """(Maps of other values play natively: tests/test_native_values.py.)"""
    path, note = native_refusal(write_rules, "var seen: map of int to real = {:}")
    assert note == f"{path}:5: a map's values of type real have no native form yet"
    path, note = native_refusal(write_rules, "fn f(): int = size({[1]: 2})")
    assert note == f"{path}:5: a map of lists taken whole has no native form yet"


def test_the_docs_threefold_repetition_is_a_draw_and_a_win_ends_it(write_rules):
    game = load(write_rules, docs_example("Threefold"))
    state = game.new_initial_state(0)
    for _ in range(5):
        state.apply("turn dial 1")          # [1, 0], [2, 0], [0, 0] (twice), [1, 0] (twice), [2, 0] (twice)
        assert not state.is_terminal()
    assert state.view(1)["vars"]["seen"] == "0, 0: 2; 1, 0: 2; 2, 0: 2"
    state.apply("turn dial 1")              # [0, 0] a third time
    assert state.is_terminal() and state.log[-1] == "0, 0 is seen a third time: a draw"
    assert list(state.returns()) == [0.0, 0.0]
    state = game.new_initial_state(0)
    for move in ("turn dial 1", "turn dial 1", "turn dial 2", "turn dial 2"):
        state.apply(move)
    assert state.is_terminal() and state.log[-1] == "P2 sets both dials to 2"


def test_the_threefold_game_draws_exactly_when_a_position_comes_a_third_time(write_rules):
    """Random games, counted apart: the game ends on the move that sets both dials to 2 or that
    brings a position for the third time, never before; a logged game replays the same."""
    path = write_rules(docs_example("Threefold"))
    game = load(write_rules, docs_example("Threefold"))
    for seed in range(30):
        state = game.new_initial_state(seed)
        counts = {(0, 0): 1}
        while not state.is_terminal():
            moves = state.legal_move_names()
            state.apply(moves[(seed * 7 + len(state.history)) % len(moves)])
            dials = tuple(int(x) for x in state.view(1)["vars"]["dials"].split(", "))
            counts[dials] = counts.get(dials, 0) + 1
            assert state.is_terminal() == (dials == (2, 2) or counts[dials] == 3)
        replayed, problem = replay(make_log(game, state, path), rules_path=path)
        assert problem is None and replayed.history == state.history and replayed.log == state.log


def test_verify_with_leak_probes_is_clean_with_hidden_and_owner_maps(write_rules):
    text = HEAD + ('var secret: map of int to int hidden = {:}\nvar mine[Player]: map of int to int owner = {:}\n'
                   'action bump(k in 1..2) "bump {k}" {\n  secret = secret + {k: get(secret, k, 0) + 1}\n'
                   '  mine[current] = mine[current] + {k: 1}\n}\n'
                   'flow {\n  turns from 1 until size(secret) == 2 {\n    play bump\n  }\n}\n')
    report = verify(load(write_rules, text), games=10, leaks=True)
    assert report.games == 10 and report.finished == 10 and report.failures == []


def test_openspiel_refuses_a_public_map_and_leaves_out_a_hidden_one(write_rules):
    from referee.interpreter.adapters.action_space import ActionSpaceError
    from referee.interpreter.adapters.openspiel_game import load_openspiel_game
    text = docs_example("Threefold")
    with pytest.raises(ActionSpaceError, match=r"threefold.rules:6:.*cannot encode 'seen', a map of list of int to int"):
        load_openspiel_game(write_rules(text, "threefold.rules"))
    hidden = text.replace("var seen: map of list of int to int = ", "var seen: map of list of int to int hidden = ")
    game = load_openspiel_game(write_rules(hidden, "hidden.rules"))
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()


def test_a_compiled_module_imports_the_map_functions_only_when_its_game_has_maps(write_rules):
    source = load(write_rules, docs_example("Threefold")).compiler.module_source()
    (imported,) = [line for line in source.splitlines() if line.startswith("from referee.interpreter.runtime.value_maps ")]
    assert imported == "from referee.interpreter.runtime.value_maps import (joined_maps, new_map)"
    plain, _, _ = load_game(str(ROOT / "games" / "tic-tac-toe.rules"))
    assert "value_maps" not in plain.compiler.module_source()


def test_hover_gives_a_map_its_written_type(write_rules):
    from referee.interpreter.lsp import server as lsp
    path = write_rules(docs_example("Threefold"), "threefold.rules")
    index = lsp.analyse(str(path)).index
    hover = names.hover_text(index, str(path), 6, 6)
    assert hover.startswith("```rules\nvar seen: map of list of int to int = {[0, 0]: 1}\n```")
    assert "`map of list of int to int`" in hover
    offered = {c.label: c for c in names.completions(index, str(path), 6, 11, "var seen: ")}
    assert {"map", "of", "to"} <= set(offered) and offered["map"].kind == "keyword"
    assert {"keys", "values", "get"} <= set(offered)
    hover = names.hover_text(index, str(path), 12, 26)        # get(seen, dials, 0)
    assert hover.startswith("```rules\nget(map, key, value): V\n```")
