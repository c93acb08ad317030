"""Native playouts (issue 24): a game's whole random playout in one Numba call gives the games
the Python engine gives (same moves, so the same lengths, ends and returns), `--engine` picks
it, a game it cannot render plays in Python with a note naming the construct and its rules line,
and the compiled kernel is cached on disk. Two kernels are compiled here (tic-tac-toe; liar's
dice, which draws from the game's own stream and has actions of two arguments), once per run
at most: Numba's cache keeps them between runs."""
import json
import random
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.interpreter.cli.main import main
from referee.interpreter.engine import load_game
from referee.interpreter.play.simulate import simulate_game

numba = pytest.importorskip("numba", reason="the native extra (numba) is not installed")
from referee.interpreter.native import bot_random  # noqa: E402
from referee.interpreter.native.engine_choice import native_kernel  # noqa: E402
from referee.interpreter.native.kernel import cache_folder, load_kernel  # noqa: E402
from referee.interpreter.native.rules_source import NotNative, render  # noqa: E402
from tests.native_support import kernel_of, same_games  # noqa: E402


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return code, captured.out, captured.err


def without_timing(text: str) -> dict:
    summary = json.loads(text)
    summary.pop("seconds")
    return summary


@pytest.fixture(scope="module")
def tic_tac_toe():
    return kernel_of("games/tic-tac-toe.rules", 2)


@pytest.fixture(scope="module")
def liars_dice():
    return kernel_of("games/liars-dice.rules", 2)


# ---- the RandomBot's draws --------------------------------------------------------------

@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.integers(1, 5000), min_size=1, max_size=40))
def test_the_kernel_bot_draws_what_random_random_draws(seed, sizes):
    rng, mt = random.Random(seed), bot_random.seeded(seed)
    assert tuple(int(w) for w in mt[:625]) == rng.getstate()[1]
    assert [int(bot_random.below(mt, n)) for n in sizes] == [rng.randrange(n) for n in sizes]


def test_the_lazy_twist_draws_what_the_whole_twist_draws_over_rounds():
    rng, mt = random.Random(7), bot_random.seeded(7)
    sizes = [2, 3, 1000, 2**31 + 1, 6] * 600              # past two rounds of 624 words
    assert [int(bot_random.below(mt, n)) for n in sizes] == [rng.randrange(n) for n in sizes]


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=9), st.integers(0, 8))
def test_seeds_seeded_side_by_side_draw_what_random_random_draws(seeds, first):
    """The driver seeds the generators of bot_random.LANES games at once (seed_group); past the
    last seed it repeats the last one."""
    first = min(first, len(seeds) - 1)
    mts = np.empty((bot_random.LANES, 626), dtype=np.uint64)
    bot_random.seed_group(mts, np.array(seeds, dtype=np.int64), first)
    for lane in range(bot_random.LANES):
        seed = seeds[min(first + lane, len(seeds) - 1)]
        rng, mt = random.Random(seed), mts[lane].copy()
        assert tuple(int(w) for w in mt[:625]) == rng.getstate()[1]
        assert [int(bot_random.below(mt, n)) for n in (2, 9, 700)] == [rng.randrange(n) for n in (2, 9, 700)]


# ---- the same games ---------------------------------------------------------------------

@pytest.mark.parametrize("fixture", ["tic_tac_toe", "liars_dice"])
def test_native_records_are_the_python_records(fixture, request):
    python = same_games(request.getfixturevalue(fixture), range(1, 61)).records
    assert any(r["winners"] == [1] for r in python) and any(r["winners"] == [2] for r in python)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=8), st.integers(1, 12))
def test_any_seeds_and_move_limit_give_the_python_records(liars_dice, seeds, max_moves):
    same_games(liars_dice, seeds, max_moves)


def test_a_game_stopped_at_max_moves_is_unfinished_in_both(tic_tac_toe):
    python = same_games(tic_tac_toe, range(5), 4).records
    assert not any(r["finished"] for r in python)


def test_simulate_json_is_the_same_with_either_engine(capsys, tic_tac_toe):
    argv = ["simulate", "games/tic-tac-toe.rules", "-n", "40", "--seed", "3", "--json", "-j", "1"]
    _, python, _ = run(capsys, *argv, "--engine", "python")
    _, native, note = run(capsys, *argv, "--engine", "native")
    assert without_timing(native) == without_timing(python)
    assert note == ""


