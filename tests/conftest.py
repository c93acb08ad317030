"""Shared test setup: hypothesis profiles, the games, and a fixture that writes rules files.

Profiles (choose with the environment variable HYPOTHESIS_PROFILE):
  fast  the default: few examples, for every run on a laptop;
  ci    more examples, still well within a few minutes on 2 cores (the default when CI is set).
"""
from __future__ import annotations

import functools
import os
import time
from pathlib import Path
from typing import NamedTuple, Optional

import pytest
from hypothesis import HealthCheck, settings

from referee.dsl import ast
from referee.dsl.program import load_program
from referee.interpreter.engine.params import player_range

pytest.register_assert_rewrite("tests.native_support")      # (its asserts explain themselves too)

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
STARTED = time.monotonic()          # (the run's start, near enough: conftest loads first)

settings.register_profile(
    "fast", max_examples=10, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "ci", max_examples=25, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# CI (which sets CI=true) runs the thorough profile; a developer's run stays fast.
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "fast"))


def game_files():
    """Every rules file of the games and their variants (other test modules import this)."""
    return sorted(GAMES.glob("*.rules")) + sorted((GAMES / "variants").glob("*.rules"))


class Header(NamedTuple):
    """What parametrizing a game's tests needs: its player counts and its options."""
    players: range
    options: tuple


def header(path) -> Optional[Header]:
    """The player counts and options a rules file declares, read from its parse alone (no check,
    no compile: collection stays cheap, and each test loads its game itself). None when the file
    does not parse (its tests then report why)."""
    return parsed_header(str(path))


@functools.cache         # several test modules (in each xdist worker) collect from the same files
def parsed_header(path: str) -> Optional[Header]:
    program, _, _ = load_program(path)
    if program is None:
        return None
    low, high = player_range(program)
    return Header(range(low, high + 1), tuple(option.name for option in program.of_kind(ast.Option)))


# the modules whose module fixtures cost most: native kernels, a Dask cluster, a Chromium
ONE_WORKER_MODULES = ("test_native_", "test_render_native", "test_cluster", "test_web_browser")


def pytest_configure(config):
    """With xdist's `-n` and no `--dist` asked for, the tests are spread with `--dist loadgroup`
    (the groups below). Set here, not in pyproject's addopts: there the option broke every run
    without xdist (`-p no:xdist`: unrecognized arguments). A worker reads the mode from its
    command line, which does not have it: the controller tells it (pytest_configure_node)."""
    if hasattr(config, "workerinput"):
        config.option.loadgroup = config.option.loadgroup or config.workerinput.get("loadgroup", False)
    elif config.pluginmanager.hasplugin("xdist") and config.getoption("dist") == "load" and not dist_asked(config):
        config.option.dist = "loadgroup"


def dist_asked(config) -> bool:
    """Whether the command line (or PYTEST_ADDOPTS) chose a distribution mode itself."""
    args = [*config.invocation_params.args, *os.environ.get("PYTEST_ADDOPTS", "").split()]
    return any(arg == "-d" or arg.startswith(("--dist", "--distload")) for arg in args)


@pytest.hookimpl(optionalhook=True)     # (an xdist hook: a run without xdist never calls it)
def pytest_configure_node(node):
    node.workerinput["loadgroup"] = node.config.getoption("dist") == "loadgroup"


WORKERS_DONE: dict = {}          # xdist worker -> seconds from the start of the run to its end


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    WORKERS_DONE[node.gateway.id] = time.monotonic() - STARTED


def pytest_terminal_summary(terminalreporter):
    """When each xdist worker ended: a worker idle at the end (its groups done early) shows."""
    if WORKERS_DONE:
        ends = ", ".join(f"{worker} after {seconds:.0f} s" for worker, seconds in sorted(WORKERS_DONE.items()))
        terminalreporter.write_line(f"xdist workers ended: {ends}")


@pytest.hookimpl(tryfirst=True)         # (before xdist's worker reads the groups)
def pytest_collection_modifyitems(items):
    """Each module that compiles native kernels (or starts a cluster or a browser) runs whole on
    one xdist worker (`--dist loadgroup`, pytest_configure above): its module fixtures are then
    built once, not once per worker; the other tests are spread one by one: first the modules
    that have slow tests, then the quick ones (a stable sort, each module kept whole: its module
    fixtures built once), so that the two workers end together on quick tests, not one on a
    long test while the other waits."""
    for item in items:
        module = item.path.stem
        if module.startswith(ONE_WORKER_MODULES):
            item.add_marker(pytest.mark.xdist_group(module))
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_modules)


@pytest.fixture(autouse=True)
def terminal_width(monkeypatch):
    """Every test draws at the width a run without a terminal gets (render.py's fallback, 100
    columns): not that of the terminal pytest was started from, nor the 80 columns xdist's
    workers are given in COLUMNS. A test of another width sets COLUMNS itself."""
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "24")


@pytest.fixture
def write_rules(tmp_path):
    """write_rules(text, name="game.rules") -> path of a rules file holding `text`."""
    def write(text: str, name: str = "game.rules") -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path
    return write
