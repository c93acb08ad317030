"""Sets and maps of values in native kernels (issue 24; interpreter/native/value_sets_source.py,
hashed_values.py): tests/native/values.rules (every construct of sets and maps in one small
game, at 2 and 3 players), texts in sets and as maps' keys (tests/native/text-sets.rules, coded
in the order of texts) and the repetition examples of docs/language.md (a set of positions
for superko, a map of positions to counts for threefold repetition) play Python's games move for
move, none handed back. The helpers over sorted codes and the hashed table give the runtime's
answers (frozenset and dict, runtime/sets.py and value_maps.py) for any values, and what has no
native form yet is refused with its rules line."""
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.runtime.sets import new_set, set_items

from .conftest import ROOT

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.rules_source import KernelSource, NotNative, module_source, render  # noqa: E402
from tests.native_support import cached_on_disk, kernel_of, natively  # noqa: E402

VALUES = "tests/native/values.rules"
TEXT_SETS = "tests/native/text-sets.rules"
HELPERS = ("set_union", "set_has", "map_made", "map_joined", "map_get", "hashed_put", "hashed_has", "hashed_get",
           "rows_made", "rows_has")


def docs_game(tmp_path, title: str) -> str:
    """The example game of docs/language.md with this title, as a rules file."""
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    for block in re.findall(r"^```rules\n(.*?)^```$", text, re.S | re.M):
        if block.startswith(f'game "{title}"'):
            path = tmp_path / f"{title}.rules"
            path.write_text(block, encoding="utf-8")
            return str(path)
    raise AssertionError(f"no game {title!r} in docs/language.md")


@pytest.fixture(scope="module", params=[2, 3], ids=lambda n: f"{n}p")
def values(request):
    return kernel_of(VALUES, request.param)


def test_sets_and_maps_play_the_python_games(values):
    records = natively(values, range(1, 41))
    assert len({tuple(r["scores"]) for r in records}) > 10


@pytest.mark.parametrize("title", ["No repeats", "Threefold"])
def test_the_repetition_examples_of_the_docs_play_natively(tmp_path, title):
    records = natively(kernel_of(docs_game(tmp_path, title), 2), range(1, 41))
    assert len({r["length"] for r in records}) > 3


def test_texts_in_sets_and_as_keys_play_the_python_games():
    """tests/native/text-sets.rules: its sets go through their texts in the language's order."""
    records = natively(kernel_of(TEXT_SETS, 2), range(1, 41))
    assert len({tuple(r["scores"]) for r in records}) > 5


def test_texts_in_a_set_are_coded_in_the_order_of_texts():
    """An enum member's name by its position first (red before blue), then the texts."""
    game, _, _ = load_game(TEXT_SETS, players=2)
    source = KernelSource(game)
    module_source(source)
    assert list(source.text_codes) == ["Bob", "amy", "zed", "red", "blue"]


def test_a_game_without_sets_renders_none_of_their_helpers():
    game, _, _ = load_game("games/tic-tac-toe.rules", players=2)
    assert "def set_union" not in render(game) and "def hashed_put" not in render(game)


def test_each_set_takes_the_form_its_values_call_for():
    game, _, _ = load_game(VALUES, players=2)
    source = render(game)
    assert "hashed_has(S, " in source and "hashed_put(S, " in source        # (positions: hashed)
    assert "bits_has(S, " in source and "S[at] = S[at] | bits_of(" in source  # (cells, seats, colours: a word)
    assert "row_has(S, " in source and "row_get(S, " in source      # (ints; a map of cells: asked in place)


@pytest.fixture(scope="module")
def helpers():
    kernel = kernel_of(VALUES, 2)
    cached_on_disk(kernel, *HELPERS)
    return kernel.module


codes = st.lists(st.integers(-5, 40), max_size=12)


@settings(max_examples=40, deadline=None)
@given(a=codes, b=codes, x=st.integers(-6, 41))
def test_sorted_sets_are_frozensets_in_order(helpers, a, b, x):
    left, right = np.unique(np.array(a, dtype=np.int64)), np.unique(np.array(b, dtype=np.int64))
    joined = helpers.set_union(left, right)
    assert list(joined) == sorted(set(a) | set(b))
    assert helpers.set_has(joined, x) == (x in set(a) | set(b))


@settings(max_examples=40, deadline=None)
@given(first=st.lists(st.tuples(st.integers(0, 9), st.integers(-3, 3)), max_size=8),
       second=st.lists(st.tuples(st.integers(0, 9), st.integers(-3, 3)), max_size=8), key=st.integers(-1, 10))