def test_analyze_json_is_the_same_with_either_engine(capsys, tic_tac_toe):
    argv = ["analyze", "games/tic-tac-toe.rules", "-n", "30", "--seed", "2", "--json", "-j", "1"]
    _, python, _ = run(capsys, *argv, "--engine", "python")
    _, native, note = run(capsys, *argv, "--engine", "native")
    assert json.loads(native)["figures"] == json.loads(python)["figures"] and note == ""


def test_bench_reports_the_compile_apart(capsys, tic_tac_toe):
    code, out, _ = run(capsys, "bench", "games/tic-tac-toe.rules", "--engine", "native", "--seconds", "0.2", "--json")
    result = json.loads(out)
    assert code == 0 and result["engine"] == "native" and result["compile_seconds"] >= 0
    assert result["playouts"] > 0 and 5 <= result["mean_moves_per_game"] <= 9
    # (the fixture compiled or loaded the kernel already: this process's call is a load)
    assert result["kernel_from_cache"] is True and result["native_start_seconds"] >= result["compile_seconds"]


def test_a_command_imports_numba_without_scipy_linalg():
    """engine_choice.import_numba keeps numba's BLAS check from importing scipy.linalg (a part of
    a cached kernel's start), and SciPy stays importable after it (in a new process: this one
    may have imported numba already)."""
    child = ("import sys\n"
             "from referee.interpreter.native.engine_choice import import_numba, NUMBA_IMPORT\n"
             "import_numba()\n"
             "import numba.np.arraymath as m\n"
             "print(m._HAVE_BLAS, 'scipy.linalg' in sys.modules, len(NUMBA_IMPORT))\n"
             "import importlib.util\n"
             "if importlib.util.find_spec('scipy') is not None:\n"
             "    import scipy.linalg\n"
             "    print(scipy.linalg.__name__)\n")
    out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True).stdout
    assert out.split()[:3] == ["False", "False", "1"] and out.split()[3:] in ([], ["scipy.linalg"])


# ---- the fallback -----------------------------------------------------------------------

def test_a_game_that_does_not_render_plays_in_python_with_a_located_note(capsys, tmp_path):
    rules = tmp_path / "seen.rules"         # (tic-tac-toe with a variable holding a list of reals)
    rules.write_text(open("games/tic-tac-toe.rules").read().replace(
        "var mark[Cell]: Player? = none", "var mark[Cell]: Player? = none\nvar seen: list of real = []"))
    argv = ["simulate", rules, "-n", "3", "--json", "-j", "1"]
    _, python, _ = run(capsys, *argv)
    _, native, note = run(capsys, *argv, "--engine", "native")
    assert without_timing(native) == without_timing(python)
    assert re.search(r"playing in Python, not natively: .*seen\.rules:8: a variable holding a list of real", note)


def test_what_the_kernel_does_not_do_is_said(capsys, tmp_path):
    _, _, note = run(capsys, "simulate", "games/tic-tac-toe.rules", "-n", "2", "--engine", "auto",
                     "--log-dir", tmp_path, "-j", "1")
    assert "not natively: --log-dir writes each game's log" in note


def test_the_python_engine_says_nothing():
    game, _, _ = load_game("games/kuhn-poker.rules", players=2)
    assert native_kernel(game, "python") == (None, None)


def test_without_numba_native_plays_in_python_and_says_so(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "numba", None)          # (import numba then fails)
    game, _, _ = load_game("games/tic-tac-toe.rules", players=2)
    kernel, note = native_kernel(game, "auto")
    assert kernel is None and "Numba is not installed (pip install 'referee[native]')" in note


def test_a_kernel_that_does_not_compile_falls_back_with_a_note(monkeypatch):
    from referee.interpreter.native import kernel as kernel_module

    class Refused:
        def compile(self):
            raise TypeError("no typing for this\nmore detail")
    monkeypatch.setattr(kernel_module, "load_kernel", lambda game: Refused())
    game, _, _ = load_game("games/tic-tac-toe.rules", players=2)
    kernel, note = native_kernel(game, "native")
    assert kernel is None and note.endswith("the kernel did not compile (TypeError: no typing for this)")


