"""Maps of places and routes in native playouts (issue 24): tests/native/maps.rules has a grid
beside a places board and a routes board (cells numbered board after board), place names as
values, a route's `ends` and lists compared, neighbors, adjacent, reachable, groups, distance
(none when nothing joins two places), connected and longest_trail (weights none, negative or
left out); its native games (3 players) are the Python engine's, move for move. The search of
longest_trail is checked against the runtime's, its value and the work it charges alike."""
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game
from referee.interpreter.play.simulate import simulate_game
from referee.interpreter.runtime import maps

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.kernel import TO_PYTHON, load_kernel  # noqa: E402
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402
from referee.interpreter.native import maps_source, trails_source  # noqa: E402
from tests.native_support import native_functions  # noqa: E402

MAPS = "tests/native/maps.rules"
# (the kernel's functions alone, from a file of the kernel cache: Numba's cache keeps their compile)
ON_DISK = "import numpy as np\nimport numba\n\nnjit = numba.njit(cache=True)\n"


@pytest.fixture(scope="module")
def routes_game():
    """At 3 players (a kernel at 2 as well played the same map functions: one kernel compiled, not two)."""
    game, diagnostics, _ = load_game(MAPS, players=3)
    assert game is not None, diagnostics
    return load_kernel(game)


@pytest.fixture(scope="module")
def ticket_to_ride():
    game, diagnostics, _ = load_game("games/ticket-to-ride.rules", players=2)
    assert game is not None, diagnostics
    return load_kernel(game)


def in_python(kernel, max_moves):
    return lambda seed: simulate_game(kernel.game, seed, max_moves)


def played_alike(kernel, seeds, max_moves=10_000) -> list:
    """The Python engine's records of the seeds, once the kernel has played the same ones
    natively (none of them given back to Python)."""
    python = [simulate_game(kernel.game, seed, max_moves) for seed in seeds]
    assert kernel.records(seeds, max_moves, in_python(kernel, max_moves)) == python
    assert np.count_nonzero(kernel.play(list(seeds), max_moves)[0] == TO_PYTHON) == 0
    return python


def test_the_map_games_are_the_python_games(routes_game):
    python = played_alike(routes_game, range(1, 61))
    assert len({tuple(r["scores"]) for r in python}) > 5


def test_ticket_to_ride_plays_natively_as_in_python(ticket_to_ride):
    """Both boards, the tickets kept as subsets, the routes' twins, connected and the longest
    path in the final scoring (its 5 players: benchmarks/same_games.py --game ticket)."""
    python = played_alike(ticket_to_ride, range(1, 9))
    assert len({tuple(r["scores"]) for r in python}) == 8


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=4), st.integers(1, 12))
def test_any_seeds_and_move_limit_give_the_python_records(routes_game, seeds, max_moves):
    assert routes_game.records(seeds, max_moves, in_python(routes_game, max_moves)) == \
        [simulate_game(routes_game.game, seed, max_moves) for seed in seeds]


# ---- the search of longest_trail, against the runtime's ------------------------------------

@pytest.fixture(scope="module")
def trails():
    """The kernel's trail functions alone (ERROR and TRAIL_WORK: the first two slots of S)."""
    namespace = native_functions(ON_DISK + "ERROR, TRAIL_WORK = 0, 1\n" + trails_source.TRAIL_FUNCTIONS, ["longest_trail_of"])
    game, diagnostics, _ = load_game(MAPS)
    assert game is not None, diagnostics
    ends = np.full((len(game.geometry_by_cell), 2), -1, dtype=np.int64)
    for route, pair in game.geometries["Road"].ends.items():
        ends[route] = pair
    return game, ends, namespace["longest_trail_of"]


def python_trail(game, weighted):
    """The runtime's longest trail and the units of work it charged."""
    s = types.SimpleNamespace(game=types.SimpleNamespace(geometry_by_cell=game.geometry_by_cell,
                                                         step_budget=[1, 10 ** 8]))
    return maps.longest_trail(s, weighted), 10 ** 8 - s.game.step_budget[1]


@settings(max_examples=150, deadline=None)
@given(data=st.data(), negative=st.booleans())
def test_the_native_trail_is_the_runtimes_and_charges_the_same_work(trails, data, negative):
    game, ends, longest_trail_of = trails
    roads = game.geometries["Road"].cells
    routes = data.draw(st.lists(st.sampled_from(roads), max_size=12))         # (a route may come twice)
    weights = [data.draw(st.integers(-2, 5) if negative else st.integers(0, 5)) for _ in routes]
    value, work = python_trail(game, list(zip(routes, weights)))
    S = np.zeros(2, dtype=np.int64)
    native = longest_trail_of(S, ends, np.array(routes, dtype=np.int64), np.array(weights, dtype=np.int64))
    assert (native, S[1], S[0]) == (value, work, 0)


def test_a_search_past_the_kernels_share_of_the_budget_goes_to_python(trails):
    game, ends, longest_trail_of = trails
    roads = np.array(game.geometries["Road"].cells, dtype=np.int64)
    S = np.zeros(2, dtype=np.int64)
    S[1] = trails_source.TRAIL_LIMIT - 3        # (the game's trails so far)
    assert longest_trail_of(S, ends, roads, np.ones(len(roads), dtype=np.int64)) == 0
    assert S[0] == 1 and S[1] == trails_source.TRAIL_LIMIT + 1


@pytest.fixture(scope="module")
def map_functions(trails):
    """The kernel's map functions alone, with the game's tables (ERROR: S[0])."""
    game, ends, _ = trails
    namespace = native_functions(ON_DISK + "ERROR = 0\n" + maps_source.MAP_FUNCTIONS, ["map_connected", "map_distance"])
    rows = [list(g.neighbors[c]) for g in game.geometries.values() for c in g.cells]
    width = max(len(row) for row in rows)
    near = np.array([row + [-1] * (width - len(row)) for row in rows], dtype=np.int64)
    return game, ends, near, namespace


@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_connected_and_distance_on_a_map_are_the_runtimes(map_functions, data):
    game, ends, near, functions = map_functions
    towns, roads = game.geometries["Town"].cells, game.geometries["Road"].cells
    routes = data.draw(st.lists(st.sampled_from(roads), max_size=9))
    a, b = data.draw(st.sampled_from(towns)), data.draw(st.sampled_from(towns))
    S = np.zeros(1, dtype=np.int64)
    s = types.SimpleNamespace(game=types.SimpleNamespace(geometry_by_cell=game.geometry_by_cell))
    assert functions["map_connected"](S, ends, a, b, np.array(routes, dtype=np.int64)) == maps.connected(s, a, b, routes)
    steps = maps.steps_between({}, game.geometries["Town"], a, b)
    assert functions["map_distance"](S, near, a, b) == (np.iinfo(np.int64).min if steps is None else steps)
    assert S[0] == 0


# ---- what is refused ----------------------------------------------------------------------

def refusal(tmp_path, text):
    path = tmp_path / "refused.rules"
    path.write_text(text, encoding="utf-8")
    game, diagnostics, _ = load_game(str(path))
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    return refused.value.note()


def test_a_second_grid_is_refused_with_its_line(tmp_path):
    text = open(MAPS, encoding="utf-8").read().replace(
        "board Yard: grid 2 by 2\n", "board Yard: grid 2 by 2\nboard Court: grid 3 by 3\n")
    assert refusal(tmp_path, text) == f"{tmp_path / 'refused.rules'}:14: more than one grid or hex board has no native form yet"
