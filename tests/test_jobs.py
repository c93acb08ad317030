"""`--jobs N`: simulate, verify and bench in worker processes. The summaries and reports are
the same as with `--jobs 1` (played in this process) for the same seeds; a worker that dies
or fails is reported, never waited for; Ctrl-C leaves no worker behind."""
from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.interpreter.play import parallel
from referee.interpreter.cli.main import main
from referee.interpreter.play import simulate
from referee.interpreter.runtime.errors import RulesRuntimeError
from tests.test_cli import DEAD_END

pytestmark = pytest.mark.slow       # worker processes: the quick subset (-m "not slow") leaves them out

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
MUST_FAIL = sorted((ROOT / "tests" / "verify").glob("*.rules"))
LINUX = sys.platform.startswith("linux")

STUCK = DEAD_END      # three cells, no end: a dead end


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return code, captured.out, captured.err


def json_run(capsys, *argv):
    code, out, err = run(capsys, *argv)
    result = json.loads(out)
    result.pop("seconds", None)
    return code, result


def same_with_two_jobs(capsys, *argv):
    """The JSON of a command with --jobs 1 and --jobs 2 (seconds aside): they must be equal."""
    one = json_run(capsys, *argv, "--jobs", 1)
    two = json_run(capsys, *argv, "--jobs", 2)
    assert one == two
    return one


# ---- simulate ----------------------------------------------------------------------------

@pytest.mark.parametrize("file, players, games", [("continents.rules", 3, 8), ("titicaca.rules", None, 4)])
def test_simulate_summary_is_the_same_with_two_jobs(capsys, file, players, games):
    argv = ["simulate", GAMES / file, "-n", games, "--seed", 11, "--json"] + (["--players", players] if players else [])
    code, summary = same_with_two_jobs(capsys, *argv)
    assert code == 0 and summary["games"] == games and summary["finished"] + summary["unfinished"] == games


def test_simulate_runtime_errors_and_logs_are_the_same_with_two_jobs(capsys, tmp_path):
    stuck = tmp_path / "stuck.rules"
    stuck.write_text(STUCK)
    results = {}
    for jobs in (1, 2):
        logs = tmp_path / f"logs{jobs}"
        code, summary = json_run(capsys, "simulate", stuck, "-n", 20, "--seed", 3, "--json", "--log", logs, "--jobs", jobs)
        assert code == 70 and summary["runtime_errors"] == 20
        assert summary["first_error"].pop("log") == str(logs / "game-3.json")   # the lowest seed's
        files = {p.name: json.loads(p.read_text()) for p in logs.glob("*.json")}
        results[jobs] = summary, files
    assert results[1] == results[2]
    assert sorted(results[2][1]) == sorted(f"game-{seed}.json" for seed in range(3, 23))


def test_simulate_a_game_that_stops_early_and_zero_games(capsys):
    same_with_two_jobs(capsys, "simulate", GAMES / "continents.rules", "-n", 5, "--max-moves", 7, "--json")
    code, summary = same_with_two_jobs(capsys, "simulate", GAMES / "tic-tac-toe.rules", "-n", 0, "--json")
    assert code == 2 and summary == {"error": "referee simulate: error: argument -n/--games: must be at least 1: 0",
                                     "exit_code": 2}


def test_simulate_text_and_progress_with_two_jobs(capsys, monkeypatch):
    from referee.interpreter.cli import progress
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    monkeypatch.setattr(progress, "FIRST_DRAW", 0)
    monkeypatch.setattr(progress, "INTERVAL", 0)
    code, out, err = run(capsys, "simulate", GAMES / "tic-tac-toe.rules", "-n", 40, "--jobs", 2)
    assert code == 0 and "40 games (seeds 0..39)" in out
    assert "simulating " in err and "/40 games" in err


def test_one_job_plays_in_this_process(capsys, monkeypatch):
    def no_pool(*args, **kwargs):
        raise AssertionError("--jobs 1 started worker processes")
    monkeypatch.setattr(parallel, "Pool", no_pool)
    assert run(capsys, "simulate", GAMES / "tic-tac-toe.rules", "-n", 3, "--jobs", 1)[0] == 0
    assert run(capsys, "verify", GAMES / "tic-tac-toe.rules", "-n", 2, "--jobs", 1)[0] == 0
    assert run(capsys, "bench", GAMES / "tic-tac-toe.rules", "--seconds", 0.05, "--jobs", 1)[0] == 0


def test_jobs_must_be_a_positive_number(capsys):
    code, _, err = run(capsys, "simulate", GAMES / "tic-tac-toe.rules", "--jobs", 0)
    assert code == 2 and "must be at least 1" in err


# ---- verify --------------------------------------------------------------------------------

@pytest.mark.parametrize("path", MUST_FAIL, ids=[p.stem for p in MUST_FAIL])
def test_verify_report_of_a_failing_file_is_the_same_with_two_jobs(capsys, path):
    argv = ["verify", path, "-n", 3, "--max-moves", 300, "--json"]
    if path.stem == "continents-bad-exchange":
        argv += ["--players", 3]        # a seed of every 3-player game fails: the first is kept
    code, report = same_with_two_jobs(capsys, *argv)
    assert code == 1 and any(result["failures"] for result in report["results"])
    text = [run(capsys, *[a for a in argv if a != "--json"], "--jobs", jobs) for jobs in (1, 2)]
    assert text[0] == text[1] and "after shrinking" in text[0][1]


