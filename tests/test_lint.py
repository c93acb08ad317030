"""The code stays clean by the linter's rules ([tool.ruff] in pyproject.toml), so that CI
(which runs the test suite) runs ruff too."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.slow
def test_mypy_finds_nothing_in_the_typed_modules():
    # the files are [tool.mypy]'s: the checked values, the IR, its passes and its renderer
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_package_folder_is_installed():
    """pyproject.toml lists the packages one by one (referee.dsl is dsl/, referee.interpreter is
    interpreter/): a folder missing there would be missing from `pip install .`."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    listed = set(re.findall(r'"(referee[\w.]*)"', text.split("packages = [", 1)[1].split("]", 1)[0]))
    folders = {"referee"}
    for top, name in (("dsl", "referee.dsl"), ("interpreter", "referee.interpreter")):
        for init in (ROOT / top).rglob("__init__.py"):
            folders.add(".".join([name, *init.parent.relative_to(ROOT / top).parts]))
    assert folders == listed
