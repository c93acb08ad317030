"""The flow's constructs in native kernels (issue 24): procedures, `after`, recursion through it,
triggers, `repeat`/`while`/`turn`, options and chance draws give the games Python gives, move for
move. Backgammon with its doubling cube, and tests/native/flow-constructs.rules (every construct
in one small race), each compiled once per run at most (Numba's cache keeps them between runs)."""
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.engine import load_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native.kernel import TO_PYTHON  # noqa: E402
from referee.interpreter.native.recursion import DEPTHS, recursive_groups  # noqa: E402
from referee.interpreter.native.recursion_heads import RecursionHeadsSource  # noqa: E402
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402
from referee.interpreter.native.kernel import load_kernel  # noqa: E402
from tests.native_support import compiled, kernel_of, natively, same_games  # noqa: E402

CONSTRUCTS = "tests/native/flow-constructs.rules"


@pytest.fixture(scope="module")
def backgammon_cube():
    return kernel_of("games/backgammon.rules", 2, ["cube"])


@pytest.fixture(scope="module")
def constructs():
    """Every construct, with a lookahead deeper than the recursion's copies by depth were (one
    kernel for both: the lookahead is a constant of it)."""
    return kernel_of(CONSTRUCTS, 3, ["bonus"], {"lookahead": DEPTHS + 2})


def test_backgammon_with_the_cube_plays_the_python_games(backgammon_cube):
    python = natively(backgammon_cube, range(1, 31))
    assert {r["returns"][0] for r in python} - {1.0, -1.0}         # (a double taken, or a gammon)


@pytest.fixture(scope="module")
def goofspiel():
    return kernel_of("games/goofspiel.rules", 3, ["descending"], {"n": 6})


def test_simultaneous_steps_and_real_returns_play_the_python_games(goofspiel):
    python = natively(goofspiel, range(1, 61))
    assert {r["returns"][0] for r in python} >= {0.5, -0.5}           # (ties: shared wins)


def test_analyze_counts_the_sealed_moves_as_python_does(capsys, goofspiel):
    from referee.interpreter.cli.main import main
    argv = ["analyze", "games/goofspiel.rules", "--players", "3", "--option", "descending", "--param", "n=6",
            "-n", "20", "--seed", "4", "--json", "-j", "1"]
    outputs = []
    for engine in ("python", "native"):
        assert main([*argv, "--engine", engine]) == 0
        captured = capsys.readouterr()
        assert "not natively" not in captured.err
        outputs.append(json.loads(captured.out)["figures"])
    assert outputs[0] == outputs[1]


def test_every_construct_plays_the_python_games(constructs):
    python = natively(constructs, range(1, 61))
    assert all(r["finished"] for r in python) and {tuple(r["winners"]) for r in python} >= {(1,), (2,), (3,)}


def test_a_game_stopped_at_max_moves_is_the_same_unfinished_game(constructs):
    python = same_games(constructs, range(5), max_moves=7).records
    assert not any(r["finished"] for r in python)


def test_a_recursion_deeper_than_the_copies_were_plays_natively(constructs):
    assert constructs.game.params["lookahead"] > DEPTHS
    natively(constructs, range(1, 6))


def test_a_recursion_that_never_ends_plays_in_python_and_gives_its_error(tmp_path):
    rules = tmp_path / "forever.rules"
    rules.write_text(RULES.format(declaration="fn deeper(k: int): int = k > 100000 ? k : deeper(k + 1) + 0\n"
                                              "action dive \"dive\" {\n  n = deeper(0)\n}",
                                  flow="play dive"))
    game, diagnostics, _ = load_game(str(rules), players=2)
    assert game is not None, diagnostics
    source = render(game)
    assert "def rec_deeper(S, cur, L_k):" in source and ">= 100:\n        S[ERROR] = 1" in source
    played = same_games(compiled(load_kernel(game)), range(2), max_moves=5)
    assert played.handed == [0, 1]
    assert all("recursion" in r["error"] for r in played.records), played.records[0]["error"]


def test_by_copies_a_recursion_deeper_than_the_copies_plays_in_python(monkeypatch):
    def no_heads(self, groups):         # (as a recursion through a procedure is still rendered)
        self.recursing = None
        return {}
    monkeypatch.setattr(RecursionHeadsSource, "native_groups", no_heads)
    game, _, _ = load_game(CONSTRUCTS, players=3, options=["bonus"], params={"lookahead": DEPTHS + 2})
    kernel = compiled(load_kernel(game))        # (its own kernel: not the one kernel_of shares)
    status, *_ = kernel.play(range(1, 6), 10_000)
    assert list(status) == [TO_PYTHON] * 5
    assert same_games(kernel, range(1, 6)).handed == list(range(1, 6))


def test_a_flow_that_runs_on_stops_natively_where_it_stops_in_python():
    kernel = kernel_of(CONSTRUCTS, 2, params={"spin": 150_000})
    python, handed = same_games(kernel, range(3))
    assert handed == [0, 1, 2]
    assert all("ran on" in r["error"] or "runs on" in r["error"] for r in python), python[0]["error"]


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=6), st.integers(1, 40))
def test_any_seeds_and_move_limit_give_the_python_records(constructs, seeds, max_moves):
    same_games(constructs, seeds, max_moves)


# ---- what is rendered, what is refused -----------------------------------------------------

def test_the_recursive_functions_are_found():
    game, _, _ = load_game("games/backgammon.rules", players=2)
    assert recursive_groups(game.program) == {"can_play_dice": frozenset({"can_play_dice"})}
    source = render(game)       # (Numba's own recursion: recursion_heads.py)
    assert "def rec_can_play_dice(S, cur, L_n):" in source and "_d0(" not in source


def test_an_option_is_a_constant_of_the_kernel():
    without, _, _ = load_game("games/backgammon.rules", players=2)
    with_cube, _, _ = load_game("games/backgammon.rules", players=2, options=["cube"])
    assert render(without) != render(with_cube)


RULES = '''game "Asked" {{
  players 2
}}

var n: int = 0

action wait "wait" {{
}}

{declaration}

flow {{
  turns from 1 {{
    {flow}
  }}
}}
'''


@pytest.mark.parametrize("declaration, flow, line, what", [
    ("proc ask(d: int) {\n  choose k in 1..2 by current {\n    n = k\n  }\n  if d > 0 {\n    ask(d - 1)\n  }\n}\n"
     "trigger asked when n > 3 {\n  ask(1)\n}",
     "play wait", 10, "a recursive procedure that decides (ask), called from a trigger"),
])
def test_a_construct_without_native_form_is_refused_with_its_line(tmp_path, declaration, flow, line, what):
    rules = tmp_path / "asked.rules"
    rules.write_text(RULES.format(declaration=declaration, flow=flow))
    game, diagnostics, _ = load_game(str(rules), players=2)
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    assert refused.value.note() == f"{rules}:{line}: {what}"