def test_verify_every_player_count_and_logs_with_two_jobs(capsys, tmp_path):
    bad = MUST_FAIL[0]
    assert bad.stem == "continents-bad-exchange"
    reports = {}
    for jobs in (1, 2):
        code, report = json_run(capsys, "verify", bad, "-n", 2, "--seed", 4, "--json",
                                "--log", tmp_path / f"j{jobs}", "--jobs", jobs)
        assert code == 1 and [r["players"] for r in report["results"]] == [2, 3, 4, 5, 6]
        for result in report["results"]:
            result["logs"] = [Path(log).name for log in result["logs"]]
        reports[jobs] = report
    assert reports[1] == reports[2]
    assert {p.name for p in (tmp_path / "j1").iterdir()} == {p.name for p in (tmp_path / "j2").iterdir()}


def test_verify_of_a_good_game_with_two_jobs(capsys):
    code, report = same_with_two_jobs(capsys, "verify", GAMES / "continents.rules", "--players", 4, "-n", 3, "--json")
    assert code == 0 and report["results"][0]["finished"] == 3


# ---- bench ---------------------------------------------------------------------------------

def test_bench_with_two_jobs_sums_two_workers(capsys):
    code, out, _ = run(capsys, "bench", GAMES / "tic-tac-toe.rules", "--seconds", 0.3, "--jobs", 2, "--json")
    figures = json.loads(out)
    assert code == 0 and figures["jobs"] == 2
    assert 0.3 <= figures["seconds"] < 2
    assert figures["playouts"] > 0 and figures["moves"] >= 5 * figures["playouts"]
    assert 5 <= figures["mean_moves_per_game"] <= 9
    assert figures["moves_per_second"] == pytest.approx(figures["moves"] / figures["seconds"], rel=0.01)
    code, out, _ = run(capsys, "bench", GAMES / "tic-tac-toe.rules", "--seconds", 0.1, "--jobs", 1, "--json")
    assert json.loads(out)["jobs"] == 1


def test_bench_runtime_error_with_two_jobs(capsys, tmp_path):
    stuck = tmp_path / "stuck.rules"
    stuck.write_text(STUCK)
    outputs = [run(capsys, "bench", stuck, "--seconds", 0.2, "--seed", 5, "--jobs", jobs) for jobs in (1, 2)]
    assert outputs[0] == outputs[1]
    code, _, err = outputs[1]
    assert code == 70 and "has no legal move" in err and "seed 5" in err


# ---- failures of the workers ---------------------------------------------------------------

@pytest.fixture
def forked(monkeypatch):
    """Workers started with 'fork', so that they see what a test monkeypatches."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("needs the 'fork' start method")
    monkeypatch.setenv("REFEREE_START_METHOD", "fork")


def test_an_error_raised_in_a_worker_is_reported_as_in_one_process(capsys, monkeypatch, forked):
    real = simulate.simulate_game

    def failing(game, seed, *args):
        if seed == 6:
            raise RulesRuntimeError("the scores cannot be counted")
        return real(game, seed, *args)
    monkeypatch.setattr(simulate, "simulate_game", failing)
    outputs = [run(capsys, "simulate", GAMES / "tic-tac-toe.rules", "-n", 12, "--jobs", jobs) for jobs in (1, 2)]
    assert outputs[0] == outputs[1]
    assert outputs[1][0] == 70 and outputs[1][2] == "runtime error: the scores cannot be counted\n"


def test_a_worker_that_dies_is_a_clear_error_not_a_hang(capsys, monkeypatch, forked):
    real = simulate.simulate_game

    def dying(game, seed, *args):
        if seed == 30:
            os.kill(os.getpid(), signal.SIGKILL)
        return real(game, seed, *args)
    monkeypatch.setattr(simulate, "simulate_game", dying)
    started = time.perf_counter()
    code, _, err = run(capsys, "simulate", GAMES / "tic-tac-toe.rules", "-n", 60, "--jobs", 2)
    assert code == 70 and "stopped unexpectedly (killed by signal SIGKILL)" in err
    assert time.perf_counter() - started < 20


def test_a_worker_that_cannot_load_the_file_says_why(tmp_path):
    with pytest.raises(parallel.WorkerFailed, match="E501.*cannot read the rules file"):
        with parallel.Pool(1, str(tmp_path / "missing.rules"), [], 2) as pool:
            pool.wait_ready()


def test_spawned_workers_give_the_same_summary(capsys, monkeypatch):
    """macOS and Windows start workers with 'spawn': a fresh interpreter that loads the file."""
    monkeypatch.setenv("REFEREE_START_METHOD", "spawn")
    same_with_two_jobs(capsys, "simulate", GAMES / "continents.rules", "-n", 4, "--json")


@pytest.mark.skipif(not LINUX, reason="reads /proc")
def test_ctrl_c_stops_the_workers():
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "simulate", str(GAMES / "continents.rules"), "-n", "100000",
         "--jobs", "2"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    def children():
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == process.pid:          # its parent
                found.append(int(stat.parent.name))
        return found
    try:
        deadline = time.monotonic() + 20
        while len(children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = children()
        assert len(workers) == 2
        time.sleep(0.3)
        os.killpg(process.pid, signal.SIGINT)          # what Ctrl-C in a terminal does
        _, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130 and "interrupted" in err and "Traceback" not in err
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]
