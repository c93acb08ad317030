"""benchmarks/compare.py's native contestant (issue 24): the kernel's games are the Python
path's, seed for seed (what compare.py's same-games check relies on), and a run with --native
gives its ratios in the same rounds. Tic-tac-toe: its kernel is the quickest to compile."""
import json
import subprocess
import sys

import pytest

from referee.interpreter.engine import load_game

from .conftest import ROOT

pytest.importorskip("numba", reason="the native extra (numba) is not installed")
sys.path.insert(0, str(ROOT / "benchmarks"))
import worker  # noqa: E402

from referee.interpreter.native.kernel import load_kernel  # noqa: E402

SEEDS = 200


def test_native_batches_play_the_python_paths_games():
    game, diagnostics, _ = load_game(str(ROOT / "games" / "tic-tac-toe.rules"), players=2)
    assert game is not None, diagnostics
    batches = worker.NativeBatches(load_kernel(game))
    native = batches.results(game, SEEDS)
    python = [worker.playout(game, seed) for seed in range(SEEDS)]
    assert worker.summary(native) == worker.summary(python)
    assert [moves for moves, _ in native] == [moves for moves, _ in python]
    assert batches.slice(0.01) >= batches.batch and batches.moves > 0 and batches.handed_to_python == 0


NO_NATIVE = "e0ad448"     # (main of 2026-12-04: before interpreter/native)


@pytest.mark.slow       # (worker processes, each loading the engine and the kernel; a git worktree)
def test_compare_native_reports_the_ratios_in_one_run():
    known = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", NO_NATIVE + "^{commit}"],
                           capture_output=True)
    against = ["--against", NO_NATIVE] if known.returncode == 0 else []     # (a shallow clone has no history)
    finished = subprocess.run([sys.executable, "benchmarks/compare.py", "--native", "--only", "tic-tac-toe",
                               "--rounds", "1", "--seconds", "0.05", "--json", *against],
                              cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr
    report = json.loads(finished.stdout)
    kinds = ["engine", "native", "reference"] + (["engine"] if against else [])
    assert [c["kind"] for c in report["contestants"]] == kinds
    (row,) = report["configs"]
    native = row["contestants"]["now native"]
    assert native["native_over_python_path"]["median"] > 1
    assert native["native_over_reference"]["median"] > 0
    assert len(native["loads"]) == 1 and native["loads"][0]["seconds"] > 0
    assert row["seeds_checked"] > 0 and len({entry["moves_in_seeds_checked"] for entry in row["contestants"].values()}) == 1
    notes = [f"{NO_NATIVE} has no native kernels (interpreter/native): no native contestant"] if against else []
    assert report["warnings"] == notes
