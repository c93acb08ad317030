"""The command line's conventions: --version and `python -m referee`, help texts with examples
and exit codes, flags that mean one thing everywhere, command-line mistakes reported as such
(exit 2, argparse's style), JSON for every outcome of --json, folders for `check`, and the
outputs docs/cli.md shows."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from interpreter.cli import main

ROOT = Path(__file__).resolve().parent.parent
TTT = str(ROOT / "games" / "tic-tac-toe.rules")
CONTINENTS = str(ROOT / "games" / "continents.rules")


def run(capsys, *argv):
    """main(argv) in-process: (exit code, stdout, stderr)."""
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return code, captured.out, captured.err


def pyproject_version():
    text = (ROOT / "pyproject.toml").read_text()
    return re.search(r'^version = "([^"]+)"', text, re.M).group(1)


# ---- --version and python -m referee -----------------------------------------------------

def test_version_is_the_package_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out == f"referee {pyproject_version()}\n"


def test_python_m_referee_runs_the_same_command_line():
    done = subprocess.run([sys.executable, "-m", "referee", "--version"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == f"referee {pyproject_version()}\n"
    done = subprocess.run([sys.executable, "-m", "referee", "check", TTT], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == f"{TTT}: ok\n"
