"""The public API: the names docs/api.md lists are importable from `referee`, its example runs,
and the module paths of the flat layout before the layers still import (the same modules)."""
import contextlib
import importlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

import referee
import referee.interpreter

ROOT = Path(__file__).resolve().parent.parent
API_PAGE = ROOT / "docs" / "api.md"


def test_every_public_name_is_importable_and_documented():
    page = API_PAGE.read_text(encoding="utf-8")
    for name in referee.__all__:
        if name in ("load_openspiel_game", "load_pettingzoo_env"):
            pytest.importorskip("pyspiel" if "openspiel" in name else "pettingzoo")
        assert getattr(referee, name) is not None
        assert f"`{name}" in page, f"{name} is not in docs/api.md"


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        referee.nothing_here  # noqa: B018


def test_the_example_of_the_api_page_runs(monkeypatch):
    monkeypatch.chdir(ROOT)
    code = re.findall(r"```python\n(.*?)```", API_PAGE.read_text(encoding="utf-8"), re.S)[0]
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(API_PAGE), "exec"), {})
    lines = printed.getvalue().splitlines()
    assert lines[0] == "[1.0, 0.0] win"
    assert "over" in lines[1]


@pytest.mark.parametrize("old, new", sorted(referee.interpreter.MOVED.items()))
def test_an_old_module_path_is_the_new_module(old, new):
    if old in ("openspiel_game", "pettingzoo_env"):
        pytest.importorskip("pyspiel" if old == "openspiel_game" else "pettingzoo")
    before = importlib.import_module(f"referee.interpreter.{old}")
    after = importlib.import_module(f"referee.interpreter.{new}")
    assert before is after
    assert after.__spec__.name == f"referee.interpreter.{new}"     # its own spec, not the old name's


def test_old_paths_in_a_fresh_process():
    code = ("from referee.interpreter.engine import load_game; "
            "from referee.interpreter.errors import IllegalMove; "
            "from referee.interpreter.bots import RandomBot; "
            "from referee.interpreter import verify; print(verify.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "referee.interpreter.tools.verify"


def test_importing_referee_imports_no_engine():
    out = subprocess.run([sys.executable, "-c", "import sys, referee; print(sorted(m for m in sys.modules if m.startswith('referee.')))"],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"
