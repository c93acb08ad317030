"""`--cluster`: simulate, analyze, tournament and verify on a Dask distributed cluster give the JSON of
`--jobs 1` for the same seeds; the rules file travels to the workers as text and is compiled
once per worker process; a bad address, a malformed one or a missing Dask is a clear error."""
from __future__ import annotations

import builtins
import json
import os
import signal
import subprocess
import sys
import time
from multiprocessing import resource_tracker
from pathlib import Path

import dask
import distributed
import psutil
import pytest

from referee.interpreter.play import cluster
from referee.interpreter.play import parallel
from referee.interpreter.play.simulate import simulate_game
from referee.interpreter.engine import load_game
from tests.test_jobs import json_run as jobs_json_run, run

pytestmark = pytest.mark.slow       # Dask clusters: the quick subset (-m "not slow") leaves them out

ROOT = Path(__file__).resolve().parent.parent
TTT = ROOT / "games" / "tic-tac-toe.rules"
KUHN = ROOT / "games" / "kuhn-poker.rules"


@pytest.fixture(scope="module")
def scheduler():
    """A running cluster of 2 worker processes, used as a remote one: by its address."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address="127.0.0.1:0") as local:
        yield local.scheduler_address


@pytest.fixture(scope="module")
def client(scheduler):
    with distributed.Client(scheduler) as connected:
        yield connected


def json_run(capsys, *argv):
    """test_jobs.json_run, the tournament's description without its seconds at the end."""
    code, result = jobs_json_run(capsys, *argv)
    if "description" in result:
        result["description"] = result["description"].rsplit(" · ", 1)[0]
    return code, result


def same_on_the_cluster(capsys, address, *argv):
    """The JSON of a command with --jobs 1 and with --cluster ADDRESS: they must be equal."""
    one = json_run(capsys, *argv, "--jobs", 1)
    on_cluster = json_run(capsys, *argv, "--cluster", address)
    assert one == on_cluster
    return one


@pytest.mark.parametrize("argv", [(TTT, "-n", 30, "--seed", 4, "--coverage"),
                                  (KUHN, "-n", 30, "--seed", 9)], ids=["tic-tac-toe", "kuhn-poker"])
def test_simulate_on_a_cluster_is_the_same_as_one_job(capsys, scheduler, argv):
    code, summary = same_on_the_cluster(capsys, scheduler, "simulate", *argv, "--json")
    assert code == 0 and summary["games"] == summary["finished"] == 30


@pytest.mark.parametrize("argv", [(TTT, "-n", 20, "--bot", "1=first"),
                                  (KUHN, "-n", 12, "--seed", 2, "--bot", "1=ismcts:iterations=15")],
                         ids=["tic-tac-toe", "kuhn-poker"])
def test_analyze_on_a_cluster_is_the_same_as_one_job(capsys, scheduler, argv):
    code, report = same_on_the_cluster(capsys, scheduler, "analyze", *argv, "--json")
    assert code == 0 and report["figures"]["errors"]["count"] == 0


@pytest.mark.parametrize("argv", [(TTT, "--bot", "random", "--bot", "first", "-n", 12),
                                  (KUHN, "--bot", "ismcts:iterations=15", "--bot", "random", "-n", 8, "--seed", 5)],
                         ids=["tic-tac-toe", "kuhn-poker"])
def test_tournament_on_a_cluster_is_the_same_as_one_job(capsys, scheduler, argv):
    code, report = same_on_the_cluster(capsys, scheduler, "tournament", *argv, "--json")
    assert code == 0 and len(report["results"]) == report["games"] >= 8


