"""Load: 50 tables of bots and humans played at once against one `referee serve` on 127.0.0.1
(benchmarks/web_load.py, whose figures benchmarks/README.md gives; here with its shorter games,
tic-tac-toe and Kuhn poker, between humans and against bots), bounded in moves and in time: every game finishes, no move a human had accepted is missing from its table's log, and
the latency of a move is reported (median and 99th percentile)."""
from __future__ import annotations

import importlib.util

import pytest

from .web_helpers import httpx  # noqa: F401  (skips without the web extra)

from .conftest import ROOT

pytestmark = pytest.mark.slow       # fifty tables at once: the quick subset (-m "not slow") leaves them out


def load_benchmark():
    spec = importlib.util.spec_from_file_location("web_load", ROOT / "benchmarks" / "web_load.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fifty_tables_at_once_finish_every_game_and_lose_no_move(capsys):
    benchmark = load_benchmark()
    figures = benchmark.run(tables=50, seconds=90, mix=benchmark.SHORT_MIX)
    assert figures["tables"] == figures["finished"] == 50
    assert figures["human_moves"] > 150 and figures["bot_moves"] > 0
    assert 0 < figures["median_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    with capsys.disabled():
        print(f"\n  web load: 50 tables, {figures['moves']} moves in {figures['seconds']} s; a move: median "
              f"{figures['median_ms']} ms, p99 {figures['p99_ms']} ms")
