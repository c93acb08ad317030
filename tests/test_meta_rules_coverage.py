"""Every numbered rule of a seed game has its scenario test and its tag in the rules file.

The numbered rules live outside the repository, in ../shared/games/<game>.md, as list items
"- C-8 [seed] ...". For each game in COVERED:
  (a) each rule id X-n has a test function test_X<nn>_... (nn: at least two digits) in its test file;
  (b) each rule id appears as a tag @X-n in its rules file (or the files it extends);
and, the other way round, no test names a rule the spec does not have.
"""
from __future__ import annotations

import ast as python_ast
import re
from pathlib import Path

import pytest

from dsl.program import load_program

ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(__file__).resolve().parents[2] / "shared"

# spec (under shared/games) -> rule id prefix, test file (under tests), rules file (under games)
COVERED = {
    "continents.md": ("C", "test_continents_rules.py", "continents.rules"),
}


def spec_rule_ids(text: str, prefix: str) -> list:
    """The rule numbers a spec defines: list items that start with the rule id."""
    pattern = re.compile(rf"^\s*[-*]\s+(?:\*\*)?{re.escape(prefix)}-(\d+)\b", re.MULTILINE)
    return sorted({int(n) for n in pattern.findall(text)})


def scenario_tests_by_rule(path: Path, prefix: str) -> dict:
    """rule number -> names of the test functions test_<prefix><nn>_... in a test file."""
    tree = python_ast.parse(path.read_text(encoding="utf-8"), str(path))
    pattern = re.compile(rf"^test_{re.escape(prefix)}(\d{{2,}})_\w+$")
    found = {}
    for node in tree.body:
        if isinstance(node, (python_ast.FunctionDef, python_ast.AsyncFunctionDef)):
            match = pattern.match(node.name)
            if match:
                found.setdefault(int(match.group(1)), []).append(node.name)
    return found


def rules_tag_ids(path: Path, prefix: str) -> set:
    """Rule numbers tagged @<prefix>-n in a rules file and the files it extends."""
    program, diagnostics, sources = load_program(str(path))
    assert program is not None, "\n".join(d.render(sources.get(d.span.file)) for d in diagnostics)
    pattern = re.compile(rf"^{re.escape(prefix)}-(\d+)[a-z]?$")
    ids = set()
    for rule_id, _, _ in program.tags():
        match = pattern.match(rule_id)
        if match:
            ids.add(int(match.group(1)))
    return ids


def spec_text(spec: str) -> str:
    path = SHARED / "games" / spec
    if not path.is_file():
        pytest.skip(f"the numbered rules {path} are not here (the shared folder sits beside the "
                    f"repository, at ../shared)")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("spec", sorted(COVERED))
def test_every_rule_has_a_scenario_test(spec):
    prefix, test_file, _ = COVERED[spec]
    ids = spec_rule_ids(spec_text(spec), prefix)
    assert ids, f"no rule ids {prefix}-n found in {spec}"
    tests = scenario_tests_by_rule(ROOT / "tests" / test_file, prefix)
    missing = [f"{prefix}-{n}" for n in ids if n not in tests]
    assert not missing, f"rules of {spec} without a test_{prefix}<nn>_... in tests/{test_file}: {missing}"
    unknown = sorted(name for n, names in tests.items() if n not in ids for name in names)
    assert not unknown, f"tests in tests/{test_file} name rules that {spec} does not have: {unknown}"


@pytest.mark.parametrize("spec", sorted(COVERED))
def test_every_rule_is_tagged_in_the_rules_file(spec):
    prefix, _, rules_file = COVERED[spec]
    ids = spec_rule_ids(spec_text(spec), prefix)
    assert ids, f"no rule ids {prefix}-n found in {spec}"
    tagged = rules_tag_ids(ROOT / "games" / rules_file, prefix)
    missing = [f"@{prefix}-{n}" for n in ids if n not in tagged]
    assert not missing, f"rules of {spec} not tagged in games/{rules_file}: {missing}"


def test_the_extractors_read_what_they_should(tmp_path):
    spec = "- C-1 [seed] one\n  see C-9 below\n- C-2 [seed] two\n* C-10 three\n"
    assert spec_rule_ids(spec, "C") == [1, 2, 10]
    tests = tmp_path / "test_x.py"
    tests.write_text("def test_C01_a():\n    pass\ndef test_C1_short():\n    pass\n"
                     "def test_C10_b():\n    pass\ndef helper_C02_x():\n    pass\n")
    assert scenario_tests_by_rule(tests, "C") == {1: ["test_C01_a"], 10: ["test_C10_b"]}