def test_verify_on_a_cluster_is_the_same_as_one_job(capsys, scheduler, tmp_path):
    """Every player count, failures shrunk by the workers, coverage, and the logs of a remote
    cluster's failures written here (this process writes them, not the workers)."""
    argv = ("verify", ROOT / "games" / "liars-dice.rules", "-n", 12, "--seed", 3, "--flows", "--coverage",
            "--log-dir", tmp_path, "--json")
    code, report = same_on_the_cluster(capsys, scheduler, *argv)
    assert code == 1 and [result["players"] for result in report["results"]] == [2, 3, 4]
    failures = [failure for result in report["results"] for failure in result["failures"]]
    assert failures and all(f["kind"] == "leak" and f["moves"][-1] == "Liar" for f in failures)
    assert report["coverage"]["rules"]
    logs = [log for result in report["results"] for log in result["logs"]]
    assert len(logs) == len(failures) and all(Path(log).is_file() for log in logs)
    code, clean = same_on_the_cluster(capsys, scheduler, "verify", TTT, "-n", 10, "--json")
    assert code == 0 and clean["results"][0]["finished"] == 10


def test_a_local_cluster_plays_the_same_games_and_is_stopped_at_the_end(capsys):
    # multiprocessing's resource tracker lives as long as this process: started before the
    # count, whether or not an earlier test of this process (or xdist worker) started it
    resource_tracker.ensure_running()
    before = {p.pid for p in psutil.Process().children(recursive=True)}
    argv = ("analyze", KUHN, "-n", 16, "--seed", 3, "--against", KUHN, "--json")
    code, report = json_run(capsys, *argv, "--cluster", "local:2")
    assert code == 0 and (code, report) == json_run(capsys, *argv, "--jobs", 1)
    left = {p.pid for p in psutil.Process().children(recursive=True) if p.is_running()} - before
    assert not left, f"worker processes left running: {left}"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups as on Linux")