def test_not_native_names_the_construct_and_its_line(tmp_path):
    rules = tmp_path / "pieces.rules"
    rules.write_text('game "Pieces" {\n  players 2\n}\n\ncomponent Piece {\n  size: int\n}\nzone box: pile of Piece\n'
                     'setup {\n  create 2 Piece { size: 1 } in box\n}\n'
                     'action grow "grow" {\n  let pieces = box\n  move top(pieces) to box\n}\n\n'
                     'flow {\n  turns from 1 {\n    play grow\n  }\n}\n')
    game, diagnostics, _ = load_game(str(rules), players=2)
    assert game is not None, diagnostics
    with pytest.raises(NotNative) as refused:
        render(game)
    assert refused.value.note().startswith(f"{rules}:13: a local holding a zone")


# ---- the cache --------------------------------------------------------------------------

def test_the_kernel_is_cached_under_its_source_hash(tic_tac_toe):
    cached = (cache_folder() / f"kernel_{tic_tac_toe.hash}.py").read_text()
    assert cached.startswith(render(tic_tac_toe.game)) and "compiled against the helpers" in cached
    again = load_kernel(tic_tac_toe.game)
    assert again.module is tic_tac_toe.module
    status, length, _, _, _ = again.play(np.arange(3), 10_000)
    assert list(status) == [0, 0, 0] and all(5 <= n <= 9 for n in length)


def test_the_cache_folder_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("REFEREE_NATIVE_CACHE", str(tmp_path))
    assert cache_folder() == tmp_path


# ---- the board functions -----------------------------------------------------------------

@pytest.mark.parametrize("rules", ["tic-tac-toe", "connect-four", "othello"])     # (othello: no one word)
def test_has_line_answers_as_the_engine_does(rules):
    from referee.interpreter.native import kernel_helpers
    from referee.interpreter.native.board_tables import BoardTables
    game, _, _ = load_game(f"games/{rules}.rules", players=2)
    tables = BoardTables(game)
    names = tables.numpy_arrays()
    engine_has_line = game.board_functions["has_line"]
    cells = range(len(tables.geometry.cells))

    @settings(max_examples=300, deadline=None)
    @given(st.sets(st.sampled_from(cells)), st.integers(0, 6))
    def same(chosen, length):
        chosen = sorted(chosen)
        native = kernel_helpers.has_line(names["BOARD_LINE"], names["BOARD_BIT"], names["BOARD_SHIFT"],
                                         np.array(chosen, dtype=np.int64), length)
        assert bool(native) == engine_has_line(chosen, length)
        if names["BOARD_SHIFT"][0] >= 0:        # (the word of words_source.py, where the board fits one)
            word = np.uint64(sum(int(names["BOARD_BIT"][c]) for c in chosen))
            assert bool(kernel_helpers.has_line_word(names["BOARD_SHIFT"], (word, len(chosen)), length)) == \
                engine_has_line(chosen, length)
    same()


LINES_WRITTEN_OUT = """
game "Lines" {
  players 2
}
board Cell: grid 4 by 4
var mark[Cell]: Player? = none
fn mine(p: Player, q: Player): list of Cell = filter(c in Cell where mark[c] == p or mark[c] == q)
action put(c in Cell where mark[c] == none) "{c}" {
  mark[c] = current
}
flow {
  turns from 1 {
    play put
    if has_line(filter(c in Cell where mark[c] == current), 3) {
      finish winners [current]
    }
    if has_line(filter(c in Cell), 0) and has_line(mine(next(current), next(current)), 4) {
      finish winners [next(current)]
    }
    if count(c in Cell where mark[c] == none) == 0 {
      finish
    }
  }
}
"""


def test_has_line_over_a_filter_of_cells_goes_over_one_word_to_the_same_games(tmp_path):
    """has_line of a filter of the board's cells, written there or as a function's body, is
    rendered over one word (words_source.py), no list made; the games are Python's."""
    rules = tmp_path / "lines.rules"
    rules.write_text(LINES_WRITTEN_OUT)
    game, diagnostics, _ = load_game(str(rules), players=2)
    assert game is not None, diagnostics
    source = render(game)
    assert source.count("has_line_word(BOARD_SHIFT, ") == 3 and "has_line(BOARD_LINE" not in source
    kernel = load_kernel(game)
    seeds = range(41)                   # (not a multiple of bot_random.LANES: the last group is short)
    assert 2 not in set(kernel.play(seeds, 1000)[0])         # (none left to Python)
    records = kernel.records(seeds, 1000, lambda seed: simulate_game(game, seed, 1000))
    assert records == [simulate_game(game, seed, 1000) for seed in seeds]