def test_sorted_maps_are_dicts_in_the_order_of_their_keys(helpers, first, second, key):
    def made(entries):
        keys = np.array([k for k, _ in entries], dtype=np.int64)
        return helpers.map_made(keys, np.array([v for _, v in entries], dtype=np.int64))
    joined = helpers.map_joined(made(first), made(second))
    expected = {**dict(first), **dict(second)}
    assert [list(row) for row in joined] == [sorted(expected), [expected[k] for k in sorted(expected)]]
    assert helpers.map_get(joined, key, 99) == expected.get(key, 99)


@settings(max_examples=30, deadline=None)
@given(keys=st.lists(st.lists(st.integers(0, 3), max_size=4), max_size=60), asked=st.lists(st.integers(0, 3), max_size=4))
def test_the_hashed_table_is_a_dict_of_lists(helpers, keys, asked):
    S = np.zeros(helpers.STATE_SIZE, dtype=np.int64)
    base = helpers.STATE_SIZE - 1 - helpers.HASHED_ENTRIES * helpers.HASHED_STRIDE - 20    # (a room of its own)
    held: dict = {}
    for k, key in enumerate(keys):
        helpers.hashed_put(S, base, np.array(key, dtype=np.int64), k)
        held[tuple(key)] = k
    assert S[helpers.ERROR] == 0 and S[base] == len(held)
    for key, value in held.items():
        assert helpers.hashed_get(S, base, np.array(key, dtype=np.int64), -1) == value
    assert helpers.hashed_has(S, base, np.array(asked, dtype=np.int64)) == (tuple(asked) in held)


@settings(max_examples=30, deadline=None)
@given(keys=st.lists(st.lists(st.integers(-2 ** 63, 2 ** 63 - 1), max_size=4), max_size=60, unique_by=tuple))
def test_the_state_writer_puts_lists_where_the_kernel_puts_them(helpers, keys):
    """state_cells.hashed_put (a rollout's state written from Python) fills the table the
    kernel's hashed_put fills, cell for cell, negative numbers too."""
    from referee.interpreter.native.state_cells import hashed_put
    native, written = (np.zeros(helpers.STATE_SIZE, dtype=np.int64) for _ in range(2))
    base = helpers.STATE_SIZE - 1 - helpers.HASHED_ENTRIES * helpers.HASHED_STRIDE - 20
    for k, key in enumerate(keys):
        helpers.hashed_put(native, base, np.array(key, dtype=np.int64), k)
        hashed_put(written, base, key, k)
    assert np.array_equal(native, written)


@settings(max_examples=30, deadline=None)
@given(lists=st.lists(st.lists(st.integers(0, 3), max_size=4), max_size=12), asked=st.lists(st.integers(0, 3), max_size=4))
def test_a_set_of_lists_goes_in_the_runtimes_order(helpers, lists, asked):
    from numba.typed import List
    rows = List.empty_list(numba.types.int64[::1])
    for items in lists:
        rows.append(np.array(items, dtype=np.int64))
    made = helpers.rows_made(rows)
    expected = set_items(new_set(lists, None), {})
    assert [list(r) for r in made] == expected
    assert helpers.rows_has(made, np.array(asked, dtype=np.int64)) == (asked in expected)


def test_a_full_hashed_table_hands_the_game_to_python(helpers):
    S = np.zeros(helpers.STATE_SIZE, dtype=np.int64)
    base = helpers.STATE_SIZE - 1 - helpers.HASHED_ENTRIES * helpers.HASHED_STRIDE - 20
    for k in range(helpers.HASHED_ENTRIES):
        helpers.hashed_put(S, base, np.array([k], dtype=np.int64), 0)
    assert S[helpers.ERROR] == 1 and S[base] == helpers.HASHED_ENTRIES * 3 // 4


REFUSED = [
    ("var names: set of text = {}", "let w = text_of(3)", "a set or a map of texts in a game that makes texts in play"),
    ("var shares: map of int to real = {:}", "x", "a map's values of type real"),
    ("var seen: map of list of int to int = {:}", "let m = seen", "a map of lists taken whole"),
]


@pytest.mark.parametrize("declared, statement, note", REFUSED, ids=["texts", "reals", "iterated-lists"])
def test_what_has_no_native_form_yet_is_refused_with_its_line(tmp_path, declared, statement, note):
    rules = tmp_path / "refused.rules"
    body = "" if statement == "x" else statement
    rules.write_text(f'game "R" {{\n  players 2\n}}\n{declared}\naction go "go" {{\n  {body}\n  finish\n}}\n'
                     'flow {\n  turns from 1 {\n    play go\n  }\n}\n', encoding="utf-8")
    game, diagnostics, _ = load_game(str(rules), players=2)
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    assert note in refused.value.note() and refused.value.span.line in (4, 6)