def test_ctrl_c_stops_a_local_cluster_without_a_traceback():
    process = subprocess.Popen(
        [sys.executable, "-m", "referee", "simulate", str(ROOT / "games" / "continents.rules"),
         "-n", "100000", "--cluster", "local:2"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        parent = psutil.Process(process.pid)
        deadline = time.monotonic() + 60        # (starting a cluster on a loaded machine takes long)
        while len(parent.children(recursive=True)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = parent.children(recursive=True)
        assert len(workers) >= 2
        # playing: the workers have started, compiled the game and spent a second on games
        while sum(sum(w.cpu_times()[:2]) for w in workers) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
        # what Ctrl-C in a terminal does, to every process of the group; again if not seen
        deadline = time.monotonic() + 30        # (sent at least once, however long the start took)
        while process.poll() is None and time.monotonic() < deadline:
            os.killpg(process.pid, signal.SIGINT)
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        _, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130 and err == "\ninterrupted\n"
    running = workers           # (the resource tracker of multiprocessing ends just after its parent)
    while running and time.monotonic() < deadline + 5:
        time.sleep(0.1)
        running = [worker for worker in running if worker.is_running() and worker.status() != psutil.STATUS_ZOMBIE]
    assert not running


def test_the_rules_travel_as_text_and_each_worker_compiles_once(client, tmp_path):
    base = tmp_path / "base.rules"
    base.write_text(TTT.read_text())
    variant = tmp_path / "variant.rules"
    variant.write_text('extends "base.rules"\n')
    game, diagnostics, _ = load_game(str(variant))
    assert game is not None, diagnostics
    source = cluster.source_of(game, str(variant), [])
    assert [path for path, _ in source.texts] == sorted([str(variant), str(tmp_path / "base.rules")])
    expected = [simulate_game(game, seed, 100) for seed in range(12)]
    base.unlink()
    variant.unlink()                     # the workers cannot read them from the disk now
    pool = cluster.ClusterPool(client, source)
    tasks = [(list(range(i, i + 3)), 100, None, None) for i in range(0, 12, 3)]
    for _ in range(2):
        played = [record for part in pool.map_ordered(parallel.simulate_chunk, 2, tasks) for record in part]
        assert played == expected
    compiled = client.run(lambda: [key for key in cluster._games if key[0] == source.key])
    assert all(len(keys) <= 1 for keys in compiled.values()) and any(compiled.values())


def test_a_worker_keeps_the_games_it_used_last(monkeypatch):
    monkeypatch.setattr(cluster, "_games", type(cluster._games)())
    monkeypatch.setattr(cluster, "MOST_GAMES", 2)
    text = TTT.read_text()
    sources = [cluster.GameSource("t.rules", (("t.rules", text + "\n" * k),), (), False, ()) for k in range(3)]
    first = cluster.cluster_game(sources[0], 2)
    assert cluster.cluster_game(sources[0], 2) is first           # compiled once
    second = cluster.cluster_game(sources[1], 2)
    assert cluster.cluster_game(sources[0], 2) is first           # used last: kept
    cluster.cluster_game(sources[2], 2)
    assert [key[0] for key in cluster._games] == [sources[0].key, sources[2].key]
    assert cluster.cluster_game(sources[1], 2) is not second      # dropped, compiled again


def test_a_file_a_worker_cannot_compile_and_a_task_that_raises_come_back_as_they_were(client):
    broken = cluster.GameSource("gone.rules", (("gone.rules", "game {"),), (), False, ())
    with pytest.raises(parallel.WorkerFailed, match="gone.rules:1"):
        list(cluster.ClusterPool(client, broken).map_ordered(parallel.simulate_chunk, 2, [([0], 10)]))
    game, _, _ = load_game(str(TTT))
    pool = cluster.ClusterPool(client, cluster.source_of(game, str(TTT), []))
    with pytest.raises(ValueError):      # a bot kind that does not exist
        list(pool.map_ordered(parallel.tournament_chunk, 2, [([(0, {1: "no-such-bot", 2: "random"})], 10)]))


def kill_this_worker(game, *args):
    os._exit(1)


def test_a_task_that_keeps_killing_its_worker_is_worker_died():
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address="127.0.0.1:0") as local, \
            distributed.Client(local) as client:
        game, _, _ = load_game(str(TTT))
        pool = cluster.ClusterPool(client, cluster.source_of(game, str(TTT), []))
        with pytest.raises(parallel.WorkerDied, match="the cluster gave a task up"):
            list(pool.map_ordered(kill_this_worker, 2, [()]))


def test_an_address_without_a_scheduler_is_a_clear_error(capsys, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    code, out, err = run(capsys, "simulate", TTT, "-n", 5, "--cluster", "tcp://127.0.0.1:9")
    assert code == 69 and out == ""
    assert err.startswith("referee: cannot reach the Dask scheduler at tcp://127.0.0.1:9: ")
    code, out, _ = run(capsys, "tournament", TTT, "--bot", "random", "--bot", "first",
                       "--cluster", "tcp://127.0.0.1:9", "--json")
    assert code == 69 and "cannot reach the Dask scheduler" in json.loads(out)["error"]


def test_a_scheduler_without_workers_is_a_clear_error(capsys, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_SECONDS", 1)
    with distributed.LocalCluster(n_workers=0, dashboard_address="127.0.0.1:0") as empty:
        code, out, err = run(capsys, "simulate", TTT, "-n", 5, "--cluster", empty.scheduler_address)
    assert code == 69 and out == ""
    assert err == f"referee: the Dask scheduler at {empty.scheduler_address} has no worker (none joined in 1 s)\n"


@pytest.mark.parametrize("argv, message", [
    (("--cluster", "not an address"), "argument --cluster: 'not an address': give a scheduler's address"),
    (("--cluster", "local:0"), "argument --cluster: local:N needs at least one worker process"),
    (("--cluster", "local:2", "--jobs", 2), "argument --cluster: not with --jobs"),
    (("--cluster", "tcp://127.0.0.1:9", "--log-dir", "logs"), "argument --log-dir: the workers of a remote --cluster"),
])
def test_command_line_mistakes_of_cluster(capsys, argv, message):
    code, out, err = run(capsys, "simulate", TTT, "-n", 3, *argv)
    assert code == 2 and out == "" and message in err


def test_without_dask_cluster_says_what_to_install(capsys, monkeypatch):
    real_import = builtins.__import__

    def without_dask(name, *args, **kwargs):
        if name.split(".")[0] in ("distributed", "dask"):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)
    monkeypatch.setattr(builtins, "__import__", without_dask)
    code, out, err = run(capsys, "simulate", TTT, "-n", 3, "--cluster", "local:1")
    assert code == 69 and out == ""
    assert err == "referee: --cluster needs Dask distributed: pip install 'referee[cluster]'\n"
