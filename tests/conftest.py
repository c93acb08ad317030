"""Shared test setup: hypothesis profiles, the games, and a fixture that writes rules files.

Profiles (choose with the environment variable HYPOTHESIS_PROFILE):
  fast  the default: few examples, for every run on a laptop;
  ci    more examples, still well within a few minutes on 2 cores (the default when CI is set).
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"

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


@pytest.fixture
def write_rules(tmp_path):
    """write_rules(text, name="game.rules") -> path of a rules file holding `text`."""
    def write(text: str, name: str = "game.rules") -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path
    return write
