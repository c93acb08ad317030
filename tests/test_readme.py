"""The README's example is the real file, and CI runs exactly the README's test command."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def code_lines(text):
    return [line.rstrip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_the_readme_example_is_games_tic_tac_toe():
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"```rules\n(.*?)```", readme, re.S).group(1)
    assert code_lines(block) == code_lines((ROOT / "games" / "tic-tac-toe.rules").read_text())


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    first, second = commands[0].strip(), commands[1].strip()
    assert first.startswith("python -m pip install") and "referee play" in first and "--bot all=random" in first
    assert "pytest" in second
    assert second in (ROOT / ".ci" / "run").read_text()


def test_the_readme_gives_the_quick_subset_and_pytest_knows_its_marker():
    readme = (ROOT / "README.md").read_text()
    commands = re.findall(r"```sh\n(.*?)\n```", readme, re.S)
    assert commands[2].strip() == 'python -m pytest -q -p no:cacheprovider -m "not slow"'
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'^markers = \[\n\s+"slow: ', pyproject, re.M)
    assert "-m" not in (ROOT / ".ci" / "run").read_text().split("pytest", 1)[1]
